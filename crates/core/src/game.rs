use crate::{MoveError, MoveList, Outcome, PositionError, Side, Verdict};
use std::fmt::{Debug, Display};
use std::hash::Hash;

/// The typed, fast face of a game: what search, perft and tuning run on.
///
/// Positions are mutated in place with [`Game::play`] and restored with
/// [`Game::undo`]; each game keeps whatever it needs to undo (a small stack of
/// previous states is the usual choice, and it doubles as the repetition history).
/// Moves are small `Copy` values; generating them must not allocate once the
/// caller's [`MoveList`] has grown to size.
///
/// Untrusted input never reaches the fast path directly: [`Game::from_text`] and
/// [`Game::parse_move`] check everything and return an error that says what was
/// wrong, while [`Game::play`] trusts its caller to pass a move that
/// [`Game::legal_moves`] produced.
///
/// `Display` draws the board for people (the `plateau show` picture).
pub trait Game: Clone + Debug + Display + Send + Sync + 'static {
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;

    /// Who plays next (also while the game is over: the side that would move).
    fn side_to_move(&self) -> Side;

    /// Clears `out` and fills it with every legal move. Empty exactly when the game
    /// is over: where the rules make a player pass, the pass is a real move.
    fn legal_moves(&self, out: &mut MoveList<Self::Move>);

    /// The number of legal moves, for perft's last ply. Games override it when they
    /// can count faster than they can list.
    fn count_legal_moves(&self, scratch: &mut MoveList<Self::Move>) -> u64 {
        self.legal_moves(scratch);
        scratch.len() as u64
    }

    /// Plays a legal move (one produced by [`Game::legal_moves`] for this position).
    fn play(&mut self, mv: Self::Move);

    /// Takes back `mv`, which must be the last move played.
    fn undo(&mut self, mv: Self::Move);

    /// `None` while the game goes on.
    fn outcome(&self) -> Option<Outcome>;

    /// The Zobrist hash, maintained incrementally by `play` and `undo`.
    fn hash(&self) -> u64;

    /// The Zobrist hash computed from scratch: what [`Game::hash`] must always equal.
    fn compute_hash(&self) -> u64;

    /// Moves worth searching past the horizon (captures, ejections).
    fn is_noisy(&self, mv: Self::Move) -> bool;

    /// Whether a side may always decline its noisy moves (Escampe, Abalone: a
    /// capture is a choice). `false` where they can be compulsory (draughts),
    /// so that quiescence asks [`Game::noisy_moves`] before standing pat.
    const NOISY_IS_OPTIONAL: bool = false;

    /// Fills `out` with the noisy moves and returns whether quiet moves exist too,
    /// that is whether the side to move could decline every noisy move (where
    /// captures are compulsory it cannot, and quiescence must not stand pat).
    /// Games override it when they can find noisy moves without listing all moves.
    fn noisy_moves(&self, out: &mut MoveList<Self::Move>) -> bool {
        self.legal_moves(out);
        let all = out.len();
        out.as_mut_vec().retain(|&mv| self.is_noisy(mv));
        out.len() < all
    }

    /// How many distinct [`Game::move_key`] values there are.
    const MOVE_KEYS: usize = 1;

    /// A small number for the move, below [`Game::MOVE_KEYS`], indexing search
    /// statistics such as the history table (from and to squares, typically).
    /// Different moves may share a key; it only affects move ordering.
    fn move_key(&self, _mv: Self::Move) -> usize {
        0
    }

    /// Whether [`Game::order_hint`] is worth asking: then it orders the moves
    /// that the table and the killers say nothing about, before the history does.
    const HAS_ORDER_HINT: bool = false;

    /// A cheap static guess of what `mv` gains, higher first (Ataxx: the stones
    /// it adds to the mover's count). Only asked when [`Game::HAS_ORDER_HINT`].
    fn order_hint(&self, _mv: Self::Move) -> i32 {
        0
    }

    /// Whether `mv` is of a kind that is almost never best, so that the
    /// search may skip it once two moves of the node are searched (Ataxx: a
    /// jump that captures nothing, Zataxx's late move pruning). Only asked
    /// where the game's search switches `hopeless` pruning on.
    fn is_hopeless(&self, _mv: Self::Move) -> bool {
        false
    }

    /// Whether the search may pass the turn with [`Game::play_null`] to test
    /// whether a position is so good that even a free move for the opponent
    /// does not save it (null-move pruning). Games where having to move is
    /// often a disadvantage in itself (zugzwang) say how rare that is through
    /// [`Game::null_move_is_safe`].
    const HAS_NULL_MOVE: bool = false;

    /// Hands the turn to the other side without moving: the search's null move,
    /// never a move of the rules. The hash changes exactly as for a move that
    /// changes nothing but the side to move; [`Game::undo_null`] takes it back.
    /// Only called when [`Game::HAS_NULL_MOVE`] and the game is not over.
    fn play_null(&mut self) {}

    /// Takes back [`Game::play_null`], which must be the last thing played.
    fn undo_null(&mut self) {}

    /// Whether a null move is a fair test here: `false` where zugzwang is
    /// likely (draughts endings with few pieces), so that the search does not
    /// prune a position only the obligation to move would lose.
    fn null_move_is_safe(&self) -> bool {
        true
    }

    /// Whether the static evaluation misleads here because the side to move
    /// must make a noisy move (a compulsory capture in draughts). The search
    /// skips its static forward pruning in such positions, as chess engines do
    /// in check.
    fn noisy_is_forced(&self) -> bool {
        false
    }

    /// A code of the move below 2^24, different for the different legal moves
    /// of one position: how the shared transposition table, whose entries are
    /// single machine words, remembers a best move. The default hashes the
    /// move; games override it with an exact, cheaper encoding.
    fn move_code(&self, mv: Self::Move) -> u32 {
        let mut hasher = MoveHasher(0);
        mv.hash(&mut hasher);
        (crate::splitmix64(hasher.0).1 >> 40) as u32
    }

    /// Whether [`Game::structure_key`] is worth asking: then the search
    /// learns, per structure, how far its static evaluation tends to be from
    /// the searched score and corrects it (correction history).
    const HAS_STRUCTURE_KEY: bool = false;

    /// A hash of the slowly changing part of the position (draughts: where the
    /// men stand), shared by many positions whose evaluations err alike.
    fn structure_key(&self) -> u64 {
        0
    }

    /// Reads a move and checks that it is legal here; the error says why not.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;

    /// The move in the game's standard notation, as it reads in this position.
    fn format_move(&self, mv: Self::Move) -> String;

    /// Reads the one-line position text; rejects anything that is not a position
    /// the rules can reach or continue from.
    fn from_text(text: &str) -> Result<Self, PositionError>;

    /// The one-line position text; `from_text(to_text())` gives the same position.
    fn to_text(&self) -> String;

    /// The game's save-file format, when it has one richer than the position text.
    fn to_file(&self) -> String {
        self.to_text() + "\n"
    }

    /// Reads what [`Game::to_file`] writes.
    fn from_file(text: &str) -> Result<Self, PositionError> {
        Self::from_text(text.trim())
    }

    /// Reads what [`Game::to_file`] writes as the position its moves start
    /// from and those moves, each checked, so that a loaded game keeps them
    /// (to take back, to annotate). A file that is a bare position has none.
    fn from_file_with_moves(text: &str) -> Result<(Self, Vec<Self::Move>), PositionError> {
        Ok((Self::from_file(text)?, Vec::new()))
    }

    /// The record of a game played from `start`: by default its moves numbered
    /// by pairs with the result at the end, under `#` header lines. Games with a
    /// standard record format (PDN for draughts) override it.
    fn write_record(start: &Self, moves: &[String], result: Option<Verdict<'_>>) -> String {
        numbered_record(&start.to_text(), moves, result)
    }
}

/// Folds a move's `Hash` bytes into one word for [`Game::move_code`]; no
/// allocation, no randomness, the same on every run.
struct MoveHasher(u64);

impl std::hash::Hasher for MoveHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(byte)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
}

/// The position a file read by [`Game::from_file_with_moves`] ends in: its
/// moves played from its start. Games that keep moves in their files read
/// [`Game::from_file`] this way, so the two readings cannot differ.
pub fn replayed<G: Game>((mut game, moves): (G, Vec<G::Move>)) -> G {
    for mv in moves {
        game.play(mv);
    }
    game
}

/// Reads back the first record of a text [`numbered_record`] wrote (records
/// follow one another, as `plateau match --record` writes them): its start
/// position's text (the `# start:` line) and its movetext (the lines not
/// starting with `#`), for [`crate::play_record`]. The record ends at the
/// first blank or `#` line after its moves. `None` when there is no `# start:`
/// line before the moves: the text is not such a record.
pub fn read_numbered_record(text: &str) -> Option<(&str, String)> {
    let mut start = None;
    let mut movetext = String::new();
    for line in text.lines() {
        let line = line.trim();
        let ends_moves = line.is_empty() || line.starts_with('#');
        if ends_moves && !movetext.is_empty() {
            break;
        }
        if let Some(comment) = line.strip_prefix('#') {
            if let Some(position) = comment.trim_start().strip_prefix("start:") {
                start.get_or_insert(position.trim());
            }
        } else if !line.is_empty() {
            movetext.push_str(line);
            movetext.push(' ');
        }
    }
    start.map(|start| (start, movetext))
}

/// The default game record: header lines, then `1. m1 m2 2. m3 m4 ... result`.
pub fn numbered_record(start: &str, moves: &[String], result: Option<Verdict<'_>>) -> String {
    let mut text = format!("# start: {start}\n");
    if let Some(outcome) = result {
        text += &format!("# result: {outcome}\n");
    }
    let mut body = String::new();
    for (i, pair) in moves.chunks(2).enumerate() {
        if i > 0 {
            body.push(' ');
        }
        body += &format!("{}. {}", i + 1, pair.join(" "));
    }
    if !body.is_empty() {
        body.push(' ');
    }
    body += result.map_or("*", |o| o.result_text());
    text + &body + "\n"
}

/// Plays a sequence of moves written in the game's notation, separated by
/// whitespace, stopping at the first bad one.
///
/// The error names the ply (1 = the first move given), the move and the reason,
/// e.g. `ply 3: A1-A2: A1 has liseré 1, the constraint is 3`.
pub fn play_moves<G: Game>(game: &mut G, moves: &str) -> Result<Vec<G::Move>, String> {
    let mut played = Vec::new();
    for (index, text) in moves.split_whitespace().enumerate() {
        if let Some(outcome) = game.outcome() {
            return Err(format!(
                "ply {}: {text}: the game is already over ({outcome})",
                index + 1
            ));
        }
        match game.parse_move(text) {
            Ok(mv) => {
                game.play(mv);
                played.push(mv);
            }
            Err(err) => return Err(format!("ply {}: {err}", index + 1)),
        }
    }
    Ok(played)
}

/// Plays `plies` uniformly random legal moves (fewer if the game ends), the
/// choices drawn by SplitMix64 from `state`: the varied, reproducible
/// openings that suite generators start their self-play from.
pub fn play_random_plies<G: Game>(game: &mut G, plies: usize, mut state: u64) {
    let mut moves = MoveList::new();
    for _ in 0..plies {
        if game.outcome().is_some() {
            return;
        }
        moves.clear();
        game.legal_moves(&mut moves);
        if moves.is_empty() {
            return;
        }
        let (next, random) = crate::splitmix64(state);
        state = next;
        game.play(moves[(random % moves.len() as u64) as usize]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Side;

    #[test]
    fn the_default_record_numbers_pairs_and_ends_with_the_result() {
        let moves: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        let win = Outcome::win(Side::White, crate::EndReason::Resignation);
        let text = numbered_record("START", &moves, Some(win.verdict()));
        assert_eq!(
            text,
            "# start: START\n# result: white wins (resignation)\n1. a b 2. c 1-0\n"
        );
        assert_eq!(numbered_record("S", &[], None), "# start: S\n*\n");
    }

    #[test]
    fn a_numbered_record_reads_back_its_start_and_moves() {
        let moves: Vec<String> = ["a1b2", "c3", "d4"].iter().map(|s| s.to_string()).collect();
        let win = Outcome::win(Side::Black, crate::EndReason::Resignation);
        let text = numbered_record("x5o/7 x 0 1", &moves, Some(win.verdict()));
        let (start, movetext) = read_numbered_record(&text).expect("a record");
        assert_eq!(start, "x5o/7 x 0 1");
        let tokens: Vec<&str> = movetext.split_whitespace().collect();
        assert_eq!(tokens, ["1.", "a1b2", "c3", "2.", "d4", "0-1"]);
        // Headers before the start line, blank lines: still read.
        let text = "# event: a match\n\n# start: S\n1. a b\n2. c\n";
        let (start, movetext) = read_numbered_record(text).expect("a record");
        assert_eq!((start, movetext.split_whitespace().count()), ("S", 5));
        // Several records: the first.
        let text = "# start: S\n1. a b\n2. c 1-0\n\n# start: T\n1. d 0-1\n";
        let (start, movetext) = read_numbered_record(text).expect("a record");
        assert_eq!((start, movetext.trim()), ("S", "1. a b 2. c 1-0"));
        // A save file or a bare position is not a numbered record.
        assert_eq!(read_numbered_record("start: S\nmoves: a b\n"), None);
        assert_eq!(read_numbered_record("x5o/7/7/7/7/7/o5x x 0 1"), None);
    }
}
