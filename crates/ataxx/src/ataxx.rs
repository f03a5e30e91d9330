//! Full Ataxx on 7x7: clones, jumps, blocked cells, the forced pass, the
//! 100-half-move rule and threefold repetition.

use crate::bits::{GEOMETRY_7, Indices};
use crate::board::{Board, Cell};
use crate::{Move, Square};
use plateau_core::{EndReason, Game, MoveError, MoveList, Outcome, PositionError, Side};

/// Half-moves without a clone after which the game is drawn.
pub const HALFMOVE_LIMIT: u16 = 100;

/// Why a game of Ataxx ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtaxxEnd {
    /// A side has no stone left: the other wins.
    NoStones,
    /// Every cell is filled: most stones wins.
    BoardFull,
    /// Empty cells remain, but no stone of either side can reach one: most
    /// stones wins (the unreachable cells count for nobody).
    NoMoves,
    /// [`HALFMOVE_LIMIT`] half-moves without a clone: draw.
    HalfmoveClock,
    /// The same position (board and side to move) for the third time: draw.
    Repetition,
}

impl AtaxxEnd {
    /// The reason given in the outcome.
    pub fn reason(self) -> EndReason {
        match self {
            AtaxxEnd::NoStones => EndReason::NoStonesLeft,
            AtaxxEnd::BoardFull => EndReason::BoardFull,
            AtaxxEnd::NoMoves => EndReason::NoMoveForEither,
            AtaxxEnd::HalfmoveClock => EndReason::HalfmoveClock,
            AtaxxEnd::Repetition => EndReason::Repetition,
        }
    }
}

/// What `undo` restores, one per move played, with the move; also the
/// repetition history and what a save file replays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Undo {
    stones: [u64; 2],
    hash: u64,
    halfmove: u16,
    repetitions: u8,
    mv: Move,
}

/// A full Ataxx position (7x7, bitboards in a `u64`, rows 8 bits apart), ready
/// for play and undo.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ataxx {
    board: Board<u64>,
    halfmove: u16,
    fullmove: u32,
    /// How many times the current position (board and side) has occurred since
    /// the last clone or the setup, itself included: kept by `play`, so that
    /// the draw test at every node is one comparison.
    repetitions: u8,
    history: Vec<Undo>,
}

impl Default for Ataxx {
    fn default() -> Ataxx {
        Ataxx::new()
    }
}

/// Compact history-table key: target cell x 25 offsets (clone = centre).
const KEY_OFFSETS: usize = 25;

impl Ataxx {
    /// The standard start: `x5o/7/7/7/7/7/o5x x 0 1`.
    pub fn new() -> Ataxx {
        Ataxx::from_parts(Board::start(GEOMETRY_7), 0, 1)
    }

    pub(crate) fn from_parts(board: Board<u64>, halfmove: u16, fullmove: u32) -> Ataxx {
        Ataxx {
            board,
            halfmove,
            fullmove,
            repetitions: 1,
            history: Vec::with_capacity(128),
        }
    }

    /// The position where the repetition memory starts (the last clone, or the
    /// setup, within the moves played here) and the moves since: what a save
    /// file needs to restore the repetitions.
    pub(crate) fn since_last_clone(&self) -> (Ataxx, Vec<Move>) {
        let len = self.history.len();
        let back = (self.halfmove as usize).min(len);
        let played = &self.history[len - back..];
        let Some(first) = played.first() else {
            return (
                Ataxx::from_parts(self.board, self.halfmove, self.fullmove),
                Vec::new(),
            );
        };
        // Every ply hands the move over; each White move counted a move number.
        let mut side = self.board.side;
        let mut fullmove = self.fullmove;
        for _ in 0..back {
            side = !side;
            if side == Side::White {
                fullmove -= 1;
            }
        }
        let board = Board::new(GEOMETRY_7, first.stones, self.board.blocked, side);
        debug_assert_eq!(board.hash, first.hash);
        let moves = played.iter().map(|undo| undo.mv).collect();
        (Ataxx::from_parts(board, first.halfmove, fullmove), moves)
    }

    /// How many times the current position occurred before since the last
    /// clone (or the setup), plus one: the nearest earlier occurrence's count
    /// plus one. A position needs at least four plies to come back.
    #[inline]
    fn count_repetitions(&self) -> u8 {
        let window = (self.halfmove as usize).min(self.history.len());
        let len = self.history.len();
        let mut back = 4;
        while back <= window {
            let earlier = &self.history[len - back];
            if earlier.hash == self.board.hash && earlier.stones == self.board.stones {
                return earlier.repetitions.saturating_add(1);
            }
            back += 2;
        }
        1
    }

    pub(crate) fn board(&self) -> &Board<u64> {
        &self.board
    }

    /// Half-moves since the last clone (jumps and passes count).
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    /// Starts at 1, grows after each White move.
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// The stones of `side`, bit `rank * 8 + file`.
    pub fn stones(&self, side: Side) -> u64 {
        self.board.stones[side.index()]
    }

    /// The blocked cells, bit `rank * 8 + file`.
    pub fn blocked(&self) -> u64 {
        self.board.blocked
    }

    /// What `square` holds (a safe way to look at the board without bits).
    pub fn cell(&self, square: Square) -> Cell {
        self.board.cell(square)
    }

    /// The number of stones of `side` on the board.
    pub fn count(&self, side: Side) -> i32 {
        self.board.count(side)
    }

    /// Black's stones minus White's, now.
    pub fn stone_difference(&self) -> i32 {
        self.board.stone_difference()
    }

    /// Plies played since this position was set up.
    pub fn ply(&self) -> usize {
        self.history.len()
    }

    /// Why the game is over, or `None` while it goes on.
    #[inline]
    pub fn end(&self) -> Option<AtaxxEnd> {
        let [white, black] = self.board.stones;
        if white == 0 || black == 0 {
            return Some(AtaxxEnd::NoStones);
        }
        let empty = self.board.empty();
        if empty == 0 {
            return Some(AtaxxEnd::BoardFull);
        }
        if GEOMETRY_7.dilate2(white | black) & empty == 0 {
            return Some(AtaxxEnd::NoMoves);
        }
        self.rule_draw()
    }

    /// The draws by rule, which end a game that could go on.
    #[inline]
    fn rule_draw(&self) -> Option<AtaxxEnd> {
        if self.halfmove >= HALFMOVE_LIMIT {
            Some(AtaxxEnd::HalfmoveClock)
        } else if self.is_threefold() {
            Some(AtaxxEnd::Repetition)
        } else {
            None
        }
    }

    /// Whether this position (board and side) occurred twice before. Only the
    /// positions since the last clone can match: a clone adds a stone for good.
    #[inline]
    fn is_threefold(&self) -> bool {
        self.repetitions >= 3
    }

    /// Black's final margin once the game is over: Black's stones minus White's
    /// (a side without stones simply has 0; cells nobody can reach count for
    /// nobody), and 0 for the draws by rule (100 half-moves, repetition).
    /// Positive exactly when Black wins. `None` while the game goes on.
    pub fn final_score(&self) -> Option<i32> {
        match self.end()? {
            AtaxxEnd::HalfmoveClock | AtaxxEnd::Repetition => Some(0),
            _ => Some(self.stone_difference()),
        }
    }

    /// Counts the moves of the side to move (0 when it must pass).
    #[inline]
    fn count_moves(&self, empty: u64) -> u64 {
        let us = self.board.us();
        let mut count = (GEOMETRY_7.dilate(us) & empty).count_ones();
        for from in Indices(us) {
            count += (GEOMETRY_7.ring2[from] & empty).count_ones();
        }
        count as u64
    }

    /// A move that parses and is legal here, or why not.
    pub fn check_move(&self, text: &str) -> Result<Move, MoveError> {
        crate::notation::parse_ataxx(self, text)
    }
}

impl Game for Ataxx {
    type Move = Move;

    #[inline]
    fn side_to_move(&self) -> Side {
        self.board.side
    }

    fn legal_moves(&self, out: &mut MoveList<Move>) {
        out.clear();
        let [white, black] = self.board.stones;
        if white == 0 || black == 0 || self.rule_draw().is_some() {
            return;
        }
        let empty = self.board.empty();
        let us = self.board.us();
        for to in Indices(GEOMETRY_7.dilate(us) & empty) {
            out.push(Move::Clone(Square::from_index::<u64>(to)));
        }
        for from in Indices(us) {
            let origin = Square::from_index::<u64>(from);
            for to in Indices(GEOMETRY_7.ring2[from] & empty) {
                out.push(Move::Jump(origin, Square::from_index::<u64>(to)));
            }
        }
        if out.is_empty() && GEOMETRY_7.dilate2(self.board.them()) & empty != 0 {
            out.push(Move::Pass);
        }
    }

    #[inline]
    fn count_legal_moves(&self, _scratch: &mut MoveList<Move>) -> u64 {
        let [white, black] = self.board.stones;
        if white == 0 || black == 0 || self.rule_draw().is_some() {
            return 0;
        }
        let empty = self.board.empty();
        let count = self.count_moves(empty);
        if count > 0 {
            count
        } else {
            u64::from(GEOMETRY_7.dilate2(self.board.them()) & empty != 0)
        }
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        self.history.push(Undo {
            stones: self.board.stones,
            hash: self.board.hash,
            halfmove: self.halfmove,
            repetitions: self.repetitions,
            mv,
        });
        if self.board.side == Side::White {
            self.fullmove += 1;
        }
        match mv {
            Move::Clone(to) => {
                self.board.fill(None, to.index::<u64>());
                self.halfmove = 0;
            }
            Move::Jump(from, to) => {
                self.board
                    .fill(Some(from.index::<u64>()), to.index::<u64>());
                self.halfmove += 1;
            }
            Move::Pass => {
                self.board.pass();
                self.halfmove += 1;
            }
        }
        self.repetitions = if self.halfmove >= 4 {
            self.count_repetitions()
        } else {
            1
        };
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
        self.halfmove = undo.halfmove;
        self.repetitions = undo.repetitions;
        if self.board.side == Side::White {
            self.fullmove -= 1;
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        let end = self.end()?;
        let score = match end {
            AtaxxEnd::HalfmoveClock | AtaxxEnd::Repetition => 0,
            _ => self.stone_difference(),
        };
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

    /// No move is noisy: nearly every Ataxx move captures, so a capture search
    /// would be the whole tree again. Quiescence is the static evaluation, whose
    /// `threat` feature stands in for the capture the side to move has in hand.
    #[inline]
    fn is_noisy(&self, _mv: Move) -> bool {
        false
    }

    const NOISY_IS_OPTIONAL: bool = true;

    fn noisy_moves(&self, out: &mut MoveList<Move>) -> bool {
        out.clear();
        true
    }

    const MOVE_KEYS: usize = 64 * KEY_OFFSETS + 1;

    #[inline]
    fn move_key(&self, mv: Move) -> usize {
        match mv {
            Move::Clone(to) => to.index::<u64>() * KEY_OFFSETS + KEY_OFFSETS / 2,
            Move::Jump(from, to) => {
                let dr = to.rank() + 2 - from.rank();
                let df = to.file() + 2 - from.file();
                to.index::<u64>() * KEY_OFFSETS + dr * 5 + df
            }
            Move::Pass => 64 * KEY_OFFSETS,
        }
    }

    const HAS_ORDER_HINT: bool = true;

    /// The stones the move adds to the mover's count: two per stone turned,
    /// one more for a clone (a jump empties its origin).
    #[inline]
    fn order_hint(&self, mv: Move) -> i32 {
        self.board.gain(mv)
    }

    /// A jump that captures nothing leaves a hole and gains no stone.
    #[inline]
    fn is_hopeless(&self, mv: Move) -> bool {
        matches!(mv, Move::Jump(..)) && self.board.gain(mv) == 0
    }

    const HAS_NULL_MOVE: bool = true;

    /// The pass of the rules, made where they would not allow it, and counted
    /// like one: a half-move on the 100-half-move clock (so a null move at 99
    /// draws), the move number after White's, and a place in the repetition
    /// history like any ply since the last clone.
    fn play_null(&mut self) {
        self.play(Move::Pass);
    }

    fn undo_null(&mut self) {
        self.undo(Move::Pass);
    }

    /// Not with fewer than five empty cells: so near the end, having to
    /// move is often what decides (zugzwang).
    fn null_move_is_safe(&self) -> bool {
        self.board.empty().count_ones() >= 5
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

    fn from_text(text: &str) -> Result<Ataxx, PositionError> {
        crate::text::parse_ataxx(text)
    }

    fn to_text(&self) -> String {
        crate::text::format_ataxx(self)
    }

    /// A save file (see [`plateau_core::save`]): the position after the last
    /// clone and the moves since (jumps and passes), so that reading it back
    /// restores the repetition history.
    fn to_file(&self) -> String {
        crate::text::format_ataxx_file(self)
    }

    /// A save file, or a bare position text.
    fn from_file(text: &str) -> Result<Ataxx, PositionError> {
        crate::text::parse_ataxx_file_with_moves(text).map(plateau_core::replayed)
    }

    fn from_file_with_moves(text: &str) -> Result<(Ataxx, Vec<Move>), PositionError> {
        crate::text::parse_ataxx_file_with_moves(text)
    }
}
