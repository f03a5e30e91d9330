use crate::Abalone;
use crate::board::{Cell, row_span};
use plateau_core::{Game, Side};
use std::fmt;

/// A board for people, rows I to A with Black (`b`) at the bottom, the row
/// letters on the left and the diagonal numbers along the lower edges:
///
/// ```text
///     I w w w w w
///    H w w w w w w
///   G . . w w w . .
///  F . . . . . . . .
/// E . . . . . . . . .
///  D . . . . . . . . 9
///   C . . b b b . . 8
///    B b b b b b b 7
///     A b b b b b 6
///        1 2 3 4 5
/// ```
impl fmt::Display for Abalone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..9).rev() {
            let (low, high) = row_span(row);
            let indent = (row - 4).unsigned_abs() as usize;
            write!(f, "{}{}", " ".repeat(indent), (b'A' + row as u8) as char)?;
            for diagonal in low..=high {
                let mark = match Cell::at(row, diagonal).and_then(|c| self.at(c)) {
                    Some(Side::Black) => 'b',
                    Some(Side::White) => 'w',
                    None => '.',
                };
                write!(f, " {mark}")?;
            }
            if row < 4 {
                write!(f, " {}", row + 6)?;
            }
            writeln!(f)?;
        }
        writeln!(f, "       1 2 3 4 5")?;
        write!(
            f,
            "  ejected: black {}, white {}; ",
            self.lost(Side::Black),
            self.lost(Side::White)
        )?;
        match self.outcome() {
            Some(outcome) => write!(f, "game over: {outcome}"),
            None => write!(f, "{} to move", self.side_to_move()),
        }
    }
}
