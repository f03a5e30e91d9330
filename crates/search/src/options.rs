use crate::limits::TimePolicy;

/// Which parts of the engine are switched on, and its randomness. Levels and
/// profiles are presets of these (plus limits), never forks of the code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Transposition table size in MB; 0 disables the table. Small tables that
    /// stay in the processor's cache are faster per node; long searches gain
    /// from larger ones.
    pub table_mb: usize,
    /// Principal variation search (null windows after the first move).
    pub pvs: bool,
    /// Killer moves (two per ply) in move ordering.
    pub killers: bool,
    /// The history heuristic in move ordering.
    pub history: bool,
    /// Quiescence search over noisy moves at the horizon.
    pub quiescence: bool,
    /// Late move reductions for quiet moves ordered late.
    pub reductions: bool,
    /// Aspiration windows around the previous iteration's score.
    pub aspiration: bool,
    /// Search one ply deeper where a side has a single move.
    pub single_reply_extension: bool,
    /// Stop deepening when the remaining plies are forced or the best move is settled.
    pub early_stop: bool,
    /// Amplitude of the evaluation noise (0 = deterministic best play).
    pub noise: i32,
    /// Seed of the noise and of any book choice: same seed, same game.
    pub seed: u64,
    pub time_policy: TimePolicy,
}

impl Options {
    /// Everything on: the full-strength engine.
    pub const fn full() -> Options {
        Options {
            table_mb: 4,
            pvs: true,
            killers: true,
            history: true,
            quiescence: true,
            reductions: true,
            aspiration: true,
            single_reply_extension: true,
            early_stop: true,
            noise: 0,
            seed: 0,
            time_policy: TimePolicy::Adaptive,
        }
    }

    /// The seed engines: plain alpha-beta with iterative deepening, noisy moves
    /// first and the previous best move first at the root; no table, no
    /// quiescence, the seed's clock policy.
    pub const fn seed_baseline() -> Options {
        Options {
            table_mb: 0,
            pvs: false,
            killers: false,
            history: false,
            quiescence: false,
            reductions: false,
            aspiration: false,
            single_reply_extension: false,
            early_stop: false,
            noise: 0,
            seed: 0,
            time_policy: TimePolicy::Seed,
        }
    }
}

impl Default for Options {
    fn default() -> Options {
        Options::full()
    }
}
