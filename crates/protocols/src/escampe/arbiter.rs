//! Our own arbiter, byte-compatible with the course's: it seats the clients,
//! runs placement and play, validates every move with plateau's rules, keeps
//! the clocks, and records every game. Bad clients lose; they never crash it.
//!
//! With two players it is the course's match; with more, a round robin where
//! every pair plays the same number of games, colours swapped. A game only
//! starts once both seats are known to be connected (see [`super::lobby`]),
//! and a game whose player left before making a single move is not scored:
//! it is played again when the player is back.

use super::lobby::{Event, Lobby, Seat, accept_clients};
use super::openings::Opening;
use super::wire::{colour_line, colour_name, end_line, move_line, turn_line};
use super::{GRACE, MAX_LINE};
use crate::line::{LineError, read_line_until};
use plateau_arena::Crosstable;
use plateau_core::Side;
use plateau_games::GameSpec;
use std::collections::VecDeque;
use std::fmt::Write as _;
use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

/// How the arbiter runs.
#[derive(Clone, Debug)]
pub struct ArbiterConfig {
    /// Players in the tournament (2: a match between two programs).
    pub players: usize,
    /// Games every pair of players plays; the colours swap every game.
    pub games_per_pair: u32,
    /// Thinking time per player and game.
    pub clock: Duration,
    /// Plies after which a game is declared drawn (`FIN! Egalité`).
    pub max_plies: usize,
    /// Where to write one record file per game.
    pub record: Option<PathBuf>,
    /// How long a new client has to send its name.
    pub name_timeout: Duration,
    /// How long to wait for a player whose seat is empty before a game (the
    /// course's clients exit after each game and must be started again).
    pub seat_timeout: Duration,
    /// How long to give a client that has just received `FIN!` to close its
    /// connection before looking whether it is still there.
    pub settle: Duration,
    /// Set openings, each played with both colours; empty: free placements.
    pub openings: Vec<Opening>,
}

impl Default for ArbiterConfig {
    fn default() -> ArbiterConfig {
        ArbiterConfig {
            players: 2,
            games_per_pair: 1,
            clock: super::DEFAULT_CLOCK,
            max_plies: plateau_escampe::DEFAULT_MAX_PLIES as usize,
            record: None,
            name_timeout: Duration::from_secs(10),
            seat_timeout: Duration::from_secs(60),
            settle: Duration::from_millis(250),
            openings: Vec::new(),
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
    /// 1-based, in the order the games were played.
    pub number: u32,
    /// Names the clients sent for this game, Blanc first.
    pub names: [String; 2],
    /// Tournament players (numbered from 0 in the order they registered),
    /// Blanc first.
    pub players: [usize; 2],
    /// The opening imposed, if any, as its file line.
    pub opening: Option<String>,
    /// Each accepted move: who played it, the move, the thinking time charged
    /// (zero for a placement the opening imposed).
    pub moves: Vec<(Side, String, Duration)>,
    pub winner: Option<Side>,
    pub reason: EndReason,
    /// Thinking time charged, Blanc first.
    pub times: [Duration; 2],
}

impl GameReport {
    /// The winning player's number, if any.
    pub fn winning_player(&self) -> Option<usize> {
        self.winner.map(|side| self.players[side.index()])
    }

    /// 1, 0.5 or 0 for Blanc.
    pub fn blanc_score(&self) -> f64 {
        match self.winner {
            Some(Side::White) => 1.0,
            Some(Side::Black) => 0.0,
            None => 0.5,
        }
    }

    /// The record written to `--record DIR`.
    pub fn record_text(&self) -> String {
        let mut text = String::new();
        let _ = writeln!(text, "# plateau escampe arbiter, game {}", self.number);
        let _ = writeln!(text, "Blanc: {}", self.names[0]);
        let _ = writeln!(text, "Noir: {}", self.names[1]);
        if let Some(opening) = &self.opening {
            let _ = writeln!(text, "Opening: {opening}");
        }
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

/// A game of the schedule: who plays Blanc, who plays Noir, and the opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// Blanc's and Noir's player numbers.
    pub players: [usize; 2],
    pub opening: Option<usize>,
}

/// A scheduled game that was never played, and why.
#[derive(Clone, Debug)]
pub struct Unplayed {
    pub pairing: Pairing,
    pub reason: String,
}

/// What a tournament produced.
#[derive(Clone, Debug)]
pub struct Tournament {
    /// The players, numbered by registration order.
    pub names: Vec<String>,
    pub reports: Vec<GameReport>,
    pub unplayed: Vec<Unplayed>,
}

impl Tournament {
    /// Every played game, scored.
    pub fn crosstable(&self) -> Crosstable {
        let mut table = Crosstable::new(self.names.clone());
        for report in &self.reports {
            table.add(report.players[0], report.players[1], report.blanc_score());
        }
        table
    }

    /// Standings, crosstable, how games ended, and what was not played.
    pub fn summary(&self) -> String {
        let mut text = self.crosstable().render();
        let mut reasons: Vec<(String, u32)> = Vec::new();
        for report in &self.reports {
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
        let _ = writeln!(
            text,
            "\n{} games played; endings: {}",
            self.reports.len(),
            if endings.is_empty() {
                "none".to_string()
            } else {
                endings.join(", ")
            }
        );
        for game in &self.unplayed {
            let [blanc, noir] = game.pairing.players;
            let _ = writeln!(
                text,
                "not played: {} (Blanc) vs {} (Noir): {}",
                self.names[blanc], self.names[noir], game.reason
            );
        }
        text
    }
}

/// The games of a round robin among `players`, each pair `games_per_pair`
/// times with the colours swapping, in rounds made by the circle method so
/// that everyone plays once before anyone plays twice. With set openings,
/// each opening is played twice in a row by a pair, colours swapped.
pub fn schedule(players: usize, games_per_pair: u32, openings: usize) -> Vec<Pairing> {
    let mut order: Vec<Option<usize>> = (0..players).map(Some).collect();
    if order.len() % 2 == 1 {
        order.push(None);
    }
    let seats = order.len();
    let mut games = Vec::new();
    for cycle in 0..games_per_pair as usize {
        let mut rotation = order.clone();
        for round in 0..seats.saturating_sub(1) {
            for i in 0..seats / 2 {
                if let (Some(a), Some(b)) = (rotation[i], rotation[seats - 1 - i]) {
                    let players = if (cycle + round) % 2 == 0 {
                        [a, b]
                    } else {
                        [b, a]
                    };
                    games.push(Pairing {
                        players,
                        opening: (openings > 0).then(|| (cycle / 2) % openings),
                    });
                }
            }
            rotation[1..].rotate_right(1);
        }
    }
    games
}

/// How often a game whose player left before its first move is tried again.
const ATTEMPTS: u32 = 3;

/// Runs the tournament with clients connecting to `listener`: waits until
/// `config.players` have registered, plays the schedule, and returns every
/// game. `log` receives one line per event.
pub fn run_arbiter(
    listener: &TcpListener,
    config: &ArbiterConfig,
    log: &mut dyn FnMut(&str),
) -> std::io::Result<Tournament> {
    if let Some(dir) = &config.record {
        std::fs::create_dir_all(dir)?;
    }
    let players = config.players.max(2);
    let stop = AtomicBool::new(false);
    let (events, arrivals) = channel::<Event>();
    /// Stops the accepting thread however the schedule ends, a panic
    /// included (else the scope would wait for it forever).
    struct StopOnDrop<'a>(&'a AtomicBool);
    impl Drop for StopOnDrop<'_> {
        fn drop(&mut self) {
            self.0.store(true, Ordering::Relaxed);
        }
    }
    std::thread::scope(|scope| {
        accept_clients(scope, listener, config.name_timeout, events, &stop)?;
        let _stop = StopOnDrop(&stop);
        let mut lobby = Lobby::new(arrivals, players, config.settle);
        let result = run_schedule(&mut lobby, players, config, log);
        lobby.close_all();
        Ok(result)
    })
}

fn run_schedule(
    lobby: &mut Lobby,
    players: usize,
    config: &ArbiterConfig,
    log: &mut dyn FnMut(&str),
) -> Tournament {
    log(&format!("waiting for {players} players"));
    lobby.register_all(log);
    let names = lobby.names();
    let mut queue: VecDeque<(Pairing, u32)> =
        schedule(players, config.games_per_pair, config.openings.len())
            .into_iter()
            .map(|pairing| (pairing, 0))
            .collect();
    log(&format!(
        "{} games to play: {}",
        queue.len(),
        names.join(", ")
    ));
    let mut reports: Vec<GameReport> = Vec::new();
    let mut unplayed = Vec::new();
    while let Some((pairing, tries)) = queue.pop_front() {
        let [blanc, noir] = pairing.players;
        let missing = [blanc, noir]
            .into_iter()
            .find(|&p| !lobby.seat(p, config.seat_timeout, log));
        if let Some(player) = missing {
            let reason = format!("{} was not connected", names[player]);
            log(&format!(
                "not played: {} (Blanc) vs {} (Noir): {reason}",
                names[blanc], names[noir]
            ));
            unplayed.push(Unplayed { pairing, reason });
            continue;
        }
        let Some((white, black)) = lobby.pair(blanc, noir) else {
            unreachable!("both players were just seated");
        };
        let number = reports.len() as u32 + 1;
        let opening = pairing.opening.and_then(|i| config.openings.get(i));
        match play_game(number, white, black, pairing.players, opening, config, log) {
            Played::Game(report) => {
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
            Played::NotStarted { left } => {
                let name = &names[pairing.players[left.index()]];
                if tries + 1 < ATTEMPTS {
                    log(&format!(
                        "game {number} not scored: {name} left before its first move; it will be played again"
                    ));
                    queue.push_front((pairing, tries + 1));
                } else {
                    let reason = format!("{name} left before its first move {ATTEMPTS} times");
                    log(&format!("not played: {reason}"));
                    unplayed.push(Unplayed { pairing, reason });
                }
            }
        }
    }
    Tournament {
        names,
        reports,
        unplayed,
    }
}

/// How a game went.
enum Played {
    Game(GameReport),
    /// The player of side `left` disconnected before sending anything: the
    /// game never really started.
    NotStarted {
        left: Side,
    },
}

fn play_game(
    number: u32,
    white: &mut Seat,
    black: &mut Seat,
    players: [usize; 2],
    opening: Option<&Opening>,
    config: &ArbiterConfig,
    log: &mut dyn FnMut(&str),
) -> Played {
    let mut report = GameReport {
        number,
        names: [white.name.clone(), black.name.clone()],
        players,
        opening: opening.map(Opening::text),
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
    // Whether each side has sent anything in this game: leaving before that
    // is an empty seat, not a lost game.
    let mut answered = [false; 2];
    let outcome = loop {
        if report.moves.len() >= config.max_plies {
            break Ok((None, EndReason::PlyLimit));
        }
        let side = game.side_to_move();
        let (player, other) = match side {
            Side::White => (&mut *white, &mut *black),
            Side::Black => (&mut *black, &mut *white),
        };
        if let Some(placement) = imposed(opening, side, game.as_ref()) {
            // The arbiter places for this side and tells both clients.
            if let Err(err) = game.play(&placement) {
                unreachable!("an imposed placement is checked first: {err}");
            }
            report.moves.push((side, placement.clone(), Duration::ZERO));
            player.send(&move_line(&placement));
            other.send(&move_line(&placement));
            continue;
        }
        player.send(&turn_line(side));
        other.send(&turn_line(side));
        if !player.alive {
            break disconnected(side, &answered);
        }
        let asked = Instant::now();
        let deadline = asked + GRACE + remaining[side.index()];
        let answer = read_line_until(&mut player.reader, MAX_LINE, deadline);
        let charged = asked.elapsed().saturating_sub(GRACE);
        report.times[side.index()] += charged.min(remaining[side.index()]);
        let text = match answer {
            Ok(text) => text,
            Err(LineError::TimedOut) => break Ok((Some(!side), EndReason::Timeout)),
            Err(LineError::Closed | LineError::Io(_)) => {
                player.alive = false;
                break disconnected(side, &answered);
            }
            Err(err @ LineError::TooLong(_)) => {
                break Ok((
                    Some(!side),
                    EndReason::IllegalMove {
                        text: String::from("(overlong line)"),
                        reason: err.to_string(),
                    },
                ));
            }
        };
        answered[side.index()] = true;
        if charged > remaining[side.index()] {
            break Ok((Some(!side), EndReason::Timeout));
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
            break Ok((
                Some(!side),
                EndReason::IllegalMove {
                    text,
                    reason: err.reason,
                },
            ));
        }
        report.moves.push((side, text.clone(), charged));
        other.send(&move_line(&text));
        if let Some(outcome) = game.outcome() {
            match outcome.winner {
                Some(winner) => break Ok((Some(winner), EndReason::Capture)),
                None => break Ok((None, EndReason::PlyLimit)),
            }
        }
        if !other.alive {
            break disconnected(!side, &answered);
        }
    };
    let (winner, reason) = match outcome {
        Ok(end) => end,
        Err(left) => {
            // Unscored: the one still there hears a draw so that any client,
            // the course's included, starts afresh.
            let end = end_line(None);
            for seat in [white, black] {
                seat.send(&end);
                seat.game_ended = Some(Instant::now());
            }
            return Played::NotStarted { left };
        }
    };
    let end = end_line(winner);
    for seat in [white, black] {
        seat.send(&end);
        seat.game_ended = Some(Instant::now());
    }
    report.winner = winner;
    report.reason = reason;
    Played::Game(report)
}

/// The end of a game where `side` disconnected: a loss, unless it never
/// answered anything in this game (then `Err`: the game did not start).
fn disconnected(side: Side, answered: &[bool; 2]) -> Result<(Option<Side>, EndReason), Side> {
    if answered[side.index()] {
        Ok((Some(!side), EndReason::Disconnected))
    } else {
        Err(side)
    }
}

/// The placement the opening imposes on `side` now, if it is placing.
fn imposed(
    opening: Option<&Opening>,
    side: Side,
    game: &dyn plateau_core::AnyGame,
) -> Option<String> {
    let opening = opening?;
    let placing = game.history().len() < 2;
    match side {
        Side::Black if placing && game.history().is_empty() => opening.noir.clone(),
        Side::White if placing && game.history().len() == 1 => opening.blanc_in(game),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_players_alternate_colours_first_to_connect_is_blanc() {
        let games = schedule(2, 4, 0);
        let colours: Vec<[usize; 2]> = games.iter().map(|g| g.players).collect();
        assert_eq!(colours, [[0, 1], [1, 0], [0, 1], [1, 0]]);
    }

    #[test]
    fn a_round_robin_pairs_everyone_equally_with_both_colours() {
        for players in 2..=7 {
            let games = schedule(players, 4, 0);
            assert_eq!(games.len(), players * (players - 1) / 2 * 4, "{players}");
            for a in 0..players {
                for b in 0..players {
                    if a == b {
                        continue;
                    }
                    let as_blanc = games.iter().filter(|g| g.players == [a, b]).count();
                    assert_eq!(as_blanc, 2, "{players} players: {a} as Blanc against {b}");
                }
            }
            // Within each cycle, nobody plays twice before everyone has played once.
            let first_round = &games[..players / 2];
            let mut seen: Vec<usize> = first_round.iter().flat_map(|g| g.players).collect();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), 2 * (players / 2));
        }
    }

    #[test]
    fn each_opening_is_played_with_both_colours() {
        let games = schedule(2, 6, 2);
        let openings: Vec<Option<usize>> = games.iter().map(|g| g.opening).collect();
        assert_eq!(
            openings,
            [Some(0), Some(0), Some(1), Some(1), Some(0), Some(0)]
        );
        assert_ne!(games[0].players, games[1].players);
    }
}
