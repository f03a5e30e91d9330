//! Random-playout invariants over more than 1 000 whole games of both variants.

use plateau_ataxx::{Ataxx, Virus, VirusWide};
use plateau_core::Game;
use plateau_core::invariants::check_random_playouts;

#[test]
fn random_ataxx_games_keep_every_invariant() {
    let report = check_random_playouts(&Ataxx::new(), 200, 1000, 1);
    assert_eq!(
        report.finished_games, 200,
        "every random game ends: {report:?}"
    );
    let blocked = Ataxx::from_text("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1").unwrap();
    let report = check_random_playouts(&blocked, 100, 1000, 2);
    assert_eq!(report.finished_games, 100, "{report:?}");
    // Walled-in sides must pass; late clocks reach the 100-half-move draw.
    let cramped = Ataxx::from_text("7/7/7/7/ooooooo/ooooooo/xxxxxxx x 90 1").unwrap();
    let report = check_random_playouts(&cramped, 100, 1000, 3);
    assert_eq!(report.finished_games, 100, "{report:?}");
}

#[test]
fn random_virus_games_keep_every_invariant() {
    let mut games = 0;
    for n in 4..=8 {
        let report = check_random_playouts(&Virus::new(n).unwrap(), 100, 200, n as u64);
        assert_eq!(report.finished_games, 100, "{n}x{n}: {report:?}");
        games += report.games;
    }
    for n in [5, 9] {
        let report = check_random_playouts(&VirusWide::new(n).unwrap(), 60, 200, 10 + n as u64);
        assert_eq!(report.finished_games, 60, "{n}x{n}: {report:?}");
        games += report.games;
    }
    let start: Virus = Game::from_text("x5o/7/7/7/7/7/o5x x").unwrap();
    let report = check_random_playouts(&start, 100, 200, 99);
    games += report.games;
    assert!(games >= 720);
}
