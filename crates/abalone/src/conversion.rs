//! Converting a won position: what the side ahead by two marbles or more
//! gains from pressing the defence, added to whatever evaluation plays.
//!
//! A lead of three marbles against a compact group scores about the same
//! whatever the leader does, so a search that sees no ejection within its
//! horizon shuffles. This term gives the leader a gradient towards the
//! ejection: defending marbles it can push off now, its pushes (sumitos),
//! defending marbles on the rim, and a defence split into pieces. It grows
//! with the lead, and stays zero while the sides are within one marble, where
//! the evaluations are left as they were trained or tuned.

use crate::board::{RIM, RINGS};
use crate::eval::neighbour_pairs;
use crate::{Abalone, movegen};
use plateau_core::Game;

/// The lead in marbles from which the term applies.
pub const CONVERSION_LEAD: u32 = 2;

/// The term's weights, per unit of each measure (one marble is about 100).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConversionWeights {
    /// Each defending marble the leader can push off with one move.
    pub targets: i32,
    /// Each push the leader has (ejecting or not).
    pub pushes: i32,
    /// Each defending marble on the rim.
    pub rim: i32,
    /// Each defending marble one ring in from the rim.
    pub near_rim: i32,
    /// Each pair of neighbouring defending marbles (subtracted: a split
    /// defence is easier to pick off).
    pub cohesion: i32,
}

/// The weights `master` plays (docs/engine.md has the measurements).
pub const CONVERSION_WEIGHTS: ConversionWeights = ConversionWeights {
    targets: 12,
    pushes: 4,
    rim: 6,
    near_rim: 2,
    cohesion: 2,
};

/// The conversion term of `position`, from the side to move's view, in
/// `percent` of `weights`: positive when the side to move leads by
/// [`CONVERSION_LEAD`] or more, negative when it trails by as much.
#[inline]
pub fn conversion_bonus(position: &Abalone, weights: &ConversionWeights, percent: u16) -> i32 {
    let us = position.side_to_move();
    let lead = position.lost(!us) as i32 - position.lost(us) as i32;
    if lead.unsigned_abs() < CONVERSION_LEAD || percent == 0 {
        return 0;
    }
    let (leader, defender) = if lead > 0 { (us, !us) } else { (!us, us) };
    let attack = position.marbles(leader);
    let defence = position.marbles(defender);
    let (targets, pushes) = movegen::attacks(attack, defence);
    let raw = weights.targets * targets.count_ones() as i32
        + weights.pushes * pushes as i32
        + weights.rim * (defence & RIM).count_ones() as i32
        + weights.near_rim * (defence & RINGS[3]).count_ones() as i32
        - weights.cohesion * neighbour_pairs(defence);
    // One step per marble of lead beyond one, up to three.
    let steps = (lead.abs() - 1).min(3);
    let bonus = raw * steps * i32::from(percent) / 100;
    if leader == us { bonus } else { -bonus }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Cell;
    use crate::reference::{Content, Reference};

    /// Black's fourteen marbles: rows C to E, diagonals 1-4, and c7, b6 in
    /// line behind a5.
    const BLACK: [&str; 14] = [
        "c1", "c2", "c3", "c4", "d1", "d2", "d3", "d4", "e1", "e2", "e3", "e4", "c7", "b6",
    ];
    /// White's marbles far from Black's, at the top: as many as asked.
    const WHITE_FAR: [&str; 13] = [
        "i5", "i6", "i7", "i8", "i9", "h4", "h5", "h6", "h7", "h8", "h9", "g8", "g9",
    ];

    /// Black's fourteen and White's `white` (each side's losses follow from
    /// its count), `black_to_move` or not.
    fn position(white: &[&str], black_to_move: bool) -> Abalone {
        let mut reference = Reference {
            cells: [Content::Empty; 81],
            black_to_move,
            lost: [0, 14 - white.len() as u32],
        };
        for (cells, content) in [(&BLACK[..], Content::Black), (white, Content::White)] {
            for name in cells {
                let cell = Cell::parse(name).unwrap();
                reference.cells[(cell.row() * 9 + cell.diagonal()) as usize] = content;
            }
        }
        Abalone::from_text(&reference.text()).unwrap()
    }

    /// White's a5 and `far` of the others.
    fn white(first: &str, far: usize) -> Vec<&str> {
        std::iter::once(first)
            .chain(WHITE_FAR[..far].iter().copied())
            .collect()
    }

    const ONLY: ConversionWeights = ConversionWeights {
        targets: 0,
        pushes: 0,
        rim: 0,
        near_rim: 0,
        cohesion: 0,
    };

    #[test]
    fn only_a_lead_of_two_marbles_counts() {
        // 14, 13, 12 and 11 white marbles: a lead of 0 to 3.
        for (far, counts) in [(13, false), (12, false), (11, true), (10, true)] {
            let bonus =
                conversion_bonus(&position(&white("a5", far), true), &CONVERSION_WEIGHTS, 100);
            assert_eq!(bonus != 0, counts, "{far}: {bonus}");
        }
    }

    #[test]
    fn the_leader_gains_what_the_defender_loses() {
        for far in [11, 10, 9] {
            let black =
                conversion_bonus(&position(&white("a5", far), true), &CONVERSION_WEIGHTS, 100);
            let white = conversion_bonus(
                &position(&white("a5", far), false),
                &CONVERSION_WEIGHTS,
                100,
            );
            assert!(black > 0, "{far}: {black}");
            assert_eq!(black, -white, "{far}");
        }
    }

    #[test]
    fn it_grows_with_the_lead_up_to_three_steps_and_scales_with_the_share() {
        // c7 and b6 push a5 off: one target, counted once per step.
        let targets = ConversionWeights { targets: 1, ..ONLY };
        let steps: Vec<i32> = [12, 11, 10, 9, 8]
            .into_iter()
            .map(|far| conversion_bonus(&position(&white("a5", far), true), &targets, 100))
            .collect();
        assert_eq!(steps, [0, 1, 2, 3, 3], "leads of 1 to 5");
        let full = |percent| {
            conversion_bonus(
                &position(&white("a5", 10), true),
                &CONVERSION_WEIGHTS,
                percent,
            )
        };
        assert_eq!(full(0), 0);
        assert_eq!(full(200), 2 * full(100));
    }

    #[test]
    fn defenders_in_reach_and_on_the_rim_count() {
        let targets = ConversionWeights { targets: 1, ..ONLY };
        let bonus =
            |first, weights| conversion_bonus(&position(&white(first, 8), true), &weights, 100);
        // a5 can be pushed off; a4 (also on the rim) cannot; e9 (also on
        // the rim) neither.
        assert_eq!(bonus("a5", targets), 3);
        assert_eq!(bonus("a4", targets), 0);
        let rim = ConversionWeights { rim: 1, ..ONLY };
        let near = ConversionWeights {
            near_rim: 1,
            ..ONLY
        };
        // The far eight are on rows H and I: five on the rim (i5-i9, plus
        // h4 and h9 at the row's ends), the others one ring in.
        let on_rim = bonus("a4", rim);
        let inside = bonus("e5", rim);
        assert_eq!(
            on_rim,
            inside + 3,
            "one more marble on the rim, three steps"
        );
        assert_eq!(bonus("b2", near), bonus("e5", near) + 3);
        let cohesion = ConversionWeights {
            cohesion: 1,
            ..ONLY
        };
        // h4 beside a marble of its group costs the leader pairs.
        assert!(bonus("g4", cohesion) < bonus("a1", cohesion));
    }
}
