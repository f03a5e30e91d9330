//! Self-play at a fixed node budget, writing the positions a learned
//! evaluation is trained on.
//!
//! Each game opens with random legal plies (variety), then one engine plays
//! both sides, searching a fixed number of nodes per move on one thread. The
//! positions it searched are kept when they are quiet (the side to move has no
//! capture or ejection to make) and not already decided (the search found no
//! forced result), each with the search's score and, once the game is over,
//! its result for the side to move. Game `i` depends only on the seed and `i`,
//! and games are written in their order, so a run is the same whatever the
//! number of threads, and a stopped run resumes where it stopped.

use crate::data::{DataError, DataWriter, GameResult, Sample};
use plateau_arena::openings::draw_one;
use plateau_arena::pool::run_jobs_with;
use plateau_core::{AnyGame, EndReason, Game, Outcome, Rng, splitmix64};
use plateau_games::{AnyEngine, EngineText, GameSpec, Limits};
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What a self-play run does.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    pub spec: GameSpec,
    /// The engine that plays both sides (`master` by default, one thread).
    pub engine: EngineText,
    /// Games the file holds when the run is done (those already in it count).
    pub games: u64,
    /// Nodes searched per move.
    pub nodes: u64,
    /// Games played at once.
    pub threads: usize,
    pub seed: u64,
    /// Random legal plies that open each game.
    pub random_plies: u32,
    /// A game still going after this many plies is scored a draw.
    pub max_plies: u32,
    /// Plays each game under the game's move limit of this many plies (the
    /// site's rule: Abalone's side with more marbles pushed off wins there),
    /// so that long games end with a result instead of a draw by the cap.
    /// `None` plays the game's own rules.
    pub move_limit: Option<u32>,
    /// Share of the games (0 to 1) that start from a random layout of gaps
    /// (blocked cells) before their random plies: Ataxx only, where
    /// tournament openings have gaps.
    pub gaps: f64,
    /// No game starts after this much time (those in progress finish and are
    /// written): a run sized to a session, continued by the next.
    pub time_limit: Option<Duration>,
}

/// Whether `spec`'s game can start from random gap layouts.
pub fn has_gap_layouts(spec: &GameSpec) -> bool {
    spec.full_name() == "ataxx"
}

/// Random legal plies from `start`, redrawn (from the same start) while they
/// end the game: [`draw_one`] for a start other than the game's own.
fn random_plies_from(
    start: &dyn AnyGame,
    plies: u32,
    rng: &mut Rng,
) -> Result<Box<dyn AnyGame>, String> {
    for _attempt in 0..200 {
        let mut game = start.clone_box();
        for _ in 0..plies {
            let moves = game.legal_moves();
            let Some(mv) = rng.choose(&moves) else { break };
            game.play(mv).map_err(|e| e.to_string())?;
        }
        if game.outcome().is_none() {
            return Ok(game);
        }
    }
    Err(format!(
        "could not find {plies} random plies from {} after which the game goes on",
        start.to_text()
    ))
}

/// One self-play game's training positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSamples {
    pub samples: Vec<Sample>,
    pub outcome: Outcome,
    pub plies: usize,
}

/// How far a run has come.
#[derive(Clone, Copy, Debug)]
pub struct DatagenProgress {
    /// Games in the file, those from earlier runs included.
    pub games: u64,
    pub total: u64,
    /// Positions in the file.
    pub samples: u64,
    /// Games and positions added by this run.
    pub new_games: u64,
    pub new_samples: u64,
    pub elapsed: Duration,
}

/// The seed of game `index`: independent of the threads and of earlier games.
fn game_seed(seed: u64, index: u64) -> u64 {
    splitmix64(seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15)).1
}

/// The result for the side to move `side`.
fn result_for(outcome: &Outcome, side: plateau_core::Side) -> GameResult {
    match outcome.winner {
        None => GameResult::Draw,
        Some(winner) if winner == side => GameResult::Win,
        Some(_) => GameResult::Loss,
    }
}

/// The engine of a run, on one thread unless its text asks for more.
pub fn build_engine(config: &DatagenConfig, seed: u64) -> Result<Box<dyn AnyEngine>, String> {
    config
        .spec
        .build_engine(&config.engine.clone().or_threads(1), seed)
}

/// Plays self-play game `index` of a run. `engine` is reset first (fresh
/// randomness, empty table), so that the game does not depend on what the
/// engine played before.
pub fn play_game(
    config: &DatagenConfig,
    engine: &mut Box<dyn AnyEngine>,
    index: u64,
) -> Result<GameSamples, String> {
    let seed = game_seed(config.seed, index);
    let mut rng = Rng::new(seed);
    // No draw for runs without gaps: their games stay what they were.
    let gapped = config.gaps > 0.0 && has_gap_layouts(&config.spec) && rng.unit() < config.gaps;
    let mut game = if gapped {
        let start = plateau_ataxx::gaps::random_gaps(&mut rng).to_text();
        let start = config.spec.from_text(&start).map_err(|e| e.to_string())?;
        random_plies_from(start.as_ref(), config.random_plies, &mut rng)?
    } else if let Some(plies) = config.move_limit {
        let start = config
            .spec
            .new_game_with_move_limit(plies)
            .ok_or_else(|| format!("{} has no move limit", config.spec.full_name()))?;
        random_plies_from(start.as_ref(), config.random_plies, &mut rng)?
    } else {
        draw_one(&config.spec, config.random_plies, &mut rng)?.build(&config.spec)?
    };
    // Either way the engine is as built, its table already empty: a second
    // clear of the table was 2% of a run's time in a profile.
    if !engine.restart(seed) {
        *engine = build_engine(config, seed)?;
    }
    let limits = Limits::nodes(config.nodes);
    let mut kept: Vec<(Sample, plateau_core::Side)> = Vec::new();
    let outcome = loop {
        if let Some(outcome) = game.outcome() {
            break outcome;
        }
        if game.history().len() >= config.max_plies as usize {
            break Outcome::draw(EndReason::PlyCap);
        }
        let thought = engine.think(game.as_ref(), &limits, &mut |_| {})?;
        if game.is_quiet() && !plateau_search::score::is_decisive(thought.score) {
            let score = thought.score.clamp(i16::MIN.into(), i16::MAX.into()) as i16;
            kept.push((
                Sample {
                    position: game.to_text(),
                    score,
                    result: GameResult::Draw,
                    ply: game.history().len().min(usize::from(u16::MAX)) as u16,
                },
                game.side_to_move(),
            ));
        }
        game.play(&thought.best)
            .map_err(|err| format!("the engine played an illegal move: {err}"))?;
    };
    let samples = kept
        .into_iter()
        .map(|(sample, side)| Sample {
            result: result_for(&outcome, side),
            ..sample
        })
        .collect();
    Ok(GameSamples {
        samples,
        outcome,
        plies: game.history().len(),
    })
}

/// Writes finished games in their order, whichever finishes first.
struct OrderedSink<'w, P> {
    writer: &'w mut DataWriter,
    next: u64,
    pending: BTreeMap<u64, GameSamples>,
    error: Option<String>,
    started: Instant,
    first_index: u64,
    first_samples: u64,
    total: u64,
    progress: P,
}

impl<P: FnMut(&DatagenProgress)> OrderedSink<'_, P> {
    fn accept(&mut self, index: u64, game: Result<GameSamples, String>) {
        if self.error.is_some() {
            return;
        }
        match game {
            Err(err) => self.error = Some(format!("game {}: {err}", index + 1)),
            Ok(game) => {
                self.pending.insert(index, game);
            }
        }
        while let Some(game) = self.pending.remove(&self.next) {
            if let Err(err) = self.writer.write_block(&game.samples) {
                self.error = Some(err.to_string());
                return;
            }
            self.next += 1;
        }
        let status = self.status();
        (self.progress)(&status);
    }

    fn status(&self) -> DatagenProgress {
        DatagenProgress {
            games: self.writer.blocks(),
            total: self.total,
            samples: self.writer.samples(),
            new_games: self.writer.blocks() - self.first_index,
            new_samples: self.writer.samples() - self.first_samples,
            elapsed: self.started.elapsed(),
        }
    }
}

/// Plays games `writer.blocks()..config.games` and writes them to `writer`,
/// or fewer when `config.time_limit` ends the run first. `progress` is called
/// after each game. Returns where the run ended.
pub fn run(
    config: &DatagenConfig,
    writer: &mut DataWriter,
    progress: impl FnMut(&DatagenProgress) + Send,
) -> Result<DatagenProgress, DataError> {
    let first = writer.blocks();
    let count = config.games.saturating_sub(first);
    let sink = Mutex::new(OrderedSink {
        first_samples: writer.samples(),
        writer,
        next: first,
        pending: BTreeMap::new(),
        error: None,
        started: Instant::now(),
        first_index: first,
        total: config.games,
        progress,
    });
    // Built once here so that a bad engine is reported before any game.
    build_engine(config, config.seed).map_err(|what| DataError::Invalid { what })?;
    run_jobs_with(
        count as usize,
        config.threads.max(1),
        || build_engine(config, config.seed),
        |engine, job| {
            let index = first + job as u64;
            let game = match engine {
                Ok(engine) => play_game(config, engine, index),
                Err(err) => Err(err.clone()),
            };
            let mut sink = sink.lock().unwrap_or_else(|e| e.into_inner());
            sink.accept(index, game);
        },
        |_, _| {
            let sink = sink.lock().unwrap_or_else(|e| e.into_inner());
            let in_time = config
                .time_limit
                .is_none_or(|limit| sink.started.elapsed() < limit);
            sink.error.is_none() && in_time
        },
    );
    let sink = sink.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(what) = sink.error {
        return Err(DataError::Invalid { what });
    }
    Ok(sink.status())
}
