//! plateau-draughts: international draughts (FMJD rules, 10x10) exactly.
//!
//! Men step one square diagonally forward and capture forward and backward;
//! kings fly. Capturing is compulsory and the sequence taking the most pieces
//! must be played (majority rule, men and kings alike); captured pieces leave the
//! board only when the sequence ends (Turkish strike). A man is crowned only if
//! its move ends on the far row. A side that cannot move loses. Draws: 25 king
//! moves each without capture or man move, threefold repetition, and the FMJD
//! limits for a few pieces against a lone king (16 and 5 moves each).
//!
//! Notation is PDN: positions as FEN (`W:W31-50:B1-20`), moves as `32-28` and
//! `28x19` (the full path when two moves share start and end; the Hub form
//! `28x19x23` is read too), whole games with [`pdn`].
//!
//! Choices worth knowing:
//!
//! - Draw rules, applied by the game itself: 25 king moves each without
//!   capture or man move; threefold repetition (same position, same side to
//!   move, counted since the last capture or man move); three pieces (at least
//!   one king) against a lone king, 16 moves each; one or two pieces (at least
//!   one king) against a lone king, 5 moves each. When a capture turns the
//!   first ending into the second, both limits run and the first to end
//!   draws (the outcome names the one that ended). A capture from one small
//!   ending into another (two pieces against a lone king down to one, or the
//!   lone king taking a piece) keeps the running 5-move count: FMJD 6.5 does
//!   not say whether it starts again, and plateau reads the material change
//!   as the same ending going on (the stricter reading). Two kings against two
//!   kings has no special limit.
//! - A side that cannot move loses even if its opponent's last move also
//!   completed a draw count.
//! - The save file ([`Game::to_file`](plateau_core::Game::to_file)) is a PDN
//!   game: the position from which the draw rules' memory starts, and the moves
//!   since, so that reading it back restores the counters and the repetition
//!   history; a game played without the draw rules says so with a
//!   `[DrawRules "off"]` tag.
//! - Published perft numbers ignore the draw rules; so does a position made with
//!   [`Draughts::with_draw_rules`]`(false)`.
//!
//! ```
//! use plateau_core::{Game, MoveList};
//! use plateau_draughts::Draughts;
//!
//! let mut game = Draughts::new();
//! for text in ["32-28", "19-23"] {
//!     let mv = game.parse_move(text).unwrap();
//!     game.play(mv);
//! }
//! // White must take: 28x19 is the only legal move.
//! let mut moves = MoveList::new();
//! game.legal_moves(&mut moves);
//! assert_eq!(moves.len(), 1);
//! assert_eq!(game.format_move(moves[0]), "28x19");
//! ```

mod display;
pub mod eval;
pub mod inputs;
mod movegen;
mod moves;
pub mod notation;
pub mod pdn;
mod position;
#[doc(hidden)]
pub mod reference;
mod square;
mod text;
mod zobrist;

pub use eval::{DraughtsEval, DraughtsFeatures};
pub use moves::Move;
pub use position::{
    Draughts, DrawRule, KING_MOVES_LIMIT, SMALL_AGAINST_KING_LIMIT, START_TEXT,
    THREE_AGAINST_KING_LIMIT,
};
pub use square::Square;
