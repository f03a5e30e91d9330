//! The Universal Ataxx Interface: plateau as an engine for Ataxx GUIs and match
//! runners (text lines on standard input and output, in the manner of UCI).
//!
//! ```text
//! uai                          -> id name, id author, option ..., uaiok
//! isready                      -> readyok
//! uainewgame
//! setoption name Hash value 64
//! setoption name Threads value 4
//! setoption name Variant value virus5x5
//! position startpos|fen <fen> [moves g2 a7c5 ...]
//! go [btime B wtime W binc I winc J movestogo M | movetime MS | depth N | nodes N | infinite]
//!                              -> info depth .. score cp|mate .. nodes .. nps .. time .. pv ..
//!                              -> bestmove <move>
//! stop, quit
//! ```
//!
//! Searches run on a worker thread, so `stop`, `isready` and `quit` are
//! answered while the engine thinks. A line that cannot be obeyed (an unknown
//! command, a bad position, an illegal move) gets `info string error: ...`
//! and changes nothing. Black (`x`) moves first, so `btime` is `x`'s clock.
//!
//! The `Variant` option selects the game: `ataxx` (the default) or the virus
//! game, `virus` (7x7) or `virus4x4` ... `virus9x9`; in the virus game a
//! `position fen` on another board size switches to that size.
//!
//! `Threads` is the number of threads per search (Lazy SMP; `plateau uai`
//! starts with every core): a `go depth N` repeats exactly only with 1.
//! `Hash` is the transposition table in MB, shared by those threads.

mod command;

pub use command::{Command, Go, Start};

use crate::line::{LineError, read_line};
use command::shorten;
use plateau_core::{AnyGame, Side, play_record};
use plateau_games::{
    AnyEngine, Clock, EngineChoice, GameSpec, InfoLine, Limits, MAX_THREADS, Profile, Tweaks,
    parse_threads,
};
use plateau_search::score::plies_to_end;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::Duration;

/// Longest line read (a long game's `position ... moves` fits easily).
pub const MAX_LINE: usize = 1 << 16;

/// Transposition table sizes accepted by the `Hash` option, in MB.
pub const HASH_RANGE: (usize, usize) = (1, 4096);

/// Table size when neither the engine choice nor the GUI gives one.
pub const DEFAULT_HASH_MB: usize = 64;

/// The game names of the `Variant` option and the registry entries they stand for.
const ATAXX: &str = "ataxx";
const VIRUS: &str = "virus";

/// How the session starts.
#[derive(Clone, Debug)]
pub struct UaiConfig {
    /// The engine playing (the `Level` option changes its profile).
    pub engine: EngineChoice,
    /// Seed of the engine's randomness.
    pub seed: u64,
    /// Threads per search, the `Threads` option's default (a `threads=` in
    /// `engine` wins).
    pub threads: usize,
}

/// Why a session ended badly.
#[derive(Debug, thiserror::Error)]
pub enum UaiError {
    #[error("cannot read the input: {0}")]
    Input(LineError),
    #[error("the search thread panicked")]
    Worker,
    #[error("the registry has no {0}")]
    NoGame(String),
}

/// The output, shared with the search thread; each line is written whole and
/// flushed at once (GUIs read line by line from a pipe).
#[derive(Clone)]
struct Out(Arc<Mutex<Box<dyn Write + Send>>>);

impl Out {
    fn line(&self, text: &str) {
        let mut guard = match self.0.lock() {
            Ok(guard) => guard,
            Err(poisoned) => poisoned.into_inner(),
        };
        // A GUI that went away cannot be told anything: ignore write errors,
        // the end of the input will end the session.
        let _ = writeln!(guard, "{text}");
        let _ = guard.flush();
    }

    fn error(&self, text: &str) {
        self.line(&format!("info string error: {text}"));
    }
}

/// A search in progress on the worker thread, which owns the engine until it
/// hands it back.
struct Running {
    handle: JoinHandle<Box<dyn AnyEngine>>,
    /// The engine's own stop flag.
    stop: Arc<AtomicBool>,
    /// Tells an infinite search that `stop` came: only then may it answer.
    released: Arc<AtomicBool>,
    infinite: bool,
}

/// One UAI session: the game chosen, the position, the engine and its options.
struct Session {
    out: Out,
    config: UaiConfig,
    spec: GameSpec,
    game: Box<dyn AnyGame>,
    /// `None` while a search holds it, or before the first need of one.
    engine: Option<Box<dyn AnyEngine>>,
    running: Option<Running>,
    profile: Profile,
    hash_mb: usize,
    threads: usize,
}

/// Runs a session on `input` and `output` until `quit` or the end of the input
/// (a search still running then is finished, an infinite one stopped).
pub fn run_uai(
    config: &UaiConfig,
    mut input: impl BufRead,
    output: impl Write + Send + 'static,
) -> Result<(), UaiError> {
    let spec = variant_spec(ATAXX).map_err(UaiError::NoGame)?;
    let mut session = Session {
        out: Out(Arc::new(Mutex::new(Box::new(output)))),
        hash_mb: config
            .engine
            .tweaks
            .table_mb
            .unwrap_or(DEFAULT_HASH_MB)
            .clamp(HASH_RANGE.0, HASH_RANGE.1),
        threads: config
            .engine
            .tweaks
            .threads
            .unwrap_or(config.threads)
            .clamp(1, MAX_THREADS),
        profile: config.engine.profile,
        config: config.clone(),
        game: spec.new_game(),
        spec,
        engine: None,
        running: None,
    };
    loop {
        let line = match read_line(&mut input, MAX_LINE) {
            Ok(line) => line,
            Err(LineError::TooLong(limit)) => {
                session
                    .out
                    .error(&format!("a line longer than {limit} bytes was ignored"));
                continue;
            }
            Err(LineError::Closed) => break,
            Err(err) => {
                session.finish(true)?;
                return Err(UaiError::Input(err));
            }
        };
        match Command::parse(&line) {
            Ok(Command::Quit) => return session.finish(true),
            Ok(command) => session.obey(command)?,
            Err(reason) => session.out.error(&reason),
        }
    }
    // End of input: let a bounded search answer, stop an infinite one.
    let infinite = session.running.as_ref().is_some_and(|r| r.infinite);
    session.finish(infinite)
}

impl Session {
    /// Carries out one command (`quit` is the caller's).
    fn obey(&mut self, command: Command) -> Result<(), UaiError> {
        match command {
            Command::Uai => self.identify(),
            Command::IsReady => self.out.line("readyok"),
            Command::Nothing => {}
            Command::Stop | Command::Quit => self.finish(true)?,
            Command::NewGame => {
                self.finish(true)?;
                if let Some(engine) = self.engine.as_mut() {
                    engine.new_game();
                }
                self.game = self.spec.new_game();
            }
            Command::SetOption { name, value } => {
                self.finish(true)?;
                if let Err(reason) = self.set_option(&name, value.as_deref()) {
                    self.out.error(&reason);
                }
            }
            Command::Position { start, moves } => {
                self.finish(true)?;
                match self.position(&start, &moves) {
                    Ok((spec, game)) => {
                        if spec.full_name() != self.spec.full_name() {
                            self.spec = spec;
                            self.engine = None;
                            self.out
                                .line(&format!("info string playing {}", spec.full_name()));
                        }
                        self.game = game;
                    }
                    Err(reason) => self.out.error(&format!("position: {reason}")),
                }
            }
            Command::Go(go) => {
                self.finish(true)?;
                self.go(&go);
            }
        }
        Ok(())
    }

    fn identify(&self) {
        self.out.line(&format!(
            "id name plateau {} ({})",
            env!("CARGO_PKG_VERSION"),
            self.profile.name()
        ));
        self.out.line("id author the plateau authors");
        self.out.line(&format!(
            "option name Hash type spin default {} min {} max {}",
            self.hash_mb, HASH_RANGE.0, HASH_RANGE.1
        ));
        self.out.line(&format!(
            "option name Threads type spin default {} min 1 max {MAX_THREADS}",
            self.threads
        ));
        let mut variants = vec![ATAXX.to_string(), VIRUS.to_string()];
        if let Ok(virus) = GameSpec::lookup(VIRUS, None) {
            variants.extend(
                virus
                    .info
                    .variants
                    .iter()
                    .map(|v| format!("{VIRUS}{}", v.name)),
            );
        }
        self.out.line(&format!(
            "option name Variant type combo default {ATAXX} var {}",
            variants.join(" var ")
        ));
        self.out.line(&format!(
            "option name Level type combo default {} var {}",
            self.profile.name(),
            Profile::names().join(" var ")
        ));
        self.out.line("uaiok");
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let value = value.ok_or_else(|| format!("setoption name {name}: the value is missing"))?;
        match name.to_ascii_lowercase().as_str() {
            "hash" => {
                let mb: usize = value
                    .parse()
                    .ok()
                    .filter(|mb| (HASH_RANGE.0..=HASH_RANGE.1).contains(mb))
                    .ok_or_else(|| {
                        format!(
                            "Hash: {:?} is not a size from {} to {} MB",
                            shorten(value),
                            HASH_RANGE.0,
                            HASH_RANGE.1
                        )
                    })?;
                self.hash_mb = mb;
                if let Some(engine) = self.engine.as_mut() {
                    engine.tweak(&Tweaks {
                        table_mb: Some(mb),
                        ..Tweaks::default()
                    });
                }
            }
            "threads" => {
                let threads = parse_threads(value).map_err(|_| {
                    format!(
                        "Threads: {:?} is not a number of threads from 1 to {MAX_THREADS}",
                        shorten(value)
                    )
                })?;
                self.threads = threads;
                if let Some(engine) = self.engine.as_mut() {
                    engine.tweak(&Tweaks {
                        threads: Some(threads),
                        ..Tweaks::default()
                    });
                }
            }
            "variant" | "uci_variant" => {
                let spec = variant_spec(value)?;
                if spec.full_name() != self.spec.full_name() {
                    self.spec = spec;
                    self.engine = None;
                }
                self.game = self.spec.new_game();
                self.out
                    .line(&format!("info string playing {}", self.spec.full_name()));
            }
            "level" => {
                self.profile = Profile::parse(value).map_err(|e| format!("Level: {e}"))?;
                self.engine = None;
            }
            _ => {
                return Err(format!(
                    "unknown option {:?} (Hash, Threads, Variant, Level)",
                    shorten(name)
                ));
            }
        }
        Ok(())
    }

    /// The game a `position` command describes, and the spec it belongs to;
    /// nothing changes until the whole command is known to be good.
    fn position(
        &self,
        start: &Start,
        moves: &[String],
    ) -> Result<(GameSpec, Box<dyn AnyGame>), String> {
        let (spec, mut game) = match start {
            Start::StartPos => (self.spec, self.spec.new_game()),
            Start::Fen(fen) => {
                let text = if self.spec.info.name == VIRUS {
                    strip_clocks(fen)
                } else {
                    fen.clone()
                };
                // In the virus game the board size comes from the position text.
                self.spec
                    .from_text_any_variant(&text)
                    .map_err(|e| e.to_string())?
            }
        };
        if !moves.is_empty() {
            play_record(game.as_mut(), &moves.join(" "))
                .map_err(|reason| format!("move {reason}"))?;
        }
        Ok((spec, game))
    }

    fn engine(&mut self) -> Box<dyn AnyEngine> {
        if let Some(engine) = self.engine.take() {
            return engine;
        }
        let choice = EngineChoice {
            profile: self.profile,
            tweaks: Tweaks {
                table_mb: Some(self.hash_mb),
                threads: Some(self.threads),
                ..self.config.engine.tweaks
            },
        };
        self.spec.engine_with(&choice, self.config.seed)
    }

    fn go(&mut self, go: &Go) {
        if let Some(outcome) = self.game.outcome() {
            self.out
                .line(&format!("info string the game is over: {outcome}"));
            self.out.line("bestmove 0000");
            return;
        }
        let engine = self.engine();
        let limits = self.limits(go, engine.default_limits());
        let stop = engine.stop_flag();
        let released = Arc::new(AtomicBool::new(false));
        let game = self.game.clone();
        let out = self.out.clone();
        let infinite = go.infinite;
        let release = Arc::clone(&released);
        let handle = thread::spawn(move || {
            let mut engine = engine;
            let result = engine.think(game.as_ref(), &limits, &mut |info| {
                out.line(&info_line(info));
            });
            // An infinite search answers only when told to stop.
            while infinite && !release.load(Ordering::Acquire) {
                thread::sleep(Duration::from_millis(2));
            }
            match result {
                Ok(thought) => out.line(&format!("bestmove {}", thought.best)),
                Err(reason) => {
                    out.error(&reason);
                    out.line("bestmove 0000");
                }
            }
            engine
        });
        self.running = Some(Running {
            handle,
            stop,
            released,
            infinite,
        });
    }

    /// The engine's limits for a `go`: what the GUI gave; for a clock, the
    /// level's own depth or node cap still applies (that is what a level is).
    fn limits(&self, go: &Go, profile: Limits) -> Limits {
        if go.infinite {
            return Limits {
                depth: go.depth,
                nodes: go.nodes,
                ..Limits::default()
            };
        }
        if go.is_bare() {
            return profile;
        }
        let (time, increment) = match self.game.side_to_move() {
            Side::Black => (go.btime, go.binc),
            Side::White => (go.wtime, go.winc),
        };
        let clock = time.map(|remaining| Clock {
            remaining,
            increment: increment.unwrap_or(Duration::ZERO),
            moves_to_go: go.movestogo,
        });
        let timed = clock.is_some() || go.movetime.is_some();
        let limits = Limits {
            depth: go.depth.or(if timed { profile.depth } else { None }),
            nodes: go.nodes.or(if timed { profile.nodes } else { None }),
            movetime: go.movetime,
            clock,
        };
        // Clock fields for the other side only (`go wtime 5000` with Black to
        // move, `go movestogo 20`) bound nothing: play as the level would.
        if limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.movetime.is_none()
            && limits.clock.is_none()
        {
            return profile;
        }
        limits
    }

    /// Ends the search in progress, if any: stopped at once when `stop` is set,
    /// otherwise left to reach its own limits. Its `bestmove` is written before
    /// this returns.
    fn finish(&mut self, stop: bool) -> Result<(), UaiError> {
        let Some(running) = self.running.take() else {
            return Ok(());
        };
        if stop {
            running.released.store(true, Ordering::Release);
            // The engine clears its flag when a search starts: keep setting it
            // until the worker is done, so a `stop` right after `go` still counts.
            while !running.handle.is_finished() {
                running.stop.store(true, Ordering::Relaxed);
                thread::sleep(Duration::from_millis(1));
            }
        }
        let engine = running.handle.join().map_err(|_| UaiError::Worker)?;
        self.engine = Some(engine);
        Ok(())
    }
}

/// `info depth 7 seldepth 9 score cp 35 nodes 1234 nps 56789 time 21 pv g2 a7c5`;
/// a forced result is `score mate N` (moves, negative when losing).
fn info_line(info: &InfoLine) -> String {
    let score = match plies_to_end(info.score) {
        Some(plies) if plies > 0 => format!("mate {}", (plies + 1) / 2),
        Some(plies) => format!("mate -{}", (-plies + 1) / 2),
        None => format!("cp {}", info.score),
    };
    format!(
        "info depth {} seldepth {} score {score} nodes {} nps {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.nodes,
        info.nps,
        info.elapsed.as_millis(),
        info.pv.join(" ")
    )
}

/// The game a `Variant` value names: `ataxx`, `virus` (7x7), `virus5x5`;
/// `virus/5x5`, `virus-5x5` and `virus 5x5` are read the same way.
fn variant_spec(value: &str) -> Result<GameSpec, String> {
    let name: String = value
        .chars()
        .filter(|c| !matches!(c, '/' | '-' | '_' | ' '))
        .collect::<String>()
        .to_ascii_lowercase();
    let found = if name == ATAXX {
        GameSpec::lookup(ATAXX, None)
    } else if let Some(size) = name.strip_prefix(VIRUS) {
        GameSpec::lookup(VIRUS, (!size.is_empty()).then_some(size))
    } else {
        return Err(format!(
            "Variant: {:?} is not a game here; choose ataxx, virus, or virus4x4 ... virus9x9",
            shorten(value)
        ));
    };
    found.map_err(|e| format!("Variant: {e}"))
}

/// A virus position text with the two clock fields GUIs add for Ataxx
/// (`x3o/5/5/5/o3x x 0 1`) dropped: the virus game has no clocks.
fn strip_clocks(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() == 4 && fields[2..].iter().all(|f| f.parse::<u32>().is_ok()) {
        fields[..2].join(" ")
    } else {
        fen.to_string()
    }
}

#[cfg(test)]
mod tests;
