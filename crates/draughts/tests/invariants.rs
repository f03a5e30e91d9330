//! Random-playout invariants over 1 000 whole games.

use plateau_core::Game;
use plateau_core::invariants::check_random_playouts;
use plateau_draughts::Draughts;

#[test]
fn a_thousand_random_games_from_the_start_keep_every_invariant() {
    let report = check_random_playouts(&Draughts::new(), 800, 600, 1);
    assert_eq!(report.games, 800);
    assert!(report.finished_games > 700, "{report:?}");
    assert!(report.positions > 50_000, "{report:?}");
}

#[test]
fn random_king_endings_keep_every_invariant() {
    // Kings against kings: long king shuffles, draw rules, flying captures.
    let kings = Draughts::from_text("W:WK46,K47,28,33,K50:BK5,K4,18,K1,22").unwrap();
    let report = check_random_playouts(&kings, 200, 400, 2);
    assert_eq!(report.games, 200);
    assert!(report.finished_games > 150, "{report:?}");
}
