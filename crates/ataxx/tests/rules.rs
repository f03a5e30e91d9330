//! One test per rule of `docs/rules/ataxx.md`, for both variants.

use plateau_ataxx::{Ataxx, AtaxxEnd, Cell, Move, Square, Virus, VirusEnd, VirusWide};
use plateau_core::{EndReason, Game, MoveList, Side, perft};

fn ataxx(text: &str) -> Ataxx {
    Ataxx::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn virus(text: &str) -> Virus {
    Virus::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn moves_of<G: Game>(game: &G) -> Vec<String> {
    let mut list = MoveList::new();
    game.legal_moves(&mut list);
    let mut out: Vec<String> = list.iter().map(|&m| game.format_move(m)).collect();
    out.sort();
    out
}

fn play<G: Game>(game: &mut G, moves: &str) {
    for text in moves.split_whitespace() {
        let mv = game
            .parse_move(text)
            .unwrap_or_else(|e| panic!("{text} in {}: {e}", game.to_text()));
        game.play(mv);
    }
}

fn refusal<G: Game>(game: &G, text: &str) -> String {
    match game.parse_move(text) {
        Ok(mv) => panic!("{text} was accepted as {mv:?} in {}", game.to_text()),
        Err(err) => err.to_string(),
    }
}

fn sq(text: &str) -> Square {
    Square::parse(text, 9).unwrap()
}

#[test]
fn black_starts_on_the_top_left_and_bottom_right_corners() {
    let game = Ataxx::new();
    assert_eq!(game.to_text(), "x5o/7/7/7/7/7/o5x x 0 1");
    assert_eq!(game.side_to_move(), Side::Black);
    assert_eq!(game.cell(sq("a7")), Cell::Stone(Side::Black));
    assert_eq!(game.cell(sq("g1")), Cell::Stone(Side::Black));
    assert_eq!(game.cell(sq("g7")), Cell::Stone(Side::White));
    assert_eq!(game.cell(sq("a1")), Cell::Stone(Side::White));
    assert_eq!(Virus::standard().to_text(), "x5o/7/7/7/7/7/o5x x");
    let texts = [
        "x2o/4/4/o2x x",
        "x3o/5/5/5/o3x x",
        "x4o/6/6/6/6/o4x x",
        "x5o/7/7/7/7/7/o5x x",
        "x6o/8/8/8/8/8/8/o6x x",
    ];
    for (n, text) in (4..=8).zip(texts) {
        assert_eq!(Virus::new(n).unwrap().to_text(), text);
    }
    assert_eq!(
        VirusWide::new(9).unwrap().to_text(),
        "x7o/9/9/9/9/9/9/9/o7x x"
    );
    assert!(Virus::new(9).is_err(), "9x9 needs the wide boards");
    assert!(VirusWide::new(3).is_err() && VirusWide::new(10).is_err());
}

#[test]
fn a_drop_goes_on_an_empty_cell_next_to_one_of_your_stones() {
    let game = Virus::standard();
    assert_eq!(moves_of(&game), ["a6", "b6", "b7", "f1", "f2", "g2"]);
    let reason = refusal(&game, "c5");
    assert!(reason.contains("touches no stone of x"), "{reason}");
    let reason = refusal(&game, "g7");
    assert!(reason.contains("occupied by an o stone"), "{reason}");
    assert!(refusal(&game, "h1").contains("off the board"));
}

#[test]
fn a_drop_turns_every_adjacent_enemy_stone_in_eight_directions() {
    // White stones on seven cells around d4 (Black on the eighth), plus one two
    // cells away that must stay white.
    let far = virus("7/7/2ooo2/2o1o2/2ooo1o/x6/7 x");
    // Black's only stone is on a2; it cannot reach d4 in the virus game.
    assert!(refusal(&far, "d4").contains("touches no stone"));
    let mut game = virus("7/7/2ooo2/2o1o2/2oox1o/7/7 x");
    play(&mut game, "d4");
    assert_eq!(game.to_text(), "7/7/2xxx2/2xxx2/2xxx1o/7/7 o");
    assert_eq!(game.count(Side::Black), 9);
    assert_eq!(game.count(Side::White), 1);
}

#[test]
fn the_virus_game_has_no_jumps_and_no_pass() {
    let game = Virus::standard();
    assert!(refusal(&game, "a7c5").contains("no jumps"));
    assert!(refusal(&game, "0000").contains("no pass"));
}

#[test]
fn the_virus_game_ends_when_the_board_is_full_and_most_stones_wins() {
    let game = virus("xxxxx/xxxxx/xxxoo/ooooo/ooooo o");
    assert_eq!(game.end(), Some(VirusEnd::BoardFull));
    assert_eq!(game.final_score(), Some(13 - 12));
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Side::Black));
    assert_eq!(outcome.reason, EndReason::BoardFull);
    let even = virus("xxxx/xxxx/oooo/oooo x");
    assert_eq!(even.outcome().unwrap().winner, None);
    assert_eq!(even.final_score(), Some(0));
}

#[test]
fn a_walled_in_side_to_move_ends_the_game_and_the_empty_cells_go_to_the_opponent() {
    // Black has more stones than White but none of them touches an empty cell.
    let game = virus("5/5/ooooo/xxxxx/xxxxx x");
    assert!(moves_of(&game).is_empty());
    assert_eq!(game.end(), Some(VirusEnd::WalledIn));
    // 10 - 5, and the 10 empty cells for White.
    assert_eq!(game.final_score(), Some(10 - 5 - 10));
    assert_eq!(game.outcome().unwrap().winner, Some(Side::White));
    // The same board with White to move goes on: White still has drops.
    let live = virus("5/5/ooooo/xxxxx/xxxxx o");
    assert_eq!(live.outcome(), None);
    assert_eq!(live.final_score(), None);
    assert_eq!(moves_of(&live), ["a4", "b4", "c4", "d4", "e4"]);
}

#[test]
fn a_side_without_stones_has_no_drop_and_loses() {
    let game = virus("5/5/5/5/ooooo x");
    assert_eq!(game.end(), Some(VirusEnd::NoStones));
    assert_eq!(game.final_score(), Some(-5 - 20));
    assert_eq!(game.outcome().unwrap().winner, Some(Side::White));
}

#[test]
fn an_ataxx_clone_adds_a_stone_and_resets_the_halfmove_clock() {
    let mut game = ataxx("x5o/7/7/7/7/7/o5x x 7 3");
    play(&mut game, "b6");
    assert_eq!(game.to_text(), "x5o/1x5/7/7/7/7/o5x o 0 3");
    assert_eq!(game.count(Side::Black), 3);
}

#[test]
fn an_ataxx_jump_moves_exactly_two_cells_and_empties_its_origin() {
    let mut game = Ataxx::new();
    assert_eq!(moves_of(&game).len(), 16);
    play(&mut game, "a7c5");
    assert_eq!(game.to_text(), "6o/7/2x4/7/7/7/o5x o 1 1");
    assert_eq!(game.count(Side::Black), 2);
    let game = Ataxx::new();
    assert!(refusal(&game, "a7d4").contains("3 cells from a7"));
    assert!(refusal(&game, "a7b6").contains("that is a clone, written b6"));
    assert!(refusal(&game, "c5e5").contains("no stone on c5"));
    assert!(refusal(&game, "g7e7").contains("it is x (black)'s turn"));
    assert!(refusal(&game, "a7g7").contains("occupied"));
}

#[test]
fn jumps_turn_the_neighbours_too() {
    let mut game = ataxx("x6/7/2o4/7/7/7/7 x 0 1");
    play(&mut game, "a7b5");
    assert_eq!(game.to_text(), "7/7/1xx4/7/7/7/7 o 1 1");
}

#[test]
fn blocked_cells_are_never_entered() {
    let game = ataxx("x-o4/--5/7/7/7/7/o5x x 0 1");
    assert!(refusal(&game, "b7").contains("b7 is a blocked cell"));
    assert!(refusal(&game, "a7b6").contains("blocked"));
    // No clone from a7 (every neighbour is blocked), but jumps pass over them.
    let from_a7: Vec<String> = moves_of(&game)
        .into_iter()
        .filter(|m| m.starts_with("a7"))
        .collect();
    assert_eq!(from_a7, ["a7a5", "a7b5", "a7c5", "a7c6"]);
    assert!(refusal(&game, "a7c7").contains("occupied"));
    assert!(refusal(&game, "b7").contains("blocked"));
}

#[test]
fn a_side_without_moves_passes_while_the_game_goes_on() {
    let mut game = ataxx("7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1");
    assert_eq!(moves_of(&game), ["0000"]);
    assert_eq!(game.outcome(), None);
    play(&mut game, "0000");
    assert_eq!(game.to_text(), "7/7/7/7/ooooooo/ooooooo/xxxxxxx o 1 1");
    let reason = refusal(&Ataxx::new(), "0000");
    assert!(
        reason.contains("only legal when no move exists"),
        "{reason}"
    );
    // The pass is a real move: perft counts it.
    let mut walled = ataxx("7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1");
    assert_eq!(perft(&mut walled, 1), 1);
}

#[test]
fn the_game_ends_when_a_side_has_no_stones() {
    let mut game = ataxx("x6/7/2o4/7/7/7/7 x 0 1");
    play(&mut game, "a7b5");
    assert_eq!(game.end(), Some(AtaxxEnd::NoStones));
    assert_eq!(game.final_score(), Some(2));
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Side::Black));
    assert_eq!(outcome.reason, EndReason::NoStonesLeft);
    assert!(moves_of(&game).is_empty());
    assert!(refusal(&game, "a1").contains("the game is over"));
}

#[test]
fn the_game_ends_when_no_stone_can_reach_an_empty_cell() {
    // f7, g7 and the lower ranks are empty, but walls keep every stone away.
    let game = ataxx("xxo--2/-----2/-----2/7/7/7/7 o 0 1");
    assert_eq!(game.end(), Some(AtaxxEnd::NoMoves));
    assert!(moves_of(&game).is_empty());
    // Unreachable cells count for nobody: 2 stones to 1.
    assert_eq!(game.final_score(), Some(1));
    assert_eq!(game.outcome().unwrap().winner, Some(Side::Black));
    // One wall cell less and White could jump: the game goes on.
    let open = ataxx("xxo-3/-----2/-----2/7/7/7/7 o 0 1");
    assert_eq!(moves_of(&open), ["c7e7"]);
}

#[test]
fn the_game_ends_when_the_board_is_full() {
    let game = ataxx("xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/ooooooo/ooooooo/ooooooo o 3 40");
    assert_eq!(game.end(), Some(AtaxxEnd::BoardFull));
    assert_eq!(game.final_score(), Some(28 - 21));
    assert_eq!(game.outcome().unwrap().reason, EndReason::BoardFull);
}

#[test]
fn a_hundred_half_moves_without_a_clone_draw() {
    let mut game = ataxx("x5o/7/7/7/7/7/o5x x 99 60");
    let clone = game.clone();
    play(&mut game, "a7c5");
    assert_eq!(game.halfmove_clock(), 100);
    assert_eq!(game.end(), Some(AtaxxEnd::HalfmoveClock));
    assert_eq!(game.outcome().unwrap().winner, None);
    assert_eq!(game.final_score(), Some(0));
    assert!(moves_of(&game).is_empty());
    // A clone at 99 resets the clock instead.
    let mut game = clone;
    play(&mut game, "b6");
    assert_eq!(game.halfmove_clock(), 0);
    assert_eq!(game.outcome(), None);
}

#[test]
fn threefold_repetition_draws() {
    let mut game = Ataxx::new();
    play(&mut game, "a7c7 g7e7 c7a7 e7g7");
    assert_eq!(game.to_text(), "x5o/7/7/7/7/7/o5x x 4 3");
    assert_eq!(game.outcome(), None, "twice is not yet a draw");
    play(&mut game, "a7c7 g7e7 c7a7");
    assert_eq!(game.outcome(), None);
    play(&mut game, "e7g7");
    assert_eq!(game.end(), Some(AtaxxEnd::Repetition));
    assert_eq!(game.outcome().unwrap().winner, None);
    assert!(moves_of(&game).is_empty());
    // Undo takes the draw back.
    game.undo(Move::Jump(sq("e7"), sq("g7")));
    assert_eq!(game.outcome(), None);
}

/// The save file read back: the same position, clocks and outcome.
fn reload(game: &Ataxx) -> Ataxx {
    let file = game.to_file();
    let reread = Ataxx::from_file(&file).unwrap_or_else(|e| panic!("{e}\n{file}"));
    assert_eq!(reread.to_text(), game.to_text(), "{file}");
    assert_eq!(reread.outcome(), game.outcome(), "{file}");
    assert_eq!(reread.to_file(), file, "written back the same");
    reread
}

#[test]
fn a_save_file_keeps_the_repetition_history() {
    let mut game = Ataxx::new();
    play(&mut game, "b6 f6 a7c7 g7e7 c7a7 e7g7");
    let mut reread = reload(&game);
    // Both reach the third occurrence at the same move.
    for mv in ["a7c7", "g7e7", "c7a7"] {
        play(&mut game, mv);
        play(&mut reread, mv);
        assert_eq!(reread.outcome(), None);
    }
    play(&mut game, "e7g7");
    play(&mut reread, "e7g7");
    assert_eq!(reread.end(), Some(AtaxxEnd::Repetition));
    // A game drawn by repetition reloads drawn.
    let drawn = reload(&game);
    assert_eq!(drawn.end(), Some(AtaxxEnd::Repetition));
    assert!(moves_of(&drawn).is_empty());
    // The file starts at the last clone (f6) and holds the jumps since.
    let file = game.to_file();
    assert!(
        file.contains("start: x5o/1x3o1/7/7/7/7/o5x x 0 2\n"),
        "{file}"
    );
    assert!(
        file.contains("moves: a7c7 g7e7 c7a7 e7g7 a7c7 g7e7 c7a7 e7g7\n"),
        "{file}"
    );
    // A bare position text still reads.
    let bare = Ataxx::from_file("x5o/7/7/7/7/7/o5x x 0 1\n").unwrap();
    assert_eq!(bare, Ataxx::new());
}

#[test]
fn a_save_file_keeps_the_halfmove_clock_and_move_number_of_its_start() {
    // A pass, a jump and a jump: three plies, none a clone.
    let mut game = ataxx("7/7/7/7/ooooooo/ooooooo/xxxxxxx x 40 30");
    play(&mut game, "0000 a3a5 a1a3");
    let reread = reload(&game);
    assert_eq!(reread.halfmove_clock(), 43);
    assert_eq!(reread.fullmove_number(), 31);
    let file = game.to_file();
    assert!(
        file.contains("start: 7/7/7/7/ooooooo/ooooooo/xxxxxxx x 40 30\n"),
        "{file}"
    );
    assert!(file.contains("moves: 0000 a3a5 a1a3\n"), "{file}");
}

#[test]
fn the_move_number_grows_after_whites_move() {
    let mut game = Ataxx::new();
    play(&mut game, "b6");
    assert_eq!(game.fullmove_number(), 1);
    play(&mut game, "f6");
    assert_eq!(game.fullmove_number(), 2);
    assert_eq!(game.to_text(), "x5o/1x3o1/7/7/7/7/o5x x 0 2");
}

#[test]
fn undo_restores_captures_clocks_and_hash() {
    let mut game = ataxx("x6/7/2o4/7/7/7/7 x 12 5");
    let before = game.clone();
    let mv = game.parse_move("a7b5").unwrap();
    game.play(mv);
    assert_ne!(game.hash(), before.hash());
    game.undo(mv);
    assert_eq!(game, before);
    assert_eq!(game.hash(), game.compute_hash());
}

#[test]
fn the_hash_tells_sides_boards_and_sizes_apart() {
    let texts = [
        "x5o/7/7/7/7/7/o5x x 0 1",
        "x5o/7/7/7/7/7/o5x o 0 1",
        "x5o/7/7/3-3/7/7/o5x x 0 1",
        "o5x/7/7/7/7/7/x5o x 0 1",
    ];
    let mut hashes: Vec<u64> = texts.iter().map(|t| ataxx(t).hash()).collect();
    // The clocks are not part of the position for repetition and tables.
    assert_eq!(ataxx("x5o/7/7/7/7/7/o5x x 9 9").hash(), hashes[0]);
    hashes.sort_unstable();
    hashes.dedup();
    assert_eq!(hashes.len(), 4);
    assert_ne!(
        Virus::new(5).unwrap().hash(),
        VirusWide::new(5).unwrap().hash(),
        "layouts differ"
    );
    assert_ne!(Virus::new(5).unwrap().hash(), Virus::new(6).unwrap().hash());
}

#[test]
fn the_board_size_is_read_from_the_position_text() {
    let game = virus("x3o/5/5/5/o3x x");
    assert_eq!(game.size(), 5);
    assert_eq!(moves_of(&game), ["a4", "b4", "b5", "d1", "d2", "e2"]);
    let wide = VirusWide::from_text("x7o/9/9/9/9/9/9/9/o7x o").unwrap();
    assert_eq!(wide.size(), 9);
    assert_eq!(moves_of(&wide), ["a2", "b1", "b2", "h8", "h9", "i8"]);
}

#[test]
fn notation_is_target_for_clones_origin_target_for_jumps_and_0000() {
    let game = Ataxx::new();
    assert_eq!(game.parse_move("b6"), Ok(Move::Clone(sq("b6"))));
    assert_eq!(game.parse_move("g1e3"), Ok(Move::Jump(sq("g1"), sq("e3"))));
    assert_eq!(game.format_move(Move::Jump(sq("g1"), sq("e3"))), "g1e3");
    assert!(refusal(&game, "B6").contains("lower case"));
    assert!(refusal(&game, "g1-e3").contains("not a move"));
}
