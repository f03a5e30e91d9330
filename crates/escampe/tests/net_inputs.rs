//! The network's inputs for Escampe: accumulators kept move by move equal the
//! sums computed afresh, through placements, steps, unicorn captures, forced
//! passes, null moves (which clear the liseré constraint) and takebacks.

use plateau_core::invariants::check_accumulators;
use plateau_core::net::NetInputs;
use plateau_core::{Game, Side};
use plateau_escampe::Escampe;
use plateau_escampe::inputs::INPUTS;

fn features(game: &Escampe, side: Side) -> Vec<usize> {
    let mut list = Vec::new();
    game.active_features(0, side, &mut |f| list.push(f));
    list.sort_unstable();
    list
}

#[test]
fn accumulators_follow_every_move() {
    // From the empty board (placements first), and from middle games.
    let starts = [
        None,
        Some("n1B2b/2b3/b1nn2/5b/2b3/nnN3 w 2"),
        Some("nn4/1N1nb1/2n3/2b1n1/b2b1B/1b4 w 3"),
        Some("1bB3/6/2nbb1/b3n1/nbnn2/N5 w 3"),
    ];
    for (seed, text) in starts.iter().enumerate() {
        let start = match text {
            None => Escampe::new(),
            Some(text) => Escampe::from_text(text).unwrap(),
        };
        let checked = check_accumulators(&start, 40, 150, seed as u64 + 1);
        assert!(checked > 500, "{text:?}: only {checked} positions");
    }
}

#[test]
fn each_view_holds_twelve_pieces_and_the_constraint() {
    let game = Escampe::from_text("n1B2b/2b3/b1nn2/5b/2b3/nnN3 w 2").unwrap();
    for side in [Side::White, Side::Black] {
        let list = features(&game, side);
        assert_eq!(list.len(), 13, "{side:?}");
        // The constraint: liseré 2, the same input in both views.
        assert_eq!(list.last(), Some(&(INPUTS - 2)));
        assert!(list.iter().all(|&f| f < INPUTS));
    }
    let (white, black) = (features(&game, Side::White), features(&game, Side::Black));
    // Own and opposing pieces swap between the views.
    let own = |list: &[usize]| list.iter().filter(|&&f| f < 72).count();
    assert_eq!(own(&white), 6);
    assert_eq!(own(&black), 6);
    assert_ne!(white, black);
}
