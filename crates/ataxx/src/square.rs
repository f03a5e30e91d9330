use crate::bits::Bits;
use std::fmt;

/// A cell, by file and rank, independent of the board size and bit layout:
/// `a1` is file 0, rank 0 (bottom-left). Packed as `rank * 16 + file`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

/// Largest board side any game accepts (files a-i, ranks 1-9).
pub(crate) const MAX_SIDE: usize = 9;

impl Square {
    /// File 0.. (a..) and rank 0.. (1..), both below 9.
    #[inline]
    pub const fn at(file: usize, rank: usize) -> Square {
        debug_assert!(file < MAX_SIDE && rank < MAX_SIDE);
        Square((rank * 16 + file) as u8)
    }

    /// 0 for file a.
    #[inline]
    pub const fn file(self) -> usize {
        (self.0 & 15) as usize
    }

    /// 0 for rank 1.
    #[inline]
    pub const fn rank(self) -> usize {
        (self.0 >> 4) as usize
    }

    /// The cell's bit index in the layout of `B`.
    #[inline]
    pub fn index<B: Bits>(self) -> usize {
        self.rank() * B::STRIDE + self.file()
    }

    /// The cell of bit `index` in the layout of `B`.
    #[inline]
    pub fn from_index<B: Bits>(index: usize) -> Square {
        Square::at(index % B::STRIDE, index / B::STRIDE)
    }

    /// Chebyshev distance: 1 for a clone, 2 for a jump.
    pub fn distance(self, other: Square) -> usize {
        self.file()
            .abs_diff(other.file())
            .max(self.rank().abs_diff(other.rank()))
    }

    /// Reads a cell like `b6` on an `n x n` board; the error says what is wrong.
    pub fn parse(text: &str, n: usize) -> Result<Square, String> {
        let bytes = text.as_bytes();
        let shown: String = text.chars().take(12).collect();
        if bytes.len() != 2 {
            return Err(format!(
                "{shown:?} is not a cell (a file letter then a rank digit, like b6)"
            ));
        }
        let (file, rank) = (bytes[0], bytes[1]);
        if file.is_ascii_uppercase() {
            return Err(format!(
                "{shown} is upper case; cells are written in lower case, like {}{}",
                file.to_ascii_lowercase() as char,
                rank as char
            ));
        }
        if !file.is_ascii_lowercase() || !rank.is_ascii_digit() {
            return Err(format!(
                "{shown:?} is not a cell (a file letter then a rank digit, like b6)"
            ));
        }
        let (file, rank) = ((file - b'a') as usize, rank as usize);
        let rank = rank.wrapping_sub(b'1' as usize);
        if file >= n || rank >= n {
            return Err(format!(
                "{shown} is off the board (files a-{}, ranks 1-{n})",
                (b'a' + n as u8 - 1) as char
            ));
        }
        Ok(Square::at(file, rank))
    }
}

/// `b6`.
impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file() as u8) as char,
            self.rank() + 1
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_round_trip_in_both_layouts() {
        for rank in 0..9 {
            for file in 0..9 {
                let sq = Square::at(file, rank);
                assert_eq!(Square::parse(&sq.to_string(), 9), Ok(sq));
                assert_eq!(Square::from_index::<u128>(sq.index::<u128>()), sq);
                if file < 8 && rank < 8 {
                    assert_eq!(Square::from_index::<u64>(sq.index::<u64>()), sq);
                }
            }
        }
        assert!(
            Square::parse("h1", 7)
                .unwrap_err()
                .contains("off the board")
        );
        assert!(
            Square::parse("a0", 7)
                .unwrap_err()
                .contains("off the board")
        );
        assert!(Square::parse("B6", 7).unwrap_err().contains("lower case"));
        assert!(Square::parse("b", 7).unwrap_err().contains("not a cell"));
        assert!(Square::parse("é1", 7).is_err());
    }
}
