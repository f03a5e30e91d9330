//! A slow, obviously-correct rules model, kept only to cross-check the fast one.
//!
//! An array board, a recursive path search and the rules as the brief states them,
//! with no bit tricks. Tests compare its move sets and resulting positions with
//! [`crate::Escampe`]'s on many random positions.

use crate::Square;

/// A square's content in the reference model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    Empty,
    Paladin(bool),
    Unicorn(bool),
}

/// The reference state; `true` means White.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    pub cells: [Cell; 36],
    pub white_to_move: bool,
    /// 0 when free.
    pub constraint: u8,
}

impl Reference {
    fn owner(cell: Cell) -> Option<bool> {
        match cell {
            Cell::Empty => None,
            Cell::Paladin(white) | Cell::Unicorn(white) => Some(white),
        }
    }

    fn neighbours(index: usize) -> Vec<usize> {
        let (column, row) = (index % 6, index / 6);
        let mut out = Vec::new();
        if column > 0 {
            out.push(index - 1);
        }
        if column < 5 {
            out.push(index + 1);
        }
        if row > 0 {
            out.push(index - 6);
        }
        if row < 5 {
            out.push(index + 6);
        }
        out
    }

    /// Every path of exactly `steps_left` steps from `at`, never revisiting a
    /// square and crossing only empty squares; records the arrival squares.
    fn walk(&self, at: usize, steps_left: u8, visited: &mut Vec<usize>, ends: &mut Vec<usize>) {
        if steps_left == 0 {
            ends.push(at);
            return;
        }
        for next in Reference::neighbours(at) {
            if visited.contains(&next) {
                continue;
            }
            // Only the arrival square may be occupied.
            if steps_left > 1 && self.cells[next] != Cell::Empty {
                continue;
            }
            visited.push(next);
            self.walk(next, steps_left - 1, visited, ends);
            visited.pop();
        }
    }

    /// The legal (from, to) moves of the side to move, sorted, duplicates removed;
    /// an empty list means the side must pass.
    pub fn steps(&self) -> Vec<(usize, usize)> {
        let mut moves = Vec::new();
        for from in 0..36 {
            let cell = self.cells[from];
            if Reference::owner(cell) != Some(self.white_to_move) {
                continue;
            }
            let lisere = Square::from_index(from as u8).lisere();
            if self.constraint != 0 && lisere != self.constraint {
                continue;
            }
            let mut ends = Vec::new();
            self.walk(from, lisere, &mut vec![from], &mut ends);
            for to in ends {
                let allowed = match self.cells[to] {
                    Cell::Empty => true,
                    Cell::Unicorn(white) => {
                        white != self.white_to_move && matches!(cell, Cell::Paladin(_))
                    }
                    Cell::Paladin(_) => false,
                };
                if allowed {
                    moves.push((from, to));
                }
            }
        }
        moves.sort_unstable();
        moves.dedup();
        moves
    }

    /// The position after a step (or a pass when `step` is `None`).
    pub fn after(&self, step: Option<(usize, usize)>) -> Reference {
        let mut next = self.clone();
        next.white_to_move = !self.white_to_move;
        match step {
            Some((from, to)) => {
                next.cells[to] = self.cells[from];
                next.cells[from] = Cell::Empty;
                next.constraint = Square::from_index(to as u8).lisere();
            }
            None => next.constraint = 0,
        }
        next
    }

    /// The position text, written independently of the fast model's.
    pub fn text(&self) -> String {
        let mut rows = Vec::new();
        for row in (0..6).rev() {
            let mut out = String::new();
            let mut run = 0;
            for column in 0..6 {
                let letter = match self.cells[row * 6 + column] {
                    Cell::Empty => {
                        run += 1;
                        continue;
                    }
                    Cell::Unicorn(false) => 'N',
                    Cell::Paladin(false) => 'n',
                    Cell::Unicorn(true) => 'B',
                    Cell::Paladin(true) => 'b',
                };
                if run > 0 {
                    out += &run.to_string();
                    run = 0;
                }
                out.push(letter);
            }
            if run > 0 {
                out += &run.to_string();
            }
            rows.push(out);
        }
        let side = if self.white_to_move { "w" } else { "b" };
        let constraint = match self.constraint {
            0 => "-".to_string(),
            k => k.to_string(),
        };
        format!("{} {side} {constraint}", rows.join("/"))
    }

    /// Reads the board part of a position text the simple way.
    pub fn from_text(text: &str) -> Option<Reference> {
        let mut fields = text.split_whitespace();
        let board = fields.next()?;
        let side = fields.next()?;
        let constraint = fields.next()?;
        let mut cells = [Cell::Empty; 36];
        for (i, row_text) in board.split('/').enumerate() {
            let row = 5 - i;
            let mut column = 0;
            for ch in row_text.chars() {
                if let Some(run) = ch.to_digit(10) {
                    column += run as usize;
                    continue;
                }
                cells[row * 6 + column] = match ch {
                    'N' => Cell::Unicorn(false),
                    'n' => Cell::Paladin(false),
                    'B' => Cell::Unicorn(true),
                    'b' => Cell::Paladin(true),
                    _ => return None,
                };
                column += 1;
            }
        }
        Some(Reference {
            cells,
            white_to_move: side == "w",
            constraint: constraint.parse().unwrap_or(0),
        })
    }
}
