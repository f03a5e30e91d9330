//! Bad positions, moves and files: each a clear error, never a panic, and the
//! position untouched.

use plateau_core::{Game, MoveErrorKind, PositionErrorKind};
use plateau_escampe::Escampe;
use proptest::prelude::*;

fn position_error(text: &str) -> String {
    match Escampe::from_text(text) {
        Ok(game) => panic!("{text:?} was accepted as {}", game.to_text()),
        Err(err) => err.to_string(),
    }
}

#[test]
fn malformed_position_texts_are_refused_with_reasons() {
    let cases = [
        ("n1N1n1/1n1n1n/6/6/1Bb1bb/bb4", "3 fields"),
        ("n1N1n1/1n1n1n/6/6/1Bb1bb/bb4 w - extra", "3 fields"),
        ("n1N1n1/1n1n1n/6/1Bb1bb/bb4 w -", "6 rows"),
        ("n1N1n1/1n1n1n/7/6/1Bb1bb/bb4 w -", "1-6"),
        ("n1N1n1/1n1n1n/6/6/1Bb1bb/bb5 w -", "more than 6"),
        ("n1N1n1/1n1n1n/5/6/1Bb1bb/bb4 w -", "5 squares"),
        ("n1N1n1/1n1n1n/6/6/1Bb1bbb/bb4 w -", "more than 6"),
        ("n1N1n1/1n1n1n/n5/6/1Bb1bb/bb4 w -", "6 paladins"),
        ("n1N1N1/1n1n1n/6/6/1Bb1bb/bb4 w -", "2 unicorns"),
        ("n1N1n1/1n1n1n/6/6/1Bb1bb/bb4 x -", "w or b"),
        ("n1N1n1/1n1n1n/6/6/1Bb1bb/bb4 w 4", "constraint"),
        ("n1N1n1/1n1n1n/6/6/1Bb1bb/bq4 w -", "not a piece"),
        ("n1N1n1/1n1n1n/6/6/1Bb1bb/b5 w -", "4 paladins"),
        ("n1n1n1/1n1n1n/6/6/1Bb1bb/bb4 w -", "6 paladins"),
        ("6/6/6/6/6/6 w -", "Black to place"),
        ("6/6/6/6/1Bb1bb/bb4 b -", "Black places first"),
        ("n1N1n1/1n1n1n/6/6/6/6 b -", "White to place"),
        ("n1N3/1n1n1n/6/n5/6/6 w -", "rows 1-2 or all on rows 5-6"),
        ("n3n1/1n1n1n/6/6/2b1bb/bb4 w -", "both unicorns"),
        ("n3n1/1n1n1n/6/6/1Bb1bb/bb4 w -", "must be Black's turn"),
        ("", "3 fields"),
    ];
    for (text, expected) in cases {
        let reason = position_error(text);
        assert!(
            reason.contains(expected),
            "{text:?}: {reason:?} lacks {expected:?}"
        );
    }
}

#[test]
fn malformed_moves_are_refused_and_leave_the_game_alone() {
    let start = Escampe::new();
    let placed = Escampe::from_text("n1N1n1/1n1n1n/6/6/1Bb1bb/bb4 w -").unwrap();
    let cases: [(&Escampe, &str, &str); 14] = [
        (&start, "", "empty move"),
        (&start, "B1-D1", "place its six pieces"),
        (&start, "c6/a6/b5/d5/e6/f5", "lower case"),
        (&start, "C6/A6/B5/D5/E6/F5/", "has 7"),
        (&start, "C6//B5/D5/E6/F5", "not a square"),
        (&start, "C6/A6/B5/D5/E1/F5", "off the edge"),
        (&placed, "C6/A6/B5/D5/E6/F5", "placements are over"),
        (&placed, "b1-d1", "lower case"),
        (&placed, "B1D1", "like B1-D1"),
        (&placed, "B1-D1-F1", "not a square"),
        (&placed, "B1-", "not a square"),
        (&placed, "Z9-A1", "column"),
        (&placed, "B2-B2", "must leave"),
        (&placed, &"A".repeat(500), "too long"),
    ];
    for (game, text, expected) in cases {
        let before = game.clone();
        let err = game.parse_move(text).expect_err(text);
        assert!(
            err.to_string().contains(expected),
            "{text:?}: {err} lacks {expected:?}"
        );
        assert_eq!(*game, before);
    }
}

#[test]
fn junk_files_are_refused_with_the_line_at_fault() {
    let good = Escampe::from_text("n1N1n1/1n1n1n/6/6/1Bb1bb/bb4 w -")
        .unwrap()
        .to_file();
    let cases = [
        (good.replace("01 bb---- 01", "01 bb--- 01"), "5 squares"),
        (good.replace("01 bb---- 01", "01 bb---- 02"), "line 2"),
        (good.replace("01 bb---- 01", "07 bb---- 07"), "not 1-6"),
        (
            good.replace("02 -Bb-bb 02", "01 -Bb-bb 01"),
            "appears twice",
        ),
        (good.replace("% side: w", "% side: q"), "w or b"),
        (
            good.replace("% constraint: -", "% constraint: 9"),
            "constraint",
        ),
        (good.replace("03 ------ 03\n", ""), "no line for row 3"),
        (
            good.replace("% ply: 0", "% ply: +3"),
            "the ply count is a number from 0 to 4294967295, not \"+3\"",
        ),
        (
            good.replace("% ply: 0", "% ply: -1"),
            "the ply count is a number",
        ),
        (
            good.replace("% ply: 0", "% ply: 99999999999"),
            "the ply count is a number",
        ),
        (
            good.replace("% ply: 0", "% ply: 1001"),
            "past the ply limit of 1000",
        ),
        (
            good.replace("% ply: 0", "% ply: 11\n% max plies: 10"),
            "past the ply limit of 10",
        ),
        (
            good.replace("% ply: 0", "% max plies: ten"),
            "the ply limit is a number",
        ),
        (good.replace("04 ------ 04", "04 --x--- 04"), "not a piece"),
        ("hello\n".to_string(), "line 1"),
        (String::new(), "no line for row 1"),
    ];
    for (file, expected) in cases {
        let reason = Escampe::from_file(&file).expect_err(&file).to_string();
        assert!(
            reason.contains(expected),
            "{reason:?} lacks {expected:?} for\n{file}"
        );
    }
}

#[test]
fn refusals_say_what_kind_they_are() {
    use MoveErrorKind::{GameOver, Illegal, Unreadable};
    let start = Escampe::new();
    let placed = Escampe::from_text("n1N1n1/1n1n1n/6/6/1Bb1bb/bb4 w -").unwrap();
    let over = Escampe::from_text("n3n1/1n1n1n/6/6/1Bb1bb/bb4 b -").unwrap();
    for (game, text, kind) in [
        (&start, "", Unreadable),
        (&start, "C6/A6/B5/D5/E6/F5/", Unreadable),
        (&start, "c6/a6/b5/d5/e6/f5", Unreadable),
        (&start, "C6/A6/B5/D5/E1/F5", Illegal),
        (&start, "C6/A6/B5/D5/E6/E6", Illegal),
        (&start, "B1-D1", Illegal),
        (&placed, "B1D1", Unreadable),
        (&placed, "Z9-A1", Unreadable),
        (&placed, "pass", Unreadable),
        (&placed, "B2-B2", Illegal),
        (&placed, "E", Illegal),
        (&over, "B1-D1", GameOver),
    ] {
        let err = game.parse_move(text).expect_err(text);
        assert_eq!(err.kind, kind, "{text:?}: {err}");
    }
    for (text, kind) in [
        ("n1N1n1/1n1n1n/6/6/1Bb1bb/bb4", PositionErrorKind::Malformed),
        (
            "n1N1n1/1n1n1n/6/6/1Bb1bb/bq4 w -",
            PositionErrorKind::Malformed,
        ),
        (
            "n1N1N1/1n1n1n/6/6/1Bb1bb/bb4 w -",
            PositionErrorKind::Illegal,
        ),
        ("6/6/6/6/1Bb1bb/bb4 b -", PositionErrorKind::Illegal),
    ] {
        let err = Escampe::from_text(text).expect_err(text);
        assert_eq!(err.kind, kind, "{text:?}: {err}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn random_strings_never_panic_the_parsers(text in ".{0,80}") {
        let _ = Escampe::from_text(&text);
        let _ = Escampe::from_file(&text);
        let _ = plateau_escampe::Square::parse(&text);
        for game in [
            Escampe::new(),
            Escampe::from_text("n1N1n1/1n1n1n/6/6/1Bb1bb/bb4 w -").unwrap(),
            Escampe::from_text("nnn1nN/3n2/6/6/b1b3/1Bbb1b w 1").unwrap(),
        ] {
            let before = game.clone();
            let _ = game.parse_move(&text);
            prop_assert_eq!(&game, &before);
        }
    }

    #[test]
    fn near_miss_positions_never_panic(
        rows in proptest::collection::vec("[nNbB1-7x]{0,8}", 0..8),
        side in "[wbx ]{0,2}",
        constraint in "[-0-4]{0,2}",
    ) {
        let text = format!("{} {side} {constraint}", rows.join("/"));
        if let Ok(game) = Escampe::from_text(&text) {
            // Whatever is accepted is a position the rules can continue from.
            prop_assert_eq!(Escampe::from_text(&game.to_text()).unwrap(), game);
        }
    }

    #[test]
    fn near_miss_moves_never_panic(text in "[A-Ga-g0-7/E-]{0,20}") {
        for game in [
            Escampe::new(),
            Escampe::from_text("n1N1n1/1n1n1n/6/6/1Bb1bb/bb4 w -").unwrap(),
        ] {
            if let Ok(mv) = game.parse_move(&text) {
                let mut list = plateau_core::MoveList::new();
                game.legal_moves(&mut list);
                prop_assert!(list.contains(&mv), "{} accepted but not legal", text);
            }
        }
    }
}
