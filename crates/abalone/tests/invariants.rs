//! Random-playout invariants over more than 1 000 whole or partial games.

use plateau_abalone::{Abalone, Layout};
use plateau_core::Game;
use plateau_core::invariants::check_random_playouts;

#[test]
fn random_games_from_every_layout_keep_every_invariant() {
    for (seed, layout) in Layout::ALL.into_iter().enumerate() {
        let start = Abalone::start(layout);
        let report = check_random_playouts(&start, 200, 60, seed as u64 + 1);
        assert_eq!(report.games, 200);
        assert!(report.positions > 200 * 50, "{report:?}");
    }
}

#[test]
fn random_endgames_finish_by_ejection_and_by_the_ply_limit() {
    // Five marbles down each, marbles in contact: random play soon ejects a
    // sixth; the ply limit stops the rest.
    let start = Abalone::from_text("4w/2www1/1bbwww1/1bbwbw2/1bbbb4/8/7/6/5 b b5 w5")
        .expect("legal position")
        .with_max_plies(80);
    let report = check_random_playouts(&start, 500, 200, 7);
    assert_eq!(report.games, 500);
    assert!(
        report.finished_games == 500,
        "every game ends by ejection or at the ply limit: {report:?}"
    );
    // Both endings happened.
    let mut ejections = 0;
    let mut limits = 0;
    let mut rng = plateau_core::Rng::new(7);
    let mut list = plateau_core::MoveList::new();
    for _ in 0..100 {
        let mut game = start.clone();
        loop {
            game.legal_moves(&mut list);
            let Some(&mv) = rng.choose(&list) else { break };
            game.play(mv);
        }
        match game.outcome().map(|o| o.reason) {
            Some("six marbles ejected") => ejections += 1,
            Some("ply limit") => limits += 1,
            other => panic!("unexpected end {other:?}"),
        }
    }
    assert!(ejections > 10 && limits > 10, "{ejections} / {limits}");
}
