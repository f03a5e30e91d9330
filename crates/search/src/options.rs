use crate::limits::TimePolicy;
use crate::margin::Margin;

/// Which parts of the engine are switched on, how many threads search, and its
/// randomness. Levels and profiles are presets of these (plus limits), never
/// forks of the code; each game keeps the selective parts that measured as
/// gains for it (docs/engine.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Transposition table size in MB; 0 disables the table. Small tables that
    /// stay in the processor's cache are faster per node; long searches gain
    /// from larger ones.
    pub table_mb: usize,
    /// Threads searching one position together (Lazy SMP, sharing the table).
    /// With one, a fixed-depth or fixed-node search is reproducible.
    pub threads: usize,
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
    /// On a clock, spend more of the budget while the score falls or the
    /// choice is close, less when one move stands out
    /// ([`crate::Progress::soft_scale`]); off: only the best move's stability
    /// counts. Off by default: a match did not show it a gain (docs/engine.md).
    pub time_adapt: bool,
    /// Null-move pruning (with a verification search at high depth).
    pub null_move: bool,
    /// Reverse futility (static null-move) pruning: a static score far above
    /// beta near the horizon ends the node.
    pub reverse_futility: bool,
    /// Futility pruning: quiet moves that cannot lift a hopeless static score
    /// to alpha near the horizon are skipped.
    pub futility: bool,
    /// Late move pruning: near the horizon, only the first quiet moves are tried.
    pub late_move_pruning: bool,
    /// ProbCut: a search of the node to half its depth against a raised beta
    /// predicts a deep cutoff (Scan's and Moby Dam's form).
    pub probcut: bool,
    /// Razoring: a static score far below alpha near the horizon goes straight
    /// to quiescence.
    pub razoring: bool,
    /// Singular extensions: the table move is searched deeper when every other
    /// move is clearly worse.
    pub singular: bool,
    /// The "improving" flag (static score above that of two plies before)
    /// relaxes or tightens pruning and reductions.
    pub improving: bool,
    /// Counter-moves and continuation history (the move before, and the one
    /// before that) in quiet move ordering.
    pub continuation_history: bool,
    /// History of noisy moves, ordering captures among themselves.
    pub capture_history: bool,
    /// Moves the game calls hopeless ([`plateau_core::Game::is_hopeless`])
    /// are skipped once two moves of a node are searched, below the root.
    /// Off in [`Options::full`]; each game switches it on where measured.
    pub hopeless_pruning: bool,
    /// Internal iterative reduction: a PV or cut node without a table move
    /// is searched a ply shallower. Off in [`Options::full`]: each game
    /// switches it on where a match measured it a gain.
    pub internal_reduction: bool,
    /// Correction history: the static evaluation corrected by how far it erred
    /// from search results in positions of the same structure.
    pub correction_history: bool,
    /// Late move reductions from a `base + ln(depth)·ln(move)/divisor` table
    /// (both in hundredths), adjusted by history and node type; off: the old
    /// fixed one- or two-ply reductions.
    pub reduction_table: bool,
    pub lmr_base: u16,
    pub lmr_divisor: u16,
    /// The margins of the pruning rules (futility, razoring, ProbCut, ...), in
    /// percent of their defaults: what one quiet move can change in the
    /// evaluation differs from game to game (a few stones in Ataxx, rarely a
    /// man in draughts).
    pub margin_percent: u16,
    /// Each rule's margin in percent of what `margin_percent` makes it,
    /// indexed by [`Margin::index`]: 100 leaves it as the game scales it.
    pub margin_scales: [u16; Margin::COUNT],
    /// How many quiet moves late move pruning lets through, in percent of
    /// `(3 + depth²) / 2`: games with many moves per position need more.
    pub late_move_percent: u16,
    /// Amplitude of the evaluation noise (0 = deterministic best play).
    pub noise: i32,
    /// Seed of the noise and of any book choice: same seed, same game.
    pub seed: u64,
    pub time_policy: TimePolicy,
}

impl Options {
    /// Everything on: the full-strength engine before a game keeps or drops
    /// its selective parts.
    pub const fn full() -> Options {
        Options {
            table_mb: 4,
            threads: 1,
            pvs: true,
            killers: true,
            history: true,
            quiescence: true,
            reductions: true,
            aspiration: true,
            single_reply_extension: true,
            early_stop: true,
            time_adapt: false,
            null_move: true,
            reverse_futility: true,
            futility: true,
            late_move_pruning: true,
            probcut: true,
            razoring: true,
            singular: true,
            improving: true,
            continuation_history: true,
            capture_history: true,
            internal_reduction: false,
            hopeless_pruning: false,
            correction_history: true,
            reduction_table: true,
            lmr_base: 75,
            lmr_divisor: 225,
            margin_percent: 100,
            margin_scales: [100; Margin::COUNT],
            late_move_percent: 100,
            noise: 0,
            seed: 0,
            time_policy: TimePolicy::Adaptive,
        }
    }

    /// The engine as it was before selective search: PVS with fixed late
    /// move reductions and nothing pruned forward. The reference the
    /// selective parts are measured against.
    pub const fn classic() -> Options {
        Options::full().without_selectivity()
    }

    /// These options with every selective part switched off.
    pub const fn without_selectivity(self) -> Options {
        Options {
            null_move: false,
            reverse_futility: false,
            futility: false,
            late_move_pruning: false,
            probcut: false,
            razoring: false,
            singular: false,
            improving: false,
            continuation_history: false,
            capture_history: false,
            internal_reduction: false,
            hopeless_pruning: false,
            correction_history: false,
            reduction_table: false,
            ..self
        }
    }

    /// Whether interior nodes need a static evaluation (the classic engine
    /// evaluates only at the horizon).
    pub const fn uses_static_eval(&self) -> bool {
        self.null_move
            || self.reverse_futility
            || self.futility
            || self.razoring
            || self.probcut
            || self.improving
            || self.correction_history
    }

    /// The seed engines: plain alpha-beta with iterative deepening, noisy moves
    /// first and the previous best move first at the root; no table, no
    /// quiescence, the seed's clock policy.
    pub const fn seed_baseline() -> Options {
        Options {
            table_mb: 0,
            threads: 1,
            pvs: false,
            killers: false,
            history: false,
            quiescence: false,
            reductions: false,
            aspiration: false,
            single_reply_extension: false,
            early_stop: false,
            time_policy: TimePolicy::Seed,
            ..Options::classic()
        }
    }
}

impl Default for Options {
    fn default() -> Options {
        Options::full()
    }
}
