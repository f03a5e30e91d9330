//! A slow, obviously-correct rules model, kept only to cross-check the fast one.
//!
//! A 50-cell array with row and column arithmetic, a recursive search of every
//! capture sequence that follows the rules word for word (a king tries every
//! landing square, in every direction), then the majority rule and the
//! removal of duplicates. Tests compare its move sets and resulting positions
//! with [`crate::Draughts`]'s on many random positions.

/// A square's content; `true` means White.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    Empty,
    Man(bool),
    King(bool),
}

impl Cell {
    fn owner(self) -> Option<bool> {
        match self {
            Cell::Empty => None,
            Cell::Man(white) | Cell::King(white) => Some(white),
        }
    }
}

/// A move of the reference model: square indices (0-49), captured sorted.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct RefMove {
    pub from: usize,
    pub to: usize,
    pub captured: Vec<usize>,
}

/// The reference state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    pub cells: [Cell; 50],
    pub white_to_move: bool,
}

const DIRECTIONS: [(i32, i32); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];

fn coordinates(index: usize) -> (i32, i32) {
    let row = (index / 5) as i32;
    let column = 2 * (index % 5) as i32 + if row % 2 == 0 { 1 } else { 0 };
    (row, column)
}

fn index_at(row: i32, column: i32) -> Option<usize> {
    if !(0..10).contains(&row) || !(0..10).contains(&column) || (row + column) % 2 == 0 {
        return None;
    }
    Some((row * 5 + column / 2) as usize)
}

impl Reference {
    /// Every complete capture sequence of the piece on `from`: (end, captured in
    /// order).
    fn sequences(&self, from: usize) -> Vec<(usize, Vec<usize>)> {
        let piece = self.cells[from];
        let Some(white) = piece.owner() else {
            return Vec::new();
        };
        let king = matches!(piece, Cell::King(_));
        let mut board = self.cells;
        board[from] = Cell::Empty;
        let mut out = Vec::new();
        Reference::search(&board, from, white, king, &mut Vec::new(), &mut out);
        out
    }

    fn search(
        board: &[Cell; 50],
        at: usize,
        white: bool,
        king: bool,
        captured: &mut Vec<usize>,
        out: &mut Vec<(usize, Vec<usize>)>,
    ) {
        let (row, column) = coordinates(at);
        let mut extended = false;
        for (dr, dc) in DIRECTIONS {
            let (mut r, mut c) = (row + dr, column + dc);
            if king {
                while index_at(r, c).is_some_and(|i| board[i] == Cell::Empty) {
                    r += dr;
                    c += dc;
                }
            }
            let Some(victim) = index_at(r, c) else {
                continue;
            };
            if board[victim].owner() != Some(!white) || captured.contains(&victim) {
                continue;
            }
            let (mut lr, mut lc) = (r + dr, c + dc);
            while let Some(landing) = index_at(lr, lc) {
                if board[landing] != Cell::Empty {
                    break;
                }
                extended = true;
                captured.push(victim);
                Reference::search(board, landing, white, king, captured, out);
                captured.pop();
                if !king {
                    break;
                }
                lr += dr;
                lc += dc;
            }
        }
        if !extended && !captured.is_empty() {
            out.push((at, captured.clone()));
        }
    }

    /// The legal moves, sorted, duplicates removed.
    pub fn moves(&self) -> Vec<RefMove> {
        let mut captures = Vec::new();
        for from in 0..50 {
            if self.cells[from].owner() != Some(self.white_to_move) {
                continue;
            }
            for (to, mut captured) in self.sequences(from) {
                captured.sort_unstable();
                captures.push(RefMove { from, to, captured });
            }
        }
        let mut moves = if captures.is_empty() {
            self.quiet_moves()
        } else {
            let most = captures.iter().map(|m| m.captured.len()).max().unwrap_or(0);
            captures.retain(|m| m.captured.len() == most);
            captures
        };
        moves.sort();
        moves.dedup();
        moves
    }

    fn quiet_moves(&self) -> Vec<RefMove> {
        let mut moves = Vec::new();
        for from in 0..50 {
            let cell = self.cells[from];
            if cell.owner() != Some(self.white_to_move) {
                continue;
            }
            let (row, column) = coordinates(from);
            for (dr, dc) in DIRECTIONS {
                match cell {
                    Cell::Man(white) => {
                        let forward = if white { -1 } else { 1 };
                        if dr != forward {
                            continue;
                        }
                        if let Some(to) = index_at(row + dr, column + dc)
                            && self.cells[to] == Cell::Empty
                        {
                            moves.push(RefMove {
                                from,
                                to,
                                captured: Vec::new(),
                            });
                        }
                    }
                    Cell::King(_) => {
                        let (mut r, mut c) = (row + dr, column + dc);
                        while let Some(to) = index_at(r, c) {
                            if self.cells[to] != Cell::Empty {
                                break;
                            }
                            moves.push(RefMove {
                                from,
                                to,
                                captured: Vec::new(),
                            });
                            r += dr;
                            c += dc;
                        }
                    }
                    Cell::Empty => {}
                }
            }
        }
        moves
    }

    /// The position after `mv`.
    pub fn after(&self, mv: &RefMove) -> Reference {
        let mut next = self.clone();
        let piece = self.cells[mv.from];
        for &sq in &mv.captured {
            next.cells[sq] = Cell::Empty;
        }
        next.cells[mv.from] = Cell::Empty;
        let far_row = if self.white_to_move { 0 } else { 9 };
        next.cells[mv.to] = match piece {
            Cell::Man(white) if coordinates(mv.to).0 == far_row => Cell::King(white),
            other => other,
        };
        next.white_to_move = !self.white_to_move;
        next
    }

    /// The position text, written independently of the fast model's.
    pub fn text(&self) -> String {
        let mut text = String::from(if self.white_to_move { "W" } else { "B" });
        for white in [true, false] {
            text.push_str(if white { ":W" } else { ":B" });
            let items: Vec<String> = (0..50)
                .filter_map(|i| match self.cells[i] {
                    Cell::Man(w) if w == white => Some(format!("{}", i + 1)),
                    Cell::King(w) if w == white => Some(format!("K{}", i + 1)),
                    _ => None,
                })
                .collect();
            text.push_str(&items.join(","));
        }
        text
    }

    /// Reads a position text the simple way (lists of numbers, `K`, ranges).
    pub fn from_text(text: &str) -> Option<Reference> {
        let mut fields = text.trim().trim_end_matches('.').split(':');
        let white_to_move = match fields.next()? {
            "W" => true,
            "B" => false,
            _ => return None,
        };
        let mut cells = [Cell::Empty; 50];
        for field in fields {
            let white = field.starts_with('W');
            for item in field.get(1..)?.split(',').filter(|s| !s.is_empty()) {
                let (king, body) = match item.strip_prefix('K') {
                    Some(rest) => (true, rest),
                    None => (false, item),
                };
                let (a, b) = body.split_once('-').unwrap_or((body, body));
                let (a, b): (usize, usize) = (a.parse().ok()?, b.parse().ok()?);
                for n in a..=b {
                    *cells.get_mut(n.checked_sub(1)?)? = if king {
                        Cell::King(white)
                    } else {
                        Cell::Man(white)
                    };
                }
            }
        }
        Some(Reference {
            cells,
            white_to_move,
        })
    }
}
