//! What the search asks of draughts besides the rules: the null move, forced
//! captures, move codes and the structure key (the shared playout checks
//! cover the rest).

use plateau_core::{Game, Side};
use plateau_draughts::{Draughts, Move, Square};

fn pos(text: &str) -> Draughts {
    Draughts::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn play(game: &mut Draughts, text: &str) {
    let mv = game
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{text} in {}: {e}", game.to_text()));
    game.play(mv);
}

fn sq(n: u32) -> Square {
    Square::from_number(n).unwrap()
}

/// A king and men each, far apart: nothing to take for a few plies.
const KINGS_AND_MEN: &str = "W:WK46,31,32,33,34,35:BK5,11,12,13,14";

#[test]
fn a_compulsory_capture_is_a_forced_noisy_move() {
    assert!(!Draughts::new().noisy_is_forced());
    assert!(pos("W:W32,38:B27").noisy_is_forced());
    assert!(
        !pos("B:W32,38:B27").noisy_is_forced(),
        "only White can take"
    );
}

#[test]
fn the_null_move_restarts_the_king_move_count_and_undoes_exactly() {
    let mut game = pos(KINGS_AND_MEN);
    for text in ["46-41", "5-10", "41-46", "10-5"] {
        play(&mut game, text);
    }
    assert_eq!(game.king_move_plies(), 4);
    assert!(game.null_move_is_safe());
    let before = game.clone();
    game.play_null();
    assert_eq!(game.side_to_move(), Side::Black);
    assert_eq!(game.king_move_plies(), 0);
    assert_eq!(game.hash(), game.compute_hash());
    assert!(game.outcome().is_none());
    game.undo_null();
    assert!(game == before);
}

#[test]
fn the_null_move_is_refused_in_zugzwang_prone_endings() {
    assert!(Draughts::new().null_move_is_safe());
    assert!(
        !pos("W:W31,32,33,34:B1-10").null_move_is_safe(),
        "four pieces"
    );
    assert!(
        !pos("W:WK46,31-40:B1-15").null_move_is_safe(),
        "only White has kings"
    );
    assert!(
        pos("B:WK46,31-40:B1-15").null_move_is_safe(),
        "White's kings"
    );
    assert!(
        pos("W:WK46,31-40:BK5,11-15").null_move_is_safe(),
        "both have kings"
    );
}

#[test]
fn captures_with_the_same_ends_get_different_codes() {
    let game = Draughts::new();
    let a = Move::capture(sq(47), sq(36), [sq(42), sq(33), sq(19), sq(18)]);
    let b = Move::capture(sq(47), sq(36), [sq(41), sq(33), sq(19), sq(18)]);
    assert_ne!(game.move_code(a), game.move_code(b));
    assert!(game.move_code(a) < 1 << 24 && game.move_code(b) < 1 << 24);
}

#[test]
fn the_structure_key_follows_the_men_not_the_kings() {
    let start = pos(KINGS_AND_MEN);
    let mut kings = start.clone();
    play(&mut kings, "46-41");
    play(&mut kings, "5-10");
    assert_eq!(kings.structure_key(), start.structure_key());
    let mut man = start.clone();
    play(&mut man, "35-30");
    play(&mut man, "5-10");
    assert_ne!(man.structure_key(), start.structure_key());
    let mut one_ply = start.clone();
    play(&mut one_ply, "46-41");
    assert_ne!(
        one_ply.structure_key(),
        start.structure_key(),
        "side to move"
    );
}
