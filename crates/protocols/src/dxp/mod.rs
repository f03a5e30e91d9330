//! DamExchange (DXP): two draughts programs play each other over TCP. See
//! `docs/rules/draughts.md` and `docs/draughts-protocols.md`.
//!
//! ```text
//! initiator -> follower   R01<name:32>Z005000A      GAMEREQ: you play Black, 5 min, no move limit
//! follower -> initiator   A<name:32>0               GAMEACC: accepted
//! either, in turn         M0003322700               MOVE: 32-27 after 3 s
//! ...
//! side to move            E10                       GAMEEND: I lose, another game is welcome
//! the other               E00                       the echo
//! ```
//!
//! Every message ends with a NUL byte. The initiator proposes the games, the
//! colours alternating; CHAT may come at any time and take-backs (BACKREQ)
//! are declined.

mod game;
mod peer;
pub mod record;
pub mod session;
pub mod wire;

pub use plateau_draughts::Draughts;
pub use record::{GameRecord, match_report, summary, write_pdn};
pub use session::{DxpConfig, DxpError, run_follower, run_initiator};

/// The port DamExchange programs listen on by default.
pub const DEFAULT_PORT: u16 = 27531;
