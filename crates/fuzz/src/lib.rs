//! plateau-fuzz: one function per parser of untrusted input, for the fuzzers.
//!
//! Each target takes arbitrary bytes and checks what plateau promises of the
//! parser behind it: bad input never panics and never corrupts (a refused move
//! leaves the game as it was), and good input reads back from what plateau
//! writes (a position text, a save file, a PDN game, a protocol message, a
//! network file). A target panics exactly when a promise is broken.
//!
//! The bodies live here, in a stable crate, so that `cargo test` runs a short
//! smoke run of every target ([`smoke`]) on any toolchain; the libFuzzer
//! drivers in the repository's `fuzz/` directory (nightly, `cargo fuzz`) are
//! one line each. See `docs/fuzzing.md`.

mod files;
mod games;
mod protocols;
mod seeds;
pub mod smoke;
mod web;

pub use files::{arena_files, engine_spec, network, save_file, training_data};
pub use games::{abalone, ataxx, draughts, escampe, pdn, virus};
pub use protocols::{dxp, escampe_wire, hub, uai};
pub use seeds::seeds;
pub use web::api_json;

/// A fuzz target: arbitrary bytes in, a panic when a promise is broken.
pub type Target = fn(&[u8]);

/// Every target by name, as `cargo fuzz run NAME` and the smoke test know them.
pub const TARGETS: &[(&str, Target)] = &[
    ("escampe", escampe),
    ("draughts", draughts),
    ("abalone", abalone),
    ("virus", virus),
    ("ataxx", ataxx),
    ("pdn", pdn),
    ("save_file", save_file),
    ("escampe_wire", escampe_wire),
    ("hub", hub),
    ("dxp", dxp),
    ("uai", uai),
    ("api_json", api_json),
    ("network", network),
    ("training_data", training_data),
    ("arena_files", arena_files),
    ("engine_spec", engine_spec),
];

/// The bytes as text, as the front-ends read them: invalid UTF-8 becomes
/// U+FFFD rather than being thrown away, so that every input reaches a parser.
pub(crate) fn text(data: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(data)
}
