//! plateau-server: every plateau game, served over HTTP.
//!
//! Rooms with five-letter share codes and a secret token per seat; moves posted
//! as JSON and validated with the game's own rules; live updates as
//! Server-Sent Events (each carrying the room's state, its version as the event
//! id, replayed from storage to a client reconnecting with `Last-Event-ID`); the
//! AI playing server-side on a bounded pool; every acknowledged move committed to
//! SQLite before the answer, so rooms survive restarts and `kill -9`. The API is
//! documented in `docs/api.md`.

mod ai;
mod api;
mod app;
mod check;
mod clock;
mod error;
mod http;
pub mod limits;
mod lobby;
mod offers;
mod record;
mod replay;
mod room;
mod sse;
pub mod storage;
pub mod tokens;
mod web;

/// The JSON bodies and the checks that follow reading them, for the fuzz
/// targets (`plateau-fuzz`); not an API for other crates.
#[doc(hidden)]
pub use api::{CreateRoom, MoveBody, RoomChoice, TokenBody, check_move_text};
pub use app::{AppState, ServerConfig, router, run, serve};
#[doc(hidden)]
pub use error::ApiError;
pub use limits::{Rate, Rates};
