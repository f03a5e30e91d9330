//! Draughts as the Hub and DamExchange protocols write it: a position is a
//! side letter and one letter per square 1-50; a move is its start, its end and
//! every square it captures, which names it unambiguously without the path.
//!
//! The two protocols differ only in their letters (Hub `b`/`B` for Black, DXP the
//! Dutch `z`/`Z`), so one set of functions serves both.

use plateau_core::{Game, MoveList, Side};
use plateau_draughts::{Draughts, Move, Square};

/// The letters a protocol uses for the side to move and the pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Letters {
    pub white: char,
    pub black: char,
    pub white_man: char,
    pub black_man: char,
    pub white_king: char,
    pub black_king: char,
    pub empty: char,
}

/// Hub: `W`/`B` to move, `w b W B e` on the squares.
pub const HUB: Letters = Letters {
    white: 'W',
    black: 'B',
    white_man: 'w',
    black_man: 'b',
    white_king: 'W',
    black_king: 'B',
    empty: 'e',
};

/// DamExchange: `W`/`Z` (zwart) to move, `w z W Z e` on the squares.
pub const DXP: Letters = Letters {
    white: 'W',
    black: 'Z',
    white_man: 'w',
    black_man: 'z',
    white_king: 'W',
    black_king: 'Z',
    empty: 'e',
};

impl Letters {
    pub fn side(&self, side: Side) -> char {
        match side {
            Side::White => self.white,
            Side::Black => self.black,
        }
    }

    pub fn parse_side(&self, letter: char) -> Option<Side> {
        if letter == self.white {
            Some(Side::White)
        } else if letter == self.black {
            Some(Side::Black)
        } else {
            None
        }
    }
}

/// The 50 square letters of a position, square 1 first.
pub fn squares_text(position: &Draughts, letters: &Letters) -> String {
    Square::all()
        .map(|square| match position.piece_at(square) {
            None => letters.empty,
            Some((Side::White, false)) => letters.white_man,
            Some((Side::Black, false)) => letters.black_man,
            Some((Side::White, true)) => letters.white_king,
            Some((Side::Black, true)) => letters.black_king,
        })
        .collect()
}

/// The position with `side` to move and the pieces of `squares` (50 letters).
/// Everything the rules refuse (a man on its crowning row, a side without
/// pieces to move against) is refused here too, with the rules' reason.
pub fn position_from_squares(
    side: Side,
    squares: &str,
    letters: &Letters,
) -> Result<Draughts, String> {
    let count = squares.chars().count();
    if count != 50 {
        return Err(format!("the board has {count} squares, not 50"));
    }
    let mut lists: [Vec<String>; 2] = [Vec::new(), Vec::new()];
    for (index, letter) in squares.chars().enumerate() {
        let number = index + 1;
        let (owner, king) = if letter == letters.empty {
            continue;
        } else if letter == letters.white_man {
            (Side::White, false)
        } else if letter == letters.black_man {
            (Side::Black, false)
        } else if letter == letters.white_king {
            (Side::White, true)
        } else if letter == letters.black_king {
            (Side::Black, true)
        } else {
            return Err(format!(
                "square {number}: {letter:?} is not one of {} {} {} {} {}",
                letters.white_man,
                letters.black_man,
                letters.white_king,
                letters.black_king,
                letters.empty
            ));
        };
        let prefix = if king { "K" } else { "" };
        lists[owner.index()].push(format!("{prefix}{number}"));
    }
    let side_letter = if side == Side::White { 'W' } else { 'B' };
    let fen = format!(
        "{side_letter}:W{}:B{}",
        lists[0].join(","),
        lists[1].join(",")
    );
    Draughts::from_text(&fen).map_err(|err| err.to_string())
}

/// The legal move from `from` to `to` taking exactly the pieces on `captured`
/// (in any order). A capture sent without its captured squares is accepted when
/// it is the only capture between those squares (some programs omit them).
pub fn move_from_fields(
    position: &Draughts,
    from: u8,
    to: u8,
    captured: &[u8],
) -> Result<Move, String> {
    let mut list = MoveList::new();
    position.legal_moves(&mut list);
    let mut wanted = 0u64;
    for &number in captured {
        let square = Square::from_number(number.into())
            .ok_or_else(|| format!("captured square {number} is not a square 1-50"))?;
        wanted |= square.bit();
    }
    let between = |mv: &&Move| mv.from().number() == from && mv.to().number() == to;
    if let Some(&mv) = list
        .iter()
        .filter(between)
        .find(|mv| mv.captured_mask() == wanted)
    {
        return Ok(mv);
    }
    let candidates: Vec<Move> = list.iter().filter(between).copied().collect();
    if captured.is_empty() && candidates.len() == 1 {
        return Ok(candidates[0]);
    }
    let written = describe_fields(from, to, captured);
    if list.is_empty() {
        return Err(format!("{written}: the game is over, no move is legal"));
    }
    let legal: Vec<String> = list.iter().take(6).map(|m| m.hub()).collect();
    let more = if list.len() > 6 { ", ..." } else { "" };
    Err(format!(
        "{written} is not legal here; legal moves: {}{more}",
        legal.join(" ")
    ))
}

/// `25x34 taking 30`, `32-28`: a move given by fields, for messages.
pub fn describe_fields(from: u8, to: u8, captured: &[u8]) -> String {
    if captured.is_empty() {
        format!("{from}-{to}")
    } else {
        let taken: Vec<String> = captured.iter().map(u8::to_string).collect();
        format!("{from}x{to} taking {}", taken.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_reads_and_writes() {
        let start = Draughts::new();
        let text = squares_text(&start, &HUB);
        assert_eq!(
            text,
            format!("{}{}{}", "b".repeat(20), "e".repeat(10), "w".repeat(20))
        );
        let again = position_from_squares(Side::White, &text, &HUB).unwrap();
        assert_eq!(again.to_text(), start.to_text());
        let dxp = squares_text(&start, &DXP);
        assert!(dxp.starts_with("zzzz") && dxp.ends_with("wwww"));
    }

    #[test]
    fn kings_and_side_round_trip() {
        let position = Draughts::from_text("B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29").unwrap();
        for letters in [HUB, DXP] {
            let text = squares_text(&position, &letters);
            let again = position_from_squares(Side::Black, &text, &letters).unwrap();
            assert_eq!(again.to_text(), position.to_text());
        }
    }

    #[test]
    fn bad_boards_say_what_is_wrong() {
        let err = position_from_squares(Side::White, "eee", &HUB).unwrap_err();
        assert!(err.contains("3 squares"), "{err}");
        let mut text = squares_text(&Draughts::new(), &HUB);
        text.replace_range(4..5, "x");
        let err = position_from_squares(Side::White, &text, &HUB).unwrap_err();
        assert!(err.contains("square 5"), "{err}");
        let err = position_from_squares(Side::White, &"w".repeat(50), &HUB).unwrap_err();
        assert!(!err.is_empty());
    }

    #[test]
    fn moves_are_found_by_their_fields() {
        let mut position = Draughts::new();
        for text in ["32-28", "19-23"] {
            let mv = position.check_move(text).unwrap();
            position.play(mv);
        }
        let take = move_from_fields(&position, 28, 19, &[23]).unwrap();
        assert_eq!(take.hub(), "28x19x23");
        // Without its captured square, the only capture 28x19 is still found.
        assert_eq!(move_from_fields(&position, 28, 19, &[]).unwrap(), take);
        let err = move_from_fields(&position, 32, 28, &[]).unwrap_err();
        assert!(
            err.contains("not legal") && err.contains("28x19x23"),
            "{err}"
        );
        let err = move_from_fields(&position, 28, 19, &[60]).unwrap_err();
        assert!(err.contains("60"), "{err}");
    }
}
