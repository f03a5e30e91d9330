//! PDN move notation: `32-28`, `28x19`, the full path `47x38x24x13x36` when two
//! legal moves share start and end, and on input also the Hub/DXP form (start,
//! end, then every captured square: `28x19x23`).

use crate::moves::Move;
use crate::square::{BOARD, DIRECTIONS};
use crate::{Draughts, Square};
use plateau_core::{Game, MoveError, MoveList};

/// Longest move text worth reading (a 20-piece capture path is about 60 bytes).
const MAX_MOVE_LEN: usize = 200;

/// One complete capture sequence of a piece: the squares it lands on, in order
/// (the last is where it ends), and the pieces it takes (board mask).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sequence {
    pub from: Square,
    pub path: Vec<Square>,
    pub captured: u64,
}

impl Sequence {
    pub fn to(&self) -> Square {
        self.path.last().copied().unwrap_or(self.from)
    }

    pub fn count(&self) -> u32 {
        self.captured.count_ones()
    }

    /// `47x38x24x13x36`.
    pub fn path_text(&self) -> String {
        let mut text = self.from.to_string();
        for sq in &self.path {
            text.push('x');
            text.push_str(&sq.to_string());
        }
        text
    }
}

/// Every complete capture sequence of the piece on `from` (of the side to move),
/// whatever its size: the majority rule is not applied. Each landing square is a
/// separate sequence. Slow and simple: notation and error messages only.
pub fn capture_sequences(position: &Draughts, from: Square) -> Vec<Sequence> {
    let side = position.side_to_move();
    let mut out = Vec::new();
    if position.pieces(side) & from.bit() == 0 {
        return out;
    }
    let walk = Walk {
        enemy: position.pieces(!side),
        empty: position.empty() | from.bit(),
        king: position.kings(side) & from.bit() != 0,
        from,
    };
    walk.search(from.bit_index(), 0, &mut Vec::new(), &mut out);
    out
}

struct Walk {
    enemy: u64,
    empty: u64,
    king: bool,
    from: Square,
}

impl Walk {
    fn on_board(bit: i32) -> bool {
        (0..64).contains(&bit) && BOARD >> bit & 1 != 0
    }

    fn search(&self, at: u32, captured: u64, path: &mut Vec<Square>, out: &mut Vec<Sequence>) {
        let mut extended = false;
        for step in DIRECTIONS {
            let mut victim = at as i32 + step;
            if self.king {
                while Walk::on_board(victim) && self.empty >> victim & 1 != 0 {
                    victim += step;
                }
            }
            if !Walk::on_board(victim) {
                continue;
            }
            let victim_bit = 1u64 << victim;
            if self.enemy & victim_bit == 0 || captured & victim_bit != 0 {
                continue;
            }
            let mut landing = victim + step;
            while Walk::on_board(landing) && self.empty >> landing & 1 != 0 {
                extended = true;
                path.push(Square::from_bit_index(landing as u32));
                self.search(landing as u32, captured | victim_bit, path, out);
                path.pop();
                if !self.king {
                    break;
                }
                landing += step;
            }
        }
        if !extended && !path.is_empty() {
            out.push(Sequence {
                from: self.from,
                path: path.clone(),
                captured,
            });
        }
    }
}

/// The moves of `position` in a vector.
fn legal(position: &Draughts) -> Vec<Move> {
    let mut list = MoveList::new();
    position.legal_moves(&mut list);
    list.to_vec()
}

/// The full path of a legal capture (one of them, if several paths take the same
/// set to the same end).
pub fn full_path(position: &Draughts, mv: Move) -> String {
    capture_sequences(position, mv.from())
        .into_iter()
        .find(|s| s.to() == mv.to() && s.captured == mv.captured_mask())
        .map_or_else(|| mv.to_string(), |s| s.path_text())
}

/// The move as PDN writes it here: start and end, or the full path when another
/// legal move has the same start and end.
pub(crate) fn format(position: &Draughts, mv: Move) -> String {
    if !mv.is_capture() {
        return mv.to_string();
    }
    let twins = legal(position)
        .iter()
        .filter(|m| m.from() == mv.from() && m.to() == mv.to())
        .count();
    if twins > 1 {
        full_path(position, mv)
    } else {
        mv.to_string()
    }
}

fn shorten(text: &str) -> String {
    if text.chars().count() > 40 {
        let head: String = text.chars().take(40).collect();
        format!("{head}...")
    } else {
        text.to_string()
    }
}

/// Up to three moves in notation, for "for example" messages.
fn examples(position: &Draughts, moves: &[Move]) -> String {
    let mut shown: Vec<String> = moves.iter().take(3).map(|&m| format(position, m)).collect();
    if moves.len() > 3 {
        shown.push(format!("... {} in all", moves.len()));
    }
    shown.join(", ")
}

pub(crate) fn parse(position: &Draughts, input: &str) -> Result<Move, MoveError> {
    let text = input.trim();
    let unreadable = |reason: String| MoveError::unreadable(shorten(text), reason);
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
    let capture = text.contains('x');
    let quiet = text.contains('-');
    if capture && quiet {
        return Err(unreadable(
            "a move uses either - (no capture) or x (capture), not both".into(),
        ));
    }
    if !capture && !quiet {
        return Err(unreadable(
            "expected a move like 32-28, or a capture like 28x19".into(),
        ));
    }
    let separator = if capture { 'x' } else { '-' };
    let path = text
        .split(separator)
        .map(|part| Square::parse(part.trim()))
        .collect::<Result<Vec<_>, _>>()
        .map_err(unreadable)?;
    if !capture && path.len() != 2 {
        return Err(unreadable(format!(
            "a move without capture gives two squares, like 32-28, not {}",
            path.len()
        )));
    }
    let result = if capture {
        parse_capture(position, &path)
    } else {
        parse_quiet(position, &path)
    };
    result.map_err(|reason| MoveError::new(shorten(text), reason))
}

/// Checks that `from` holds a piece of the side to move.
fn check_owner(position: &Draughts, from: Square) -> Result<bool, String> {
    let side = position.side_to_move();
    match position.piece_at(from) {
        None => Err(format!("there is no piece on {from}")),
        Some((owner, _)) if owner != side => {
            Err(format!("{from} holds a {owner} piece; it is {side}'s turn"))
        }
        Some((_, king)) => Ok(king),
    }
}

/// A move without capture along `path` (two squares).
fn parse_quiet(position: &Draughts, path: &[Square]) -> Result<Move, String> {
    let (from, to) = (path[0], path[1]);
    let king = check_owner(position, from)?;
    let moves = legal(position);
    if let Some(&mv) = moves
        .iter()
        .find(|m| !m.is_capture() && m.from() == from && m.to() == to)
    {
        return Ok(mv);
    }
    if moves.iter().any(|m| m.is_capture()) {
        let own: Vec<Move> = moves.iter().copied().filter(|m| m.from() == from).collect();
        let shown = if own.is_empty() { &moves } else { &own };
        let hint = if own.iter().any(|m| m.to() == to) {
            format!("; this one is written {}x{}", from, to)
        } else {
            String::new()
        };
        return Err(format!(
            "capturing is compulsory here: {}{hint}",
            examples(position, shown)
        ));
    }
    if from == to {
        return Err("a piece must leave its square".into());
    }
    if let Some((owner, _)) = position.piece_at(to) {
        return Err(format!("{to} is occupied (by a {owner} piece)"));
    }
    let (dr, dc) = (
        to.row() as i32 - from.row() as i32,
        to.column() as i32 - from.column() as i32,
    );
    if dr.abs() != dc.abs() {
        return Err(format!("{to} is not on a diagonal through {from}"));
    }
    if !king {
        let forward = if position.side_to_move() == plateau_core::Side::White {
            -1
        } else {
            1
        };
        return Err(if dr == forward {
            format!("{from}-{to} is not a legal move")
        } else if dr.signum() != forward {
            "a man moves forward only (it captures backwards, but never steps back)".into()
        } else {
            "a man moves one square at a time; only kings fly".into()
        });
    }
    // A king: something stands between.
    let (sr, sc) = (dr.signum(), dc.signum());
    let mut row = from.row() as i32 + sr;
    let mut column = from.column() as i32 + sc;
    while let Some(sq) = Square::at(row, column) {
        if sq == to {
            break;
        }
        if position.piece_at(sq).is_some() {
            return Err(format!(
                "the king's way from {from} to {to} is blocked on {sq}"
            ));
        }
        row += sr;
        column += sc;
    }
    Err(format!("{from}-{to} is not a legal move"))
}

/// Whether `listed` names each square of `captured` (a board mask) exactly
/// once, in any order: the captured squares of the Hub form.
fn lists_exactly(listed: &[Square], captured: u64) -> bool {
    let mut mask = 0u64;
    for square in listed {
        if mask & square.bit() != 0 {
            return false;
        }
        mask |= square.bit();
    }
    mask == captured
}

fn parse_capture(position: &Draughts, path: &[Square]) -> Result<Move, String> {
    if path.len() < 2 {
        return Err("a capture gives at least its start and end, like 28x19".into());
    }
    let from = path[0];
    check_owner(position, from)?;
    let moves = legal(position);
    // Only full paths need the sequences (they allocate): not `28x19`, nor
    // the Hub form, unless the move turns out wrong and needs explaining.
    let full_paths = (path.len() > 2).then(|| capture_sequences(position, from));
    let mut matches: Vec<Move> = Vec::new();
    let mut add = |mv: Move| {
        if !matches.contains(&mv) {
            matches.push(mv);
        }
    };
    for &mv in moves.iter().filter(|m| m.is_capture() && m.from() == from) {
        // Start and end only, or start, end and the captured squares (Hub).
        let hub = mv.to() == path[1]
            && (path.len() == 2 || lists_exactly(&path[2..], mv.captured_mask()));
        // Or the full path, every landing square.
        let full = full_paths.as_ref().is_some_and(|sequences| {
            sequences.iter().any(|s| {
                s.path == path[1..] && s.captured == mv.captured_mask() && s.to() == mv.to()
            })
        });
        if hub || full {
            add(mv);
        }
    }
    match matches.len() {
        1 => return Ok(matches[0]),
        0 => {}
        _ => {
            let named: Vec<String> = matches.iter().map(|&m| full_path(position, m)).collect();
            return Err(format!(
                "ambiguous: {} legal captures match ({}); give the full path",
                matches.len(),
                named.join(", ")
            ));
        }
    }
    // Nothing matches: say why.
    if !moves.iter().any(|m| m.is_capture()) {
        return Err(
            if path.len() == 2 && moves.iter().any(|m| m.from() == from && m.to() == path[1]) {
                format!("{from}-{} takes nothing; write it with -", path[1])
            } else {
                "there is nothing to capture here".into()
            },
        );
    }
    let best = moves[0].capture_count();
    if !moves.iter().any(|m| m.from() == from) {
        return Err(format!(
            "the piece on {from} has no legal capture; capturing is compulsory with {}",
            examples(position, &moves)
        ));
    }
    let sequences = full_paths.unwrap_or_else(|| capture_sequences(position, from));
    // A real sequence that takes too few pieces?
    let smaller = sequences.iter().find(|s| {
        (s.to() == path[1] && path.len() == 2)
            || s.path == path[1..]
            || (s.to() == path[1] && lists_exactly(&path[2..], s.captured))
    });
    if let Some(sequence) = smaller {
        let plural = |n: u32| if n == 1 { "piece" } else { "pieces" };
        return Err(format!(
            "{} takes {} {}, but the majority rule requires taking {best} {} (for example {})",
            sequence.path_text(),
            sequence.count(),
            plural(sequence.count()),
            plural(best),
            examples(position, &moves)
        ));
    }
    // A sequence cut short?
    if let Some(longer) = sequences
        .iter()
        .find(|s| s.path.len() > path.len() - 1 && s.path[..path.len() - 1] == path[1..])
    {
        let stop = path[path.len() - 1];
        return Err(format!(
            "the capture cannot stop on {stop}: it must go on while it can take (as {})",
            longer.path_text()
        ));
    }
    // Start and end right, captured squares wrong?
    if path.len() > 2
        && let Some(&same_ends) = moves.iter().find(|m| m.from() == from && m.to() == path[1])
    {
        let taken: Vec<String> = same_ends.captured().map(|s| s.to_string()).collect();
        return Err(format!(
            "{from}x{} takes {}, not the squares listed",
            path[1],
            taken.join(", ")
        ));
    }
    let ends: Vec<String> = moves
        .iter()
        .filter(|m| m.from() == from)
        .map(|&m| format(position, m))
        .collect();
    let what = if path.len() == 2 {
        format!(
            "no legal capture of the piece on {from} ends on {}",
            path[1]
        )
    } else {
        "no legal capture matches, read either as the landing squares of a path or as \
         start, end and captured squares"
            .to_string()
    };
    Err(format!("{what}; its legal captures: {}", ends.join(", ")))
}
