//! The network's accumulators, kept move by move from each move's input
//! changes, always equal the sums computed afresh: after random playouts with
//! jumps, clones, passes, null moves and takebacks, in full Ataxx and the
//! virus game.

use plateau_ataxx::{Ataxx, Virus};
use plateau_core::invariants::check_accumulators;
use plateau_core::net::NetInputs;
use plateau_core::{Game, Side};

fn features<G: NetInputs>(game: &G, side: Side) -> Vec<usize> {
    let mut list = Vec::new();
    game.active_features(side, &mut |f| list.push(f));
    list.sort_unstable();
    list
}

fn check_playouts<G: NetInputs>(start: G, seed: u64) {
    let checked = check_accumulators(&start, 20, 120, seed);
    assert!(checked > 1000, "only {checked} positions checked");
}

#[test]
fn ataxx_accumulators_follow_every_move() {
    check_playouts(Ataxx::new(), 1);
    check_playouts(
        Ataxx::from_text("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1").unwrap(),
        2,
    );
}

#[test]
fn virus_accumulators_follow_every_move() {
    check_playouts(Virus::standard(), 3);
}

#[test]
fn the_two_views_swap_own_and_opposing_stones() {
    let game = Ataxx::from_text("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1").unwrap();
    let white = features(&game, Side::White);
    let black = features(&game, Side::Black);
    assert_eq!(white.len(), black.len());
    // Two stones each and four blocked cells.
    assert_eq!(white.len(), 8);
    let blocked = |list: &[usize]| list.iter().filter(|&&f| f >= 128).count();
    assert_eq!(blocked(&white), 4);
    assert_eq!(blocked(&black), 4);
    assert_ne!(white, black);
}
