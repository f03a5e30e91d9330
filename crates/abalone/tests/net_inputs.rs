//! The network's inputs for Abalone: accumulators kept move by move equal the
//! sums computed afresh, through inline moves, pushes, ejections, broadsides
//! and takebacks; and Black's view is White's reflected.

use plateau_abalone::inputs::INPUTS;
use plateau_abalone::{Abalone, Layout};
use plateau_core::invariants::check_accumulators;
use plateau_core::net::NetInputs;
use plateau_core::{Game, MoveList, Rng, Side};

fn features(game: &Abalone, side: Side) -> Vec<usize> {
    let mut list = Vec::new();
    game.active_features(0, side, &mut |f| list.push(f));
    list.sort_unstable();
    list
}

/// Middle games with marbles on the rim, where random play pushes and ejects.
const CROWDED: [&str; 2] = [
    "5/1www2/2wwww1/3www2/2bbww3/2bwb1b1/1bwbbb1/1bbbb1/1b3 b b0 w0",
    "5/3w2/2w1ww1/3wbw2/2bbww3/1wbwww2/1bbbww1/1bbbbb/1b3 b b1 w0",
];

#[test]
fn accumulators_follow_every_move() {
    let mut seed = 1;
    for layout in Layout::ALL {
        let checked = check_accumulators(&Abalone::start(layout), 10, 200, seed);
        assert!(checked > 500, "{}: only {checked} positions", layout.name());
        seed += 1;
    }
    for text in CROWDED {
        let checked = check_accumulators(&Abalone::from_text(text).unwrap(), 20, 200, seed);
        assert!(checked > 500, "{text}: only {checked} positions");
        seed += 1;
    }
}

#[test]
fn random_games_from_the_crowded_positions_eject_marbles() {
    // The playouts above only cover ejections if random play makes them.
    let mut rng = Rng::new(3);
    let mut moves = MoveList::new();
    let mut ejections = 0;
    for text in CROWDED {
        for _ in 0..20 {
            let mut game = Abalone::from_text(text).unwrap();
            for _ in 0..200 {
                if game.outcome().is_some() {
                    break;
                }
                game.legal_moves(&mut moves);
                let mv = *rng.choose(&moves).unwrap();
                let before = features(&game, Side::White).len();
                game.play(mv);
                ejections += (features(&game, Side::White).len() < before) as usize;
            }
        }
    }
    assert!(ejections > 20, "{ejections} ejections");
}

#[test]
fn blacks_view_is_whites_reflected() {
    // Each start layout is symmetric under a reflection in row E with
    // colours swapped.
    for layout in Layout::ALL {
        let start = Abalone::start(layout);
        assert_eq!(
            features(&start, Side::White),
            features(&start, Side::Black),
            "{}",
            layout.name()
        );
        assert_eq!(features(&start, Side::White).len(), 28);
    }
    let start = Abalone::new();
    assert!(features(&start, Side::White).iter().all(|&f| f < INPUTS));
}
