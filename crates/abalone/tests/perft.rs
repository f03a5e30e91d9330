//! Every vector of `tests/data/abalone.perft` (counted from each layout's start
//! by two independent generators).

use plateau_abalone::{Abalone, Layout};
use plateau_core::{PerftVector, parse_perft_file, perft};

fn vectors() -> Vec<PerftVector> {
    let vectors = parse_perft_file(include_str!("data/abalone.perft")).expect("perft file reads");
    assert_eq!(vectors.len(), 12, "the data file has all its vectors");
    vectors
}

fn check(vector: &PerftVector) {
    let name = vector
        .setting("layout")
        .expect("every vector names its layout");
    let layout = Layout::from_name(name).unwrap_or_else(|| panic!("unknown layout {name}"));
    let mut game = Abalone::start(layout);
    let before = game.clone();
    let count = perft(&mut game, vector.depth);
    assert_eq!(
        count, vector.count,
        "line {}: perft {} of {name}",
        vector.line, vector.depth
    );
    assert_eq!(game, before, "perft leaves the position as it was");
}

#[test]
fn reference_counts_to_depth_3() {
    for vector in vectors().iter().filter(|v| v.depth <= 3) {
        check(vector);
    }
}

#[test]
fn reference_counts_at_depth_4() {
    for vector in vectors().iter().filter(|v| v.depth == 4) {
        check(vector);
    }
}
