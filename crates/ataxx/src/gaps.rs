//! Random gap layouts: Ataxx starts whose blocked cells are placed as the
//! standard tournament openings place them, symmetric under both mirrors of
//! the board, off the four starting cells. Self-play from them teaches a
//! network what gaps do (which moves they forbid, which stones they shield).

use crate::bits::GEOMETRY_7;
use crate::board::Board;
use crate::{Ataxx, Square};
use plateau_core::Rng;

/// The most groups of mirrored gaps a layout has (up to 4 cells each).
pub const MAX_GAP_GROUPS: u64 = 4;

/// The standard start with 1 to [`MAX_GAP_GROUPS`] groups of gaps: each group
/// a cell of the lower-left quarter (the middle file and rank included) and
/// its images in the two mirrors, never a starting cell.
pub fn random_gaps(rng: &mut Rng) -> Ataxx {
    let start = Board::start(GEOMETRY_7);
    let n = 7;
    let groups = 1 + rng.below(MAX_GAP_GROUPS);
    let mut blocked = 0u64;
    for _ in 0..groups {
        let (file, rank) = loop {
            let (file, rank) = (rng.below(4) as usize, rng.below(4) as usize);
            if (file, rank) != (0, 0) {
                break (file, rank);
            }
        };
        for (f, r) in [
            (file, rank),
            (n - 1 - file, rank),
            (file, n - 1 - rank),
            (n - 1 - file, n - 1 - rank),
        ] {
            blocked |= 1u64 << Square::at(f, r).index::<u64>();
        }
    }
    let board = Board::new(GEOMETRY_7, start.stones, blocked, start.side);
    Ataxx::from_parts(board, 0, 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use plateau_core::{Game, MoveList};

    #[test]
    fn layouts_are_mirrored_playable_and_varied() {
        let mut rng = Rng::new(7);
        let mut seen = std::collections::HashSet::new();
        let mut moves = MoveList::new();
        for _ in 0..200 {
            let game = random_gaps(&mut rng);
            let blocked = game.blocked();
            assert_ne!(blocked, 0);
            assert!(blocked.count_ones() <= 4 * MAX_GAP_GROUPS as u32);
            // Symmetric under both mirrors (symmetries 1 and 2).
            for symmetry in [1, 2] {
                assert_eq!(game.transformed(symmetry).blocked(), blocked);
            }
            // The starting stones stay, and the game is on.
            assert_eq!(game.count(plateau_core::Side::White), 2);
            assert_eq!(game.count(plateau_core::Side::Black), 2);
            game.legal_moves(&mut moves);
            assert!(!moves.is_empty());
            let text = game.to_text();
            assert_eq!(Ataxx::from_text(&text).unwrap().to_text(), text);
            seen.insert(blocked);
        }
        assert!(seen.len() > 100, "only {} layouts", seen.len());
    }
}
