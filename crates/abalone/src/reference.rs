//! A slow, obviously-correct rules model, kept only to cross-check the fast one.
//!
//! Cells are (row, diagonal) pairs and the board an array; moves are found by
//! trying every group of 1-3 own marbles in every direction, exactly as the rules
//! file words it, with no bit tricks and no shared code with the fast generator.

/// (row, diagonal), both 0-based (a1 = (0, 0)).
pub type Coord = (i32, i32);

/// The six neighbour offsets, as the rules file lists them.
pub const DIRECTIONS: [Coord; 6] = [(0, -1), (0, 1), (1, 0), (1, 1), (-1, 0), (-1, -1)];

/// What a cell holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Content {
    Empty,
    Black,
    White,
}

/// A move of the reference model: the group's cells (sorted) and the direction.
pub type RefMove = (Vec<Coord>, Coord);

/// The reference state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    /// Indexed by `row * 9 + diagonal`; cells off the board stay empty.
    pub cells: [Content; 81],
    pub black_to_move: bool,
    /// Marbles lost by black and white.
    pub lost: [u32; 2],
}

/// Whether (row, diagonal) is on the 61-cell board: rows A-I hold diagonals
/// 1-5, 1-6, 1-7, 1-8, 1-9, 2-9, 3-9, 4-9, 5-9.
pub fn on_board((row, diagonal): Coord) -> bool {
    let (first, last) = match row {
        0 => (0, 4),
        1 => (0, 5),
        2 => (0, 6),
        3 => (0, 7),
        4 => (0, 8),
        5 => (1, 8),
        6 => (2, 8),
        7 => (3, 8),
        8 => (4, 8),
        _ => return false,
    };
    diagonal >= first && diagonal <= last
}

fn add((r, d): Coord, (dr, dd): Coord) -> Coord {
    (r + dr, d + dd)
}

impl Reference {
    pub fn get(&self, at: Coord) -> Content {
        if on_board(at) {
            self.cells[(at.0 * 9 + at.1) as usize]
        } else {
            Content::Empty
        }
    }

    fn set(&mut self, at: Coord, content: Content) {
        self.cells[(at.0 * 9 + at.1) as usize] = content;
    }

    fn mover(&self) -> Content {
        if self.black_to_move {
            Content::Black
        } else {
            Content::White
        }
    }

    fn enemy(&self) -> Content {
        if self.black_to_move {
            Content::White
        } else {
            Content::Black
        }
    }

    /// Whether moving `group` by `dir` is legal.
    fn legal(&self, group: &[Coord], dir: Coord) -> bool {
        let along = group.len() == 1 || {
            let line = (group[1].0 - group[0].0, group[1].1 - group[0].1);
            line == dir || line == (-dir.0, -dir.1)
        };
        if along {
            // The leading marble is the one with no group marble in front.
            let Some(&leader) = group.iter().find(|&&c| !group.contains(&add(c, dir))) else {
                return false;
            };
            let front = add(leader, dir);
            if !on_board(front) {
                return false;
            }
            match self.get(front) {
                Content::Empty => true,
                c if c == self.mover() => false,
                _ => {
                    let mut enemies = 0;
                    let mut at = front;
                    while on_board(at) && self.get(at) == self.enemy() {
                        enemies += 1;
                        at = add(at, dir);
                    }
                    enemies < group.len() && (!on_board(at) || self.get(at) == Content::Empty)
                }
            }
        } else {
            group.iter().all(|&c| {
                let to = add(c, dir);
                on_board(to) && self.get(to) == Content::Empty
            })
        }
    }

    /// Every legal move, sorted, each (group, direction) pair once.
    pub fn moves(&self) -> Vec<RefMove> {
        let mut moves = Vec::new();
        for row in 0..9 {
            for diagonal in 0..9 {
                let start = (row, diagonal);
                if !on_board(start) || self.get(start) != self.mover() {
                    continue;
                }
                for line in DIRECTIONS {
                    for size in 1..=3 {
                        let group: Vec<Coord> = (0..size)
                            .map(|k| (row + k * line.0, diagonal + k * line.1))
                            .collect();
                        if !group
                            .iter()
                            .all(|&c| on_board(c) && self.get(c) == self.mover())
                        {
                            continue;
                        }
                        let mut sorted = group.clone();
                        sorted.sort_unstable();
                        for dir in DIRECTIONS {
                            if self.legal(&group, dir) {
                                moves.push((sorted.clone(), dir));
                            }
                        }
                    }
                }
            }
        }
        moves.sort_unstable();
        moves.dedup();
        moves
    }

    /// The position after a legal move: the group and every enemy marble in
    /// front of it shift one cell; one that leaves the board is lost.
    pub fn after(&self, (group, dir): &RefMove) -> Reference {
        let mut next = self.clone();
        let mut moving: Vec<(Coord, Content)> = group.iter().map(|&c| (c, self.mover())).collect();
        let leader = group
            .iter()
            .copied()
            .find(|&c| !group.contains(&add(c, *dir)))
            .unwrap_or(group[0]);
        let along = group.len() == 1 || group.contains(&add(leader, (-dir.0, -dir.1)));
        if along {
            let mut at = add(leader, *dir);
            while on_board(at) && self.get(at) == self.enemy() {
                moving.push((at, self.enemy()));
                at = add(at, *dir);
            }
        }
        for &(c, _) in &moving {
            next.set(c, Content::Empty);
        }
        for &(c, content) in &moving {
            let to = add(c, *dir);
            if on_board(to) {
                next.set(to, content);
            } else if content == Content::Black {
                next.lost[0] += 1;
            } else {
                next.lost[1] += 1;
            }
        }
        next.black_to_move = !self.black_to_move;
        next
    }

    /// The position text, written independently of the fast model's.
    pub fn text(&self) -> String {
        let mut rows = Vec::new();
        for row in (0..9).rev() {
            let mut out = String::new();
            let mut run = 0;
            for diagonal in 0..9 {
                if !on_board((row, diagonal)) {
                    continue;
                }
                let letter = match self.get((row, diagonal)) {
                    Content::Empty => {
                        run += 1;
                        continue;
                    }
                    Content::Black => 'b',
                    Content::White => 'w',
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
        let side = if self.black_to_move { "b" } else { "w" };
        format!(
            "{} {side} b{} w{}",
            rows.join("/"),
            self.lost[0],
            self.lost[1]
        )
    }

    /// Reads a position text the simple way (no checks).
    pub fn from_text(text: &str) -> Option<Reference> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 4 {
            return None;
        }
        let mut cells = [Content::Empty; 81];
        for (i, row_text) in fields[0].split('/').enumerate() {
            let row = 8 - i as i32;
            let mut diagonal = (0..9).find(|&d| on_board((row, d)))?;
            for ch in row_text.chars() {
                if let Some(run) = ch.to_digit(10) {
                    diagonal += run as i32;
                    continue;
                }
                if !on_board((row, diagonal)) {
                    return None;
                }
                cells[(row * 9 + diagonal) as usize] = match ch {
                    'b' => Content::Black,
                    'w' => Content::White,
                    _ => return None,
                };
                diagonal += 1;
            }
        }
        Some(Reference {
            cells,
            black_to_move: fields[1] == "b",
            lost: [
                fields[2].trim_start_matches('b').parse().ok()?,
                fields[3].trim_start_matches('w').parse().ok()?,
            ],
        })
    }
}
