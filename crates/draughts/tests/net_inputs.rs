//! The network's inputs for draughts: accumulators kept move by move equal
//! the sums computed afresh, through captures of men and kings, crownings and
//! takebacks; and Black's view is White's with the board turned.

use plateau_core::invariants::check_accumulators;
use plateau_core::net::NetInputs;
use plateau_core::{Game, MoveList, Rng, Side};
use plateau_draughts::Draughts;
use plateau_draughts::inputs::{INPUTS, PATTERN_INPUTS, PATTERN_SET};

fn features(game: &Draughts, side: Side) -> Vec<usize> {
    let mut list = Vec::new();
    game.active_features(0, side, &mut |f| list.push(f));
    list.sort_unstable();
    list
}

#[test]
fn accumulators_follow_every_move() {
    let starts = [
        "W:W31-50:B1-20",
        // Kings on both sides, captures of kings by kings.
        "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29",
        // Men a step from crowning, with captures that crown.
        "W:W6,7,9,K46,33:B16,17,K45,42,44",
    ];
    for (seed, text) in starts.iter().enumerate() {
        let start = Draughts::from_text(text).unwrap();
        let checked = check_accumulators(&start, 30, 150, seed as u64 + 1);
        assert!(checked > 500, "{text}: only {checked} positions checked");
    }
}

#[test]
fn random_games_reach_what_the_changes_must_cover() {
    // The playouts above only prove something if random play crowns men and
    // takes kings; check that it does from those starts.
    let mut rng = Rng::new(7);
    let mut moves = MoveList::new();
    let (mut crowned, mut kings_taken) = (0, 0);
    for _ in 0..30 {
        let mut game = Draughts::from_text("W:W6,7,9,K46,33:B16,17,K45,42,44").unwrap();
        while game.outcome().is_none() {
            game.legal_moves(&mut moves);
            let mv = *rng.choose(&moves).unwrap();
            let kings = |g: &Draughts| {
                features(g, Side::White)
                    .iter()
                    .filter(|&&f| (50..100).contains(&f) || f >= 150)
                    .count()
            };
            let before = kings(&game);
            let their_kings_before = features(&game, !game.side_to_move())
                .iter()
                .filter(|&&f| (50..100).contains(&f))
                .count();
            let mover = game.side_to_move();
            game.play(mv);
            if kings(&game) > before {
                crowned += 1;
            }
            let their_kings_after = features(&game, !mover)
                .iter()
                .filter(|&&f| (50..100).contains(&f))
                .count();
            if their_kings_after < their_kings_before {
                kings_taken += 1;
            }
        }
    }
    assert!(crowned > 5, "{crowned} crownings");
    assert!(kings_taken > 5, "{kings_taken} kings taken");
}

#[test]
fn blacks_view_is_whites_with_the_board_turned() {
    // The start is symmetric under a half turn with colours swapped.
    let start = Draughts::new();
    assert_eq!(features(&start, Side::White), features(&start, Side::Black));
    assert_eq!(features(&start, Side::White).len(), 40);
    // A White man on 46 is, for White, its own man on square 46; for Black,
    // an opposing man on square 5 (51 - 46).
    let game = Draughts::from_text("W:W46:BK1").unwrap();
    assert_eq!(features(&game, Side::White), vec![45, 150]);
    assert_eq!(features(&game, Side::Black), vec![50 + 49, 100 + 4]);
    assert!(features(&game, Side::White).iter().all(|&f| f < INPUTS));
}

#[test]
fn the_patterns_set_is_the_squares_and_a_pattern_per_diamond_in_both_views() {
    let list = |game: &Draughts, side: Side| {
        let mut list = Vec::new();
        game.active_features(PATTERN_SET, side, &mut |f| list.push(f));
        list.sort_unstable();
        list
    };
    for text in [
        "W:W31-50:B1-20",
        "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29",
    ] {
        let game = Draughts::from_text(text).unwrap();
        for side in [Side::White, Side::Black] {
            let all = list(&game, side);
            let squares = features(&game, side);
            // The squares' inputs first, then one pattern for each of the
            // 32 diamonds, every one in range and none twice.
            assert_eq!(all[..squares.len()], squares[..], "{text}");
            assert_eq!(all.len(), squares.len() + 32, "{text}");
            assert!(all.iter().all(|&f| f < PATTERN_INPUTS));
            assert!(all.windows(2).all(|w| w[0] < w[1]));
        }
    }
    // The start is symmetric under a half turn with colours swapped.
    let start = Draughts::new();
    assert_eq!(list(&start, Side::White), list(&start, Side::Black));
}
