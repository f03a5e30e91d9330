//! What the search asks of both variants besides the rules: the null move and
//! move codes (the shared playout checks cover the rest).

use plateau_ataxx::{Ataxx, Move, Square, Virus};
use plateau_core::{Game, Side};

fn sq(text: &str) -> Square {
    Square::parse(text, 9).unwrap()
}

#[test]
fn the_ataxx_null_move_is_a_pass_on_the_clocks() {
    let mut game = Ataxx::from_text("x5o/7/7/7/7/7/o5x x 7 3").unwrap();
    assert!(game.null_move_is_safe());
    assert!(!game.noisy_is_forced());
    let before = game.clone();
    game.play_null();
    assert_eq!(game.to_text(), "x5o/7/7/7/7/7/o5x o 8 3");
    assert_eq!(game.hash(), game.compute_hash());
    game.undo_null();
    assert!(game == before);

    let full = Ataxx::from_text("xxxxxxx/xxxxxxx/xxxxxxx/ooooooo/ooooooo/ooooooo/oooo3 o 0 1");
    assert!(!full.unwrap().null_move_is_safe(), "three empty cells");
}

#[test]
fn the_virus_null_move_hands_over_and_is_refused_near_the_end() {
    let mut game = Virus::standard();
    assert!(game.null_move_is_safe());
    let hash = game.hash();
    game.play_null();
    assert_eq!(game.side_to_move(), Side::White);
    assert_eq!(game.hash(), game.compute_hash());
    game.undo_null();
    assert_eq!(game.hash(), hash);

    let nearly_full = Virus::from_text("xxxx/xxxx/oo2/oooo x").unwrap();
    assert!(nearly_full.outcome().is_none());
    assert!(!nearly_full.null_move_is_safe(), "two empty cells");
}

#[test]
fn move_codes_tell_kinds_and_squares_apart() {
    let game = Ataxx::new();
    let codes = [
        Move::Clone(sq("b6")),
        Move::Clone(sq("a7")),
        Move::Jump(sq("a7"), sq("b6")),
        Move::Jump(sq("b6"), sq("a7")),
        Move::Pass,
    ]
    .map(|mv| game.move_code(mv));
    for (i, a) in codes.iter().enumerate() {
        assert!(*a < 1 << 24);
        assert!(codes[i + 1..].iter().all(|b| b != a), "{codes:?}");
    }
}

#[test]
fn only_jumps_that_capture_nothing_are_hopeless() {
    // x on a7; an o on c5 is next to c6 (a jump from a7) but not to a5.
    let game = Ataxx::from_text("x6/7/2o4/7/7/7/6o x 0 1").unwrap();
    assert!(game.is_hopeless(game.parse_move("a7a5").unwrap()));
    assert!(
        !game.is_hopeless(game.parse_move("a7c6").unwrap()),
        "captures c5"
    );
    assert!(
        !game.is_hopeless(game.parse_move("b6").unwrap()),
        "a clone adds a stone"
    );
    assert!(!game.is_hopeless(Move::Pass));
    // The virus game has no jumps: nothing is hopeless there.
    let virus = Virus::standard();
    let mut moves = plateau_core::MoveList::new();
    virus.legal_moves(&mut moves);
    assert!(moves.iter().all(|&mv| !virus.is_hopeless(mv)));
}
