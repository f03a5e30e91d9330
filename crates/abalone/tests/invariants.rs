//! Random-playout invariants over more than 1 000 whole or partial games.

use plateau_abalone::{Abalone, DEFAULT_MAX_PLIES, Layout, Move};
use plateau_core::invariants::{PlayoutReport, check_position, check_random_playouts};
use plateau_core::{EndReason, Game, MoveList, Rng};
use std::collections::HashSet;

#[test]
fn random_games_from_every_layout_keep_every_invariant() {
    for (seed, layout) in Layout::ALL.into_iter().enumerate() {
        let start = Abalone::start(layout);
        let report = check_random_playouts(&start, 200, 60, seed as u64 + 1);
        assert_eq!(report.games, 200);
        assert!(report.positions > 200 * 50, "{report:?}");
    }
}

#[test]
fn random_endgames_finish_by_ejection_and_by_the_ply_limit() {
    // Five marbles down each, marbles in contact: random play soon ejects a
    // sixth; the ply limit stops the rest.
    let start = Abalone::from_text("4w/2www1/1bbwww1/1bbwbw2/1bbbb4/8/7/6/5 b b5 w5")
        .expect("legal position")
        .with_max_plies(80);
    let report = check_random_playouts(&start, 500, 200, 7);
    assert_eq!(report.games, 500);
    assert!(
        report.finished_games == 500,
        "every game ends by ejection or at the ply limit: {report:?}"
    );
    // Both endings happened.
    let mut ejections = 0;
    let mut limits = 0;
    let mut rng = plateau_core::Rng::new(7);
    let mut list = plateau_core::MoveList::new();
    for _ in 0..100 {
        let mut game = start.clone();
        loop {
            game.legal_moves(&mut list);
            let Some(&mv) = rng.choose(&list) else { break };
            game.play(mv);
        }
        match game.outcome().map(|o| o.reason) {
            Some(EndReason::SixMarblesEjected) => ejections += 1,
            Some(EndReason::PlyLimit) => limits += 1,
            other => panic!("unexpected end {other:?}"),
        }
    }
    assert!(ejections > 10 && limits > 10, "{ejections} / {limits}");
}

/// How random games ended, by reason.
#[derive(Debug, Default)]
struct Endings {
    repetitions: usize,
    ply_limits: usize,
    others: usize,
}

/// Random games from `start` that, with probability `back` at each ply, play a
/// move returning to a position seen since the last ejection (when one
/// exists): shuffling play that reaches threefold repetitions, which uniform
/// random play never does. Every position gets the shared invariant checks,
/// and the save file of every repeated or final position must restore its
/// ply count, repetitions and outcome.
fn shuffling_playouts(start: &Abalone, games: usize, back: f64, seed: u64) -> Endings {
    let mut rng = Rng::new(seed);
    let mut report = PlayoutReport::default();
    let (mut list, mut scratch) = (MoveList::new(), MoveList::new());
    let mut endings = Endings::default();
    for _ in 0..games {
        let mut game = start.clone();
        let mut seen = HashSet::from([game.hash()]);
        loop {
            check_position(&game, &mut list, &mut scratch, &mut report);
            if game.repetitions() > 1 || list.is_empty() {
                let reread = Abalone::from_file(&game.to_file()).unwrap();
                assert_eq!(reread.ply(), game.ply());
                assert_eq!(reread.repetitions(), game.repetitions());
                assert_eq!(reread.outcome(), game.outcome());
            }
            if list.is_empty() {
                match game.outcome().map(|o| o.reason) {
                    Some(EndReason::Repetition) => endings.repetitions += 1,
                    Some(EndReason::PlyLimit) => endings.ply_limits += 1,
                    _ => endings.others += 1,
                }
                break;
            }
            let returning: Vec<Move> = list
                .iter()
                .copied()
                .filter(|&mv| {
                    game.play(mv);
                    let known = seen.contains(&game.hash());
                    game.undo(mv);
                    known
                })
                .collect();
            let choice = if !returning.is_empty() && rng.unit() < back {
                rng.choose(&returning)
            } else {
                rng.choose(&list)
            };
            let mv = *choice.expect("moves exist");
            game.play(mv);
            if mv.ejects() {
                seen.clear();
            }
            seen.insert(game.hash());
        }
    }
    endings
}

#[test]
fn shuffling_games_end_by_repetition_and_long_ones_at_the_default_ply_limit() {
    let start = Abalone::new();
    assert_eq!(start.max_plies(), DEFAULT_MAX_PLIES);
    let shuffling = shuffling_playouts(&start, 20, 0.9, 11);
    assert!(shuffling.repetitions >= 15, "{shuffling:?}");
    // Rarely returning, games run to the 400-ply limit.
    let long = shuffling_playouts(&start, 4, 0.02, 12);
    assert!(long.ply_limits >= 2, "{long:?}");
}
