//! Opening books: for the positions of an opening tree, the moves deep
//! searches found best, with their scores. A book is a text file, one
//! position per line, so that it diffs and reviews like code:
//!
//! ```text
//! # plateau opening book: draughts
//! W:W31-50:B1-20<TAB>33-28 -6<TAB>32-28 -9
//! ```
//!
//! The position's text, then each move kept with the score (for the side to
//! move) its search gave, best first, separated by tabs (`<TAB>` above).

use crate::engine::AnyEngine;
use plateau_core::AnyGame;
use plateau_search::Limits;
use std::collections::{HashMap, VecDeque};

/// The moves a book holds for one position: (move, score), best first.
pub type BookMoves = Vec<(String, i32)>;

/// An opening book.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    /// The header's comment lines, without `# `.
    pub notes: Vec<String>,
    entries: HashMap<String, BookMoves>,
}

/// How a book is built.
#[derive(Clone, Debug)]
pub struct BookConfig {
    /// Positions this many plies from the start or more are not expanded.
    pub plies: u32,
    /// The most moves kept per position.
    pub width: usize,
    /// Moves scoring more than this below the best are not kept.
    pub margin: i32,
    /// Each search's limits.
    pub limits: Limits,
}

/// Where a build is: positions searched, positions waiting.
#[derive(Clone, Copy, Debug)]
pub struct BookProgress {
    pub searched: usize,
    pub waiting: usize,
    pub ply: u32,
}

impl Book {
    /// The moves kept for the position whose text is `position`.
    pub fn moves(&self, position: &str) -> Option<&BookMoves> {
        self.entries.get(position)
    }

    /// Positions in the book.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Reads a book. Every line is checked; the error names the first bad one.
    pub fn parse(text: &str) -> Result<Book, String> {
        let mut book = Book::default();
        for (number, line) in text.lines().enumerate() {
            let line = line.trim_end_matches('\r');
            if let Some(note) = line.strip_prefix('#') {
                book.notes.push(note.trim().to_string());
                continue;
            }
            if line.trim().is_empty() {
                continue;
            }
            let bad = |why: &str| format!("line {}: {why}: {line:.80}", number + 1);
            let mut fields = line.split('\t');
            let position = fields.next().unwrap_or_default().trim();
            if position.is_empty() {
                return Err(bad("no position"));
            }
            if position.starts_with('#') || position.contains(char::is_control) {
                return Err(bad(
                    "a position text has no control character and no leading #",
                ));
            }
            let mut moves = BookMoves::new();
            for field in fields {
                let (mv, score) = field
                    .trim()
                    .split_once(' ')
                    .filter(|(mv, _)| !mv.is_empty() && !mv.contains(char::is_control))
                    .ok_or_else(|| bad("expected `move score` after the position"))?;
                let score: i32 = score
                    .trim()
                    .parse()
                    .map_err(|_| bad(&format!("{score:?} is not a score")))?;
                moves.push((mv.to_string(), score));
            }
            if moves.is_empty() {
                return Err(bad("a position without moves"));
            }
            if book.entries.insert(position.to_string(), moves).is_some() {
                return Err(bad("the position is already in the book"));
            }
        }
        Ok(book)
    }

    /// The book as text, positions in a stable order.
    pub fn write(&self) -> String {
        let mut text: String = self.notes.iter().map(|n| format!("# {n}\n")).collect();
        let mut positions: Vec<&String> = self.entries.keys().collect();
        positions.sort();
        for position in positions {
            text += position;
            for (mv, score) in &self.entries[position] {
                text += &format!("\t{mv} {score}");
            }
            text.push('\n');
        }
        text
    }

    /// Builds a book from `start` by searching each position of the opening
    /// tree with `engine`: the best move, then the next best (searched with
    /// the moves so far excluded) while within `margin` of it, up to
    /// `width`; each kept move's position is searched in turn, breadth
    /// first, to `plies` plies. `progress` hears after every position.
    pub fn build(
        engine: &mut dyn AnyEngine,
        start: &dyn AnyGame,
        config: &BookConfig,
        progress: &mut dyn FnMut(BookProgress),
    ) -> Result<Book, String> {
        let mut book = Book::default();
        let mut queue: VecDeque<(Box<dyn AnyGame>, u32)> = VecDeque::new();
        queue.push_back((start.clone_box(), 0));
        let mut searched = 0;
        while let Some((game, ply)) = queue.pop_front() {
            let key = game.to_text();
            if ply >= config.plies || game.outcome().is_some() || book.entries.contains_key(&key) {
                continue;
            }
            engine.new_game();
            let mut moves = BookMoves::new();
            let mut excluded = Vec::new();
            while moves.len() < config.width.max(1) && excluded.len() < game.legal_moves().len() {
                let thought = engine
                    .think_excluding(game.as_ref(), &config.limits, &excluded, &mut |_| {})
                    .map_err(|e| format!("{key}: {e}"))?;
                // Searches of the alternatives may score above the first
                // (each is a search of its own): the margin is from the best.
                let best = moves.iter().map(|&(_, s)| s).max();
                if best.is_some_and(|best| thought.score < best - config.margin) {
                    break;
                }
                excluded.push(thought.best.clone());
                moves.push((thought.best, thought.score));
            }
            let best = moves.iter().map(|&(_, s)| s).max().unwrap_or(0);
            moves.retain(|&(_, s)| s >= best - config.margin);
            moves.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
            for (mv, _) in &moves {
                let mut next = game.clone_box();
                next.play(mv).map_err(|e| format!("{key}: {mv}: {e}"))?;
                queue.push_back((next, ply + 1));
            }
            book.entries.insert(key, moves);
            searched += 1;
            progress(BookProgress {
                searched,
                waiting: queue.len(),
                ply,
            });
        }
        Ok(book)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn books_read_back_and_bad_lines_are_named() {
        let text =
            "# a note\nW:W31-50:B1-20\t33-28 -6\t32-28 -9\nB:W28,31-32,34-50:B1-20\t18-23 4\n";
        let book = Book::parse(text).unwrap();
        assert_eq!(book.len(), 2);
        assert_eq!(book.notes, ["a note"]);
        assert_eq!(
            book.moves("W:W31-50:B1-20").unwrap(),
            &vec![("33-28".to_string(), -6), ("32-28".to_string(), -9)]
        );
        assert_eq!(Book::parse(&book.write()).unwrap(), book);
        for (bad, why) in [
            ("W:W31-50:B1-20", "without moves"),
            ("W:W31-50:B1-20\t33-28", "`move score`"),
            ("W:W31-50:B1-20\t33-28 x", "not a score"),
            ("\t33-28 1", "no position"),
            ("a\tb 1\na\tb 2", "already in the book"),
            (" #a\tb 1", "leading #"),
            ("a\rb\tc 1", "control character"),
        ] {
            let error = Book::parse(bad).unwrap_err();
            assert!(error.contains(why), "{bad:?}: {error}");
        }
    }

    #[test]
    fn random_text_never_panics_and_what_reads_writes_back() {
        // Fuzz-style: lines built from the pieces of book lines, and bytes
        // at random (multi-byte characters, tabs, signs, long numbers).
        let pieces = [
            "W:W31-50:B1-20",
            "\t",
            " ",
            "33-28",
            "-6",
            "+7",
            "99999999999",
            "#",
            "\n",
            "é",
            "\r",
            "x",
            "",
            "\t\t",
            "0",
        ];
        let mut rng = plateau_core::Rng::new(0x2545_f491_4f6c_dd1du64);
        let mut next = |bound: usize| rng.below(bound as u64) as usize;
        for _ in 0..5000 {
            let mut text = String::new();
            for _ in 0..next(30) {
                if next(5) == 0 {
                    text.push(char::from_u32(next(0x3000) as u32).unwrap_or('?'));
                } else {
                    text += pieces[next(pieces.len())];
                }
            }
            if let Ok(book) = Book::parse(&text) {
                assert_eq!(Book::parse(&book.write()), Ok(book), "{text:?}");
            }
        }
    }
}
