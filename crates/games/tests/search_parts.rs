//! The search's parts and threads, through every game's engine: each switch
//! plays legal moves either way, parallel searches answer legal moves and keep
//! to their time, and a single-thread fixed-depth search is reproducible.

use plateau_games::{AnyEngine, EngineChoice, GAMES, GameSpec, Limits, Switch};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

fn every_game() -> Vec<GameSpec> {
    GAMES
        .iter()
        .map(|info| GameSpec::lookup(info.name, None).unwrap())
        .collect()
}

fn engine(spec: &GameSpec, text: &str, seed: u64) -> Box<dyn AnyEngine> {
    let choice = EngineChoice::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    spec.engine_with(&choice, seed)
}

/// A middle-game position of the game (its first bench position).
fn middle_game(spec: &GameSpec) -> Box<dyn plateau_core::AnyGame> {
    spec.from_text(spec.info.bench_positions[0]).unwrap()
}

/// Plays `plies` moves of self-play with `engine` from the game's bench
/// position, checking that every move is legal.
fn self_play(spec: &GameSpec, engine: &mut dyn AnyEngine, limits: &Limits, plies: usize) {
    let mut game = middle_game(spec);
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let thought = engine
            .think(game.as_ref(), limits, &mut |_| {})
            .unwrap_or_else(|e| panic!("{}: {e}", spec.full_name()));
        assert!(
            game.legal_moves().contains(&thought.best),
            "{}: {} is not legal in {}",
            spec.full_name(),
            thought.best,
            game.to_text()
        );
        game.play(&thought.best).unwrap();
    }
}

#[test]
fn every_switch_parses_prints_and_plays_legal_moves_either_way() {
    for spec in every_game() {
        for name in Switch::ALL.map(Switch::name) {
            for value in ["on", "off"] {
                let text = format!("expert,{name}={value}");
                let choice = EngineChoice::parse(&text).unwrap();
                assert_eq!(EngineChoice::parse(&choice.name()).unwrap(), choice);
                let mut engine = spec.engine_with(&choice, 3);
                self_play(&spec, engine.as_mut(), &Limits::depth(3), 6);
            }
        }
        // All the selective parts at once, on and off.
        for text in ["expert,selective=off", "expert,selective=on,margins=300"] {
            let mut engine = engine(&spec, text, 3);
            self_play(&spec, engine.as_mut(), &Limits::depth(4), 6);
        }
    }
}

#[test]
fn search_options_refuse_nonsense_with_a_reason() {
    for (text, expected) in [
        ("master,threads=0", "threads"),
        ("master,threads=many", "threads"),
        ("master,threads=100000", "threads"),
        ("master,nmp=maybe", "on or off"),
        ("master,selective=sometimes", "on or off"),
        ("master,margins=0", "margins"),
        ("master,lmr-div=0", "lmr-div"),
        ("master,lmr-base=-3", "lmr-base"),
        ("master,hash=999999", "hash"),
        ("master,nullmove=off", "nmp"),
    ] {
        let err = EngineChoice::parse(text).unwrap_err();
        assert!(err.contains(expected), "{text}: {err}");
    }
    let choice = EngineChoice::parse("master,selective=off,nmp=on,threads=3").unwrap();
    assert_eq!(
        EngineChoice::parse(&choice.name()).unwrap(),
        choice,
        "{}",
        choice.name()
    );
    let all_off = EngineChoice::parse("master,selective=off").unwrap();
    assert_eq!(all_off.name(), "master,selective=off");
}

#[test]
fn single_thread_fixed_depth_searches_are_reproducible() {
    for spec in every_game() {
        let game = middle_game(&spec);
        let think = || {
            let mut engine = engine(&spec, "expert,threads=1", 5);
            let thought = engine
                .think(game.as_ref(), &Limits::depth(6), &mut |_| {})
                .unwrap();
            (thought.best, thought.nodes, thought.score)
        };
        assert_eq!(think(), think(), "{}", spec.full_name());
    }
}

#[test]
fn parallel_searches_answer_legal_moves_within_their_time() {
    for spec in every_game() {
        for threads in [2, 4] {
            let mut engine = engine(&spec, &format!("master,threads={threads}"), 9);
            assert_eq!(engine.threads(), threads);
            let game = middle_game(&spec);
            let started = Instant::now();
            let thought = engine
                .think(
                    game.as_ref(),
                    &Limits::movetime(Duration::from_millis(150)),
                    &mut |_| {},
                )
                .unwrap();
            let elapsed = started.elapsed();
            assert!(game.legal_moves().contains(&thought.best));
            // Generous: the machines running tests are shared.
            assert!(
                elapsed < Duration::from_millis(1500),
                "{} with {threads} threads took {elapsed:?}",
                spec.full_name()
            );
            // Fixed-depth and node-bounded searches end too.
            let thought = engine
                .think(game.as_ref(), &Limits::depth(5), &mut |_| {})
                .unwrap();
            assert_eq!(thought.depth, 5, "{}", spec.full_name());
            assert!(game.legal_moves().contains(&thought.best));
            let thought = engine
                .think(game.as_ref(), &Limits::nodes(20_000), &mut |_| {})
                .unwrap();
            assert!(game.legal_moves().contains(&thought.best));
            assert!(
                thought.nodes < 20_000 + threads as u64 * 4096,
                "{} nodes for a 20 000 budget",
                thought.nodes
            );
        }
    }
}

#[test]
fn parallel_self_play_is_legal() {
    for spec in every_game() {
        let mut engine = engine(&spec, "master,threads=2", 4);
        self_play(
            &spec,
            engine.as_mut(),
            &Limits::movetime(Duration::from_millis(20)),
            8,
        );
    }
}

#[test]
fn the_stop_flag_ends_an_unbounded_parallel_search() {
    let spec = GameSpec::lookup("draughts", None).unwrap();
    let mut engine = engine(&spec, "master,threads=3", 1);
    let stop = engine.stop_flag();
    let game = middle_game(&spec);
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        // The search clears the flag when it starts: raise it until it ends.
        for _ in 0..500 {
            stop.store(true, Ordering::Relaxed);
            std::thread::sleep(Duration::from_millis(5));
        }
    });
    let started = Instant::now();
    let thought = engine
        .think(game.as_ref(), &Limits::default(), &mut |_| {})
        .unwrap();
    assert!(started.elapsed() < Duration::from_secs(3));
    assert!(game.legal_moves().contains(&thought.best));
    stopper.join().unwrap();
}
