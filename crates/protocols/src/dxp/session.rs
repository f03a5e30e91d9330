//! A DamExchange session, either side: the initiator proposes games (colours
//! alternating), the follower accepts them; both then play with the same game
//! loop. Whatever the peer sends, the session logs it and goes on or ends
//! cleanly: it never panics and never plays on from a position it doubts.

use super::peer::{Incoming, Peer};
use super::record::GameRecord;
use super::wire::{AcceptCode, BackCode, GameRequest, Message, StartPosition, VERSION};
use crate::draughts_wire::{DXP, position_from_squares, squares_text};
use plateau_core::{Game, Side};
use plateau_draughts::Draughts;
use plateau_games::{AnyEngine, EngineChoice, GameSpec};
use std::net::TcpStream;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// How a session runs.
#[derive(Clone, Debug)]
pub struct DxpConfig {
    /// Our name in GAMEREQ and GAMEACC (cut to 32 characters).
    pub name: String,
    pub engine: EngineChoice,
    pub seed: u64,
    /// Threads per search (a `threads=` in `engine` wins); 1 unless set.
    pub threads: usize,
    /// Initiator: the games to propose. Follower: the most it accepts (`None`:
    /// as many as the initiator proposes).
    pub games: Option<u32>,
    /// Initiator: each side's thinking time for a game, in minutes (0: none).
    pub minutes: u16,
    /// Initiator: the moves after which a game stops without result (0: none).
    pub moves: u16,
    /// Initiator: where the games start, one opening per pair of games (each
    /// played with both colours, in turn); empty: the normal start.
    pub openings: Vec<Draughts>,
    /// Where to write the PDN of every game (rewritten after each game).
    pub pdn: Option<PathBuf>,
    /// Time a peer may take beyond its clock before the game is ended on time.
    pub grace: Duration,
    /// The longest wait for a message that no clock bounds (a GAMEREQ, a
    /// GAMEACC, the echo of a GAMEEND, a move in a game without clock).
    pub idle_timeout: Duration,
    /// Search while the peer thinks (the position with the peer to move):
    /// our next search starts from what the table learnt meanwhile. Only
    /// fair when each program has its own cores.
    pub ponder: bool,
}

impl DxpConfig {
    /// A session of `engine` with the defaults of `plateau dxp`.
    pub fn new(engine: EngineChoice) -> DxpConfig {
        DxpConfig {
            name: format!("plateau {}", engine.name()),
            engine,
            seed: 0,
            threads: 1,
            games: None,
            minutes: 5,
            moves: 0,
            openings: Vec::new(),
            pdn: None,
            grace: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(600),
            ponder: false,
        }
    }
}

/// Why a session could not run (what the peer does is logged, never an error).
#[derive(Debug, thiserror::Error)]
pub enum DxpError {
    #[error("the registry has no draughts: {0}")]
    Registry(String),
    #[error("cannot use the connection: {0}")]
    Connection(std::io::Error),
    #[error("cannot write {path}: {source}")]
    Pdn {
        path: String,
        source: std::io::Error,
    },
}

/// What the session does after a game.
#[derive(Debug)]
pub(super) enum Next {
    Continue,
    /// The peer asked to stop, left, or stopped answering.
    Stop,
    /// The follower got a new GAMEREQ in the middle of a game.
    Request(GameRequest),
}

/// A game about to start.
pub(super) struct Setup {
    pub(super) number: u32,
    pub(super) our_side: Side,
    pub(super) start: Draughts,
    pub(super) minutes: u16,
    pub(super) move_limit: u16,
    /// Names, White first.
    pub(super) names: [String; 2],
    /// The stop code of the GAMEEND we send: this is our last game.
    pub(super) last: bool,
}

/// Which side of the protocol this session is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Role {
    Initiator,
    Follower,
}

pub(super) struct Session<'a> {
    pub(super) role: Role,
    pub(super) peer: Peer,
    pub(super) config: &'a DxpConfig,
    pub(super) engine: Box<dyn AnyEngine>,
    pub(super) spec: GameSpec,
    pub(super) log: &'a mut dyn FnMut(&str),
    pub(super) records: Vec<GameRecord>,
}

/// Plays as the initiator on `stream`: proposes `config.games` games (1 if
/// unset), playing White in the odd ones, each pair from the next of
/// `config.openings` (going round), and returns their records.
pub fn run_initiator(
    stream: TcpStream,
    config: &DxpConfig,
    log: &mut dyn FnMut(&str),
) -> Result<Vec<GameRecord>, DxpError> {
    let mut session = Session::new(Role::Initiator, stream, config, log)?;
    let games = config.games.unwrap_or(1).max(1);
    for number in 1..=games {
        let start = match config.openings.len() {
            0 => Draughts::default(),
            len => config.openings[((number - 1) / 2) as usize % len].clone(),
        };
        let our_side = if number % 2 == 1 {
            Side::White
        } else {
            Side::Black
        };
        let request = GameRequest {
            version: VERSION,
            name: config.name.clone(),
            follower: !our_side,
            minutes: config.minutes,
            moves: config.moves,
            start: if start.to_text() == Draughts::new().to_text() {
                StartPosition::Initial
            } else {
                StartPosition::Setup {
                    to_move: start.side_to_move(),
                    squares: squares_text(&start, &DXP),
                }
            },
        };
        if !session.send(&Message::GameRequest(request)) {
            break;
        }
        let Some(peer_name) = session.await_acceptance(number) else {
            break;
        };
        let Some(peer_name) = peer_name else {
            continue;
        };
        let names = match our_side {
            Side::White => [config.name.clone(), peer_name],
            Side::Black => [peer_name, config.name.clone()],
        };
        let setup = Setup {
            number,
            our_side,
            start: start.clone(),
            minutes: config.minutes,
            move_limit: config.moves,
            names,
            last: number == games,
        };
        match session.play(setup)? {
            Next::Continue => {}
            Next::Stop => break,
            Next::Request(_) => {
                (session.log)(
                    "the follower sent a GAMEREQ, which only an initiator may send; stopping",
                );
                break;
            }
        }
    }
    session.peer.close();
    Ok(session.records)
}

/// Plays as the follower on `stream`: accepts the games the initiator
/// proposes (up to `config.games`) until it stops or leaves.
pub fn run_follower(
    stream: TcpStream,
    config: &DxpConfig,
    log: &mut dyn FnMut(&str),
) -> Result<Vec<GameRecord>, DxpError> {
    let mut session = Session::new(Role::Follower, stream, config, log)?;
    let mut pending: Option<GameRequest> = None;
    loop {
        let request = match pending.take() {
            Some(request) => request,
            None => match session.await_request() {
                Some(request) => request,
                None => break,
            },
        };
        let accepted = session.records.len() as u32;
        if config.games.is_some_and(|limit| accepted >= limit) {
            (session.log)(&format!(
                "declining game {}: {accepted} games were agreed",
                accepted + 1
            ));
            session.send(&session.accept_message(AcceptCode::DeclineAll));
            break;
        }
        let Some(setup) = session.consider(&request) else {
            continue;
        };
        if !session.send(&session.accept_message(AcceptCode::Accept)) {
            break;
        }
        match session.play(setup)? {
            Next::Continue => {}
            Next::Stop => break,
            Next::Request(request) => pending = Some(request),
        }
    }
    session.peer.close();
    Ok(session.records)
}

impl<'a> Session<'a> {
    fn new(
        role: Role,
        stream: TcpStream,
        config: &'a DxpConfig,
        log: &'a mut dyn FnMut(&str),
    ) -> Result<Session<'a>, DxpError> {
        let spec = GameSpec::lookup("draughts", None).map_err(|e| DxpError::Registry(e.0))?;
        if let Ok(peer) = stream.peer_addr() {
            log(&format!("connected to {peer}"));
        }
        Ok(Session {
            role,
            peer: Peer::new(stream).map_err(DxpError::Connection)?,
            engine: spec.engine_with(&config.engine.or_threads(config.threads), config.seed),
            spec,
            config,
            log,
            records: Vec::new(),
        })
    }

    /// Sends a message; `false` (logged) when the peer is gone.
    pub(super) fn send(&mut self, message: &Message) -> bool {
        send_on(&mut self.peer, self.log, message)
    }

    fn accept_message(&self, code: AcceptCode) -> Message {
        Message::GameAccept {
            name: self.config.name.clone(),
            code,
        }
    }

    /// Handles what may arrive at any time (CHAT, BACKREQ) and what is not
    /// a message at all; returns anything else to the caller.
    pub(super) fn receive(&mut self, deadline: Instant) -> Incoming {
        receive_on(&mut self.peer, self.log, deadline)
    }

    /// Initiator: the follower's answer to a GAMEREQ. `None`: stop the
    /// session; `Some(None)`: this game was declined; `Some(Some(name))`: accepted.
    fn await_acceptance(&mut self, number: u32) -> Option<Option<String>> {
        let deadline = Instant::now() + self.config.idle_timeout;
        loop {
            match self.receive(deadline) {
                Incoming::Message(Message::GameAccept { name, code }) => {
                    return match code {
                        AcceptCode::Accept => {
                            (self.log)(&format!("game {number}: {name} accepted"));
                            Some(Some(name))
                        }
                        AcceptCode::DeclineThisGame => {
                            (self.log)(&format!("game {number}: {name} declined this game"));
                            Some(None)
                        }
                        AcceptCode::WrongVersion => {
                            (self.log)(&format!(
                                "{name} does not speak DamExchange version {VERSION:02}; stopping"
                            ));
                            None
                        }
                        AcceptCode::DeclineAll => {
                            (self.log)(&format!("{name} wants no more games; stopping"));
                            None
                        }
                    };
                }
                Incoming::Message(other) => (self.log)(&format!(
                    "ignored a {} while waiting for GAMEACC",
                    other.kind()
                )),
                Incoming::TimedOut => {
                    (self.log)("no GAMEACC in time; stopping");
                    return None;
                }
                Incoming::Gone(reason) => {
                    (self.log)(&format!("the follower left before answering: {reason}"));
                    return None;
                }
                Incoming::Malformed { .. } => {}
            }
        }
    }

    /// Follower: the next GAMEREQ, or `None` when the session is over.
    fn await_request(&mut self) -> Option<GameRequest> {
        let deadline = Instant::now() + self.config.idle_timeout;
        loop {
            match self.receive(deadline) {
                Incoming::Message(Message::GameRequest(request)) => return Some(request),
                Incoming::Message(Message::GameEnd { stop: true, .. }) => {
                    (self.log)("the initiator ends the session");
                    return None;
                }
                Incoming::Message(other) => {
                    (self.log)(&format!("ignored a {} outside a game", other.kind()))
                }
                Incoming::TimedOut => {
                    (self.log)("no GAMEREQ in time; stopping");
                    return None;
                }
                Incoming::Gone(_) => {
                    (self.log)("the initiator closed the connection");
                    return None;
                }
                Incoming::Malformed { .. } => {}
            }
        }
    }

    /// Follower: checks a GAMEREQ; declines it (and says why) or returns the game.
    fn consider(&mut self, request: &GameRequest) -> Option<Setup> {
        let number = self.records.len() as u32 + 1;
        if request.version != VERSION {
            (self.log)(&format!(
                "declining: {} speaks DamExchange version {:02}, plateau {VERSION:02}",
                request.name, request.version
            ));
            self.send(&self.accept_message(AcceptCode::WrongVersion));
            return None;
        }
        let start = match &request.start {
            StartPosition::Initial => Ok(Draughts::new()),
            StartPosition::Setup { to_move, squares } => {
                position_from_squares(*to_move, squares, &DXP)
            }
        };
        let refusal = match &start {
            Ok(start) => start
                .outcome()
                .map(|outcome| format!("the game is already over there ({outcome})")),
            Err(reason) => Some(reason.clone()),
        };
        let start = match (start, refusal) {
            (Ok(start), None) => start,
            (_, refusal) => {
                (self.log)(&format!(
                    "declining the proposed position: {}",
                    refusal.unwrap_or_default()
                ));
                self.send(&self.accept_message(AcceptCode::DeclineThisGame));
                return None;
            }
        };
        let our_side = request.follower;
        let names = match our_side {
            Side::White => [self.config.name.clone(), request.name.clone()],
            Side::Black => [request.name.clone(), self.config.name.clone()],
        };
        (self.log)(&format!(
            "game {number}: accepted {}'s game, playing {our_side}, {} min each, {}",
            request.name,
            request.minutes,
            if request.moves == 0 {
                "no move limit".to_string()
            } else {
                format!("{} moves", request.moves)
            }
        ));
        let last = self.config.games.is_some_and(|limit| number >= limit);
        Some(Setup {
            number,
            our_side,
            start,
            minutes: request.minutes,
            move_limit: request.moves,
            names,
            last,
        })
    }
}

/// [`Session::send`] on the session's parts, for a caller that lends the
/// engine to another thread meanwhile.
pub(super) fn send_on(peer: &mut Peer, log: &mut dyn FnMut(&str), message: &Message) -> bool {
    match peer.send(message) {
        Ok(()) => true,
        Err(reason) => {
            log(&format!("cannot send {}: {reason}", message.kind()));
            false
        }
    }
}

/// [`Session::receive`] on the session's parts: answers CHAT (logged) and
/// BACKREQ (declined) and logs what is not a message, until something else
/// arrives, the deadline passes or the peer leaves.
pub(super) fn receive_on(
    peer: &mut Peer,
    log: &mut dyn FnMut(&str),
    deadline: Instant,
) -> Incoming {
    loop {
        match peer.receive(deadline) {
            Incoming::Message(Message::Chat(text)) => log(&format!("peer says: {text}")),
            Incoming::Message(Message::BackRequest { move_number, .. }) => {
                log(&format!(
                    "declined the peer's request to take back to move {move_number}: plateau does not take moves back"
                ));
                if !send_on(peer, log, &Message::BackAccept(BackCode::Decline)) {
                    return Incoming::Gone("the connection was closed".into());
                }
            }
            Incoming::Malformed { text, reason } => {
                log(&format!("rejected a malformed message {text:?}: {reason}"));
            }
            other => return other,
        }
    }
}
