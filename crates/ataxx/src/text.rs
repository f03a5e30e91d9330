//! The position text (FEN): ranks from the top down separated by `/`, `x` and `o`
//! stones, `-` blocked cells, digits for runs of empty cells, then the side to
//! move; full Ataxx adds the halfmove clock and the move number.

use crate::bits::{Bits, MIN_SIZE};
use crate::board::{Board, Cell};
use crate::square::MAX_SIDE;
use crate::{Ataxx, Move, Square, VirusGame};
use plateau_core::save::{read_save_file, write_save_file};
use plateau_core::{PositionError, Side};

/// Longest text worth reading: a 9x9 board spelled cell by cell is 89 bytes.
pub(crate) const MAX_TEXT_LEN: usize = 256;

/// Largest move number accepted.
const MAX_FULLMOVE: u32 = 1_000_000;

fn err<T>(reason: impl Into<String>) -> Result<T, PositionError> {
    Err(PositionError::new(reason))
}

/// A readable position the rules could never reach.
fn illegal<T>(reason: impl Into<String>) -> Result<T, PositionError> {
    Err(PositionError::illegal(reason))
}

/// A board read from text, before it is checked against a game's rules.
pub(crate) struct Layout {
    pub n: usize,
    /// `[rank][file]`, rank 0 at the bottom.
    pub cells: [[Cell; MAX_SIDE]; MAX_SIDE],
}

impl Layout {
    fn count(&self, wanted: Cell) -> usize {
        self.cells[..self.n]
            .iter()
            .map(|row| row[..self.n].iter().filter(|&&c| c == wanted).count())
            .sum()
    }

    /// The board in the layout of `B`, if `B` holds this size.
    fn to_board<B: Bits>(&self, side: Side) -> Option<Board<B>> {
        let geo = B::geometry(self.n)?;
        let mut stones = [B::ZERO; 2];
        let mut blocked = B::ZERO;
        for rank in 0..self.n {
            for file in 0..self.n {
                let bit = B::bit(Square::at(file, rank).index::<B>());
                match self.cells[rank][file] {
                    Cell::Empty => {}
                    Cell::Blocked => blocked |= bit,
                    Cell::Stone(s) => stones[s.index()] |= bit,
                }
            }
        }
        Some(Board::new(geo, stones, blocked, side))
    }
}

/// Reads the board field; the board is square and its size is the number of ranks.
pub(crate) fn parse_layout(field: &str) -> Result<Layout, PositionError> {
    let ranks: Vec<&str> = field.split('/').collect();
    let n = ranks.len();
    if !(MIN_SIZE..=MAX_SIDE).contains(&n) {
        return err(format!(
            "the board has {n} rank{} separated by '/'; boards are {MIN_SIZE}x{MIN_SIZE} to \
             {MAX_SIDE}x{MAX_SIDE}",
            if n == 1 { "" } else { "s" }
        ));
    }
    let mut layout = Layout {
        n,
        cells: [[Cell::Empty; MAX_SIDE]; MAX_SIDE],
    };
    for (i, text) in ranks.iter().enumerate() {
        let rank = n - 1 - i;
        let name = rank + 1;
        let mut file = 0;
        let mut previous_digit = false;
        for ch in text.chars() {
            if let Some(run) = ch.to_digit(10) {
                if run == 0 {
                    return err(format!("rank {name}: empty runs are 1-9, not 0"));
                }
                if previous_digit {
                    return err(format!(
                        "rank {name}: two digits in a row in {text:?}; write one run of empty cells"
                    ));
                }
                previous_digit = true;
                file += run as usize;
            } else {
                previous_digit = false;
                let cell = match ch {
                    'x' => Cell::Stone(Side::Black),
                    'o' => Cell::Stone(Side::White),
                    '-' => Cell::Blocked,
                    'X' | 'O' => {
                        return err(format!(
                            "rank {name}: stones are written in lower case, x and o, not {ch:?}"
                        ));
                    }
                    other => {
                        return err(format!(
                            "rank {name}: {other:?} is not a cell (x, o, - or a digit for empty cells)"
                        ));
                    }
                };
                if file < n {
                    layout.cells[rank][file] = cell;
                }
                file += 1;
            }
            if file > n {
                return err(format!(
                    "rank {name} has more than {n} cells in {text:?}; the board has {n} ranks \
                     and is square"
                ));
            }
        }
        if file != n {
            return err(format!(
                "rank {name} has {file} cells instead of {n} in {text:?}; the board has {n} \
                 ranks and is square"
            ));
        }
    }
    if layout.count(Cell::Stone(Side::Black)) + layout.count(Cell::Stone(Side::White)) == 0 {
        return illegal("neither side has a stone: no game reaches such a position");
    }
    Ok(layout)
}

fn parse_side(field: &str) -> Result<Side, PositionError> {
    match field {
        "x" => Ok(Side::Black),
        "o" => Ok(Side::White),
        other => err(format!(
            "the side to move is x (Black) or o (White), not {:?}",
            other.chars().take(12).collect::<String>()
        )),
    }
}

/// The board field of a position text.
pub(crate) fn format_board<B: Bits>(board: &Board<B>) -> String {
    let n = board.n();
    let mut text = String::with_capacity(n * (n + 1));
    for rank in (0..n).rev() {
        let mut run = 0;
        for file in 0..n {
            let letter = match board.cell(Square::at(file, rank)) {
                Cell::Empty => {
                    run += 1;
                    continue;
                }
                Cell::Blocked => '-',
                Cell::Stone(Side::Black) => 'x',
                Cell::Stone(Side::White) => 'o',
            };
            if run > 0 {
                text.push(char::from(b'0' + run));
                run = 0;
            }
            text.push(letter);
        }
        if run > 0 {
            text.push(char::from(b'0' + run));
        }
        if rank > 0 {
            text.push('/');
        }
    }
    text
}

pub(crate) fn side_letter(side: Side) -> char {
    match side {
        Side::Black => 'x',
        Side::White => 'o',
    }
}

fn check_length(text: &str) -> Result<(), PositionError> {
    if text.len() > MAX_TEXT_LEN {
        return err(format!("position text too long ({} bytes)", text.len()));
    }
    Ok(())
}

/// A clock: ASCII digits only (`str::parse` would take a `+` sign too).
fn parse_number<T: std::str::FromStr>(field: &str) -> Option<T> {
    if field.is_empty() || !field.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    field.parse().ok()
}

/// `x5o/7/7/7/7/7/o5x x 0 1` (the two clocks may be left out: `0 1`).
pub(crate) fn parse_ataxx(text: &str) -> Result<Ataxx, PositionError> {
    check_length(text)?;
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() != 4 && fields.len() != 2 {
        return err(format!(
            "an Ataxx position has 4 fields (board, side to move, halfmove clock, move \
             number), like \"x5o/7/7/7/7/7/o5x x 0 1\"; this one has {}",
            fields.len()
        ));
    }
    let layout = parse_layout(fields[0])?;
    if layout.n != 7 {
        return err(format!(
            "full Ataxx is played on 7x7 and this board is {0}x{0} (the virus game takes \
             4x4 to 9x9)",
            layout.n
        ));
    }
    let side = parse_side(fields[1])?;
    let (halfmove, fullmove) = if fields.len() == 4 {
        let halfmove = match parse_number::<u16>(fields[2]) {
            Some(h) if h <= crate::ataxx::HALFMOVE_LIMIT => h,
            _ => {
                return err(format!(
                    "the halfmove clock is a number from 0 to {} (the game is drawn there), \
                     not {:?}",
                    crate::ataxx::HALFMOVE_LIMIT,
                    fields[2]
                ));
            }
        };
        let fullmove = match parse_number::<u32>(fields[3]) {
            Some(m) if (1..=MAX_FULLMOVE).contains(&m) => m,
            _ => {
                return err(format!(
                    "the move number is a number from 1 to {MAX_FULLMOVE}, not {:?}",
                    fields[3]
                ));
            }
        };
        (halfmove, fullmove)
    } else {
        (0, 1)
    };
    let board = layout
        .to_board::<u64>(side)
        .ok_or_else(|| PositionError::new("a 7x7 board always fits"))?;
    Ok(Ataxx::from_parts(board, halfmove, fullmove))
}

/// The save file: `start:` the position after the last clone, `moves:` the
/// jumps and passes since.
pub(crate) fn format_ataxx_file(game: &Ataxx) -> String {
    let (start, moves) = game.since_last_clone();
    let moves: Vec<String> = moves.iter().map(|mv| mv.to_string()).collect();
    write_save_file(&format_ataxx(&start), &[], &moves)
}

/// Reads what [`format_ataxx_file`] writes, or a bare position text: the
/// start position and the moves from it, each checked.
pub(crate) fn parse_ataxx_file_with_moves(text: &str) -> Result<(Ataxx, Vec<Move>), PositionError> {
    let Some(file) = read_save_file(text, &[])? else {
        return Ok((parse_ataxx(text.trim())?, Vec::new()));
    };
    let start = parse_ataxx(file.start).map_err(|e| e.context("the start position"))?;
    let moves = file.moves_from(&start)?;
    Ok((start, moves))
}

pub(crate) fn format_ataxx(game: &Ataxx) -> String {
    format!(
        "{} {} {} {}",
        format_board(game.board()),
        side_letter(game.board().side),
        game.halfmove_clock(),
        game.fullmove_number()
    )
}

/// `x5o/7/7/7/7/7/o5x x`.
pub(crate) fn parse_virus<B: Bits>(text: &str) -> Result<VirusGame<B>, PositionError> {
    check_length(text)?;
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() != 2 {
        let hint = if fields.len() == 4 {
            " (clocks belong to full Ataxx)"
        } else {
            ""
        };
        return err(format!(
            "a virus position has 2 fields (board, side to move), like \
             \"x5o/7/7/7/7/7/o5x x\"; this one has {}{hint}",
            fields.len()
        ));
    }
    let layout = parse_layout(fields[0])?;
    if layout.count(Cell::Blocked) > 0 {
        return err("blocked cells (-) belong to full Ataxx, not to the virus game");
    }
    let side = parse_side(fields[1])?;
    if layout.count(Cell::Stone(!side)) == 0 {
        return illegal(format!(
            "{} ({}) has no stone but played the last move, and a drop leaves a stone: \
             no game reaches this position",
            side_letter(!side),
            !side
        ));
    }
    let board = layout.to_board::<B>(side).ok_or_else(|| {
        PositionError::other_variant(format!(
            "a {0}x{0} board needs the wide layout (VirusWide, the virus/9x9 variant); this \
             one holds boards up to {1}x{1}",
            layout.n,
            B::MAX_SIZE
        ))
    })?;
    Ok(VirusGame::from_board(board))
}

pub(crate) fn format_virus<B: Bits>(game: &VirusGame<B>) -> String {
    format!(
        "{} {}",
        format_board(game.board()),
        side_letter(game.board().side)
    )
}
