//! Our own arbiter, byte-compatible with the course's: it seats two clients,
//! runs placement and play, validates every move with plateau's rules, keeps
//! the clocks, and records every game. Bad clients lose; they never crash it.

use super::wire::{colour_line, colour_name, end_line, move_line, turn_line};
use super::{GRACE, MAX_LINE};
use crate::line::{LineError, read_line_until};
use plateau_core::Side;
use plateau_games::GameSpec;
use std::fmt::Write as _;
use std::io::{BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// How the arbiter runs.
#[derive(Clone, Debug)]
pub struct ArbiterConfig {
    /// Games in a row; the colours swap every game.
    pub games: u32,
    /// Thinking time per player and game.
    pub clock: Duration,
    /// Plies after which a game is declared drawn (`FIN! Egalité`).
    pub max_plies: usize,
    /// Where to write one record file per game.
    pub record: Option<PathBuf>,
    /// How long a new client has to send its name.
    pub name_timeout: Duration,
}

impl Default for ArbiterConfig {
    fn default() -> ArbiterConfig {
        ArbiterConfig {
            games: 1,
            clock: super::DEFAULT_CLOCK,
            max_plies: plateau_escampe::DEFAULT_MAX_PLIES as usize,
            record: None,
            name_timeout: Duration::from_secs(10),
        }
    }
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndReason {
    Capture,
    IllegalMove { text: String, reason: String },
    Timeout,
    Disconnected,
    PlyLimit,
}

impl std::fmt::Display for EndReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EndReason::Capture => f.write_str("unicorn captured"),
            EndReason::IllegalMove { text, reason } => write!(f, "illegal move {text:?}: {reason}"),
            EndReason::Timeout => f.write_str("out of time"),
            EndReason::Disconnected => f.write_str("disconnected"),
            EndReason::PlyLimit => f.write_str("ply limit"),
        }
    }
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// 1-based.
    pub number: u32,
    /// Names of the players, White first.
    pub names: [String; 2],
    /// Which seat (0 = first to connect) played White.
    pub white_seat: usize,
    /// Each accepted move: who played it, the move, the thinking time charged.
    pub moves: Vec<(Side, String, Duration)>,
    pub winner: Option<Side>,
    pub reason: EndReason,
    /// Thinking time charged, White first.
    pub times: [Duration; 2],
}

impl GameReport {
    /// The winning seat, if any.
    pub fn winning_seat(&self) -> Option<usize> {
        self.winner.map(|side| match side {
            Side::White => self.white_seat,
            Side::Black => 1 - self.white_seat,
        })
    }

    /// The record written to `--record DIR`.
    pub fn record_text(&self) -> String {
        let mut text = String::new();
        let _ = writeln!(text, "# plateau escampe arbiter, game {}", self.number);
        let _ = writeln!(text, "Blanc: {}", self.names[0]);
        let _ = writeln!(text, "Noir: {}", self.names[1]);
        let result = self.winner.map_or("Egalité", colour_name);
        let _ = writeln!(text, "Result: {result} ({})", self.reason);
        let _ = writeln!(
            text,
            "Time: Blanc {:.3} s, Noir {:.3} s",
            self.times[0].as_secs_f64(),
            self.times[1].as_secs_f64()
        );
        for (ply, (side, mv, spent)) in self.moves.iter().enumerate() {
            let by = colour_name(*side);
            let _ = writeln!(
                text,
                "{:>4} {by:<5} {mv:<20} {:.3} s",
                ply + 1,
                spent.as_secs_f64()
            );
        }
        text
    }
}

/// A connected client.
struct Seat {
    name: String,
    reader: BufReader<TcpStream>,
    writer: TcpStream,
    alive: bool,
}

impl Seat {
    fn send(&mut self, bytes: &[u8]) -> bool {
        if self.alive
            && self
                .writer
                .write_all(bytes)
                .and_then(|_| self.writer.flush())
                .is_err()
        {
            self.alive = false;
        }
        self.alive
    }
}

/// Runs `config.games` games with clients connecting to `listener`, calling
/// `log` with one line per event, and returns the reports.
pub fn run_arbiter(
    listener: &TcpListener,
    config: &ArbiterConfig,
    log: &mut dyn FnMut(&str),
) -> std::io::Result<Vec<GameReport>> {
    if let Some(dir) = &config.record {
        std::fs::create_dir_all(dir)?;
    }
    let mut seats: [Option<Seat>; 2] = [None, None];
    let mut reports = Vec::new();
    for number in 1..=config.games {
        for (index, seat) in seats.iter_mut().enumerate() {
            if seat.as_ref().is_none_or(|s| !s.alive) {
                *seat = Some(accept(listener, config, index, log)?);
            }
        }
        let [Some(first), Some(second)] = &mut seats else {
            unreachable!("both seats were just filled");
        };
        // The first to connect is Blanc in odd games, Noir in even ones.
        let white_seat = if number % 2 == 1 { 0 } else { 1 };
        let report = {
            let (white, black) = if white_seat == 0 {
                (first, second)
            } else {
                (second, first)
            };
            play_game(number, white, black, white_seat, config, log)
        };
        log(&format!(
            "game {number}: {} (Blanc) vs {} (Noir): {} ({}), {} plies",
            report.names[0],
            report.names[1],
            report.winner.map_or("Egalité", colour_name),
            report.reason,
            report.moves.len()
        ));
        if let Some(dir) = &config.record {
            let path = dir.join(format!("escampe-game-{number:03}.txt"));
            if let Err(err) = std::fs::write(&path, report.record_text()) {
                log(&format!("cannot write {}: {err}", path.display()));
            }
        }
        reports.push(report);
    }
    Ok(reports)
}

/// Waits for a client that sends a name line; clients that don't are dropped.
fn accept(
    listener: &TcpListener,
    config: &ArbiterConfig,
    index: usize,
    log: &mut dyn FnMut(&str),
) -> std::io::Result<Seat> {
    loop {
        let (stream, peer) = listener.accept()?;
        let _ = stream.set_nodelay(true);
        let writer = match stream.try_clone() {
            Ok(writer) => writer,
            Err(err) => {
                log(&format!("{peer}: {err}"));
                continue;
            }
        };
        let mut reader = BufReader::new(stream);
        match read_line_until(&mut reader, MAX_LINE, Instant::now() + config.name_timeout) {
            Ok(name) => {
                let name: String = name.chars().filter(|c| !c.is_control()).take(64).collect();
                let name = if name.trim().is_empty() {
                    format!("player {}", index + 1)
                } else {
                    name
                };
                log(&format!("{peer} joined as {name:?}"));
                return Ok(Seat {
                    name,
                    reader,
                    writer,
                    alive: true,
                });
            }
            Err(err) => log(&format!("{peer} dropped before sending its name: {err}")),
        }
    }
}

fn play_game(
    number: u32,
    white: &mut Seat,
    black: &mut Seat,
    white_seat: usize,
    config: &ArbiterConfig,
    log: &mut dyn FnMut(&str),
) -> GameReport {
    let mut report = GameReport {
        number,
        names: [white.name.clone(), black.name.clone()],
        white_seat,
        moves: Vec::new(),
        winner: None,
        reason: EndReason::PlyLimit,
        times: [Duration::ZERO; 2],
    };
    let spec = match GameSpec::lookup("escampe", None) {
        Ok(spec) => spec,
        Err(err) => unreachable!("escampe is registered: {err}"),
    };
    let mut game = spec.new_game();
    white.send(&colour_line(Side::White));
    black.send(&colour_line(Side::Black));
    let mut remaining = [config.clock; 2];
    let (winner, reason) = loop {
        if report.moves.len() >= config.max_plies {
            break (None, EndReason::PlyLimit);
        }
        let side = game.side_to_move();
        let (player, other) = match side {
            Side::White => (&mut *white, &mut *black),
            Side::Black => (&mut *black, &mut *white),
        };
        player.send(&turn_line(side));
        other.send(&turn_line(side));
        if !player.alive {
            break (Some(!side), EndReason::Disconnected);
        }
        let asked = Instant::now();
        let deadline = asked + GRACE + remaining[side.index()];
        let answer = read_line_until(&mut player.reader, MAX_LINE, deadline);
        let charged = asked.elapsed().saturating_sub(GRACE);
        report.times[side.index()] += charged.min(remaining[side.index()]);
        let text = match answer {
            Ok(text) => text,
            Err(LineError::TimedOut) => break (Some(!side), EndReason::Timeout),
            Err(LineError::Closed | LineError::Io(_)) => {
                player.alive = false;
                break (Some(!side), EndReason::Disconnected);
            }
            Err(err @ LineError::TooLong(_)) => {
                break (
                    Some(!side),
                    EndReason::IllegalMove {
                        text: String::from("(overlong line)"),
                        reason: err.to_string(),
                    },
                );
            }
        };
        if charged > remaining[side.index()] {
            break (Some(!side), EndReason::Timeout);
        }
        remaining[side.index()] -= charged;
        let text = text.trim().to_string();
        if let Err(err) = game.play(&text) {
            log(&format!(
                "game {number}: {} ({}) sent {text:?}: {}",
                player.name,
                colour_name(side),
                err.reason
            ));
            break (
                Some(!side),
                EndReason::IllegalMove {
                    text,
                    reason: err.reason,
                },
            );
        }
        report.moves.push((side, text.clone(), charged));
        other.send(&move_line(&text));
        if let Some(outcome) = game.outcome() {
            match outcome.winner {
                Some(winner) => break (Some(winner), EndReason::Capture),
                None => break (None, EndReason::PlyLimit),
            }
        }
        if !other.alive {
            break (Some(side), EndReason::Disconnected);
        }
    };
    let end = end_line(winner);
    white.send(&end);
    black.send(&end);
    report.winner = winner;
    report.reason = reason;
    report
}

/// The summary table printed after a series: one row per seat.
pub fn summary(reports: &[GameReport]) -> String {
    let mut rows: Vec<(String, u32, u32, u32)> = Vec::new();
    for seat in 0..2 {
        let name = reports
            .iter()
            .rev()
            .map(|r| r.names[if r.white_seat == seat { 0 } else { 1 }].clone())
            .next()
            .unwrap_or_default();
        let (mut wins, mut draws, mut losses) = (0, 0, 0);
        for report in reports {
            match report.winning_seat() {
                Some(s) if s == seat => wins += 1,
                Some(_) => losses += 1,
                None => draws += 1,
            }
        }
        rows.push((name, wins, draws, losses));
    }
    let mut text = format!(
        "{:<24} {:>5} {:>5} {:>5} {:>7}\n",
        "player", "won", "drawn", "lost", "points"
    );
    for (name, wins, draws, losses) in rows {
        let _ = writeln!(
            text,
            "{:<24} {wins:>5} {draws:>5} {losses:>5} {:>7.1}",
            name.chars().take(24).collect::<String>(),
            wins as f64 + 0.5 * draws as f64
        );
    }
    let mut reasons: Vec<(String, u32)> = Vec::new();
    for report in reports {
        let key = match &report.reason {
            EndReason::IllegalMove { .. } => "illegal move".to_string(),
            other => other.to_string(),
        };
        match reasons.iter_mut().find(|(k, _)| *k == key) {
            Some((_, n)) => *n += 1,
            None => reasons.push((key, 1)),
        }
    }
    let endings: Vec<String> = reasons.iter().map(|(k, n)| format!("{n} {k}")).collect();
    let _ = writeln!(text, "endings: {}", endings.join(", "));
    text
}
