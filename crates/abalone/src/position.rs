use crate::board::{BOARD, Cell, around, cells, shift};
use crate::{Move, movegen, zobrist};
use plateau_core::{
    EndReason, Game, MoveError, MoveList, Outcome, PositionError, Side, splitmix64,
};

/// Plies after which a game is stopped and scored as a draw. Abalone has no
/// draw rule; plateau needs one so that no game can go on forever.
pub const DEFAULT_MAX_PLIES: u32 = 400;

/// What reaching the ply limit makes of a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AtTheLimit {
    /// A draw: the engine's and the command line's rule, a backstop that no
    /// game can go on forever.
    #[default]
    Draw,
    /// The side that has pushed off more marbles wins, a draw when even: the
    /// move limit of the site's rooms, as Abalone servers adjudicate, so that
    /// a lead nobody can convert still ends the game.
    MoreMarblesWin,
}

/// Marbles each side starts with.
pub const MARBLES: u32 = 14;

/// Ejected marbles that lose the game.
pub const LOSING_COUNT: u32 = 6;

/// The three start layouts plateau knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// Black on rows A-B and c3-c5, White opposite.
    Standard,
    /// The tournament layout: two hexagonal "daisies" per side, on the sides.
    BelgianDaisy,
    /// Daisies one row further in.
    GermanDaisy,
}

impl Layout {
    pub const ALL: [Layout; 3] = [Layout::Standard, Layout::BelgianDaisy, Layout::GermanDaisy];

    /// The variant name: `standard`, `belgian-daisy`, `german-daisy`.
    pub const fn name(self) -> &'static str {
        match self {
            Layout::Standard => "standard",
            Layout::BelgianDaisy => "belgian-daisy",
            Layout::GermanDaisy => "german-daisy",
        }
    }

    /// Reads a variant name (any case); `None` if unknown.
    pub fn from_name(name: &str) -> Option<Layout> {
        Layout::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(name))
    }

    /// The cells of `side`'s marbles at the start, as the rules file lists them.
    pub fn cells(self, side: Side) -> &'static str {
        match (self, side) {
            (Layout::Standard, Side::Black) => "a1 a2 a3 a4 a5 b1 b2 b3 b4 b5 b6 c3 c4 c5",
            (Layout::Standard, Side::White) => "i5 i6 i7 i8 i9 h4 h5 h6 h7 h8 h9 g5 g6 g7",
            (Layout::BelgianDaisy, Side::Black) => "a1 a2 b1 b2 b3 c2 c3 g7 g8 h7 h8 h9 i8 i9",
            (Layout::BelgianDaisy, Side::White) => "a4 a5 b4 b5 b6 c5 c6 g4 g5 h4 h5 h6 i5 i6",
            (Layout::GermanDaisy, Side::Black) => "b1 b2 c1 c2 c3 d2 d3 f7 f8 g7 g8 g9 h8 h9",
            (Layout::GermanDaisy, Side::White) => "b5 b6 c5 c6 c7 d6 d7 f3 f4 g3 g4 g5 h4 h5",
        }
    }

    fn mask(self, side: Side) -> u128 {
        self.cells(side)
            .split_whitespace()
            .filter_map(|name| Cell::parse(name).ok())
            .fold(0, |mask, cell| mask | cell.bit())
    }
}

/// What `undo` restores, and what repetitions are looked up in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Saved {
    marbles: [u128; 2],
    hash: u64,
    repetitions: u8,
    reversible: u32,
}

/// An Abalone position, ready for play and undo.
///
/// Marbles are masks over the padded hex grid of [`crate::board`], one per side
/// (indexed by [`Side::index`]). The ejected counts follow from the marbles left
/// (each side starts with 14). The stack of earlier states serves `undo` and the
/// threefold-repetition rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Abalone {
    marbles: [u128; 2],
    side: Side,
    hash: u64,
    ply: u32,
    max_plies: u32,
    at_the_limit: AtTheLimit,
    /// How many times the current position has occurred (1 the first time).
    repetitions: u8,
    /// Plies since the last ejection (or since the position was set up): no
    /// earlier position can come back.
    reversible: u32,
    history: Vec<Saved>,
}

impl Default for Abalone {
    fn default() -> Abalone {
        Abalone::new()
    }
}

impl Abalone {
    /// The standard start, Black to move.
    pub fn new() -> Abalone {
        Abalone::start(Layout::Standard)
    }

    /// The start of `layout`, Black to move.
    pub fn start(layout: Layout) -> Abalone {
        let mut marbles = [0; 2];
        for side in Side::ALL {
            marbles[side.index()] = layout.mask(side);
        }
        Abalone::from_parts(marbles, Side::Black)
    }

    /// Builds a position from already-checked parts and computes its hash.
    pub(crate) fn from_parts(marbles: [u128; 2], side: Side) -> Abalone {
        let mut position = Abalone {
            marbles,
            side,
            hash: 0,
            ply: 0,
            max_plies: DEFAULT_MAX_PLIES,
            at_the_limit: AtTheLimit::Draw,
            repetitions: 1,
            reversible: 0,
            history: Vec::with_capacity(64),
        };
        position.hash = position.compute_hash();
        position
    }

    /// The same position with another ply limit (plies counted from here).
    pub fn with_max_plies(mut self, max_plies: u32) -> Abalone {
        self.max_plies = max_plies;
        self
    }

    pub fn max_plies(&self) -> u32 {
        self.max_plies
    }

    /// The same position with another rule at the ply limit.
    pub fn with_at_the_limit(mut self, rule: AtTheLimit) -> Abalone {
        self.at_the_limit = rule;
        self
    }

    pub fn at_the_limit(&self) -> AtTheLimit {
        self.at_the_limit
    }

    /// Plies played since this position was set up (or, read from a save
    /// file, since the game began).
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The same position with `ply` plies already played (a save file's count).
    pub(crate) fn with_ply(mut self, ply: u32) -> Abalone {
        self.ply = ply;
        self
    }

    /// The position where the repetition memory starts (just after the last
    /// ejection, or the setup) and the moves played since, rebuilt from the
    /// history: what a save file needs to restore the repetitions.
    pub(crate) fn since_last_ejection(&self) -> (Abalone, Vec<Move>) {
        let len = self.history.len();
        let back = (self.reversible as usize).min(len);
        let first = len - back;
        let mut side = if back % 2 == 1 { !self.side } else { self.side };
        let start_marbles = self.history.get(first).map_or(self.marbles, |s| s.marbles);
        let start = Abalone::from_parts(start_marbles, side)
            .with_max_plies(self.max_plies)
            .with_at_the_limit(self.at_the_limit);
        let mut moves = Vec::with_capacity(back);
        let mut list = MoveList::new();
        for i in first..len {
            let [own, opp] = {
                let marbles = self.history[i].marbles;
                [marbles[side.index()], marbles[1 - side.index()]]
            };
            let next = self.history.get(i + 1).map_or(self.marbles, |s| s.marbles);
            list.clear();
            movegen::generate(own, opp, &mut list);
            // Each (group, direction) moves the own marbles its own way, so
            // they alone tell which move was played.
            let found = list
                .iter()
                .copied()
                .find(|&mv| own ^ mv.own_change() == next[side.index()]);
            let Some(mv) = found else {
                debug_assert!(
                    false,
                    "no move leads from ply {i} of the history to the next"
                );
                // Never expected; the position alone is still a valid start.
                let now = Abalone::from_parts(self.marbles, self.side);
                let now = now
                    .with_max_plies(self.max_plies)
                    .with_at_the_limit(self.at_the_limit);
                return (now, Vec::new());
            };
            moves.push(mv);
            side = !side;
        }
        (start, moves)
    }

    /// The marbles of `side`, as a mask (see [`Cell::bit`]).
    #[inline]
    pub fn marbles(&self, side: Side) -> u128 {
        self.marbles[side.index()]
    }

    /// How many marbles `side` has lost.
    #[inline]
    pub fn lost(&self, side: Side) -> u32 {
        MARBLES - self.marbles[side.index()].count_ones()
    }

    /// The marble on `cell`, if any.
    pub fn at(&self, cell: Cell) -> Option<Side> {
        Side::ALL
            .into_iter()
            .find(|side| self.marbles[side.index()] & cell.bit() != 0)
    }

    /// The empty cells.
    #[inline]
    pub fn empty(&self) -> u128 {
        BOARD & !(self.marbles[0] | self.marbles[1])
    }

    /// How many times the current position has occurred in this game.
    pub fn repetitions(&self) -> u8 {
        self.repetitions
    }

    /// A move that parses and is legal here, or why not: the checked path that
    /// every move from a user, a file or a socket takes.
    pub fn check_move(&self, text: &str) -> Result<Move, MoveError> {
        crate::notation::parse(self, text)
    }

    /// Over by ejections, repetition or the ply limit (not by immobility, which
    /// needs move generation).
    #[inline]
    fn is_over_cheaply(&self) -> bool {
        self.lost(Side::White) >= LOSING_COUNT
            || self.lost(Side::Black) >= LOSING_COUNT
            || self.repetitions >= 3
            || self.ply >= self.max_plies
    }

    /// Whether the side to move has any move at all.
    #[inline]
    fn can_move(&self) -> bool {
        let own = self.marbles[self.side.index()];
        // A marble next to an empty cell can step into it.
        own & around(self.empty()) != 0
            || movegen::count(own, self.marbles[1 - self.side.index()]) > 0
    }

    /// How many earlier occurrences make the current position (same marbles, same
    /// side to move) a repetition; looks back only to the last ejection.
    fn count_repetitions(&self) -> u8 {
        let len = self.history.len();
        let mut back = 2;
        while back as u32 <= self.reversible && back <= len {
            let earlier = &self.history[len - back];
            if earlier.hash == self.hash && earlier.marbles == self.marbles {
                return earlier.repetitions.saturating_add(1);
            }
            back += 2;
        }
        1
    }
}

impl Game for Abalone {
    type Move = Move;

    #[inline]
    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self, out: &mut MoveList<Move>) {
        out.clear();
        if self.is_over_cheaply() {
            return;
        }
        let us = self.side.index();
        movegen::generate(self.marbles[us], self.marbles[1 - us], out);
    }

    #[inline]
    fn count_legal_moves(&self, _scratch: &mut MoveList<Move>) -> u64 {
        if self.is_over_cheaply() {
            return 0;
        }
        let us = self.side.index();
        movegen::count(self.marbles[us], self.marbles[1 - us]) as u64
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        self.history.push(Saved {
            marbles: self.marbles,
            hash: self.hash,
            repetitions: self.repetitions,
            reversible: self.reversible,
        });
        let us = self.side.index();
        let them = 1 - us;
        let delta = mv.direction().delta();
        if mv.is_inline() {
            let trailing = mv.cell().bit_index();
            let front = mv.front().bit_index();
            self.marbles[us] ^= (1u128 << trailing) | (1u128 << front);
            self.hash ^= zobrist::marble(us, trailing) ^ zobrist::marble(us, front);
            let pushed = mv.pushed();
            if pushed > 0 {
                self.marbles[them] ^= 1u128 << front;
                self.hash ^= zobrist::marble(them, front);
                if !mv.ejects() {
                    let behind = (front as i32 + pushed as i32 * delta) as usize;
                    self.marbles[them] ^= 1u128 << behind;
                    self.hash ^= zobrist::marble(them, behind);
                }
            }
        } else {
            let group = mv.group();
            self.marbles[us] ^= group | shift(group, delta);
            for cell in cells(group) {
                let from = cell.bit_index();
                let to = (from as i32 + delta) as usize;
                self.hash ^= zobrist::marble(us, from) ^ zobrist::marble(us, to);
            }
        }
        self.hash ^= zobrist::BLACK_TO_MOVE;
        self.side = !self.side;
        self.ply += 1;
        if mv.ejects() {
            self.reversible = 0;
            self.repetitions = 1;
        } else {
            self.reversible += 1;
            self.repetitions = self.count_repetitions();
        }
    }

    #[inline]
    fn undo(&mut self, _mv: Move) {
        let saved = self
            .history
            .pop()
            .expect("undo called with no move to take back");
        self.marbles = saved.marbles;
        self.hash = saved.hash;
        self.repetitions = saved.repetitions;
        self.reversible = saved.reversible;
        self.side = !self.side;
        self.ply -= 1;
    }

    fn outcome(&self) -> Option<Outcome> {
        for side in Side::ALL {
            if self.lost(side) >= LOSING_COUNT {
                return Some(Outcome::win(!side, EndReason::SixMarblesEjected));
            }
        }
        if self.repetitions >= 3 {
            return Some(Outcome::draw(EndReason::Repetition));
        }
        if self.ply >= self.max_plies {
            let [white, black] = [self.lost(Side::White), self.lost(Side::Black)];
            return Some(match self.at_the_limit {
                AtTheLimit::MoreMarblesWin if white < black => {
                    Outcome::win(Side::White, EndReason::MarblesAtMoveLimit)
                }
                AtTheLimit::MoreMarblesWin if black < white => {
                    Outcome::win(Side::Black, EndReason::MarblesAtMoveLimit)
                }
                _ => Outcome::draw(EndReason::PlyLimit),
            });
        }
        if !self.can_move() {
            return Some(Outcome::win(!self.side, EndReason::NoLegalMove));
        }
        None
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn compute_hash(&self) -> u64 {
        let mut hash = if self.side == Side::Black {
            zobrist::BLACK_TO_MOVE
        } else {
            0
        };
        for side in Side::ALL {
            for cell in cells(self.marbles[side.index()]) {
                hash ^= zobrist::marble(side.index(), cell.bit_index());
            }
        }
        hash
    }

    #[inline]
    fn is_noisy(&self, mv: Move) -> bool {
        mv.ejects()
    }

    const NOISY_IS_OPTIONAL: bool = true;

    /// The ejecting pushes, found without listing the other moves.
    fn noisy_moves(&self, out: &mut MoveList<Move>) -> bool {
        out.clear();
        if self.is_over_cheaply() {
            return false;
        }
        let us = self.side.index();
        let (own, opp) = (self.marbles[us], self.marbles[1 - us]);
        let noisy = movegen::generate_ejections(own, opp, out);
        movegen::count(own, opp) > noisy
    }

    /// (cell × 6 + direction) × 9 + shape, the shape being the inline group
    /// size (3) or the broadside's axis and size (6).
    const MOVE_KEYS: usize = 61 * 6 * 9;

    #[inline]
    fn move_key(&self, mv: Move) -> usize {
        let shape = if mv.is_inline() {
            mv.size() as usize - 1
        } else {
            3 + mv.line().index() * 2 + mv.size() as usize - 2
        };
        (mv.cell().compact() * 6 + mv.direction().index()) * 9 + shape
    }

    const HAS_NULL_MOVE: bool = true;

    /// Hands the turn over. The repetition memory restarts, as after an
    /// ejection, so that no position before the null move counts as a
    /// repetition of one after it; the ply count stays, so that a null move
    /// never brings the ply limit closer.
    fn play_null(&mut self) {
        self.history.push(Saved {
            marbles: self.marbles,
            hash: self.hash,
            repetitions: self.repetitions,
            reversible: self.reversible,
        });
        self.hash ^= zobrist::BLACK_TO_MOVE;
        self.side = !self.side;
        self.reversible = 0;
        self.repetitions = 1;
    }

    fn undo_null(&mut self) {
        let saved = self
            .history
            .pop()
            .expect("undo_null called with no null move to take back");
        self.hash = saved.hash;
        self.repetitions = saved.repetitions;
        self.reversible = saved.reversible;
        self.side = !self.side;
    }

    #[inline]
    fn move_code(&self, mv: Move) -> u32 {
        mv.code()
    }

    const HAS_STRUCTURE_KEY: bool = true;

    /// The marbles each side has left, and who is to move.
    fn structure_key(&self) -> u64 {
        let white = u64::from(self.marbles[Side::White.index()].count_ones());
        let black = u64::from(self.marbles[Side::Black.index()].count_ones());
        splitmix64(white | black << 8 | (self.side.index() as u64) << 16).1
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        self.check_move(text)
    }

    fn format_move(&self, mv: Move) -> String {
        mv.to_string()
    }

    fn from_text(text: &str) -> Result<Abalone, PositionError> {
        crate::text::parse_position(text)
    }

    fn to_text(&self) -> String {
        crate::text::format_position(self)
    }

    /// A save file (see [`plateau_core::save`]): the position after the last
    /// ejection, the plies played before it, the ply limit when it is not the
    /// default, and the moves since, so that reading it back restores the
    /// repetitions and the ply count.
    fn to_file(&self) -> String {
        crate::text::format_file(self)
    }

    /// A save file, or a bare position text.
    fn from_file(text: &str) -> Result<Abalone, PositionError> {
        crate::text::parse_file_with_moves(text).map(plateau_core::replayed)
    }

    fn from_file_with_moves(text: &str) -> Result<(Abalone, Vec<Move>), PositionError> {
        crate::text::parse_file_with_moves(text)
    }
}
