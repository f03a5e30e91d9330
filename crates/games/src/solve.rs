//! Exact solving behind the registry: games that have a solver (the small
//! virus boards) expose it as a plain function in their [`GameInfo`], so that
//! front-ends solve any game by name and say plainly when a game has none.

use crate::{GameInfo, GameSpec};
use plateau_core::Side;
use std::path::PathBuf;
use std::time::Duration;

/// How long, with how much memory and how many threads to solve, and the
/// files a long solve keeps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveOptions {
    /// Size of the solver's table in MB.
    pub table_mb: usize,
    /// Stop after this long and report the bounds proven so far.
    pub time_limit: Option<Duration>,
    /// Threads sharing the table.
    pub threads: usize,
    /// Resume from this checkpoint if it exists, save to it while solving
    /// (every `checkpoint_every`) and at the end.
    pub checkpoint: Option<PathBuf>,
    pub checkpoint_every: Duration,
    /// Write a proof certificate of the bounds proven here, leaving positions
    /// with `certificate_leaf` empty cells or fewer to the checker.
    pub certificate: Option<PathBuf>,
    pub certificate_leaf: u32,
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions {
            table_mb: 256,
            time_limit: None,
            threads: 1,
            checkpoint: None,
            checkpoint_every: Duration::from_secs(600),
            certificate: None,
            certificate_leaf: 12,
        }
    }
}

/// What checking a proof certificate found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CertificateCheck {
    /// The game and variant, e.g. `virus/6x6`, and the position.
    pub game: String,
    pub position: String,
    pub side_to_move: Side,
    /// The bounds proven on the value for the side to move.
    pub lower: i32,
    pub upper: i32,
    /// Size of the proof: positions walked, leaves searched, nodes searched.
    pub tree_nodes: u64,
    pub leaves: u64,
    pub leaf_nodes: u64,
    pub elapsed: Duration,
}

/// What a solve proved, in notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveReport {
    /// The position solved, in the game's text.
    pub position: String,
    pub side_to_move: Side,
    /// What the value measures, e.g. "final stone difference".
    pub measure: &'static str,
    /// Proven bounds on the value for the side to move; equal once solved.
    pub lower: i32,
    pub upper: i32,
    /// A move that keeps the value; `None` when the game is over.
    pub best: Option<String>,
    /// A line of best play to the end (empty unless solved).
    pub pv: Vec<String>,
    /// Empty cells, plies... the most plies the game can still last.
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    /// Nodes and time of the earlier runs this one resumed from a checkpoint.
    pub earlier_nodes: u64,
    pub earlier_elapsed: Duration,
    /// The certificate written, if one was asked for: its size in bytes and
    /// the time it took.
    pub certificate: Option<(u64, Duration)>,
}

impl SolveReport {
    /// The exact value for the side to move, once proven.
    pub fn value(&self) -> Option<i32> {
        (self.lower == self.upper).then_some(self.lower)
    }

    /// A value (or bound) of the side to move, seen from `side`.
    pub fn for_side(&self, side: Side, value: i32) -> i32 {
        if side == self.side_to_move {
            value
        } else {
            -value
        }
    }
}

/// A game's solver: the position text (`None`: the start), options, and a sink
/// for progress lines.
pub type Solver =
    fn(&GameSpec, Option<&str>, &SolveOptions, &mut dyn FnMut(&str)) -> Result<SolveReport, String>;

impl GameInfo {
    /// Whether this game can be solved exactly.
    pub fn has_solver(&self) -> bool {
        self.solve.is_some()
    }
}

impl GameSpec {
    /// Solves `position` (the start when `None`) exactly, or says why not.
    pub fn solve(
        &self,
        position: Option<&str>,
        options: &SolveOptions,
        progress: &mut dyn FnMut(&str),
    ) -> Result<SolveReport, String> {
        let solver = self
            .info
            .solve
            .ok_or_else(|| format!("{} has no exact solver", self.info.name))?;
        solver(self, position, options, progress)
    }
}
