//! The engine side of a Hub session: commands are read on the calling thread,
//! searches run on a worker thread, so that `stop`, `ping` and `ponder-hit` are
//! answered while the engine thinks.

use super::command::{Command, GoMode, Level, parse};
use super::wire::{error_line, format_line};
use super::{MAX_LINE, PROTOCOL_VARIANT};
use crate::limits::within_level;
use crate::line::{LineError, read_line};
use plateau_core::{Erased, Game};
use plateau_draughts::Draughts;
use plateau_games::{
    AnyEngine, EngineChoice, GameSpec, InfoLine, Limits, MAX_THREADS, Profile, Tweaks,
    parse_threads,
};
use plateau_search::score;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// How the engine is set up.
#[derive(Clone, Debug)]
pub struct HubConfig {
    /// The player, until the GUI chooses another with `set-param name=engine`.
    pub engine: EngineChoice,
    /// Seed of the engine's randomness.
    pub seed: u64,
    /// Threads per search, until the GUI sets the `threads` parameter (a
    /// `threads=` in `engine` wins).
    pub threads: usize,
}

/// Table sizes the `hash` parameter accepts, in MB (0: no table).
pub const HASH_RANGE: (usize, usize) = (0, 4096);

/// Why a session ended badly (a GUI that quits or closes its end is a normal end).
#[derive(Debug, thiserror::Error)]
pub enum HubError {
    #[error("cannot read the GUI's commands: {0}")]
    Input(std::io::Error),
    #[error("the registry has no draughts: {0}")]
    Registry(String),
}

/// The output shared by the reader and the worker: one line at a time, whole.
#[derive(Clone)]
struct Output {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
    broken: Arc<AtomicBool>,
}

impl Output {
    fn line(&self, text: &str) {
        let mut sink = match self.sink.lock() {
            Ok(sink) => sink,
            Err(poisoned) => poisoned.into_inner(),
        };
        let written = sink
            .write_all(text.as_bytes())
            .and_then(|_| sink.write_all(b"\n"))
            .and_then(|_| sink.flush());
        if written.is_err() {
            self.broken.store(true, Ordering::Relaxed);
        }
    }

    fn error(&self, message: &str) {
        self.line(&error_line(message));
    }
}

/// A search in progress on the worker thread.
struct Running {
    handle: JoinHandle<Box<dyn AnyEngine>>,
    stop: Arc<AtomicBool>,
    /// Set before stopping a search whose answer nobody wants (a ponder search
    /// the GUI confirmed with `ponder-hit`: a real search replaces it).
    silent: Arc<AtomicBool>,
    /// Raised by the worker just before it writes its answer: once the GUI
    /// has read `done`, the search counts as over even if its thread is
    /// still winding down.
    answered: Arc<AtomicBool>,
    mode: GoMode,
}

struct Session {
    spec: GameSpec,
    /// The profile and its tweaks, less the thread count and table size,
    /// which are the session's own (the `threads` and `hash` parameters).
    choice: EngineChoice,
    seed: u64,
    threads: usize,
    /// The table size the GUI (or `engine`) asked for; `None`: the level's own.
    hash_mb: Option<usize>,
    /// The table size of the engine, as `hub` announces it.
    table_mb: usize,
    /// `None` while a search holds it.
    engine: Option<Box<dyn AnyEngine>>,
    position: Erased<Draughts>,
    level: Option<Level>,
    forget: bool,
    running: Option<Running>,
    out: Output,
}

/// Runs a session: reads commands from `input` until `quit` or the end of the
/// input, writes the answers to `output`.
pub fn run_hub(
    input: &mut impl BufRead,
    output: Box<dyn Write + Send>,
    config: &HubConfig,
) -> Result<(), HubError> {
    let spec = GameSpec::lookup("draughts", None).map_err(|e| HubError::Registry(e.0))?;
    let mut session = Session {
        spec,
        choice: config.engine,
        seed: config.seed,
        threads: config.threads.clamp(1, MAX_THREADS),
        hash_mb: None,
        table_mb: 0,
        engine: None,
        position: Erased::new(spec.full_name(), Draughts::new()),
        level: None,
        forget: false,
        running: None,
        out: Output {
            sink: Arc::new(Mutex::new(output)),
            broken: Arc::new(AtomicBool::new(false)),
        },
    };
    session.choose(config.engine);
    let result = loop {
        if session.out.broken.load(Ordering::Relaxed) {
            break Ok(());
        }
        let line = match read_line(input, MAX_LINE) {
            Ok(line) => line,
            Err(LineError::TooLong(limit)) => {
                session
                    .out
                    .error(&format!("line longer than {limit} bytes, ignored"));
                continue;
            }
            Err(LineError::Closed) => break Ok(()),
            Err(LineError::Io(err)) => break Err(HubError::Input(err)),
            Err(LineError::TimedOut) => continue,
        };
        session.reap();
        match parse(&line) {
            Ok(None) => {}
            Ok(Some(Command::Quit)) => break Ok(()),
            Ok(Some(command)) => session.handle(command),
            Err(message) => session.out.error(&message),
        }
    };
    // Leaving: a search still running answers (its `done` is harmless) and ends.
    session.finish();
    result
}

impl Session {
    fn handle(&mut self, command: Command) {
        match command {
            Command::Hub => self.introduce(),
            Command::SetParam { name, value } => self.set_param(&name, &value),
            Command::Init => self.out.line("ready"),
            Command::Pos { start, moves } => {
                let mut position = Erased::new(self.spec.full_name(), *start);
                for mv in moves {
                    position.play_typed(mv);
                }
                self.position = position;
            }
            Command::Level(level) => self.level = Some(level),
            Command::Go(mode) => self.go(mode),
            Command::PonderHit => self.ponder_hit(),
            Command::Stop => self.finish(),
            Command::Ping => self.out.line("pong"),
            Command::NewGame => match self.engine.as_mut() {
                Some(engine) => engine.new_game(),
                None => self.forget = true,
            },
            Command::Quit => self.finish(),
        }
    }

    fn introduce(&self) {
        self.out.line(&format_line(
            "id",
            &[("name", "plateau"), ("version", env!("CARGO_PKG_VERSION"))],
        ));
        self.out.line(&format_line(
            "param",
            &[
                ("name", "variant"),
                ("value", PROTOCOL_VARIANT),
                ("type", "enum"),
                ("values", PROTOCOL_VARIANT),
            ],
        ));
        let engines = Profile::names().join(" ");
        let current = self.choice.name();
        self.out.line(&format_line(
            "param",
            &[
                ("name", "engine"),
                ("value", &current),
                ("type", "enum"),
                ("values", &engines),
            ],
        ));
        for (name, value, min, max) in [
            ("threads", self.threads, 1, MAX_THREADS),
            ("hash", self.table_mb, HASH_RANGE.0, HASH_RANGE.1),
        ] {
            let [value, min, max] = [value, min, max].map(|n| n.to_string());
            self.out.line(&format_line(
                "param",
                &[
                    ("name", name),
                    ("value", &value),
                    ("type", "int"),
                    ("min", &min),
                    ("max", &max),
                ],
            ));
        }
        self.out.line("wait");
    }

    /// Plays `choice` from now on: its `threads=` and `hash=`, when it has
    /// them, become the session's, which the new engine searches with.
    fn choose(&mut self, mut choice: EngineChoice) {
        if let Some(threads) = choice.tweaks.threads.take() {
            self.threads = threads;
        }
        if let Some(mb) = choice.tweaks.table_mb.take() {
            self.hash_mb = Some(mb);
        }
        self.choice = choice;
        self.engine = Some(self.build());
    }

    /// A fresh engine of the current choice, threads and table.
    fn build(&mut self) -> Box<dyn AnyEngine> {
        let mut choice = self.choice;
        choice.tweaks.threads = Some(self.threads);
        choice.tweaks.table_mb = self.hash_mb;
        let engine = self.spec.engine_with(&choice, self.seed);
        self.table_mb = engine.table_mb();
        engine
    }

    /// `threads` or `hash`: a whole number within its range, applied to the
    /// engine now and to every engine built later.
    fn set_number(&mut self, name: &str, value: &str) {
        let number = match name {
            "threads" => parse_threads(value).map_err(|_| {
                format!("threads={value}: give a number of threads from 1 to {MAX_THREADS}")
            }),
            _ => value
                .parse::<usize>()
                .ok()
                .filter(|mb| (HASH_RANGE.0..=HASH_RANGE.1).contains(mb))
                .ok_or_else(|| {
                    format!(
                        "hash={value}: give a table size from {} to {} MB",
                        HASH_RANGE.0, HASH_RANGE.1
                    )
                }),
        };
        let number = match number {
            Ok(number) => number,
            Err(reason) => return self.out.error(&reason),
        };
        if self.running.is_some() {
            return self.out.error(&format!(
                "{name} cannot change during a search; send stop first"
            ));
        }
        let mut tweaks = Tweaks::default();
        if name == "threads" {
            self.threads = number;
            tweaks.threads = Some(number);
        } else {
            self.hash_mb = Some(number);
            self.table_mb = number;
            tweaks.table_mb = Some(number);
        }
        if let Some(engine) = self.engine.as_mut() {
            engine.tweak(&tweaks);
        }
    }

    fn set_param(&mut self, name: &str, value: &str) {
        match name {
            "variant" if value == PROTOCOL_VARIANT => {}
            "variant" => self.out.error(&format!(
                "variant {value:?} is not played: plateau plays international draughts ({PROTOCOL_VARIANT})"
            )),
            "engine" => {
                let choice = match EngineChoice::parse(value) {
                    Ok(choice) => choice,
                    Err(reason) => return self.out.error(&reason),
                };
                if self.running.is_some() {
                    return self
                        .out
                        .error("the engine cannot change during a search; send stop first");
                }
                self.choose(choice);
            }
            "threads" | "hash" => self.set_number(name, value),
            other => self.out.error(&format!(
                "unknown parameter {other:?}; the parameters are variant, engine, threads and hash"
            )),
        }
    }

    /// The limits of the next search: the GUI's level within the engine
    /// level's caps (pondering has no time limit of its own).
    fn limits(&self, engine: &dyn AnyEngine, mode: GoMode) -> Limits {
        let level = engine.default_limits();
        match (mode, self.level) {
            (GoMode::Ponder, _) => within_level(&level, &Limits::default()),
            (_, None) => level,
            (_, Some(gui)) => within_level(&level, &gui.limits()),
        }
    }

    fn go(&mut self, mode: GoMode) {
        if self.running.is_some() {
            return self
                .out
                .error("a search is already running; send stop first");
        }
        let Some(mut engine) = self.engine.take() else {
            return self.out.error("the engine is not available");
        };
        if std::mem::take(&mut self.forget) {
            engine.new_game();
        }
        let mut position = self.position.clone();
        if let Some(outcome) = position.game().outcome() {
            // The GUI may apply the draw rules differently: searching the
            // bare board still gives it a move when there is one.
            let bare = Draughts::from_text(&position.game().to_text());
            match bare {
                Ok(bare) if bare.outcome().is_none() => {
                    position = Erased::new(self.spec.full_name(), bare);
                }
                _ => {
                    self.engine = Some(engine);
                    return self
                        .out
                        .error(&format!("nothing to search: the game is over ({outcome})"));
                }
            }
        }
        let limits = self.limits(engine.as_ref(), mode);
        let stop = engine.stop_flag();
        let silent = Arc::new(AtomicBool::new(false));
        let answered = Arc::new(AtomicBool::new(false));
        let worker = Worker {
            out: self.out.clone(),
            silent: Arc::clone(&silent),
            answered: Arc::clone(&answered),
        };
        // Only a move to play comes from the book; analysis and pondering search.
        let book = mode == GoMode::Think;
        let handle = std::thread::spawn(move || {
            worker.search(engine.as_mut(), &position, &limits, book);
            engine
        });
        self.running = Some(Running {
            handle,
            stop,
            silent,
            answered,
            mode,
        });
    }

    /// The expected move was played: the pondering search gives way to a real
    /// one on the same position (its table keeps what pondering found).
    fn ponder_hit(&mut self) {
        let Some(running) = self.running.as_ref().filter(|r| r.mode == GoMode::Ponder) else {
            return;
        };
        running.silent.store(true, Ordering::Relaxed);
        self.finish();
        self.go(GoMode::Think);
    }

    /// Takes the engine back from a search that has answered by itself.
    fn reap(&mut self) {
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.answered.load(Ordering::Acquire) || r.handle.is_finished())
        {
            self.finish();
        }
    }

    /// Stops the search, if one runs, and waits for its answer. The search
    /// clears its stop flag when it starts, so the flag is raised until the
    /// worker is done, not just once.
    fn finish(&mut self) {
        let Some(running) = self.running.take() else {
            return;
        };
        while !running.handle.is_finished() {
            running.stop.store(true, Ordering::Relaxed);
            std::thread::sleep(Duration::from_millis(2));
        }
        match running.handle.join() {
            Ok(mut engine) => {
                if std::mem::take(&mut self.forget) {
                    engine.new_game();
                }
                self.engine = Some(engine);
            }
            Err(_) => {
                self.out.error("the search failed; a new engine takes over");
                self.engine = Some(self.build());
            }
        }
    }
}

/// What a search thread needs besides the engine and the position.
struct Worker {
    out: Output,
    silent: Arc<AtomicBool>,
    answered: Arc<AtomicBool>,
}

impl Worker {
    /// One search (or a book move, with `book`): `info` lines, then `done`
    /// (unless silenced).
    fn search(
        &self,
        engine: &mut dyn AnyEngine,
        position: &Erased<Draughts>,
        limits: &Limits,
        book: bool,
    ) {
        let root = position.game();
        let mut info = |info: &plateau_games::InfoLine| {
            self.out.line(&info_line(root, info));
        };
        let thought = if book {
            engine.think(position, limits, &mut info)
        } else {
            engine.think_excluding(position, limits, &[], &mut info)
        };
        let answer = match thought {
            Ok(thought) => done_line(root, &thought.best, &thought.pv),
            Err(reason) => error_line(&reason),
        };
        self.answered.store(true, Ordering::Release);
        if !self.silent.load(Ordering::Relaxed) {
            self.out.line(&answer);
        }
    }
}

/// `done move=28x19x23 ponder=14x23x19` (the ponder move when the principal
/// variation goes on after the best move).
fn done_line(root: &Draughts, best: &str, pv: &[String]) -> String {
    let Some(best) = hub_moves(root, std::slice::from_ref(&best.to_string())).pop() else {
        return error_line(&format!("the engine chose {best:?}, which is not legal"));
    };
    let pv = hub_moves(root, pv);
    let mut args = vec![("move", best.as_str())];
    if pv.first() == Some(&best)
        && let Some(ponder) = pv.get(1)
    {
        args.push(("ponder", ponder.as_str()));
    }
    format_line("done", &args)
}

/// Moves in the engine's notation, replayed from `root`, in the Hub form;
/// stops at the first that does not parse (none should).
fn hub_moves(root: &Draughts, moves: &[String]) -> Vec<String> {
    let mut position = root.clone();
    let mut hub = Vec::with_capacity(moves.len());
    for text in moves {
        let Ok(mv) = position.check_move(text) else {
            break;
        };
        hub.push(mv.hub());
        position.play(mv);
    }
    hub
}

/// `info depth=12 score=0.35 nodes=123456 time=0.250 nps=0.49 pv="..."`, in
/// Scan's units: the score in men, the time in seconds, the speed in millions
/// of nodes per second. A forced win `n` plies away is `99.xx` with
/// `xx = 100 - n`, as Scan writes it (losses negative).
fn info_line(root: &Draughts, info: &InfoLine) -> String {
    let pv = hub_moves(root, &info.pv).join(" ");
    let depth = info.depth.to_string();
    let score = hub_score(info.score);
    let nodes = info.nodes.to_string();
    let time = format!("{:.3}", info.elapsed.as_secs_f64());
    let nps = format!("{:.2}", info.nps as f64 / 1e6);
    format_line(
        "info",
        &[
            ("depth", &depth),
            ("score", &score),
            ("nodes", &nodes),
            ("time", &time),
            ("nps", &nps),
            ("pv", &pv),
        ],
    )
}

/// A search score in men (100 = one man), wins as `99.xx`.
fn hub_score(value: i32) -> String {
    let centimen = match score::plies_to_end(value) {
        Some(plies) if plies > 0 => 10_000 - plies.min(99),
        Some(plies) => -(10_000 + plies.max(-99)),
        None => value.clamp(-9_000, 9_000),
    };
    format!("{:.2}", centimen as f64 / 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_in_men_and_wins_near_100() {
        assert_eq!(hub_score(0), "0.00");
        assert_eq!(hub_score(35), "0.35");
        assert_eq!(hub_score(-201), "-2.01");
        assert_eq!(hub_score(score::WIN - 5), "99.95");
        assert_eq!(hub_score(-(score::WIN - 4)), "-99.96");
    }

    #[test]
    fn engine_moves_become_hub_moves() {
        let mut position = Draughts::new();
        for text in ["32-28", "19-23"] {
            let mv = position.check_move(text).unwrap();
            position.play(mv);
        }
        let moves = ["28x19".to_string(), "14x23".to_string(), "bad".to_string()];
        assert_eq!(hub_moves(&position, &moves), ["28x19x23", "14x23x19"]);
    }
}
