//! Bad positions and moves: each a clear error, never a panic, and the position
//! untouched.

use plateau_abalone::{Abalone, Cell};
use plateau_core::{Game, MoveErrorKind, MoveList, PositionErrorKind};
use proptest::prelude::*;

const STANDARD: &str = "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b b0 w0";

fn position_error(text: &str) -> String {
    match Abalone::from_text(text) {
        Ok(game) => panic!("{text:?} was accepted as {}", game.to_text()),
        Err(err) => err.to_string(),
    }
}

#[test]
fn malformed_position_texts_are_refused_with_reasons() {
    let cases = [
        ("", "4 fields"),
        ("wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b", "4 fields"),
        (
            "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b b0 w0 x",
            "4 fields",
        ),
        ("wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb b b0 w0", "9 rows"),
        (
            "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb/5 b b0 w0",
            "9 rows",
        ),
        (
            "wwwww/wwwwww/2www2/8/8/8/2bbb2/bbbbbb/bbbbb b b0 w0",
            "row E has 9 cells, \"8\" describes 8",
        ),
        (
            "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbbb b b0 w0",
            "row A has 5 cells",
        ),
        (
            "wwwww/wwwwww/2www3/8/9/8/2bbb2/bbbbbb/bbbbb b b0 w0",
            "row G has 7 cells",
        ),
        (
            "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbx b b0 w0",
            "'x' is not a marble",
        ),
        (
            "wwwww/wwwwww/2www2/8/45/8/2bbb2/bbbbbb/bbbbb b b0 w0",
            "two digits in a row",
        ),
        (
            "wwwww/wwwwww/2www2/8/09/8/2bbb2/bbbbbb/bbbbb b b0 w0",
            "not 0",
        ),
        (
            "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb x b0 w0",
            "b or w",
        ),
        (
            "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b 0 0",
            "b<k> w<k>",
        ),
        (
            "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b b0 b0",
            "given twice",
        ),
        (
            "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b b7 w0",
            "the game ends at 6",
        ),
        (
            "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b bx w0",
            "b<k> w<k>",
        ),
        (
            "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b b1 w0",
            "black has 14 marbles on the board and 1 ejected",
        ),
        (
            "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbb1 b b0 w0",
            "black has 13 marbles on the board and 0 ejected",
        ),
        (
            "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbw b b0 w0",
            "white has 15",
        ),
        (
            "5/2www1/1bbwww1/1bbwbw2/1bbb5/8/7/6/5 b b6 w6",
            "both sides",
        ),
        (
            "4w/2www1/1bbwww1/1bbwbw2/1bbb5/8/7/6/5 w b6 w5",
            "must be black's turn",
        ),
    ];
    for (text, expected) in cases {
        let reason = position_error(text);
        assert!(
            reason.contains(expected),
            "{text:?}: {reason:?} lacks {expected:?}"
        );
    }
    assert!(position_error(&"w".repeat(1000)).contains("too long"));
}

#[test]
fn spaces_around_the_fields_are_fine() {
    let text = "4w/2www1/1bbwww1/1bbwbw2/1bbbb4/8/7/6/5 b b5 w5";
    for padded in [
        format!("{text} "),
        format!("  {text}"),
        text.replace(' ', "  "),
    ] {
        let game = Abalone::from_text(&padded).unwrap_or_else(|e| panic!("{padded:?}: {e}"));
        assert_eq!(game.to_text(), text);
    }
}

#[test]
fn malformed_save_files_are_refused_with_reasons() {
    let cases = [
        ("ply: 3\n".to_string(), "no start: line"),
        (
            format!("start: {STANDARD}\nstart: {STANDARD}\n"),
            "given twice",
        ),
        (
            format!("start: {STANDARD}\nclock: 3\n"),
            "unknown field \"clock\"",
        ),
        (
            format!("start: {STANDARD}\nply 3\n"),
            "line 2: expected \"name: value\"",
        ),
        (
            "start: wwwww/wwwwww b b0 w0\n".to_string(),
            "the start position: ",
        ),
        (
            format!("start: {STANDARD}\nply: 401\n"),
            "ply is a number from 0 to 400",
        ),
        (format!("start: {STANDARD}\nply: +3\n"), "not \"+3\""),
        (
            format!("start: {STANDARD}\nply: 3\nply: 4\n"),
            "ply is given twice",
        ),
        (
            format!("start: {STANDARD}\nmax plies: -1\n"),
            "max plies is a number",
        ),
        (
            format!("start: {STANDARD}\nply: 2\nmax plies: 9\nply: 2\n"),
            "ply is given twice",
        ),
        (
            format!("start: {STANDARD}\nmax plies: 6\nply: 7\n"),
            "ply is a number from 0 to 6",
        ),
        (
            format!("start: {STANDARD}\nmoves: a1b2 a1b2\n"),
            "the moves: ply 2: a1b2",
        ),
        (
            format!("start: {STANDARD}\nply: 4\nmax plies: 6\nmoves: c3d3 g5f5 c4d4\n"),
            "ply 3: c4d4: the game is already over (draw (ply limit))",
        ),
    ];
    for (text, expected) in cases {
        match Abalone::from_file(&text) {
            Ok(game) => panic!("{text:?} was accepted as {}", game.to_text()),
            Err(err) => assert!(
                err.to_string().contains(expected),
                "{text:?}: {err} lacks {expected:?}"
            ),
        }
    }
}

#[test]
fn malformed_moves_are_refused_and_leave_the_game_alone() {
    let start = Abalone::from_text(STANDARD).unwrap();
    let cases = [
        ("", "empty move"),
        ("a1", "names 2 cells"),
        ("a1b2c3d4", "names 2 cells"),
        ("a1-b2", "like a1b2"),
        ("a1b", "like a1b2"),
        ("z1b2", "rows are a to i"),
        ("a0b2", "diagonals are 1 to 9"),
        ("a6b6", "a6 is off the board"),
        ("a1a1", "neighbouring cell"),
        ("a1c3", "c3 is not next to a1"),
        ("d4e4", "no marble on d4"),
        ("i5h5", "white marble; it is black's turn"),
        ("b1b2", "6 marbles in a line"),
        ("b6a5", "a5 would leave the board"),
        ("b4b6c3", "c3 is not next to b4"),
        ("c3e4d3", "c3 and e4 are not in a line"),
        ("a1a5b1", "at most 3"),
        ("a1a2b1", "b1 is occupied"),
        ("é1b2", "like a1b2"),
        ("a1b2\u{0}", "like a1b2"),
    ];
    for (text, expected) in cases {
        let before = start.clone();
        let err = start.parse_move(text).expect_err(text);
        assert!(
            err.to_string().contains(expected),
            "{text:?}: {err} lacks {expected:?}"
        );
        assert_eq!(start, before);
    }
    assert!(
        start
            .parse_move(&"a1".repeat(100))
            .unwrap_err()
            .to_string()
            .contains("too long")
    );
}

#[test]
fn refusals_say_what_kind_they_are() {
    use MoveErrorKind::{Illegal, Unreadable};
    let start = Abalone::from_text(STANDARD).unwrap();
    for (text, kind) in [
        ("", Unreadable),
        ("a1", Unreadable),
        ("z1b2", Unreadable),
        ("a1-b2", Unreadable),
        ("a1c3", Illegal),
        ("d4e4", Illegal),
        ("a1a2b1", Illegal),
    ] {
        let err = start.parse_move(text).expect_err(text);
        assert_eq!(err.kind, kind, "{text:?}: {err}");
    }
    let err = Abalone::from_text("wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb x b0 w0")
        .expect_err("bad side");
    assert_eq!(err.kind, PositionErrorKind::Malformed, "{err}");
    let err = Abalone::from_text("wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b b1 w0")
        .expect_err("a marble too many");
    assert_eq!(err.kind, PositionErrorKind::Illegal, "{err}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn random_strings_never_panic_the_parsers(text in ".{0,80}") {
        let _ = Abalone::from_text(&text);
        let _ = Abalone::from_file(&text);
        let _ = Cell::parse(&text);
        for game in [
            Abalone::new(),
            Abalone::from_text("4w/2www1/1bbwww1/1bbwbw2/1bbbb4/8/7/6/5 b b5 w5").unwrap(),
        ] {
            let before = game.clone();
            let _ = game.parse_move(&text);
            prop_assert_eq!(&game, &before);
        }
    }

    #[test]
    fn near_miss_save_files_never_panic(
        ply in "[+-]?[0-9]{0,4}",
        max in "[0-9]{0,4}",
        moves in proptest::collection::vec("[a-i][1-9][a-i][1-9]", 0..12),
    ) {
        let text = format!(
            "start: {STANDARD}\nply: {ply}\nmax plies: {max}\nmoves: {}\n",
            moves.join(" ")
        );
        if let Ok(game) = Abalone::from_file(&text) {
            // Whatever is accepted reads back the same from its own save file.
            let again = Abalone::from_file(&game.to_file()).unwrap();
            prop_assert_eq!(again.to_text(), game.to_text());
            prop_assert_eq!(again.ply(), game.ply());
            prop_assert_eq!(again.repetitions(), game.repetitions());
        }
    }

    #[test]
    fn near_miss_positions_never_panic(
        rows in proptest::collection::vec("[bw1-9x]{0,10}", 0..11),
        side in "[wbx ]{0,2}",
        black in "[bw]?[0-7]{0,2}",
        white in "[bw]?[0-7]{0,2}",
    ) {
        let text = format!("{} {side} {black} {white}", rows.join("/"));
        if let Ok(game) = Abalone::from_text(&text) {
            // Whatever is accepted is a position the rules can continue from.
            prop_assert_eq!(Abalone::from_text(&game.to_text()).unwrap(), game);
        }
    }

    #[test]
    fn near_miss_moves_are_legal_when_accepted(text in "[a-jA-J0-9]{0,8}") {
        for game in [
            Abalone::new(),
            Abalone::from_text("4w/2www1/1bbwww1/1bbwbw2/1bbbb4/8/7/6/5 b b5 w5").unwrap(),
        ] {
            if let Ok(mv) = game.parse_move(&text) {
                let mut list = MoveList::new();
                game.legal_moves(&mut list);
                prop_assert!(list.contains(&mv), "{} accepted but not legal", text);
            }
        }
    }
}
