//! plateau-search: one alpha-beta engine for every game.
//!
//! Negamax with principal variation search, iterative deepening, a transposition
//! table keyed by the game's Zobrist hash, move ordering (table move, noisy moves,
//! killers, history), quiescence over the moves the game calls noisy, late move
//! reductions, aspiration windows, a single-reply extension, win scores counted
//! in plies, a stop flag and a time manager. It knows nothing of any game: games
//! speak through [`plateau_core::Game`] and [`plateau_core::Evaluator`].
//!
//! ```
//! use plateau_core::{Evaluator, Game};
//! use plateau_escampe::Escampe;
//! use plateau_search::{Engine, Limits, Options};
//!
//! struct Material;
//! impl Evaluator<Escampe> for Material {
//!     fn evaluate(&self, _: &Escampe) -> i32 { 0 }
//! }
//!
//! let game = Escampe::from_text("n1B2b/2b3/b1nn2/5b/2b3/nnN3 w 2").unwrap();
//! let mut engine = Engine::new(Material, Options::full());
//! let result = engine.search(&game, &Limits::depth(4), |_| {});
//! // F6-E5 (the brief's answer), F6-F4 and F6-D6 all force Black to A1-A2.
//! let best = game.format_move(result.best.unwrap());
//! assert!(["F6-E5", "F6-F4", "F6-D6"].contains(&best.as_str()));
//! assert_eq!(plateau_search::score::describe(result.score), "win in 2");
//! ```

mod engine;
mod history;
mod level;
mod limits;
mod margin;
mod options;
pub mod score;
mod table;
mod worker;

pub use engine::{Engine, Info, SearchResult};
pub use level::{Level, MASTER_MOVETIME};
pub use limits::{Budget, Clock, Limits, Progress, TimePolicy, reserve};
pub use margin::Margin;
pub use options::Options;
pub use table::{Bound, Entry, MAX_MOVE_CODE, Table};
pub use worker::MAX_PLY;
