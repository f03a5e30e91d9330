//! What bounds a search (depth, nodes, time) and how a game clock becomes a time
//! budget for one move.

use std::time::Duration;

/// A game clock as the engine sees it when asked to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Thinking time left for the rest of the game.
    pub remaining: Duration,
    /// Added after each move.
    pub increment: Duration,
    /// Moves until the next time control, when there is one.
    pub moves_to_go: Option<u32>,
}

/// Any combination of limits; the search stops at the first reached. With none
/// at all it runs until stopped from outside.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub clock: Option<Clock>,
}

impl Limits {
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    pub fn movetime(time: Duration) -> Limits {
        Limits {
            movetime: Some(time),
            ..Limits::default()
        }
    }

    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    pub fn clock(remaining: Duration, increment: Duration) -> Limits {
        Limits {
            clock: Some(Clock {
                remaining,
                increment,
                moves_to_go: None,
            }),
            ..Limits::default()
        }
    }

    /// Whether the search is bounded by time (then a forced move is answered at once).
    pub fn is_timed(&self) -> bool {
        self.movetime.is_some() || self.clock.is_some()
    }
}

/// How a clock becomes a budget for one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimePolicy {
    /// The seed player's rule: a slice of `clamp(remaining / 12, 120 ms, 6 s)`,
    /// kept inside a reserve, used to the end.
    Seed,
    /// plateau's rule: a target of about 1/25 of the remaining time plus most of
    /// the increment, spent or saved according to how settled the best move is,
    /// never more than a hard cap; no new iteration starts that could not finish.
    Adaptive,
}

/// The time one move may take: `soft` is when to stop deepening (scaled by the
/// search's confidence), `hard` when to stop at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub soft: Option<Duration>,
    pub hard: Option<Duration>,
}

/// Time kept back from every clock so that it never runs out: communication and
/// process overheads are not the engine's to gamble with.
pub fn reserve(remaining: Duration) -> Duration {
    (remaining / 15).clamp(Duration::from_millis(30), Duration::from_secs(20))
}

impl Budget {
    pub fn for_limits(limits: &Limits, policy: TimePolicy) -> Budget {
        let mut budget = Budget {
            soft: None,
            hard: limits.movetime,
        };
        if let Some(clock) = limits.clock {
            let usable = clock.remaining.saturating_sub(reserve(clock.remaining));
            let (soft, hard) = match policy {
                TimePolicy::Seed => {
                    let slice = (usable / 12)
                        .clamp(Duration::from_millis(120), Duration::from_secs(6))
                        .min(usable);
                    (None, slice)
                }
                TimePolicy::Adaptive => {
                    let moves = clock.moves_to_go.unwrap_or(25).clamp(1, 25);
                    let target = usable / moves + clock.increment.mul_f64(0.8);
                    let hard = (target * 4).min(usable / 4).min(usable);
                    (Some(target.min(hard)), hard)
                }
            };
            budget.soft = soft;
            budget.hard = Some(budget.hard.map_or(hard, |h| h.min(hard)));
        }
        budget
    }
}

/// What the best move's share of the root nodes usually is: the share at
/// which [`Progress::soft_scale`] neither adds time nor saves it, and the one
/// assumed when an iteration did not say (no move beat its window).
pub(crate) const USUAL_BEST_MOVE_SHARE: f64 = 0.75;

/// How the root search is going after an iteration: what decides how much of
/// the soft budget a move spends. Strong players think longer when the
/// outlook darkens or the choice is close, and move quickly when one move
/// stands out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// Iterations in a row that kept the same best move.
    pub stable_iterations: u32,
    /// How far the score fell below the mean of the last few iterations'
    /// (positive: falling), in the evaluation's units.
    pub score_drop: i32,
    /// The best move's share of the last iteration's root nodes (0 to 1): near
    /// one, the other moves were refuted at once.
    pub best_move_share: f64,
}

impl Progress {
    /// The factor on the soft budget: a settled best move spends less, a
    /// changing one more. With `adapt` (the `time-adapt` switch), a falling
    /// score spends up to twice as much and the best move's node share
    /// scales it between 0.6 (one move stands out) and 1.6 (a close choice).
    pub fn soft_scale(&self, adapt: bool) -> f64 {
        let stability = match self.stable_iterations {
            0 => 1.6,
            1 => 1.0,
            2 => 0.8,
            _ => 0.6,
        };
        if !adapt {
            return stability;
        }
        let falling = 1.0 + f64::from((self.score_drop - 10).clamp(0, 90)) / 90.0;
        let effort = (1.0 + 1.5 * (USUAL_BEST_MOVE_SHARE - self.best_move_share)).clamp(0.6, 1.6);
        stability * falling * effort
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn seed_policy_slices_like_the_seed() {
        let limits = Limits::clock(Duration::from_secs(280), Duration::ZERO);
        let budget = Budget::for_limits(&limits, TimePolicy::Seed);
        assert_eq!(budget.hard, Some(Duration::from_secs(6)), "capped at 6 s");
        let limits = Limits::clock(Duration::from_secs(12), Duration::ZERO);
        let hard = Budget::for_limits(&limits, TimePolicy::Seed).hard.unwrap();
        assert!(hard < Duration::from_secs(1) && hard >= ms(120));
        let limits = Limits::clock(ms(500), Duration::ZERO);
        let hard = Budget::for_limits(&limits, TimePolicy::Seed).hard.unwrap();
        assert_eq!(hard, ms(120), "the 120 ms floor");
    }

    #[test]
    fn budgets_never_exceed_the_clock_minus_its_reserve() {
        for policy in [TimePolicy::Seed, TimePolicy::Adaptive] {
            for remaining in [10, 100, 1_000, 30_000, 300_000] {
                let limits = Limits::clock(ms(remaining), ms(remaining / 100));
                let budget = Budget::for_limits(&limits, policy);
                let hard = budget.hard.unwrap();
                let usable = ms(remaining).saturating_sub(reserve(ms(remaining)));
                assert!(hard <= usable, "{policy:?} {remaining}");
                if let Some(soft) = budget.soft {
                    assert!(soft <= hard);
                }
            }
        }
    }

    fn progress(stable_iterations: u32, score_drop: i32, best_move_share: f64) -> Progress {
        Progress {
            stable_iterations,
            score_drop,
            best_move_share,
        }
    }

    #[test]
    fn without_adapting_only_the_best_moves_stability_counts() {
        for (stable, factor) in [(0, 1.6), (1, 1.0), (2, 0.8), (3, 0.6), (9, 0.6)] {
            assert_eq!(progress(stable, 200, 0.1).soft_scale(false), factor);
            assert_eq!(progress(stable, -200, 1.0).soft_scale(false), factor);
        }
    }

    #[test]
    fn a_falling_score_spends_more_time_up_to_twice() {
        let at = |drop| progress(1, drop, 0.75).soft_scale(true);
        assert_eq!(at(-300), 1.0, "a rising score changes nothing");
        assert_eq!(at(10), 1.0, "nor does noise");
        assert!(at(30) > at(10) && at(60) > at(30) && at(100) > at(60));
        assert_eq!(at(100), 2.0);
        assert_eq!(at(1000), 2.0, "at most twice");
    }

    #[test]
    fn one_move_standing_out_spends_less_and_a_close_choice_more() {
        let at = |share| progress(1, 0, share).soft_scale(true);
        assert_eq!(at(0.75), 1.0, "a usual share changes nothing");
        assert!(at(0.95) < at(0.75) && at(0.95) >= 0.6);
        assert_eq!(at(1.0), 0.625);
        assert!(at(0.4) > at(0.75));
        assert_eq!(at(0.0), 1.6, "at most 1.6");
        // The factors multiply: a changing best move whose score falls in a
        // close choice gets the most.
        let most = progress(0, 500, 0.0).soft_scale(true);
        assert!((most - 1.6 * 2.0 * 1.6).abs() < 1e-9);
    }

    #[test]
    fn movetime_is_a_hard_limit() {
        let budget = Budget::for_limits(&Limits::movetime(ms(100)), TimePolicy::Adaptive);
        assert_eq!(
            budget,
            Budget {
                soft: None,
                hard: Some(ms(100))
            }
        );
    }
}
