//! Exact solving of small virus boards: the final stone difference under
//! perfect play, and a move that keeps it.
//!
//! The value is found by null-window probes ("is it at least b?") in the manner
//! of MTD(f): each probe searches to the end of the game and returns a
//! fail-soft bound, which moves the lower or the upper bound of the value; the
//! next probe starts from that bound, until the two meet. A table keeps the
//! bounds proven for every position with a few empty cells left, keyed by the
//! position's smallest mirror image so that symmetric positions are solved
//! once; it also remembers which move proved a lower bound, and that move is
//! tried first next time. Other moves are ordered so that the opponent has few
//! replies (a side without a drop loses all the empty cells). Stones with no
//! empty neighbour can never turn again, which bounds the value cheaply.
//!
//! Several threads share the table (`threads`): each runs the same probe,
//! helpers trying other moves first near the top, and the first to finish
//! answers it. A long solve can stop and resume: a checkpoint keeps the root's
//! proven bounds and the whole table ([`Solver::resume`], `checkpoint`). A
//! solved value comes with a proof certificate that an independent checker
//! re-verifies ([`certificate`]).

pub mod certificate;
mod checkpoint;
mod search;
mod symmetry;
mod table;

use crate::bits::{Bits, Indices};
use crate::{Move, Square, Virus};
use plateau_core::time::Instant;
use plateau_core::{Game, Side};
use search::Search;
use std::cell::Cell;
use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use table::BoundTable;

/// How to solve.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Size of the bounds table in MB.
    pub table_mb: usize,
    /// Give up after this long and report the bounds proven so far.
    pub time_limit: Option<Duration>,
    /// Share table entries between mirror images (on by default; off only to
    /// measure what it brings).
    pub symmetry: bool,
    /// Set to `true` from another thread to stop early.
    pub stop: Option<Arc<AtomicBool>>,
    /// Threads sharing the table (1: no helper).
    pub threads: usize,
    /// Stop once a thread has searched this many nodes (to interrupt a solve
    /// at the same place every time, as tests do).
    pub node_limit: Option<u64>,
    /// Where to save the proven bounds and the table while the solve runs
    /// (every `checkpoint_every`) and when it ends.
    pub checkpoint: Option<PathBuf>,
    pub checkpoint_every: Duration,
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions {
            table_mb: 256,
            time_limit: None,
            symmetry: true,
            stop: None,
            threads: 1,
            node_limit: None,
            checkpoint: None,
            checkpoint_every: Duration::from_secs(600),
        }
    }
}

/// What a solve found. Values are final stone differences (empty cells left
/// at the end counted for the side that still had a drop), from the side to
/// move's point of view unless said otherwise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    pub side_to_move: Side,
    /// Proven bounds on the value: equal once solved.
    pub lower: i32,
    pub upper: i32,
    /// A move that keeps the value (once solved), or the move that proved the
    /// lower bound; `None` when the game is over.
    pub best: Option<Move>,
    /// A line of best play from the position to the end (empty unless solved).
    pub pv: Vec<Move>,
    pub nodes: u64,
    pub elapsed: Duration,
    /// Empty cells at the start: the most plies the game can last.
    pub empties: u32,
    /// Nodes and time of the earlier runs this one resumed (zero when fresh).
    pub earlier_nodes: u64,
    pub earlier_elapsed: Duration,
}

impl Solution {
    /// The exact value, once proven.
    pub fn value(&self) -> Option<i32> {
        (self.lower == self.upper).then_some(self.lower)
    }

    /// A value or bound of the side to move, seen from Black.
    pub fn for_black(&self, value: i32) -> i32 {
        match self.side_to_move {
            Side::Black => value,
            Side::White => -value,
        }
    }
}

/// What the solver tells while it works.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    /// The solve begins.
    Start {
        empties: u32,
        table_mb: usize,
    },
    /// A probe "is the value at least `beta`?" ended.
    Probe {
        beta: i32,
        holds: bool,
        lower: i32,
        upper: i32,
        nodes: u64,
        elapsed: Duration,
    },
    /// A long probe is still running.
    Working {
        beta: i32,
        lower: i32,
        upper: i32,
        nodes: u64,
        elapsed: Duration,
    },
    /// The solve starts from a checkpoint.
    Resumed {
        lower: i32,
        upper: i32,
        entries: usize,
        nodes: u64,
        elapsed: Duration,
    },
    /// A checkpoint was written (or could not be).
    Saved {
        path: PathBuf,
        entries: usize,
        elapsed: Duration,
    },
    SaveFailed {
        path: PathBuf,
        error: String,
    },
    /// The limit was reached before the bounds met.
    Stopped {
        lower: i32,
        upper: i32,
        nodes: u64,
        elapsed: Duration,
    },
}

fn rate(nodes: u64, elapsed: Duration) -> f64 {
    nodes as f64 / elapsed.as_secs_f64().max(1e-6) / 1e6
}

impl fmt::Display for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Progress::Start { empties, table_mb } => write!(
                f,
                "solving to the end: {empties} empty cells (depth {empties} at most), \
                 table {table_mb} MB"
            ),
            Progress::Probe {
                beta,
                holds,
                lower,
                upper,
                nodes,
                elapsed,
            } => write!(
                f,
                "probe value >= {beta:+}: {}  bounds [{lower:+}, {upper:+}]  nodes {nodes}  \
                 time {:.1} s  ({:.1} M nodes/s)",
                if holds { "yes" } else { "no " },
                elapsed.as_secs_f64(),
                rate(nodes, elapsed)
            ),
            Progress::Working {
                beta,
                lower,
                upper,
                nodes,
                elapsed,
            } => write!(
                f,
                "  ... testing value >= {beta:+}  bounds [{lower:+}, {upper:+}]  nodes {nodes}  \
                 time {:.0} s  ({:.1} M nodes/s)",
                elapsed.as_secs_f64(),
                rate(nodes, elapsed)
            ),
            Progress::Resumed {
                lower,
                upper,
                entries,
                nodes,
                elapsed,
            } => write!(
                f,
                "resuming: bounds [{lower:+}, {upper:+}], {entries} table entries, \
                 {nodes} nodes in {:.1} s before",
                elapsed.as_secs_f64()
            ),
            Progress::Saved {
                ref path,
                entries,
                elapsed,
            } => write!(
                f,
                "checkpoint {}: {entries} entries written in {:.1} s",
                path.display(),
                elapsed.as_secs_f64()
            ),
            Progress::SaveFailed {
                ref path,
                ref error,
            } => write!(f, "checkpoint {} not written: {error}", path.display()),
            Progress::Stopped {
                lower,
                upper,
                nodes,
                elapsed,
            } => write!(
                f,
                "stopped at the limit: value in [{lower:+}, {upper:+}]  nodes {nodes}  \
                 time {:.1} s",
                elapsed.as_secs_f64()
            ),
        }
    }
}

fn to_move(index: u8) -> Move {
    Move::Clone(Square::from_index::<u64>(index as usize))
}

/// Solves `game` exactly (or until a limit), telling `progress` how it goes.
pub fn solve(
    game: &Virus,
    options: &SolveOptions,
    progress: &mut dyn FnMut(&Progress),
) -> Solution {
    Solver::new(options.clone()).solve(game, progress)
}

/// A solve that keeps its table: to resume from a checkpoint first, and to
/// write a checkpoint or a proof certificate after.
pub struct Solver {
    options: SolveOptions,
    table: BoundTable,
    /// The checkpoint resumed, and how many entries it held.
    resumed: Option<(checkpoint::State, usize)>,
}

impl Solver {
    pub fn new(options: SolveOptions) -> Solver {
        let table = BoundTable::new(options.table_mb);
        Solver {
            options,
            table,
            resumed: None,
        }
    }

    /// Loads a checkpoint of `game` written by an earlier run: its proven
    /// bounds and table entries. Returns how many entries it held.
    pub fn resume(&mut self, game: &Virus, path: &std::path::Path) -> Result<usize, String> {
        let cells = game.size() * game.size();
        let (state, entries) = checkpoint::load(path, &self.table, &game.to_text(), cells)?;
        self.resumed = Some((state, entries));
        Ok(entries)
    }

    /// Writes a checkpoint of `game` with `solution`'s bounds and the table.
    pub fn save(
        &self,
        game: &Virus,
        solution: &Solution,
        path: &std::path::Path,
    ) -> Result<usize, String> {
        checkpoint::save(path, &checkpoint_state(game, solution), &self.table)
    }

    /// A certificate of what `solution` proved (see [`certificate`]), built
    /// from the warm table; positions with `leaf_empties` empty cells or fewer
    /// are left for the checker to search.
    pub fn certificate(
        &self,
        game: &Virus,
        solution: &Solution,
        leaf_empties: u32,
    ) -> Result<certificate::Certificate, String> {
        let board = game.board();
        let mut quiet = |_: u64| {};
        let mut search = Search::new(board.geo, &self.table, &mut quiet);
        search.symmetry = self.options.symmetry;
        certificate::build(
            &mut search,
            game,
            solution.lower,
            solution.upper,
            leaf_empties,
        )
    }

    /// Solves `game` exactly (or until a limit), telling `progress` how it goes.
    pub fn solve(&mut self, game: &Virus, progress: &mut dyn FnMut(&Progress)) -> Solution {
        let options = &self.options;
        let started = Instant::now();
        let board = game.board();
        let geo = board.geo;
        let (me, opp) = (board.us(), board.them());
        let cells = (geo.n * geo.n) as i32;
        let empties = board.empty().count();
        let mut solution = Solution {
            side_to_move: board.side,
            lower: -cells,
            upper: cells,
            best: None,
            pv: Vec::new(),
            nodes: 0,
            elapsed: Duration::ZERO,
            empties,
            earlier_nodes: 0,
            earlier_elapsed: Duration::ZERO,
        };
        if let Some(score) = game.final_score() {
            let value = solution.for_black(score);
            solution.lower = value;
            solution.upper = value;
            return solution;
        }
        progress(&Progress::Start {
            empties,
            table_mb: options.table_mb,
        });
        let (mut lower, mut upper) = (-cells, cells);
        let mut best = None;
        if let Some((state, entries)) = &self.resumed {
            lower = state.lower.max(lower);
            upper = state.upper.min(upper);
            best = state
                .best
                .filter(|&b| (geo.dilate(me) & board.empty()) >> b & 1 == 1);
            solution.earlier_nodes = state.nodes;
            solution.earlier_elapsed = Duration::from_secs_f64(state.seconds);
            progress(&Progress::Resumed {
                lower,
                upper,
                entries: *entries,
                nodes: state.nodes,
                elapsed: solution.earlier_elapsed,
            });
        }

        // What the heartbeat reports: (beta, lower, upper) of the running probe.
        let state = Cell::new((0, lower, upper));
        let best_so_far = Cell::new(best);
        let progress = std::cell::RefCell::new(progress);
        let helper_nodes = AtomicU64Sum::default();
        let mut last_save = Instant::now();
        let table = &self.table;
        let (earlier_nodes, earlier_elapsed) = (solution.earlier_nodes, solution.earlier_elapsed);
        let position = game.to_text();
        let mut heartbeat = |nodes: u64| {
            let (beta, lower, upper) = state.get();
            let nodes = nodes + helper_nodes.get();
            (progress.borrow_mut())(&Progress::Working {
                beta,
                lower,
                upper,
                nodes,
                elapsed: started.elapsed(),
            });
            if let Some(path) = &options.checkpoint
                && last_save.elapsed() >= options.checkpoint_every
            {
                let state = checkpoint::State {
                    position: position.clone(),
                    lower,
                    upper,
                    best: best_so_far.get(),
                    nodes: earlier_nodes + nodes,
                    seconds: (earlier_elapsed + started.elapsed()).as_secs_f64(),
                };
                let line = save_line(path, &state, table);
                (progress.borrow_mut())(&line);
                last_save = Instant::now();
            }
        };
        let probe_done = AtomicBool::new(false);
        let mut search = Search::new(geo, table, &mut heartbeat);
        search.symmetry = options.symmetry;
        search.deadline = options.time_limit.map(|t| started + t);
        search.node_limit = options.node_limit;
        search.stop = options.stop.as_deref();
        search.probe_done = Some(&probe_done);

        let mut guess = 0;
        while lower < upper {
            // Every value has the parity of the number of cells: test the next one.
            let mut beta = guess.clamp(lower + 1, upper);
            if (beta - cells) % 2 != 0 {
                beta += 1;
            }
            state.set((beta, lower, upper));
            let Some((value, mv)) = probe_in_parallel(
                &mut search,
                options,
                &helper_nodes,
                &probe_done,
                (me, opp, beta),
            ) else {
                break;
            };
            let holds = value >= beta;
            if holds {
                lower = value;
                best = mv.or(best);
                best_so_far.set(best);
            } else {
                upper = value;
            }
            guess = value;
            (progress.borrow_mut())(&Progress::Probe {
                beta,
                holds,
                lower,
                upper,
                nodes: search.nodes + helper_nodes.get(),
                elapsed: started.elapsed(),
            });
        }
        let solved = lower == upper;
        if solved && best.is_none() && lower == -cells {
            // No probe held: every move loses everything, any of them keeps
            // the value.
            best = Indices(geo.dilate(me) & board.empty())
                .next()
                .map(|i| i as u8);
        }
        let mut line = Vec::new();
        if solved {
            // The line is worth finding even past the limits; the last probe's
            // end must not stop it either.
            search.deadline = None;
            search.node_limit = None;
            search.probe_done = None;
            search.stopped = false;
            principal_variation(&mut search, me, opp, lower, best, &mut line);
            // The line's first move is proven to keep the value; a resumed
            // run may have no move from its probes.
            if let Some(&first) = line.first() {
                best = Some(first);
            }
        } else {
            (progress.borrow_mut())(&Progress::Stopped {
                lower,
                upper,
                nodes: search.nodes + helper_nodes.get(),
                elapsed: started.elapsed(),
            });
        }
        solution.lower = lower;
        solution.upper = upper;
        solution.best = best.map(to_move);
        solution.pv = line.into_iter().map(to_move).collect();
        solution.nodes = search.nodes + helper_nodes.get();
        solution.elapsed = started.elapsed();
        if let Some(path) = &options.checkpoint {
            let line = save_line(path, &checkpoint_state(game, &solution), &self.table);
            (progress.into_inner())(&line);
        }
        solution
    }
}

/// What a checkpoint keeps of `solution`: the bounds, the best move, and the
/// nodes and time of every run so far.
fn checkpoint_state(game: &Virus, solution: &Solution) -> checkpoint::State {
    checkpoint::State {
        position: game.to_text(),
        lower: solution.lower,
        upper: solution.upper,
        best: solution.best.and_then(move_index),
        nodes: solution.earlier_nodes + solution.nodes,
        seconds: (solution.earlier_elapsed + solution.elapsed).as_secs_f64(),
    }
}

/// Writes a checkpoint and says how it went.
fn save_line(path: &std::path::Path, state: &checkpoint::State, table: &BoundTable) -> Progress {
    let started = Instant::now();
    match checkpoint::save(path, state, table) {
        Ok(entries) => Progress::Saved {
            path: path.to_path_buf(),
            entries,
            elapsed: started.elapsed(),
        },
        Err(error) => Progress::SaveFailed {
            path: path.to_path_buf(),
            error,
        },
    }
}

/// Nodes searched by helper threads, summed as they finish.
#[derive(Default)]
struct AtomicU64Sum(std::sync::atomic::AtomicU64);

impl AtomicU64Sum {
    fn add(&self, n: u64) {
        self.0.fetch_add(n, Ordering::Relaxed);
    }

    fn get(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// Helpers try other moves first only this many plies below the root: deeper,
/// another order only makes their searches slower than the main thread's, so
/// they rarely finish a subtree it still needs (measured: shuffling at every
/// node with 12 empty cells or more gained nothing with two threads; within
/// two plies of the root, 14%).
const HELPER_SHUFFLE_PLIES: u32 = 2;

/// One probe "is the value at least `beta`?" by `options.threads` threads
/// sharing the table: the main thread and helpers run it at once, and the
/// first to finish answers (every answer is exact, whichever thread gives it).
/// `None` when a limit stopped it.
fn probe_in_parallel(
    search: &mut Search<'_>,
    options: &SolveOptions,
    helper_nodes: &AtomicU64Sum,
    done: &AtomicBool,
    (me, opp, beta): (u64, u64, i32),
) -> Option<(i32, Option<u8>)> {
    done.store(false, Ordering::Relaxed);
    search.stopped = false;
    if options.threads <= 1 {
        let answer = search.root(me, opp, beta);
        return (!search.stopped).then_some(answer);
    }
    let answer = Mutex::new(None);
    let (geo, table, symmetry) = (search.geo, search.table, search.symmetry);
    let (deadline, node_limit, stop) = (search.deadline, search.node_limit, search.stop);
    std::thread::scope(|scope| {
        for id in 1..options.threads {
            let answer = &answer;
            scope.spawn(move || {
                let mut quiet = |_: u64| {};
                let mut helper = Search::new(geo, table, &mut quiet);
                helper.symmetry = symmetry;
                helper.deadline = deadline;
                helper.node_limit = node_limit;
                helper.stop = stop;
                helper.probe_done = Some(done);
                helper.helper = id as u32;
                let root_empties = (geo.cells & !(me | opp)).count_ones();
                helper.shuffle_min_empties = root_empties.saturating_sub(HELPER_SHUFFLE_PLIES);
                let result = helper.root(me, opp, beta);
                if !helper.stopped && !done.swap(true, Ordering::AcqRel) {
                    *answer.lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
                }
                helper_nodes.add(helper.nodes);
            });
        }
        let result = search.root(me, opp, beta);
        if !search.stopped && !done.swap(true, Ordering::AcqRel) {
            *answer.lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
        }
    });
    let answer = answer.into_inner().unwrap_or_else(|e| e.into_inner());
    if answer.is_none() {
        // Nobody finished: a limit stopped every thread.
        search.stopped = true;
    } else {
        search.stopped = false;
        search.limit_reached = false;
    }
    answer
}

fn move_index(mv: Move) -> Option<u8> {
    match mv {
        Move::Clone(to) => Some(to.index::<u64>() as u8),
        _ => None,
    }
}

/// Follows best play from a solved position: at each step, a move whose
/// reply position is worth exactly minus the value (with the table warm, each
/// check costs little).
fn principal_variation(
    search: &mut Search<'_>,
    mut me: u64,
    mut opp: u64,
    mut value: i32,
    first: Option<u8>,
    line: &mut Vec<u8>,
) {
    let g = search.geo;
    let mut hint = first;
    loop {
        let empty = g.cells & !(me | opp);
        let drops = g.dilate(me) & empty;
        if drops == 0 {
            return;
        }
        let empties = empty.count_ones();
        // The move that proved the value first: the table's, or the root's.
        let first = hint
            .filter(|&m| drops >> m & 1 == 1)
            .or(search.lookup(me, opp, drops, empties).first);
        let mut moves = [0u8; 64];
        let count = search.order(me, opp, empty, drops, empties, first, &mut moves);
        let mut found = None;
        for &to in &moves[..count] {
            let flips = g.ring1[to as usize] & opp;
            let (next_me, next_opp) = (opp ^ flips, me | (1 << to) | flips);
            // Every reply position is worth at least -value; the best are worth
            // exactly that.
            let child = search.probe(next_me, next_opp, -value + 1);
            if search.stopped {
                return;
            }
            if child <= -value {
                found = Some((to, next_me, next_opp));
                break;
            }
        }
        let Some((to, next_me, next_opp)) = found else {
            return;
        };
        line.push(to);
        (me, opp, value, hint) = (next_me, next_opp, -value, None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plateau_core::Game;

    #[test]
    fn a_finished_game_is_its_final_score() {
        // White has no drop (walled in at a1): the two empty cells go to Black.
        let game = Virus::from_text("xxxx/xxxx/xx2/oxxx o").unwrap();
        assert!(game.final_score().is_some());
        let solution = solve(&game, &SolveOptions::default(), &mut |_| {});
        assert_eq!(solution.value(), Some(-14));
        assert_eq!(solution.best, None);
    }
}
