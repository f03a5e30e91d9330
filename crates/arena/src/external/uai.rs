//! The GUI side of UAI (Universal Ataxx Interface): `uai` -> `uaiok`,
//! `isready` -> `readyok`, `position startpos|fen F [moves ...]`, `go ...` ->
//! `bestmove M`. Moves are in plateau's Ataxx notation, which is UAI's
//! (`b6`, `g1e3`, `0000`). Black (`x`) moves first; `btime` is its clock.

use super::{ExternalError, ExternalOptions, Process};
use crate::player::{MoveRequest, Player, PlayerError};
use plateau_core::Side;
use plateau_games::{GameSpec, Limits};
use std::time::Instant;

/// An Ataxx engine program.
pub struct UaiEngine {
    process: Process,
    options: ExternalOptions,
    /// The standard start position's text: sent as `startpos`.
    startpos: String,
    /// What the engine calls itself (`id name`).
    pub engine_name: Option<String>,
}

impl UaiEngine {
    /// Starts the program and completes the handshake.
    pub fn start(
        command: &[String],
        spec: &GameSpec,
        options: &ExternalOptions,
    ) -> Result<UaiEngine, ExternalError> {
        let mut process = Process::spawn(command)?;
        let deadline = Instant::now() + options.handshake;
        process.send("uai")?;
        let mut engine_name = None;
        process
            .wait_for(
                deadline,
                |line| (line.trim() == "uaiok").then_some(()),
                |line| {
                    if let Some(name) = line.trim().strip_prefix("id name ") {
                        engine_name = Some(name.trim().to_string());
                    }
                    Ok(())
                },
            )
            .map_err(|e| handshake_error(e, "uaiok"))?;
        let mut engine = UaiEngine {
            process,
            options: *options,
            startpos: spec.new_game().start_text(),
            engine_name,
        };
        engine.ready(deadline)?;
        engine.process.send("uainewgame")?;
        engine.ready(Instant::now() + options.handshake)?;
        Ok(engine)
    }

    fn ready(&mut self, deadline: Instant) -> Result<(), ExternalError> {
        self.process.send("isready")?;
        self.process
            .wait_for(
                deadline,
                |line| (line.trim() == "readyok").then_some(()),
                |_| Ok(()),
            )
            .map_err(|e| handshake_error(e, "readyok"))
    }

    /// `position ...` for the game so far.
    fn position_line(&self, request: &MoveRequest<'_>) -> String {
        let start = request.game.start_text();
        let mut line = if start == self.startpos {
            "position startpos".to_string()
        } else {
            format!("position fen {start}")
        };
        let moves = request.game.history();
        if !moves.is_empty() {
            line.push_str(" moves ");
            line.push_str(&moves.join(" "));
        }
        line
    }
}

/// A handshake that failed names the answer that never came.
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

/// `go ...` for the limits (and both clocks when there is a clock).
pub(crate) fn go_line(request: &MoveRequest<'_>) -> String {
    let limits: &Limits = &request.limits;
    if let Some(clocks) = request.clocks {
        let ms = |side: Side| clocks.remaining[side.index()].as_millis();
        let inc = clocks.increment.as_millis();
        return format!(
            "go btime {} wtime {} binc {inc} winc {inc}",
            ms(Side::Black),
            ms(Side::White)
        );
    }
    let mut line = "go".to_string();
    if let Some(depth) = limits.depth {
        line += &format!(" depth {depth}");
    }
    if let Some(nodes) = limits.nodes {
        line += &format!(" nodes {nodes}");
    }
    if let Some(time) = limits.movetime {
        line += &format!(" movetime {}", time.as_millis());
    }
    if line == "go" {
        line += " infinite";
    }
    line
}

impl Player for UaiEngine {
    fn default_limits(&self) -> Limits {
        Limits::movetime(crate::player::EXTERNAL_DEFAULT_MOVETIME)
    }

    fn choose(&mut self, request: &MoveRequest<'_>) -> Result<String, PlayerError> {
        let started = Instant::now();
        let deadline = self.options.move_deadline(&request.limits, started);
        let position = self.position_line(request);
        self.process.send(&position)?;
        self.process.send(&go_line(request))?;
        let answer = self.process.wait_for(
            deadline,
            |line| {
                let mut words = line.split_whitespace();
                (words.next() == Some("bestmove")).then(|| words.next().map(str::to_string))
            },
            |_| Ok(()),
        );
        Ok(self
            .process
            .settle_move(answer, "bestmove", "bestmove", deadline - started)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::Clocks;
    use std::time::Duration;

    #[test]
    fn go_lines_follow_the_limits() {
        let spec = GameSpec::lookup("ataxx", None).unwrap();
        let game = spec.new_game();
        let request = |limits, clocks| MoveRequest {
            game: game.as_ref(),
            limits,
            clocks,
        };
        assert_eq!(go_line(&request(Limits::depth(3), None)), "go depth 3");
        assert_eq!(
            go_line(&request(Limits::movetime(Duration::from_millis(250)), None)),
            "go movetime 250"
        );
        assert_eq!(go_line(&request(Limits::default(), None)), "go infinite");
        let clocks = Clocks {
            remaining: [Duration::from_secs(5), Duration::from_secs(7)],
            increment: Duration::from_millis(100),
        };
        assert_eq!(
            go_line(&request(Limits::default(), Some(clocks))),
            "go btime 7000 wtime 5000 binc 100 winc 100"
        );
    }
}
