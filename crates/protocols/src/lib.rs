//! plateau-protocols: how plateau talks to other programs.
//!
//! - [`escampe`]: the course tournament's arbiter protocol, both sides — a client
//!   that enters our engine into a tournament, and an arbiter that runs one.
//!
//! Protocol code only translates between the wire and the erased game and
//! engine faces of `plateau-games`; rules and search live elsewhere.

pub mod escampe;
pub mod line;
pub mod uai;
