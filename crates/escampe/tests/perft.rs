//! Every vector of `tests/data/escampe.perft` (counted by the arbiter's rules class).

use plateau_core::{Game, parse_perft_file, perft};
use plateau_escampe::Escampe;

#[test]
fn every_reference_count_matches() {
    let text = include_str!("data/escampe.perft");
    let vectors = parse_perft_file(text).expect("perft file reads");
    assert!(vectors.len() >= 15, "the data file has all its vectors");
    for vector in vectors {
        let position = vector
            .position
            .as_deref()
            .expect("every vector has a position");
        let mut game = Escampe::from_text(position).expect("reference positions are legal");
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
}
