//! plateau-core: what every plateau game shares.
//!
//! - [`Game`]: the typed, fast face of a game (search, perft and tuning use it);
//! - [`AnyGame`]: the erased face (moves as strings) that front-ends use;
//! - [`Side`], [`Outcome`], [`MoveError`], [`PositionError`], [`MoveList`];
//! - [`perft`] and [`divide`] to check move generators against reference counts;
//! - [`invariants`]: the random-playout checks every game's tests run;
//! - [`Evaluator`], [`Features`], [`Linear`]: how search asks a game for scores;
//! - [`net`]: learned evaluations: network inputs, the quantised network and
//!   the game that keeps its accumulators up to date;
//! - [`Rng`]: a deterministic generator for tests, AI randomness and Zobrist keys;
//! - [`save`]: the save file of games whose draw rules remember past positions;
//! - [`time`]: a monotonic clock that also runs in the browser build;
//! - [`date`]: calendar dates as game records write them.

pub mod date;
mod erased;
mod error;
pub mod eval;
mod game;
pub mod invariants;
mod move_list;
pub mod net;
mod outcome;
pub mod perft;
mod rng;
pub mod save;
mod side;
pub mod time;

pub use erased::{AnyGame, Erased, play_record};
pub use error::{MoveError, MoveErrorKind, PositionError, PositionErrorKind};
pub use eval::{
    EVAL_LIMIT, Evaluator, Features, FixedWeights, Linear, MAX_WEIGHT, Proven, check_weights,
};
pub use game::{
    Game, numbered_record, play_moves, play_random_plies, read_numbered_record, replayed,
};
pub use move_list::MoveList;
pub use outcome::{EndReason, Outcome, UnknownEndReason, Verdict};
pub use perft::{PerftVector, divide, parse_perft_file, perft};
pub use rng::{Rng, splitmix64, zobrist_keys};
pub use side::Side;
