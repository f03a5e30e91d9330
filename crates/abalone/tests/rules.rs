//! One test per rule of `docs/rules/abalone.md`.

use plateau_abalone::reference::{Content, Reference};
use plateau_abalone::{Abalone, Cell, Layout};
use plateau_core::{AnyGame, EndReason, Erased, Game, MoveList, Side, play_record};

fn pos(text: &str) -> Abalone {
    Abalone::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn moves_of(game: &Abalone) -> Vec<String> {
    let mut list = MoveList::new();
    game.legal_moves(&mut list);
    let mut out: Vec<String> = list.iter().map(|m| m.to_string()).collect();
    out.sort();
    out
}

fn play(game: &mut Abalone, text: &str) {
    let mv = game
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{text} in {}: {e}", game.to_text()));
    game.play(mv);
}

fn refusal(game: &Abalone, text: &str) -> String {
    match game.parse_move(text) {
        Ok(mv) => panic!("{text} was accepted as {mv} in {}", game.to_text()),
        Err(err) => err.to_string(),
    }
}

fn cell(name: &str) -> Cell {
    Cell::parse(name).unwrap()
}

/// Where spare marbles wait, far from the action (rows A-B for Black, H-I for
/// White), so that each side has 14 minus its losses.
const BLACK_PARKING: &str = "a1 a2 a3 a4 a5 b1 b2 b3 b4 b5 b6 c1 c7 d1";
const WHITE_PARKING: &str = "i9 i8 i7 i6 i5 h9 h8 h7 h6 h5 h4 g3 g9 f9";

/// A position with the given marbles (plus parked ones up to 14 minus the
/// losses), built and written by the reference model.
fn setup(black: &str, white: &str, side: Side, lost: [u32; 2]) -> Abalone {
    let mut reference = Reference {
        cells: [Content::Empty; 81],
        black_to_move: side == Side::Black,
        lost,
    };
    for (list, parking, content, lost) in [
        (black, BLACK_PARKING, Content::Black, lost[0]),
        (white, WHITE_PARKING, Content::White, lost[1]),
    ] {
        let mut placed = 0;
        for name in list.split_whitespace() {
            let c = cell(name);
            reference.cells[(c.row() * 9 + c.diagonal()) as usize] = content;
            placed += 1;
        }
        let mut spare = parking.split_whitespace();
        while placed < 14 - lost {
            let c = cell(spare.next().expect("enough parking"));
            let index = (c.row() * 9 + c.diagonal()) as usize;
            if reference.cells[index] == Content::Empty {
                reference.cells[index] = content;
                placed += 1;
            }
        }
    }
    pos(&reference.text())
}

const STANDARD: &str = "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b b0 w0";

#[test]
fn the_board_has_61_cells_in_rows_a_to_i_and_diagonals_1_to_9() {
    assert_eq!(Cell::all().count(), 61);
    let rows = [
        "a1-a5", "b1-b6", "c1-c7", "d1-d8", "e1-e9", "f2-f9", "g3-g9", "h4-h9", "i5-i9",
    ];
    for (row, span) in rows.iter().enumerate() {
        let in_row: Vec<String> = Cell::all()
            .filter(|c| c.row() == row as i32)
            .map(|c| c.to_string())
            .collect();
        assert_eq!(format!("{}-{}", in_row[0], in_row[in_row.len() - 1]), *span);
    }
    assert!(
        Cell::parse("b7")
            .unwrap_err()
            .contains("b7 is off the board")
    );
    assert!(
        Cell::parse("f1")
            .unwrap_err()
            .contains("row F runs from f2 to f9")
    );
}

#[test]
fn each_cell_has_the_six_neighbours_of_the_rules_file() {
    // (r, d-1), (r, d+1), (r+1, d), (r+1, d+1), (r-1, d), (r-1, d-1).
    let mut around_e5: Vec<String> = plateau_abalone::Direction::ALL
        .iter()
        .filter_map(|&d| cell("e5").step(d))
        .map(|c| c.to_string())
        .collect();
    around_e5.sort();
    assert_eq!(around_e5, ["d4", "d5", "e4", "e6", "f5", "f6"]);
    // A corner has three.
    let around_a1 = plateau_abalone::Direction::ALL
        .iter()
        .filter_map(|&d| cell("a1").step(d))
        .count();
    assert_eq!(around_a1, 3);
}

#[test]
fn the_three_layouts_give_14_marbles_each_and_black_moves_first() {
    let expected = [
        (Layout::Standard, STANDARD, 44),
        (
            Layout::BelgianDaisy,
            "ww1bb/wwwbbb/1ww1bb1/8/9/8/1bb1ww1/bbbwww/bb1ww b b0 w0",
            52,
        ),
        (
            Layout::GermanDaisy,
            "5/ww2bb/www1bbb/1ww2bb1/9/1bb2ww1/bbb1www/bb2ww/5 b b0 w0",
            80,
        ),
    ];
    for (layout, text, count) in expected {
        let game = Abalone::start(layout);
        assert_eq!(game.to_text(), text, "{}", layout.name());
        assert_eq!(game.side_to_move(), Side::Black);
        for side in Side::ALL {
            assert_eq!(game.marbles(side).count_ones(), 14);
        }
        assert_eq!(moves_of(&game).len(), count);
        assert_eq!(Layout::from_name(layout.name()), Some(layout));
    }
}

#[test]
fn a_single_marble_steps_into_an_empty_neighbour() {
    let mut game = pos(STANDARD);
    play(&mut game, "c3d3");
    assert_eq!(game.at(cell("d3")), Some(Side::Black));
    assert_eq!(game.at(cell("c3")), None);
    assert_eq!(game.side_to_move(), Side::White);
    // Never onto another marble, never two cells away.
    let game = pos(STANDARD);
    assert!(refusal(&game, "c3e3").contains("e3 is not next to c3"));
    assert!(refusal(&game, "e5e6").contains("no marble on e5"));
    assert!(refusal(&game, "g5f5").contains("white marble; it is black's turn"));
}

#[test]
fn an_inline_move_is_named_by_its_trailing_marble_and_moves_the_line() {
    let mut game = pos(STANDARD);
    // a1, b2, c3 step north-east: only a1 and d4 change.
    play(&mut game, "a1b2");
    assert_eq!(
        game.to_text(),
        "wwwww/wwwwww/2www2/8/9/3b4/2bbb2/bbbbbb/1bbbb w b0 w0"
    );
    // A pair: b5 and c5 step north-west... c5 moves to d5, b5 to c5.
    let mut game = pos(STANDARD);
    play(&mut game, "b5c5");
    assert_eq!(game.at(cell("d5")), Some(Side::Black));
    assert_eq!(game.at(cell("b5")), None);
    assert_eq!(game.at(cell("c5")), Some(Side::Black));
}

#[test]
fn at_most_three_marbles_move_together() {
    let game = setup("e1 e2 e3 e4", "", Side::Black, [0, 0]);
    let reason = refusal(&game, "e1e2");
    assert!(reason.contains("4 marbles in a line"), "{reason}");
    assert!(reason.contains("at most 3"), "{reason}");
    // The three in front may move without the fourth.
    let mut moved = game.clone();
    play(&mut moved, "e2e3");
    assert_eq!(moved.at(cell("e5")), Some(Side::Black));
    assert_eq!(moved.at(cell("e1")), Some(Side::Black));
    assert_eq!(moved.at(cell("e2")), None);
}

#[test]
fn sumito_two_push_one_three_push_one_or_two() {
    // 2 against 1.
    let mut game = setup("e1 e2", "e3", Side::Black, [0, 0]);
    let mv = game.parse_move("e1e2").unwrap();
    assert_eq!(mv.pushed(), 1);
    assert!(!game.is_noisy(mv));
    game.play(mv);
    assert_eq!(game.at(cell("e4")), Some(Side::White));
    assert_eq!(game.at(cell("e3")), Some(Side::Black));
    assert_eq!(game.at(cell("e1")), None);
    // 3 against 1 and 3 against 2.
    for (white, pushed) in [("e4", 1), ("e4 e5", 2)] {
        let mut game = setup("e1 e2 e3", white, Side::Black, [0, 0]);
        let mv = game.parse_move("e1e2").unwrap();
        assert_eq!(mv.pushed(), pushed);
        game.play(mv);
        assert_eq!(game.at(cell("e4")), Some(Side::Black));
        assert_eq!(game.at(cell("e5")), Some(Side::White));
        assert_eq!(game.lost(Side::White), 0);
    }
}

#[test]
fn a_line_cannot_push_an_equal_or_longer_line() {
    let cases = [
        ("e4", "e5", "e4e5", "a single marble cannot push"),
        ("e3 e4", "e5 e6", "e3e4", "cannot push 2 with 2"),
        ("e1 e2 e3", "e4 e5 e6", "e1e2", "cannot push 3 with 3"),
        ("e1 e2 e3", "e4 e5 e6 e7", "e1e2", "cannot push 4 with 3"),
    ];
    for (black, white, mv, expected) in cases {
        let game = setup(black, white, Side::Black, [0, 0]);
        let reason = refusal(&game, mv);
        assert!(reason.contains(expected), "{mv}: {reason}");
    }
}

#[test]
fn a_push_needs_an_empty_cell_or_the_edge_behind_the_enemy_line() {
    // An own marble behind the enemy line blocks the push.
    let game = setup("e1 e2 e3 e5", "e4", Side::Black, [0, 0]);
    let reason = refusal(&game, "e1e2");
    assert!(
        reason.contains("your own marble on e5 stands behind"),
        "{reason}"
    );
    // The edge behind is fine: the marble goes off.
    let game = setup("e6 e7", "e8", Side::Black, [0, 0]);
    assert!(game.parse_move("e6e7").is_ok());
}

#[test]
fn a_marble_pushed_off_the_board_is_ejected() {
    let mut game = setup("e5 e6 e7", "e8 e9", Side::Black, [0, 0]);
    let mv = game.parse_move("e5e6").unwrap();
    assert!(mv.ejects() && game.is_noisy(mv));
    let before = game.to_text();
    game.play(mv);
    assert_eq!(game.lost(Side::White), 1);
    assert_eq!(game.at(cell("e9")), Some(Side::White));
    assert_eq!(game.at(cell("e8")), Some(Side::Black));
    assert!(game.to_text().ends_with("w b0 w1"), "{}", game.to_text());
    game.undo(mv);
    assert_eq!(game.to_text(), before);
    assert_eq!(game.hash(), game.compute_hash());
}

#[test]
fn a_broadside_moves_into_empty_cells_only_and_never_pushes() {
    let mut game = pos(STANDARD);
    play(&mut game, "c3c5d3");
    for name in ["d3", "d4", "d5"] {
        assert_eq!(game.at(cell(name)), Some(Side::Black));
    }
    let game = pos(STANDARD);
    let reason = refusal(&game, "a1a2b1");
    assert!(reason.contains("b1 is occupied"), "{reason}");
    // An enemy marble in the way is not pushed either.
    let game = setup("e3 e4", "f4", Side::Black, [0, 0]);
    let reason = refusal(&game, "e3e4f3");
    assert!(reason.contains("f4 is occupied"), "{reason}");
    assert!(game.parse_move("e3e4d3").is_ok());
}

#[test]
fn a_broadside_is_one_move_whichever_end_comes_first() {
    let game = pos(STANDARD);
    let a = game.parse_move("c3c5d3").unwrap();
    let b = game.parse_move("c5c3d5").unwrap();
    assert_eq!(a, b);
    assert_eq!(game.format_move(b), "c3c5d3");
    let moves = moves_of(&game);
    assert_eq!(moves.iter().filter(|m| *m == "c3c5d3").count(), 1);
    assert!(!moves.contains(&"c5c3d5".to_string()));
}

#[test]
fn a_broadside_group_is_a_line_of_two_or_three() {
    let game = pos(STANDARD);
    assert!(refusal(&game, "c3d5d3").contains("c3 and d5 are not in a line"));
    assert!(refusal(&game, "b1b4c1").contains("at most 3 marbles"));
    assert!(refusal(&game, "c3c3d3").contains("single marble moves inline"));
    assert!(refusal(&game, "c3c5c4").contains("moves along the line"));
    assert!(refusal(&game, "c3c5e3").contains("e3 is not next to c3"));
}

#[test]
fn own_marbles_never_leave_the_board() {
    let game = setup("e7 e8 e9", "", Side::Black, [0, 0]);
    let reason = refusal(&game, "e7e8");
    assert!(reason.contains("e9 would leave the board"), "{reason}");
    let game = setup("e1 e2", "", Side::Black, [0, 0]);
    let reason = refusal(&game, "e2e1f2");
    assert!(
        reason.contains("the marble on e1 would leave the board"),
        "{reason}"
    );
}

#[test]
fn the_first_side_to_eject_six_wins() {
    let mut game = setup("e5 e6 e7", "e8 e9", Side::Black, [0, 5]);
    assert!(game.outcome().is_none());
    play(&mut game, "e5e6");
    let outcome = game.outcome().expect("six white marbles are off");
    assert_eq!(outcome.winner, Some(Side::Black));
    assert_eq!(outcome.reason, EndReason::SixMarblesEjected);
    assert!(moves_of(&game).is_empty());
    assert!(refusal(&game, "i9h9").contains("the game is over"));
    assert!(game.to_text().ends_with("w b0 w6"));
    // And the text reads back.
    assert_eq!(pos(&game.to_text()).outcome(), Some(outcome));
}

#[test]
fn the_ply_limit_ends_the_game_in_a_draw() {
    let mut game = pos(STANDARD).with_max_plies(4);
    for text in ["c3d3", "g5f5", "c4d4", "g6f6"] {
        assert!(game.outcome().is_none());
        play(&mut game, text);
    }
    let outcome = game.outcome().expect("four plies reach the limit");
    assert_eq!(outcome.winner, None);
    assert_eq!(outcome.reason, EndReason::PlyLimit);
    assert!(moves_of(&game).is_empty());
    assert_eq!(
        Abalone::new().max_plies(),
        plateau_abalone::DEFAULT_MAX_PLIES
    );
    assert_eq!(plateau_abalone::DEFAULT_MAX_PLIES, 400);
}

#[test]
fn the_third_occurrence_of_a_position_is_a_draw() {
    let mut game = pos(STANDARD);
    assert_eq!(game.repetitions(), 1);
    let mut played = Vec::new();
    for round in 2..=3 {
        for text in ["c3d3", "g5f5", "d3c3", "f5g5"] {
            assert!(game.outcome().is_none());
            let mv = game.parse_move(text).unwrap();
            game.play(mv);
            played.push(mv);
        }
        assert_eq!(game.repetitions(), round);
    }
    let outcome = game.outcome().expect("threefold repetition");
    assert_eq!(outcome.winner, None);
    assert_eq!(outcome.reason, EndReason::Repetition);
    assert!(moves_of(&game).is_empty());
    // Undo takes the repetition back.
    game.undo(played[7]);
    assert_eq!(game.repetitions(), 2);
    assert!(game.outcome().is_none());
}

#[test]
fn the_same_marbles_with_the_other_side_to_move_is_not_a_repetition() {
    let mut game = pos(STANDARD);
    // Black shuffles with a triangle of moves while White goes back and forth:
    // the board comes back after 6 plies, but with White to move.
    for text in ["c3d3", "g5f5", "d3d4", "f5g5", "d4c3"] {
        play(&mut game, text);
    }
    assert_eq!(game.repetitions(), 1);
    assert_ne!(game.hash(), pos(STANDARD).hash());
}

#[test]
fn undo_restores_every_kind_of_move() {
    let mut game = setup("e5 e6 e7 d3 d4", "e8 e9 d5", Side::Black, [0, 0]);
    let start = game.clone();
    let mut list = MoveList::new();
    game.legal_moves(&mut list);
    assert!(list.iter().any(|m| m.ejects()));
    assert!(list.iter().any(|m| m.pushed() > 0 && !m.ejects()));
    assert!(list.iter().any(|m| !m.is_inline()));
    for &mv in list.iter() {
        game.play(mv);
        assert_eq!(game.hash(), game.compute_hash(), "{mv}");
        game.undo(mv);
        assert_eq!(game, start, "{mv}");
    }
}

#[test]
fn the_hash_tells_the_side_to_move_apart() {
    let black = pos(STANDARD);
    let white = pos(&STANDARD.replace(" b b0", " w b0"));
    assert_ne!(black.hash(), white.hash());
    assert_eq!(black.hash(), black.compute_hash());
}

#[test]
fn position_text_round_trips() {
    for layout in Layout::ALL {
        let game = Abalone::start(layout);
        assert_eq!(pos(&game.to_text()), game);
    }
    let text = "4w/2www1/1bbwww1/1bbwbw2/1bbbb4/8/7/6/5 w b5 w5";
    assert_eq!(pos(text).to_text(), text);
}

/// The save file read back: the same position, ply count, limit, repetitions
/// and outcome.
fn reload(game: &Abalone) -> Abalone {
    let file = game.to_file();
    let reread = Abalone::from_file(&file).unwrap_or_else(|e| panic!("{e}\n{file}"));
    assert_eq!(reread.to_text(), game.to_text(), "{file}");
    assert_eq!(reread.ply(), game.ply(), "{file}");
    assert_eq!(reread.max_plies(), game.max_plies(), "{file}");
    assert_eq!(reread.repetitions(), game.repetitions(), "{file}");
    assert_eq!(reread.outcome(), game.outcome(), "{file}");
    assert_eq!(reread.hash(), game.hash());
    assert_eq!(reread.to_file(), file, "written back the same");
    reread
}

#[test]
fn a_save_file_keeps_the_ply_count_and_the_repetitions() {
    let mut game = pos(STANDARD);
    for text in ["c3d3", "g5f5", "d3c3", "f5g5"] {
        play(&mut game, text);
    }
    assert_eq!(game.repetitions(), 2);
    let mut reread = reload(&game);
    // Both go on to the third occurrence together.
    for text in ["c3d3", "g5f5", "d3c3"] {
        play(&mut game, text);
        play(&mut reread, text);
        assert!(reread.outcome().is_none());
    }
    play(&mut game, "f5g5");
    play(&mut reread, "f5g5");
    assert_eq!(
        reread.outcome().map(|o| o.reason),
        Some(EndReason::Repetition)
    );
    // A bare position text still reads, with nothing remembered.
    let bare = Abalone::from_file(&format!("{STANDARD}\n")).unwrap();
    assert_eq!(bare.ply(), 0);
    assert_eq!(bare.to_text(), STANDARD);
}

#[test]
fn a_game_drawn_by_repetition_reloads_drawn() {
    let mut game = pos(STANDARD);
    for _ in 0..2 {
        for text in ["c3d3", "g5f5", "d3c3", "f5g5"] {
            play(&mut game, text);
        }
    }
    assert_eq!(
        game.outcome().map(|o| o.reason),
        Some(EndReason::Repetition)
    );
    let reread = reload(&game);
    assert!(moves_of(&reread).is_empty());
}

#[test]
fn a_game_drawn_by_the_ply_limit_reloads_drawn() {
    let mut game = pos(STANDARD).with_max_plies(6);
    for text in ["c3d3", "g5f5", "c4d4", "g6f6", "a1b1"] {
        play(&mut game, text);
    }
    let before_the_end = reload(&game);
    assert!(before_the_end.outcome().is_none());
    play(&mut game, "i5h5");
    assert_eq!(game.outcome().map(|o| o.reason), Some(EndReason::PlyLimit));
    let reread = reload(&game);
    assert!(moves_of(&reread).is_empty());
    // The default limit is not written; others are.
    assert!(game.to_file().contains("max plies: 6"));
    assert!(!pos(STANDARD).to_file().contains("max plies"));
}

#[test]
fn a_save_file_starts_after_the_last_ejection() {
    let mut game = setup("e5 e6 e7 c3", "e8 e9 g7", Side::Black, [0, 0]);
    play(&mut game, "c3d3");
    play(&mut game, "g7g6");
    play(&mut game, "e5e6");
    assert_eq!(game.lost(Side::White), 1);
    play(&mut game, "g6g7");
    let file = game.to_file();
    // The start is the position the ejection left, 3 plies in.
    assert!(file.contains("ply: 3\n"), "{file}");
    assert!(file.contains("moves: g6g7\n"), "{file}");
    assert!(!file.contains("e5e6"), "{file}");
    reload(&game);
}

#[test]
fn a_numbered_game_record_plays_through_the_generic_reader() {
    let mut game: Box<dyn AnyGame> = Box::new(Erased::new("abalone", Abalone::new()));
    let plies = play_record(game.as_mut(), "1.a1b2 i5h5 2.a2b3 i6h6 3.d5d4e5 *").unwrap();
    assert_eq!(plies, 5);
    assert_eq!(game.history(), ["a1b2", "i5h5", "a2b3", "i6h6", "d4d5e4"]);
    // A bad move names its ply.
    let mut game: Box<dyn AnyGame> = Box::new(Erased::new("abalone", Abalone::new()));
    let err = play_record(game.as_mut(), "1.a1b2 i5h5 2.a1a2").unwrap_err();
    assert!(err.starts_with("ply 3: a1a2"), "{err}");
}

#[test]
fn the_board_is_drawn_with_rows_and_diagonals() {
    let picture = Abalone::new().to_string();
    let lines: Vec<&str> = picture.lines().collect();
    assert_eq!(lines[0], "    I w w w w w");
    assert_eq!(lines[8], "    A b b b b b 6");
    assert_eq!(lines[9], "       1 2 3 4 5");
    assert!(lines[10].contains("black to move"));
}

#[test]
fn move_keys_are_small_and_tell_the_moves_of_a_position_apart() {
    for layout in Layout::ALL {
        let game = Abalone::start(layout);
        let mut list = MoveList::new();
        game.legal_moves(&mut list);
        let mut keys: Vec<usize> = list.iter().map(|&m| game.move_key(m)).collect();
        assert!(keys.iter().all(|&k| k < Abalone::MOVE_KEYS));
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), list.len());
    }
}

#[test]
fn only_ejections_are_noisy_and_they_can_be_declined() {
    let game = setup("e5 e6 e7 d3 d4", "e8 e9 d5", Side::Black, [0, 0]);
    let mut noisy = MoveList::new();
    let quiet_exist = game.noisy_moves(&mut noisy);
    assert!(quiet_exist);
    let names: Vec<String> = noisy.iter().map(|m| m.to_string()).collect();
    assert_eq!(names, ["e5e6"]);
    // The non-ejecting push d3d4 is quiet.
    assert!(!game.is_noisy(game.parse_move("d3d4").unwrap()));
}

#[test]
fn under_the_move_limit_more_marbles_pushed_off_win_and_even_counts_draw() {
    use plateau_abalone::AtTheLimit;
    let limited = |game: Abalone| {
        game.with_max_plies(4)
            .with_at_the_limit(AtTheLimit::MoreMarblesWin)
    };
    // Black pushes a white marble off on the third ply; the limit falls on
    // the fourth.
    let mut game = limited(setup("e5 e6 e7 c3", "e8 e9 g7", Side::Black, [0, 0]));
    play(&mut game, "c3d3");
    play(&mut game, "g7g6");
    play(&mut game, "e5e6");
    assert_eq!(game.lost(Side::White), 1);
    assert!(game.outcome().is_none());
    // The rule survives a reload before the end, and the end after it.
    assert_eq!(reload(&game).at_the_limit(), AtTheLimit::MoreMarblesWin);
    play(&mut game, "g6g7");
    let outcome = game.outcome().expect("the limit is reached");
    assert_eq!(
        (outcome.winner, outcome.reason),
        (Some(Side::Black), EndReason::MarblesAtMoveLimit)
    );
    assert!(moves_of(&game).is_empty());
    let file = game.to_file();
    assert!(file.contains("at the limit: marbles"), "{file}");
    assert_eq!(reload(&game).outcome(), Some(outcome));
    // Even counts: a draw, as without the rule; without the rule a marble
    // ahead is a draw too.
    let mut even = limited(pos(STANDARD));
    let mut plain = pos(STANDARD).with_max_plies(4);
    for text in ["c3d3", "g5f5", "c4d4", "g6f6"] {
        play(&mut even, text);
        play(&mut plain, text);
    }
    assert_eq!(
        even.outcome().map(|o| (o.winner, o.reason)),
        Some((None, EndReason::PlyLimit))
    );
    assert_eq!(plain.at_the_limit(), AtTheLimit::Draw);
    assert!(!plain.to_file().contains("at the limit"));
    // A rule the file does not know is refused, by name.
    let bad = limited(pos(STANDARD))
        .to_file()
        .replace("at the limit: marbles", "at the limit: chess");
    let err = Abalone::from_file(&bad).expect_err("an unknown rule");
    assert!(err.to_string().contains("chess"), "{err}");
}
