//! Every vector of `tests/data/ataxx.perft` (full Ataxx from libataxx's tests, the
//! virus game's own). All of them together take well under a second in the
//! optimized test profile (perft 6 from the start: 141 million leaves), so none
//! is left to `--ignored`.

use plateau_ataxx::{Ataxx, Virus, VirusWide};
use plateau_core::{Game, PerftVector, parse_perft_file, perft};

fn vectors() -> Vec<PerftVector> {
    let text = include_str!("data/ataxx.perft");
    parse_perft_file(text).expect("perft file reads")
}

fn check<G: Game>(vector: &PerftVector) {
    let position = vector
        .position
        .as_deref()
        .expect("every vector has a position");
    let mut game = G::from_text(position).expect("reference positions are legal");
    let count = perft(&mut game, vector.depth);
    assert_eq!(
        count, vector.count,
        "line {}: perft {} of {position}",
        vector.line, vector.depth
    );
    assert_eq!(
        game.to_text(),
        position,
        "perft leaves the position as it was"
    );
}

#[test]
fn every_reference_count_matches() {
    let mut checked = 0;
    for vector in vectors() {
        match vector.setting("variant") {
            Some("ataxx") => check::<Ataxx>(&vector),
            Some("virus") => {
                check::<Virus>(&vector);
                check::<VirusWide>(&vector);
            }
            other => panic!("line {}: unknown variant {other:?}", vector.line),
        }
        checked += 1;
    }
    assert_eq!(checked, 29, "the data file has all its vectors");
}
