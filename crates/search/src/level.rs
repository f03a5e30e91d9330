use crate::{Limits, Options};
use std::fmt;
use std::time::Duration;

/// Playing strengths with the same names in every game: presets of limits and
/// randomness over the one engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// Depth 1 and a lot of noise: makes mistakes a beginner can punish.
    Beginner,
    /// Depth 3, some noise.
    Medium,
    /// Depth 5, a little noise.
    Strong,
    /// Depth 7, no noise.
    Expert,
    /// Full strength, bounded by time (a clock when there is one).
    Master,
}

/// How long `master` thinks per move when no clock says otherwise.
pub const MASTER_MOVETIME: Duration = Duration::from_secs(2);

impl Level {
    pub const ALL: [Level; 5] = [
        Level::Beginner,
        Level::Medium,
        Level::Strong,
        Level::Expert,
        Level::Master,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Level::Beginner => "beginner",
            Level::Medium => "medium",
            Level::Strong => "strong",
            Level::Expert => "expert",
            Level::Master => "master",
        }
    }

    pub fn parse(text: &str) -> Option<Level> {
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(text))
    }

    /// The limits this level plays with when nobody imposes others.
    pub fn limits(self) -> Limits {
        match self {
            Level::Beginner => Limits::depth(1),
            Level::Medium => Limits::depth(3),
            Level::Strong => Limits::depth(5),
            Level::Expert => Limits::depth(7),
            Level::Master => Limits::movetime(MASTER_MOVETIME),
        }
    }

    /// Engine options: everything on, with noise falling as the level rises.
    /// Evaluations are scaled so that 100 is a clear advantage (a man in
    /// draughts), so the noise means the same in every game.
    pub fn options(self, seed: u64) -> Options {
        let noise = match self {
            Level::Beginner => 120,
            Level::Medium => 40,
            Level::Strong => 10,
            Level::Expert | Level::Master => 0,
        };
        // Long, timed searches fill a table; short fixed-depth ones stay in cache.
        let table_mb = if self == Level::Master { 64 } else { 16 };
        Options {
            noise,
            seed,
            table_mb,
            ..Options::full()
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
