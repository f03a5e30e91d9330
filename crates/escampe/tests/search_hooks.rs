//! What the search asks of Escampe besides the rules: the null move, move
//! codes and the structure key (the shared playout checks cover the rest).

use plateau_core::{Game, Side};
use plateau_escampe::{Escampe, Move, Square};

fn pos(text: &str) -> Escampe {
    Escampe::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn sq(text: &str) -> Square {
    Square::parse(text).unwrap()
}

#[test]
fn the_null_move_is_a_pass_that_frees_the_opponent_and_only_in_play() {
    assert!(
        !Escampe::new().null_move_is_safe(),
        "no null move while placing"
    );
    let mut game = pos("n1B2b/2b3/b1nn2/5b/2b3/nnN3 w 2");
    assert!(game.null_move_is_safe());
    assert!(!game.noisy_is_forced());
    let (text, hash, ply) = (game.to_text(), game.hash(), game.ply());
    game.play_null();
    assert_eq!(game.side_to_move(), Side::Black);
    assert_eq!(game.constraint(), None, "any piece may move after a pass");
    assert_eq!(game.ply(), ply, "the null move is no ply of the game");
    assert_eq!(game.hash(), game.compute_hash());
    game.undo_null();
    assert_eq!((game.to_text(), game.hash()), (text, hash));
}

#[test]
fn placements_have_exact_codes_apart_from_steps() {
    let game = Escampe::new();
    let top = Move::Place {
        unicorn: sq("C6"),
        paladins: [sq("A6"), sq("B5"), sq("D5"), sq("E6"), sq("F5")]
            .iter()
            .fold(0, |mask, s| mask | s.bit()),
    };
    let code = game.move_code(top);
    assert!((1 << 23..1 << 24).contains(&code), "{code:#x}");
    let step = Move::Step {
        from: sq("F6"),
        to: sq("E5"),
    };
    assert_eq!(game.move_code(step), 35 * 36 + 28);
    assert_eq!(game.move_code(Move::Pass), 36 * 36);
}

#[test]
fn the_structure_key_follows_the_unicorns_and_the_side_only() {
    let start = pos("n1N1n1/1n1n1n/6/6/1Bb1bb/bb4 w -");
    // A paladin moved: same unicorns, same side to move.
    let paladin = pos("n1N1n1/1n1n1n/6/6/1B2bb/bbb3 w -");
    assert_eq!(start.structure_key(), paladin.structure_key());
    let unicorn = pos("n1N1n1/1n1n1n/6/6/2b1bb/bBb3 w -");
    assert_ne!(start.structure_key(), unicorn.structure_key());
    let other_side = pos("n1N1n1/1n1n1n/6/6/1Bb1bb/bb4 b -");
    assert_ne!(start.structure_key(), other_side.structure_key());
}
