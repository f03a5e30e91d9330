use crate::Square;
use crate::square::squares;
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
