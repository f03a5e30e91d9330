//! Whole games in PDN: self-play games read, replayed and written back
//! unchanged; the syntax PDN allows; the errors it does not.

use plateau_core::{EndReason, Game, Side};
use plateau_draughts::Draughts;
use plateau_draughts::pdn::{PdnGame, PdnResult, read_game, read_games, write_game};

const GAMES: [&str; 2] = [
    include_str!("data/selfplay-1.pdn"),
    include_str!("data/selfplay-2.pdn"),
];

#[test]
fn self_play_games_round_trip_exactly() {
    for text in GAMES {
        let game = read_game(text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(game.tag("Event"), Some("plateau self-play"));
        assert_eq!(game.tag("GameType"), Some("20"));
        assert!(game.moves.len() > 100);
        assert_eq!(write_game(&game), text, "written back byte for byte");
        assert_eq!(read_game(&game.write()).unwrap(), game);
        // The recorded result is what the rules say of the final position.
        let end = game.final_position();
        assert_eq!(PdnResult::from_outcome(end.outcome()), game.result);
        assert_eq!(end.plies_played(), game.moves.len());
    }
    assert_eq!(read_game(GAMES[0]).unwrap().result, PdnResult::WhiteWins);
    assert_eq!(read_game(GAMES[1]).unwrap().result, PdnResult::BlackWins);
    let both = format!("{}\n{}", GAMES[0], GAMES[1]);
    assert_eq!(read_games(&both).unwrap().len(), 2);
}

#[test]
fn comments_variations_numbers_and_marks_are_skipped() {
    let text = "[White \"A \\\"quoted\\\" name\"]\n[Black \"B\"]\n\
                % an escape line\n\
                1.32-28 {a comment\nover two lines} 19-23 (2... 18-23 (3. 40-34)) \
                2. 28x19! $1 14x23?! ; to the end of the line\n\
                3. 37-32 1-1\n";
    let game = read_game(text).unwrap();
    assert_eq!(game.tag("White"), Some("A \"quoted\" name"));
    assert_eq!(game.moves.len(), 5);
    assert_eq!(game.result, PdnResult::Draw);
    let written = game.write();
    assert!(
        written.contains("[White \"A \\\"quoted\\\" name\"]"),
        "{written}"
    );
    assert!(
        written.ends_with("1. 32-28 19-23 2. 28x19 14x23 3. 37-32 1-1\n"),
        "{written}"
    );
    assert_eq!(read_game(&written).unwrap(), game);
}

#[test]
fn a_fen_start_with_black_to_move() {
    // The rules file's example: Black's only move takes three men.
    let text = "[FEN \"B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29\"]\n1... 12x21 *";
    let game = read_game(text).unwrap();
    assert_eq!(game.start.side_to_move(), Side::Black);
    assert_eq!(game.moves[0].capture_count(), 3);
    let written = game.write();
    assert!(
        written.contains("[FEN \"B:WK10,K15,18,24,27,28:B12,16,20,K22,K25,K29\"]"),
        "{written}"
    );
    assert!(written.contains("1... 12x21 *"), "{written}");
    assert_eq!(read_game(&written).unwrap(), game);
    assert!(
        read_game("[FEN \"B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29\"]\n1... 29x23 *")
            .unwrap_err()
            .to_string()
            .contains("move 1 (black)")
    );
    let mut game = PdnGame::new(Draughts::from_text("B:W31,32:B18,19").unwrap());
    let mut position = game.start.clone();
    for text in ["18-23", "31-27", "19-24"] {
        let mv = position.parse_move(text).unwrap();
        position.play(mv);
        game.moves.push(mv);
    }
    let written = game.write();
    assert!(written.contains("1... 18-23 2. 31-27 19-24 *"), "{written}");
    assert_eq!(read_game(&written).unwrap(), game);
}

#[test]
fn chess_style_results_are_read() {
    assert_eq!(
        read_game("1. 32-28 1-0").unwrap().result,
        PdnResult::WhiteWins
    );
    assert_eq!(
        read_game("1. 32-28 0-1").unwrap().result,
        PdnResult::BlackWins
    );
    assert_eq!(
        read_game("1. 32-28 1/2-1/2").unwrap().result,
        PdnResult::Draw
    );
    assert_eq!(
        read_game("[Result \"0-2\"]\n1. 32-28 *").unwrap().result,
        PdnResult::BlackWins
    );
}

#[test]
fn bad_pdn_says_where_and_why() {
    let cases = [
        (
            "1. 32-28 19-23 2. 33-29 *",
            "line 1: move 2 (white): 33-29: capturing is compulsory",
        ),
        ("1. 32-28\n2. 28-22 *", "line 2: move 1 (black): 28-22"),
        ("1. 32-28 {never closed", "never closed"),
        ("1. 32-28 (19-23", "never closed"),
        (
            "[Result \"2-0\"]\n1. 32-28 0-2",
            "the Result tag says 2-0 but the moves end with 0-2",
        ),
        ("[Result \"3-0\"]\n*", "Result tag must be"),
        (
            "[GameType \"21\"]\n*",
            "GameType 21 is not international draughts",
        ),
        (
            "[FEN \"W:W31-50\"]\n*",
            "the FEN tag: the :B piece list is missing",
        ),
        ("[White Bob]\n*", "double quotes"),
        ("[White \"Bob\"\n*", "not closed by ]"),
        ("1. 32-28 ) 19-23", "closes nothing"),
        ("", "no game"),
    ];
    for (text, expected) in cases {
        let err = read_game(text).expect_err(text).to_string();
        assert!(
            err.contains(expected),
            "{text:?}: {err:?} lacks {expected:?}"
        );
    }
}

#[test]
fn the_position_file_keeps_the_draw_rules_memory() {
    // Two rounds of a king shuffle: the file replays them, so the third
    // occurrence still draws after reading it back.
    let mut game = Draughts::from_text("W:WK47,45:BK4,6").unwrap();
    for text in ["47-42", "4-9", "42-47", "9-4", "47-42", "4-9", "42-47"] {
        let mv = game.parse_move(text).unwrap();
        game.play(mv);
    }
    let file = game.to_file();
    assert!(file.contains("[FEN \"W:W45,K47:BK4,6\"]"), "{file}");
    let mut back = Draughts::from_file(&file).unwrap();
    assert_eq!(back.to_text(), game.to_text());
    assert_eq!(back.king_move_plies(), 7);
    let mv = back.parse_move("9-4").unwrap();
    back.play(mv);
    assert_eq!(
        back.outcome().map(|o| o.reason),
        Some(EndReason::Repetition)
    );
    // A man move forgets everything before it: the file starts there.
    let mut reset = Draughts::new();
    for text in ["32-28", "19-23", "28x19", "14x23"] {
        let mv = reset.parse_move(text).unwrap();
        reset.play(mv);
    }
    let file = reset.to_file();
    assert!(
        file.contains(&format!("[FEN \"{}\"]", reset.to_text())),
        "{file}"
    );
    // A bare FEN is a position file too.
    assert_eq!(
        Draughts::from_file("W:W31-50:B1-20\n").unwrap(),
        Draughts::new()
    );
}

/// Found by the `pdn` fuzz target: a backslash before a line break took the
/// line break into a tag value, which `write_game` wrote as it was, so the
/// PDN it wrote did not read back. A tag value is on one line.
#[test]
fn a_tag_value_does_not_continue_past_an_escaped_line_break() {
    let text = "[Event \"a \\\nb\"]\n1. 31-26 *\n";
    let err = read_game(text).expect_err(text).to_string();
    assert!(
        err.contains("the value of tag Event is not closed"),
        "{err}"
    );
    let game = read_game("[Event \"a \\\\ \\\" b\"]\n1. 31-26 *\n").unwrap();
    assert_eq!(game.tag("Event"), Some("a \\ \" b"));
    assert_eq!(read_game(&write_game(&game)).unwrap(), game);
}
