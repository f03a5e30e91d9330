//! plateau-arena: matches between engines with honest statistics, and the
//! evolutionary tuner of evaluation weights.
//!
//! - [`run_match`]: colour-swapped pairs of games from shared openings, in
//!   parallel, between built-in engines, engines on given weights, and engine
//!   programs over UAI (Ataxx) or Hub (draughts) ([`external`]);
//! - [`stats`], [`sprt`]: W/D/L, Elo with its 95% interval (trinomial and
//!   pentanomial), LOS, and the SPRT, with cutechess's and fastchess's formulas;
//! - [`tune`]: the draughts seed's evolutionary algorithm for any game's
//!   features, with every generation stored and playable;
//! - [`weights`]: the weight file format;
//! - [`journal`]: a match's finished games kept on disk, so that a stopped
//!   match resumes;
//! - [`pool`]: independent jobs on a few threads, results in job order.

pub mod crosstable;
pub mod external;
mod game;
pub mod journal;
pub mod openings;
mod player;
pub mod pool;
pub mod record;
mod runner;
pub mod sprt;
pub mod stats;
pub mod tune;
pub mod weights;

pub use crosstable::{Crosstable, Standing};
pub use game::{ClockControl, GameRecord, TimeControl};
pub use openings::{Opening, OpeningSource};
pub use player::{
    Clocks, EXTERNAL_DEFAULT_MOVETIME, EngineSpec, MoveRequest, Player, PlayerError,
    WEIGHTED_PROFILE, generation_file,
};
pub use runner::{MatchConfig, MatchResult, MatchStatus, run_match, run_match_resuming};
pub use sprt::{Sprt, SprtStatus};
pub use stats::{Pentanomial, Tally};
