//! The position text: PDN 3.0 FEN, `W:W31-50:B1-20`.
//!
//! Read: the side to move (`W` or `B`), then a `:W` and a `:B` list in either
//! order, each a comma-separated list of squares, `K` before a king, ranges
//! `a-b` allowed (`K1-3` makes three kings); an optional final `.` is ignored.
//! Written: White's list then Black's, every square in increasing order, no
//! ranges: `W:W31,32,...,50:B1,...,20`.

use crate::square::{PROMOTION, squares};
use crate::{Draughts, Square};
use plateau_core::{Game, PositionError, Side};

/// Longest position text worth reading.
const MAX_TEXT_LEN: usize = 1024;

/// Most pieces a side can have.
const MAX_PIECES: u32 = 20;

fn err<T>(reason: impl Into<String>) -> Result<T, PositionError> {
    Err(PositionError::new(reason))
}

/// A readable position the rules could never reach.
fn illegal<T>(reason: impl Into<String>) -> Result<T, PositionError> {
    Err(PositionError::illegal(reason))
}

fn shorten(text: &str) -> String {
    if text.chars().count() > 24 {
        format!("{}...", text.chars().take(24).collect::<String>())
    } else {
        text.to_string()
    }
}

/// `W:W31,...:B1,...`: the canonical text, which reads back to the same position.
pub(crate) fn format_position(position: &Draughts) -> String {
    let mut text = String::with_capacity(140);
    text.push(side_letter(position.side_to_move()));
    for side in Side::ALL {
        text.push(':');
        text.push(side_letter(side));
        let kings = position.kings(side);
        let mut first = true;
        for sq in squares(position.pieces(side)) {
            if !first {
                text.push(',');
            }
            first = false;
            if kings & sq.bit() != 0 {
                text.push('K');
            }
            text.push_str(&sq.to_string());
        }
    }
    text
}

fn side_letter(side: Side) -> char {
    match side {
        Side::White => 'W',
        Side::Black => 'B',
    }
}

fn parse_side(text: &str, what: &str) -> Result<Side, PositionError> {
    match text {
        "W" => Ok(Side::White),
        "B" => Ok(Side::Black),
        "" => err(format!("{what} is missing (W or B)")),
        other => err(format!("{what} must be W or B, not {:?}", shorten(other))),
    }
}

/// The pieces of one list: (all pieces, kings).
fn parse_list(side: Side, items: &str) -> Result<(u64, u64), PositionError> {
    let mut pieces = 0u64;
    let mut kings = 0u64;
    if items.trim().is_empty() {
        return Ok((0, 0));
    }
    for raw in items.split(',') {
        let item = raw.trim();
        if item.is_empty() {
            return err(format!(
                "the {side} list has an empty item (two commas in a row, or a comma at an end)"
            ));
        }
        let (king, body) = match item.strip_prefix('K') {
            Some(rest) => (true, rest),
            None => (false, item),
        };
        let (first, last) = match body.split_once('-') {
            Some((a, b)) => (parse_square(a, item)?, parse_square(b, item)?),
            None => {
                let sq = parse_square(body, item)?;
                (sq, sq)
            }
        };
        if last < first {
            return err(format!("the range {item} runs backwards"));
        }
        for index in first.index()..=last.index() {
            let sq = Square::from_index(index as u8);
            if pieces & sq.bit() != 0 {
                return err(format!("square {sq} is listed twice for {side}"));
            }
            pieces |= sq.bit();
            if king {
                kings |= sq.bit();
            }
        }
    }
    Ok((pieces, kings))
}

fn parse_square(text: &str, item: &str) -> Result<Square, PositionError> {
    let text = text.trim();
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return err(format!(
            "{:?} is not a square: write a number 1-50, K before a king, a-b for a range",
            shorten(item)
        ));
    }
    Square::parse(text).map_err(PositionError::new)
}

pub(crate) fn parse_position(text: &str) -> Result<Draughts, PositionError> {
    if text.len() > MAX_TEXT_LEN {
        return err(format!("position text too long ({} bytes)", text.len()));
    }
    let body = text.trim();
    let body = body.strip_suffix('.').unwrap_or(body).trim_end();
    if body.is_empty() {
        return err("empty position text; the start is W:W31-50:B1-20");
    }
    let mut fields = body.split(':');
    let side = parse_side(fields.next().unwrap_or("").trim(), "the side to move")?;
    let mut lists: [Option<(u64, u64)>; 2] = [None, None];
    for field in fields {
        let field = field.trim_start();
        let Some(letter) = field.chars().next() else {
            return err("an empty list after ':'; lists start with W or B");
        };
        let list_side = match letter {
            'W' => Side::White,
            'B' => Side::Black,
            other => {
                return err(format!(
                    "a piece list starts with W or B, not {other:?}, like W:W31-50:B1-20"
                ));
            }
        };
        if lists[list_side.index()].is_some() {
            return err(format!("the {list_side} piece list appears twice"));
        }
        lists[list_side.index()] = Some(parse_list(list_side, &field[1..])?);
    }
    let [Some((white, white_kings)), Some((black, black_kings))] = lists else {
        let missing = if lists[0].is_none() { 'W' } else { 'B' };
        return err(format!(
            "the :{missing} piece list is missing (a position text reads like W:W31-50:B1-20)"
        ));
    };
    if white & black != 0 {
        let both = squares(white & black).next().map_or(0, |s| s.number());
        return illegal(format!(
            "square {both} holds both a white and a black piece"
        ));
    }
    let pieces = [white, black];
    let kings = white_kings | black_kings;
    for s in Side::ALL {
        let count = pieces[s.index()].count_ones();
        if count > MAX_PIECES {
            return illegal(format!(
                "{s} has {count} pieces; a side starts with 20 and never gains any"
            ));
        }
        let crowned_row = pieces[s.index()] & !kings & PROMOTION[s.index()];
        if let Some(sq) = squares(crowned_row).next() {
            let rows = if s == Side::White { "1-5" } else { "46-50" };
            return illegal(format!(
                "a {s} man on {sq} would have been crowned: {s} men never stand on {rows}"
            ));
        }
    }
    if white == 0 && black == 0 {
        return illegal("the board is empty");
    }
    if pieces[(!side).index()] == 0 {
        return illegal(format!(
            "{} has no pieces left, so the game ended when it was {}'s turn; it cannot be {side}'s turn",
            !side, !side
        ));
    }
    Ok(Draughts::from_parts(pieces, kings, side))
}
