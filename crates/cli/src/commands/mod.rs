pub mod games;
pub mod perft;
pub mod play;
pub mod show;
