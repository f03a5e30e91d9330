//! Bad positions, moves and files: each a clear error, never a panic, and the
//! position untouched.

use plateau_core::{Game, MoveErrorKind, MoveList, PositionErrorKind, Side};
use plateau_draughts::{Draughts, Square, pdn};
use proptest::prelude::*;

fn position_error(text: &str) -> String {
    match Draughts::from_text(text) {
        Ok(game) => panic!("{text:?} was accepted as {}", game.to_text()),
        Err(err) => err.to_string(),
    }
}

#[test]
fn malformed_position_texts_are_refused_with_reasons() {
    let cases = [
        ("", "empty position text"),
        ("X:W31-50:B1-20", "side to move must be W or B"),
        (":W31-50:B1-20", "side to move is missing"),
        ("W:W31-50", "the :B piece list is missing"),
        ("W:B1-20", "the :W piece list is missing"),
        ("W:W31-50:B1-20:W5", "white piece list appears twice"),
        ("W:W31-51:B1-20", "51 is off the board"),
        ("W:W0:B1-20", "0 is off the board"),
        ("W:W31-50:B1-20,20", "square 20 is listed twice"),
        ("W:W20-10:B1", "runs backwards"),
        ("W:W31-50:B1-20,31", "square 31 holds both"),
        ("W:W1:B20", "a white man on 1 would have been crowned"),
        ("B:W46:B50", "a black man on 50 would have been crowned"),
        ("W:W1-21:B30", "white has 21 pieces"),
        ("W:Wx:B1", "is not a square"),
        ("W:WK:B1", "is not a square"),
        ("W:W31,,32:B1", "empty item"),
        ("W:W31,:B1", "empty item"),
        ("W:Q31:B1", "starts with W or B"),
        ("W::B1", "an empty list after ':'"),
        ("W:W31:B", "black has no pieces left"),
        ("B:W:B1", "white has no pieces left"),
        ("W:W:B", "the board is empty"),
        ("W:W3 1:B1", "is not a square"),
        ("w:W31:B1", "side to move must be W or B"),
    ];
    for (text, expected) in cases {
        let reason = position_error(text);
        assert!(
            reason.contains(expected),
            "{text:?}: {reason:?} lacks {expected:?}"
        );
    }
    let long = format!("W:W{}:B1", "31,".repeat(400));
    assert!(position_error(&long).contains("too long"));
}

#[test]
fn odd_but_valid_position_texts_are_read() {
    let canonical = Draughts::new().to_text();
    for text in [
        "W:W31-50:B1-20",
        "W:B1-20:W31-50",
        "W:W31-50:B1-20.",
        " W : W31-40,41-50 : B1-10,11-20 ",
        "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1-20",
    ] {
        let game = Draughts::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(game.to_text(), canonical, "{text}");
    }
    assert_eq!(
        Draughts::from_text("B:WK1-3:B4").unwrap().to_text(),
        "B:WK1,K2,K3:B4"
    );
    // The side without a piece to move has lost; that is a finished game.
    let over = Draughts::from_text("W:W:B1").unwrap();
    assert!(over.outcome().is_some());
}

#[test]
fn malformed_moves_are_refused_and_leave_the_game_alone() {
    let start = Draughts::new();
    let capture = Draughts::from_text("W:W32,38:B27").unwrap();
    let majority = Draughts::from_text("W:W33:BK28,29,19").unwrap();
    let king = Draughts::from_text("W:WK28,19:B1").unwrap();
    let over = Draughts::from_text("W:W46:B41,37").unwrap();
    let lone = Draughts::from_text("W:W28:B1").unwrap();
    let cases: [(&Draughts, &str, &str); 29] = [
        (&start, "", "empty move"),
        (&start, "   ", "empty move"),
        (&start, "abc", "expected a move like 32-28"),
        (&start, "32", "expected a move like 32-28"),
        (&start, "51-46", "51 is off the board"),
        (&start, "0-5", "0 is off the board"),
        (&start, "32-2a", "is not a square number"),
        (&start, "32--28", "a square number is missing"),
        (&start, "32-28x23", "either - (no capture) or x"),
        (&start, "32-28-23", "two squares"),
        (&start, "28-23", "there is no piece on 28"),
        (
            &start,
            "19-23",
            "19 holds a black piece; it is white's turn",
        ),
        (&start, "46-41", "41 is occupied"),
        (&start, "32x28", "takes nothing; write it with -"),
        (&start, "32-32", "must leave its square"),
        (&lone, "28-33", "forward only"),
        (&start, "32-23", "one square at a time"),
        (&start, "32-30", "not on a diagonal"),
        (&capture, "38-33", "capturing is compulsory here: 32x21"),
        (&capture, "38x27", "the piece on 38 has no legal capture"),
        (
            &capture,
            "32x23",
            "no legal capture of the piece on 32 ends on 23",
        ),
        (
            &capture,
            "32x21x26",
            "32x21 takes 27, not the squares listed",
        ),
        (&capture, "32x17x26", "no legal capture matches"),
        (
            &majority,
            "33x22",
            "the majority rule requires taking 2 pieces",
        ),
        (&majority, "33x24", "the capture cannot stop on 24"),
        (&majority, "33x13x29", "33x13 takes 19, 29"),
        (&king, "28-14", "blocked on 19"),
        (&over, "46-41", "the game is over"),
        (&start, &"3".repeat(300), "too long"),
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
fn hub_captures_must_list_each_captured_square_exactly_once() {
    // 33x13 takes 29 and 19: listed in either order it is the move, listed
    // with a square twice (and the other left out) it is not.
    let majority = Draughts::from_text("W:W33:BK28,29,19").unwrap();
    let legal = majority.parse_move("33x13").unwrap();
    for text in ["33x13x19x29", "33x13x29x19"] {
        assert_eq!(majority.parse_move(text).unwrap(), legal, "{text}");
    }
    for text in ["33x13x19x19", "33x13x29x29"] {
        let err = majority.parse_move(text).expect_err(text).to_string();
        assert!(
            err.contains("33x13 takes 19, 29, not the squares listed"),
            "{text}: {err}"
        );
    }
    // The same check when explaining a refusal: 23x41 taking 28 and 37 is
    // too small a capture, but "23x41x28x28" does not name it.
    let three = Draughts::from_text("W:W23:B17,27,28,37").unwrap();
    let err = three.parse_move("23x41x28x37").unwrap_err().to_string();
    assert!(err.contains("23x32x41 takes 2 pieces"), "{err}");
    let err = three.parse_move("23x41x28x28").unwrap_err().to_string();
    assert!(!err.contains("23x32x41"), "{err}");
    assert!(err.contains("no legal capture matches"), "{err}");
}

#[test]
fn junk_files_are_refused_with_the_line_at_fault() {
    let cases = [
        (
            "[FEN \"W:W31-50:B1-21\"]\n*",
            "line 1: the FEN tag: black has 21 pieces",
        ),
        ("1. 32-28 19-23\n2. 31-27 *", "line 2: move 2 (white)"),
        ("hello", "line 1"),
        ("[Event \"x\"]\n1. 32-28 {", "never closed"),
        ("W:W31-51:B1-20", "51 is off the board"),
    ];
    for (file, expected) in cases {
        let reason = Draughts::from_file(file).expect_err(file).to_string();
        assert!(
            reason.contains(expected),
            "{file:?}: {reason:?} lacks {expected:?}"
        );
    }
}

/// A few positions of every kind to try moves on.
fn positions() -> Vec<Draughts> {
    [
        "W:W31-50:B1-20",
        "W:W32,38:B27",
        "B:W18,30,33,34,44:BK47",
        "W:WK41,49:B9,10,12,19,38",
        "W:W46:B41,37",
    ]
    .iter()
    .map(|t| Draughts::from_text(t).unwrap())
    .collect()
}

#[test]
fn refusals_say_what_kind_they_are() {
    use MoveErrorKind::{GameOver, Illegal, Unreadable};
    let start = Draughts::new();
    let over = Draughts::from_text("W:W46:B41,37").unwrap();
    for (game, text, kind) in [
        (&start, "", Unreadable),
        (&start, "32", Unreadable),
        (&start, "51-46", Unreadable),
        (&start, "32-28x23", Unreadable),
        (&start, "32-28-23", Unreadable),
        (&start, "28-23", Illegal),
        (&start, "32-23", Illegal),
        (&start, "32x28", Illegal),
        (&over, "46-42", GameOver),
    ] {
        let err = game.parse_move(text).expect_err(text);
        assert_eq!(err.kind, kind, "{text:?}: {err}");
    }
    for (text, kind) in [
        ("X:W31-50:B1-20", PositionErrorKind::Malformed),
        ("W:W31-50:B1-20,20", PositionErrorKind::Malformed),
        ("W:W31-50:B1-20,31", PositionErrorKind::Illegal),
        ("W:W1-21:B30", PositionErrorKind::Illegal),
    ] {
        let err = Draughts::from_text(text).expect_err(text);
        assert_eq!(err.kind, kind, "{text:?}: {err}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn random_strings_never_panic_the_parsers(text in ".{0,80}") {
        let _ = Draughts::from_text(&text);
        let _ = Draughts::from_file(&text);
        let _ = Square::parse(&text);
        let _ = pdn::read_games(&text);
        for game in positions() {
            let before = game.clone();
            let _ = game.parse_move(&text);
            prop_assert_eq!(&game, &before);
        }
    }

    #[test]
    fn near_miss_positions_never_panic(
        side in "[WBK]{0,2}",
        white in proptest::collection::vec("K?[0-9]{1,2}(-[0-9]{1,2})?", 0..8),
        black in proptest::collection::vec("K?[0-9]{1,2}(-[0-9]{1,2})?", 0..8),
        order in any::<bool>(),
    ) {
        let (w, b) = (format!("W{}", white.join(",")), format!("B{}", black.join(",")));
        let text = if order { format!("{side}:{w}:{b}") } else { format!("{side}:{b}:{w}") };
        if let Ok(game) = Draughts::from_text(&text) {
            // Whatever is accepted reads back to itself.
            let again = Draughts::from_text(&game.to_text()).unwrap();
            prop_assert_eq!(again.to_text(), game.to_text());
            prop_assert_eq!(again.hash(), game.hash());
        }
    }

    #[test]
    fn near_miss_moves_are_legal_or_refused(text in "[0-9]{1,2}([-x][0-9]{1,2}){1,5}") {
        for game in positions() {
            if let Ok(mv) = game.parse_move(&text) {
                let mut list = MoveList::new();
                game.legal_moves(&mut list);
                prop_assert!(list.contains(&mv), "{} accepted but not legal", text);
            }
        }
    }

    #[test]
    fn near_miss_pdn_never_panics(
        tags in proptest::collection::vec("\\[[A-Za-z]{0,6} ?\"?[-:WBK0-9,]{0,12}\"?\\]?", 0..3),
        moves in proptest::collection::vec("[0-9]{0,2}\\.{0,3} ?[0-9]{1,2}[-x][0-9]{1,2}[!?]?|\\{[a-z ]{0,5}\\}?|\\(|\\)|2-0|\\*", 0..12),
    ) {
        let text = format!("{}\n{}", tags.join("\n"), moves.join(" "));
        if let Ok(game) = pdn::read_game(&text) {
            prop_assert_eq!(pdn::read_game(&game.write()).unwrap(), game);
        }
    }
}

#[test]
fn dense_boards_are_checked_and_a_refusal_changes_nothing() {
    let mut position = Draughts::from_text("B:W28,K46:BK3,19").unwrap();
    let before = position.clone();
    let sq = |n: u32| 1u64 << (n - 1);
    for (pieces, kings, why) in [
        ([1u64 << 50, 0], 0, "beyond square 50"),
        ([sq(28), sq(28)], 0, "each side"),
        ([sq(28), sq(19)], sq(30), "king on an empty"),
        ([sq(3), sq(19)], 0, "crowning row"),
        ([sq(28), sq(47)], 0, "crowning row"),
    ] {
        let error = position.set_dense(pieces, kings, Side::White).unwrap_err();
        assert!(error.reason.contains(why), "{why}: {error}");
        assert_eq!(position, before);
    }
    // A good board replaces the position whole, history and counts included,
    // and reads back.
    let (pieces, kings) = before.dense();
    let mut other = Draughts::new();
    other.play(other.check_move("32-28").unwrap());
    other.set_dense(pieces, kings, Side::Black).unwrap();
    assert_eq!(other.to_text(), before.to_text());
    assert_eq!(other.plies_played(), 0);
    assert_eq!(other.hash(), before.hash());
}
