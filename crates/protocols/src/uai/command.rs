//! UAI commands as typed values: the parser trusts nothing and says what was
//! wrong with a line.

use std::time::Duration;

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    StartPos,
    /// The position text, its fields joined by single spaces.
    Fen(String),
}

/// The limits of a `go` command; absent fields were not given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// White's (`o`) clock.
    pub wtime: Option<Duration>,
    /// Black's (`x`) clock: Black moves first.
    pub btime: Option<Duration>,
    pub winc: Option<Duration>,
    pub binc: Option<Duration>,
    pub movestogo: Option<u32>,
    pub movetime: Option<Duration>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Search until `stop`, and answer only then.
    pub infinite: bool,
}

impl Go {
    /// Whether the command gave no limit at all (a bare `go`).
    pub fn is_bare(&self) -> bool {
        *self == Go::default()
    }
}

/// One line from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uai,
    IsReady,
    NewGame,
    SetOption {
        name: String,
        value: Option<String>,
    },
    Position {
        start: Start,
        moves: Vec<String>,
    },
    Go(Go),
    Stop,
    Quit,
    /// Lines UAI allows and plateau has nothing to do for: empty lines,
    /// `debug`, `ponderhit`, `register`.
    Nothing,
}

/// Deepest search a `go depth` may ask for (the engine's own limit is lower).
const MAX_DEPTH: u64 = 1_000;
/// Longest time a `go` field may give: about 11 days.
const MAX_MILLIS: i64 = 1_000_000_000;

impl Command {
    /// Reads one line; the error names the word that was not understood.
    pub fn parse(line: &str) -> Result<Command, String> {
        let mut words = line.split_whitespace();
        let Some(head) = words.next() else {
            return Ok(Command::Nothing);
        };
        let rest: Vec<&str> = words.collect();
        let no_arguments = |command: Command| {
            if rest.is_empty() {
                Ok(command)
            } else {
                Err(format!(
                    "{head} takes no arguments, got {:?}",
                    shorten(&rest.join(" "))
                ))
            }
        };
        match head {
            "uai" => no_arguments(Command::Uai),
            "isready" => no_arguments(Command::IsReady),
            "uainewgame" => no_arguments(Command::NewGame),
            "stop" => no_arguments(Command::Stop),
            "quit" => no_arguments(Command::Quit),
            "debug" | "ponderhit" | "register" => Ok(Command::Nothing),
            "setoption" => parse_setoption(&rest),
            "position" => parse_position(&rest),
            "go" => parse_go(&rest).map(Command::Go),
            other => Err(format!(
                "unknown command {:?} (uai, isready, uainewgame, setoption, position, go, stop, \
                 quit)",
                shorten(other)
            )),
        }
    }
}

/// At most 40 characters of untrusted text, for error messages.
pub(crate) fn shorten(text: &str) -> String {
    let mut short: String = text.chars().take(40).collect();
    if short.len() < text.len() {
        short.push_str("...");
    }
    short
}

/// `setoption name <words> [value <words>]`.
fn parse_setoption(words: &[&str]) -> Result<Command, String> {
    if words.first() != Some(&"name") {
        return Err("setoption: expected `setoption name <option> value <value>`".to_string());
    }
    let value_at = words.iter().position(|&w| w == "value");
    let name_words = &words[1..value_at.unwrap_or(words.len())];
    if name_words.is_empty() {
        return Err("setoption: the option name is missing".to_string());
    }
    let value = value_at.map(|at| words[at + 1..].join(" "));
    Ok(Command::SetOption {
        name: name_words.join(" "),
        value,
    })
}

/// `position startpos|fen <fields> [moves <m1> <m2> ...]`.
fn parse_position(words: &[&str]) -> Result<Command, String> {
    let moves_at = words.iter().position(|&w| w == "moves");
    let (head, moves) = match moves_at {
        Some(at) => (&words[..at], words[at + 1..].to_vec()),
        None => (words, Vec::new()),
    };
    let start = match head.first() {
        Some(&"startpos") if head.len() == 1 => Start::StartPos,
        Some(&"startpos") => {
            return Err(format!(
                "position startpos: unexpected {:?} (moves come after the word `moves`)",
                shorten(&head[1..].join(" "))
            ));
        }
        Some(&"fen") if head.len() > 1 => Start::Fen(head[1..].join(" ")),
        Some(&"fen") => return Err("position fen: the position text is missing".to_string()),
        Some(other) => {
            return Err(format!(
                "position: expected startpos or fen, got {:?}",
                shorten(other)
            ));
        }
        None => return Err("position: expected startpos or fen".to_string()),
    };
    Ok(Command::Position {
        start,
        moves: moves.into_iter().map(str::to_string).collect(),
    })
}

fn parse_go(words: &[&str]) -> Result<Go, String> {
    let mut go = Go::default();
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        if key == "infinite" {
            go.infinite = true;
            i += 1;
            continue;
        }
        const KEYS: [&str; 8] = [
            "wtime",
            "btime",
            "winc",
            "binc",
            "movetime",
            "movestogo",
            "depth",
            "nodes",
        ];
        if !KEYS.contains(&key) {
            return Err(format!(
                "go: unknown limit {:?} ({}, infinite)",
                shorten(key),
                KEYS.join(", ")
            ));
        }
        let value = words
            .get(i + 1)
            .ok_or_else(|| format!("go {key}: a number must follow"))?;
        let millis = || -> Result<Duration, String> {
            // Some GUIs send a slightly negative clock once it has run out.
            let ms: i64 = value.parse().map_err(|_| {
                format!(
                    "go {key}: {:?} is not a number of milliseconds",
                    shorten(value)
                )
            })?;
            Ok(Duration::from_millis(ms.clamp(0, MAX_MILLIS) as u64))
        };
        let count = |max: u64| -> Result<u64, String> {
            match value.parse::<u64>() {
                Ok(n) if (1..=max).contains(&n) => Ok(n),
                _ => Err(format!(
                    "go {key}: {:?} is not a number from 1 to {max}",
                    shorten(value)
                )),
            }
        };
        match key {
            "wtime" => go.wtime = Some(millis()?),
            "btime" => go.btime = Some(millis()?),
            "winc" => go.winc = Some(millis()?),
            "binc" => go.binc = Some(millis()?),
            "movetime" => go.movetime = Some(millis()?),
            "movestogo" => go.movestogo = Some(count(10_000)? as u32),
            "depth" => go.depth = Some(count(MAX_DEPTH)? as u32),
            _ => go.nodes = Some(count(u64::MAX)?),
        }
        i += 2;
    }
    Ok(go)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse() {
        assert_eq!(Command::parse("uai"), Ok(Command::Uai));
        assert_eq!(Command::parse("  isready \r"), Ok(Command::IsReady));
        assert_eq!(Command::parse(""), Ok(Command::Nothing));
        assert_eq!(
            Command::parse("setoption name Hash value 128"),
            Ok(Command::SetOption {
                name: "Hash".into(),
                value: Some("128".into())
            })
        );
        assert_eq!(
            Command::parse("position fen x5o/7/7/7/7/7/o5x x 0 1 moves g2 a1c3"),
            Ok(Command::Position {
                start: Start::Fen("x5o/7/7/7/7/7/o5x x 0 1".into()),
                moves: vec!["g2".into(), "a1c3".into()]
            })
        );
        assert_eq!(
            Command::parse("position startpos"),
            Ok(Command::Position {
                start: Start::StartPos,
                moves: vec![]
            })
        );
        let Ok(Command::Go(go)) = Command::parse("go btime 1000 wtime -20 binc 10 movestogo 5")
        else {
            panic!("go parses");
        };
        assert_eq!(go.btime, Some(Duration::from_millis(1000)));
        assert_eq!(go.wtime, Some(Duration::ZERO));
        assert_eq!(go.movestogo, Some(5));
        assert!(Command::parse("go").is_ok_and(|c| c == Command::Go(Go::default())));
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        for (line, expected) in [
            ("fly", "unknown command \"fly\""),
            ("uai now", "takes no arguments"),
            ("go depth", "a number must follow"),
            ("go depth 0", "not a number from 1"),
            ("go movetime soon", "not a number of milliseconds"),
            ("go ponder", "unknown limit"),
            ("position", "expected startpos or fen"),
            ("position fen", "position text is missing"),
            ("position startpos g2", "moves come after"),
            ("position somewhere", "expected startpos or fen"),
            ("setoption Hash 3", "setoption name"),
            ("setoption name value 3", "name is missing"),
        ] {
            let err = Command::parse(line).unwrap_err();
            assert!(err.contains(expected), "{line}: {err}");
        }
        let long = "x".repeat(10_000);
        let err = Command::parse(&long).unwrap_err();
        assert!(err.len() < 200, "{err}");
    }
}
