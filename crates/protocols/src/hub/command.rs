//! What the GUI asks, checked: every command of Hub version 2 as a typed value,
//! or the message of the `error` line that answers it.

use super::wire::Line;
use crate::draughts_wire::{HUB, position_from_squares};
use plateau_core::Game;
use plateau_draughts::{Draughts, Move};
use plateau_games::{Clock, Limits};
use std::time::Duration;

/// Longest search time accepted, in seconds (a year: beyond that a number is a
/// mistake, and `Duration` arithmetic stays far from overflow).
const MAX_SECONDS: f64 = 365.0 * 24.0 * 3600.0;

/// How a search runs: `go think`, `go ponder` or `go analyze`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoMode {
    Think,
    Ponder,
    Analyze,
}

/// The `level` of the next searches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Level {
    Depth(u32),
    Nodes(u64),
    MoveTime(Duration),
    /// `[moves=N] time=S [inc=S]`: the remaining time on our clock.
    Clock {
        time: Duration,
        increment: Duration,
        moves: Option<u32>,
    },
    Infinite,
}

impl Level {
    /// The GUI's bounds as search limits.
    pub fn limits(&self) -> Limits {
        match *self {
            Level::Depth(depth) => Limits::depth(depth),
            Level::Nodes(nodes) => Limits::nodes(nodes),
            Level::MoveTime(time) => Limits::movetime(time),
            Level::Clock {
                time,
                increment,
                moves,
            } => Limits {
                clock: Some(Clock {
                    remaining: time,
                    increment,
                    moves_to_go: moves,
                }),
                ..Limits::default()
            },
            Level::Infinite => Limits::default(),
        }
    }
}

/// A command from the GUI.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Hub,
    SetParam {
        name: String,
        value: String,
    },
    Init,
    /// `pos`: the position and the moves played from it (legal, in order).
    Pos {
        start: Box<Draughts>,
        moves: Vec<Move>,
    },
    Level(Level),
    Go(GoMode),
    PonderHit,
    Stop,
    Ping,
    NewGame,
    Quit,
}

/// Reads one line: `Ok(None)` for a blank line, `Err` with the message of the
/// `error` reply for anything wrong.
pub fn parse(text: &str) -> Result<Option<Command>, String> {
    let Some(line) = Line::parse(text).map_err(|e| e.0)? else {
        return Ok(None);
    };
    let command = match line.command.as_str() {
        "hub" => Command::Hub,
        "set-param" => {
            let name = line
                .get("name")
                .ok_or("set-param needs name=... value=...")?;
            let value = line
                .get("value")
                .ok_or_else(|| format!("set-param name={name} needs value=..."))?;
            Command::SetParam {
                name: name.to_string(),
                value: value.to_string(),
            }
        }
        "init" => Command::Init,
        "pos" => parse_pos(&line)?,
        "level" => Command::Level(parse_level(&line)?),
        "go" => Command::Go(parse_go(&line)?),
        "ponder-hit" => Command::PonderHit,
        "stop" => Command::Stop,
        "ping" => Command::Ping,
        "new-game" => Command::NewGame,
        "quit" => Command::Quit,
        other => {
            return Err(format!(
                "unknown command {other:?}; this engine understands hub, set-param, init, pos, level, go, ponder-hit, stop, ping, new-game and quit"
            ));
        }
    };
    Ok(Some(command))
}

fn parse_pos(line: &Line) -> Result<Command, String> {
    let text = line
        .get("pos")
        .ok_or("pos needs pos=<side to move and 50 squares>")?;
    let mut chars = text.chars();
    let side_letter = chars.next().ok_or("pos=: empty position")?;
    let side = HUB.parse_side(side_letter).ok_or_else(|| {
        format!("pos=: the first character is the side to move, W or B, not {side_letter:?}")
    })?;
    let squares: String = chars.collect();
    let start =
        position_from_squares(side, &squares, &HUB).map_err(|reason| format!("pos=: {reason}"))?;
    let mut position = start.clone();
    let mut moves = Vec::new();
    for (index, text) in line
        .get("moves")
        .unwrap_or("")
        .split_whitespace()
        .enumerate()
    {
        let mv = position
            .check_move(text)
            .map_err(|err| format!("moves=: move {} ({text}): {}", index + 1, err.reason))?;
        position.play(mv);
        moves.push(mv);
    }
    Ok(Command::Pos {
        start: Box::new(start),
        moves,
    })
}

fn seconds(line: &Line, name: &str) -> Result<Option<Duration>, String> {
    let Some(text) = line.get(name) else {
        return Ok(None);
    };
    match text.parse::<f64>() {
        Ok(value) if value.is_finite() && (0.0..=MAX_SECONDS).contains(&value) => {
            Ok(Some(Duration::from_secs_f64(value)))
        }
        _ => Err(format!(
            "level {name}={text}: a number of seconds (0 to {MAX_SECONDS})"
        )),
    }
}

fn count<T: std::str::FromStr + PartialOrd + From<u8>>(
    line: &Line,
    name: &str,
) -> Result<Option<T>, String> {
    let Some(text) = line.get(name) else {
        return Ok(None);
    };
    match text.parse::<T>() {
        Ok(value) if value >= T::from(1) => Ok(Some(value)),
        _ => Err(format!("level {name}={text}: a whole number, at least 1")),
    }
}

fn parse_level(line: &Line) -> Result<Level, String> {
    if line.has("infinite") {
        return Ok(Level::Infinite);
    }
    if let Some(depth) = count::<u32>(line, "depth")? {
        return Ok(Level::Depth(depth));
    }
    if let Some(nodes) = count::<u64>(line, "nodes")? {
        return Ok(Level::Nodes(nodes));
    }
    if let Some(time) = seconds(line, "move-time")? {
        return Ok(Level::MoveTime(time));
    }
    let moves = count::<u32>(line, "moves")?;
    let increment = seconds(line, "inc")?;
    match seconds(line, "time")? {
        Some(time) => Ok(Level::Clock {
            time,
            increment: increment.unwrap_or(Duration::ZERO),
            moves,
        }),
        None if moves.is_some() || increment.is_some() => {
            Err("level: moves= and inc= go with time=<remaining seconds>".into())
        }
        None => Err(
            "level needs depth=N, nodes=N, move-time=S, [moves=N] time=S [inc=S], or infinite"
                .into(),
        ),
    }
}

fn parse_go(line: &Line) -> Result<GoMode, String> {
    let modes = [
        ("think", GoMode::Think),
        ("ponder", GoMode::Ponder),
        ("analyze", GoMode::Analyze),
    ];
    let found: Vec<GoMode> = modes
        .iter()
        .filter(|(name, _)| line.has(name))
        .map(|&(_, mode)| mode)
        .collect();
    match found.as_slice() {
        [mode] => Ok(*mode),
        [] => Err("go needs think, ponder or analyze".into()),
        _ => Err("go takes one of think, ponder and analyze".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";

    fn ok(text: &str) -> Command {
        parse(text).unwrap().unwrap()
    }

    #[test]
    fn positions_with_moves() {
        let Command::Pos { start, moves } =
            ok(&format!("pos pos={START} moves=\"32-28 19-23 28x19x23\""))
        else {
            panic!("not a pos");
        };
        assert_eq!(start.to_text(), Draughts::new().to_text());
        let hub: Vec<String> = moves.iter().map(|m| m.hub()).collect();
        assert_eq!(hub, ["32-28", "19-23", "28x19x23"]);
        // The example of the protocol text: kings, Black to move, king moves.
        let example = "BeeeWWeeeeeeeeeeeeeeeeeeeweeeeeeeeewweBeeeeeeeeeBee";
        let Command::Pos { start, moves } =
            ok(&format!("pos pos={example} moves=\"38-15 5-41 48-26\""))
        else {
            panic!("not a pos");
        };
        assert_eq!(start.to_text(), "B:WK4,K5,25,35,36:BK38,K48");
        assert_eq!(moves.len(), 3);
    }

    #[test]
    fn bad_positions_and_moves_are_explained() {
        let err = parse("pos").unwrap_err();
        assert!(err.contains("pos="), "{err}");
        let err = parse("pos pos=Xbbb").unwrap_err();
        assert!(err.contains("W or B"), "{err}");
        let err = parse("pos pos=Wbbbb").unwrap_err();
        assert!(err.contains("4 squares"), "{err}");
        let bad = START.replace("bbbbe", "bbbxe");
        let err = parse(&format!("pos pos={bad}")).unwrap_err();
        assert!(err.contains("square 20"), "{err}");
        let err = parse(&format!("pos pos={START} moves=\"32-28 32-27\"")).unwrap_err();
        assert!(err.contains("move 2 (32-27)"), "{err}");
    }

    #[test]
    fn levels() {
        assert_eq!(ok("level depth=9"), Command::Level(Level::Depth(9)));
        assert_eq!(
            ok("level nodes=100000"),
            Command::Level(Level::Nodes(100_000))
        );
        assert_eq!(
            ok("level move-time=1.5"),
            Command::Level(Level::MoveTime(Duration::from_millis(1500)))
        );
        assert_eq!(
            ok("level moves=9 time=291.5 inc=2"),
            Command::Level(Level::Clock {
                time: Duration::from_millis(291_500),
                increment: Duration::from_secs(2),
                moves: Some(9)
            })
        );
        assert_eq!(ok("level infinite"), Command::Level(Level::Infinite));
        for bad in [
            "level",
            "level depth=0",
            "level depth=deep",
            "level move-time=-1",
            "level time=NaN",
            "level moves=40",
            "level time=1e300",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn go_and_the_rest() {
        assert_eq!(ok("go think"), Command::Go(GoMode::Think));
        assert_eq!(ok("go analyze"), Command::Go(GoMode::Analyze));
        assert_eq!(ok("go ponder"), Command::Go(GoMode::Ponder));
        assert!(parse("go").is_err());
        assert!(parse("go think analyze").is_err());
        assert_eq!(ok("ping"), Command::Ping);
        assert_eq!(
            ok("set-param name=engine value=expert"),
            Command::SetParam {
                name: "engine".into(),
                value: "expert".into()
            }
        );
        let err = parse("dance now").unwrap_err();
        assert!(err.contains("unknown command \"dance\""), "{err}");
        assert_eq!(parse("").unwrap(), None);
    }
}
