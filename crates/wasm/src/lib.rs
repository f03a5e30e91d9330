//! plateau-wasm: the games, the engine and the tuner inside a browser.
//!
//! The page's Web Worker (`web/engine/worker.js`) loads this crate built for
//! `wasm32-unknown-unknown` (`web/engine/plateau.wasm`, made by
//! `scripts/build-wasm`). Everything is the same Rust as the native binary:
//! the rules and the search come from [`plateau_games`], the tuner from
//! [`plateau_arena::tune`]; nothing is forked.
//!
//! The interface is a minimal C ABI rather than `wasm-bindgen`: every call is
//! one JSON request in and one JSON answer out ([`call`]), so the module needs
//! no generated glue, no version-matched `wasm-bindgen` tool to build, and the
//! worker's loader is forty lines of plain JavaScript. The module imports two
//! functions from the host (module `plateau`): `now_ms()`, the clock search
//! runs on ([`plateau_core::time`]), and `report(ptr, len)`, which hands the
//! worker a JSON progress message (a search iteration, a tuning generation)
//! while a long call runs.

mod abi;
mod ops;
mod report;

pub use ops::call;
pub use report::take_reports;
