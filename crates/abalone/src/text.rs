//! The one-line position text:
//! `wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b b0 w0`.
//!
//! Rows I to A separated by `/`, each row's cells from its lowest diagonal up
//! (`b` black, `w` white, a digit for a run of empty cells), then the side to
//! move, then how many marbles Black and White have lost.

use crate::board::{Cell, row_span};
use crate::position::{LOSING_COUNT, MARBLES};
use crate::{Abalone, AtTheLimit, DEFAULT_MAX_PLIES, Move};
use plateau_core::save::{read_count, read_save_file, write_save_file};
use plateau_core::{Game, PositionError, Side};

/// Longest position text worth reading.
const MAX_TEXT_LEN: usize = 256;

fn err<T>(reason: impl Into<String>) -> Result<T, PositionError> {
    Err(PositionError::new(reason))
}

/// A readable position the rules could never reach.
fn illegal<T>(reason: impl Into<String>) -> Result<T, PositionError> {
    Err(PositionError::illegal(reason))
}

fn row_name(row: i32) -> char {
    (b'A' + row as u8) as char
}

pub(crate) fn format_position(position: &Abalone) -> String {
    let mut text = String::with_capacity(64);
    for row in (0..9).rev() {
        let (low, high) = row_span(row);
        let mut run = 0u8;
        for diagonal in low..=high {
            let Some(cell) = Cell::at(row, diagonal) else {
                continue;
            };
            match position.at(cell) {
                Some(side) => {
                    if run > 0 {
                        text.push(char::from(b'0' + run));
                        run = 0;
                    }
                    text.push(if side == Side::Black { 'b' } else { 'w' });
                }
                None => run += 1,
            }
        }
        if run > 0 {
            text.push(char::from(b'0' + run));
        }
        if row > 0 {
            text.push('/');
        }
    }
    let side = if position.side_to_move() == Side::Black {
        'b'
    } else {
        'w'
    };
    text.push_str(&format!(
        " {side} b{} w{}",
        position.lost(Side::Black),
        position.lost(Side::White)
    ));
    text
}

pub(crate) fn parse_position(text: &str) -> Result<Abalone, PositionError> {
    if text.len() > MAX_TEXT_LEN {
        return err(format!("position text too long ({} bytes)", text.len()));
    }
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() != 4 {
        return err(format!(
            "a position has 4 fields (board, side to move, black's and white's ejected \
             marbles), like \"wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b b0 w0\"; \
             this one has {}",
            fields.len()
        ));
    }
    let rows: Vec<&str> = fields[0].split('/').collect();
    if rows.len() != 9 {
        return err(format!(
            "the board has 9 rows (I to A) separated by '/', this one has {}",
            rows.len()
        ));
    }
    let mut marbles = [0u128; 2];
    for (i, row_text) in rows.iter().enumerate() {
        let row = 8 - i as i32;
        let name = row_name(row);
        let (low, high) = row_span(row);
        let size = high - low + 1;
        let mut filled = 0;
        let mut after_digit = false;
        for ch in row_text.chars() {
            if let Some(run) = ch.to_digit(10) {
                if after_digit {
                    return err(format!(
                        "row {name}: two digits in a row in {row_text:?}; write one run"
                    ));
                }
                if run == 0 {
                    return err(format!("row {name}: empty runs are 1-9, not 0"));
                }
                after_digit = true;
                filled += run as i32;
            } else {
                after_digit = false;
                let side = match ch {
                    'b' => Side::Black,
                    'w' => Side::White,
                    other => {
                        return err(format!(
                            "row {name}: {other:?} is not a marble (b black, w white, \
                             a digit for empty cells)"
                        ));
                    }
                };
                if filled < size
                    && let Some(cell) = Cell::at(row, low + filled)
                {
                    marbles[side.index()] |= cell.bit();
                }
                filled += 1;
            }
            if filled > size {
                return err(format!(
                    "row {name} has {size} cells, {row_text:?} describes more"
                ));
            }
        }
        if filled != size {
            return err(format!(
                "row {name} has {size} cells, {row_text:?} describes {filled}"
            ));
        }
    }
    let side = match fields[1] {
        "b" => Side::Black,
        "w" => Side::White,
        other => {
            return err(format!(
                "the side to move is b or w, not {:?}",
                shorten(other)
            ));
        }
    };
    let mut lost: [Option<u32>; 2] = [None, None];
    for field in &fields[2..] {
        let (owner, count) = parse_lost(field)?;
        if lost[owner.index()].replace(count).is_some() {
            return err(format!("{owner}'s ejected marbles are given twice"));
        }
    }
    check_setup(marbles, side, [lost[0].unwrap_or(0), lost[1].unwrap_or(0)])
}

/// The save file: `start:` the position after the last ejection, `ply:` the
/// plies played before it, `max plies:` the limit when it is not the default,
/// `at the limit: marbles` when more marbles pushed off win there, `moves:`
/// the moves since.
pub(crate) fn format_file(position: &Abalone) -> String {
    let (start, moves) = position.since_last_ejection();
    let mut fields = vec![(
        "ply",
        position
            .ply()
            .saturating_sub(moves.len() as u32)
            .to_string(),
    )];
    if position.max_plies() != DEFAULT_MAX_PLIES {
        fields.push(("max plies", position.max_plies().to_string()));
    }
    if position.at_the_limit() == AtTheLimit::MoreMarblesWin {
        fields.push(("at the limit", MARBLES_WIN.to_string()));
    }
    let moves: Vec<String> = moves.iter().map(|mv| mv.to_string()).collect();
    write_save_file(&start.to_text(), &fields, &moves)
}

/// Reads what [`format_file`] writes, or a bare position text: the start
/// position (with the file's counters and rule) and the moves from it, each
/// checked.
pub(crate) fn parse_file_with_moves(text: &str) -> Result<(Abalone, Vec<Move>), PositionError> {
    let Some(file) = read_save_file(text, &["ply", "max plies", "at the limit"])? else {
        return Ok((parse_position(text.trim())?, Vec::new()));
    };
    let max_plies =
        read_count(&file, "max plies", u32::MAX.into())?.map_or(DEFAULT_MAX_PLIES, |n| n as u32);
    // A game stops at the limit, so no count goes past it.
    let ply = read_count(&file, "ply", max_plies.into())?.unwrap_or(0) as u32;
    let at_the_limit = match file.field("at the limit") {
        None | Some("draw") => AtTheLimit::Draw,
        Some(MARBLES_WIN) => AtTheLimit::MoreMarblesWin,
        Some(other) => {
            return err(format!(
                "at the limit: {:?} is not a rule (draw or {MARBLES_WIN})",
                shorten(other)
            ));
        }
    };
    let start = parse_position(file.start)
        .map_err(|e| e.context("the start position"))?
        .with_max_plies(max_plies)
        .with_at_the_limit(at_the_limit)
        .with_ply(ply);
    let moves = file.moves_from(&start)?;
    Ok((start, moves))
}

/// The save file's word for [`AtTheLimit::MoreMarblesWin`].
const MARBLES_WIN: &str = "marbles";

fn shorten(text: &str) -> String {
    text.chars().take(16).collect()
}

/// `b3` -> (Black, 3).
fn parse_lost(field: &str) -> Result<(Side, u32), PositionError> {
    let expected = || {
        err(format!(
            "expected the ejected counts as b<k> w<k> (like b0 w2), not {:?}",
            shorten(field)
        ))
    };
    let mut chars = field.chars();
    let owner = match chars.next() {
        Some('b') => Side::Black,
        Some('w') => Side::White,
        _ => return expected(),
    };
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return expected();
    }
    let Ok(count) = digits.parse::<u32>() else {
        return expected();
    };
    if count > LOSING_COUNT {
        return illegal(format!(
            "{owner} cannot have lost {count} marbles: the game ends at {LOSING_COUNT}"
        ));
    }
    Ok((owner, count))
}

/// Turns what a text says into a position, or says why the rules could never
/// continue from it.
fn check_setup(marbles: [u128; 2], side: Side, lost: [u32; 2]) -> Result<Abalone, PositionError> {
    for owner in Side::ALL {
        let on_board = marbles[owner.index()].count_ones();
        let gone = lost[owner.index()];
        if on_board + gone != MARBLES {
            return illegal(format!(
                "{owner} has {on_board} marbles on the board and {gone} ejected: \
                 each side has {MARBLES} in all"
            ));
        }
    }
    let [white_lost, black_lost] = lost;
    if white_lost >= LOSING_COUNT && black_lost >= LOSING_COUNT {
        return illegal("both sides have lost six marbles; the game ends at the first six");
    }
    for owner in Side::ALL {
        if lost[owner.index()] >= LOSING_COUNT && side != owner {
            return illegal(format!(
                "{owner} has lost six marbles, so {} ejected the last one and it must \
                 be {owner}'s turn",
                !owner
            ));
        }
    }
    Ok(Abalone::from_parts(marbles, side))
}
