//! A tournament client: our engine as a player of the course arbiter.

use super::MAX_LINE;
use super::wire::{ServerMessage, colour_name};
use crate::limits::within_level;
use crate::line::{LineError, read_line};
use crate::net::connect_with_retry;
use plateau_core::{AnyGame, Rng, Side};
use plateau_games::{AnyEngine, EngineChoice, GameSpec, Limits};
use std::io::{BufReader, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// How the client connects and plays.
#[derive(Clone, Debug)]
pub struct ClientConfig {
    pub host: String,
    pub port: u16,
    /// The name line sent first.
    pub name: String,
    pub engine: EngineChoice,
    /// Threads per search (a `threads=` in `engine` wins).
    pub threads: usize,
    /// Thinking time per game, as the arbiter counts it.
    pub clock: Duration,
    /// Games to play on this connection before leaving; `None`: until the
    /// arbiter closes the connection between games.
    pub games: Option<u32>,
    /// Choose each placement and first move at random among this many best
    /// (1: always the best), so that a tournament does not replay one game.
    pub variety: usize,
    pub seed: u64,
    /// How long to keep trying to connect (the arbiter may start later).
    pub connect_timeout: Duration,
}

/// Part of the arbiter's grace period we use for free; the rest is margin.
const FREE_THINKING: Duration = Duration::from_millis(400);

/// How a client session went wrong.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("cannot connect to {address}: {reason}")]
    Connect { address: String, reason: String },
    #[error("connection lost: {0}")]
    ConnectionLost(String),
    #[error(
        "RULES MISMATCH: the arbiter accepted {mv:?} but it is illegal on our board ({reason}); position {position}"
    )]
    RulesMismatch {
        mv: String,
        reason: String,
        position: String,
    },
    #[error("engine failure: {0}")]
    Engine(String),
}

/// One game as the client saw it.
#[derive(Clone, Debug)]
pub struct ClientGame {
    pub colour: Side,
    /// `None`: a draw (`FIN! Egalité`).
    pub winner: Option<Side>,
    pub moves: Vec<String>,
    /// Our thinking time as the arbiter charges it (after its grace period).
    pub time_used: Duration,
}

/// A game in progress on the client's side.
struct Game {
    colour: Side,
    board: Box<dyn AnyGame>,
    remaining: Duration,
    time_used: Duration,
}

/// Connects, plays `config.games` games, and returns them. `log` receives one
/// line per event worth telling a tournament organiser.
pub fn run_client(
    config: &ClientConfig,
    log: &mut dyn FnMut(&str),
) -> Result<Vec<ClientGame>, ClientError> {
    let spec = GameSpec::lookup("escampe", None).map_err(|e| ClientError::Engine(e.0))?;
    let stream = connect(config)?;
    let mut writer = stream
        .try_clone()
        .map_err(|e| ClientError::ConnectionLost(e.to_string()))?;
    let mut reader = BufReader::new(stream);
    send(&mut writer, format!("{}\n", config.name).as_bytes())?;
    log(&format!(
        "connected to {}:{} as {:?}",
        config.host, config.port, config.name
    ));

    let mut engine = spec.engine_with(&config.engine.or_threads(config.threads), config.seed);
    let mut finished = Vec::new();
    let mut current: Option<Game> = None;
    let mut rng = Rng::new(config.seed ^ 0x5eed_0f7a_51e7);
    while config
        .games
        .is_none_or(|games| (finished.len() as u32) < games)
    {
        let line = match read_line(&mut reader, MAX_LINE) {
            Ok(line) => line,
            Err(LineError::TooLong(n)) => {
                log(&format!("ignored a line longer than {n} bytes"));
                continue;
            }
            Err(LineError::Closed) if current.is_none() && config.games.is_none() => {
                log(&format!(
                    "the arbiter closed the connection after {} games",
                    finished.len()
                ));
                break;
            }
            Err(err) => {
                let during = if current.is_some() {
                    " during a game"
                } else {
                    ""
                };
                return Err(ClientError::ConnectionLost(format!("{err}{during}")));
            }
        };
        match ServerMessage::parse(&line) {
            ServerMessage::Colour(colour) => {
                if current.is_some() {
                    log("a new colour arrived before FIN!: starting a new game");
                }
                log(&format!("playing {}", colour_name(colour)));
                engine.new_game();
                current = Some(Game {
                    colour,
                    board: spec.new_game(),
                    remaining: config.clock,
                    time_used: Duration::ZERO,
                });
            }
            ServerMessage::Turn(side) => {
                let Some(game) = current.as_mut() else {
                    log(&format!("ignored {line:?}: no game started"));
                    continue;
                };
                if side != game.colour {
                    continue;
                }
                if game.board.side_to_move() != side {
                    log(&format!(
                        "the arbiter says {} is to play but our board says {}",
                        colour_name(side),
                        colour_name(game.board.side_to_move())
                    ));
                }
                let started = Instant::now();
                let mv = if config.variety > 1 && game.board.history().len() < 4 {
                    choose_varied(engine.as_mut(), game, config.variety, &mut rng, log)?
                } else {
                    choose(engine.as_mut(), game)?
                };
                send(&mut writer, format!("{mv}\n").as_bytes())?;
                let spent = started.elapsed();
                let charged = spent.saturating_sub(FREE_THINKING);
                game.remaining = game.remaining.saturating_sub(charged);
                game.time_used += charged;
                game.board
                    .play(&mv)
                    .map_err(|e| ClientError::Engine(format!("our engine chose {mv}: {e}")))?;
                log(&format!(
                    "played {mv} in {} ms ({:.1} s left)",
                    spent.as_millis(),
                    game.remaining.as_secs_f64()
                ));
            }
            ServerMessage::Move(mv) => {
                let Some(game) = current.as_mut() else {
                    log(&format!("ignored {line:?}: no game started"));
                    continue;
                };
                if let Err(err) = game.board.play(&mv) {
                    let error = ClientError::RulesMismatch {
                        mv: mv.clone(),
                        reason: err.reason,
                        position: game.board.to_text(),
                    };
                    log(&error.to_string());
                    return Err(error);
                }
                log(&format!("opponent played {mv}"));
            }
            ServerMessage::End(winner) => {
                let Some(game) = current.take() else {
                    log(&format!("ignored {line:?}: no game started"));
                    continue;
                };
                let verdict = match winner {
                    Some(side) if side == game.colour => "we won",
                    Some(_) => "we lost",
                    None => "draw",
                };
                log(&format!(
                    "game over: {} ({verdict}) after {} plies, {:.1} s of thinking",
                    winner.map_or("Egalité", colour_name),
                    game.board.history().len(),
                    game.time_used.as_secs_f64()
                ));
                finished.push(ClientGame {
                    colour: game.colour,
                    winner,
                    moves: game.board.history().to_vec(),
                    time_used: game.time_used,
                });
            }
            ServerMessage::Unknown(text) => log(&format!("ignored unknown line {text:?}")),
        }
    }
    Ok(finished)
}

/// The engine's move within our clock: the arbiter grants about 500 ms before
/// it starts counting, of which we use `FREE_THINKING`.
fn choose(engine: &mut dyn AnyEngine, game: &Game) -> Result<String, ClientError> {
    let clock = Limits {
        clock: Some(plateau_games::Clock {
            remaining: game.remaining + FREE_THINKING,
            increment: Duration::ZERO,
            moves_to_go: None,
        }),
        ..Limits::default()
    };
    let limits = within_level(&engine.default_limits(), &clock);
    let thought = engine
        .think(game.board.as_ref(), &limits, &mut |_| {})
        .map_err(ClientError::Engine)?;
    Ok(thought.best)
}

/// How much worse than the best (in the engine's units, 100 = a clear
/// advantage) a move may score and still be chosen for variety.
pub const VARIETY_MARGIN: i32 = 50;

/// A placement or first move chosen at random among the `variety` best that
/// score within [`VARIETY_MARGIN`] of the best, the time shared among the
/// searches that find them.
fn choose_varied(
    engine: &mut dyn AnyEngine,
    game: &Game,
    variety: usize,
    rng: &mut Rng,
    log: &mut dyn FnMut(&str),
) -> Result<String, ClientError> {
    let share = variety as u32;
    let clock = Limits {
        clock: Some(plateau_games::Clock {
            remaining: (game.remaining + FREE_THINKING) / share,
            increment: Duration::ZERO,
            moves_to_go: None,
        }),
        ..Limits::default()
    };
    let limits = within_level(&engine.default_limits(), &clock);
    let mut found: Vec<(String, i32)> = Vec::new();
    let mut excluded: Vec<String> = Vec::new();
    while found.len() < variety {
        match engine.think_excluding(game.board.as_ref(), &limits, &excluded, &mut |_| {}) {
            Ok(thought) => {
                excluded.push(thought.best.clone());
                found.push((thought.best, thought.score));
            }
            // Fewer legal moves than asked for.
            Err(_) if !found.is_empty() => break,
            Err(err) => return Err(ClientError::Engine(err)),
        }
    }
    let best = found.iter().map(|(_, score)| *score).max().unwrap_or(0);
    let close: Vec<&(String, i32)> = found
        .iter()
        .filter(|(_, score)| *score >= best.saturating_sub(VARIETY_MARGIN))
        .collect();
    let Some((chosen, score)) = rng.choose(&close).copied() else {
        return Err(ClientError::Engine("no move found".into()));
    };
    log(&format!(
        "variety: chose {chosen} ({score}) among {}",
        close
            .iter()
            .map(|(mv, score)| format!("{mv} ({score})"))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    Ok(chosen.clone())
}

fn connect(config: &ClientConfig) -> Result<TcpStream, ClientError> {
    let address = format!("{}:{}", config.host, config.port);
    connect_with_retry(&address, config.connect_timeout)
        .map_err(|reason| ClientError::Connect { address, reason })
}

fn send(writer: &mut TcpStream, bytes: &[u8]) -> Result<(), ClientError> {
    writer
        .write_all(bytes)
        .and_then(|_| writer.flush())
        .map_err(|e| ClientError::ConnectionLost(e.to_string()))
}
