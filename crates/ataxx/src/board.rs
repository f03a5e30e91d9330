//! What both games share: stones, blocked cells, side to move and hash on one
//! bitboard layout, and the move that fills a cell and turns its neighbours.

use crate::Square;
use crate::bits::{Bits, Geometry, Indices};
use crate::zobrist;
use plateau_core::Side;
use std::fmt;

/// What a cell holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    Empty,
    /// Never entered (full Ataxx only; `-` in the position text).
    Blocked,
    Stone(Side),
}

/// Stones are indexed by [`Side::index`]: White (`o`) 0, Black (`x`) 1.
#[derive(Clone, Copy)]
pub(crate) struct Board<B: Bits> {
    pub stones: [B; 2],
    pub blocked: B,
    pub geo: &'static Geometry<B>,
    pub side: Side,
    pub hash: u64,
}

impl<B: Bits> PartialEq for Board<B> {
    fn eq(&self, other: &Board<B>) -> bool {
        self.geo.n == other.geo.n
            && self.stones == other.stones
            && self.blocked == other.blocked
            && self.side == other.side
            && self.hash == other.hash
    }
}

impl<B: Bits> Eq for Board<B> {}

impl<B: Bits> fmt::Debug for Board<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Board({} {})",
            crate::text::format_board(self),
            self.side
        )
    }
}

impl<B: Bits> Board<B> {
    /// A board from checked parts, with its hash computed.
    pub fn new(geo: &'static Geometry<B>, stones: [B; 2], blocked: B, side: Side) -> Board<B> {
        let mut board = Board {
            stones,
            blocked,
            geo,
            side,
            hash: 0,
        };
        board.hash = board.compute_hash();
        board
    }

    /// The starting position: Black on the top-left and bottom-right corners,
    /// White on the other two, Black to move.
    pub fn start(geo: &'static Geometry<B>) -> Board<B> {
        let n = geo.n;
        let at = |file, rank| B::bit(Square::at(file, rank).index::<B>());
        let black = at(0, n - 1) | at(n - 1, 0);
        let white = at(n - 1, n - 1) | at(0, 0);
        Board::new(geo, [white, black], B::ZERO, Side::Black)
    }

    /// The board's Zobrist hash: size, side to move, stones and blocked cells.
    ///
    /// Ataxx's clocks (half-moves since a clone, the move number) and the
    /// repetition history are left out, by design: repetition compares boards,
    /// and positions that differ only by clock are the same position. The cost
    /// is the usual one: the transposition table may hand a score found with
    /// one clock or history to the same board with another, so a stored score
    /// can miss (or wrongly include) a 100-half-move or repetition draw deeper
    /// in its line. A position that is itself drawn is never scored from the
    /// table: the search asks `outcome` before probing it.
    pub fn compute_hash(&self) -> u64 {
        let mut hash = zobrist::size(self.geo.n);
        if self.side == Side::Black {
            hash ^= zobrist::BLACK_TO_MOVE;
        }
        for side in 0..2 {
            for index in Indices(self.stones[side]) {
                hash ^= zobrist::stone(side, index);
            }
        }
        for index in Indices(self.blocked) {
            hash ^= zobrist::blocked(index);
        }
        hash
    }

    #[inline]
    pub fn n(&self) -> usize {
        self.geo.n
    }

    #[inline]
    pub fn us(&self) -> B {
        self.stones[self.side.index()]
    }

    #[inline]
    pub fn them(&self) -> B {
        self.stones[1 - self.side.index()]
    }

    /// Cells a stone may enter.
    #[inline]
    pub fn empty(&self) -> B {
        self.geo.cells & !(self.stones[0] | self.stones[1] | self.blocked)
    }

    pub fn count(&self, side: Side) -> i32 {
        self.stones[side.index()].count() as i32
    }

    pub fn cell(&self, square: Square) -> Cell {
        let index = square.index::<B>();
        if self.stones[Side::Black.index()].has(index) {
            Cell::Stone(Side::Black)
        } else if self.stones[Side::White.index()].has(index) {
            Cell::Stone(Side::White)
        } else if self.blocked.has(index) {
            Cell::Blocked
        } else {
            Cell::Empty
        }
    }

    /// Fills `to` for the side to move (emptying `from` for a jump), turns the
    /// enemy stones around `to`, and hands the move over.
    #[inline]
    pub fn fill(&mut self, from: Option<usize>, to: usize) {
        let us = self.side.index();
        let them = 1 - us;
        let flips = self.geo.ring1[to] & self.stones[them];
        let mut hash = self.hash ^ zobrist::stone(us, to) ^ zobrist::BLACK_TO_MOVE;
        let mut own = self.stones[us] | B::bit(to) | flips;
        if let Some(from) = from {
            own ^= B::bit(from);
            hash ^= zobrist::stone(us, from);
        }
        for index in Indices(flips) {
            hash ^= zobrist::FLIP[index];
        }
        self.stones[us] = own;
        self.stones[them] ^= flips;
        self.hash = hash;
        self.side = !self.side;
    }

    /// What `mv` adds to the mover's stone difference: two per stone turned,
    /// one for a clone's new stone (a jump only moves one).
    #[inline]
    pub fn gain(&self, mv: crate::Move) -> i32 {
        match mv {
            crate::Move::Clone(to) => {
                1 + 2 * (self.geo.ring1[to.index::<B>()] & self.them()).count() as i32
            }
            crate::Move::Jump(_, to) => {
                2 * (self.geo.ring1[to.index::<B>()] & self.them()).count() as i32
            }
            crate::Move::Pass => 0,
        }
    }

    /// Hands the move over without changing the board.
    #[inline]
    pub fn pass(&mut self) {
        self.hash ^= zobrist::BLACK_TO_MOVE;
        self.side = !self.side;
    }

    /// Black's stones minus White's.
    #[inline]
    pub fn stone_difference(&self) -> i32 {
        self.count(Side::Black) - self.count(Side::White)
    }
}
