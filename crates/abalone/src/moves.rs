//! The move: a group of 1-3 own marbles in a line and a direction.

use crate::board::{Cell, Direction, shift};
use std::fmt;
use std::num::NonZeroU8;

/// An Abalone move, four bytes.
///
/// Inline moves (along the group's line, single marbles included) are named by
/// the trailing marble, the direction, the group size and what they push; a
/// broadside by its lowest-numbered end, the axis of the line (east, north-east
/// or north-west), the direction and the size. Each (group, direction) pair has
/// exactly one value, so the two spellings of a broadside are one move. The
/// pushed count and the ejection flag are facts of the position the move was
/// generated in; they let `play` and `undo` work without looking around.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    cell: u8,
    dir: u8,
    /// Never zero, which leaves `Option<Move>` four bytes too.
    len: NonZeroU8,
    /// Bits 0-1: enemy marbles pushed; bit 2: the last one is ejected;
    /// bit 3: broadside; bits 4-5: the broadside's axis.
    info: u8,
}

const EJECTS: u8 = 4;

/// `len` as stored (callers always pass 1-3).
const fn size(len: u8) -> NonZeroU8 {
    match NonZeroU8::new(len) {
        Some(len) => len,
        None => NonZeroU8::MIN,
    }
}
const BROADSIDE: u8 = 8;

impl Move {
    /// An inline move of `len` marbles whose trailing marble is on `trailing`.
    #[inline]
    pub(crate) const fn inline(
        trailing: Cell,
        dir: Direction,
        len: u8,
        pushed: u8,
        ejects: bool,
    ) -> Move {
        Move {
            cell: trailing.bit_index() as u8,
            dir: dir.index() as u8,
            len: size(len),
            info: pushed | if ejects { EJECTS } else { 0 },
        }
    }

    /// A broadside of `len` marbles from `anchor` along `axis` (0-2).
    #[inline]
    pub(crate) const fn broadside(anchor: Cell, axis: u8, dir: Direction, len: u8) -> Move {
        Move {
            cell: anchor.bit_index() as u8,
            dir: dir.index() as u8,
            len: size(len),
            info: BROADSIDE | (axis << 4),
        }
    }

    /// Whether the group moves along its own line (single marbles do).
    #[inline]
    pub const fn is_inline(self) -> bool {
        self.info & BROADSIDE == 0
    }

    /// How many own marbles move (1-3).
    #[inline]
    pub const fn size(self) -> u8 {
        self.len.get()
    }

    #[inline]
    pub const fn direction(self) -> Direction {
        Direction::from_index(self.dir)
    }

    /// The trailing marble of an inline move, the lowest end of a broadside.
    #[inline]
    pub const fn cell(self) -> Cell {
        Cell::from_bit(self.cell as u32)
    }

    /// How many enemy marbles an inline move pushes (0-2).
    #[inline]
    pub const fn pushed(self) -> u8 {
        self.info & 3
    }

    /// Whether the move pushes an enemy marble off the board.
    #[inline]
    pub const fn ejects(self) -> bool {
        self.info & EJECTS != 0
    }

    /// The direction the group's line runs in: the move's own for inline moves,
    /// the axis (east, north-east or north-west) for a broadside.
    #[inline]
    pub const fn line(self) -> Direction {
        if self.is_inline() {
            self.direction()
        } else {
            Direction::from_index(self.info >> 4)
        }
    }

    /// The search's move code: every field side by side (cell 7 bits,
    /// direction 3, size 2, info 6), below 2^18 and exact.
    #[inline]
    pub(crate) const fn code(self) -> u32 {
        self.cell as u32
            | (self.dir as u32) << 7
            | (self.len.get() as u32) << 10
            | (self.info as u32) << 12
    }

    /// The own marbles that move, as a mask.
    #[inline]
    pub fn group(self) -> u128 {
        let step = self.line().delta();
        let mut mask = 1u128 << self.cell;
        let mut group = mask;
        for _ in 1..self.size() {
            mask = shift(mask, step);
            group |= mask;
        }
        group
    }

    /// The own marbles that move, from the trailing (or lowest) one.
    pub fn marbles(self) -> impl Iterator<Item = Cell> {
        let start = self.cell();
        let line = self.line();
        (0..self.size() as i32).filter_map(move |k| start.steps(line, k))
    }

    /// The own marbles the move empties and fills, as one mask to XOR in:
    /// the trailing cell and the one in front for an inline move, the group
    /// and its shifted copy for a broadside.
    #[inline]
    pub(crate) fn own_change(self) -> u128 {
        if self.is_inline() {
            self.cell().bit() | self.front().bit()
        } else {
            let group = self.group();
            group | shift(group, self.direction().delta())
        }
    }

    /// The cell a group's front marble moves into (inline), i.e. the first
    /// pushed marble's cell when it pushes.
    #[inline]
    pub(crate) fn front(self) -> Cell {
        Cell::from_bit((self.cell as i32 + self.size() as i32 * self.direction().delta()) as u32)
    }
}

/// Aba-Pro notation: inline `a1b2` (the trailing marble's from and to cells),
/// broadside `c6c7d6` (the two ends, lowest first, then the first one's
/// destination).
///
/// Every move the generator makes names cells on the board. Should one not
/// (a bug), debug builds stop there; release builds write `?` for the missing
/// cell rather than fail: a `Display` error would make `to_string` panic.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let start = self.cell();
        let to = start.step(self.direction());
        let end = if self.is_inline() {
            None
        } else {
            Some(start.steps(self.line(), self.size() as i32 - 1))
        };
        debug_assert!(
            to.is_some() && end.is_none_or(|end| end.is_some()),
            "a move off the board: {self:?}"
        );
        let cell = |cell: Option<Cell>| cell.map_or_else(|| "?".to_string(), |c| c.to_string());
        match end {
            None => write!(f, "{start}{}", cell(to)),
            Some(end) => write!(f, "{start}{}{}", cell(end), cell(to)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg_attr(debug_assertions, should_panic(expected = "a move off the board"))]
    fn a_move_off_the_board_is_caught_in_debug_and_written_in_release() {
        // A move the generator never makes: i9 stepping east, off the board.
        let i9 = Cell::parse("i9").unwrap();
        let mv = Move::inline(i9, Direction::EAST, 1, 0, false);
        assert_eq!(mv.to_string(), "i9?");
    }

    #[test]
    fn a_move_is_four_bytes() {
        assert_eq!(std::mem::size_of::<Move>(), 4);
        assert_eq!(std::mem::size_of::<Option<Move>>(), 4);
    }
}
