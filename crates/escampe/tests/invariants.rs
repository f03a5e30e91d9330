//! Random-playout invariants over 1 000 whole games, placements included.

use plateau_core::invariants::check_random_playouts;
use plateau_escampe::Escampe;

#[test]
fn a_thousand_random_games_keep_every_invariant() {
    // Placement positions list thousands of moves, each checked; a few games
    // cover them, then the bulk starts from positions already placed.
    let report = check_random_playouts(&Escampe::new(), 5, 400, 1);
    assert_eq!(report.games, 5);
    assert!(
        report.moves_checked > 5 * 11088,
        "placements were all checked"
    );

    let placed: Escampe =
        plateau_core::Game::from_text("n1N1n1/1n1n1n/6/6/1Bb1bb/bb4 w -").expect("legal position");
    let report = check_random_playouts(&placed, 995, 1000, 2);
    assert_eq!(report.games, 995);
    assert!(
        report.finished_games > 900,
        "most random games end in a capture"
    );
    assert!(report.positions > 20_000, "{report:?}");
}
