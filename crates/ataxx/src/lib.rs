//! plateau-ataxx: the virus game and full Ataxx, two variants of one family.
//!
//! - [`Virus`] / [`VirusWide`]: clone moves only ("drops"), boards 4x4 to 9x9;
//!   the game ends as soon as the side to move has no drop, and the empty cells
//!   then count for the opponent.
//! - [`Ataxx`]: 7x7 with clones, jumps, blocked cells, the forced pass, the
//!   100-half-move rule and threefold repetition.
//!
//! Both keep their stones in bitboards (`u64` up to 8x8, `u128` for 9x9), generate
//! moves without allocating, and update a Zobrist hash incrementally. See
//! `docs/rules/ataxx.md`.
//!
//! ```
//! use plateau_core::{Game, Side};
//! use plateau_ataxx::{Ataxx, Virus};
//!
//! let mut game = Ataxx::new();
//! let mv = game.parse_move("a7c5").unwrap();
//! game.play(mv);
//! assert_eq!(game.to_text(), "6o/7/2x4/7/7/7/o5x o 1 1");
//!
//! let virus = Virus::from_text("x2o/4/4/o2x x").unwrap();
//! assert_eq!(virus.size(), 4);
//! assert_eq!(plateau_core::perft(&mut virus.clone(), 1), 6);
//! ```

mod ataxx;
mod bits;
mod board;
mod display;
pub mod eval;
pub mod gaps;
pub mod inputs;
mod moves;
mod notation;
#[doc(hidden)]
pub mod reference;
pub mod solve;
mod square;
pub mod symmetry;
mod text;
mod virus;
mod zobrist;

pub use ataxx::{Ataxx, AtaxxEnd, HALFMOVE_LIMIT};
pub use bits::{Bits, Geometry, Indices};
pub use board::Cell;
pub use eval::{AtaxxEval, AtaxxFeatures};
pub use moves::Move;
pub use square::Square;
pub use virus::{DEFAULT_SIZE, Virus, VirusEnd, VirusGame, VirusWide};
