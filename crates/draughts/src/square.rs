//! Squares and the bitboard layout.
//!
//! The 50 playable squares live in a 64-bit word with one *ghost* bit after every
//! ten squares (bit = index + index / 10, ghosts at 10, 21, 32 and 43). With that
//! padding every diagonal step is a plain shift on the whole board: −6 up-left,
//! −5 up-right, +5 down-left, +6 down-right ("up" is towards square 1, where White
//! men go), and a step off the board always lands on a ghost or outside the
//! 54 bits, never on a real square.

use std::fmt;

/// A playable square, numbered 1-50 as on a competition board (square 1 is Black's
/// top-left dark square, 50 White's bottom-right). Stored as the index 0..50.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Every square, 1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..50).map(Square)
    }

    /// `index` in 0..50 (the square number minus one).
    #[inline]
    pub const fn from_index(index: u8) -> Square {
        debug_assert!(index < 50);
        Square(index)
    }

    /// The square with this number (1-50), if there is one.
    pub const fn from_number(number: u32) -> Option<Square> {
        if number >= 1 && number <= 50 {
            Some(Square(number as u8 - 1))
        } else {
            None
        }
    }

    /// The square whose bit is `bit` in the board layout (`bit` must be a real
    /// square's bit).
    #[inline]
    pub const fn from_bit_index(bit: u32) -> Square {
        Square((bit - bit / 11) as u8)
    }

    /// 0..50.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 1..=50, the number written in notation.
    #[inline]
    pub const fn number(self) -> u8 {
        self.0 + 1
    }

    /// 0 for the top row (squares 1-5, Black's back row) to 9 (46-50, White's).
    #[inline]
    pub const fn row(self) -> u8 {
        self.0 / 5
    }

    /// 0 (left, seen from White) to 9.
    #[inline]
    pub const fn column(self) -> u8 {
        let within = (self.0 % 5) * 2;
        if self.row().is_multiple_of(2) {
            within + 1
        } else {
            within
        }
    }

    /// The square at `row` and `column`, if that is a dark square of the board.
    pub const fn at(row: i32, column: i32) -> Option<Square> {
        if row < 0 || row > 9 || column < 0 || column > 9 || (row + column) % 2 == 0 {
            return None;
        }
        Some(Square((row * 5 + column / 2) as u8))
    }

    /// The position of the square's bit in a board mask.
    #[inline]
    pub const fn bit_index(self) -> u32 {
        self.0 as u32 + self.0 as u32 / 10
    }

    /// The square's bit in a board mask.
    #[inline]
    pub const fn bit(self) -> u64 {
        1u64 << self.bit_index()
    }

    /// Reads a square number, `1`..`50`.
    pub fn parse(text: &str) -> Result<Square, String> {
        if text.is_empty() {
            return Err("a square number is missing".into());
        }
        if !text.bytes().all(|b| b.is_ascii_digit()) {
            let shown: String = text.chars().take(12).collect();
            return Err(format!("{shown:?} is not a square number (1-50)"));
        }
        match text.parse::<u32>().ok().and_then(Square::from_number) {
            Some(square) => Ok(square),
            None => {
                let shown: String = text.chars().take(12).collect();
                Err(format!("{shown} is off the board (squares are 1-50)"))
            }
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// Every real square's bit.
pub const BOARD: u64 = {
    let mut mask = 0u64;
    let mut i = 0;
    while i < 50 {
        mask |= Square::from_index(i).bit();
        i += 1;
    }
    mask
};

/// The squares of a row (0 = squares 1-5).
pub const fn row_mask(row: u8) -> u64 {
    let mut mask = 0u64;
    let mut i = row * 5;
    while i < row * 5 + 5 {
        mask |= Square::from_index(i).bit();
        i += 1;
    }
    mask
}

/// The squares of a column (0 = the left edge seen from White).
pub const fn column_mask(column: u8) -> u64 {
    let mut mask = 0u64;
    let mut i = 0;
    while i < 50 {
        if Square::from_index(i).column() == column {
            mask |= Square::from_index(i).bit();
        }
        i += 1;
    }
    mask
}

/// The squares of a set of rows, `first..=last`.
pub const fn rows_mask(first: u8, last: u8) -> u64 {
    let mut mask = 0u64;
    let mut row = first;
    while row <= last {
        mask |= row_mask(row);
        row += 1;
    }
    mask
}

/// The squares listed by number.
pub const fn squares_mask(numbers: &[u8]) -> u64 {
    let mut mask = 0u64;
    let mut i = 0;
    while i < numbers.len() {
        mask |= Square::from_index(numbers[i] - 1).bit();
        i += 1;
    }
    mask
}

/// The far row of each side: where its men are crowned (White: 1-5, Black: 46-50).
pub const PROMOTION: [u64; 2] = [row_mask(0), row_mask(9)];

/// The four diagonal directions, as bit offsets: up-left, up-right, down-left,
/// down-right. White men move along the first two, Black men along the last two.
pub const DIRECTIONS: [i32; 4] = [-6, -5, 5, 6];

/// The index of the opposite direction.
pub const fn reverse(direction: usize) -> usize {
    3 - direction
}

/// The two directions at right angles to `direction`.
pub const fn perpendicular(direction: usize) -> [usize; 2] {
    match direction {
        0 | 3 => [1, 2],
        _ => [0, 3],
    }
}

/// Row and column steps of each direction.
const STEPS: [(i32, i32); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];

/// `RAYS[direction][bit]`: the squares a king on that bit sees along the
/// direction on an empty board, nearest first (a mask). Zero for ghost bits.
pub static RAYS: [[u64; 64]; 4] = {
    let mut rays = [[0u64; 64]; 4];
    let mut d = 0;
    while d < 4 {
        let mut i = 0;
        while i < 50 {
            let from = Square::from_index(i);
            let (dr, dc) = STEPS[d];
            let mut row = from.row() as i32 + dr;
            let mut column = from.column() as i32 + dc;
            let mut mask = 0u64;
            while let Some(sq) = Square::at(row, column) {
                mask |= sq.bit();
                row += dr;
                column += dc;
            }
            rays[d][from.bit_index() as usize] = mask;
            i += 1;
        }
        d += 1;
    }
    rays
};

/// `RAYS[direction][bit]`, without bounds checks in the hot loops.
#[inline(always)]
pub fn ray(direction: usize, bit: u32) -> u64 {
    RAYS[direction & 3][bit as usize & 63]
}

/// The square of `mask` nearest to the ray's origin, for a ray in `direction`
/// (`mask` must not be empty).
#[inline(always)]
pub fn nearest(direction: usize, mask: u64) -> u32 {
    if direction < 2 {
        63 - mask.leading_zeros()
    } else {
        mask.trailing_zeros()
    }
}

/// The square of `mask` farthest from the ray's origin (`mask` not empty).
#[inline(always)]
pub fn farthest(direction: usize, mask: u64) -> u32 {
    nearest(reverse(direction), mask)
}

/// The squares from `origin` along `direction` up to the first occupied one,
/// that one excluded: where a king may move. `occupied` is every piece.
#[inline(always)]
pub fn free_run(direction: usize, origin: u32, occupied: u64) -> u64 {
    let ray = ray(direction, origin);
    let blockers = ray & occupied;
    if blockers == 0 {
        ray
    } else {
        let stop = nearest(direction, blockers);
        ray & !self::ray(direction, stop) & !(1u64 << stop)
    }
}

/// One diagonal step of every square of `mask` in `direction`.
#[inline(always)]
pub const fn shift(direction: usize, mask: u64) -> u64 {
    match direction {
        0 => mask >> 6,
        1 => mask >> 5,
        2 => mask << 5,
        _ => mask << 6,
    }
}

/// A board mask over ghost-layout bits turned into a dense mask (bit `index`),
/// the form moves store.
#[inline]
pub const fn to_dense(mask: u64) -> u64 {
    const TEN: u64 = 0x3FF;
    (mask & TEN)
        | ((mask >> 1) & (TEN << 10))
        | ((mask >> 2) & (TEN << 20))
        | ((mask >> 3) & (TEN << 30))
        | ((mask >> 4) & (TEN << 40))
}

/// The inverse of [`to_dense`].
#[inline]
pub const fn from_dense(dense: u64) -> u64 {
    const TEN: u64 = 0x3FF;
    (dense & TEN)
        | ((dense & (TEN << 10)) << 1)
        | ((dense & (TEN << 20)) << 2)
        | ((dense & (TEN << 30)) << 3)
        | ((dense & (TEN << 40)) << 4)
}

/// The squares of a board mask (ghost layout), lowest first.
#[inline]
pub fn squares(mask: u64) -> impl Iterator<Item = Square> {
    bits(mask).map(Square::from_bit_index)
}

/// The bit positions set in `mask`, lowest first.
#[inline]
pub fn bits(mut mask: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let bit = mask.trailing_zeros();
            mask &= mask - 1;
            Some(bit)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_matches_the_competition_board() {
        let sq = |n: u32| Square::from_number(n).unwrap();
        assert_eq!((sq(1).row(), sq(1).column()), (0, 1));
        assert_eq!((sq(5).row(), sq(5).column()), (0, 9));
        assert_eq!((sq(6).row(), sq(6).column()), (1, 0));
        assert_eq!((sq(46).row(), sq(46).column()), (9, 0));
        assert_eq!((sq(50).row(), sq(50).column()), (9, 8));
        for s in Square::all() {
            assert_eq!(Square::at(s.row() as i32, s.column() as i32), Some(s));
            assert_eq!(Square::from_bit_index(s.bit_index()), s);
        }
        assert_eq!(BOARD.count_ones(), 50);
    }

    #[test]
    fn a_shift_is_a_diagonal_step_and_never_wraps() {
        for s in Square::all() {
            for (d, &(dr, dc)) in STEPS.iter().enumerate() {
                let expected = Square::at(s.row() as i32 + dr, s.column() as i32 + dc);
                let stepped = shift(d, s.bit()) & BOARD;
                assert_eq!(stepped, expected.map_or(0, |t| t.bit()), "{s} dir {d}");
                // Two steps (a man's jump) never wrap either.
                let expected2 = Square::at(s.row() as i32 + 2 * dr, s.column() as i32 + 2 * dc);
                if expected.is_none() {
                    assert_eq!(shift(d, s.bit()) & BOARD, 0);
                } else {
                    assert_eq!(
                        shift(d, shift(d, s.bit())) & BOARD,
                        expected2.map_or(0, |t| t.bit())
                    );
                }
            }
        }
    }

    #[test]
    fn dense_masks_round_trip() {
        assert_eq!(to_dense(BOARD), (1u64 << 50) - 1);
        for s in Square::all() {
            assert_eq!(to_dense(s.bit()), 1u64 << s.index());
            assert_eq!(from_dense(1u64 << s.index()), s.bit());
        }
    }

    #[test]
    fn rays_run_to_the_edge() {
        let sq = |n: u32| Square::from_number(n).unwrap();
        let ray: Vec<u8> = squares(RAYS[0][sq(28).bit_index() as usize])
            .map(|s| s.number())
            .collect();
        assert_eq!(ray, [6, 11, 17, 22]);
        let ray: Vec<u8> = squares(RAYS[3][sq(1).bit_index() as usize])
            .map(|s| s.number())
            .collect();
        assert_eq!(ray, [7, 12, 18, 23, 29, 34, 40, 45]);
    }
}
