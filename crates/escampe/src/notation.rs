//! Reading moves as the arbiter writes them, with a reason for every refusal.

use crate::position::Phase;
use crate::square::{BOTTOM_EDGE, TOP_EDGE};
use crate::{Escampe, Move, Square};
use plateau_core::{Game, MoveError, MoveList, Side};

/// Longest input worth reading: a placement is 17 characters.
const MAX_MOVE_LEN: usize = 64;

pub(crate) fn parse(position: &Escampe, input: &str) -> Result<Move, MoveError> {
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
    let side = position.side_to_move();
    match position.phase() {
        Phase::BlackPlaces | Phase::WhitePlaces => {
            if !text.contains('/') {
                return Err(illegal(format!(
                    "{side} must first place its six pieces, unicorn first, like C6/A6/B5/D5/E6/F5"
                )));
            }
            let squares = read_placement(text).map_err(unreadable)?;
            check_placement(position, &squares).map_err(illegal)
        }
        Phase::Play => {
            if text.contains('/') {
                return Err(illegal(
                    "the placements are over: moves are written like B1-D1".into(),
                ));
            }
            if text == "E" {
                return check_pass(position).map_err(illegal);
            }
            if text.eq_ignore_ascii_case("passe") || text.eq_ignore_ascii_case("pass") {
                return Err(unreadable("a pass is written E".into()));
            }
            let (from, to) = read_step(text).map_err(unreadable)?;
            check_step(position, from, to).map_err(illegal)
        }
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

fn rows_name(edge: u64) -> &'static str {
    if edge == BOTTOM_EDGE {
        "rows 1-2"
    } else {
        "rows 5-6"
    }
}

/// The six squares of a placement, as written (unicorn first).
fn read_placement(text: &str) -> Result<Vec<Square>, String> {
    let parts: Vec<&str> = text.split('/').collect();
    if parts.len() != 6 {
        return Err(format!(
            "a placement lists exactly 6 squares (unicorn first), this one has {}",
            parts.len()
        ));
    }
    parts.iter().map(|part| Square::parse(part)).collect()
}

fn check_placement(position: &Escampe, squares: &[Square]) -> Result<Move, String> {
    let mut seen = 0u64;
    for &square in squares {
        if seen & square.bit() != 0 {
            return Err(format!("{square} is listed twice"));
        }
        seen |= square.bit();
    }
    let side = position.side_to_move();
    let edge = match position.placement_edge(side) {
        Some(edge) => edge,
        // Black's first square decides the edge.
        None if squares[0].row() >= 4 => TOP_EDGE,
        None => BOTTOM_EDGE,
    };
    let why = if side == Side::Black {
        format!("Black's first square {} puts Black on", squares[0])
    } else {
        "White places opposite Black, on".to_string()
    };
    if let Some(outside) = squares.iter().find(|sq| edge & sq.bit() == 0) {
        return Err(format!(
            "{outside} is off the edge: {why} {}",
            rows_name(edge)
        ));
    }
    Ok(Move::Place {
        unicorn: squares[0],
        paladins: seen ^ squares[0].bit(),
    })
}

fn check_pass(position: &Escampe) -> Result<Move, String> {
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    match moves.first() {
        Some(Move::Pass) | None => Ok(Move::Pass),
        Some(example) => Err(format!(
            "a pass is only legal when no move exists, and {example} is legal ({} moves in all)",
            moves.len()
        )),
    }
}

/// The two squares of a step, as written (`B1-D1`).
fn read_step(text: &str) -> Result<(Square, Square), String> {
    let Some((from_text, to_text)) = text.split_once('-') else {
        return Err("expected a move like B1-D1, or E to pass".into());
    };
    Ok((Square::parse(from_text)?, Square::parse(to_text)?))
}

fn check_step(position: &Escampe, from: Square, to: Square) -> Result<Move, String> {
    let side = position.side_to_move();
    let (owner, is_unicorn) = position
        .piece_at(from)
        .ok_or_else(|| format!("there is no piece on {from}"))?;
    if owner != side {
        return Err(format!("{from} holds a {owner} piece; it is {side}'s turn"));
    }
    if let Some(constraint) = position.constraint()
        && from.lisere() != constraint
    {
        return Err(format!(
            "{from} has liseré {}, the constraint is {constraint}",
            from.lisere()
        ));
    }
    if from == to {
        return Err("a piece must leave its square".into());
    }
    match position.piece_at(to) {
        Some((target, _)) if target == side => {
            return Err(format!("{to} is occupied by your own piece"));
        }
        Some((_, false)) => return Err(format!("{to} holds a paladin; paladins cannot be taken")),
        Some((_, true)) if is_unicorn => {
            return Err(format!(
                "{to} holds the unicorn, but a unicorn cannot capture"
            ));
        }
        _ => {}
    }
    let empty = !position.occupied() & ((1u64 << 36) - 1);
    if Escampe::reachable(from, empty) & to.bit() == 0 {
        let steps = from.lisere();
        let plural = if steps == 1 { "" } else { "s" };
        return Err(format!(
            "no path of exactly {steps} step{plural} (the liseré of {from}) leads from {from} to {to} over empty squares"
        ));
    }
    Ok(Move::Step { from, to })
}
