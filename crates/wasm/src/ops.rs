//! The requests the worker sends, as JSON: `{"op": "...", ...}`.
//!
//! - `games`: the catalogue (names, variants, levels, sides);
//! - `state`: a game from its start and moves: position, legal moves, outcome;
//! - `positions`: the position after each move of a game (its replay);
//! - `think`: a search for the best move, reporting every iteration;
//! - `bench`: the game's bench positions at its bench depth, as `plateau bench`;
//! - `tune`: the tuner of `plateau tune`, reporting every generation.
//!
//! Every answer is a JSON object; a refused request answers `{"error": "..."}`
//! naming what was wrong, and leaves nothing changed.

use crate::report;
use plateau_arena::Tally;
use plateau_arena::tune::{Method, TuneConfig, TuneEvent, run_tune};
use plateau_core::time::Instant;
use plateau_core::{AnyGame, Side};
use plateau_games::{
    AnyEngine, EngineChoice, GAMES, GameSpec, Level, Limits, Profile, Tweaks, describe_score,
    plies_to_end,
};
use serde_json::{Value, json};
use std::cell::RefCell;
use std::path::PathBuf;
use std::time::Duration;

/// Longest search a request may ask for: every search ends by itself
/// (fixed-depth ones included), besides the page's stop.
const MAX_MOVETIME_MS: u64 = 600_000;
/// Transposition table of an in-browser engine, MB: memory a phone has.
const TABLE_MB: usize = 16;
/// Engines kept between calls (their tables make the next move faster).
const KEPT_ENGINES: usize = 4;
/// The tuner's bounds in a browser: a large run can still last long; the
/// page shows its progress and can stop it, keeping what it finished.
const MAX_GENERATIONS: u64 = 200;
const MAX_POPULATION: u64 = 64;

thread_local! {
    static ENGINES: RefCell<Vec<(String, Box<dyn AnyEngine>)>> = const { RefCell::new(Vec::new()) };
}

/// Answers one request (the whole ABI goes through here).
pub fn call(request: &str) -> String {
    let answer = serde_json::from_str::<Value>(request)
        .map_err(|err| format!("the request is not JSON: {err}"))
        .and_then(|value| dispatch(&value));
    match answer {
        Ok(value) => value.to_string(),
        Err(message) => json!({ "error": message }).to_string(),
    }
}

fn dispatch(request: &Value) -> Result<Value, String> {
    let op = request
        .get("op")
        .and_then(Value::as_str)
        .ok_or("the request names no \"op\"")?;
    match op {
        "games" => Ok(games()),
        "state" => {
            let (_, game) = build_game(request)?;
            Ok(state(game.as_ref()))
        }
        "positions" => positions(request),
        "think" => think(request),
        "bench" => bench(request),
        "tune" => tune(request),
        other => Err(format!(
            "unknown op {other:?}: games, state, positions, think, bench or tune"
        )),
    }
}

fn games() -> Value {
    let list: Vec<Value> = GAMES
        .iter()
        .map(|info| {
            json!({
                "name": info.name,
                "title": info.title,
                "variants": info.variants.iter().map(|v| v.name).collect::<Vec<_>>(),
                "example": info.position_example,
                "features": info.tuning.features,
                "sides": {
                    "white": info.sides[0].name,
                    "black": info.sides[1].name,
                },
            })
        })
        .collect();
    json!({
        "games": list,
        "levels": Level::ALL.map(|l| l.name()),
    })
}

fn text<'a>(request: &'a Value, key: &str) -> Result<Option<&'a str>, String> {
    match request.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(format!("\"{key}\" must be a string")),
    }
}

fn number(request: &Value, key: &str) -> Result<Option<u64>, String> {
    match request.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(value) => value
            .as_u64()
            .map(Some)
            .ok_or_else(|| format!("\"{key}\" must be a whole number")),
    }
}

/// The game a request describes: `game` (with its `variant`), from `start`
/// (a position text; the game's start when absent) after `moves`.
fn build_game(request: &Value) -> Result<(GameSpec, Box<dyn AnyGame>), String> {
    let name = text(request, "game")?.ok_or("the request names no \"game\"")?;
    let variant = text(request, "variant")?;
    let spec = GameSpec::lookup(name, variant).map_err(|e| e.to_string())?;
    let (spec, mut game) = match text(request, "start")? {
        Some(start) if !start.trim().is_empty() => {
            if GameSpec::names_variant(name, variant) {
                let game = spec
                    .from_text(start)
                    .map_err(|e| format!("position: {e}"))?;
                (spec, game)
            } else {
                spec.from_text_any_variant(start)
                    .map_err(|e| format!("position: {e}"))?
            }
        }
        _ => (spec, spec.new_game()),
    };
    let moves = match request.get("moves") {
        None | Some(Value::Null) => &[][..],
        Some(Value::Array(moves)) => moves.as_slice(),
        Some(_) => return Err("\"moves\" must be a list of moves".into()),
    };
    for (i, mv) in moves.iter().enumerate() {
        let mv = mv
            .as_str()
            .ok_or_else(|| format!("move {} is not a string", i + 1))?;
        game.play(mv)
            .map_err(|err| format!("move {} ({mv}): {err}", i + 1))?;
    }
    Ok((spec, game))
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "white",
        Side::Black => "black",
    }
}

fn state(game: &dyn AnyGame) -> Value {
    let outcome = game.outcome();
    json!({
        "game": game.name(),
        "start": game.start_text(),
        "position": game.to_text(),
        "moves": game.history(),
        "side_to_move": side_name(game.side_to_move()),
        "legal_moves": game.legal_moves(),
        "outcome": outcome.map(|o| json!({
            "winner": o.winner.map(side_name),
            "reason": o.reason.to_string(),
        })),
        "record": game.record(None),
    })
}

/// `positions`: the start and the position after every move.
fn positions(request: &Value) -> Result<Value, String> {
    let (_, mut game) = build_game(request)?;
    let moves = game.history().to_vec();
    let mut positions = vec![game.to_text()];
    while game.undo().is_some() {
        positions.push(game.to_text());
    }
    positions.reverse();
    Ok(json!({ "moves": moves, "positions": positions }))
}

/// The engine a request asks for, kept from call to call so its table helps
/// the next move: `level` (default `medium`), or a generation's `weights`
/// playing at that level.
fn with_engine<T>(
    spec: &GameSpec,
    request: &Value,
    table_mb: usize,
    use_it: impl FnOnce(&mut dyn AnyEngine) -> T,
) -> Result<T, String> {
    let level_name = text(request, "level")?.unwrap_or("medium");
    let level = Level::parse(level_name).ok_or_else(|| {
        format!(
            "unknown level {level_name:?}: {}",
            Level::ALL.map(|l| l.name()).join(", ")
        )
    })?;
    let weights: Option<Vec<f32>> = match request.get("weights") {
        None | Some(Value::Null) => None,
        Some(Value::Array(list)) => Some(
            list.iter()
                .map(|w| w.as_f64().map(|w| w as f32))
                .collect::<Option<_>>()
                .ok_or("\"weights\" must be numbers")?,
        ),
        Some(_) => return Err("\"weights\" must be a list of numbers".into()),
    };
    let seed = number(request, "seed")?.unwrap_or(1);
    // Analysis wants the engine's own view of the position, not a book move.
    let analysis = request.get("analysis").and_then(Value::as_bool) == Some(true);
    let key = format!(
        "{}|{level_name}|{weights:?}|{table_mb}|{analysis}",
        spec.full_name()
    );
    let tweaks = Tweaks {
        table_mb: Some(table_mb),
        threads: Some(1),
        no_book: analysis,
        ..Tweaks::default()
    };
    ENGINES.with(|engines| {
        let mut engines = engines.borrow_mut();
        let index = match engines.iter().position(|(k, _)| *k == key) {
            Some(index) => {
                // Same strength, fresh randomness for this move.
                let (_, engine) = &mut engines[index];
                if !engine.restart(seed) {
                    engines.remove(index);
                }
                engines.iter().position(|(k, _)| *k == key)
            }
            None => None,
        };
        let index = match index {
            Some(index) => index,
            None => {
                let engine = match &weights {
                    Some(weights) => {
                        let mut engine =
                            spec.engine_with_weights(weights, Profile::Level(level), seed)?;
                        engine.tweak(&tweaks);
                        engine
                    }
                    None => spec.engine_with(
                        &EngineChoice {
                            profile: Profile::Level(level),
                            tweaks,
                        },
                        seed,
                    ),
                };
                if engines.len() >= KEPT_ENGINES {
                    engines.remove(0);
                }
                engines.push((key, engine));
                engines.len() - 1
            }
        };
        Ok(use_it(engines[index].1.as_mut()))
    })
}

fn score_json(score: i32) -> Value {
    json!({
        "value": score,
        "text": describe_score(score),
        "ends_in": plies_to_end(score),
    })
}

/// `think`: the level's own limits unless `movetime_ms` or `depth` say
/// otherwise; every completed iteration is reported as `{"info": ...}`.
/// `"analysis": true` searches without the opening book.
fn think(request: &Value) -> Result<Value, String> {
    let (spec, game) = build_game(request)?;
    if game.outcome().is_some() {
        return Err("the game is over: there is no move to look for".into());
    }
    let table_mb = number(request, "table_mb")?.map_or(TABLE_MB, |mb| mb.clamp(1, 256) as usize);
    let movetime = number(request, "movetime_ms")?;
    let depth = number(request, "depth")?;
    let id = request.get("id").cloned().unwrap_or(Value::Null);
    let level = text(request, "level")?.and_then(Level::parse);
    let mut limits = level.map_or_else(|| Limits::depth(3), Level::limits);
    if let Some(ms) = movetime {
        limits = Limits::movetime(Duration::from_millis(ms.clamp(1, MAX_MOVETIME_MS)));
    }
    if let Some(depth) = depth {
        let depth = depth.clamp(1, 99) as u32;
        limits = if movetime.is_some() {
            Limits {
                depth: Some(depth),
                ..limits
            }
        } else {
            Limits::depth(depth)
        };
    }
    let cap = Duration::from_millis(MAX_MOVETIME_MS);
    limits.movetime = Some(limits.movetime.map_or(cap, |t| t.min(cap)));
    let side = game.side_to_move();
    let thought = with_engine(&spec, request, table_mb, |engine| {
        engine.think(game.as_ref(), &limits, &mut |line| {
            report::send(&json!({
                "id": id,
                "info": {
                    "depth": line.depth,
                    "seldepth": line.seldepth,
                    "score": score_json(line.score),
                    "nodes": line.nodes,
                    "nps": line.nps,
                    "time_ms": line.elapsed.as_millis() as u64,
                    "pv": line.pv,
                    "side_to_move": side_name(side),
                },
            }));
        })
    })??;
    Ok(json!({
        "best": thought.best,
        "score": score_json(thought.score),
        "depth": thought.depth,
        "nodes": thought.nodes,
        "time_ms": thought.elapsed.as_millis() as u64,
        "pv": thought.pv,
        "side_to_move": side_name(side),
    }))
}

/// `bench`: what `plateau bench GAME` searches (its positions, its depth,
/// the `expert` engine, a fresh engine per position), timed here.
fn bench(request: &Value) -> Result<Value, String> {
    let name = text(request, "game")?.ok_or("the request names no \"game\"")?;
    let spec = GameSpec::lookup(name, text(request, "variant")?).map_err(|e| e.to_string())?;
    let depth = match number(request, "depth")? {
        None => spec.info.bench_depth,
        Some(depth @ 1..=40) => depth as u32,
        Some(depth) => return Err(format!("\"depth\" {depth}: between 1 and 40")),
    };
    let limits = Limits::depth(depth);
    let choice = EngineChoice {
        profile: Profile::Level(Level::Expert),
        tweaks: Tweaks::default(),
    };
    let (mut nodes, mut time, mut positions) = (0u64, Duration::ZERO, Vec::new());
    for (i, text) in spec.info.bench_positions.iter().enumerate() {
        let game = spec.from_text(text).map_err(|e| e.to_string())?;
        let mut engine = spec.engine_with(&choice, 0);
        let started = Instant::now();
        let thought = engine.think(game.as_ref(), &limits, &mut |_| {})?;
        let elapsed = started.elapsed();
        nodes += thought.nodes;
        time += elapsed;
        positions.push(json!({
            "depth": thought.depth,
            "nodes": thought.nodes,
            "time_ms": elapsed.as_secs_f64() * 1000.0,
            "best": thought.best,
        }));
        report::send(&json!({ "bench": { "game": spec.full_name(), "position": i + 1 } }));
    }
    let seconds = time.as_secs_f64();
    Ok(json!({
        "game": spec.full_name(),
        "depth": depth,
        "positions": positions,
        "nodes": nodes,
        "time_ms": seconds * 1000.0,
        "nps": if seconds > 0.0 { (nodes as f64 / seconds).round() as u64 } else { 0 },
    }))
}

fn tally_json(tally: &Tally) -> Value {
    let (low, high) = tally.score_interval();
    json!({
        "wins": tally.wins,
        "draws": tally.draws,
        "losses": tally.losses,
        "score": tally.score(),
        "low": low,
        "high": high,
        "elo": tally.elo_text(),
    })
}

/// `tune`: `plateau tune`'s run with small defaults (a generation takes
/// seconds), keeping nothing on disk: every generation's champion is
/// reported as `{"generation": ...}` and kept by the page.
fn tune(request: &Value) -> Result<Value, String> {
    let name = text(request, "game")?.ok_or("the request names no \"game\"")?;
    let spec = GameSpec::lookup(name, text(request, "variant")?).map_err(|e| e.to_string())?;
    let mut config = TuneConfig::seed_defaults(spec, PathBuf::new());
    config.method = match text(request, "method")?.unwrap_or("evolution") {
        "evolution" => Method::Evolution,
        "spsa" => Method::Spsa,
        other => return Err(format!("unknown method {other:?}: evolution or spsa")),
    };
    // Small by default: ten generations in seconds to a minute or two on one
    // browser thread (the seed's depth 2, a smaller population, fewer games).
    config.generations = 10;
    config.population = 8;
    config.games = 2;
    config.depth = 2;
    config.measure_games = 8;
    config.opening_pool = 32;
    config.elite = 2;
    config.parents = 4;
    config.spsa.steps_per_generation = 6;
    config.verify_games = 0;
    config.max_plies = Some(300);
    let bounded = |key: &str, max: u64| -> Result<Option<u64>, String> {
        match number(request, key)? {
            Some(n) if n > max => Err(format!("\"{key}\" {n} is more than {max}")),
            other => Ok(other),
        }
    };
    if let Some(n) = bounded("generations", MAX_GENERATIONS)? {
        config.generations = n as u32;
    }
    if let Some(n) = bounded("population", MAX_POPULATION)? {
        config.population = n as usize;
        config.parents = config.parents.min(config.population).max(2);
        config.elite = config.elite.min(config.population.saturating_sub(1));
    }
    if let Some(n) = bounded("games", 64)? {
        config.games = n as u32;
    }
    if let Some(n) = bounded("depth", 6)? {
        config.depth = n as u32;
    }
    if let Some(n) = bounded("measure_games", 200)? {
        config.measure_games = n as u32;
    }
    if let Some(n) = bounded("steps", 500)? {
        config.spsa.steps_per_generation = n as u32;
    }
    if let Some(n) = number(request, "seed")? {
        config.seed = n;
    }
    let features = spec.info.tuning.features;
    let start = config.start.clone();
    let result = run_tune(&config, |event| match event {
        TuneEvent::Stage { name, games } => {
            report::send(&json!({ "stage": { "name": name, "games": games } }));
        }
        TuneEvent::Game { done } => report::send(&json!({ "game_done": done })),
        TuneEvent::Generation(generation) => {
            let champion = &generation.ranked[0];
            report::send(&json!({
                "generation": {
                    "number": generation.number,
                    "weights": champion.weights,
                    "points": champion.points,
                    "games": champion.games,
                    "measure": tally_json(&generation.measure),
                    "time_ms": generation.elapsed.as_millis() as u64,
                },
            }));
        }
        TuneEvent::Verification(_) => {}
    })
    .map_err(|err| err.to_string())?;
    Ok(json!({
        "game": spec.full_name(),
        "method": config.method_text(),
        "features": features,
        "start": start,
        "champion": result.champion,
        "generations": result.generations.len(),
        "time_ms": result.elapsed.as_millis() as u64,
    }))
}
