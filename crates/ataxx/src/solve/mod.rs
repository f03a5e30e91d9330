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

mod search;
mod symmetry;
mod table;

use crate::bits::{Bits, Indices};
use crate::{Move, Square, Virus};
use plateau_core::Side;
use plateau_core::time::Instant;
use search::Search;
use std::cell::Cell;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
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
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions {
            table_mb: 256,
            time_limit: None,
            symmetry: true,
            stop: None,
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
    Start { empties: u32, table_mb: usize },
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

    let mut table = BoundTable::new(options.table_mb);
    // What the heartbeat reports: (beta, lower, upper) of the running probe.
    let state = Cell::new((0, -cells, cells));
    let progress = std::cell::RefCell::new(progress);
    let mut heartbeat = |nodes: u64| {
        let (beta, lower, upper) = state.get();
        (progress.borrow_mut())(&Progress::Working {
            beta,
            lower,
            upper,
            nodes,
            elapsed: started.elapsed(),
        });
    };
    let mut search = Search::new(geo, &mut table, &mut heartbeat);
    search.symmetry = options.symmetry;
    search.deadline = options.time_limit.map(|t| started + t);
    search.stop = options.stop.as_deref();

    let (mut lower, mut upper) = (-cells, cells);
    let mut best = None;
    let mut guess = 0;
    while lower < upper {
        // Every value has the parity of the number of cells: test the next one.
        let mut beta = guess.clamp(lower + 1, upper);
        if (beta - cells) % 2 != 0 {
            beta += 1;
        }
        state.set((beta, lower, upper));
        let (value, mv) = search.root(me, opp, beta);
        if search.stopped {
            break;
        }
        let holds = value >= beta;
        if holds {
            lower = value;
            best = mv.or(best);
        } else {
            upper = value;
        }
        guess = value;
        (progress.borrow_mut())(&Progress::Probe {
            beta,
            holds,
            lower,
            upper,
            nodes: search.nodes,
            elapsed: started.elapsed(),
        });
    }
    let solved = lower == upper;
    if solved && best.is_none() {
        // Every move loses everything: any of them keeps the value.
        best = Indices(geo.dilate(me) & board.empty())
            .next()
            .map(|i| i as u8);
    }
    let mut line = Vec::new();
    if solved {
        principal_variation(&mut search, me, opp, lower, best, &mut line);
    } else {
        (progress.borrow_mut())(&Progress::Stopped {
            lower,
            upper,
            nodes: search.nodes,
            elapsed: started.elapsed(),
        });
    }
    solution.lower = lower;
    solution.upper = upper;
    solution.best = best.map(to_move);
    solution.pv = line.into_iter().map(to_move).collect();
    solution.nodes = search.nodes;
    solution.elapsed = started.elapsed();
    solution
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
            .or(search.lookup(me, opp, drops).first);
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
