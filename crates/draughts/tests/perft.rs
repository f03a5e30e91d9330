//! Every vector of `tests/data/draughts.perft`: the shallow ones in the normal
//! run, the deep ones (more than a few seconds) as ignored tests.

use plateau_core::{Game, PerftVector, parse_perft_file, perft};
use plateau_draughts::Draughts;

/// Leaves counted in the normal run, at most (perft 8 from the start is 6.5 M).
const QUICK_LIMIT: u64 = 10_000_000;

fn vectors() -> Vec<PerftVector> {
    let vectors = parse_perft_file(include_str!("data/draughts.perft")).expect("perft file reads");
    assert!(vectors.len() >= 30, "the data file has all its vectors");
    vectors
}

fn check(vector: &PerftVector) {
    let position = vector
        .position
        .as_deref()
        .expect("every vector has a position");
    // Published counts ignore the draw rules (see `with_draw_rules_perft_9...`).
    let mut game = Draughts::from_text(position)
        .expect("reference positions are legal")
        .with_draw_rules(false);
    let before = game.clone();
    let count = perft(&mut game, vector.depth);
    assert_eq!(
        count, vector.count,
        "line {}: perft {} of {position}",
        vector.line, vector.depth
    );
    assert_eq!(game, before, "perft leaves the position as it was");
}

#[test]
fn every_quick_reference_count_matches() {
    let quick: Vec<_> = vectors()
        .into_iter()
        .filter(|v| v.count <= QUICK_LIMIT)
        .collect();
    assert!(quick.len() >= 20);
    assert!(
        quick
            .iter()
            .any(|v| v.depth == 8 && v.position.as_deref().is_some_and(|p| p.contains("W31,32"))),
        "perft 8 from the start runs in the normal test run"
    );
    for vector in &quick {
        check(vector);
    }
}

#[test]
// About 25 s on one core: every reference count, the deep ones included.
fn every_deep_reference_count_matches() {
    for vector in vectors().iter().filter(|v| v.count > QUICK_LIMIT) {
        check(vector);
    }
}

#[test]
fn with_draw_rules_threefold_repetition_cuts_the_kings_perft_at_depth_9() {
    let text = vectors()
        .into_iter()
        .find(|v| {
            v.depth == 9
                && v.position
                    .as_deref()
                    .is_some_and(|p| p.contains("WK31,K32"))
        })
        .and_then(|v| v.position)
        .expect("the 20 kings vector");
    let mut game = Draughts::from_text(&text).unwrap();
    assert!(game.draw_rules());
    // 612 lines repeat the start position a third time at ply 8 and end there.
    assert_eq!(perft(&mut game, 8), 1_333_217);
    assert_eq!(perft(&mut game, 9), 8_558_321 - 612);
}
