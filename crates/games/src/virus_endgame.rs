//! The virus engine's endgame: once few empty cells are left, the exact solver
//! replaces the heuristic search. A virus game is decided by the last dozen
//! drops, and the solver sees them all (25 empty cells on 7x7 take about a
//! second; 16 take milliseconds), where a search at the same time sees 10-11
//! plies and guesses the rest with its evaluation.

use crate::engine::{AnyEngine, InfoLine, Thought, Tweaks};
use plateau_ataxx::Virus;
use plateau_ataxx::solve::{self as exact, SolveOptions};
use plateau_core::time::Instant;
use plateau_core::{AnyGame, Erased, Side};
use plateau_search::{Budget, Limits, TimePolicy, score};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Under a time limit, positions with at most this many empty cells are tried
/// with the solver first (given half the move's time; the search gets what is
/// left when it does not finish).
const TIMED_EMPTIES: u32 = 20;

/// At a fixed depth (where play must not depend on the machine), only
/// positions the solver finishes in milliseconds. Under a node budget, never.
const UNTIMED_EMPTIES: u32 = 14;

/// The bound on an untimed solve: never reached at `UNTIMED_EMPTIES`, there
/// so that no position can hang a fixed-depth engine.
const UNTIMED_LIMIT: Duration = Duration::from_secs(2);

/// The solver's table: small, so that clearing it costs little at every move.
const TABLE_MB: usize = 16;

/// A virus engine that solves endgames exactly and searches before them.
pub(crate) struct VirusEndgame {
    inner: Box<dyn AnyEngine>,
}

impl VirusEndgame {
    pub(crate) fn boxed(inner: Box<dyn AnyEngine>) -> Box<dyn AnyEngine> {
        Box::new(VirusEndgame { inner })
    }

    /// The solver's time for this move, or `None` when the position is too
    /// large to try under these limits.
    fn solve_time(limits: &Limits, empties: u32) -> Option<Duration> {
        // A node budget is a promise about work done: the solver does not count.
        if limits.nodes.is_some() {
            return None;
        }
        let timed = limits.movetime.is_some() || limits.clock.is_some();
        if !timed {
            return (empties <= UNTIMED_EMPTIES).then_some(UNTIMED_LIMIT);
        }
        if empties > TIMED_EMPTIES {
            return None;
        }
        let budget = Budget::for_limits(limits, TimePolicy::Adaptive);
        let time = budget.soft.or(budget.hard)?;
        Some(time / 2)
    }

    /// `limits` with `spent` taken off the time.
    fn remaining(limits: &Limits, spent: Duration) -> Limits {
        let mut left = *limits;
        if let Some(movetime) = &mut left.movetime {
            *movetime = movetime.saturating_sub(spent).max(Duration::from_millis(1));
        }
        if let Some(clock) = &mut left.clock {
            // The move's whole budget stays what it was before the solve.
            let hard = Budget::for_limits(limits, TimePolicy::Adaptive).hard;
            if let Some(hard) = hard {
                let cap = hard.saturating_sub(spent).max(Duration::from_millis(1));
                left.movetime = Some(left.movetime.map_or(cap, |m| m.min(cap)));
            }
            clock.remaining = clock.remaining.saturating_sub(spent);
        }
        left
    }
}

impl AnyEngine for VirusEndgame {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn think(
        &mut self,
        game: &dyn AnyGame,
        limits: &Limits,
        info: &mut dyn FnMut(&InfoLine),
    ) -> Result<Thought, String> {
        let started = Instant::now();
        // The flag is the inner engine's, which clears it only when its own
        // search starts: a stop left from the last move must not end this solve.
        let stop = self.inner.stop_flag();
        stop.store(false, Ordering::Relaxed);
        let Some(virus) = game.as_any().downcast_ref::<Erased<Virus>>() else {
            return self.inner.think(game, limits, info);
        };
        let virus = virus.game();
        let cells = (virus.size() * virus.size()) as i32;
        let empties = (cells - virus.count(Side::Black) - virus.count(Side::White)).max(0) as u32;
        let Some(time) = Self::solve_time(limits, empties) else {
            return self.inner.think(game, limits, info);
        };
        if virus.final_score().is_some() {
            return self.inner.think(game, limits, info);
        }
        let options = SolveOptions {
            table_mb: TABLE_MB,
            time_limit: Some(time),
            stop: Some(stop.clone()),
            ..SolveOptions::default()
        };
        let solution = exact::solve(virus, &options, &mut |_| {});
        if let (Some(value), Some(best)) = (solution.value(), solution.best) {
            // A proven result, in the search's scale: a win or loss at the
            // end of the line, a draw as 0.
            let plies = solution.pv.len().max(1) as i32;
            let score = match value.signum() {
                1 => score::WIN - plies,
                -1 => -(score::WIN - plies),
                _ => 0,
            };
            let pv: Vec<String> = solution.pv.iter().map(|mv| mv.to_string()).collect();
            let elapsed = started.elapsed();
            info(&InfoLine {
                depth: empties,
                seldepth: empties,
                score,
                nodes: solution.nodes,
                nps: (solution.nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
                elapsed,
                pv: pv.clone(),
            });
            return Ok(Thought {
                best: best.to_string(),
                score,
                depth: empties,
                nodes: solution.nodes,
                elapsed,
                pv,
            });
        }
        if stop.load(Ordering::Relaxed) {
            // Stopped from outside: answer at once, from a one-ply search
            // (the inner engine clears the flag when it starts).
            return self.inner.think(game, &Limits::depth(1), info);
        }
        self.inner
            .think(game, &Self::remaining(limits, started.elapsed()), info)
    }

    fn default_limits(&self) -> Limits {
        self.inner.default_limits()
    }

    fn new_game(&mut self) {
        self.inner.new_game();
    }

    fn restart(&mut self, seed: u64) -> bool {
        self.inner.restart(seed)
    }

    fn stop_flag(&self) -> Arc<AtomicBool> {
        self.inner.stop_flag()
    }

    fn tweak(&mut self, tweaks: &Tweaks) {
        self.inner.tweak(tweaks);
    }

    fn threads(&self) -> usize {
        self.inner.threads()
    }

    fn search_options(&self) -> Option<plateau_search::Options> {
        self.inner.search_options()
    }

    fn table_fill(&self) -> u32 {
        self.inner.table_fill()
    }

    fn table_mb(&self) -> usize {
        self.inner.table_mb()
    }
}
