//! The twelve symmetries of the hexagon (six turns, six reflections). The
//! rules are the same under each, so a position and its image have the same
//! value. A network is trained per layout, so training uses only the images
//! that keep the layout's start with its colours ([`Layout::symmetries`]):
//! they multiply the data without showing the network starts it never plays.

use crate::board::{Cell, cells};
use crate::position::{Abalone, Layout};
use plateau_core::{Game, Side};

/// How many symmetries the hexagon has; symmetry 0 is the identity.
pub const SYMMETRIES: usize = 12;

/// How many symmetries keep each start layout with its colours (the identity
/// and one other: the reflection across the files for the standard start,
/// the half turn for the daisies).
pub const LAYOUT_SYMMETRIES: usize = 2;

/// The image of `cell` under `symmetry` (below [`SYMMETRIES`]): symmetries
/// 0-5 turn the board by that many sixths, 6-11 reflect it first and then
/// turn it.
pub fn cell(cell: Cell, symmetry: usize) -> Cell {
    debug_assert!(symmetry < SYMMETRIES);
    // Cube coordinates around e5: x + y + z = 0, each within -4..=4 on the board.
    let (q, r) = (cell.diagonal() - 4, cell.row() - 4);
    let (mut x, mut y, mut z) = (q, -r, r - q);
    if symmetry >= 6 {
        std::mem::swap(&mut x, &mut y);
    }
    for _ in 0..symmetry % 6 {
        (x, y, z) = (-z, -x, -y);
    }
    debug_assert_eq!(x + y + z, 0);
    match Cell::at(4 - y, x + 4) {
        Some(image) => image,
        None => unreachable!("the hexagon's symmetries keep it"),
    }
}

/// The image of a mask of cells.
pub fn mask(mask: u128, symmetry: usize) -> u128 {
    cells(mask).fold(0, |image, c| image | cell(c, symmetry).bit())
}

impl Abalone {
    /// The position's image under `symmetry` (below [`SYMMETRIES`]), with the
    /// same side to move, ply count and ply-limit rule; the moves that led here
    /// are not carried, so repetitions count from the image.
    pub fn transformed(&self, symmetry: usize) -> Abalone {
        let marbles = [Side::White, Side::Black].map(|side| mask(self.marbles(side), symmetry));
        let mut by_index = [0; 2];
        by_index[Side::White.index()] = marbles[0];
        by_index[Side::Black.index()] = marbles[1];
        Abalone::from_parts(by_index, self.side_to_move())
            .with_ply(self.ply())
            .with_max_plies(self.max_plies())
            .with_at_the_limit(self.at_the_limit())
    }
}

impl Layout {
    /// The symmetries that map this layout's start onto itself, each colour
    /// onto its own marbles, the identity first ([`LAYOUT_SYMMETRIES`] of
    /// them): the images a training position of this layout is read in.
    pub const fn symmetries(self) -> [usize; LAYOUT_SYMMETRIES] {
        match self {
            Layout::Standard => [0, 10],
            Layout::BelgianDaisy | Layout::GermanDaisy => [0, 3],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BOARD;
    use plateau_core::MoveList;
    use plateau_core::Rng;
    use std::collections::BTreeSet;

    #[test]
    fn symmetries_are_distinct_bijections_that_keep_neighbours() {
        let mut images = BTreeSet::new();
        for symmetry in 0..SYMMETRIES {
            assert_eq!(mask(BOARD, symmetry), BOARD, "symmetry {symmetry}");
            let image: Vec<usize> = Cell::all().map(|c| cell(c, symmetry).compact()).collect();
            assert!(images.insert(image), "symmetry {symmetry} repeats another");
            for a in Cell::all() {
                for b in Cell::all() {
                    let near = |a: Cell, b: Cell| crate::Direction::between(a, b).is_some();
                    let adjacent = |a: Cell, b: Cell| {
                        (0..6).any(|d| a.step(crate::Direction::from_index(d)) == Some(b))
                    };
                    assert_eq!(
                        adjacent(a, b),
                        adjacent(cell(a, symmetry), cell(b, symmetry))
                    );
                    assert_eq!(near(a, b), near(cell(a, symmetry), cell(b, symmetry)));
                }
            }
        }
        for c in Cell::all() {
            assert_eq!(cell(c, 0), c);
        }
    }

    #[test]
    fn each_layout_keeps_exactly_its_listed_symmetries() {
        for layout in Layout::ALL {
            let start = Abalone::start(layout);
            let keeping: Vec<usize> = (0..SYMMETRIES)
                .filter(|&s| start.transformed(s) == start)
                .collect();
            assert_eq!(keeping, layout.symmetries().to_vec(), "{}", layout.name());
        }
    }

    fn children(position: &Abalone) -> BTreeSet<String> {
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        let mut after = BTreeSet::new();
        for &mv in moves.iter() {
            let mut child = position.clone();
            child.play(mv);
            after.insert(child.to_text());
        }
        assert_eq!(after.len(), moves.len(), "two moves lead to one position");
        after
    }

    /// Along random games of every layout, each image has the same moves:
    /// the images of the position's children are the image's children, and
    /// the two-ply counts agree.
    #[test]
    fn images_have_the_same_moves_and_children() {
        let mut rng = Rng::new(7);
        for layout in Layout::ALL {
            let mut game = Abalone::start(layout);
            for ply in 0..60 {
                if game.outcome().is_some() {
                    break;
                }
                for symmetry in 0..SYMMETRIES {
                    let image = game.transformed(symmetry);
                    assert_eq!(image.side_to_move(), game.side_to_move());
                    assert_eq!(image.hash(), image.compute_hash());
                    let mapped: BTreeSet<String> = children(&game)
                        .iter()
                        .map(|text| {
                            let child = Abalone::from_text(text).unwrap();
                            child.transformed(symmetry).to_text()
                        })
                        .collect();
                    assert_eq!(mapped, children(&image), "ply {ply}, symmetry {symmetry}");
                    if ply % 15 == 0 {
                        assert_eq!(
                            plateau_core::perft(&mut image.clone(), 2),
                            plateau_core::perft(&mut game.clone(), 2)
                        );
                    }
                }
                let mut moves = MoveList::new();
                game.legal_moves(&mut moves);
                let mv = moves[rng.below(moves.len() as u64) as usize];
                game.play(mv);
            }
        }
    }
}
