//! plateau-learn: teaching evaluations from self-play.
//!
//! - [`data`]: the training-data file (positions, search scores, results),
//!   versioned, resumable, readable block by block;
//! - [`datagen`]: self-play at a fixed node budget that writes it;
//! - [`packed`]: the packed positions of version 2 of that file (the
//!   Ataxx family);
//! - [`merge`]: several runs into one file, shuffled;
//! - [`train`]: the trainer of networks over a game's sparse inputs.

pub mod data;
pub mod datagen;
pub mod merge;
pub mod packed;
pub mod train;

pub use data::{DataError, DataReader, DataWriter, GameResult, Header, Layout, Sample};
pub use datagen::{DatagenConfig, DatagenProgress, GameSamples};
pub use merge::{MergeSummary, merge};
pub use packed::Packer;
