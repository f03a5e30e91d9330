//! The Escampe tournament protocol of the course arbiter (TCP, one line per
//! message), as observed on the real arbiter: see `docs/rules/escampe.md`.
//!
//! ```text
//! client -> server   its name
//! server -> client   Blanc\0 | Noir\0          (the first to connect is Blanc)
//! server -> both     JOUEUR <Blanc|Noir>\0     (only the named one answers:
//! client -> server   a placement, a move or E   C6/A6/B5/D5/E6/F5, B1-D1, E)
//! server -> other    MOUVEMENT <move>          (no NUL)
//! server -> both     FIN! <Blanc|Noir|Egalité>\0
//! ```
//!
//! Noir places, Blanc places, then Blanc moves first. An illegal move loses at
//! once (no MOUVEMENT, only FIN! naming the opponent); after a capture the loser
//! first gets the MOUVEMENT. Each player has a game clock (300 s in the course);
//! timing starts about 500 ms after JOUEUR.

pub mod arbiter;
pub mod client;
mod lobby;
pub mod openings;
pub mod wire;

use std::time::Duration;

/// The course tournament's thinking time per player and game.
pub const DEFAULT_CLOCK: Duration = Duration::from_secs(300);

/// Time after JOUEUR that the arbiter does not charge.
pub const GRACE: Duration = Duration::from_millis(500);

/// Longest line either side accepts (a placement is 17 bytes).
pub const MAX_LINE: usize = 256;
