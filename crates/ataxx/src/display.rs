use crate::bits::Bits;
use crate::board::{Board, Cell};
use crate::text::side_letter;
use crate::{Ataxx, Square, VirusGame};
use plateau_core::{Game, Side};
use std::fmt;

/// The board with rank numbers and file letters: `x`, `o`, `#` blocked, `.` empty.
fn draw<B: Bits>(f: &mut fmt::Formatter<'_>, board: &Board<B>) -> fmt::Result {
    let n = board.n();
    let files: String = (0..n)
        .map(|file| format!(" {}", (b'a' + file as u8) as char))
        .collect();
    for rank in (0..n).rev() {
        write!(f, " {} ", rank + 1)?;
        for file in 0..n {
            let symbol = match board.cell(Square::at(file, rank)) {
                Cell::Empty => '.',
                Cell::Blocked => '#',
                Cell::Stone(side) => side_letter(side),
            };
            write!(f, " {symbol}")?;
        }
        writeln!(f)?;
    }
    writeln!(f, "   {files}")?;
    write!(
        f,
        "  stones: x {}, o {}",
        board.count(Side::Black),
        board.count(Side::White)
    )
}

fn status<G: Game>(f: &mut fmt::Formatter<'_>, game: &G) -> fmt::Result {
    match game.outcome() {
        Some(outcome) => write!(f, "  game over: {outcome}"),
        None => {
            let side = game.side_to_move();
            write!(f, "  {} ({side}) to move", side_letter(side))
        }
    }
}

impl fmt::Display for Ataxx {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        draw(f, self.board())?;
        writeln!(
            f,
            "; halfmove clock {}, move {}",
            self.halfmove_clock(),
            self.fullmove_number()
        )?;
        status(f, self)
    }
}

impl<B: Bits> fmt::Display for VirusGame<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        draw(f, self.board())?;
        writeln!(f)?;
        status(f, self)?;
        if let Some(score) = self.final_score() {
            write!(f, "; final margin for x: {score:+}")?;
        }
        Ok(())
    }
}
