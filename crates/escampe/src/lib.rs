//! plateau-escampe: Escampe exactly as the course tournament's arbiter plays it.
//!
//! A 6x6 board whose squares carry a liseré of 1, 2 or 3 lines; each side has a
//! unicorn and five paladins. The piece you move must start on the liseré where
//! your opponent's last move arrived, and it makes exactly that many orthogonal
//! steps. Taking the enemy unicorn wins. See `docs/rules/escampe.md`.
//!
//! ```
//! use plateau_core::Game;
//! use plateau_escampe::Escampe;
//!
//! // The brief's figure 6: White wins by force.
//! let mut game = Escampe::from_text("n1B2b/2b3/b1nn2/5b/2b3/nnN3 w 2").unwrap();
//! for text in ["F6-E5", "A1-A2", "C2-C1"] {
//!     let mv = game.parse_move(text).unwrap();
//!     game.play(mv);
//! }
//! assert_eq!(game.outcome().unwrap().winner, Some(plateau_core::Side::White));
//! ```

mod display;
pub mod eval;
pub mod inputs;
mod moves;
mod notation;
mod position;
mod reach;
#[doc(hidden)]
pub mod reference;
mod square;
mod text;
mod zobrist;

pub use eval::{EscampeEval, EscampeFeatures, PlacementStyle};
pub use moves::Move;
pub use position::{DEFAULT_MAX_PLIES, Escampe, Phase};
pub use square::Square;
