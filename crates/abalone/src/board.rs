//! The hexagon: cells, directions and cell masks over a padded grid.
//!
//! Cell (row r, diagonal d), both counted from 0 (row A, diagonal 1), is bit
//! `r * 10 + d` of a `u128`. Rows are 10 bits wide for 9 diagonals, so a step
//! off the east or west end of a row lands on a padding bit, never on another
//! row's cell; steps below row A fall off the low end of the integer and steps
//! above row I land on bits 90-99, also padding. A one-step move of a whole set
//! of cells is therefore a single shift.

use std::fmt;

/// Bits per row of the padded grid.
pub const WIDTH: i32 = 10;

/// Whether (row, diagonal), both 0-based, is one of the 61 cells.
#[inline]
pub const fn on_board(row: i32, diagonal: i32) -> bool {
    row >= 0 && row < 9 && diagonal >= 0 && diagonal < 9 && (row - diagonal).abs() <= 4
}

/// Every cell of the board.
pub const BOARD: u128 = {
    let mut mask = 0u128;
    let mut row = 0;
    while row < 9 {
        let mut diagonal = 0;
        while diagonal < 9 {
            if on_board(row, diagonal) {
                mask |= 1u128 << (row * WIDTH + diagonal);
            }
            diagonal += 1;
        }
        row += 1;
    }
    mask
};

/// The 24 cells of the outer ring: where a marble can be pushed off.
pub const RIM: u128 = {
    let mut mask = 0u128;
    let mut bit = 0;
    while bit < 128 {
        if BOARD & (1u128 << bit) != 0 {
            let (row, diagonal) = (bit / WIDTH, bit % WIDTH);
            let mut dir = 0;
            while dir < 6 {
                let (dr, dd) = Direction::ALL[dir].offsets();
                if !on_board(row + dr, diagonal + dd) {
                    mask |= 1u128 << bit;
                }
                dir += 1;
            }
        }
        bit += 1;
    }
    mask
};

/// The cells at each distance (0-4) from the centre e5.
pub const RINGS: [u128; 5] = {
    let mut rings = [0u128; 5];
    let mut bit = 0;
    while bit < 128 {
        if BOARD & (1u128 << bit) != 0 {
            let distance = hex_distance(bit / WIDTH - 4, bit % WIDTH - 4);
            rings[distance as usize] |= 1u128 << bit;
        }
        bit += 1;
    }
    rings
};

/// The cells of each row, A first.
pub const ROWS: [u128; 9] = {
    let mut rows = [0u128; 9];
    let mut r = 0;
    while r < 9 {
        rows[r] = BOARD & (0x3FFu128 << (r as i32 * WIDTH));
        r += 1;
    }
    rows
};

/// The cells of each diagonal, 1 first.
pub const DIAGONALS: [u128; 9] = {
    let mut diagonals = [0u128; 9];
    let mut bit = 0;
    while bit < 128 {
        if BOARD & (1u128 << bit) != 0 {
            diagonals[(bit % WIDTH) as usize] |= 1u128 << bit;
        }
        bit += 1;
    }
    diagonals
};

/// Steps between two cells `(dr, dd)` apart: the third cube coordinate of this
/// axial system is `dr - dd`.
#[inline]
pub const fn hex_distance(dr: i32, dd: i32) -> i32 {
    let a = dr.abs();
    let b = dd.abs();
    let c = (dr - dd).abs();
    let m = if a > b { a } else { b };
    if m > c { m } else { c }
}

/// Moves every bit of `mask` by `delta` positions (bits leaving the integer are
/// lost, which is right: they were off the board).
#[inline(always)]
pub const fn shift(mask: u128, delta: i32) -> u128 {
    if delta >= 0 {
        mask << delta
    } else {
        mask >> -delta
    }
}

/// One of the six directions, numbered so that `d` and `d + 3` are opposite and
/// 0, 1, 2 (east, north-east, north-west) are the three axes of lines.
///
/// With row A at the bottom: east is diagonal + 1, north-east row + 1 and
/// diagonal + 1 (a1 to b2), north-west row + 1 (a1 to b1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Direction(u8);

impl Direction {
    pub const EAST: Direction = Direction(0);
    pub const NORTH_EAST: Direction = Direction(1);
    pub const NORTH_WEST: Direction = Direction(2);
    pub const WEST: Direction = Direction(3);
    pub const SOUTH_WEST: Direction = Direction(4);
    pub const SOUTH_EAST: Direction = Direction(5);

    pub const ALL: [Direction; 6] = [
        Direction(0),
        Direction(1),
        Direction(2),
        Direction(3),
        Direction(4),
        Direction(5),
    ];

    /// Bit offsets in the padded grid, by direction index.
    pub const DELTAS: [i32; 6] = [1, WIDTH + 1, WIDTH, -1, -WIDTH - 1, -WIDTH];

    /// `index` in 0..6.
    #[inline]
    pub const fn from_index(index: u8) -> Direction {
        debug_assert!(index < 6);
        Direction(index)
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The bit offset of one step.
    #[inline]
    pub const fn delta(self) -> i32 {
        Direction::DELTAS[self.0 as usize]
    }

    /// `(row, diagonal)` offsets of one step.
    pub const fn offsets(self) -> (i32, i32) {
        match self.0 {
            0 => (0, 1),
            1 => (1, 1),
            2 => (1, 0),
            3 => (0, -1),
            4 => (-1, -1),
            _ => (-1, 0),
        }
    }

    #[inline]
    pub const fn opposite(self) -> Direction {
        Direction((self.0 + 3) % 6)
    }

    /// The line axis (0-2) this direction runs along.
    #[inline]
    pub const fn axis(self) -> u8 {
        self.0 % 3
    }

    /// The direction from `from` to a neighbouring `to`, if they are neighbours.
    pub fn between(from: Cell, to: Cell) -> Option<Direction> {
        let delta = to.0 as i32 - from.0 as i32;
        Direction::ALL.into_iter().find(|d| d.delta() == delta)
    }

    pub const fn name(self) -> &'static str {
        match self.0 {
            0 => "east",
            1 => "north-east",
            2 => "north-west",
            3 => "west",
            4 => "south-west",
            _ => "south-east",
        }
    }
}

/// A cell of the board, as its bit in the padded grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

/// Padded bit -> 0..61 (row A first), 255 off the board.
const COMPACT: [u8; 128] = {
    let mut table = [255u8; 128];
    let mut next = 0u8;
    let mut bit = 0;
    while bit < 128 {
        if BOARD & (1u128 << bit) != 0 {
            table[bit] = next;
            next += 1;
        }
        bit += 1;
    }
    table
};

/// 0..61 -> padded bit.
const PADDED: [u8; 61] = {
    let mut table = [0u8; 61];
    let mut bit = 0;
    while bit < 128 {
        if BOARD & (1u128 << bit) != 0 {
            table[COMPACT[bit] as usize] = bit as u8;
        }
        bit += 1;
    }
    table
};

impl Cell {
    /// (row, diagonal), both 0-based; `None` off the board.
    pub const fn at(row: i32, diagonal: i32) -> Option<Cell> {
        if on_board(row, diagonal) {
            Some(Cell((row * WIDTH + diagonal) as u8))
        } else {
            None
        }
    }

    /// The cell of a padded bit index that is known to be on the board.
    #[inline]
    pub const fn from_bit(bit: u32) -> Cell {
        debug_assert!(bit < 128 && BOARD & (1u128 << bit) != 0);
        Cell(bit as u8)
    }

    /// Every cell, a1 first, row by row.
    pub fn all() -> impl Iterator<Item = Cell> {
        PADDED.iter().map(|&bit| Cell(bit))
    }

    /// The bit index in the padded grid.
    #[inline]
    pub const fn bit_index(self) -> usize {
        self.0 as usize
    }

    /// 0..61, row A first: for tables indexed by cell.
    #[inline]
    pub const fn compact(self) -> usize {
        COMPACT[self.0 as usize] as usize
    }

    /// The cell numbered `index` (0..61) by [`Cell::compact`].
    #[inline]
    pub const fn from_compact(index: usize) -> Cell {
        Cell(PADDED[index])
    }

    /// 0 for row A.
    #[inline]
    pub const fn row(self) -> i32 {
        self.0 as i32 / WIDTH
    }

    /// 0 for diagonal 1.
    #[inline]
    pub const fn diagonal(self) -> i32 {
        self.0 as i32 % WIDTH
    }

    #[inline]
    pub const fn bit(self) -> u128 {
        1u128 << self.0
    }

    /// The neighbour in `dir`, or `None` off the board.
    #[inline]
    pub const fn step(self, dir: Direction) -> Option<Cell> {
        let (dr, dd) = dir.offsets();
        Cell::at(self.row() + dr, self.diagonal() + dd)
    }

    /// `steps` cells away in `dir`, or `None` off the board.
    pub const fn steps(self, dir: Direction, steps: i32) -> Option<Cell> {
        let (dr, dd) = dir.offsets();
        Cell::at(self.row() + dr * steps, self.diagonal() + dd * steps)
    }

    /// Reads `a1`..`i9` (either case); says which part is wrong otherwise.
    pub fn parse(text: &str) -> Result<Cell, String> {
        let bytes = text.as_bytes();
        let shown: String = text.chars().take(8).collect();
        if bytes.len() != 2 {
            return Err(format!(
                "{shown:?} is not a cell (a row a-i then a diagonal 1-9, like e5)"
            ));
        }
        let row = bytes[0].to_ascii_lowercase();
        let diagonal = bytes[1];
        if !(b'a'..=b'i').contains(&row) {
            return Err(format!("{shown:?} is not a cell: rows are a to i"));
        }
        if !(b'1'..=b'9').contains(&diagonal) {
            return Err(format!("{shown:?} is not a cell: diagonals are 1 to 9"));
        }
        Cell::at((row - b'a') as i32, (diagonal - b'1') as i32).ok_or_else(|| {
            let (low, high) = row_span((row - b'a') as i32);
            format!(
                "{}{} is off the board (row {} runs from {}{} to {}{})",
                row as char,
                diagonal as char,
                row.to_ascii_uppercase() as char,
                row as char,
                low + 1,
                row as char,
                high + 1
            )
        })
    }
}

/// The first and last diagonal (0-based) of a row.
pub const fn row_span(row: i32) -> (i32, i32) {
    let low = if row > 4 { row - 4 } else { 0 };
    let high = if row < 4 { row + 4 } else { 8 };
    (low, high)
}

/// `a1`: row letter, diagonal digit.
impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.row() as u8) as char,
            (b'1' + self.diagonal() as u8) as char
        )
    }
}

/// The cells of a mask, lowest bit first.
#[inline]
pub fn cells(mut mask: u128) -> impl Iterator<Item = Cell> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let bit = mask.trailing_zeros();
            mask &= mask - 1;
            Some(Cell::from_bit(bit))
        }
    })
}

/// Cells next to any cell of `mask` (on the board).
#[inline]
pub fn around(mask: u128) -> u128 {
    let mut out = 0;
    for delta in Direction::DELTAS {
        out |= shift(mask, delta);
    }
    out & BOARD
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_has_61_cells_24_on_the_rim() {
        assert_eq!(BOARD.count_ones(), 61);
        assert_eq!(RIM.count_ones(), 24);
        let sizes: Vec<u32> = RINGS.iter().map(|r| r.count_ones()).collect();
        assert_eq!(sizes, [1, 6, 12, 18, 24]);
        assert_eq!(RINGS[4], RIM);
        let rows: Vec<u32> = ROWS.iter().map(|r| r.count_ones()).collect();
        assert_eq!(rows, [5, 6, 7, 8, 9, 8, 7, 6, 5]);
        assert_eq!(Cell::all().count(), 61);
    }

    #[test]
    fn cells_read_and_write() {
        for cell in Cell::all() {
            assert_eq!(Cell::parse(&cell.to_string()), Ok(cell));
            assert_eq!(Cell::from_compact(cell.compact()), cell);
        }
        assert!(Cell::parse("b9").unwrap_err().contains("off the board"));
        assert!(Cell::parse("j1").unwrap_err().contains("rows are a to i"));
        assert!(Cell::parse("a0").unwrap_err().contains("diagonals"));
        assert_eq!(Cell::parse("E5").unwrap().to_string(), "e5");
    }

    #[test]
    fn neighbours_follow_the_rules_file() {
        let e5 = Cell::parse("e5").unwrap();
        let names: Vec<String> = Direction::ALL
            .iter()
            .map(|&d| e5.step(d).unwrap().to_string())
            .collect();
        assert_eq!(names, ["e6", "f6", "f5", "e4", "d4", "d5"]);
        for cell in Cell::all() {
            for dir in Direction::ALL {
                let by_shift = shift(cell.bit(), dir.delta()) & BOARD;
                let by_step = cell.step(dir).map_or(0, Cell::bit);
                assert_eq!(by_shift, by_step, "{cell} {}", dir.name());
            }
        }
    }
}
