//! Every engine profile, through the erased face, on random positions and in
//! self-play: legal moves always, reproducible at fixed depth, clocks respected.

use plateau_core::{AnyGame, Rng};
use plateau_games::{GameSpec, Limits, Profile};
use std::time::{Duration, Instant};

fn escampe() -> GameSpec {
    GameSpec::lookup("escampe", None).unwrap()
}

fn all_profiles() -> Vec<Profile> {
    Profile::names()
        .into_iter()
        .map(|n| Profile::parse(n).unwrap())
        .collect()
}

/// Quick limits per profile: the levels' own depths, a few milliseconds for the
/// timed ones.
fn quick_limits(profile: Profile) -> Limits {
    match profile {
        Profile::Seed | Profile::Level(plateau_games::Level::Master) => {
            Limits::movetime(Duration::from_millis(5))
        }
        other => other.default_limits(),
    }
}

/// Positions from random games: the two placement phases, forced passes, and
/// play positions.
fn random_positions(spec: GameSpec, count: usize, seed: u64) -> Vec<Box<dyn AnyGame>> {
    let mut rng = Rng::new(seed);
    let mut positions: Vec<Box<dyn AnyGame>> = Vec::new();
    let mut passes = 0;
    while positions.len() < count {
        let mut game = spec.new_game();
        while game.outcome().is_none() && positions.len() < count {
            let moves = game.legal_moves();
            let forced_pass = moves == ["E"];
            // Keep every forced pass, a few placements, and one position in four.
            let placing = game.history().len() < 2;
            if forced_pass || (placing && rng.below(10) == 0) || (!placing && rng.below(4) == 0) {
                passes += usize::from(forced_pass);
                positions.push(game.clone_box());
            }
            let mv = rng.choose(&moves).unwrap().clone();
            game.play(&mv).unwrap();
        }
    }
    assert!(passes > 5, "the sample includes forced passes ({passes})");
    positions
}

#[test]
fn every_profile_answers_a_legal_move_in_500_random_positions() {
    let spec = escampe();
    let positions = random_positions(spec, 500, 11);
    for profile in all_profiles() {
        let mut engine = spec.engine(profile, 3);
        for position in &positions {
            let thought = engine
                .think(position.as_ref(), &quick_limits(profile), &mut |_| {})
                .unwrap_or_else(|e| panic!("{profile} on {}: {e}", position.to_text()));
            let legal = position.legal_moves();
            assert!(
                legal.contains(&thought.best),
                "{profile} played {} in {}",
                thought.best,
                position.to_text()
            );
        }
    }
}

#[test]
fn self_play_at_every_level_is_legal_to_the_end() {
    let spec = escampe();
    for profile in all_profiles() {
        let mut white = spec.engine(profile, 1);
        let mut black = spec.engine(profile, 2);
        let mut game = spec.new_game();
        while game.outcome().is_none() {
            let engine = if game.side_to_move() == plateau_core::Side::White {
                &mut white
            } else {
                &mut black
            };
            let thought = engine
                .think(game.as_ref(), &quick_limits(profile), &mut |_| {})
                .unwrap();
            game.play(&thought.best)
                .unwrap_or_else(|e| panic!("{profile} played an illegal move: {e}"));
        }
        assert!(game.history().len() >= 3, "{profile}: {:?}", game.history());
    }
}

#[test]
fn same_seed_same_game_at_fixed_depth() {
    let spec = escampe();
    let play = |profile: Profile, seed: u64| {
        let mut engines = [spec.engine(profile, seed), spec.engine(profile, seed + 1)];
        let mut game = spec.new_game();
        let mut nodes = Vec::new();
        while game.outcome().is_none() && game.history().len() < 40 {
            let engine = &mut engines[game.side_to_move().index()];
            let thought = engine
                .think(game.as_ref(), &engine.default_limits(), &mut |_| {})
                .unwrap();
            nodes.push(thought.nodes);
            game.play(&thought.best).unwrap();
        }
        (game.history().to_vec(), nodes)
    };
    for name in ["beginner", "medium", "strong"] {
        let profile = Profile::parse(name).unwrap();
        let first = play(profile, 5);
        assert_eq!(first, play(profile, 5), "{name} repeats itself");
        assert!(first.0.len() > 2);
    }
    // A different seed gives the noisy levels a different game.
    let beginner = Profile::parse("beginner").unwrap();
    assert_ne!(play(beginner, 5).0, play(beginner, 6).0);
}

#[test]
fn a_short_clock_is_respected_over_a_whole_game() {
    let spec = escampe();
    let budget = Duration::from_secs(2);
    let mut engines = [
        spec.engine(Profile::parse("master").unwrap(), 1),
        spec.engine(Profile::parse("master").unwrap(), 2),
    ];
    let mut remaining = [budget, budget];
    let mut game = spec.new_game();
    while game.outcome().is_none() && game.history().len() < 200 {
        let side = game.side_to_move().index();
        let started = Instant::now();
        let thought = engines[side]
            .think(
                game.as_ref(),
                &Limits::clock(remaining[side], Duration::ZERO),
                &mut |_| {},
            )
            .unwrap();
        let spent = started.elapsed();
        assert!(
            spent <= remaining[side],
            "move {} took {spent:?} with {:?} left",
            game.history().len() + 1,
            remaining[side]
        );
        remaining[side] -= spent;
        game.play(&thought.best).unwrap();
    }
    // Generous: the reserve keeps a clear margin even on a loaded machine.
    for left in remaining {
        assert!(left > Duration::from_millis(50), "{left:?} left");
    }
}

#[test]
fn a_forced_move_is_answered_at_once_when_timed() {
    let spec = escampe();
    // White must pass: one legal move.
    let game = spec.from_text("nnn1nN/3n2/6/6/b1b3/1Bbb1b w 1").unwrap();
    let mut engine = spec.engine(Profile::parse("master").unwrap(), 0);
    let started = Instant::now();
    let thought = engine
        .think(
            game.as_ref(),
            &Limits::movetime(Duration::from_secs(5)),
            &mut |_| {},
        )
        .unwrap();
    assert_eq!(thought.best, "E");
    assert!(started.elapsed() < Duration::from_secs(1));
}

#[test]
fn an_engine_refuses_another_game_and_finished_games() {
    let spec = escampe();
    let mut engine = spec.engine(Profile::parse("expert").unwrap(), 0);
    let over = spec.from_text("n1n3/1n1n1n/6/1n4/1Bb1bb/bb4 b -");
    if let Ok(over) = over {
        assert!(
            engine
                .think(over.as_ref(), &Limits::depth(2), &mut |_| {})
                .is_err()
        );
    }
    let mut game = spec.from_text("n1B2b/2b3/b1nn2/5b/2b3/nnN3 w 2").unwrap();
    for mv in ["F6-E5", "A1-A2", "C2-C1"] {
        game.play(mv).unwrap();
    }
    let err = engine
        .think(game.as_ref(), &Limits::depth(2), &mut |_| {})
        .unwrap_err();
    assert!(err.contains("over"), "{err}");
}

#[test]
fn black_places_from_the_book_and_white_searches_its_placement() {
    let spec = escampe();
    let mut engine = spec.engine(Profile::parse("strong").unwrap(), 0);
    let mut game = spec.new_game();
    let black = engine
        .think(game.as_ref(), &Limits::depth(5), &mut |_| {})
        .unwrap();
    let book: Vec<String> = plateau_escampe::eval::placement_book()
        .iter()
        .map(|m| m.to_string())
        .collect();
    assert!(
        book.contains(&black.best),
        "{} is not in the book",
        black.best
    );
    game.play(&black.best).unwrap();
    let white = engine
        .think(game.as_ref(), &Limits::depth(3), &mut |_| {})
        .unwrap();
    assert!(game.legal_moves().contains(&white.best));
}

#[test]
fn engine_options_switch_search_parts_and_refuse_nonsense() {
    use plateau_games::EngineChoice;
    let choice = EngineChoice::parse("expert,lmr=off,aspiration=on,hash=8").unwrap();
    assert_eq!(choice.name(), "expert,hash=8,lmr=off,aspiration=on");
    assert_eq!(EngineChoice::parse(&choice.name()).unwrap(), choice);
    let err = EngineChoice::parse("expert,lmr=maybe").unwrap_err();
    assert!(err.contains("on or off"), "{err}");
    let err = EngineChoice::parse("expert,nullmove=off").unwrap_err();
    assert!(err.contains("lmr"), "{err}");
    // A switched engine still plays: the same move twice at a fixed depth.
    let spec = escampe();
    let game = spec.from_text("n1B2b/2b3/b1nn2/5b/2b3/nnN3 w 2").unwrap();
    let think = || {
        let mut engine = spec.engine(choice.profile, 1);
        engine.tweak(&choice.tweaks);
        engine
            .think(game.as_ref(), &Limits::depth(4), &mut |_| {})
            .unwrap()
    };
    let (a, b) = (think(), think());
    assert_eq!((a.best.clone(), a.nodes), (b.best, b.nodes));
    // Figure 6 of the brief is a forced win (by F6-E5, F6-F4 or F6-D6).
    assert!(
        plateau_games::describe_score(a.score).starts_with("win"),
        "{} {}",
        a.best,
        a.score
    );
}

#[test]
fn the_virus_engine_plays_endgames_exactly() {
    use plateau_games::{SolveOptions, describe_score};
    let spec = GameSpec::lookup("virus", None).unwrap();
    // 16 empty cells, Black to move: solved at once under a time limit.
    let text = "xxxxxxo/xxxxxoo/xxxoooo/xx2ooo/x3oo1/o5x/o5x x";
    let game = spec.from_text(text).unwrap();
    let exact = spec
        .solve(Some(text), &SolveOptions::default(), &mut |_| {})
        .unwrap();
    let value = exact.value().unwrap();
    let mut engine = spec.engine(Profile::parse("expert").unwrap(), 1);
    let thought = engine
        .think(
            game.as_ref(),
            &Limits::movetime(Duration::from_millis(500)),
            &mut |_| {},
        )
        .unwrap();
    assert_eq!(thought.depth, 16, "solved to the end");
    assert!(describe_score(thought.score).starts_with(if value > 0 { "win" } else { "loss" }));
    // The move keeps the exact value: after it, the opponent's value is its negation.
    let mut after = game.clone_box();
    after.play(&thought.best).unwrap();
    let reply = spec
        .solve(
            Some(&after.to_text()),
            &SolveOptions::default(),
            &mut |_| {},
        )
        .unwrap();
    assert_eq!(
        reply.value(),
        Some(-value),
        "{} after {}",
        after.to_text(),
        thought.best
    );
    // A node budget is kept: the solver, which does not count, stays out.
    let budgeted = engine
        .think(game.as_ref(), &Limits::nodes(2_000), &mut |_| {})
        .unwrap();
    assert!(
        budgeted.depth < 16 && budgeted.nodes <= 4_000,
        "{budgeted:?}"
    );
    // The seed profile never solves: it searches.
    let mut seed = spec.engine(Profile::parse("seed").unwrap(), 1);
    let searched = seed
        .think(game.as_ref(), &Limits::depth(3), &mut |_| {})
        .unwrap();
    assert_eq!(searched.depth, 3);
}

#[test]
fn a_front_ends_thread_count_gives_way_to_the_engine_texts() {
    use plateau_games::EngineChoice;
    let spec = escampe();
    let plain = EngineChoice::parse("master").unwrap().or_threads(3);
    assert_eq!(plain.tweaks.threads, Some(3));
    let engine = spec.engine_with(&plain, 1);
    assert_eq!(engine.threads(), 3);
    // `threads=` and `hash=` written in the engine text win.
    let written = EngineChoice::parse("master,threads=2,hash=8")
        .unwrap()
        .or_threads(3);
    let engine = spec.engine_with(&written, 1);
    assert_eq!((engine.threads(), engine.table_mb()), (2, 8));
    // Without either, a level searches on one thread with its own table.
    let engine = spec.engine(Profile::parse("master").unwrap(), 1);
    assert_eq!(engine.threads(), 1);
    assert!(engine.table_mb() > 0);
    let random = spec.engine(Profile::parse("random").unwrap(), 1);
    assert_eq!((random.threads(), random.table_mb()), (1, 0));
}

#[test]
fn excluding_moves_gives_the_next_best_ones_for_every_game() {
    for name in ["escampe", "draughts", "abalone", "virus", "ataxx"] {
        let spec = GameSpec::lookup(name, None).unwrap();
        for profile in ["medium", "random"] {
            let mut engine = spec.engine(Profile::parse(profile).unwrap(), 3);
            let mut game = spec.new_game();
            if name == "escampe" {
                // Blanc's placement: a search over every placement.
                game.play("C6/A6/B5/D5/E6/F5").unwrap();
            }
            let legal = game.legal_moves();
            let mut excluded: Vec<String> = Vec::new();
            for _ in 0..3.min(legal.len()) {
                let thought = engine
                    .think_excluding(game.as_ref(), &Limits::depth(2), &excluded, &mut |_| {})
                    .unwrap();
                assert!(legal.contains(&thought.best), "{name} {profile}");
                assert!(
                    !excluded.contains(&thought.best),
                    "{name} {profile}: {} was excluded",
                    thought.best
                );
                excluded.push(thought.best);
            }
            // With every move excluded there is nothing left to choose.
            let all = engine.think_excluding(game.as_ref(), &Limits::depth(1), &legal, &mut |_| {});
            assert!(all.is_err(), "{name} {profile}");
        }
    }
}

#[test]
fn the_first_excluding_search_skips_the_book() {
    // Noir's placement normally comes from the book; the alternatives search.
    let spec = escampe();
    let mut engine = spec.engine(Profile::parse("strong").unwrap(), 0);
    let game = spec.new_game();
    let searched = engine
        .think_excluding(game.as_ref(), &Limits::depth(3), &[], &mut |_| {})
        .unwrap();
    assert!(searched.nodes > 0, "a search, not a book move");
}
