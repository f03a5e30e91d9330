use crate::Square;
use std::fmt;

/// A move of either game: 3 bytes, `Copy`, readable without the board.
///
/// The virus game only ever has clones (there called drops); full Ataxx adds
/// jumps and the forced pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A new stone on an empty cell next to one of the mover's stones; written
    /// as the target cell, `b6`.
    Clone(Square),
    /// A stone moves to an empty cell exactly two cells away (Chebyshev),
    /// leaving its origin empty; written origin then target, `g1e3`.
    Jump(Square, Square),
    /// The move of a side that has no other while the game goes on; `0000`.
    Pass,
}

impl Move {
    /// The cell the move fills, if any.
    #[inline]
    pub fn target(self) -> Option<Square> {
        match self {
            Move::Clone(to) | Move::Jump(_, to) => Some(to),
            Move::Pass => None,
        }
    }

    /// The search's move code, below 2^18 and exact: a kind (clone 1, jump 2,
    /// pass 3) above the origin's and the target's packed squares, 8 bits each.
    #[inline]
    pub(crate) fn code(self) -> u32 {
        let packed = |sq: Square| (sq.rank() * 16 + sq.file()) as u32;
        match self {
            Move::Clone(to) => 1 << 16 | packed(to),
            Move::Jump(from, to) => 2 << 16 | packed(from) << 8 | packed(to),
            Move::Pass => 3 << 16,
        }
    }
}

/// The UAI notation: `b6`, `g1e3`, `0000`.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Clone(to) => write!(f, "{to}"),
            Move::Jump(from, to) => write!(f, "{from}{to}"),
            Move::Pass => f.write_str("0000"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_small_and_written_as_uai_does() {
        assert!(std::mem::size_of::<Move>() <= 4);
        assert!(std::mem::size_of::<Option<Move>>() <= 4);
        assert_eq!(Move::Clone(Square::at(1, 5)).to_string(), "b6");
        assert_eq!(
            Move::Jump(Square::at(6, 0), Square::at(4, 2)).to_string(),
            "g1e3"
        );
        assert_eq!(Move::Pass.to_string(), "0000");
    }
}
