//! The one-line position text and the course's board file.

use crate::position::{DEFAULT_MAX_PLIES, Phase};
use crate::square::{BOTTOM_EDGE, TOP_EDGE};
use crate::{Escampe, Square};
use plateau_core::{Game, PositionError, Side};

/// Longest position text or file worth reading.
const MAX_TEXT_LEN: usize = 4096;

/// What a text says before it is checked: pieces, side, constraint.
struct Setup {
    pieces: [u64; 2],
    unicorns: [u64; 2],
    side: Side,
    constraint: u8,
}

fn err<T>(reason: impl Into<String>) -> Result<T, PositionError> {
    Err(PositionError::new(reason))
}

/// A readable position the rules could never reach.
fn illegal<T>(reason: impl Into<String>) -> Result<T, PositionError> {
    Err(PositionError::illegal(reason))
}

fn piece_letter(position: &Escampe, square: Square) -> Option<char> {
    position
        .piece_at(square)
        .map(|(side, unicorn)| match (side, unicorn) {
            (Side::Black, true) => 'N',
            (Side::Black, false) => 'n',
            (Side::White, true) => 'B',
            (Side::White, false) => 'b',
        })
}

fn place_letter(setup: &mut Setup, letter: char, square: Square) -> Result<(), PositionError> {
    let (side, unicorn) = match letter {
        'N' => (Side::Black, true),
        'n' => (Side::Black, false),
        'B' => (Side::White, true),
        'b' => (Side::White, false),
        other => {
            return err(format!(
                "{square}: {other:?} is not a piece (N n black unicorn/paladin, B b white)"
            ));
        }
    };
    setup.pieces[side.index()] |= square.bit();
    if unicorn {
        setup.unicorns[side.index()] |= square.bit();
    }
    Ok(())
}

/// `<row6>/.../<row1> <side> <constraint>`, e.g. `n1B2b/2b3/b1nn2/5b/2b3/nnN3 w 2`.
pub(crate) fn format_position(position: &Escampe) -> String {
    let mut text = String::with_capacity(40);
    for row in (0..6).rev() {
        let mut empty = 0;
        for column in 0..6 {
            match piece_letter(position, Square::at(column, row)) {
                Some(letter) => {
                    if empty > 0 {
                        text.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    text.push(letter);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            text.push(char::from(b'0' + empty));
        }
        if row > 0 {
            text.push('/');
        }
    }
    text.push(' ');
    text.push(if position.side_to_move() == Side::White {
        'w'
    } else {
        'b'
    });
    text.push(' ');
    match position.constraint() {
        Some(k) => text.push(char::from(b'0' + k)),
        None => text.push('-'),
    }
    text
}

pub(crate) fn parse_position(text: &str) -> Result<Escampe, PositionError> {
    if text.len() > MAX_TEXT_LEN {
        return err(format!("position text too long ({} bytes)", text.len()));
    }
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() != 3 {
        return err(format!(
            "a position has 3 fields (board, side, constraint), like \
             \"n1B2b/2b3/b1nn2/5b/2b3/nnN3 w 2\"; this one has {}",
            fields.len()
        ));
    }
    let rows: Vec<&str> = fields[0].split('/').collect();
    if rows.len() != 6 {
        return err(format!(
            "the board has 6 rows separated by '/', this one has {}",
            rows.len()
        ));
    }
    let mut setup = Setup {
        pieces: [0, 0],
        unicorns: [0, 0],
        side: Side::White,
        constraint: 0,
    };
    for (i, row_text) in rows.iter().enumerate() {
        let row = 5 - i as u8;
        let mut column: u32 = 0;
        for ch in row_text.chars() {
            if let Some(run) = ch.to_digit(10) {
                if !(1..=6).contains(&run) {
                    return err(format!("row {}: empty runs are 1-6, not {run}", row + 1));
                }
                column += run;
            } else {
                if column < 6 {
                    place_letter(&mut setup, ch, Square::at(column as u8, row))?;
                }
                column += 1;
            }
            if column > 6 {
                return err(format!(
                    "row {} has more than 6 squares: {row_text:?}",
                    row + 1
                ));
            }
        }
        if column != 6 {
            return err(format!(
                "row {} has {column} squares instead of 6: {row_text:?}",
                row + 1
            ));
        }
    }
    setup.side = match fields[1] {
        "w" => Side::White,
        "b" => Side::Black,
        other => return err(format!("side to move must be w or b, not {other:?}")),
    };
    setup.constraint = parse_constraint(fields[2])?;
    check_setup(setup)
}

fn parse_constraint(text: &str) -> Result<u8, PositionError> {
    match text {
        "-" | "0" => Ok(0),
        "1" => Ok(1),
        "2" => Ok(2),
        "3" => Ok(3),
        other => err(format!(
            "the constraint is -, 1, 2 or 3 (the liseré to play from), not {other:?}"
        )),
    }
}

/// Turns what a text says into a position, or says why the rules could never
/// continue from it.
fn check_setup(setup: Setup) -> Result<Escampe, PositionError> {
    for side in Side::ALL {
        let s = side.index();
        let unicorns = setup.unicorns[s].count_ones();
        let paladins = (setup.pieces[s] ^ setup.unicorns[s]).count_ones();
        if unicorns > 1 {
            return illegal(format!("{side} has {unicorns} unicorns; each side has one"));
        }
        if paladins > 5 {
            return illegal(format!(
                "{side} has {paladins} paladins; each side has five"
            ));
        }
        if setup.pieces[s] != 0 && paladins != 5 {
            return illegal(format!(
                "{side} has {paladins} paladins: a side has either no piece yet (still to \
                 place) or five paladins, which can never be taken"
            ));
        }
    }
    let [white, black] = setup.pieces;
    let free = setup.constraint == 0;
    if black == 0 {
        if white != 0 {
            return illegal("White has placed before Black; Black places first");
        }
        if setup.side != Side::Black || !free {
            return illegal("on the empty board it is Black to place: \"6/6/6/6/6/6 b -\"");
        }
    } else if white == 0 {
        if black & BOTTOM_EDGE != black && black & TOP_EDGE != black {
            return illegal("Black's placed pieces must all be on rows 1-2 or all on rows 5-6");
        }
        if setup.unicorns[Side::Black.index()] == 0 {
            return illegal("Black has placed no unicorn");
        }
        if setup.side != Side::White || !free {
            return illegal(
                "after Black's placement it is White to place, with no constraint (w -)",
            );
        }
    } else {
        let [white_unicorn, black_unicorn] = setup.unicorns;
        match (white_unicorn, black_unicorn) {
            (0, 0) => {
                return illegal("both unicorns are missing; the game ends at the first capture");
            }
            (0, _) if setup.side != Side::White => {
                return illegal(
                    "White's unicorn is captured, so it must be White's turn (the capture was Black's last move)",
                );
            }
            (_, 0) if setup.side != Side::Black => {
                return illegal(
                    "Black's unicorn is captured, so it must be Black's turn (the capture was White's last move)",
                );
            }
            _ => {}
        }
    }
    Ok(Escampe::from_parts(
        setup.pieces,
        setup.unicorns,
        setup.side,
        setup.constraint,
    ))
}

/// The course's board file, row 1 first, with the side to move, the imposed
/// liseré, the plies played and the ply limit (when not the default) kept in
/// comment lines so that a saved game reloads exactly, ply limit included.
pub(crate) fn format_file(position: &Escampe) -> String {
    let mut file = String::from("% ABCDEF\n");
    for row in 0..6u8 {
        let cells: String = (0..6)
            .map(|column| piece_letter(position, Square::at(column, row)).unwrap_or('-'))
            .collect();
        file.push_str(&format!("{:02} {cells} {:02}\n", row + 1, row + 1));
    }
    file.push_str("% ABCDEF\n");
    let side = if position.side_to_move() == Side::White {
        'w'
    } else {
        'b'
    };
    file.push_str(&format!("% side: {side}\n"));
    match position.constraint() {
        Some(k) => file.push_str(&format!("% constraint: {k}\n")),
        None => file.push_str("% constraint: -\n"),
    }
    file.push_str(&format!("% ply: {}\n", position.ply()));
    if position.max_plies() != DEFAULT_MAX_PLIES {
        file.push_str(&format!("% max plies: {}\n", position.max_plies()));
    }
    file
}

/// A count in a comment line: ASCII digits only.
fn parse_count(value: &str, what: &str, line_no: usize) -> Result<u32, PositionError> {
    let value = value.trim();
    let number = (!value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()))
        .then(|| value.parse::<u32>().ok())
        .flatten();
    number.ok_or_else(|| {
        PositionError::new(format!(
            "line {line_no}: {what} is a number from 0 to {}, not {:?}",
            u32::MAX,
            value.chars().take(20).collect::<String>()
        ))
    })
}

pub(crate) fn parse_file(text: &str) -> Result<Escampe, PositionError> {
    if text.len() > MAX_TEXT_LEN {
        return err(format!("board file too long ({} bytes)", text.len()));
    }
    let mut setup = Setup {
        pieces: [0, 0],
        unicorns: [0, 0],
        side: Side::White,
        constraint: 0,
    };
    let mut side = None;
    let mut constraint = None;
    let mut ply = None;
    let mut max_plies = None;
    let mut rows_seen = [false; 6];
    for (index, raw) in text.lines().enumerate() {
        let line_no = index + 1;
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if let Some(comment) = line.strip_prefix('%') {
            let comment = comment.trim();
            if let Some(value) = comment.strip_prefix("side:") {
                side = Some(match value.trim() {
                    "w" => Side::White,
                    "b" => Side::Black,
                    other => {
                        return err(format!(
                            "line {line_no}: side must be w or b, not {other:?}"
                        ));
                    }
                });
            } else if let Some(value) = comment.strip_prefix("constraint:") {
                constraint = Some(
                    parse_constraint(value.trim())
                        .map_err(|e| e.context(format_args!("line {line_no}")))?,
                );
            } else if let Some(value) = comment.strip_prefix("ply:") {
                ply = Some(parse_count(value, "the ply count", line_no)?);
            } else if let Some(value) = comment.strip_prefix("max plies:") {
                max_plies = Some(parse_count(value, "the ply limit", line_no)?);
            }
            continue;
        }
        let parts: Vec<&str> = line.split_whitespace().collect();
        let bad_line = || {
            err(format!(
                "line {line_no}: expected a board line like \"01 bb---- 01\" or a comment \
                 starting with %, found {:?}",
                line.chars().take(40).collect::<String>()
            ))
        };
        if parts.len() != 3 || parts[0] != parts[2] {
            return bad_line();
        }
        let Ok(number) = parts[0].parse::<u8>() else {
            return bad_line();
        };
        if !(1..=6).contains(&number) {
            return err(format!("line {line_no}: row number {number} is not 1-6"));
        }
        let row = number - 1;
        if rows_seen[row as usize] {
            return err(format!("line {line_no}: row {number} appears twice"));
        }
        rows_seen[row as usize] = true;
        let cells: Vec<char> = parts[1].chars().collect();
        if cells.len() != 6 {
            return err(format!(
                "line {line_no}: row {number} has {} squares instead of 6",
                cells.len()
            ));
        }
        for (column, &cell) in cells.iter().enumerate() {
            if cell != '-' {
                place_letter(&mut setup, cell, Square::at(column as u8, row))
                    .map_err(|e| e.context(format_args!("line {line_no}")))?;
            }
        }
    }
    if let Some(missing) = rows_seen.iter().position(|seen| !seen) {
        return err(format!("the file has no line for row {}", missing + 1));
    }
    // Without comments the file is read as White to move, free, except where the
    // placement phase decides the side.
    let default_side = match (setup.pieces[0], setup.pieces[1]) {
        (_, 0) => Side::Black,
        _ => Side::White,
    };
    setup.side = side.unwrap_or(default_side);
    setup.constraint = constraint.unwrap_or(0);
    let max_plies = max_plies.unwrap_or(DEFAULT_MAX_PLIES);
    let ply = ply.unwrap_or(0);
    if ply > max_plies {
        // A game stops at its limit.
        return illegal(format!(
            "{ply} plies played is past the ply limit of {max_plies}"
        ));
    }
    let position = check_setup(setup)?;
    debug_assert!(position.phase() != Phase::Play || position.pieces(Side::White) != 0);
    Ok(position.with_max_plies(max_plies).with_ply(ply))
}
