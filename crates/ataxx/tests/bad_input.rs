//! Bad positions and moves: each a clear error, never a panic, and the position
//! untouched.

use plateau_ataxx::{Ataxx, Square, Virus, VirusWide};
use plateau_core::{Game, MoveErrorKind, MoveList, PositionErrorKind};
use proptest::prelude::*;

fn ataxx_error(text: &str) -> String {
    match Ataxx::from_text(text) {
        Ok(game) => panic!("{text:?} was accepted as {}", game.to_text()),
        Err(err) => err.to_string(),
    }
}

fn virus_error(text: &str) -> String {
    match Virus::from_text(text) {
        Ok(game) => panic!("{text:?} was accepted as {}", game.to_text()),
        Err(err) => err.to_string(),
    }
}

#[test]
fn malformed_ataxx_positions_are_refused_with_reasons() {
    let long = format!("x5o/7/7/7/7/7/o5x x 0 1{}", " ".repeat(300));
    let cases = [
        ("", "has 0"),
        ("x5o/7/7/7/7/7/o5x x 0", "has 3"),
        ("x5o/7/7/7/7/7/o5x x 0 1 extra", "has 5"),
        ("x4o/6/6/6/6/o4x x 0 1", "this board is 6x6"),
        ("x6o/8/8/8/8/8/8/o6x x 0 1", "this board is 8x8"),
        ("x/o/x x 0 1", "3 ranks"),
        ("x5o/7/7/7/7/7/o6x x 0 1", "rank 1 has more than 7 cells"),
        ("x5o/7/7/6/7/7/o5x x 0 1", "rank 4 has 6 cells instead of 7"),
        ("x5o/7/7/7/7/7/o5X x 0 1", "lower case"),
        ("x5o/7/7/7/7/7/o5q x 0 1", "'q' is not a cell"),
        ("x5o/7/7/07/7/7/o5x x 0 1", "not 0"),
        ("x5o/7/7/34/7/7/o5x x 0 1", "two digits in a row"),
        ("x5o/7/7/7/7/7/o5x b 0 1", "x (Black) or o (White)"),
        ("x5o/7/7/7/7/7/o5x x 101 1", "halfmove clock"),
        ("x5o/7/7/7/7/7/o5x x -1 1", "halfmove clock"),
        ("x5o/7/7/7/7/7/o5x x 0 0", "move number"),
        ("x5o/7/7/7/7/7/o5x x +5 1", "halfmove clock"),
        ("x5o/7/7/7/7/7/o5x x 0 +1", "move number"),
        ("x5o/7/7/7/7/7/o5x x ５ 1", "halfmove clock"),
        ("x5o/7/7/7/7/7/o5x x 0 one", "move number"),
        ("7/7/7/7/7/7/7 x 0 1", "neither side has a stone"),
        ("x5o//7/7/7/7/o5x x 0 1", "rank 6 has 0 cells"),
        (long.as_str(), "too long"),
    ];
    for (text, expected) in cases {
        let reason = ataxx_error(text);
        assert!(
            reason.contains(expected),
            "{text:?}: {reason:?} lacks {expected:?}"
        );
    }
}

#[test]
fn malformed_virus_positions_are_refused_with_reasons() {
    let cases = [
        ("x5o/7/7/7/7/7/o5x x 0 1", "clocks belong to full Ataxx"),
        ("x5o/7/7/7/7/7/o5x", "has 1"),
        (
            "x5o/7/7/-6/7/7/o5x x",
            "blocked cells (-) belong to full Ataxx",
        ),
        ("x7o/9/9/9/9/9/9/9/o7x x", "needs the wide layout"),
        (
            "x8o/10/10/10/10/10/10/10/10/o8x x",
            "10 ranks separated by '/'; boards are 4x4 to 9x9",
        ),
        ("xo/ox x", "2 ranks"),
        ("x2o/4/4/o2x w", "x (Black) or o (White)"),
        ("x2o/4/4/o3x x", "more than 4 cells"),
        ("4/4/4/4 x", "neither side"),
        (
            "x3/4/4/4 x",
            "o (white) has no stone but played the last move",
        ),
        (
            "o3/4/4/4 o",
            "x (black) has no stone but played the last move",
        ),
    ];
    for (text, expected) in cases {
        let reason = virus_error(text);
        assert!(
            reason.contains(expected),
            "{text:?}: {reason:?} lacks {expected:?}"
        );
    }
    assert!(VirusWide::from_text("x7o/9/9/9/9/9/9/9/o7x x").is_ok());
    // The side to move may have lost every stone (the game is then over).
    assert!(Virus::from_text("o3/4/4/4 x").is_ok());
    assert!(VirusWide::from_text("x8o/10/10/10/10/10/10/10/10/o8x x").is_err());
}

#[test]
fn malformed_save_files_are_refused_with_reasons() {
    let start = "x5o/7/7/7/7/7/o5x x 0 1";
    let cases = [
        ("moves: a7c5\n".to_string(), "no start: line"),
        (format!("start: {start}\nply: 3\n"), "unknown field \"ply\""),
        ("start: x5o/7/7 x 0 1\n".to_string(), "the start position: "),
        (
            format!("start: {start}\nmoves: a7c5 a7c5\n"),
            "the moves: ply 2: a7c5",
        ),
        (
            format!("start: {start}\nmoves: hell\n"),
            "the moves: ply 1: hell",
        ),
        (
            "start: x5o/7/7/7/7/7/o5x x 99 1\nmoves: a7c5 g7e7\n".to_string(),
            "ply 2: g7e7: the game is already over",
        ),
    ];
    for (text, expected) in cases {
        match Ataxx::from_file(&text) {
            Ok(game) => panic!("{text:?} was accepted as {}", game.to_text()),
            Err(err) => assert!(
                err.to_string().contains(expected),
                "{text:?}: {err} lacks {expected:?}"
            ),
        }
    }
}

fn check_moves<G: Game + PartialEq>(game: &G, cases: &[(&str, &str)]) {
    for &(text, expected) in cases {
        let before = game.clone();
        let err = game.parse_move(text).expect_err(text);
        assert!(
            err.to_string().contains(expected),
            "{text:?}: {err} lacks {expected:?}"
        );
        assert!(*game == before);
    }
}

#[test]
fn malformed_moves_are_refused_and_leave_the_game_alone() {
    let long = "a".repeat(500);
    check_moves(
        &Ataxx::new(),
        &[
            ("", "empty move"),
            ("   ", "empty move"),
            ("b", "not a move"),
            ("b6b5b4", "not a move"),
            ("h1", "off the board"),
            ("a8", "off the board"),
            ("a7h7", "off the board"),
            ("B6", "lower case"),
            ("66", "not a cell"),
            ("a7 c5", "not a move"),
            ("ü6", "not a move"),
            (&long, "too long"),
            ("d4", "touches no stone"),
            ("d4d6", "no stone on d4"),
        ],
    );
    check_moves(
        &Virus::new(5).unwrap(),
        &[
            ("f1", "off the board (files a-e, ranks 1-5)"),
            ("a5c3", "no jumps"),
            ("hell", "not a cell"),
            ("a5z9", "not a cell"),
            ("0000", "no pass"),
            ("a5", "occupied by an x stone"),
            ("c3", "touches no stone"),
        ],
    );
    let over = Ataxx::from_text("x6/7/7/7/7/7/7 o 0 1").unwrap();
    check_moves(&over, &[("a1", "the game is over: black wins")]);
}

#[test]
fn refusals_say_what_kind_they_are() {
    use MoveErrorKind::{GameOver, Illegal, Unreadable};
    let ataxx = Ataxx::new();
    for (text, kind) in [
        ("", Unreadable),
        ("h1", Unreadable),
        ("b6b5b4", Unreadable),
        ("d4", Illegal),
        ("d4d6", Illegal),
        ("0000", Illegal),
    ] {
        let err = ataxx.parse_move(text).expect_err(text);
        assert_eq!(err.kind, kind, "{text:?}: {err}");
    }
    let virus = Virus::new(5).unwrap();
    for (text, kind) in [
        ("0000", Unreadable),
        ("a5c3", Unreadable),
        ("f1", Unreadable),
        ("a5", Illegal),
        ("c3", Illegal),
    ] {
        let err = virus.parse_move(text).expect_err(text);
        assert_eq!(err.kind, kind, "{text:?}: {err}");
    }
    let over = Ataxx::from_text("x6/7/7/7/7/7/7 o 0 1").unwrap();
    assert_eq!(over.parse_move("a1").unwrap_err().kind, GameOver);
    for (text, kind) in [
        ("x5o/7/7/7/7/7/o5q x 0 1", PositionErrorKind::Malformed),
        ("7/7/7/7/7/7/7 x 0 1", PositionErrorKind::Illegal),
    ] {
        let err = Ataxx::from_text(text).expect_err(text);
        assert_eq!(err.kind, kind, "{text:?}: {err}");
    }
    let wide = Virus::from_text("x7o/9/9/9/9/9/9/9/o7x x").expect_err("9x9 on 64 bits");
    assert_eq!(wide.kind, PositionErrorKind::OtherVariant, "{wide}");
    let stoneless = Virus::from_text("x4/5/5/5/5 x").expect_err("o never played");
    assert_eq!(stoneless.kind, PositionErrorKind::Illegal, "{stoneless}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn random_strings_never_panic_the_parsers(text in ".{0,90}") {
        let _ = Ataxx::from_text(&text);
        let _ = Ataxx::from_file(&text);
        let _ = Virus::from_text(&text);
        let _ = VirusWide::from_text(&text);
        let _ = Square::parse(&text, 9);
        let ataxx = Ataxx::new();
        let _ = ataxx.parse_move(&text);
        let virus = Virus::new(4).unwrap();
        let _ = virus.parse_move(&text);
        let wide = VirusWide::new(9).unwrap();
        let _ = wide.parse_move(&text);
    }

    #[test]
    fn near_miss_save_files_never_panic(
        clocks in "[+]?[0-9]{1,3} [0-9]{1,3}",
        moves in proptest::collection::vec("[a-g][1-7]([a-g][1-7])?|0000", 0..12),
    ) {
        let text = format!(
            "start: x5o/7/7/7/7/7/o5x x {clocks}\nmoves: {}\n",
            moves.join(" ")
        );
        if let Ok(game) = Ataxx::from_file(&text) {
            // Whatever is accepted reads back the same from its own save file.
            let again = Ataxx::from_file(&game.to_file()).unwrap();
            prop_assert_eq!(again.to_text(), game.to_text());
            prop_assert_eq!(again.outcome(), game.outcome());
        }
    }

    #[test]
    fn near_miss_positions_never_panic(
        ranks in proptest::collection::vec("[xo\\-0-9XO]{0,10}", 0..11),
        side in "[xob ]{0,2}",
        clocks in "[0-9 \\-]{0,8}",
    ) {
        let text = format!("{} {side} {clocks}", ranks.join("/"));
        if let Ok(game) = Ataxx::from_text(&text) {
            // Whatever is accepted reads back to itself.
            prop_assert_eq!(Ataxx::from_text(&game.to_text()).unwrap(), game);
        }
        let text = format!("{} {side}", ranks.join("/"));
        if let Ok(game) = VirusWide::from_text(&text) {
            prop_assert_eq!(VirusWide::from_text(&game.to_text()).unwrap(), game);
        }
        let _ = Virus::from_text(&text);
    }

    #[test]
    fn near_miss_moves_are_legal_when_accepted(text in "[a-j0-9]{0,5}") {
        let ataxx = Ataxx::from_text("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1").unwrap();
        let virus = Virus::new(6).unwrap();
        let mut list = MoveList::new();
        if let Ok(mv) = ataxx.parse_move(&text) {
            ataxx.legal_moves(&mut list);
            prop_assert!(list.contains(&mv), "{} accepted but not legal", text);
        }
        if let Ok(mv) = virus.parse_move(&text) {
            virus.legal_moves(&mut list);
            prop_assert!(list.contains(&mv), "{} accepted but not legal", text);
        }
    }
}
