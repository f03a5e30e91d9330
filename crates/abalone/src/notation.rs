//! Reading Aba-Pro moves, with a reason for every refusal.
//!
//! - inline `a1b2`: the trailing marble's from and to cells; the own marbles in
//!   front of it move too, and whatever they push;
//! - broadside `c6c7d6`: the two end marbles of the group (either order), then
//!   the first one's destination;
//! - a single marble is an inline move of one: `e5d5`.

use crate::board::{Cell, Direction};
use crate::{Abalone, Move};
use plateau_core::{Game, MoveError, Side};

/// Longest input worth reading: a broadside is 6 characters.
const MAX_MOVE_LEN: usize = 32;

pub(crate) fn parse(position: &Abalone, input: &str) -> Result<Move, MoveError> {
    let text = input.trim();
    let unreadable = |reason: String| MoveError::unreadable(shorten(text), reason);
    let illegal = |reason: String| MoveError::new(shorten(text), reason);
    if text.is_empty() {
        return Err(unreadable("empty move".into()));
    }
    if text.len() > MAX_MOVE_LEN {
        return Err(unreadable(format!(
            "too long to be a move ({} bytes)",
            text.len()
        )));
    }
    if let Some(outcome) = position.outcome() {
        return Err(MoveError::game_over(
            shorten(text),
            format!("the game is over: {outcome}"),
        ));
    }
    let cells = split_cells(text).map_err(unreadable)?;
    match cells[..] {
        [from, to] => parse_inline(position, from, to).map_err(illegal),
        [first, second, to] => parse_broadside(position, first, second, to).map_err(illegal),
        _ => Err(unreadable(format!(
            "a move names 2 cells (inline, like a1b2) or 3 (broadside, like c6c7d6), \
             not {}",
            cells.len()
        ))),
    }
}

fn shorten(text: &str) -> String {
    if text.chars().count() > 24 {
        let head: String = text.chars().take(24).collect();
        format!("{head}...")
    } else {
        text.to_string()
    }
}

/// `c6c7d6` -> [c6, c7, d6].
fn split_cells(text: &str) -> Result<Vec<Cell>, String> {
    if !text.is_ascii() || !text.len().is_multiple_of(2) {
        return Err(
            "expected cells written as a row a-i and a diagonal 1-9, like a1b2 or c6c7d6".into(),
        );
    }
    text.as_bytes()
        .chunks(2)
        .map(|pair| Cell::parse(std::str::from_utf8(pair).unwrap_or("")))
        .collect()
}

/// Checks that `cell` holds a marble of the side to move.
fn own_marble(position: &Abalone, cell: Cell) -> Result<(), String> {
    let side = position.side_to_move();
    match position.at(cell) {
        Some(owner) if owner == side => Ok(()),
        Some(owner) => Err(format!(
            "{cell} holds a {owner} marble; it is {side}'s turn"
        )),
        None => Err(format!("there is no marble on {cell}")),
    }
}

fn count_line(position: &Abalone, start: Cell, dir: Direction, side: Side) -> (i32, Option<Cell>) {
    let mut count = 0;
    let mut cell = Some(start);
    while let Some(c) = cell {
        if position.at(c) != Some(side) {
            break;
        }
        count += 1;
        cell = c.step(dir);
    }
    (count, cell)
}

fn parse_inline(position: &Abalone, from: Cell, to: Cell) -> Result<Move, String> {
    if from == to {
        return Err("a marble must move to a neighbouring cell".into());
    }
    let dir = Direction::between(from, to)
        .ok_or_else(|| format!("{to} is not next to {from}: marbles move one cell"))?;
    own_marble(position, from)?;
    let side = position.side_to_move();
    let (len, front) = count_line(position, from, dir, side);
    if len > 3 {
        return Err(format!(
            "{len} marbles in a line from {from} to the {}: at most 3 move together",
            dir.name()
        ));
    }
    let leader = from.steps(dir, len - 1).unwrap_or(from);
    let Some(front) = front else {
        return Err(format!(
            "the marble on {leader} would leave the board: only pushed enemy marbles go off"
        ));
    };
    match position.at(front) {
        None => Ok(Move::inline(from, dir, len as u8, 0, false)),
        Some(_) => {
            let (enemies, behind) = count_line(position, front, dir, !side);
            if len == 1 {
                return Err(format!(
                    "a single marble cannot push ({front} holds a {} marble)",
                    !side
                ));
            }
            if enemies >= len {
                return Err(format!("cannot push {enemies} with {len}"));
            }
            match behind {
                Some(cell) if position.at(cell).is_some() => Err(format!(
                    "cannot push: your own marble on {cell} stands behind the enemy line"
                )),
                _ => Ok(Move::inline(
                    from,
                    dir,
                    len as u8,
                    enemies as u8,
                    behind.is_none(),
                )),
            }
        }
    }
}

fn parse_broadside(
    position: &Abalone,
    first: Cell,
    second: Cell,
    to: Cell,
) -> Result<Move, String> {
    if first == second {
        return Err(format!(
            "the two ends are both {first}: a single marble moves inline, like {first}{to}"
        ));
    }
    let (dr, dd) = (
        second.row() - first.row(),
        second.diagonal() - first.diagonal(),
    );
    let gap = dr.abs().max(dd.abs());
    let line = Direction::ALL
        .into_iter()
        .find(|d| d.offsets() == (dr / gap.max(1), dd / gap.max(1)))
        .filter(|d| first.steps(*d, gap) == Some(second));
    let Some(line) = line else {
        return Err(format!("{first} and {second} are not in a line"));
    };
    if gap > 2 {
        return Err(format!(
            "{first} and {second} span {} cells: at most 3 marbles move together",
            gap + 1
        ));
    }
    let dir = Direction::between(first, to)
        .ok_or_else(|| format!("{to} is not next to {first}: marbles move one cell"))?;
    if dir.axis() == line.axis() {
        return Err(format!(
            "{first}{second}{to} moves along the line: an inline move is written with \
             the trailing marble's from and to cells, like a1b2"
        ));
    }
    let group: Vec<Cell> = (0..=gap).filter_map(|k| first.steps(line, k)).collect();
    for &cell in &group {
        own_marble(position, cell)?;
    }
    for &cell in &group {
        match cell.step(dir) {
            None => return Err(format!("the marble on {cell} would leave the board")),
            Some(dest) if position.at(dest).is_some() => {
                return Err(format!(
                    "{dest} is occupied: a broadside moves only into empty cells"
                ));
            }
            Some(_) => {}
        }
    }
    // The move's anchor is the group's lowest cell, its axis the positive one.
    let anchor = if first < second { first } else { second };
    Ok(Move::broadside(anchor, line.axis(), dir, group.len() as u8))
}
