//! plateau-abalone: Abalone on the 61-cell hexagon.
//!
//! Each side has 14 marbles. A move shifts a line of 1-3 own marbles one cell,
//! along the line (possibly pushing a shorter enemy line: sumito) or sideways
//! into empty cells; the first side to push six enemy marbles off the board
//! wins. plateau adds a draw at a ply limit (400 plies by default,
//! [`Abalone::with_max_plies`]) and on the third occurrence of a position;
//! under the site's move limit ([`AtTheLimit::MoreMarblesWin`]) the side that
//! has pushed off more marbles wins at the limit instead.
//! Moves are written in Aba-Pro notation (`a1b2`, `c6c7d6`). See
//! `docs/rules/abalone.md`.
//!
//! Choices the rules leave open:
//! - a side with no legal move at all loses ("no legal move"). No such
//!   position is known to be reachable with 9 or more marbles a side; the rule
//!   only keeps the engine contract (no moves exactly when the game is over);
//! - for search, the noisy moves are the ejections only (plain pushes are
//!   quiet), and they can always be declined;
//! - the save file ([`Game::to_file`](plateau_core::Game::to_file)) holds the
//!   position after the last ejection, the ply count and the moves since, so
//!   that repetitions and the ply limit survive a reload (the position text
//!   alone forgets them).
//!
//! ```
//! use plateau_core::{Game, MoveList};
//! use plateau_abalone::{Abalone, Layout};
//!
//! let mut game = Abalone::start(Layout::Standard);
//! assert_eq!(game.to_text(), "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b b0 w0");
//! let mut moves = MoveList::new();
//! game.legal_moves(&mut moves);
//! assert_eq!(moves.len(), 44);
//! let mv = game.parse_move("a1b2").unwrap(); // a1, b2, c3 step north-east
//! game.play(mv);
//! assert_eq!(game.to_text(), "wwwww/wwwwww/2www2/8/9/3b4/2bbb2/bbbbbb/1bbbb w b0 w0");
//! ```

pub mod board;
pub mod conversion;
mod display;
pub mod eval;
pub mod inputs;
mod movegen;
mod moves;
mod notation;
mod position;
#[doc(hidden)]
pub mod reference;
pub mod symmetry;
mod text;
mod zobrist;

pub use board::{Cell, Direction};
pub use eval::{AbaloneEval, AbaloneFeatures};
pub use moves::Move;
pub use position::{Abalone, AtTheLimit, DEFAULT_MAX_PLIES, LOSING_COUNT, Layout, MARBLES};
