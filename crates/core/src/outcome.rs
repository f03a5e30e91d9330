use crate::Side;
use std::fmt;

/// How a finished game ended: who won (nobody for a draw) and why, in words.
///
/// The reason is a short static phrase ("unicorn captured", "ply limit") so that
/// search can build outcomes at every node without allocating, while the server and
/// the CLI can still tell people why a game stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    pub winner: Option<Side>,
    pub reason: &'static str,
}

impl Outcome {
    /// `side` won, for `reason`.
    pub const fn win(side: Side, reason: &'static str) -> Outcome {
        Outcome {
            winner: Some(side),
            reason,
        }
    }

    /// Nobody won, for `reason`.
    pub const fn draw(reason: &'static str) -> Outcome {
        Outcome {
            winner: None,
            reason,
        }
    }

    /// 1, 0.5 or 0: the match score of `side`.
    pub fn score_for(&self, side: Side) -> f64 {
        match self.winner {
            Some(w) if w == side => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2` from White's point of view.
    pub fn result_text(&self) -> &'static str {
        result_text(self.winner)
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(side) => write!(f, "{side} wins ({})", self.reason),
            None => write!(f, "draw ({})", self.reason),
        }
    }
}

/// A game's result as a record states it: an [`Outcome`] of the rules, or one
/// decided outside them (a resignation, a timeout), with a borrowed reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict<'a> {
    pub winner: Option<Side>,
    pub reason: &'a str,
}

impl Verdict<'_> {
    /// `1-0`, `0-1` or `1/2-1/2` from White's point of view.
    pub fn result_text(&self) -> &'static str {
        result_text(self.winner)
    }
}

fn result_text(winner: Option<Side>) -> &'static str {
    match winner {
        Some(Side::White) => "1-0",
        Some(Side::Black) => "0-1",
        None => "1/2-1/2",
    }
}

impl Outcome {
    /// The outcome as a record states it.
    pub fn verdict(&self) -> Verdict<'static> {
        Verdict {
            winner: self.winner,
            reason: self.reason,
        }
    }
}

impl fmt::Display for Verdict<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(side) => write!(f, "{side} wins ({})", self.reason),
            None => write!(f, "draw ({})", self.reason),
        }
    }
}
