//! The engine finds forced wins, and finds the fastest: checked against an
//! independent brute-force solver on hand-picked Escampe positions.

mod support;

use plateau_core::{EndReason, Evaluator, Game};
use plateau_escampe::{Escampe, EscampeEval};
use plateau_search::{Engine, Limits, Options, score};
use support::{defender_escapes, forced_win_in};

/// (position, side to move wins in this many of its moves, what the line shows).
const FORCED_WINS: &[(&str, u32, &str)] = &[
    ("2b3/4b1/bb3b/1N1n2/2n1nn/Bn4 w 2", 1, "white takes at once"),
    ("2b2b/6/bb3b/BNn3/2n1n1/n2n2 b -", 1, "black takes at once"),
    ("n1B2b/2b3/b1nn2/5b/2b3/nnN3 w 2", 2, "the brief's figure 6"),
    ("2b2b/3b2/b4b/BNn3/2n1n1/n3n1 w 3", 2, "white in two"),
    ("2b2b/6/bb3b/BNn3/2n1n1/n3n1 b 1", 2, "black in two"),
    (
        "n1N1n1/1n1n1n/6/6/1Bb1bb/bb4 w -",
        2,
        "black is forced to pass",
    ),
    (
        "3n1b/n2n2/3bNn/6/bn3b/1Bb3 b 2",
        2,
        "black must pass first, then wins",
    ),
    ("1Nn1n1/n4n/3n1b/1b2B1/1b3b/b5 w 1", 3, "white in three"),
    ("6/bBb3/N1bnb1/n3b1/5n/1nn3 w 2", 3, "white passes first"),
    ("b1b3/b1bB2/5b/6/n1nn1n/nN4 b 1", 3, "black in three"),
    ("bbbb2/6/bn2n1/6/n3n1/2BnN1 b 2", 3, "black passes first"),
];

fn engine<E: Evaluator<Escampe>>(evaluator: E, options: Options) -> Engine<Escampe, E> {
    Engine::new(evaluator, options)
}

#[test]
fn the_reference_positions_are_what_they_claim() {
    for &(text, moves, what) in FORCED_WINS {
        let mut game = Escampe::from_text(text).unwrap();
        assert_eq!(forced_win_in(&mut game, 3), Some(moves), "{what}: {text}");
    }
}

#[test]
fn the_engine_finds_the_fastest_win_and_plays_a_move_that_keeps_it() {
    let parallel = Options {
        threads: 3,
        ..Options::full()
    };
    for options in [
        Options::full(),
        Options::classic(),
        parallel,
        Options::seed_baseline(),
    ] {
        for &(text, moves, what) in FORCED_WINS {
            let game = Escampe::from_text(text).unwrap();
            let mut engine = engine(EscampeEval::standard(), options);
            let result = engine.search(&game, &Limits::depth(2 * moves + 1), |_| {});
            assert_eq!(
                score::plies_to_end(result.score),
                Some(2 * moves as i32 - 1),
                "{what}: {text} scored {}",
                score::describe(result.score)
            );
            let best = result.best.expect("a move");
            let mut after = game.clone();
            after.play(best);
            let kept = match after.outcome() {
                Some(outcome) => outcome.winner == Some(game.side_to_move()),
                None => !defender_escapes(&mut after, 2 * moves - 2),
            };
            assert!(
                kept,
                "{what}: {} from {text} lets the win go",
                game.format_move(best)
            );
        }
    }
}

#[test]
fn figure_6_is_a_forced_win_found_from_depth_3() {
    let game = Escampe::from_text("n1B2b/2b3/b1nn2/5b/2b3/nnN3 w 2").unwrap();
    for depth in 3..=8 {
        let mut engine = engine(EscampeEval::standard(), Options::full());
        let result = engine.search(&game, &Limits::depth(depth), |_| {});
        assert_eq!(score::describe(result.score), "win in 2", "depth {depth}");
        // F6-E5 is the brief's answer; F6-F4 and F6-D6 also arrive on a liseré-1
        // square and force A1-A2 just the same.
        let best = game.format_move(result.best.unwrap());
        assert!(
            ["F6-E5", "F6-F4", "F6-D6"].contains(&best.as_str()),
            "{best}"
        );
    }
    // With F6-E5 played, the engine defends with the only move, then loses.
    let mut game = game;
    game.play(game.parse_move("F6-E5").unwrap());
    let mut engine = engine(EscampeEval::standard(), Options::full());
    let result = engine.search(&game, &Limits::depth(4), |_| {});
    assert_eq!(game.format_move(result.best.unwrap()), "A1-A2");
    assert_eq!(score::describe(result.score), "loss in 1");
}

#[test]
fn the_pv_of_a_forced_win_ends_in_the_capture() {
    let game = Escampe::from_text("n1N1n1/1n1n1n/6/6/1Bb1bb/bb4 w -").unwrap();
    let mut engine = engine(EscampeEval::standard(), Options::full());
    let result = engine.search(&game, &Limits::depth(5), |_| {});
    let mut replay = game.clone();
    let line: Vec<String> = result
        .pv
        .iter()
        .map(|&mv| {
            let text = replay.format_move(mv);
            replay.play(mv);
            text
        })
        .collect();
    assert_eq!(line, ["C2-C5", "E", "C5-C6"]);
    assert_eq!(replay.outcome().unwrap().reason, EndReason::UnicornCaptured);
}

#[test]
fn fixed_depth_searches_repeat_exactly() {
    let game = Escampe::from_text("1bB3/5b/3b2/bnb3/n1nn2/N3n1 w -").unwrap();
    let run = || {
        let mut engine = engine(
            EscampeEval::standard(),
            Options {
                noise: 30,
                seed: 7,
                ..Options::full()
            },
        );
        let result = engine.search(&game, &Limits::depth(9), |_| {});
        (result.best, result.nodes, result.score)
    };
    assert_eq!(run(), run());
}

#[test]
fn node_and_time_limits_stop_the_search_with_a_legal_move() {
    let game = Escampe::from_text("1bB3/5b/3b2/bnb3/n1nn2/N3n1 w -").unwrap();
    let mut engine = engine(EscampeEval::standard(), Options::full());
    let result = engine.search(&game, &Limits::nodes(20_000), |_| {});
    assert!(result.nodes < 20_000 + 2_048, "{}", result.nodes);
    let best = game.format_move(result.best.unwrap());
    assert!(game.parse_move(&best).is_ok());

    let started = std::time::Instant::now();
    let result = engine.search(
        &game,
        &Limits::movetime(std::time::Duration::from_millis(50)),
        |_| {},
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(2));
    assert!(result.best.is_some() && result.depth >= 1);
}

#[test]
fn info_is_reported_once_per_completed_depth() {
    let game = Escampe::from_text("1bB3/5b/3b2/bnb3/n1nn2/N3n1 w -").unwrap();
    let mut engine = engine(EscampeEval::standard(), Options::full());
    let mut depths = Vec::new();
    let result = engine.search(&game, &Limits::depth(6), |info| {
        assert!(!info.pv.is_empty());
        depths.push(info.depth);
    });
    assert_eq!(depths, [1, 2, 3, 4, 5, 6]);
    assert_eq!(result.depth, 6);
}

#[test]
fn the_stop_flag_ends_a_search_from_another_thread() {
    let game = Escampe::from_text("1bB3/5b/3b2/bnb3/n1nn2/N3n1 w -").unwrap();
    let mut engine = engine(EscampeEval::standard(), Options::full());
    let stop = engine.stop_flag();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(50));
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let started = std::time::Instant::now();
    let result = engine.search(&game, &Limits::default(), |_| {});
    stopper.join().unwrap();
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    assert!(result.best.is_some());
}

#[test]
fn a_side_that_moves_twice_in_a_row_is_scored_from_its_own_side() {
    // White places, then White moves: the search must not flip the score between
    // the two. Against the brief's placement for Black, White has a placement
    // that wins in two moves (C2-C5 forces Black to pass, then C5-C6).
    let mut game = Escampe::new();
    game.play(game.parse_move("C6/A6/B5/D5/E6/F5").unwrap());
    let mut engine = engine(EscampeEval::standard(), Options::full());
    let result = engine.search(&game, &Limits::depth(4), |_| {});
    assert_eq!(score::describe(result.score), "win in 2");
    game.play(result.best.unwrap());
    assert_eq!(game.side_to_move(), plateau_core::Side::White);
    assert_eq!(forced_win_in(&mut game, 2), Some(2), "{}", game.to_text());
}
