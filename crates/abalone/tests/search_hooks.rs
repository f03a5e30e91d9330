//! What the search asks of Abalone besides the rules: the null move, move
//! codes and the structure key (the shared playout checks cover the rest).

use plateau_abalone::Abalone;
use plateau_core::{Game, MoveList, Side};

fn play(game: &mut Abalone, text: &str) {
    let mv = game
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{text} in {}: {e}", game.to_text()));
    game.play(mv);
}

#[test]
fn the_null_move_hands_over_and_forgets_the_repetitions() {
    let mut game = Abalone::new();
    for text in ["c3d3", "g5f5", "d3c3", "f5g5"] {
        play(&mut game, text);
    }
    assert_eq!(game.repetitions(), 2);
    assert!(game.null_move_is_safe());
    assert!(!game.noisy_is_forced(), "pushing is never compulsory");
    let before = game.clone();
    game.play_null();
    assert_eq!(game.side_to_move(), Side::White);
    assert_eq!(game.repetitions(), 1);
    assert_eq!(
        game.ply(),
        before.ply(),
        "the null move is no ply of the game"
    );
    assert_eq!(game.hash(), game.compute_hash());
    game.undo_null();
    assert!(game == before);
    assert_eq!(game.hash(), before.hash());
}

#[test]
fn move_codes_are_exact_and_small() {
    let game = Abalone::new();
    let mut list = MoveList::new();
    game.legal_moves(&mut list);
    let mut codes: Vec<u32> = list.iter().map(|&mv| game.move_code(mv)).collect();
    codes.sort_unstable();
    codes.dedup();
    assert_eq!(codes.len(), list.len());
    assert!(codes.iter().all(|&code| code < 1 << 18));
}

#[test]
fn the_structure_key_follows_the_marble_counts_and_the_side_only() {
    let mut game = Abalone::new();
    let start = game.structure_key();
    play(&mut game, "c3d3");
    assert_ne!(game.structure_key(), start, "the other side moves");
    play(&mut game, "g5f5");
    assert_eq!(game.structure_key(), start, "same counts, same side");

    // Black's e5-e7 can push White's e8-e9 off: an ejection changes the key.
    let line = Abalone::from_text("wwwww/wwwwww/4w2/8/4bbbww/8/7/bbbbbb/bbbbb b b0 w0").unwrap();
    let (mut quiet, mut eject) = (line.clone(), line);
    play(&mut quiet, "b1c1");
    play(&mut eject, "e5e6");
    assert_eq!(eject.lost(Side::White), 1);
    assert_ne!(quiet.structure_key(), eject.structure_key());
}
