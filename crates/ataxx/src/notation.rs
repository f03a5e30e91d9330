//! Reading moves (`b6`, `g1e3`, `0000`), with a reason for every refusal.

use crate::bits::Bits;
use crate::board::{Board, Cell};
use crate::text::side_letter;
use crate::{Ataxx, Move, Square, VirusGame};
use plateau_core::{Game, MoveError, MoveList, Side};

/// Longest input worth reading.
const MAX_MOVE_LEN: usize = 32;

fn shorten(text: &str) -> String {
    if text.chars().count() > 16 {
        let head: String = text.chars().take(16).collect();
        format!("{head}...")
    } else {
        text.to_string()
    }
}

/// The checks every move goes through before its own: length, game over.
fn preamble<G: Game>(game: &G, input: &str) -> Result<String, MoveError> {
    let text = input.trim();
    let unreadable = |reason: String| Err(MoveError::unreadable(shorten(text), reason));
    if text.is_empty() {
        return unreadable("empty move".into());
    }
    if text.len() > MAX_MOVE_LEN {
        return unreadable(format!("too long to be a move ({} bytes)", text.len()));
    }
    if let Some(outcome) = game.outcome() {
        return Err(MoveError::game_over(
            shorten(text),
            format!("the game is over: {outcome}"),
        ));
    }
    Ok(text.to_string())
}

/// Why a stone cannot land on `to` (occupied or blocked), if it cannot.
fn target_problem<B: Bits>(board: &Board<B>, to: Square) -> Option<String> {
    match board.cell(to) {
        Cell::Empty => None,
        Cell::Blocked => Some(format!("{to} is a blocked cell")),
        Cell::Stone(side) => Some(format!(
            "{to} is occupied by an {} stone",
            side_letter(side)
        )),
    }
}

fn player(side: Side) -> String {
    format!("{} ({side})", side_letter(side))
}

/// A clone to `to`: the cell must be empty and touch one of the mover's stones.
fn check_clone<B: Bits>(board: &Board<B>, to: Square) -> Result<Move, String> {
    if let Some(problem) = target_problem(board, to) {
        return Err(problem);
    }
    let index = to.index::<B>();
    if (board.geo.ring1[index] & board.us()).is_zero() {
        return Err(format!(
            "{to} touches no stone of {}; a clone goes next to one of your stones",
            player(board.side)
        ));
    }
    Ok(Move::Clone(to))
}

pub(crate) fn parse_virus<B: Bits>(game: &VirusGame<B>, input: &str) -> Result<Move, MoveError> {
    let text = preamble(game, input)?;
    let unreadable = |reason: String| MoveError::unreadable(shorten(&text), reason);
    let illegal = |reason: String| MoveError::new(shorten(&text), reason);
    let board = game.board();
    if text == "0000" {
        return Err(unreadable(
            "the virus game has no pass: the game ends when the side to move has no drop".into(),
        ));
    }
    if text.len() == 4
        && text.is_ascii()
        && Square::parse(&text[..2], board.n()).is_ok()
        && Square::parse(&text[2..], board.n()).is_ok()
    {
        return Err(unreadable(
            "the virus game has no jumps; a move is the cell you drop on, like b6".into(),
        ));
    }
    let to = Square::parse(&text, board.n()).map_err(unreadable)?;
    check_clone(board, to).map_err(illegal)
}

pub(crate) fn parse_ataxx(game: &Ataxx, input: &str) -> Result<Move, MoveError> {
    let text = preamble(game, input)?;
    let unreadable = |reason: String| MoveError::unreadable(shorten(&text), reason);
    let illegal = |reason: String| MoveError::new(shorten(&text), reason);
    let board = game.board();
    if text == "0000" {
        let mut moves = MoveList::new();
        game.legal_moves(&mut moves);
        return match moves.first() {
            Some(Move::Pass) => Ok(Move::Pass),
            Some(example) => Err(illegal(format!(
                "a pass is only legal when no move exists, and {example} is legal ({} moves \
                 in all)",
                moves.len()
            ))),
            None => Err(illegal("no move at all is legal here".into())),
        };
    }
    match text.len() {
        2 => {
            let to = Square::parse(&text, board.n()).map_err(unreadable)?;
            check_clone(board, to).map_err(illegal)
        }
        4 if text.is_ascii() => {
            let from = Square::parse(&text[..2], board.n()).map_err(unreadable)?;
            let to = Square::parse(&text[2..], board.n()).map_err(unreadable)?;
            check_jump(board, from, to).map_err(illegal)
        }
        _ => Err(unreadable(
            "not a move: write a clone as its target cell (b6), a jump as origin and target \
             (g1e3), a pass as 0000"
                .into(),
        )),
    }
}

fn check_jump(board: &Board<u64>, from: Square, to: Square) -> Result<Move, String> {
    match board.cell(from) {
        Cell::Stone(side) if side == board.side => {}
        Cell::Stone(side) => {
            return Err(format!(
                "{from} holds a stone of {}; it is {}'s turn",
                player(side),
                player(board.side)
            ));
        }
        Cell::Blocked => return Err(format!("{from} is a blocked cell, not a stone")),
        Cell::Empty => return Err(format!("there is no stone on {from}")),
    }
    if let Some(problem) = target_problem(board, to) {
        return Err(problem);
    }
    match from.distance(to) {
        2 => Ok(Move::Jump(from, to)),
        1 => Err(format!(
            "{to} is next to {from}: that is a clone, written {to} alone"
        )),
        d => Err(format!(
            "{to} is {d} cells from {from}; a jump goes exactly 2 cells"
        )),
    }
}
