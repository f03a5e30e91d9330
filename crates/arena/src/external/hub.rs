//! The GUI side of Hub, the protocol of the Scan draughts engine: `hub` ->
//! `id ...`, `param ...`, `wait`; `init` -> `ready`; `new-game`; `pos pos=..
//! moves=".."`, `level ...`, `go think` -> `info ...` then `done move=M`.
//! Messages are a command then `key=value` fields, values with spaces in
//! double quotes. Moves go out in Hub form (every captured square:
//! `28x19x23`), which plateau's draughts notation also reads back.

use super::{ExternalError, ExternalOptions, Process, seconds};
use crate::player::{MoveRequest, Player, PlayerError};
use plateau_core::{Game, Side};
use plateau_draughts::{Draughts, Square};
use plateau_games::Limits;
use std::time::Instant;

/// A draughts engine program.
pub struct HubEngine {
    process: Process,
    options: ExternalOptions,
    /// What the engine calls itself (`id name=...`).
    pub engine_name: Option<String>,
}

impl HubEngine {
    /// Starts the program and completes the handshake.
    pub fn start(
        command: &[String],
        options: &ExternalOptions,
    ) -> Result<HubEngine, ExternalError> {
        let mut process = Process::spawn(command)?;
        let deadline = Instant::now() + options.handshake;
        process.send("hub")?;
        let mut engine_name = None;
        process
            .wait_for(
                deadline,
                |line| (command_of(line) == "wait").then_some(()),
                |line| {
                    let (command, fields) = parse_message(line);
                    if command == "id" {
                        engine_name = field(&fields, "name").map(str::to_string);
                    }
                    Ok(())
                },
            )
            .map_err(|e| handshake_error(e, "wait"))?;
        process.send("init")?;
        process
            .wait_for(
                deadline,
                |line| (command_of(line) == "ready").then_some(()),
                |_| Ok(()),
            )
            .map_err(|e| handshake_error(e, "ready"))?;
        process.send("new-game")?;
        Ok(HubEngine {
            process,
            options: *options,
            engine_name,
        })
    }
}

fn handshake_error(err: ExternalError, expected: &str) -> ExternalError {
    match err {
        ExternalError::Timeout => {
            ExternalError::Protocol(format!("no `{expected}` within the handshake time"))
        }
        ExternalError::Exited => {
            ExternalError::Protocol(format!("the engine exited before `{expected}`"))
        }
        other => other,
    }
}

/// The first word of a message.
fn command_of(line: &str) -> &str {
    line.split_whitespace().next().unwrap_or("")
}

/// A message's command and its `key=value` fields (quotes removed). Words
/// without `=` become fields with an empty value.
pub(crate) fn parse_message(line: &str) -> (String, Vec<(String, String)>) {
    let mut chars = line.trim().chars().peekable();
    let mut words: Vec<(String, String)> = Vec::new();
    loop {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        if chars.peek().is_none() {
            break;
        }
        let mut key = String::new();
        while let Some(c) = chars.next_if(|c| !c.is_whitespace() && *c != '=') {
            key.push(c);
        }
        let mut value = String::new();
        if chars.next_if_eq(&'=').is_some() {
            if chars.next_if_eq(&'"').is_some() {
                for c in chars.by_ref() {
                    if c == '"' {
                        break;
                    }
                    value.push(c);
                }
            } else {
                while let Some(c) = chars.next_if(|c| !c.is_whitespace()) {
                    value.push(c);
                }
            }
        }
        words.push((key, value));
    }
    let command = if words.is_empty() {
        String::new()
    } else {
        words.remove(0).0
    };
    (command, words)
}

fn field<'a>(fields: &'a [(String, String)], key: &str) -> Option<&'a str> {
    fields
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

/// A position in Hub's 51 characters: the side to move (`W`/`B`), then squares
/// 1 to 50 as `w`/`b` (men), `W`/`B` (kings) or `e` (empty).
pub fn hub_position(position: &Draughts) -> String {
    let mut text = String::with_capacity(51);
    text.push(match position.side_to_move() {
        Side::White => 'W',
        Side::Black => 'B',
    });
    for number in 1..=50 {
        let piece = Square::from_number(number).and_then(|sq| position.piece_at(sq));
        text.push(match piece {
            None => 'e',
            Some((Side::White, false)) => 'w',
            Some((Side::Black, false)) => 'b',
            Some((Side::White, true)) => 'W',
            Some((Side::Black, true)) => 'B',
        });
    }
    text
}

/// `pos pos=... moves="..."`: the game's start and its moves in Hub form.
pub(crate) fn position_message(request: &MoveRequest<'_>) -> Result<String, PlayerError> {
    let start = Draughts::from_text(&request.game.start_text())
        .map_err(|e| PlayerError::Engine(format!("not a draughts game: {e}")))?;
    let mut line = format!("pos pos={}", hub_position(&start));
    let mut position = start;
    let mut moves = Vec::new();
    for text in request.game.history() {
        let mv = position
            .parse_move(text)
            .map_err(|e| PlayerError::Engine(format!("cannot replay the game: {e}")))?;
        moves.push(mv.hub());
        position.play(mv);
    }
    if !moves.is_empty() {
        line += &format!(" moves=\"{}\"", moves.join(" "));
    }
    Ok(line)
}

/// `level ...` for the limits. A clock is given as the time left and the
/// increment, refreshed before every move.
pub(crate) fn level_message(request: &MoveRequest<'_>) -> String {
    let limits: &Limits = &request.limits;
    if let Some(clock) = limits.clock {
        return format!(
            "level time={} inc={}",
            seconds(clock.remaining),
            seconds(clock.increment)
        );
    }
    if let Some(depth) = limits.depth {
        return format!("level depth={depth}");
    }
    if let Some(nodes) = limits.nodes {
        return format!("level nodes={nodes}");
    }
    if let Some(time) = limits.movetime {
        return format!("level move-time={}", seconds(time));
    }
    "level infinite".into()
}

impl Player for HubEngine {
    fn default_limits(&self) -> Limits {
        Limits::movetime(crate::player::EXTERNAL_DEFAULT_MOVETIME)
    }

    fn choose(&mut self, request: &MoveRequest<'_>) -> Result<String, PlayerError> {
        let started = Instant::now();
        let deadline = self.options.move_deadline(&request.limits, started);
        let position = position_message(request)?;
        self.process.send(&position)?;
        self.process.send(&level_message(request))?;
        self.process.send("go think")?;
        let answer = self.process.wait_for(
            deadline,
            |line| {
                let (command, fields) = parse_message(line);
                (command == "done").then(|| field(&fields, "move").map(str::to_string))
            },
            |line| {
                let (command, fields) = parse_message(line);
                if command == "error" {
                    let message = field(&fields, "message").unwrap_or(line);
                    return Err(ExternalError::Refused(message.to_string()));
                }
                Ok(())
            },
        );
        Ok(self
            .process
            .settle_move(answer, "done", "move", deadline - started)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plateau_games::GameSpec;
    use std::time::Duration;

    #[test]
    fn messages_split_into_fields() {
        let (command, fields) = parse_message("id name=Scan version=\"3.1 beta\" author");
        assert_eq!(command, "id");
        assert_eq!(field(&fields, "name"), Some("Scan"));
        assert_eq!(field(&fields, "version"), Some("3.1 beta"));
        assert_eq!(field(&fields, "author"), Some(""));
        assert_eq!(parse_message("  ").0, "");
        let (command, fields) = parse_message("done move=28x19x23 ponder=14x23");
        assert_eq!(command, "done");
        assert_eq!(field(&fields, "move"), Some("28x19x23"));
    }

    #[test]
    fn the_start_position_in_hub_form() {
        let text = hub_position(&Draughts::new());
        assert_eq!(text.len(), 51);
        assert_eq!(
            text,
            format!("W{}{}{}", "b".repeat(20), "e".repeat(10), "w".repeat(20))
        );
        let kings = Draughts::from_text("B:WK10,31:BK22,12").unwrap();
        let text = hub_position(&kings);
        assert_eq!(&text[..1], "B");
        assert_eq!(&text[10..11], "W");
        assert_eq!(&text[12..13], "b");
        assert_eq!(&text[22..23], "B");
        assert_eq!(&text[31..32], "w");
    }

    #[test]
    fn positions_carry_the_moves_in_hub_form() {
        let spec = GameSpec::lookup("draughts", None).unwrap();
        let mut game = spec.new_game();
        for mv in ["32-28", "19-23", "28x19", "14x23"] {
            game.play(mv).unwrap();
        }
        let request = MoveRequest {
            game: game.as_ref(),
            limits: Limits::depth(4),
            clocks: None,
        };
        let line = position_message(&request).unwrap();
        assert!(
            line.ends_with("moves=\"32-28 19-23 28x19x23 14x23x19\""),
            "{line}"
        );
        assert_eq!(level_message(&request), "level depth=4");
        let timed = MoveRequest {
            limits: Limits::clock(Duration::from_millis(61_500), Duration::from_secs(1)),
            ..request
        };
        assert_eq!(level_message(&timed), "level time=61.5 inc=1");
    }
}
