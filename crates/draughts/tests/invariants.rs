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

#[test]
fn the_save_file_restores_every_draw_counter() {
    use plateau_core::{MoveList, Rng};
    let mut rng = Rng::new(3);
    let mut list = MoveList::new();
    let mut checked = 0;
    let mut drawn = 0;
    for start in [
        "W:WK46,K47,28,33,K50:BK5,K4,18,K1,22",
        "W:WK46,K47,K48:BK3",
        "B:WK46,K47,33:BK3",
    ] {
        for _ in 0..150 {
            let mut game = Draughts::from_text(start).unwrap();
            for _ in 0..150 {
                let back = Draughts::from_file(&game.to_file()).unwrap();
                assert_eq!(back.to_text(), game.to_text());
                assert_eq!(back.king_move_plies(), game.king_move_plies());
                assert_eq!(back.endgame_plies(), game.endgame_plies());
                assert_eq!(back.repetitions(), game.repetitions());
                assert_eq!(back.outcome(), game.outcome(), "{}", game.to_file());
                checked += 1;
                game.legal_moves(&mut list);
                let Some(&mv) = rng.choose(&list) else {
                    drawn += usize::from(game.draw_rule().is_some());
                    break;
                };
                game.play(mv);
            }
        }
    }
    assert!(
        checked > 3000 && drawn > 20,
        "{checked} positions, {drawn} draws"
    );
}
