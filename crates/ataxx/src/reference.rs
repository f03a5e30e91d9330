//! A slow, obviously-correct rules model, kept only to cross-check the fast one.
//!
//! A plain array of cells, loops over every cell and every pair of cells, and the
//! rules exactly as `docs/rules/ataxx.md` states them; no bit tricks. Tests compare
//! its move sets, results and resulting positions with [`crate::Ataxx`]'s and
//! [`crate::VirusGame`]'s on many random positions.

/// A cell of the reference model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RefCell {
    Empty,
    Blocked,
    Black,
    White,
}

/// The reference state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    pub n: usize,
    /// `cells[rank * n + file]`, rank 0 at the bottom.
    pub cells: Vec<RefCell>,
    pub black_to_move: bool,
    /// Full Ataxx (jumps, pass, clocks, repetition) rather than the virus game.
    pub full: bool,
    pub halfmove: u32,
    pub fullmove: u32,
}

impl Reference {
    fn mover(&self) -> RefCell {
        if self.black_to_move {
            RefCell::Black
        } else {
            RefCell::White
        }
    }

    fn opponent(&self) -> RefCell {
        if self.black_to_move {
            RefCell::White
        } else {
            RefCell::Black
        }
    }

    fn distance(&self, a: usize, b: usize) -> usize {
        let (fa, ra) = (a % self.n, a / self.n);
        let (fb, rb) = (b % self.n, b / self.n);
        fa.abs_diff(fb).max(ra.abs_diff(rb))
    }

    fn name(&self, index: usize) -> String {
        format!(
            "{}{}",
            (b'a' + (index % self.n) as u8) as char,
            index / self.n + 1
        )
    }

    fn count(&self, cell: RefCell) -> i32 {
        self.cells.iter().filter(|&&c| c == cell).count() as i32
    }

    /// Whether some stone of colour `who` has an empty cell within `reach`.
    fn can_move(&self, who: RefCell, reach: usize) -> bool {
        for a in 0..self.cells.len() {
            if self.cells[a] != who {
                continue;
            }
            for b in 0..self.cells.len() {
                if self.cells[b] == RefCell::Empty && self.distance(a, b) <= reach {
                    return true;
                }
            }
        }
        false
    }

    /// The board and side, the key of repetitions.
    pub fn key(&self) -> String {
        let mut key: String = self
            .cells
            .iter()
            .map(|c| match c {
                RefCell::Empty => '.',
                RefCell::Blocked => '-',
                RefCell::Black => 'x',
                RefCell::White => 'o',
            })
            .collect();
        key.push(if self.black_to_move { 'x' } else { 'o' });
        key
    }

    /// Whether the game is over; `earlier` holds the [`Reference::key`] of every
    /// position of the game before this one (full Ataxx's repetition rule).
    pub fn is_over(&self, earlier: &[String]) -> bool {
        if !self.full {
            return !self.can_move(self.mover(), 1);
        }
        if self.count(RefCell::Black) == 0 || self.count(RefCell::White) == 0 {
            return true;
        }
        if !self.can_move(RefCell::Black, 2) && !self.can_move(RefCell::White, 2) {
            return true;
        }
        if self.halfmove >= 100 {
            return true;
        }
        let key = self.key();
        earlier.iter().filter(|&k| *k == key).count() >= 2
    }

    /// Black's final margin (see the fast games' `final_score`), `None` while the
    /// game goes on.
    pub fn final_score(&self, earlier: &[String]) -> Option<i32> {
        if !self.is_over(earlier) {
            return None;
        }
        let black = self.count(RefCell::Black);
        let white = self.count(RefCell::White);
        if !self.full {
            let empty = self.count(RefCell::Empty);
            return Some(if self.black_to_move {
                black - white - empty
            } else {
                black - white + empty
            });
        }
        let decided = black == 0
            || white == 0
            || (!self.can_move(RefCell::Black, 2) && !self.can_move(RefCell::White, 2));
        Some(if decided { black - white } else { 0 })
    }

    /// Every legal move in notation, sorted; empty when the game is over.
    pub fn moves(&self, earlier: &[String]) -> Vec<String> {
        if self.is_over(earlier) {
            return Vec::new();
        }
        let me = self.mover();
        let mut moves = Vec::new();
        for to in 0..self.cells.len() {
            if self.cells[to] != RefCell::Empty {
                continue;
            }
            let mut clone = false;
            for from in 0..self.cells.len() {
                if self.cells[from] != me {
                    continue;
                }
                match self.distance(from, to) {
                    1 => clone = true,
                    2 if self.full => moves.push(format!("{}{}", self.name(from), self.name(to))),
                    _ => {}
                }
            }
            if clone {
                moves.push(self.name(to));
            }
        }
        if moves.is_empty() {
            // Only full Ataxx gets here with a live game: the forced pass.
            moves.push("0000".to_string());
        }
        moves.sort();
        moves
    }

    fn index_of(&self, name: &str) -> usize {
        let bytes = name.as_bytes();
        let file = (bytes[0] - b'a') as usize;
        let rank = (bytes[1] - b'1') as usize;
        rank * self.n + file
    }

    /// The position after `mv`, one of [`Reference::moves`].
    pub fn after(&self, mv: &str) -> Reference {
        let mut next = self.clone();
        let me = self.mover();
        let them = self.opponent();
        let clone = mv.len() == 2;
        if mv != "0000" {
            let to = self.index_of(&mv[mv.len() - 2..]);
            if !clone {
                next.cells[self.index_of(&mv[..2])] = RefCell::Empty;
            }
            next.cells[to] = me;
            for other in 0..self.cells.len() {
                if self.distance(other, to) == 1 && self.cells[other] == them {
                    next.cells[other] = me;
                }
            }
        }
        next.halfmove = if clone { 0 } else { self.halfmove + 1 };
        if !self.black_to_move {
            next.fullmove += 1;
        }
        next.black_to_move = !self.black_to_move;
        next
    }

    /// The position text, written independently of the fast model's.
    pub fn text(&self) -> String {
        let mut ranks = Vec::new();
        for rank in (0..self.n).rev() {
            let mut out = String::new();
            let mut run = 0;
            for file in 0..self.n {
                let letter = match self.cells[rank * self.n + file] {
                    RefCell::Empty => {
                        run += 1;
                        continue;
                    }
                    RefCell::Blocked => '-',
                    RefCell::Black => 'x',
                    RefCell::White => 'o',
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
            ranks.push(out);
        }
        let side = if self.black_to_move { "x" } else { "o" };
        if self.full {
            format!(
                "{} {side} {} {}",
                ranks.join("/"),
                self.halfmove,
                self.fullmove
            )
        } else {
            format!("{} {side}", ranks.join("/"))
        }
    }

    /// Reads a position text the simple way (no checks beyond what it needs).
    pub fn from_text(text: &str, full: bool) -> Option<Reference> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let ranks: Vec<&str> = fields.first()?.split('/').collect();
        let n = ranks.len();
        let mut cells = vec![RefCell::Empty; n * n];
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = n - 1 - i;
            let mut file = 0;
            for ch in rank_text.chars() {
                if let Some(run) = ch.to_digit(10) {
                    file += run as usize;
                    continue;
                }
                *cells.get_mut(rank * n + file)? = match ch {
                    'x' => RefCell::Black,
                    'o' => RefCell::White,
                    '-' => RefCell::Blocked,
                    _ => return None,
                };
                file += 1;
            }
        }
        let number =
            |i: usize, default: u32| fields.get(i).map_or(Some(default), |f| f.parse().ok());
        Some(Reference {
            n,
            cells,
            black_to_move: *fields.get(1)? == "x",
            full,
            halfmove: number(2, 0)?,
            fullmove: number(3, 1)?,
        })
    }
}
