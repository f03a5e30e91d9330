use crate::position::Phase;
use crate::{Escampe, Square};
use plateau_core::{Game, Side};
use std::fmt;

/// A board for people: each square shows its piece (or `.`) and its liseré.
impl fmt::Display for Escampe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "     A   B   C   D   E   F")?;
        for row in (0..6u8).rev() {
            write!(f, " {}  ", row + 1)?;
            for column in 0..6u8 {
                let square = Square::at(column, row);
                let piece = match self.piece_at(square) {
                    Some((Side::Black, true)) => 'N',
                    Some((Side::Black, false)) => 'n',
                    Some((Side::White, true)) => 'B',
                    Some((Side::White, false)) => 'b',
                    None => '.',
                };
                write!(f, " {piece}{} ", square.lisere())?;
            }
            writeln!(f, " {}", row + 1)?;
        }
        writeln!(f, "     A   B   C   D   E   F")?;
        writeln!(
            f,
            "  N/n black unicorn/paladin, B/b white unicorn/paladin; digit = liseré"
        )?;
        let side = self.side_to_move();
        match (self.outcome(), self.phase()) {
            (Some(outcome), _) => write!(f, "  game over: {outcome}"),
            (None, Phase::BlackPlaces | Phase::WhitePlaces) => {
                write!(f, "  {side} to place six pieces, unicorn first")
            }
            (None, Phase::Play) => match self.constraint() {
                Some(k) => write!(f, "  {side} to move from a liseré-{k} square"),
                None => write!(f, "  {side} to move, free (no liseré imposed)"),
            },
        }
    }
}
