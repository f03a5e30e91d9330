pub mod analyze;
pub mod bench;
pub mod games;
pub mod matches;
pub mod perft;
pub mod play;
pub mod show;
