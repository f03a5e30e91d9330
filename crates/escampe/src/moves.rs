use crate::Square;
use crate::square::{BOTTOM_EDGE, TOP_EDGE, squares};
use plateau_core::splitmix64;
use std::fmt;

/// An Escampe move: a placement of six pieces, a step of one piece, or a pass.
///
/// A step is identified by its from and to squares alone (several paths to the
/// same square are one move); a placement by its squares and which one holds the
/// unicorn (the order of the paladins does not matter).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Six pieces onto an edge: the unicorn's square and the paladins' squares.
    Place { unicorn: Square, paladins: u64 },
    /// A piece moves from one square to another, capturing the unicorn there if any.
    Step { from: Square, to: Square },
    /// The forced pass, written `E`; legal only when nothing else is.
    Pass,
}

impl Move {
    /// The squares of a placement, unicorn included.
    pub fn placement_squares(&self) -> u64 {
        match *self {
            Move::Place { unicorn, paladins } => paladins | unicorn.bit(),
            _ => 0,
        }
    }

    /// The search's move code, below 2^24 and exact: a step is
    /// `from * 36 + to`, the pass 1296, and a placement sets bit 23 above its
    /// edge (bit 16), the unicorn's place in the edge's twelve squares (bits
    /// 12-15) and the six squares (bits 0-11). A placement off the two edges,
    /// which the rules never allow, gets a hash instead.
    pub(crate) fn code(self) -> u32 {
        match self {
            Move::Step { from, to } => (from.index() * 36 + to.index()) as u32,
            Move::Pass => 36 * 36,
            Move::Place { unicorn, paladins } => {
                let all = paladins | unicorn.bit();
                let (top, shift) = if all & !BOTTOM_EDGE == 0 {
                    (0, 0)
                } else if all & !TOP_EDGE == 0 {
                    (1, 24)
                } else {
                    let mixed = splitmix64(paladins ^ (unicorn.index() as u64) << 58).1;
                    return (mixed >> 40) as u32;
                };
                1 << 23 | top << 16 | (unicorn.index() as u32 - shift) << 12 | (all >> shift) as u32
            }
        }
    }
}

/// The arbiter's notation: `B1-D1`, `C6/A6/B5/D5/E6/F5` (unicorn first, then the
/// paladins from A1 upwards), `E`.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Place { unicorn, paladins } => {
                write!(f, "{unicorn}")?;
                for sq in squares(paladins) {
                    write!(f, "/{sq}")?;
                }
                Ok(())
            }
            Move::Step { from, to } => write!(f, "{from}-{to}"),
            Move::Pass => f.write_str("E"),
        }
    }
}
