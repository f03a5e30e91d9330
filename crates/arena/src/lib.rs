//! plateau-arena: matches between engines with honest statistics.
//!
//! Every opening is played twice with colours swapped; results come with Elo
//! and a 95% interval, as cutechess and fastchess print them.

mod runner;
pub mod stats;

pub use runner::{ClockControl, EngineSpec, GameRecord, MatchConfig, MatchResult, run_match};
pub use stats::Tally;
