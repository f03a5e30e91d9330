//! The Hub protocol, version 2 (Scan's, spoken by the Hub GUI), engine side:
//! lines on standard input and output, `key=value` arguments. See
//! `docs/rules/draughts.md` and `docs/draughts-protocols.md`.
//!
//! ```text
//! GUI -> engine                     engine -> GUI
//! hub                               id name=plateau version=0.1.0
//!                                   param name=variant ... / param name=engine ...
//!                                   param name=threads ... / param name=hash ...
//!                                   wait
//! init                              ready
//! pos pos=Wbbb...www moves="..."
//! level move-time=1
//! go think                          info depth=1 score=0.00 ... pv="32-28"
//!                                   done move=32-28 ponder=19-23
//! ping                              pong
//! bad input                         error message="..."
//! ```
//!
//! `set-param` sets `engine` (a level, with options), `threads` (threads per
//! search) and `hash` (the transposition table in MB, 0 for none); threads
//! and table carry over to engines chosen later.
//!
//! Moves are written start, end and every captured square (`28x19x23`);
//! positions are the side to move and 50 letters (`w b W B e`).

pub mod command;
pub mod session;
pub mod wire;

pub use session::{HubConfig, HubError, run_hub};

/// Longest line read (a `pos` with a few hundred moves fits easily).
pub const MAX_LINE: usize = 64 * 1024;

/// The only variant plateau plays, under the name Scan's GUI knows.
pub const PROTOCOL_VARIANT: &str = "normal";
