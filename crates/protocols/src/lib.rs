//! plateau-protocols: how plateau talks to other programs.
//!
//! - [`escampe`]: the course tournament's arbiter protocol, both sides — a client
//!   that enters our engine into a tournament, and an arbiter that runs one.
//! - [`hub`]: the Hub protocol (Scan's) for draughts GUIs, engine side.
//! - [`dxp`]: DamExchange, draughts programs playing each other over TCP.
//! - [`uai`]: the Universal Ataxx Interface, engine side, for Ataxx and the virus game.
//!
//! Protocol code only translates between the wire and the erased game and
//! engine faces of `plateau-games`; rules and search live elsewhere. Hub and
//! DXP exist only for draughts, so they also read and write draughts positions
//! and moves with `plateau-draughts` ([`draughts_wire`]).

pub mod draughts_wire;
pub mod dxp;
pub mod escampe;
pub mod hub;
pub mod limits;
pub mod line;
pub mod net;
pub mod uai;
