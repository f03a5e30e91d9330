//! Engines that are other programs, spoken to over their game's protocol: UAI
//! for Ataxx, Hub for international draughts (both described in
//! `docs/rules/`). We are the GUI side: we start the program, tell it the
//! position and the limits, and wait for its move, never longer than the
//! limits allow plus a grace period. An engine that cannot be started, crashes,
//! stays silent past its deadline or speaks nonsense loses the game with the
//! reason recorded; it never hangs the match.

mod hub;
mod process;
mod uai;

pub use hub::{HubEngine, hub_position};
pub use process::{MAX_LINE, Process};
pub use uai::UaiEngine;

use plateau_games::Limits;
use std::time::{Duration, Instant};
use thiserror::Error;

/// What went wrong with an engine program.
#[derive(Debug, Error)]
pub enum ExternalError {
    #[error("cannot start `{command}`: {source}")]
    Spawn {
        command: String,
        source: std::io::Error,
    },
    #[error("the engine exited")]
    Exited,
    #[error("the engine did not answer in time")]
    Timeout,
    #[error("{0}")]
    Protocol(String),
    /// The engine answered the position with an error: it will not play
    /// from there, which says nothing about its strength.
    #[error("the engine refused the position: {0}")]
    Refused(String),
}

/// The protocol an engine program speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// Universal Ataxx Interface.
    Uai,
    /// Scan's Hub protocol for draughts.
    Hub,
}

impl Protocol {
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Uai => "uai",
            Protocol::Hub => "hub",
        }
    }

    /// The game (registry name) this protocol plays.
    pub fn game(self) -> &'static str {
        match self {
            Protocol::Uai => "ataxx",
            Protocol::Hub => "draughts",
        }
    }
}

/// How long engine programs get.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExternalOptions {
    /// To start and answer the handshake (`uaiok`, `wait`/`ready`).
    pub handshake: Duration,
    /// For a move searched to a depth or a node count (no time is given).
    pub move_timeout: Duration,
    /// Added to the move time or the clock before an engine is declared silent.
    pub grace: Duration,
}

impl Default for ExternalOptions {
    fn default() -> ExternalOptions {
        ExternalOptions {
            handshake: Duration::from_secs(10),
            move_timeout: Duration::from_secs(60),
            grace: Duration::from_secs(1),
        }
    }
}

impl ExternalOptions {
    /// When to give up waiting for a move searched under `limits`.
    pub(crate) fn move_deadline(&self, limits: &Limits, started: Instant) -> Instant {
        let allowed = if let Some(clock) = limits.clock {
            clock.remaining + self.grace
        } else if let Some(time) = limits.movetime {
            time + self.grace
        } else {
            self.move_timeout
        };
        started + allowed
    }
}

/// Splits an engine command line into program and arguments: words separated
/// by spaces, with `"..."` or `'...'` keeping spaces inside a word.
pub fn split_command(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in text.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(format!("unclosed quote in the engine command {text:?}"));
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err("an empty engine command".into());
    }
    Ok(words)
}

/// Seconds as the Hub protocol writes them: `0.5`, `12`.
pub(crate) fn seconds(duration: Duration) -> String {
    let text = format!("{:.3}", duration.as_secs_f64());
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_split_on_spaces_outside_quotes() {
        assert_eq!(
            split_command("plateau uai").unwrap(),
            vec!["plateau", "uai"]
        );
        assert_eq!(
            split_command("  \"/opt/my engine/bin\" --threads 1 ''").unwrap(),
            vec!["/opt/my engine/bin", "--threads", "1", ""]
        );
        assert!(split_command("\"open").is_err());
        assert!(split_command("   ").is_err());
    }

    #[test]
    fn hub_seconds_are_short() {
        assert_eq!(seconds(Duration::from_millis(500)), "0.5");
        assert_eq!(seconds(Duration::from_secs(12)), "12");
        assert_eq!(seconds(Duration::ZERO), "0");
    }

    #[test]
    fn deadlines_follow_the_limits() {
        let options = ExternalOptions::default();
        let now = Instant::now();
        let by_time = options.move_deadline(&Limits::movetime(Duration::from_millis(200)), now);
        assert_eq!(by_time - now, Duration::from_millis(1200));
        let by_depth = options.move_deadline(&Limits::depth(3), now);
        assert_eq!(by_depth - now, options.move_timeout);
    }
}
