//! Plays matches: colour-swapped pairs from shared random openings, in parallel.

use crate::stats::Tally;
use plateau_core::{AnyGame, Outcome, Rng, Side};
use plateau_games::{AnyEngine, EngineChoice, GameSpec, Limits, Profile};
use plateau_search::score::is_decisive;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A player in a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineSpec {
    /// A built-in profile with its tweaks: `expert`, `master,time=seed`.
    Builtin(EngineChoice),
}

impl EngineSpec {
    pub fn parse(text: &str) -> Result<EngineSpec, String> {
        EngineChoice::parse(text).map(EngineSpec::Builtin)
    }

    pub fn name(&self) -> String {
        match self {
            EngineSpec::Builtin(choice) => choice.name(),
        }
    }

    fn build(&self, spec: &GameSpec, seed: u64) -> Box<dyn AnyEngine> {
        match self {
            EngineSpec::Builtin(choice) => spec.engine_with(choice, seed),
        }
    }
}

/// A game clock for both players: base time and increment per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockControl {
    pub base: Duration,
    pub increment: Duration,
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub game: GameSpec,
    pub engines: [EngineSpec; 2],
    /// Rounded up to an even number: every opening is played with both colours.
    pub games: u32,
    /// Per-move limits for both engines; `None` lets each use its own default.
    pub limits: Option<Limits>,
    /// A game clock instead of per-move limits.
    pub clock: Option<ClockControl>,
    /// Random legal plies played before the engines take over.
    pub opening_plies: u32,
    pub seed: u64,
    /// Games played at once.
    pub concurrency: usize,
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// 0-based game number; games `2k` and `2k + 1` share an opening.
    pub number: usize,
    /// Which engine (0 or 1) played White.
    pub white: usize,
    pub start: String,
    /// Every move from the start position, the opening included.
    pub moves: Vec<String>,
    pub opening_len: usize,
    pub outcome: Outcome,
    /// Set when the result came from something other than the rules: a loss on
    /// time or an engine failure.
    pub note: Option<String>,
    /// Thinking time per engine.
    pub time_used: [Duration; 2],
}

impl GameRecord {
    /// The score of engine `index` in this game.
    pub fn score_of(&self, index: usize) -> f64 {
        let side = if self.white == index {
            Side::White
        } else {
            Side::Black
        };
        self.outcome.score_for(side)
    }
}

/// All the games of a match and its tally from engine 0's point of view.
#[derive(Clone, Debug)]
pub struct MatchResult {
    pub records: Vec<GameRecord>,
    pub tally: Tally,
}

/// Plays the match, calling `on_game` as each game finishes (in finishing order).
pub fn run_match(
    config: &MatchConfig,
    on_game: impl Fn(&GameRecord, &Tally) + Sync,
) -> Result<MatchResult, String> {
    let games = config.games.div_ceil(2) * 2;
    let pairs = (games / 2) as usize;
    let openings: Vec<Box<dyn AnyGame>> = (0..pairs)
        .map(|pair| opening(config, pair))
        .collect::<Result<_, _>>()?;
    let next = AtomicUsize::new(0);
    let results = Mutex::new((Vec::new(), Tally::default()));
    let workers = config.concurrency.clamp(1, games as usize);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let number = next.fetch_add(1, Ordering::Relaxed);
                    if number >= games as usize {
                        break;
                    }
                    let record = play_game(config, number, openings[number / 2].as_ref());
                    let mut guard = results.lock().unwrap_or_else(|e| e.into_inner());
                    let score = record.score_of(0);
                    let tally = &mut guard.1;
                    match score {
                        s if s > 0.75 => tally.wins += 1,
                        s if s < 0.25 => tally.losses += 1,
                        _ => tally.draws += 1,
                    }
                    let tally = *tally;
                    on_game(&record, &tally);
                    guard.0.push(record);
                }
            });
        }
    });
    let (mut records, tally) = results.into_inner().unwrap_or_else(|e| e.into_inner());
    records.sort_by_key(|r| r.number);
    Ok(MatchResult { records, tally })
}

/// A random opening for a pair: `opening_plies` random legal moves, redrawn while
/// the result is already decided (a short search finds a forced win): a match
/// should measure the engines, not which of them drew the lucky colour. Random
/// Escampe placements often leave a unicorn to a forced capture.
fn opening(config: &MatchConfig, pair: usize) -> Result<Box<dyn AnyGame>, String> {
    let mut rng = Rng::new(plateau_core::splitmix64(config.seed ^ (pair as u64) << 20).1);
    let mut judge = config
        .game
        .engine(Profile::Level(plateau_games::Level::Expert), 0);
    let mut last = None;
    for _attempt in 0..200 {
        let mut game = config.game.new_game();
        for _ in 0..config.opening_plies {
            let moves = game.legal_moves();
            let Some(mv) = rng.choose(&moves) else { break };
            game.play(mv).map_err(|e| e.to_string())?;
        }
        if game.outcome().is_some() {
            continue;
        }
        let verdict = judge.think(game.as_ref(), &OPENING_CHECK, &mut |_| {})?;
        if !is_decisive(verdict.score) {
            return Ok(game);
        }
        last = Some(game);
    }
    last.ok_or_else(|| "could not find an opening where the game goes on".to_string())
}

/// The search that judges whether an opening is still open.
const OPENING_CHECK: Limits = Limits {
    depth: Some(12),
    nodes: Some(300_000),
    movetime: None,
    clock: None,
};

fn play_game(config: &MatchConfig, number: usize, start: &dyn AnyGame) -> GameRecord {
    let white = number % 2;
    let seed = config.seed.wrapping_add(number as u64 * 2);
    let mut engines = [
        config.engines[0].build(&config.game, seed),
        config.engines[1].build(&config.game, seed + 1),
    ];
    let mut game = start.clone_box();
    let mut clocks = [config.clock.map(|c| c.base); 2];
    let mut time_used = [Duration::ZERO; 2];
    let mut note = None;
    let outcome = loop {
        if let Some(outcome) = game.outcome() {
            break outcome;
        }
        let side = game.side_to_move();
        let player = if side == Side::White {
            white
        } else {
            1 - white
        };
        let limits = match (config.clock, clocks[player]) {
            (Some(control), Some(remaining)) => Limits::clock(remaining, control.increment),
            _ => config
                .limits
                .unwrap_or_else(|| engines[player].default_limits()),
        };
        let started = Instant::now();
        let thought = engines[player].think(game.as_ref(), &limits, &mut |_| {});
        let spent = started.elapsed();
        time_used[player] += spent;
        let failure = match thought {
            Err(reason) => Some(format!(
                "{} failed: {reason}",
                config.engines[player].name()
            )),
            Ok(thought) => game.play(&thought.best).err().map(|err| {
                format!(
                    "{} played an illegal move: {err}",
                    config.engines[player].name()
                )
            }),
        };
        if let Some(reason) = failure {
            note = Some(reason);
            break Outcome::win(!side, "engine failure");
        }
        if let (Some(control), Some(remaining)) = (config.clock, clocks[player].as_mut()) {
            if spent > *remaining {
                note = Some(format!("{} lost on time", config.engines[player].name()));
                break Outcome::win(!side, "time forfeit");
            }
            *remaining = *remaining - spent + control.increment;
        }
    };
    GameRecord {
        number,
        white,
        start: config.game.new_game().start_text(),
        opening_len: config.opening_plies as usize,
        moves: game.history().to_vec(),
        outcome,
        note,
        time_used,
    }
}
