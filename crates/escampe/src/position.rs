use crate::moves::Move;
use crate::square::{BOTTOM_EDGE, LISERE_MASK, TOP_EDGE, squares};
use crate::{Square, zobrist};
use plateau_core::{
    EndReason, Game, MoveError, MoveList, Outcome, PositionError, Side, splitmix64,
};

/// Plies after which a game is stopped and scored as a draw. The arbiter has no
/// draw rule; plateau needs one so that no game can loop forever.
pub const DEFAULT_MAX_PLIES: u32 = 1000;

/// Where the game stands: the two placements, then play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Black places first, on the edge its first square chooses.
    BlackPlaces,
    /// White places on the opposite edge.
    WhitePlaces,
    /// White moves first, then both alternate.
    Play,
}

/// An Escampe position, ready for play and undo.
///
/// Pieces are masks over the 36 squares (bit `(row - 1) * 6 + column`); the
/// imposed liseré is 0 when the next move is free (first move, or after a pass).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Escampe {
    pieces: [u64; 2],
    unicorns: [u64; 2],
    side: Side,
    constraint: u8,
    hash: u64,
    ply: u32,
    max_plies: u32,
    /// Per move played: the constraint before it, and the side before it (bit 2).
    undo_stack: Vec<u8>,
}

impl Default for Escampe {
    fn default() -> Escampe {
        Escampe::new()
    }
}

impl Escampe {
    /// The empty board, Black to place.
    pub fn new() -> Escampe {
        Escampe::from_parts([0, 0], [0, 0], Side::Black, 0)
    }

    /// Builds a position from already-checked parts and computes its hash.
    pub(crate) fn from_parts(
        pieces: [u64; 2],
        unicorns: [u64; 2],
        side: Side,
        constraint: u8,
    ) -> Escampe {
        let mut position = Escampe {
            pieces,
            unicorns,
            side,
            constraint,
            hash: 0,
            ply: 0,
            max_plies: DEFAULT_MAX_PLIES,
            undo_stack: Vec::with_capacity(64),
        };
        position.hash = position.compute_hash();
        position
    }

    /// The same position with another ply limit (plies counted from here).
    pub fn with_max_plies(mut self, max_plies: u32) -> Escampe {
        self.max_plies = max_plies;
        self
    }

    pub fn max_plies(&self) -> u32 {
        self.max_plies
    }

    /// Plies played since this position was created (or, read from a board
    /// file, since the game began).
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The same position with `ply` plies already played (a board file's count).
    pub(crate) fn with_ply(mut self, ply: u32) -> Escampe {
        self.ply = ply;
        self
    }

    pub fn phase(&self) -> Phase {
        if self.pieces[Side::Black.index()] == 0 {
            Phase::BlackPlaces
        } else if self.pieces[Side::White.index()] == 0 {
            Phase::WhitePlaces
        } else {
            Phase::Play
        }
    }

    /// The liseré the next move must start from, or `None` when it is free.
    pub fn constraint(&self) -> Option<u8> {
        (self.constraint != 0).then_some(self.constraint)
    }

    /// All pieces of `side`, unicorn included.
    pub fn pieces(&self, side: Side) -> u64 {
        self.pieces[side.index()]
    }

    /// The unicorn of `side` as a mask (0 once captured or before placement).
    pub fn unicorn(&self, side: Side) -> u64 {
        self.unicorns[side.index()]
    }

    /// The unicorn's square, if it is on the board.
    pub fn unicorn_square(&self, side: Side) -> Option<Square> {
        squares(self.unicorns[side.index()]).next()
    }

    pub fn occupied(&self) -> u64 {
        self.pieces[0] | self.pieces[1]
    }

    /// The piece on `square`: its side and whether it is a unicorn.
    pub fn piece_at(&self, square: Square) -> Option<(Side, bool)> {
        let bit = square.bit();
        Side::ALL
            .into_iter()
            .find(|side| self.pieces[side.index()] & bit != 0)
            .map(|side| (side, self.unicorns[side.index()] & bit != 0))
    }

    /// The two rows `side` places on, as a mask, once that is decided.
    pub fn placement_edge(&self, side: Side) -> Option<u64> {
        let black = self.pieces[Side::Black.index()];
        if black == 0 {
            return None;
        }
        let black_edge = if black & BOTTOM_EDGE != 0 {
            BOTTOM_EDGE
        } else {
            TOP_EDGE
        };
        Some(match side {
            Side::Black => black_edge,
            Side::White => black_edge ^ BOTTOM_EDGE ^ TOP_EDGE,
        })
    }

    /// Squares a piece on `from` can reach with exactly `lisere(from)` orthogonal
    /// steps, never crossing an occupied square nor visiting a square twice. The
    /// arrival square itself may be occupied: callers mask what may be entered.
    #[inline]
    pub fn reachable(from: Square, empty: u64) -> u64 {
        crate::reach::reachable(from, empty)
    }

    /// Where the piece on `from` (of the side to move) may legally go.
    #[inline]
    fn destinations(&self, from: Square, empty: u64) -> u64 {
        let us = self.side.index();
        let capturable = if self.unicorns[us] & from.bit() == 0 {
            self.unicorns[1 - us]
        } else {
            0
        };
        Escampe::reachable(from, empty) & (empty | capturable)
    }

    /// Pieces of the side to move that the imposed liseré lets move.
    #[inline]
    fn movable(&self) -> u64 {
        self.pieces[self.side.index()] & LISERE_MASK[self.constraint as usize]
    }

    /// The empty squares.
    #[inline]
    pub fn empty(&self) -> u64 {
        !self.occupied() & LISERE_MASK[0]
    }

    fn generate_placements(edge: u64, out: &mut MoveList<Move>) {
        let shift = edge.trailing_zeros();
        // Every 12-bit mask with six bits set (Gosper's hack), then each unicorn.
        let mut set: u64 = (1 << 6) - 1;
        while set < (1 << 12) {
            let squares_mask = set << shift;
            for unicorn in squares(squares_mask) {
                out.push(Move::Place {
                    unicorn,
                    paladins: squares_mask ^ unicorn.bit(),
                });
            }
            let low = set & set.wrapping_neg();
            let ripple = set + low;
            set = (((ripple ^ set) >> 2) / low) | ripple;
        }
    }

    fn is_over(&self) -> bool {
        self.phase() == Phase::Play
            && (self.unicorns[0] == 0 || self.unicorns[1] == 0 || self.ply >= self.max_plies)
    }

    /// A move that parses and is legal here, or why not: the checked path that every
    /// move from a user, a file or a socket takes.
    pub fn check_move(&self, text: &str) -> Result<Move, MoveError> {
        crate::notation::parse(self, text)
    }
}

impl Game for Escampe {
    type Move = Move;

    #[inline]
    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self, out: &mut MoveList<Move>) {
        out.clear();
        match self.phase() {
            Phase::BlackPlaces => {
                Escampe::generate_placements(BOTTOM_EDGE, out);
                Escampe::generate_placements(TOP_EDGE, out);
            }
            Phase::WhitePlaces => {
                if let Some(edge) = self.placement_edge(Side::White) {
                    Escampe::generate_placements(edge, out);
                }
            }
            Phase::Play => {
                if self.is_over() {
                    return;
                }
                let empty = self.empty();
                for from in squares(self.movable()) {
                    for to in squares(self.destinations(from, empty)) {
                        out.push(Move::Step { from, to });
                    }
                }
                if out.is_empty() {
                    out.push(Move::Pass);
                }
            }
        }
    }

    fn count_legal_moves(&self, scratch: &mut MoveList<Move>) -> u64 {
        if self.phase() != Phase::Play {
            self.legal_moves(scratch);
            return scratch.len() as u64;
        }
        if self.is_over() {
            return 0;
        }
        let empty = self.empty();
        let mut count = 0;
        for from in squares(self.movable()) {
            count += self.destinations(from, empty).count_ones() as u64;
        }
        count.max(1)
    }

    fn play(&mut self, mv: Move) {
        let us = self.side.index();
        self.undo_stack.push(self.constraint | ((us as u8) << 2));
        self.hash ^= zobrist::constraint(self.constraint);
        let next_side;
        match mv {
            Move::Place { unicorn, paladins } => {
                self.pieces[us] |= paladins | unicorn.bit();
                self.unicorns[us] = unicorn.bit();
                self.hash ^= zobrist::piece(us * 2 + 1, unicorn.index());
                for sq in squares(paladins) {
                    self.hash ^= zobrist::piece(us * 2, sq.index());
                }
                // Black's placement hands over to White; White's is followed by
                // White's own first move.
                next_side = Side::White;
                self.constraint = 0;
            }
            Move::Step { from, to } => {
                let them = 1 - us;
                if self.unicorns[them] & to.bit() != 0 {
                    self.pieces[them] ^= to.bit();
                    self.unicorns[them] = 0;
                    self.hash ^= zobrist::piece(them * 2 + 1, to.index());
                }
                let kind = if self.unicorns[us] & from.bit() != 0 {
                    self.unicorns[us] = to.bit();
                    us * 2 + 1
                } else {
                    us * 2
                };
                self.pieces[us] ^= from.bit() | to.bit();
                self.hash ^= zobrist::piece(kind, from.index()) ^ zobrist::piece(kind, to.index());
                next_side = !self.side;
                self.constraint = to.lisere();
            }
            Move::Pass => {
                next_side = !self.side;
                self.constraint = 0;
            }
        }
        if next_side != self.side {
            self.hash ^= zobrist::BLACK_TO_MOVE;
            self.side = next_side;
        }
        self.hash ^= zobrist::constraint(self.constraint);
        self.ply += 1;
    }

    fn undo(&mut self, mv: Move) {
        let saved = self
            .undo_stack
            .pop()
            .expect("undo called with no move to take back");
        let previous_side = if saved & 4 == 0 {
            Side::White
        } else {
            Side::Black
        };
        let previous_constraint = saved & 3;
        self.hash ^=
            zobrist::constraint(self.constraint) ^ zobrist::constraint(previous_constraint);
        if previous_side != self.side {
            self.hash ^= zobrist::BLACK_TO_MOVE;
        }
        let us = previous_side.index();
        match mv {
            Move::Place { unicorn, paladins } => {
                self.pieces[us] = 0;
                self.unicorns[us] = 0;
                self.hash ^= zobrist::piece(us * 2 + 1, unicorn.index());
                for sq in squares(paladins) {
                    self.hash ^= zobrist::piece(us * 2, sq.index());
                }
            }
            Move::Step { from, to } => {
                let kind = if self.unicorns[us] & to.bit() != 0 {
                    self.unicorns[us] = from.bit();
                    us * 2 + 1
                } else {
                    us * 2
                };
                self.pieces[us] ^= from.bit() | to.bit();
                self.hash ^= zobrist::piece(kind, from.index()) ^ zobrist::piece(kind, to.index());
                // The game ends on a capture, so a missing enemy unicorn means this
                // very move took it.
                let them = 1 - us;
                if self.unicorns[them] == 0 {
                    self.pieces[them] |= to.bit();
                    self.unicorns[them] = to.bit();
                    self.hash ^= zobrist::piece(them * 2 + 1, to.index());
                }
            }
            Move::Pass => {}
        }
        self.side = previous_side;
        self.constraint = previous_constraint;
        self.ply -= 1;
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.phase() != Phase::Play {
            return None;
        }
        for side in Side::ALL {
            if self.unicorns[side.index()] == 0 {
                return Some(Outcome::win(!side, EndReason::UnicornCaptured));
            }
        }
        (self.ply >= self.max_plies).then_some(Outcome::draw(EndReason::PlyLimit))
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn compute_hash(&self) -> u64 {
        let mut hash = zobrist::constraint(self.constraint);
        if self.side == Side::Black {
            hash ^= zobrist::BLACK_TO_MOVE;
        }
        for side in Side::ALL {
            let s = side.index();
            for sq in squares(self.pieces[s]) {
                let kind = s * 2 + usize::from(self.unicorns[s] & sq.bit() != 0);
                hash ^= zobrist::piece(kind, sq.index());
            }
        }
        hash
    }

    #[inline]
    fn is_noisy(&self, mv: Move) -> bool {
        matches!(mv, Move::Step { to, .. } if self.unicorns[1 - self.side.index()] & to.bit() != 0)
    }

    const NOISY_IS_OPTIONAL: bool = true;

    /// Captures of the unicorn, found without listing the other moves.
    fn noisy_moves(&self, out: &mut MoveList<Move>) -> bool {
        out.clear();
        if self.phase() != Phase::Play {
            return true;
        }
        if self.is_over() {
            return false;
        }
        let us = self.side.index();
        let target = self.unicorns[1 - us];
        let empty = self.empty();
        let mut quiet = false;
        for from in squares(self.movable()) {
            let reach = Escampe::reachable(from, empty);
            quiet |= reach & empty != 0;
            if self.unicorns[us] & from.bit() == 0 && reach & target != 0 {
                out.push(Move::Step {
                    from,
                    to: Square::from_index(target.trailing_zeros() as u8),
                });
            }
        }
        // With no move at all the pass is the (quiet) move.
        quiet || out.is_empty()
    }

    const MOVE_KEYS: usize = 36 * 36 + 2;

    #[inline]
    fn move_key(&self, mv: Move) -> usize {
        match mv {
            Move::Step { from, to } => from.index() * 36 + to.index(),
            Move::Pass => 36 * 36,
            Move::Place { .. } => 36 * 36 + 1,
        }
    }

    const HAS_NULL_MOVE: bool = true;

    /// The pass `E` of the search: the side to move changes and the opponent
    /// may move any piece, as after a forced pass. The ply count stays, so that
    /// a null move never brings the ply limit closer. Only called while pieces
    /// move: a placement cannot be skipped (see [`Game::null_move_is_safe`]).
    fn play_null(&mut self) {
        debug_assert_eq!(self.phase(), Phase::Play, "no null move while placing");
        self.undo_stack
            .push(self.constraint | ((self.side.index() as u8) << 2));
        self.hash ^=
            zobrist::constraint(self.constraint) ^ zobrist::constraint(0) ^ zobrist::BLACK_TO_MOVE;
        self.constraint = 0;
        self.side = !self.side;
    }

    fn undo_null(&mut self) {
        let saved = self
            .undo_stack
            .pop()
            .expect("undo_null called with no null move to take back");
        self.constraint = saved & 3;
        self.hash ^=
            zobrist::constraint(0) ^ zobrist::constraint(self.constraint) ^ zobrist::BLACK_TO_MOVE;
        self.side = !self.side;
    }

    /// Never during the placements, where passing is meaningless.
    fn null_move_is_safe(&self) -> bool {
        self.phase() == Phase::Play
    }

    #[inline]
    fn move_code(&self, mv: Move) -> u32 {
        mv.code()
    }

    const HAS_STRUCTURE_KEY: bool = true;

    /// Where the two unicorns stand, and who is to move: the evaluation's
    /// main terms are distances to the unicorns.
    fn structure_key(&self) -> u64 {
        let white = u64::from(self.unicorns[Side::White.index()].trailing_zeros());
        let black = u64::from(self.unicorns[Side::Black.index()].trailing_zeros());
        splitmix64(white | black << 8 | (self.side.index() as u64) << 16).1
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        self.check_move(text)
    }

    fn format_move(&self, mv: Move) -> String {
        mv.to_string()
    }

    fn from_text(text: &str) -> Result<Escampe, PositionError> {
        crate::text::parse_position(text)
    }

    fn to_text(&self) -> String {
        crate::text::format_position(self)
    }

    fn to_file(&self) -> String {
        crate::text::format_file(self)
    }

    fn from_file(text: &str) -> Result<Escampe, PositionError> {
        crate::text::parse_file(text)
    }
}
