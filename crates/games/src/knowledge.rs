//! What draughts engines know beyond their search: the endgame databases
//! (one set per process, found in the data directory or where `--egtb-dir`
//! says, probed in the search's tree and used to choose among the root's
//! moves) and the opening book (built by `plateau book draughts --build`,
//! shipped in the binary).

use crate::book::Book;
use plateau_core::{Evaluator, Game, MoveList, Proven, Rng, Side};
use plateau_draughts::Draughts;
use plateau_egtb::{Tablebase, Wdl};
use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// The databases engines use: `None` inside until first asked, then the set
/// opened (or nothing).
static TABLES: Mutex<Option<Option<Arc<Tablebase>>>> = Mutex::new(None);

/// What an engine built now leaves out or changes (its tweaks), set while
/// it is built.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BuildWith {
    /// `egtb=off`.
    pub(crate) no_tables: bool,
    /// `book=off`.
    pub(crate) no_book: bool,
    /// `book-variety=N`: book moves within N of the best are played too.
    pub(crate) variety: u16,
    /// `convert=N`: Abalone's conversion term in percent (100 by default).
    pub(crate) conversion_percent: u16,
}

thread_local! {
    static BUILD_WITH: Cell<BuildWith> = const {
        Cell::new(BuildWith {
            no_tables: false,
            no_book: false,
            variety: 0,
            conversion_percent: 100,
        })
    };
}

/// Runs `build` with the engines it builds made as `with` says.
pub(crate) fn building_with<T>(with: BuildWith, build: impl FnOnce() -> T) -> T {
    /// Puts the setting back however `build` ends.
    struct Restore(BuildWith);
    impl Drop for Restore {
        fn drop(&mut self) {
            BUILD_WITH.with(|s| s.set(self.0));
        }
    }
    let _restore = Restore(BUILD_WITH.with(|s| s.replace(with)));
    build()
}

/// The share of Abalone's conversion term an engine built now plays with.
pub(crate) fn conversion_percent() -> u16 {
    BUILD_WITH.with(Cell::get).conversion_percent
}

/// Where the draughts databases live unless told otherwise:
/// `$PLATEAU_EGTB_DIR`, else `$XDG_DATA_HOME/plateau/egtb/draughts`, else
/// `~/.local/share/plateau/egtb/draughts` (on Windows, under `%APPDATA%`).
pub fn default_egtb_dir() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(dir) = var("PLATEAU_EGTB_DIR") {
        return Some(PathBuf::from(dir));
    }
    let data = var("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| var("HOME").map(|home| Path::new(&home).join(".local/share")))
        .or_else(|| var("APPDATA").map(PathBuf::from))?;
    Some(data.join("plateau").join("egtb").join("draughts"))
}

/// Makes engines built from now on use the databases in `dir` (the
/// `--egtb-dir` option). Returns the number of pieces they cover.
pub fn use_egtb_dir(dir: &Path) -> Result<u32, String> {
    let tables = Arc::new(Tablebase::open(dir).map_err(|e| e.to_string())?);
    let pieces = tables.pieces();
    prefetch(&tables);
    *TABLES.lock().unwrap_or_else(|e| e.into_inner()) = Some(Some(tables));
    Ok(pieces)
}

/// Reads every slice on a thread of its own, so that the first search to
/// reach an ending does not wait for its file (a probe that comes first
/// reads it itself).
fn prefetch(tables: &Arc<Tablebase>) {
    let tables = Arc::clone(tables);
    std::thread::spawn(move || tables.load_all());
}

/// The databases an engine built now gets: those chosen with
/// [`use_egtb_dir`], else those of [`default_egtb_dir`] when it holds a set;
/// none inside [`without_tables`].
pub fn draughts_tables() -> Option<Arc<Tablebase>> {
    if BUILD_WITH.with(Cell::get).no_tables {
        return None;
    }
    let mut slot = TABLES.lock().unwrap_or_else(|e| e.into_inner());
    slot.get_or_insert_with(|| {
        let dir = default_egtb_dir()?;
        let tables = Arc::new(Tablebase::open(&dir).ok()?);
        prefetch(&tables);
        Some(tables)
    })
    .clone()
}

/// Whether the draw rules that count moves leave a won ending time to be
/// won: under 40 of the 50 king plies, and under half an endgame limit.
fn room_to_win(game: &Draughts) -> bool {
    let (played, limit) = game.endgame_plies();
    game.king_move_plies() < 40 && (limit == 0 || played < limit / 2)
}

#[inline]
fn pieces_on_board(game: &Draughts) -> u32 {
    (game.pieces(Side::White) | game.pieces(Side::Black)).count_ones()
}

/// The opening book `master` plays in draughts, built by `plateau book
/// draughts --build` (its first lines say how).
pub fn draughts_book() -> Arc<Book> {
    static BOOK: OnceLock<Arc<Book>> = OnceLock::new();
    Arc::clone(BOOK.get_or_init(|| {
        // Checked by a test: the shipped book always parses.
        Arc::new(Book::parse(include_str!("../books/draughts.book")).unwrap_or_default())
    }))
}

/// A draughts evaluator that knows the databases and the book: positions the
/// databases cover are proven, not evaluated (before the horizon of a search
/// from a covered root, only those with fewer pieces), and at the root only
/// the moves that keep the position's value are searched; a book position is
/// answered from the book.
#[derive(Clone)]
pub(crate) struct WithKnowledge<E> {
    inner: E,
    tables: Option<Arc<Tablebase>>,
    /// The most pieces a probe can find (0 without databases): a popcount
    /// spares most nodes the lookup.
    pieces: u32,
    book: Option<Arc<Book>>,
    variety: i32,
}

impl<E> WithKnowledge<E> {
    pub(crate) fn new(inner: E) -> WithKnowledge<E> {
        let with = BUILD_WITH.with(Cell::get);
        let tables = draughts_tables();
        let pieces = tables.as_ref().map_or(0, |t| t.pieces());
        WithKnowledge {
            inner,
            tables,
            pieces,
            book: (!with.no_book).then(draughts_book),
            variety: i32::from(with.variety),
        }
    }
}

impl<E: Evaluator<Draughts>> Evaluator<Draughts> for WithKnowledge<E> {
    #[inline]
    fn evaluate(&self, game: &Draughts) -> i32 {
        self.inner.evaluate(game)
    }

    fn book_move(&self, game: &Draughts, rng: &mut Rng) -> Option<plateau_draughts::Move> {
        let moves = self.book.as_ref()?.moves(&game.to_text())?;
        let best = moves.first()?.1;
        let close: Vec<&str> = moves
            .iter()
            .filter(|(_, score)| *score >= best - self.variety)
            .map(|(mv, _)| mv.as_str())
            .collect();
        let pick = close.get(rng.below(close.len() as u64) as usize)?;
        game.check_move(pick).ok()
    }

    fn candidate_moves(&self, game: &Draughts, out: &mut MoveList<plateau_draughts::Move>) {
        self.inner.candidate_moves(game, out);
    }

    #[inline]
    fn proven(&self, game: &Draughts, limit: u32) -> Option<Proven> {
        let tables = self.tables.as_ref()?;
        if pieces_on_board(game) > self.pieces.min(limit) {
            return None;
        }
        Some(match tables.probe(game)? {
            Wdl::Draw => Proven::Draw,
            // The databases' wins ignore the move-counting draw rules: once
            // a count is well under way the win may come too late, and the
            // search finds out by itself what the rules leave of it.
            _ if !room_to_win(game) => return None,
            Wdl::Win => Proven::Win,
            Wdl::Loss => Proven::Loss,
        })
    }

    /// Fewer pieces than the root's where the databases cover the root:
    /// positions with as many are searched down to the horizon, and only a
    /// capture reaches the databases before it (see
    /// [`Evaluator::proven_limit`]). Elsewhere no limit: the databases'
    /// own size is [`Evaluator::proven`]'s.
    fn proven_limit(&self, root: &Draughts) -> u32 {
        let on_board = pieces_on_board(root);
        match &self.tables {
            // Only where the root's moves are filtered by their values too.
            Some(tables) if on_board <= self.pieces && tables.keeping_moves(root).is_some() => {
                on_board.saturating_sub(1)
            }
            _ => u32::MAX,
        }
    }

    fn filter_root(&self, game: &Draughts, moves: &mut Vec<plateau_draughts::Move>) {
        let Some((_, keep)) = self.tables.as_ref().and_then(|t| t.keeping_moves(game)) else {
            return;
        };
        if moves.iter().any(|mv| keep.contains(mv)) {
            moves.retain(|mv| keep.contains(mv));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plateau_draughts::DraughtsEval;

    #[test]
    fn the_root_keeps_only_the_moves_that_keep_the_value() {
        let dir = tempfile::tempdir().unwrap();
        plateau_egtb::generate_all(dir.path(), 3, &|_| {}, &mut |_| {}).unwrap();
        let tables = Arc::new(Tablebase::open(dir.path()).unwrap());
        let eval = WithKnowledge {
            inner: DraughtsEval::standard(),
            tables: Some(Arc::clone(&tables)),
            pieces: 3,
            book: None,
            variety: 0,
        };
        // A won king and man against a king where some moves throw the win
        // away.
        let material = plateau_egtb::Material::from_name("1m1k-0m1k").unwrap();
        let (position, mut moves, keep) = (0..plateau_egtb::index::slice_len(material))
            .find_map(|index| {
                let board = plateau_egtb::index::board_at(index, material)?;
                let (pieces, kings) = board.to_dense();
                let mut position = Draughts::new();
                position.set_dense(pieces, kings, Side::White).ok()?;
                let (value, keep) = tables.keeping_moves(&position)?;
                let mut all = MoveList::new();
                position.legal_moves(&mut all);
                let moves: Vec<_> = all.iter().copied().collect();
                (value == Wdl::Win && keep.len() > 1 && keep.len() < moves.len())
                    .then_some((position, moves, keep))
            })
            .unwrap();
        eval.filter_root(&position, &mut moves);
        assert_eq!(moves, keep);
        assert_eq!(eval.proven(&position, u32::MAX), Some(Proven::Win));
        // Once an endgame count is half run, a win is left to the search
        // (the databases know nothing of the count); a draw stays proven.
        let counted = (0..plateau_egtb::index::slice_len(material))
            .filter_map(|index| {
                let board = plateau_egtb::index::board_at(index, material)?;
                let (pieces, kings) = board.to_dense();
                let mut position = Draughts::new();
                position.set_dense(pieces, kings, Side::White).ok()?;
                // Six plies of king moves that keep the value.
                for _ in 0..6 {
                    let (_, keep) = tables.keeping_moves(&position)?;
                    let quiet = keep.into_iter().find(|mv| {
                        !mv.is_capture()
                            && position.piece_at(mv.from()) == Some((position.side_to_move(), true))
                    })?;
                    position.play(quiet);
                }
                (tables.probe(&position) == Some(Wdl::Win)).then_some(position)
            })
            .next()
            .unwrap();
        let (played, limit) = counted.endgame_plies();
        assert!(limit == 10 && played == 6, "{played} of {limit}");
        assert_eq!(eval.proven(&counted, u32::MAX), None);
        let drawn = Draughts::from_text("W:WK1,K2:BK46").unwrap();
        assert_eq!(eval.proven(&drawn, u32::MAX), Some(Proven::Draw));
        // Beyond the databases: nothing proven, nothing filtered.
        let start = Draughts::new();
        assert_eq!(eval.proven(&start, u32::MAX), None);
        // A search from a root the databases cover probes only positions
        // with fewer pieces; from any other root, all they hold.
        assert_eq!(eval.proven_limit(&position), 2);
        assert_eq!(eval.proven(&position, 2), None);
        let two = Draughts::from_text("W:WK1:BK46").unwrap();
        assert_eq!(eval.proven(&two, 2), Some(Proven::Draw));
        assert_eq!(eval.proven_limit(&start), u32::MAX);
        assert_eq!(eval.proven(&drawn, 3), Some(Proven::Draw));
        let mut moves = vec![start.check_move("32-28").unwrap()];
        eval.filter_root(&start, &mut moves);
        assert_eq!(moves.len(), 1);
    }

    #[test]
    fn the_shipped_book_reads_and_every_move_is_legal_where_it_stands() {
        let text = include_str!("../books/draughts.book");
        let book = Book::parse(text).unwrap();
        assert_eq!(book, *draughts_book());
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let position = line.split('\t').next().unwrap();
            let game = Draughts::from_text(position).unwrap();
            for (mv, _) in book.moves(position).unwrap() {
                assert!(game.check_move(mv).is_ok(), "{position}: {mv}");
            }
        }
    }

    #[test]
    fn book_moves_are_the_best_or_within_the_variety() {
        let start = Draughts::new();
        let text = format!("{}\t33-28 10\t32-28 6\t31-26 -20\n", start.to_text());
        let book = Arc::new(Book::parse(&text).unwrap());
        let with = |variety| WithKnowledge {
            inner: DraughtsEval::standard(),
            tables: None,
            pieces: 0,
            book: Some(Arc::clone(&book)),
            variety,
        };
        let mut rng = Rng::new(7);
        let played = |eval: &WithKnowledge<DraughtsEval>, rng: &mut Rng| {
            let mut seen: Vec<String> = (0..64)
                .map(|_| start.format_move(eval.book_move(&start, rng).unwrap()))
                .collect();
            seen.sort();
            seen.dedup();
            seen
        };
        assert_eq!(played(&with(0), &mut rng), ["33-28"]);
        assert_eq!(played(&with(5), &mut rng), ["32-28", "33-28"]);
        assert_eq!(played(&with(100), &mut rng).len(), 3);
        // Off the book, nothing.
        let mut after = start.clone();
        after.play(start.check_move("34-30").unwrap());
        assert_eq!(with(0).book_move(&after, &mut rng), None);
    }
}
