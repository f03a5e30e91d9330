//! The network's accumulators, kept move by move from each move's input
//! changes, always equal the sums computed afresh: after random playouts with
//! jumps, clones, passes, null moves and takebacks, in full Ataxx and the
//! virus game.

use plateau_ataxx::inputs::INPUTS;
use plateau_ataxx::{Ataxx, Virus};
use plateau_core::net::{NetGame, NetInputs, Network};
use plateau_core::{Game, MoveList, Rng, Side};
use std::sync::Arc;

/// A network with random weights, large enough to make every input matter.
fn random_network(hidden: usize, seed: u64) -> Network {
    let mut rng = Rng::new(seed);
    let mut value = |range: i64| (rng.below((2 * range + 1) as u64) as i64 - range) as i16;
    Network {
        game: "test".into(),
        recipe: String::new(),
        inputs: INPUTS,
        hidden,
        scale: 300.0,
        input_weights: (0..INPUTS * hidden).map(|_| value(120)).collect(),
        input_bias: (0..hidden).map(|_| value(100)).collect(),
        output_weights: (0..2 * hidden).map(|_| value(100)).collect(),
        output_bias: 1234,
    }
}

fn features<G: NetInputs>(game: &G, side: Side) -> Vec<usize> {
    let mut list = Vec::new();
    game.active_features(side, &mut |f| list.push(f));
    list.sort_unstable();
    list
}

fn check_playouts<G: NetInputs>(start: G, seed: u64) {
    let net = Arc::new(random_network(24, seed));
    let mut rng = Rng::new(seed);
    let mut moves = MoveList::new();
    for _game in 0..20 {
        let mut game = NetGame::new(start.clone(), Arc::clone(&net));
        let mut played = Vec::new();
        for _ply in 0..120 {
            assert_eq!(
                game.evaluate(),
                net.evaluate(game.inner()),
                "{}",
                game.to_text()
            );
            if game.outcome().is_some() {
                break;
            }
            // Every input is below INPUTS, and each side sees the other's
            // stones as its opponent's.
            assert!(
                features(game.inner(), Side::White)
                    .iter()
                    .all(|&f| f < INPUTS)
            );
            if G::HAS_NULL_MOVE && rng.below(10) == 0 {
                game.play_null();
                assert_eq!(game.evaluate(), net.evaluate(game.inner()));
                game.undo_null();
            }
            if !played.is_empty() && rng.below(8) == 0 {
                let mv = played.pop().unwrap();
                game.undo(mv);
                continue;
            }
            game.legal_moves(&mut moves);
            let mv = *rng.choose(&moves).unwrap();
            game.play(mv);
            played.push(mv);
        }
        while let Some(mv) = played.pop() {
            game.undo(mv);
            assert_eq!(game.evaluate(), net.evaluate(game.inner()));
        }
        assert_eq!(game.to_text(), start.to_text());
    }
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
