//! The eight symmetries of a square board (turns and reflections). The rules
//! of both games are the same under each, so a position and its image have
//! the same value: one self-play position gives eight training samples.
//! Blocked cells are carried with the stones, so positions with gaps map to
//! positions with the mapped gaps.

use crate::bits::{Bits, Indices};
use crate::board::Board;
use crate::{Ataxx, Move, Square, VirusGame};

/// How many symmetries a square board has; symmetry 0 is the identity.
pub const SYMMETRIES: usize = 8;

/// The image of `square` on an `n x n` board under symmetry `symmetry`
/// (below [`SYMMETRIES`]): bit 2 swaps files and ranks, then bit 0 reflects
/// the files and bit 1 the ranks.
pub fn square(square: Square, n: usize, symmetry: usize) -> Square {
    let (mut file, mut rank) = (square.file(), square.rank());
    if symmetry & 4 != 0 {
        std::mem::swap(&mut file, &mut rank);
    }
    if symmetry & 1 != 0 {
        file = n - 1 - file;
    }
    if symmetry & 2 != 0 {
        rank = n - 1 - rank;
    }
    Square::at(file, rank)
}

/// The image of a move.
pub fn move_image(mv: Move, n: usize, symmetry: usize) -> Move {
    match mv {
        Move::Clone(to) => Move::Clone(square(to, n, symmetry)),
        Move::Jump(from, to) => Move::Jump(square(from, n, symmetry), square(to, n, symmetry)),
        Move::Pass => Move::Pass,
    }
}

fn set_image<B: Bits>(set: B, n: usize, symmetry: usize) -> B {
    let mut image = B::ZERO;
    for index in Indices(set) {
        image |= B::bit(square(Square::from_index::<B>(index), n, symmetry).index::<B>());
    }
    image
}

fn board_image<B: Bits>(board: &Board<B>, symmetry: usize) -> Board<B> {
    let n = board.n();
    Board::new(
        board.geo,
        [
            set_image(board.stones[0], n, symmetry),
            set_image(board.stones[1], n, symmetry),
        ],
        set_image(board.blocked, n, symmetry),
        board.side,
    )
}

impl Ataxx {
    /// The position's image under `symmetry` (below [`SYMMETRIES`]), with the
    /// same side to move and move counters; the moves that led here are not
    /// carried, so repetitions count from the image.
    pub fn transformed(&self, symmetry: usize) -> Ataxx {
        Ataxx::from_parts(
            board_image(self.board(), symmetry),
            self.halfmove_clock(),
            self.fullmove_number(),
        )
    }
}

impl<B: Bits> VirusGame<B> {
    /// The position's image under `symmetry` (below [`SYMMETRIES`]).
    pub fn transformed(&self, symmetry: usize) -> VirusGame<B> {
        VirusGame::from_board(board_image(self.board(), symmetry))
    }
}
