use crate::{Draughts, Square};
use plateau_core::{Game, Side};
use std::fmt;

/// A board for people, White at the bottom: `w`/`W` white man/king, `b`/`B`
/// black man/king, `.` an empty dark square; each row ends with the numbers of
/// its squares.
impl fmt::Display for Draughts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "   +---------------------+")?;
        for row in 0..10 {
            write!(f, "   |")?;
            for column in 0..10 {
                let cell = match Square::at(row, column) {
                    None => ' ',
                    Some(sq) => match self.piece_at(sq) {
                        Some((Side::White, false)) => 'w',
                        Some((Side::White, true)) => 'W',
                        Some((Side::Black, false)) => 'b',
                        Some((Side::Black, true)) => 'B',
                        None => '.',
                    },
                };
                write!(f, " {cell}")?;
            }
            let first = row * 5 + 1;
            writeln!(f, " |  {first:>2}-{}", first + 4)?;
        }
        writeln!(f, "   +---------------------+")?;
        writeln!(f, "   w/W white man/king, b/B black man/king")?;
        match self.outcome() {
            Some(outcome) => write!(f, "   game over: {outcome}"),
            None => {
                write!(f, "   {} to move", self.side_to_move())?;
                if self.s.reversible > 0 {
                    write!(
                        f,
                        " ({} of 50 plies of king moves without capture)",
                        self.s.reversible
                    )?;
                }
                let (plies, limit) = self.endgame_plies();
                if limit > 0 {
                    write!(f, " (lone-king ending: {plies} of {limit} plies)")?;
                }
                Ok(())
            }
        }
    }
}
