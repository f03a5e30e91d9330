//! One test per rule of `docs/rules/escampe.md`.

use plateau_core::{EndReason, Game, MoveList, Side};
use plateau_escampe::{Escampe, Move, Phase, Square};

fn pos(text: &str) -> Escampe {
    Escampe::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn moves_of(game: &Escampe) -> Vec<String> {
    let mut list = MoveList::new();
    game.legal_moves(&mut list);
    let mut out: Vec<String> = list.iter().map(|m| m.to_string()).collect();
    out.sort();
    out
}

fn play(game: &mut Escampe, text: &str) {
    let mv = game
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{text} in {}: {e}", game.to_text()));
    game.play(mv);
}

fn refusal(game: &Escampe, text: &str) -> String {
    match game.parse_move(text) {
        Ok(mv) => panic!("{text} was accepted as {mv} in {}", game.to_text()),
        Err(err) => err.to_string(),
    }
}

fn sq(text: &str) -> Square {
    Square::parse(text).unwrap()
}

/// White and Black placed as in the first perft vector, White to move, free.
const OPENING: &str = "n1N1n1/1n1n1n/6/6/1Bb1bb/bb4 w -";
/// The brief's figure 6.
const FIGURE_6: &str = "n1B2b/2b3/b1nn2/5b/2b3/nnN3 w 2";

#[test]
fn the_game_starts_empty_with_black_to_place_on_either_edge() {
    let game = Escampe::new();
    assert_eq!(game.to_text(), "6/6/6/6/6/6 b -");
    assert_eq!(game.side_to_move(), Side::Black);
    assert_eq!(game.phase(), Phase::BlackPlaces);
    let mut list = MoveList::new();
    game.legal_moves(&mut list);
    assert_eq!(list.len(), 11088);
    let bottom = list
        .iter()
        .filter(|m| m.placement_squares() < 1 << 12)
        .count();
    assert_eq!(
        bottom, 5544,
        "half the placements on rows 1-2, half on rows 5-6"
    );
}

#[test]
fn blacks_first_square_decides_the_edge() {
    let game = Escampe::new();
    assert!(game.parse_move("C6/A6/B5/D5/E6/F5").is_ok());
    assert!(game.parse_move("A1/B1/C1/D1/E2/F2").is_ok());
    // First square on row 6 puts Black on rows 5-6: a row-2 square is off the edge.
    let reason = refusal(&game, "C6/A6/B5/D5/E6/F2");
    assert!(reason.contains("F2 is off the edge"), "{reason}");
    assert!(reason.contains("rows 5-6"), "{reason}");
    // First square on row 3 means rows 1-2, and that square is not on them.
    let reason = refusal(&game, "C3/A1/B1/C1/D1/E1");
    assert!(reason.contains("C3 is off the edge"), "{reason}");
}

#[test]
fn white_places_on_the_opposite_edge() {
    let mut game = Escampe::new();
    play(&mut game, "C6/A6/B5/D5/E6/F5");
    assert_eq!(game.side_to_move(), Side::White);
    assert_eq!(game.phase(), Phase::WhitePlaces);
    let mut list = MoveList::new();
    game.legal_moves(&mut list);
    assert_eq!(list.len(), 5544);
    assert!(list.iter().all(|m| m.placement_squares() < 1 << 12));
    let reason = refusal(&game, "A5/A1/B1/C1/D1/E1");
    assert!(reason.contains("A5 is off the edge"), "{reason}");
    assert!(reason.contains("rows 1-2"), "{reason}");
}

#[test]
fn placement_squares_are_distinct_upper_case_and_six() {
    let game = Escampe::new();
    assert!(refusal(&game, "C6/A6/B5/D5/E6/C6").contains("C6 is listed twice"));
    assert!(refusal(&game, "c6/A6/B5/D5/E6/F5").contains("lower case"));
    assert!(refusal(&game, "C6/A6/B5/D5/E6").contains("has 5"));
    assert!(refusal(&game, "C6/A6/B5/D5/E6/F5/F6").contains("has 7"));
    assert!(refusal(&game, "C6/A6/B5/D5/E6/G5").contains("column"));
    assert!(refusal(&game, "C6/A6/B5/D5/E6/F7").contains("row"));
}

#[test]
fn the_order_of_the_paladins_does_not_matter() {
    let game = Escampe::new();
    let a = game.parse_move("C6/A6/B5/D5/E6/F5").unwrap();
    let b = game.parse_move("C6/F5/E6/D5/B5/A6").unwrap();
    assert_eq!(a, b);
    // But which square holds the unicorn does.
    let c = game.parse_move("A6/C6/B5/D5/E6/F5").unwrap();
    assert_ne!(a, c);
}

#[test]
fn white_moves_first_and_free_after_the_placements() {
    let mut game = Escampe::new();
    play(&mut game, "C6/A6/B5/D5/E6/F5");
    play(&mut game, "B2/A1/B1/C2/E2/F2");
    assert_eq!(game.to_text(), OPENING);
    assert_eq!(game.side_to_move(), Side::White);
    assert_eq!(game.constraint(), None);
    // Pieces on all three liserés may move.
    let starts: std::collections::BTreeSet<u8> = moves_of(&game)
        .iter()
        .map(|m| sq(&m[..2]).lisere())
        .collect();
    assert_eq!(starts.into_iter().collect::<Vec<_>>(), [1, 2, 3]);
}

#[test]
fn the_move_must_start_on_the_lisere_where_the_last_move_arrived() {
    let mut game = pos(OPENING);
    play(&mut game, "A1-A2"); // arrives on A2, liseré 3
    assert_eq!(game.constraint(), Some(3));
    let moves = moves_of(&game);
    assert!(!moves.is_empty() && moves[0] != "E");
    for mv in moves {
        assert_eq!(sq(&mv[..2]).lisere(), 3, "{mv} starts off liseré 3");
    }
}

#[test]
fn a_refused_start_names_its_lisere_and_the_constraint() {
    let game = pos("n1N1n1/1n1n1n/6/6/1Bb1bb/bb4 w 3");
    let reason = refusal(&game, "A1-A2");
    assert_eq!(reason, "A1-A2: A1 has liseré 1, the constraint is 3");
}

#[test]
fn the_lisere_is_the_exact_number_of_steps() {
    let game = pos(OPENING);
    // C2 has liseré 3: three steps reach C5, but no path of three steps ends
    // two squares away on C4.
    assert!(game.parse_move("C2-C5").is_ok());
    let reason = refusal(&game, "C2-C4");
    assert!(reason.contains("exactly 3 steps"), "{reason}");
    // F2 has liseré 2: F3 is one step away, never two.
    assert!(refusal(&game, "F2-F3").contains("exactly 2 steps"));
    // A1 has liseré 1: one step only.
    assert!(game.parse_move("A1-A2").is_ok());
    assert!(refusal(&game, "A1-A3").contains("exactly 1 step "));
}

#[test]
fn paths_may_turn() {
    let game = pos(OPENING);
    // F2 (liseré 2) to E3 by F3: an L-shaped path.
    assert!(game.parse_move("F2-E3").is_ok());
}

#[test]
fn paths_never_cross_an_occupied_square() {
    let game = pos(OPENING);
    // B1 (liseré 2) to B3 would pass over the white unicorn on B2.
    let reason = refusal(&game, "B1-B3");
    assert!(reason.contains("no path"), "{reason}");
}

#[test]
fn paths_never_visit_a_square_twice() {
    // A2 (liseré 3) is boxed in by A1 and B2: its only exit is A3, so A3 itself
    // could only be reached by coming back.
    let game = pos("nnnnnN/6/6/6/bB4/bbbb2 w 3");
    let from_a2: Vec<String> = moves_of(&game)
        .into_iter()
        .filter(|m| m.starts_with("A2"))
        .collect();
    assert_eq!(from_a2, ["A2-A5", "A2-B4", "A2-C3"]);
}

#[test]
fn a_three_step_path_may_end_next_to_its_start() {
    let game = pos(OPENING);
    // C2 -> C3 -> D3 -> D2.
    assert!(moves_of(&game).contains(&"C2-D2".to_string()));
}

#[test]
fn several_paths_to_one_square_are_one_move() {
    let game = pos("nnnnnN/6/6/6/bB4/bbbb2 w 3");
    // A2 reaches B4 by A3-A4 and by A3-B3.
    let count = moves_of(&game).iter().filter(|m| *m == "A2-B4").count();
    assert_eq!(count, 1);
}

#[test]
fn a_paladin_takes_the_unicorn_and_wins() {
    let mut game = pos(FIGURE_6);
    play(&mut game, "F6-E5");
    play(&mut game, "A1-A2");
    let capture = game.parse_move("C2-C1").unwrap();
    assert!(game.is_noisy(capture));
    game.play(capture);
    let outcome = game.outcome().expect("the capture ends the game");
    assert_eq!(outcome.winner, Some(Side::White));
    assert_eq!(outcome.reason, EndReason::UnicornCaptured);
    assert!(moves_of(&game).is_empty());
    assert!(
        game.parse_move("A2-A3")
            .unwrap_err()
            .reason
            .contains("over")
    );
}

#[test]
fn figure_6_black_has_a_single_reply() {
    let mut game = pos(FIGURE_6);
    play(&mut game, "F6-E5");
    assert_eq!(game.constraint(), Some(1));
    assert_eq!(moves_of(&game), ["A1-A2"]);
}

#[test]
fn a_unicorn_never_captures() {
    // The white unicorn on A1 (liseré 1) stands next to the black unicorn on A2.
    let game = pos("n1nnnn/6/6/1b4/N5/B1bbbb w 1");
    let reason = refusal(&game, "A1-A2");
    assert!(reason.contains("a unicorn cannot capture"), "{reason}");
    assert!(moves_of(&game).contains(&"A1-B1".to_string()));
}

#[test]
fn paladins_can_never_be_taken() {
    let game = pos("n1N1n1/1n1n1n/1b4/6/1Bb1bb/b5 w -");
    let reason = refusal(&game, "B4-B5");
    assert!(reason.contains("paladins cannot be taken"), "{reason}");
}

#[test]
fn only_your_own_pieces_move() {
    let game = pos(OPENING);
    assert!(refusal(&game, "B5-B4").contains("black piece; it is white's turn"));
    assert!(refusal(&game, "C3-C4").contains("no piece on C3"));
    assert!(refusal(&game, "B1-A1").contains("your own piece"));
}

#[test]
fn a_side_without_moves_must_pass_and_the_pass_frees_the_opponent() {
    // White must start on liseré 1 and has no piece there.
    let mut game = pos("nnn1nN/3n2/6/6/b1b3/1Bbb1b w 1");
    assert_eq!(moves_of(&game), ["E"]);
    assert!(refusal(&game, "A2-A5").contains("liseré 3, the constraint is 1"));
    play(&mut game, "E");
    assert_eq!(game.side_to_move(), Side::Black);
    assert_eq!(game.constraint(), None);
    assert_eq!(game.to_text(), "nnn1nN/3n2/6/6/b1b3/1Bbb1b b -");
    // Free: Black may move from any liseré.
    let starts: std::collections::BTreeSet<u8> = moves_of(&game)
        .iter()
        .map(|m| sq(&m[..2]).lisere())
        .collect();
    assert!(starts.len() >= 2);
}

#[test]
fn a_pass_is_illegal_while_a_move_exists() {
    let game = pos(OPENING);
    let reason = refusal(&game, "E");
    assert!(
        reason.contains("only legal when no move exists"),
        "{reason}"
    );
    assert!(refusal(&game, "PASSE").contains("written E"));
}

#[test]
fn the_ply_limit_ends_the_game_in_a_draw() {
    let mut game = pos(OPENING).with_max_plies(4);
    for _ in 0..4 {
        assert!(game.outcome().is_none());
        let mut list = MoveList::new();
        game.legal_moves(&mut list);
        let quiet = *list.iter().find(|&&m| !game.is_noisy(m)).unwrap();
        game.play(quiet);
    }
    let outcome = game.outcome().expect("four plies reach the limit");
    assert_eq!(outcome.winner, None);
    assert_eq!(outcome.reason, EndReason::PlyLimit);
    assert!(moves_of(&game).is_empty());
    assert_eq!(
        Escampe::new().max_plies(),
        plateau_escampe::DEFAULT_MAX_PLIES
    );
}

#[test]
fn undo_restores_a_capture() {
    let mut game = pos(FIGURE_6);
    play(&mut game, "F6-E5");
    play(&mut game, "A1-A2");
    let before = game.clone();
    let capture = game.parse_move("C2-C1").unwrap();
    game.play(capture);
    game.undo(capture);
    assert_eq!(game, before);
    assert_eq!(game.unicorn_square(Side::Black), Some(sq("C1")));
}

#[test]
fn undo_restores_placements_and_passes() {
    let mut game = Escampe::new();
    let start = game.clone();
    let black = game.parse_move("C6/A6/B5/D5/E6/F5").unwrap();
    game.play(black);
    let after_black = game.clone();
    let white = game.parse_move("B2/A1/B1/C2/E2/F2").unwrap();
    game.play(white);
    game.undo(white);
    assert_eq!(game, after_black);
    game.undo(black);
    assert_eq!(game, start);

    let mut stuck = pos("nnn1nN/3n2/6/6/b1b3/1Bbb1b w 1");
    let before = stuck.clone();
    stuck.play(Move::Pass);
    stuck.undo(Move::Pass);
    assert_eq!(stuck, before);
}

#[test]
fn the_hash_tells_side_and_constraint_apart() {
    let texts = [
        "n1N1n1/1n1n1n/6/6/1Bb1bb/bb4 w -",
        "n1N1n1/1n1n1n/6/6/1Bb1bb/bb4 w 1",
        "n1N1n1/1n1n1n/6/6/1Bb1bb/bb4 w 2",
        "n1N1n1/1n1n1n/6/6/1Bb1bb/bb4 b 2",
        "n1N1n1/1n1n1n/6/6/1Bb1bB/bb4 w -",
    ];
    let mut hashes: Vec<u64> = texts
        .iter()
        .filter_map(|t| Escampe::from_text(t).ok())
        .map(|g| g.hash())
        .collect();
    assert_eq!(hashes.len(), 4, "the last text has two white unicorns");
    hashes.dedup();
    assert_eq!(hashes.len(), 4);
}

/// Plays `plies` quiet moves (never taking a unicorn).
fn quiet_moves(game: &mut Escampe, plies: usize) {
    for _ in 0..plies {
        assert!(game.outcome().is_none());
        let mut list = MoveList::new();
        game.legal_moves(&mut list);
        let quiet = *list.iter().find(|&&m| !game.is_noisy(m)).unwrap();
        game.play(quiet);
    }
}

#[test]
fn the_board_file_keeps_the_ply_count_and_the_ply_limit() {
    // Seven plies of ten: the reloaded game has three left, not a fresh ten.
    let mut game = pos(OPENING).with_max_plies(10);
    quiet_moves(&mut game, 7);
    let saved = game.to_file();
    assert!(saved.contains("% ply: 7\n"), "{saved}");
    assert!(saved.contains("% max plies: 10\n"), "{saved}");
    let mut reread = Escampe::from_file(&saved).unwrap();
    assert_eq!((reread.ply(), reread.max_plies()), (7, 10));
    assert_eq!(reread.to_text(), game.to_text());
    quiet_moves(&mut reread, 3);
    assert_eq!(
        reread.outcome().map(|o| o.reason),
        Some(EndReason::PlyLimit)
    );
    // A game drawn at the limit reloads drawn.
    let drawn = Escampe::from_file(&reread.to_file()).unwrap();
    assert_eq!(drawn.outcome(), reread.outcome());
    assert!(moves_of(&drawn).is_empty());
    // The default limit is not written; a file without counts starts at 0.
    let fresh = pos(OPENING).to_file();
    assert!(
        fresh.contains("% ply: 0\n") && !fresh.contains("max plies"),
        "{fresh}"
    );
    let bare: String = fresh
        .lines()
        .filter(|l| !l.contains("ply"))
        .map(|l| format!("{l}\n"))
        .collect();
    let old = Escampe::from_file(&bare).unwrap();
    assert_eq!(
        (old.ply(), old.max_plies()),
        (0, plateau_escampe::DEFAULT_MAX_PLIES)
    );
}

#[test]
fn the_board_file_round_trips_and_defaults_to_white_free() {
    let file = "% ABCDEF\n01 bb---- 01\n02 -Bb-bb 02\n03 ------ 03\n04 ------ 04\n05 -n-n-n 05\n06 n-N-n- 06\n% ABCDEF\n";
    let game = Escampe::from_file(file).unwrap();
    assert_eq!(game.to_text(), OPENING);
    let constrained = pos(FIGURE_6);
    let saved = constrained.to_file();
    assert!(saved.contains("% side: w"));
    assert!(saved.contains("% constraint: 2"));
    assert_eq!(Escampe::from_file(&saved).unwrap(), constrained);
}
