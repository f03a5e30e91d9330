//! Self-play data: deterministic for a seed, resumable, and made of quiet,
//! undecided positions of the right game with results that agree with the
//! game's end.

use plateau_games::{GAMES, GameSpec};
use plateau_learn::data::{read_all, scan};
use plateau_learn::datagen::{self, DatagenConfig, build_engine, play_game};
use plateau_learn::{DataReader, DataWriter, GameResult, Header, Layout, merge};
use std::path::Path;

fn config(game: &str, games: u64, threads: usize, seed: u64) -> DatagenConfig {
    let spec = GameSpec::lookup(game, None).unwrap();
    DatagenConfig {
        spec,
        engine: spec.parse_engine("master,hash=1").unwrap(),
        games,
        nodes: 300,
        threads,
        seed,
        random_plies: spec.info.opening_plies + 4,
        max_plies: 300,
        move_limit: None,
        gaps: 0.0,
        time_limit: None,
    }
}

fn generate(path: &Path, config: &DatagenConfig) {
    let header = Header::new(config.spec.full_name(), Layout::Games);
    let mut writer = if path.exists() {
        DataWriter::append(path, &header.game).unwrap().0
    } else {
        DataWriter::create(path, &header).unwrap()
    };
    datagen::run(config, &mut writer, |_| {}).unwrap();
}

#[test]
fn a_seed_gives_the_same_file_whatever_the_threads_and_interruptions() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.data");
    let two = dir.path().join("two.data");
    generate(&one, &config("virus/5x5", 6, 1, 9));
    generate(&two, &config("virus/5x5", 2, 2, 9));
    generate(&two, &config("virus/5x5", 6, 2, 9));
    let bytes = std::fs::read(&one).unwrap();
    assert_eq!(bytes, std::fs::read(&two).unwrap());
    let contents = scan(&one).unwrap();
    assert_eq!(contents.blocks, 6);
    assert!(contents.samples > 20, "{contents:?}");

    let other = dir.path().join("other.data");
    generate(&other, &config("virus/5x5", 6, 1, 10));
    assert_ne!(bytes, std::fs::read(&other).unwrap());
}

#[test]
fn every_game_yields_quiet_undecided_positions_with_consistent_results() {
    for &info in GAMES {
        let config = config(info.name, 1, 1, 4);
        let mut engine = build_engine(&config, 1).unwrap();
        let game = play_game(&config, &mut engine, 0).unwrap();
        assert!(!game.samples.is_empty(), "{}: no position kept", info.name);
        for sample in &game.samples {
            let position = config
                .spec
                .from_text(&sample.position)
                .unwrap_or_else(|err| panic!("{}: {err}", info.name));
            assert!(position.outcome().is_none(), "{}", sample.position);
            assert!(position.is_quiet(), "{}: not quiet", sample.position);
            let expected = match game.outcome.winner {
                None => GameResult::Draw,
                Some(winner) if winner == position.side_to_move() => GameResult::Win,
                Some(_) => GameResult::Loss,
            };
            assert_eq!(sample.result, expected, "{}", sample.position);
            assert!(usize::from(sample.ply) < game.plies);
        }
        // Plies increase along the game.
        assert!(game.samples.windows(2).all(|w| w[0].ply < w[1].ply));
    }
}

#[test]
fn a_lost_position_scores_low_for_its_side() {
    // Over enough games, positions of the side that went on to win score
    // higher on average than those of the side that lost. (Four games were
    // too few: one long comeback can turn their means around.)
    let config = config("ataxx", 40, 2, 3);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ataxx.data");
    generate(&path, &config);
    let (header, samples) = read_all(&path).unwrap();
    assert_eq!(header.game, "ataxx");
    let mean = |result: GameResult| {
        let scores: Vec<f64> = samples
            .iter()
            .filter(|s| s.result == result)
            .map(|s| f64::from(s.score))
            .collect();
        scores.iter().sum::<f64>() / scores.len().max(1) as f64
    };
    assert!(
        mean(GameResult::Win) > mean(GameResult::Loss) + 50.0,
        "wins {} losses {}",
        mean(GameResult::Win),
        mean(GameResult::Loss)
    );
}

#[test]
fn merging_shuffles_deduplicates_and_refuses_mixed_games() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.data");
    let b = dir.path().join("b.data");
    let c = dir.path().join("c.data");
    generate(&a, &config("virus/5x5", 3, 1, 1));
    generate(&b, &config("virus/5x5", 3, 1, 2));
    generate(&c, &config("ataxx", 1, 1, 2));
    let merged = dir.path().join("merged.data");
    let summary = merge(&[a.clone(), b.clone()], &merged, Some(5), false).unwrap();
    let (_, first) = read_all(&a).unwrap();
    let (_, second) = read_all(&b).unwrap();
    assert_eq!(summary.samples as usize, first.len() + second.len());
    let (header, all) = read_all(&merged).unwrap();
    assert_eq!(header.layout, Layout::Mixed);
    let mut expected: Vec<_> = first.iter().chain(&second).cloned().collect();
    assert_ne!(all, expected, "not shuffled");
    let mut sorted = all.clone();
    sorted.sort_by(|x, y| (&x.position, x.ply).cmp(&(&y.position, y.ply)));
    expected.sort_by(|x, y| (&x.position, x.ply).cmp(&(&y.position, y.ply)));
    assert_eq!(sorted, expected);

    let twice = dir.path().join("twice.data");
    let summary = merge(&[a.clone(), a.clone()], &twice, None, true).unwrap();
    assert_eq!(summary.samples as usize, {
        let mut set = std::collections::HashSet::new();
        first.iter().filter(|s| set.insert(&s.position)).count()
    });
    assert!(summary.duplicates >= first.len() as u64);

    let err = merge(&[a.clone(), c], &twice, None, false).unwrap_err();
    assert!(err.to_string().contains("holds ataxx positions"), "{err}");
    let err = merge(std::slice::from_ref(&a), &a, None, false).unwrap_err();
    assert!(
        err.to_string().contains("both an input and the output"),
        "{err}"
    );
    // The refused merge left the input whole.
    assert_eq!(DataReader::open(&a).unwrap().header().game, "virus/5x5");
}

#[test]
fn packed_files_give_back_the_positions_self_play_wrote() {
    // Full Ataxx's move number is read back from the ply: it must be the
    // one the game had.
    let dir = tempfile::tempdir().unwrap();
    for game in ["ataxx", "virus/5x5", "virus/7x7"] {
        let config = config(game, 1, 1, 8);
        let mut engine = build_engine(&config, 1).unwrap();
        let played = play_game(&config, &mut engine, 0).unwrap();
        let path = dir.path().join("packed.data");
        let header = Header::new(config.spec.full_name(), Layout::Games);
        assert_eq!(
            header.version,
            plateau_learn::data::VERSION_PACKED,
            "{game}"
        );
        let mut writer = DataWriter::create(&path, &header).unwrap();
        writer.write_block(&played.samples).unwrap();
        drop(writer);
        let (_, read) = read_all(&path).unwrap();
        assert_eq!(read, played.samples, "{game}");
    }
}

#[test]
fn gapped_games_start_from_gap_layouts_and_others_do_not() {
    let gapped = DatagenConfig {
        gaps: 1.0,
        ..config("ataxx", 4, 1, 5)
    };
    let plain = config("ataxx", 4, 1, 5);
    let has_gaps = |text: &str| text.split_whitespace().next().unwrap().contains('-');
    let mut kept = 0;
    for index in 0..4 {
        let mut engine = build_engine(&gapped, 1).unwrap();
        // A random opening among gaps may lose a side all its stones at
        // once: such a game keeps no position, but no other kind.
        let game = play_game(&gapped, &mut engine, index).unwrap();
        kept += game.samples.len();
        for sample in &game.samples {
            assert!(has_gaps(&sample.position), "game {index}: {sample:?}");
        }
        let game = play_game(&plain, &mut engine, index).unwrap();
        assert!(game.samples.iter().all(|s| !has_gaps(&s.position)));
    }
    assert!(kept > 20, "{kept} positions kept");
    // About the share asked for.
    let half = DatagenConfig {
        gaps: 0.5,
        ..config("ataxx", 40, 1, 6)
    };
    let mut engine = build_engine(&half, 1).unwrap();
    let with_gaps = (0..40)
        .filter(|&i| {
            let game = play_game(&half, &mut engine, i).unwrap();
            game.samples.first().is_some_and(|s| has_gaps(&s.position))
        })
        .count();
    assert!((8..=32).contains(&with_gaps), "{with_gaps} of 40");
    assert!(!datagen::has_gap_layouts(&config("virus", 1, 1, 1).spec));
}

#[test]
fn games_under_a_move_limit_end_there_with_the_rules_result() {
    use plateau_core::EndReason;
    let limited = DatagenConfig {
        move_limit: Some(60),
        ..config("abalone/belgian-daisy", 6, 1, 7)
    };
    let mut engine = build_engine(&limited, 1).unwrap();
    let mut decided_by_marbles = 0;
    for index in 0..6 {
        let game = play_game(&limited, &mut engine, index).unwrap();
        assert!(game.plies <= 60, "game {index} ran {} plies", game.plies);
        assert_ne!(game.outcome.reason, EndReason::PlyCap, "game {index}");
        if game.outcome.reason == EndReason::MarblesAtMoveLimit {
            decided_by_marbles += 1;
            let winner = game.outcome.winner.expect("a marbles verdict has a winner");
            for sample in &game.samples {
                let side = limited
                    .spec
                    .from_text(&sample.position)
                    .unwrap()
                    .side_to_move();
                let expected = if side == winner {
                    GameResult::Win
                } else {
                    GameResult::Loss
                };
                assert_eq!(sample.result, expected, "{}", sample.position);
            }
        }
    }
    assert!(decided_by_marbles > 0, "no game was decided by marbles");

    let unlimited = DatagenConfig {
        move_limit: Some(24),
        ..config("virus/5x5", 1, 1, 7)
    };
    let mut engine = build_engine(&unlimited, 1).unwrap();
    let err = play_game(&unlimited, &mut engine, 0).unwrap_err();
    assert!(err.contains("has no move limit"), "{err}");
}
