use std::fmt;

/// The liseré (border: 1, 2 or 3 lines) of every square, row 1 first, columns A-F.
/// Checked square by square against the tournament arbiter's own table.
const LISERE: [u8; 36] = [
    1, 2, 2, 3, 1, 2, // row 1
    3, 1, 3, 1, 3, 2, // row 2
    2, 3, 1, 2, 1, 3, // row 3
    2, 1, 3, 2, 3, 1, // row 4
    1, 3, 1, 3, 1, 2, // row 5
    3, 2, 2, 1, 3, 2, // row 6
];

/// A square of the 6x6 board: `(row - 1) * 6 + column`, so A1 = 0 and F6 = 35.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Every square, A1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..36).map(Square)
    }

    /// `index` in 0..36.
    #[inline]
    pub const fn from_index(index: u8) -> Square {
        debug_assert!(index < 36);
        Square(index)
    }

    /// Column 0..6 (A..F) and row 0..6 (1..6).
    #[inline]
    pub const fn at(column: u8, row: u8) -> Square {
        Square(row * 6 + column)
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0 for column A.
    #[inline]
    pub const fn column(self) -> u8 {
        self.0 % 6
    }

    /// 0 for row 1.
    #[inline]
    pub const fn row(self) -> u8 {
        self.0 / 6
    }

    /// The square's bit in a board mask.
    #[inline]
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// The number of lines around the square, which is also the number of steps a
    /// piece leaving it must make.
    #[inline]
    pub const fn lisere(self) -> u8 {
        LISERE[self.0 as usize]
    }

    /// Reads `A1`..`F6` (upper case only, as the arbiter requires).
    pub fn parse(text: &str) -> Result<Square, String> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return Err(format!(
                "{text:?} is not a square (a column A-F then a row 1-6, like B1)"
            ));
        }
        let (column, row) = (bytes[0], bytes[1]);
        if column.is_ascii_lowercase() && (b'a'..=b'f').contains(&column) {
            return Err(format!(
                "{text} is written in lower case; squares are upper case, like {}{}",
                column.to_ascii_uppercase() as char,
                row as char
            ));
        }
        if !(b'A'..=b'F').contains(&column) {
            return Err(format!("{text}: column must be A-F"));
        }
        if !(b'1'..=b'6').contains(&row) {
            return Err(format!("{text}: row must be 1-6"));
        }
        Ok(Square::at(column - b'A', row - b'1'))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'A' + self.column()) as char,
            (b'1' + self.row()) as char
        )
    }
}

/// Squares of each liseré as masks: `LISERE_MASK[k]` for k in 1..=3 (index 0 is the
/// whole board, the "free" constraint).
pub(crate) const LISERE_MASK: [u64; 4] = {
    let mut masks = [(1u64 << 36) - 1, 0, 0, 0];
    let mut i = 0;
    while i < 36 {
        masks[LISERE[i] as usize] |= 1u64 << i;
        i += 1;
    }
    masks
};

/// Orthogonal neighbours of each square as a mask.
pub(crate) const NEIGHBOURS: [u64; 36] = {
    let mut table = [0u64; 36];
    let mut i = 0;
    while i < 36 {
        let (c, r) = (i % 6, i / 6);
        let mut m = 0u64;
        if c > 0 {
            m |= 1 << (i - 1);
        }
        if c < 5 {
            m |= 1 << (i + 1);
        }
        if r > 0 {
            m |= 1 << (i - 6);
        }
        if r < 5 {
            m |= 1 << (i + 6);
        }
        table[i] = m;
        i += 1;
    }
    table
};

/// Rows 1-2 and rows 5-6: the two placement edges.
pub(crate) const BOTTOM_EDGE: u64 = (1u64 << 12) - 1;
pub(crate) const TOP_EDGE: u64 = BOTTOM_EDGE << 24;

/// Iterates over the squares of a mask, lowest first.
#[inline]
pub(crate) fn squares(mut mask: u64) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let index = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            Some(Square(index))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_display_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::parse(&sq.to_string()), Ok(sq));
        }
        assert_eq!(Square::parse("A1"), Ok(Square::from_index(0)));
        assert_eq!(Square::parse("F6"), Ok(Square::from_index(35)));
    }

    #[test]
    fn parse_rejects_bad_squares_with_reasons() {
        assert!(Square::parse("a1").unwrap_err().contains("lower case"));
        assert!(Square::parse("G1").unwrap_err().contains("column"));
        assert!(Square::parse("A7").unwrap_err().contains("row"));
        assert!(Square::parse("A").is_err());
        assert!(Square::parse("A10").is_err());
        assert!(Square::parse("").is_err());
        assert!(Square::parse("é1").is_err());
    }

    #[test]
    fn lisere_map_matches_the_brief() {
        // Row 6 of the brief's figure, read left to right: 3 2 2 1 3 2.
        let row6: Vec<u8> = (0..6).map(|c| Square::at(c, 5).lisere()).collect();
        assert_eq!(row6, [3, 2, 2, 1, 3, 2]);
        let row1: Vec<u8> = (0..6).map(|c| Square::at(c, 0).lisere()).collect();
        assert_eq!(row1, [1, 2, 2, 3, 1, 2]);
        // Twelve squares of each liseré.
        for mask in &LISERE_MASK[1..] {
            assert_eq!(mask.count_ones(), 12);
        }
    }

    #[test]
    fn corners_have_two_neighbours_and_centre_four() {
        assert_eq!(NEIGHBOURS[0].count_ones(), 2);
        assert_eq!(NEIGHBOURS[35].count_ones(), 2);
        assert_eq!(NEIGHBOURS[14].count_ones(), 4);
    }
}
