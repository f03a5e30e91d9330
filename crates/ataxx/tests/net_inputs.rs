//! The network's accumulators, kept move by move from each move's input
//! changes, always equal the sums computed afresh, for both input sets
//! (`cells` and `blocks`): after random playouts with jumps, clones, passes,
//! null moves and takebacks, in full Ataxx (with and without gaps) and the
//! virus game on boards of every size the inputs cover.

use plateau_ataxx::{Ataxx, Virus};
use plateau_core::invariants::check_accumulators;
use plateau_core::net::NetInputs;
use plateau_core::{Game, Side};

fn features<G: NetInputs>(game: &G, set: usize, side: Side) -> Vec<usize> {
    let mut list = Vec::new();
    game.active_features(set, side, &mut |f| list.push(f));
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
    // The smallest and largest boards: blocks on the board's edges.
    for (n, seed) in [(4, 4), (5, 5), (8, 6)] {
        let game = Virus::new(n).unwrap();
        let checked = check_accumulators(&game, 20, 80, seed);
        assert!(checked > 500, "{n}x{n}: only {checked} positions checked");
    }
}

#[test]
fn the_sets_are_named_and_sized() {
    let names: Vec<&str> = Ataxx::INPUT_SETS.iter().map(|set| set.name).collect();
    assert_eq!(names, ["cells", "blocks"]);
    assert_eq!(Ataxx::INPUT_SETS[1].inputs, 49 * 81 + 64);
    // Every block of each board size is on, once.
    for n in 4..=8 {
        let game = Virus::new(n).unwrap();
        let list = features(&game, 1, Side::White);
        assert_eq!(list.len(), (n - 1) * (n - 1), "{n}x{n}");
        let mut blocks: Vec<usize> = list.iter().map(|f| f / 81).collect();
        blocks.dedup();
        assert_eq!(blocks.len(), list.len(), "{n}x{n}: a block twice");
    }
}

#[test]
fn the_two_views_swap_own_and_opposing_stones() {
    let game = Ataxx::from_text("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1").unwrap();
    let white = features(&game, 0, Side::White);
    let black = features(&game, 0, Side::Black);
    assert_eq!(white.len(), black.len());
    // Two stones each and four blocked cells.
    assert_eq!(white.len(), 8);
    let blocked = |list: &[usize]| list.iter().filter(|&&f| f >= 128).count();
    assert_eq!(blocked(&white), 4);
    assert_eq!(blocked(&black), 4);
    assert_ne!(white, black);
}

#[test]
fn in_blocks_the_two_views_swap_own_and_opposing_digits() {
    let game = Ataxx::from_text("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1").unwrap();
    let white = features(&game, 1, Side::White);
    let black = features(&game, 1, Side::Black);
    // Swapping digits 1 and 2 of each pattern turns one view into the other.
    let swap = |f: usize| {
        if f >= 49 * 81 {
            return f;
        }
        let (block, mut pattern) = (f / 81, f % 81);
        let mut swapped = 0;
        for power in [1, 3, 9, 27] {
            let digit = pattern % 3;
            pattern /= 3;
            swapped += power * [0, 2, 1][digit];
        }
        block * 81 + swapped
    };
    let mut mapped: Vec<usize> = white.iter().map(|&f| swap(f)).collect();
    mapped.sort_unstable();
    assert_eq!(mapped, black);
    assert_ne!(white, black);
    assert_eq!(white.iter().filter(|&&f| f >= 49 * 81).count(), 4);
}
