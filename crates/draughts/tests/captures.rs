//! Every position of `tests/data/draughts-captures.txt` produces exactly the
//! listed legal moves; where the captured pieces are given, they are checked too.

use plateau_core::{Game, MoveList};
use plateau_draughts::{Draughts, Move, Square};
use std::collections::BTreeSet;

struct Case {
    line: usize,
    fen: String,
    moves: BTreeSet<String>,
    /// The captured squares the file gives (for its single move), if any.
    captured: Option<String>,
}

fn cases() -> Vec<Case> {
    let text = include_str!("data/draughts-captures.txt");
    let mut cases = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (fen, rest) = line
            .split_once(char::is_whitespace)
            .expect("FEN then moves");
        let (moves, captured) = match rest.split_once('[') {
            Some((moves, bracket)) => (
                moves,
                Some(bracket.trim_end().trim_end_matches(']').to_string()),
            ),
            None => (rest, None),
        };
        cases.push(Case {
            line: index + 1,
            fen: fen.to_string(),
            moves: moves.split('|').map(|m| m.trim().to_string()).collect(),
            captured,
        });
    }
    cases
}

/// The squares a bracket names: the numbers before any `;`, or every enemy
/// piece for "all ...".
fn expected_captures(bracket: &str, game: &Draughts) -> BTreeSet<Square> {
    let listed = bracket.split(';').next().unwrap_or("").trim();
    if listed.starts_with("all") {
        let enemy = game.pieces(!game.side_to_move());
        return Square::all().filter(|s| enemy & s.bit() != 0).collect();
    }
    listed
        .split(',')
        .map(|n| Square::parse(n.trim()).unwrap_or_else(|e| panic!("{bracket}: {e}")))
        .collect()
}

#[test]
fn every_listed_position_has_exactly_the_listed_moves() {
    let cases = cases();
    assert!(cases.len() >= 9, "the data file has all its positions");
    let mut checked_captures = 0;
    for case in cases {
        let game = Draughts::from_text(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.fen));
        let mut list = MoveList::new();
        game.legal_moves(&mut list);
        let found: BTreeSet<String> = list.iter().map(Move::to_string).collect();
        assert_eq!(
            found,
            case.moves,
            "line {}: moves of {} (all: {:?})",
            case.line,
            case.fen,
            &list[..]
        );
        assert_eq!(
            found.len(),
            list.len(),
            "line {}: one move per start and end here",
            case.line
        );
        if let Some(bracket) = &case.captured {
            assert_eq!(
                list.len(),
                1,
                "line {}: a bracket goes with one move",
                case.line
            );
            let taken: BTreeSet<Square> = list[0].captured().collect();
            assert_eq!(
                taken,
                expected_captures(bracket, &game),
                "line {}: captured pieces of {}",
                case.line,
                list[0].hub()
            );
            checked_captures += 1;
        }
        // Each listed move also reads back from its notation.
        for &mv in list.iter() {
            assert_eq!(game.parse_move(&game.format_move(mv)), Ok(mv));
            assert_eq!(game.parse_move(&mv.hub()), Ok(mv), "the Hub form reads too");
        }
    }
    assert_eq!(checked_captures, 2);
}
