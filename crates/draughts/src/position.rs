use crate::moves::Move;
use crate::square::{BOARD, PROMOTION, bits, from_dense, row_mask, to_dense};
use crate::{Square, zobrist};
use plateau_core::{
    EndReason, Game, MoveError, MoveList, Outcome, PositionError, PositionErrorKind, Side,
    splitmix64,
};

/// Plies of king moves without capture (25 moves by each side) after which the
/// game is drawn (FMJD 6.3).
pub const KING_MOVES_LIMIT: u16 = 50;
/// Plies (16 moves each) allowed with three pieces, one a king, against a lone
/// king (FMJD 6.4).
pub const THREE_AGAINST_KING_LIMIT: u16 = 32;
/// Plies (5 moves each) allowed with one or two pieces, one a king, against a
/// lone king (FMJD 6.5). When a capture leads there from three against a lone
/// king, the 16-move limit keeps running too: whichever ends first draws.
pub const SMALL_AGAINST_KING_LIMIT: u16 = 10;

/// Why the rules declare a game drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawRule {
    /// 25 moves by each side with only kings moving and nothing taken.
    KingMoves,
    /// The same position, same side to move, for the third time.
    Repetition,
    /// Three pieces (one at least a king) against a lone king, 16 moves each.
    ThreeAgainstKing,
    /// Two pieces or one (one a king) against a lone king, 5 moves each.
    SmallAgainstKing,
}

impl DrawRule {
    const ALL: [DrawRule; 4] = [
        DrawRule::KingMoves,
        DrawRule::Repetition,
        DrawRule::ThreeAgainstKing,
        DrawRule::SmallAgainstKing,
    ];

    /// The outcome's reason.
    pub const fn reason(self) -> EndReason {
        match self {
            DrawRule::KingMoves => EndReason::KingMoves,
            DrawRule::Repetition => EndReason::Repetition,
            DrawRule::ThreeAgainstKing => EndReason::ThreeAgainstKing,
            DrawRule::SmallAgainstKing => EndReason::SmallAgainstKing,
        }
    }

    const fn code(self) -> u8 {
        self as u8 + 1
    }

    fn from_code(code: u8) -> Option<DrawRule> {
        DrawRule::ALL.get((code as usize).checked_sub(1)?).copied()
    }
}

/// Everything a ply changes, copied whole into the history before each move and
/// back on undo (one wide copy each way, which the processor forwards well).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct State {
    pub(crate) pieces: [u64; 2],
    pub(crate) kings: u64,
    pub(crate) hash: u64,
    /// Successive plies that were king moves taking nothing.
    pub(crate) reversible: u16,
    /// Plies played in the current "pieces against a lone king" ending.
    pub(crate) endgame: u16,
    /// In a small ending reached by a capture late in "three against a lone
    /// king": the count runs on from that ending, and reaching the small
    /// ending's limit means the 16-move limit ran out first (the reason the
    /// draw gives).
    pub(crate) carried: bool,
    /// `DrawRule::code` when a draw rule has ended the game, else 0.
    pub(crate) draw: u8,
    pub(crate) side: Side,
}

impl State {
    /// A position set up from its pieces: no counts running, no draw, the
    /// hash still to compute.
    fn fresh(pieces: [u64; 2], kings: u64, side: Side) -> State {
        State {
            pieces,
            kings,
            hash: 0,
            reversible: 0,
            endgame: 0,
            carried: false,
            draw: 0,
            side,
        }
    }
}

/// What `undo` needs, and what the repetition rule looks back at: the state
/// before each move played, with the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Record {
    pub(crate) state: State,
    pub(crate) mv: Move,
}

/// An international draughts position, ready for play and undo.
///
/// Pieces are 64-bit boards with a ghost bit after every ten squares, so that
/// diagonal steps are shifts. Besides the board, the position carries what the
/// draw rules need: the run of king moves without capture, the plies spent in a
/// "few pieces against a lone king" ending, and the positions played since it
/// was set up (the undo stack, which the repetition rule reads). Equality
/// compares that history too, since the draw rules depend on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Draughts {
    pub(crate) s: State,
    /// Whether the draw rules apply (they do, except for pure move-generation
    /// counts such as published perft numbers).
    pub(crate) draw_rules: bool,
    pub(crate) history: Vec<Record>,
}

impl Default for Draughts {
    fn default() -> Draughts {
        Draughts::new()
    }
}

/// The starting position's text.
pub const START_TEXT: &str = "W:W31-50:B1-20";

impl Draughts {
    /// The starting position: White men on 31-50, Black men on 1-20, White to move.
    pub fn new() -> Draughts {
        let black = (0..4).fold(0, |mask, row| mask | row_mask(row));
        let white = (6..10).fold(0, |mask, row| mask | row_mask(row));
        Draughts::from_parts([white, black], 0, Side::White)
    }

    /// Builds a position from checked parts (counters at zero, no history).
    pub(crate) fn from_parts(pieces: [u64; 2], kings: u64, side: Side) -> Draughts {
        let mut position = Draughts {
            s: State::fresh(pieces, kings, side),
            draw_rules: true,
            history: Vec::with_capacity(128),
        };
        position.s.hash = position.compute_hash();
        position
    }

    /// The same position with the draw rules switched on or off. Published perft
    /// counts ignore them (from 20 kings against 20, a threefold repetition is
    /// possible from ply 8 on, so perft 9 differs); games always apply them.
    ///
    /// The counters run either way, so switching the rules on judges the
    /// position at once: a count already past its limit draws it. Only the
    /// current position is judged; the history keeps the states it was played
    /// with, and `undo` restores them as they were.
    pub fn with_draw_rules(mut self, on: bool) -> Draughts {
        self.draw_rules = on;
        let s = self.s;
        self.s.draw = self.draw_code(&s, endgame_limit(s.pieces, s.kings));
        self
    }

    /// Whether the draw rules apply.
    pub fn draw_rules(&self) -> bool {
        self.draw_rules
    }

    /// The board as dense masks (bit `i` is square `i + 1`): each side's
    /// pieces, White first, and the kings of both. The form endgame tables
    /// index, independent of the move generator's board layout.
    #[inline]
    pub fn dense(&self) -> ([u64; 2], u64) {
        (
            [to_dense(self.s.pieces[0]), to_dense(self.s.pieces[1])],
            to_dense(self.s.kings),
        )
    }

    /// Replaces the position in place with the dense masks of [`dense`]
    /// and `side` to move: counters at zero, no history, and no allocation,
    /// for table generators that visit millions of positions. Refused (and
    /// the position left as it was) when a mask has bits beyond square 50,
    /// the sides overlap, a king is on no piece, or a man stands on its own
    /// crowning row.
    ///
    /// [`dense`]: Draughts::dense
    pub fn set_dense(
        &mut self,
        pieces: [u64; 2],
        kings: u64,
        side: Side,
    ) -> Result<(), PositionError> {
        const SQUARES: u64 = (1 << 50) - 1;
        let all = pieces[0] | pieces[1];
        let problem = if all & !SQUARES != 0 {
            Some("a piece beyond square 50")
        } else if pieces[0] & pieces[1] != 0 {
            Some("a square holds a piece of each side")
        } else if kings & !all != 0 {
            Some("a king on an empty square")
        } else if (from_dense(pieces[0] & !kings) & PROMOTION[0]) != 0
            || (from_dense(pieces[1] & !kings) & PROMOTION[1]) != 0
        {
            Some("a man on its own crowning row")
        } else {
            None
        };
        if let Some(reason) = problem {
            return Err(PositionError::of_kind(PositionErrorKind::Illegal, reason));
        }
        self.s = State::fresh(
            [from_dense(pieces[0]), from_dense(pieces[1])],
            from_dense(kings),
            side,
        );
        self.s.hash = self.compute_hash();
        self.history.clear();
        Ok(())
    }

    /// All pieces of `side`, kings included.
    #[inline]
    pub fn pieces(&self, side: Side) -> u64 {
        self.s.pieces[side.index()]
    }

    /// The kings of `side`.
    #[inline]
    pub fn kings(&self, side: Side) -> u64 {
        self.s.pieces[side.index()] & self.s.kings
    }

    /// The men (uncrowned pieces) of `side`.
    #[inline]
    pub fn men(&self, side: Side) -> u64 {
        self.s.pieces[side.index()] & !self.s.kings
    }

    #[inline]
    pub fn occupied(&self) -> u64 {
        self.s.pieces[0] | self.s.pieces[1]
    }

    #[inline]
    pub fn empty(&self) -> u64 {
        BOARD & !self.occupied()
    }

    /// The piece on `square`: its side and whether it is a king.
    pub fn piece_at(&self, square: Square) -> Option<(Side, bool)> {
        let bit = square.bit();
        Side::ALL
            .into_iter()
            .find(|side| self.s.pieces[side.index()] & bit != 0)
            .map(|side| (side, self.s.kings & bit != 0))
    }

    /// Successive plies made by kings without a capture (50 draws the game).
    pub fn king_move_plies(&self) -> u16 {
        self.s.reversible
    }

    /// Plies played in the current "few pieces against a lone king" ending, and
    /// the limit of that ending (0 when the material is not such an ending).
    pub fn endgame_plies(&self) -> (u16, u16) {
        (self.s.endgame, endgame_limit(self.s.pieces, self.s.kings))
    }

    /// The draw rule that has ended the game, if one has.
    pub fn draw_rule(&self) -> Option<DrawRule> {
        DrawRule::from_code(self.s.draw)
    }

    /// Moves played since this position was set up (from its text or the start).
    pub fn plies_played(&self) -> usize {
        self.history.len()
    }

    /// How many times the current position has occurred since the last capture
    /// or man move (itself included).
    pub fn repetitions(&self) -> usize {
        self.occurrences(&self.s)
    }

    /// The position `back` plies ago (0 = now; at most the plies played since
    /// the setup), without its own history, and the moves played since. It
    /// applies the draw rules if this position does.
    pub(crate) fn past(&self, back: usize) -> (Draughts, Vec<Move>) {
        let len = self.history.len();
        let back = back.min(len);
        let (pieces, kings, side) = if back == 0 {
            (self.s.pieces, self.s.kings, self.s.side)
        } else {
            let record = &self.history[len - back];
            (record.state.pieces, record.state.kings, record.state.side)
        };
        let moves = self.history[len - back..].iter().map(|r| r.mv).collect();
        let mut start = Draughts::from_parts(pieces, kings, side);
        start.draw_rules = self.draw_rules;
        (start, moves)
    }

    /// How many past plies the draw rules still remember: replaying them from the
    /// position that far back rebuilds every counter exactly. That is back to the
    /// last capture or man move (the king-move count and the repetitions), and,
    /// in a "few pieces against a lone king" ending, back to the last position
    /// that was not such an ending (a capture from one ending into a smaller
    /// one carries the count over).
    pub(crate) fn relevant_plies(&self) -> usize {
        let len = self.history.len();
        let mut back = 0;
        if endgame_limit(self.s.pieces, self.s.kings) != 0 {
            back = 1;
            while back <= len {
                let state = &self.history[len - back].state;
                if endgame_limit(state.pieces, state.kings) == 0 {
                    break;
                }
                back += 1;
            }
        }
        back.max(self.s.reversible as usize).min(len)
    }

    /// A move that parses and is legal here, or why not.
    pub fn check_move(&self, text: &str) -> Result<Move, MoveError> {
        crate::notation::parse(self, text)
    }

    /// The state after a move, counters included: `before` is the state the
    /// move left (already the last history record), `king` says a king moved,
    /// `captured` is what it took (dense mask).
    #[inline(always)]
    fn next_state(
        &self,
        before: &State,
        pieces: [u64; 2],
        kings: u64,
        hash: u64,
        king: bool,
        captured: u64,
    ) -> State {
        let reversible = if king && captured == 0 {
            before.reversible.saturating_add(1)
        } else {
            0
        };
        let limit = if at_most_four(pieces[0] | pieces[1]) {
            endgame_limit(pieces, kings)
        } else {
            0
        };
        let (endgame, carried) = if limit == 0 {
            (0, false)
        } else {
            let before_limit = endgame_limit(before.pieces, before.kings);
            let played = before.endgame.saturating_add(1);
            if before_limit == limit {
                // The same ending, or one small ending leading to another
                // (FMJD 6.5 does not say; plateau keeps the running count).
                (played, before.carried)
            } else if before_limit == THREE_AGAINST_KING_LIMIT {
                // A capture turned "three against a lone king" into a smaller
                // ending: the 16-move limit still runs, and the 5-move one starts;
                // whichever ends first draws. When fewer than 5 moves each
                // remain of the 16, the count carries over and its end is the
                // 16-move limit's.
                let carried =
                    played.saturating_sub(THREE_AGAINST_KING_LIMIT - SMALL_AGAINST_KING_LIMIT);
                (carried, carried > 0)
            } else {
                (0, false)
            }
        };
        let mut next = State {
            pieces,
            kings,
            hash,
            reversible,
            endgame,
            carried,
            draw: 0,
            side: !before.side,
        };
        next.draw = self.draw_code(&next, limit);
        next
    }

    /// `DrawRule::code` of the rule that ends the game in `state`, whose ending
    /// limit is `limit`, or 0. The history's last record is the ply before
    /// `state`.
    #[inline(always)]
    fn draw_code(&self, state: &State, limit: u16) -> u8 {
        if !self.draw_rules {
            0
        } else if state.reversible >= KING_MOVES_LIMIT {
            DrawRule::KingMoves.code()
        } else if limit != 0 && state.endgame >= limit {
            if limit == THREE_AGAINST_KING_LIMIT || state.carried {
                DrawRule::ThreeAgainstKing.code()
            } else {
                DrawRule::SmallAgainstKing.code()
            }
        } else if state.reversible >= 8 && self.occurrences(state) >= 3 {
            DrawRule::Repetition.code()
        } else {
            0
        }
    }

    /// How many times the position of `state` (pieces, kings, side) occurs in
    /// its last `reversible` plies of history, plus one for itself. The
    /// history's last record is one ply back. The hash only screens: equal
    /// hashes of different positions do not count.
    fn occurrences(&self, state: &State) -> usize {
        let mut count = 1;
        let len = self.history.len();
        let mut back = 4;
        while back <= state.reversible as usize && back <= len {
            let earlier = &self.history[len - back].state;
            if earlier.hash == state.hash
                && earlier.pieces == state.pieces
                && earlier.kings == state.kings
                && earlier.side == state.side
            {
                count += 1;
            }
            back += 2;
        }
        count
    }

    /// The outcome when the side to move cannot move.
    fn no_move_outcome(&self) -> Outcome {
        if self.s.pieces[self.s.side.index()] == 0 {
            Outcome::win(!self.s.side, EndReason::AllPiecesCaptured)
        } else {
            Outcome::win(!self.s.side, EndReason::NoLegalMove)
        }
    }
}

/// Whether `mask` has at most four bits set (cheaper than a popcount where the
/// processor has no popcount instruction, and this runs at every move).
#[inline(always)]
fn at_most_four(mask: u64) -> bool {
    let mut rest = mask;
    for _ in 0..4 {
        rest &= rest.wrapping_sub(1);
    }
    rest == 0
}

/// The ply limit of the FMJD ending the material is in: one side has a lone king
/// and the other three pieces (32 plies) or one or two (10 plies), at least one
/// of them a king. 0 when the material is not such an ending.
#[inline]
pub(crate) fn endgame_limit(pieces: [u64; 2], kings: u64) -> u16 {
    let counts = [pieces[0].count_ones(), pieces[1].count_ones()];
    if counts[0] + counts[1] > 4 {
        return 0;
    }
    for (attacker, defender) in [(0, 1), (1, 0)] {
        if counts[defender] == 1 && pieces[defender] & kings != 0 && pieces[attacker] & kings != 0 {
            return if counts[attacker] == 3 {
                THREE_AGAINST_KING_LIMIT
            } else {
                SMALL_AGAINST_KING_LIMIT
            };
        }
    }
    0
}

impl Game for Draughts {
    type Move = Move;

    #[inline]
    fn side_to_move(&self) -> Side {
        self.s.side
    }

    fn legal_moves(&self, out: &mut MoveList<Move>) {
        out.clear();
        if self.s.draw != 0 {
            return;
        }
        self.generate(out);
    }

    fn count_legal_moves(&self, scratch: &mut MoveList<Move>) -> u64 {
        if self.s.draw != 0 {
            return 0;
        }
        self.count(scratch)
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        let before = self.s;
        self.history.push(Record { state: before, mv });
        let us = before.side.index();
        let them = 1 - us;
        let from = mv.start_bit();
        let to = mv.end_bit();
        let from_bit = 1u64 << from;
        let to_bit = 1u64 << to;
        let king = before.kings & from_bit != 0;
        let kind = us * 2 + king as usize;
        let mut pieces = before.pieces;
        let mut kings = before.kings;
        pieces[us] ^= from_bit ^ to_bit;
        let mut hash = before.hash
            ^ zobrist::piece(kind, from)
            ^ zobrist::piece(kind, to)
            ^ zobrist::BLACK_TO_MOVE;
        if king {
            kings ^= from_bit ^ to_bit;
        }
        let captured = mv.captured_dense();
        if captured != 0 {
            let mask = from_dense(captured);
            pieces[them] ^= mask;
            for bit in bits(mask) {
                let taken_kind = them * 2 + ((kings >> bit) & 1) as usize;
                hash ^= zobrist::piece(taken_kind, bit);
            }
            kings &= !mask;
        }
        if !king && to_bit & PROMOTION[us] != 0 {
            kings |= to_bit;
            hash ^= zobrist::piece(us * 2, to) ^ zobrist::piece(us * 2 + 1, to);
        }
        let next = self.next_state(&before, pieces, kings, hash, king, captured);
        // Field by field: the move generator reads single words back at once,
        // which wide stores would not forward to it.
        self.s.pieces[0] = next.pieces[0];
        self.s.pieces[1] = next.pieces[1];
        self.s.kings = next.kings;
        self.s.hash = next.hash;
        self.s.reversible = next.reversible;
        self.s.endgame = next.endgame;
        self.s.carried = next.carried;
        self.s.draw = next.draw;
        self.s.side = next.side;
    }

    #[inline]
    fn undo(&mut self, _mv: Move) {
        let record = self
            .history
            .pop()
            .expect("undo called with no move to take back");
        self.s = record.state;
    }

    fn outcome(&self) -> Option<Outcome> {
        // A side that cannot move loses even when the move that blocked it also
        // completed a draw count: the game ended on the board first.
        if !self.has_legal_move() {
            return Some(self.no_move_outcome());
        }
        self.draw_rule().map(|rule| Outcome::draw(rule.reason()))
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.s.hash
    }

    fn compute_hash(&self) -> u64 {
        let mut hash = 0;
        if self.s.side == Side::Black {
            hash ^= zobrist::BLACK_TO_MOVE;
        }
        for side in Side::ALL {
            let s = side.index();
            for bit in bits(self.s.pieces[s]) {
                let kind = s * 2 + ((self.s.kings >> bit) & 1) as usize;
                hash ^= zobrist::piece(kind, bit);
            }
        }
        hash
    }

    #[inline]
    fn is_noisy(&self, mv: Move) -> bool {
        mv.is_capture()
    }

    const NOISY_IS_OPTIONAL: bool = false;

    /// Captures are compulsory: when one exists every legal move is a capture
    /// and the side cannot decline them; otherwise there is nothing noisy.
    fn noisy_moves(&self, out: &mut MoveList<Move>) -> bool {
        out.clear();
        if self.s.draw != 0 {
            return false;
        }
        if self.has_capture() {
            self.generate(out);
            false
        } else {
            true
        }
    }

    const HAS_NULL_MOVE: bool = true;

    /// Hands the turn over, recorded in the history as a move from bit 0 to
    /// itself, which no rule makes. The king-move count restarts, as after a
    /// man move: no 25-move draw comes of the null move, and the repetition
    /// rule never looks back across it (positions before it had the other
    /// side to move at the same distance). The count of a "pieces against a
    /// lone king" ending stays: the null move is no ply of it.
    fn play_null(&mut self) {
        let before = self.s;
        self.history.push(Record {
            state: before,
            mv: Move::from_bits(0, 0, 0),
        });
        self.s.hash ^= zobrist::BLACK_TO_MOVE;
        self.s.side = !before.side;
        self.s.reversible = 0;
    }

    fn undo_null(&mut self) {
        let record = self
            .history
            .pop()
            .expect("undo_null called with no null move to take back");
        self.s = record.state;
    }

    /// Not in the endings where zugzwang is common: when the side to move has
    /// four pieces or fewer, or when it alone has kings.
    fn null_move_is_safe(&self) -> bool {
        let us = self.s.side.index();
        let own_kings = self.s.pieces[us] & self.s.kings;
        let their_kings = self.s.pieces[1 - us] & self.s.kings;
        !at_most_four(self.s.pieces[us]) && (own_kings == 0 || their_kings != 0)
    }

    /// Captures are compulsory: when one exists the side to move must take,
    /// which the static evaluation does not see.
    #[inline]
    fn noisy_is_forced(&self) -> bool {
        self.s.draw == 0 && self.has_capture()
    }

    #[inline]
    fn move_code(&self, mv: Move) -> u32 {
        mv.code()
    }

    const HAS_STRUCTURE_KEY: bool = true;

    /// Where the men of both sides stand, and who is to move; the kings,
    /// which roam, are left out. The side goes in bit 63, which no square uses.
    fn structure_key(&self) -> u64 {
        let white = splitmix64(self.men(Side::White)).1;
        let side = (self.s.side.index() as u64) << 63;
        splitmix64(white ^ self.men(Side::Black) ^ side).1
    }

    const MOVE_KEYS: usize = 50 * 50;

    #[inline]
    fn move_key(&self, mv: Move) -> usize {
        mv.from().index() * 50 + mv.to().index()
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        self.check_move(text)
    }

    fn format_move(&self, mv: Move) -> String {
        crate::notation::format(self, mv)
    }

    fn from_text(text: &str) -> Result<Draughts, PositionError> {
        crate::text::parse_position(text)
    }

    fn to_text(&self) -> String {
        crate::text::format_position(self)
    }

    /// A PDN game: the position from which the draw rules' memory starts, as a
    /// `[FEN]` tag, and the moves played since, so that reading it back restores
    /// the draw counters and the repetition history too.
    fn to_file(&self) -> String {
        crate::pdn::position_file(self)
    }

    /// A PDN game (or a bare FEN), replayed to its last position.
    fn from_file(text: &str) -> Result<Draughts, PositionError> {
        crate::pdn::read_game_file(text).map(plateau_core::replayed)
    }

    fn from_file_with_moves(text: &str) -> Result<(Draughts, Vec<Move>), PositionError> {
        crate::pdn::read_game_file(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repetitions_compare_positions_not_only_hashes() {
        let mut game = Draughts::from_text("W:WK47,45:BK4,6").unwrap();
        let mut list = MoveList::new();
        game.legal_moves(&mut list);
        let mv = list[0];
        let now = game.s;
        // Another position, same side to move, forged with the same hash: what
        // a Zobrist collision would look like.
        let collision = State {
            hash: now.hash,
            ..Draughts::from_text("W:WK42,45:BK9,6").unwrap().s
        };
        game.s.reversible = 8;
        // The repetition rule reads 4, 6 and 8 plies back.
        let record = |state| Record { state, mv };
        game.history = vec![record(collision); 8];
        assert_eq!(game.repetitions(), 1);
        game.history[0] = record(now);
        game.history[4] = record(now);
        assert_eq!(game.repetitions(), 3);
        game.history[4] = record(collision);
        assert_eq!(game.repetitions(), 2);
    }
}
