use crate::Square;
use crate::square::{from_dense, squares};
use plateau_core::splitmix64;
use std::fmt;
use std::num::NonZeroU64;

/// A draughts move: start, end and the set of pieces it takes.
///
/// Two capture sequences with the same start, end and captured *set* are one move
/// (the rules say so); the same start and end with different captured pieces are
/// two moves. The path itself is not stored: notation rebuilds it when it is
/// needed to tell two moves apart.
///
/// Packed in one non-zero `u64` (8 bytes, and `Option<Move>` too, for the search's
/// transposition table): bits 0-49 the captured squares (bit = square index),
/// bits 50-55 the start's board bit, 56-61 the end's, bit 63 always set.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(NonZeroU64);

const MARK: u64 = 1 << 63;
const DENSE_MASK: u64 = (1 << 50) - 1;

impl Move {
    /// A move between two board bits taking `captured` (a dense mask, bit = square
    /// index). The fast path: no checks.
    #[inline(always)]
    pub(crate) fn from_bits(from: u32, to: u32, captured: u64) -> Move {
        let packed = captured | (from as u64) << 50 | (to as u64) << 56 | MARK;
        Move(NonZeroU64::new(packed).unwrap_or(NonZeroU64::MIN))
    }

    /// A move that takes nothing.
    pub fn quiet(from: Square, to: Square) -> Move {
        Move::from_bits(from.bit_index(), to.bit_index(), 0)
    }

    /// A capture of the `captured` squares.
    pub fn capture(from: Square, to: Square, captured: impl IntoIterator<Item = Square>) -> Move {
        let dense = captured
            .into_iter()
            .fold(0u64, |mask, sq| mask | 1 << sq.index());
        Move::from_bits(from.bit_index(), to.bit_index(), dense)
    }

    #[inline(always)]
    pub(crate) fn start_bit(self) -> u32 {
        ((self.0.get() >> 50) & 63) as u32
    }

    #[inline(always)]
    pub(crate) fn end_bit(self) -> u32 {
        ((self.0.get() >> 56) & 63) as u32
    }

    pub fn from(self) -> Square {
        Square::from_bit_index(self.start_bit())
    }

    pub fn to(self) -> Square {
        Square::from_bit_index(self.end_bit())
    }

    /// The captured squares as a dense mask (bit = square index).
    #[inline(always)]
    pub fn captured_dense(self) -> u64 {
        self.0.get() & DENSE_MASK
    }

    /// The captured squares as a board mask.
    #[inline(always)]
    pub fn captured_mask(self) -> u64 {
        from_dense(self.captured_dense())
    }

    /// The captured squares, lowest number first.
    pub fn captured(self) -> impl Iterator<Item = Square> {
        squares(self.captured_mask())
    }

    #[inline(always)]
    pub fn is_capture(self) -> bool {
        self.captured_dense() != 0
    }

    /// How many pieces the move takes.
    pub fn capture_count(self) -> u32 {
        self.captured_dense().count_ones()
    }

    /// The search's move code, below 2^24: the start's and the end's board
    /// bits (6 bits each), and above them 12 bits of a hash of the captured
    /// set. Only captures with the same start and end can share a code, when
    /// they take different pieces and their hashes meet (one pair in 4096):
    /// distinct in practice, not by construction.
    #[inline]
    pub(crate) fn code(self) -> u32 {
        let ends = self.start_bit() | self.end_bit() << 6;
        ends | ((splitmix64(self.captured_dense()).1 >> 52) as u32) << 12
    }

    /// The Hub/DXP form: start, end, then every captured square (`28x19x23`), or
    /// `32-28` for a move that takes nothing. Unambiguous in every position.
    pub fn hub(self) -> String {
        if !self.is_capture() {
            return format!("{}-{}", self.from(), self.to());
        }
        let mut text = format!("{}x{}", self.from(), self.to());
        for sq in self.captured() {
            text.push('x');
            text.push_str(&sq.to_string());
        }
        text
    }
}

/// The short PDN form, `32-28` or `28x19`: what notation writes unless two legal
/// moves share start and end (then it gives the path, see `Draughts::format_move`).
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let separator = if self.is_capture() { 'x' } else { '-' };
        write!(f, "{}{separator}{}", self.from(), self.to())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({})", self.hub())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(n: u32) -> Square {
        Square::from_number(n).unwrap()
    }

    #[test]
    fn a_move_is_eight_bytes_even_optional() {
        assert_eq!(std::mem::size_of::<Move>(), 8);
        assert_eq!(std::mem::size_of::<Option<Move>>(), 8);
    }

    #[test]
    fn fields_round_trip() {
        let mv = Move::capture(sq(47), sq(36), [sq(42), sq(33), sq(19), sq(18)]);
        assert_eq!(mv.from(), sq(47));
        assert_eq!(mv.to(), sq(36));
        assert_eq!(mv.capture_count(), 4);
        assert_eq!(mv.to_string(), "47x36");
        assert_eq!(mv.hub(), "47x36x18x19x33x42");
        let quiet = Move::quiet(sq(32), sq(28));
        assert!(!quiet.is_capture());
        assert_eq!(quiet.to_string(), "32-28");
        assert_eq!(Move::quiet(sq(1), sq(50)).to(), sq(50));
    }
}
