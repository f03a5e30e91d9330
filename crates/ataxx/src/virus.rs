//! The virus game: Ataxx with clone moves only, on any board from 4x4 to 9x9.

use crate::bits::{Bits, Indices};
use crate::board::{Board, Cell};
use crate::{Move, Square};
use plateau_core::{EndReason, Game, MoveError, MoveList, Outcome, PositionError, Side};

/// Board side of the standard game.
pub const DEFAULT_SIZE: usize = 7;

/// Why a virus game ended (the side to move has no drop).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VirusEnd {
    /// Every cell is filled.
    BoardFull,
    /// The side to move has no stone left.
    NoStones,
    /// The side to move's stones are walled in: the empty cells count for the
    /// opponent.
    WalledIn,
}

impl VirusEnd {
    /// The reason given in the outcome.
    pub fn reason(self) -> EndReason {
        match self {
            VirusEnd::BoardFull => EndReason::BoardFull,
            VirusEnd::NoStones => EndReason::NoStonesLeft,
            VirusEnd::WalledIn => EndReason::WalledIn,
        }
    }
}

/// What `undo` restores, one per move played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Undo<B> {
    stones: [B; 2],
    hash: u64,
}

/// A virus game position on one bitboard width: [`Virus`] (`u64`, boards up to
/// 8x8) or [`VirusWide`] (`u128`, up to 9x9).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VirusGame<B: Bits> {
    board: Board<B>,
    history: Vec<Undo<B>>,
}

/// The virus game on boards from 4x4 to 8x8 (64-bit boards: the fast one).
pub type Virus = VirusGame<u64>;

/// The virus game on boards up to 9x9 (128-bit boards).
pub type VirusWide = VirusGame<u128>;

impl Default for VirusGame<u64> {
    fn default() -> Virus {
        Virus::standard()
    }
}

impl Virus {
    /// The 7x7 start: `x5o/7/7/7/7/7/o5x x`.
    pub fn standard() -> Virus {
        let geo = u64::geometry(DEFAULT_SIZE).expect("7x7 fits 64 bits");
        VirusGame::from_board(Board::start(geo))
    }
}

impl<B: Bits> VirusGame<B> {
    /// The start on an `n x n` board, if this width holds it (4 to 8 for
    /// [`Virus`], 4 to 9 for [`VirusWide`]).
    pub fn new(n: usize) -> Result<VirusGame<B>, PositionError> {
        let geo = B::geometry(n).ok_or_else(|| {
            PositionError::new(format!(
                "the virus game is played on 4x4 to 9x9 boards, and this type holds 4x4 to \
                 {0}x{0}; {n}x{n} is not one of them",
                B::MAX_SIZE
            ))
        })?;
        Ok(VirusGame::from_board(Board::start(geo)))
    }

    pub(crate) fn from_board(board: Board<B>) -> VirusGame<B> {
        VirusGame {
            board,
            history: Vec::with_capacity(96),
        }
    }

    pub(crate) fn board(&self) -> &Board<B> {
        &self.board
    }

    /// The board side.
    pub fn size(&self) -> usize {
        self.board.n()
    }

    /// The stones of `side`, bit `rank * STRIDE + file` (STRIDE 8 for `u64`, 9
    /// for `u128`).
    pub fn stones(&self, side: Side) -> B {
        self.board.stones[side.index()]
    }

    /// What `square` holds (a safe way to look at the board without bits).
    pub fn cell(&self, square: Square) -> Cell {
        self.board.cell(square)
    }

    /// The number of stones of `side` on the board.
    pub fn count(&self, side: Side) -> i32 {
        self.board.count(side)
    }

    /// Black's stones minus White's, now (empty cells not counted).
    pub fn stone_difference(&self) -> i32 {
        self.board.stone_difference()
    }

    /// Plies played since this position was set up.
    pub fn ply(&self) -> usize {
        self.history.len()
    }

    /// The cells the side to move may drop on.
    #[inline]
    fn drops(&self) -> B {
        self.board.geo.dilate(self.board.us()) & self.board.empty()
    }

    /// Why the game is over, or `None` while the side to move has a drop.
    #[inline]
    pub fn end(&self) -> Option<VirusEnd> {
        if !self.drops().is_zero() {
            None
        } else if self.board.empty().is_zero() {
            Some(VirusEnd::BoardFull)
        } else if self.board.us().is_zero() {
            Some(VirusEnd::NoStones)
        } else {
            Some(VirusEnd::WalledIn)
        }
    }

    /// Black's final margin once the game is over: Black's stones minus White's,
    /// with every empty cell counted for the opponent of the side that has no
    /// drop. Positive exactly when Black wins; `None` while the game goes on.
    pub fn final_score(&self) -> Option<i32> {
        self.end()?;
        Some(self.score_when_over())
    }

    /// [`VirusGame::final_score`] once the game is known to be over.
    fn score_when_over(&self) -> i32 {
        let empty = self.board.empty().count() as i32;
        let to_black = match self.board.side {
            Side::White => empty,
            Side::Black => -empty,
        };
        self.stone_difference() + to_black
    }

    /// A move that parses and is legal here, or why not.
    pub fn check_move(&self, text: &str) -> Result<Move, MoveError> {
        crate::notation::parse_virus(self, text)
    }
}

impl<B: Bits> Game for VirusGame<B> {
    type Move = Move;

    #[inline]
    fn side_to_move(&self) -> Side {
        self.board.side
    }

    fn legal_moves(&self, out: &mut MoveList<Move>) {
        out.clear();
        for to in Indices(self.drops()) {
            out.push(Move::Clone(Square::from_index::<B>(to)));
        }
    }

    #[inline]
    fn count_legal_moves(&self, _scratch: &mut MoveList<Move>) -> u64 {
        self.drops().count() as u64
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        self.history.push(Undo {
            stones: self.board.stones,
            hash: self.board.hash,
        });
        match mv {
            Move::Clone(to) => self.board.fill(None, to.index::<B>()),
            // Never produced by the virus game's generator; kept total.
            Move::Jump(from, to) => self.board.fill(Some(from.index::<B>()), to.index::<B>()),
            Move::Pass => self.board.pass(),
        }
    }

    #[inline]
    fn undo(&mut self, _mv: Move) {
        let undo = self
            .history
            .pop()
            .expect("undo called with no move to take back");
        self.board.stones = undo.stones;
        self.board.hash = undo.hash;
        self.board.side = !self.board.side;
    }

    fn outcome(&self) -> Option<Outcome> {
        let end = self.end()?;
        let score = self.score_when_over();
        Some(match score.signum() {
            1 => Outcome::win(Side::Black, end.reason()),
            -1 => Outcome::win(Side::White, end.reason()),
            _ => Outcome::draw(end.reason()),
        })
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.board.hash
    }

    fn compute_hash(&self) -> u64 {
        self.board.compute_hash()
    }

    /// No drop is noisy: nearly every drop turns stones, so a capture search
    /// would be the whole tree again; see [`crate::Ataxx`]'s choice.
    #[inline]
    fn is_noisy(&self, _mv: Move) -> bool {
        false
    }

    const NOISY_IS_OPTIONAL: bool = true;

    fn noisy_moves(&self, out: &mut MoveList<Move>) -> bool {
        out.clear();
        true
    }

    const MOVE_KEYS: usize = B::INDICES;

    #[inline]
    fn move_key(&self, mv: Move) -> usize {
        mv.target().map_or(0, |to| to.index::<B>())
    }

    const HAS_ORDER_HINT: bool = true;

    /// The stones the drop adds to the mover's count (two per stone turned).
    #[inline]
    fn order_hint(&self, mv: Move) -> i32 {
        self.board.gain(mv)
    }

    const HAS_NULL_MOVE: bool = true;

    /// The pass, which the virus game never allows: the board stays and the
    /// other side drops next.
    fn play_null(&mut self) {
        self.play(Move::Pass);
    }

    fn undo_null(&mut self) {
        self.undo(Move::Pass);
    }

    /// Not with fewer than five empty cells: so near the end, having to
    /// drop is often what decides (zugzwang).
    fn null_move_is_safe(&self) -> bool {
        self.board.empty().count() >= 5
    }

    #[inline]
    fn move_code(&self, mv: Move) -> u32 {
        mv.code()
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        self.check_move(text)
    }

    fn format_move(&self, mv: Move) -> String {
        mv.to_string()
    }

    fn from_text(text: &str) -> Result<VirusGame<B>, PositionError> {
        crate::text::parse_virus(text)
    }

    fn to_text(&self) -> String {
        crate::text::format_virus(self)
    }
}
