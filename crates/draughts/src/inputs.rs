//! Network inputs for draughts, in two sets:
//!
//! - `squares`: for each of the 50 squares, whether it holds a man or a king
//!   of the side whose view it is, or of the other side;
//! - `patterns`: the same, plus, for each diamond of four squares (a square,
//!   its two neighbours below and the square below those), its pattern of
//!   own men, opposing men and neither (3⁴ = 81 patterns). The shapes that
//!   decide draughts middle games (a hole in a chain, a man backed or not,
//!   two men facing each other across a gap) are then inputs, where single
//!   squares leave them to the hidden layer: the idea of Scan's pattern
//!   evaluation, at the size two cores can train. Squares 5 and 46, with
//!   one neighbour each, are in no diamond.
//!
//! Black's view turns the board half a turn (square `n` reads as `51 - n`),
//! so that in both views one's own men walk towards square 1: the network
//! learns one game, not two mirrored ones. A half turn maps diamonds onto
//! diamonds, so the patterns follow the same rule.

use crate::moves::Move;
use crate::position::Draughts;
use crate::square::{PROMOTION, Square, to_dense};
use plateau_core::Side;
use plateau_core::net::{FeatureChanges, InputSet, NetInputs};

const SQUARES: usize = 50;
/// Own men, own kings, the opponent's men, the opponent's kings.
pub const INPUTS: usize = 4 * SQUARES;

const OWN_MAN: usize = 0;
const OWN_KING: usize = SQUARES;
const THEIR_MAN: usize = 2 * SQUARES;
const THEIR_KING: usize = 3 * SQUARES;

/// Diamonds of four squares: their top square's row is 0 to 7 and its column
/// 1 to 8, four on each row.
const DIAMONDS: usize = 32;
/// Patterns of one diamond: each square empty (or a king), an own man or an
/// opposing man.
const PATTERNS: usize = 81;
/// Where the `patterns` set's diamond inputs start (after the squares').
const PATTERN_BASE: usize = INPUTS;
/// The `patterns` set: the squares' inputs, then a pattern per diamond.
pub const PATTERN_INPUTS: usize = PATTERN_BASE + DIAMONDS * PATTERNS;

/// `set` for the `patterns` inputs.
pub const PATTERN_SET: usize = 1;

/// The two sets, in the order `set` indexes them.
pub const SETS: &[InputSet] = &[
    InputSet {
        name: "squares",
        inputs: INPUTS,
    },
    InputSet {
        name: "patterns",
        inputs: PATTERN_INPUTS,
    },
];

/// Each diamond's squares as dense indices (0..50) in pattern-digit order:
/// top, lower left, lower right, bottom.
const DIAMOND_SQUARES: [[u8; 4]; DIAMONDS] = {
    let mut table = [[0u8; 4]; DIAMONDS];
    let mut count = 0;
    let mut row = 0;
    while row < 8 {
        let mut column = 1;
        while column < 9 {
            if let (Some(top), Some(left), Some(right), Some(bottom)) = (
                Square::at(row, column),
                Square::at(row + 1, column - 1),
                Square::at(row + 1, column + 1),
                Square::at(row + 2, column),
            ) {
                table[count] = [
                    top.index() as u8,
                    left.index() as u8,
                    right.index() as u8,
                    bottom.index() as u8,
                ];
                count += 1;
            }
            column += 1;
        }
        row += 1;
    }
    assert!(count == DIAMONDS);
    table
};

/// For each square (dense index), the diamonds it belongs to, as bits.
const SQUARE_DIAMONDS: [u32; SQUARES] = {
    let mut table = [0u32; SQUARES];
    let mut diamond = 0;
    while diamond < DIAMONDS {
        let mut k = 0;
        while k < 4 {
            table[DIAMOND_SQUARES[diamond][k] as usize] |= 1 << diamond;
            k += 1;
        }
        diamond += 1;
    }
    table
};

/// A dense mask seen from `viewer`: Black's view turns the board half a turn.
#[inline]
fn oriented(dense: u64, viewer: Side) -> u64 {
    match viewer {
        Side::White => dense,
        Side::Black => dense.reverse_bits() >> (64 - SQUARES),
    }
}

/// The input of `diamond` with `own` and `theirs` men (dense, already seen
/// from the viewer's side).
#[inline]
fn diamond_input(own: u64, theirs: u64, diamond: usize) -> usize {
    let mut pattern = 0;
    let mut power = 1;
    for &square in &DIAMOND_SQUARES[diamond] {
        let digit = (own >> square & 1) + 2 * (theirs >> square & 1);
        pattern += digit as usize * power;
        power *= 3;
    }
    PATTERN_BASE + diamond * PATTERNS + pattern
}

/// The men of each side as dense masks, indexed by side.
#[inline]
fn dense_men(game: &Draughts) -> [u64; 2] {
    let men = |side: Side| to_dense(game.s.pieces[side.index()] & !game.s.kings);
    [men(Side::White), men(Side::Black)]
}

/// The diamonds that hold any square of `dense` (seen from the viewer).
#[inline]
fn touched_diamonds(mut dense: u64) -> u32 {
    let mut touched = 0;
    while dense != 0 {
        touched |= SQUARE_DIAMONDS[dense.trailing_zeros() as usize];
        dense &= dense - 1;
    }
    touched
}

/// The input for a piece of `owner` (a king or not) on square `index` (0..50),
/// seen by `viewer`.
#[inline]
fn input(owner: Side, king: bool, index: usize, viewer: Side) -> usize {
    let base = match (owner == viewer, king) {
        (true, false) => OWN_MAN,
        (true, true) => OWN_KING,
        (false, false) => THEIR_MAN,
        (false, true) => THEIR_KING,
    };
    let square = match viewer {
        Side::White => index,
        Side::Black => SQUARES - 1 - index,
    };
    base + square
}

/// The square indices (0..50) of a dense mask, lowest first.
#[inline]
fn indices(mut dense: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if dense == 0 {
            None
        } else {
            let index = dense.trailing_zeros() as usize;
            dense &= dense - 1;
            Some(index)
        }
    })
}

impl NetInputs for Draughts {
    const INPUT_SETS: &'static [InputSet] = SETS;

    fn active_features(&self, set: usize, perspective: Side, add: &mut impl FnMut(usize)) {
        for owner in [Side::White, Side::Black] {
            let pieces = self.s.pieces[owner.index()];
            for index in indices(to_dense(pieces & !self.s.kings)) {
                add(input(owner, false, index, perspective));
            }
            for index in indices(to_dense(pieces & self.s.kings)) {
                add(input(owner, true, index, perspective));
            }
        }
        if set == PATTERN_SET {
            let men = dense_men(self);
            let own = oriented(men[perspective.index()], perspective);
            let theirs = oriented(men[1 - perspective.index()], perspective);
            for diamond in 0..DIAMONDS {
                add(diamond_input(own, theirs, diamond));
            }
        }
    }

    fn feature_changes(&self, set: usize, mv: Move, changes: &mut FeatureChanges) -> bool {
        let mover = self.s.side;
        let from_bit = 1u64 << mv.start_bit();
        let to_bit = 1u64 << mv.end_bit();
        let king = self.s.kings & from_bit != 0;
        let crowned = king || to_bit & PROMOTION[mover.index()] != 0;
        let from = mv.from().index();
        let to = mv.to().index();
        let captured = mv.captured_dense();
        let kings = to_dense(self.s.kings);
        for viewer in [Side::White, Side::Black] {
            // A king's capture may end where it started: the pair cancels out.
            changes.remove(viewer, input(mover, king, from, viewer));
            changes.add(viewer, input(mover, crowned, to, viewer));
            for index in indices(captured) {
                let taken_king = kings >> index & 1 != 0;
                changes.remove(viewer, input(!mover, taken_king, index, viewer));
            }
        }
        if set != PATTERN_SET {
            return true;
        }
        let before = dense_men(self);
        let mut after = before;
        let mut changed = captured;
        if !king {
            // A man leaves `from`; it arrives on `to` unless it is crowned there.
            after[mover.index()] &= !(1u64 << from);
            if !crowned {
                after[mover.index()] |= 1u64 << to;
            }
            changed |= 1u64 << from | 1u64 << to;
        }
        after[1 - mover.index()] &= !captured;
        // Each view touches as many diamonds (the half turn maps diamonds
        // onto diamonds). Past the room in `changes`, `false` has the sums
        // computed afresh (what is written so far is then not read).
        let touched = touched_diamonds(changed).count_ones() as usize;
        if 1 + captured.count_ones() as usize + touched > plateau_core::net::MAX_CHANGES {
            return false;
        }
        for viewer in [Side::White, Side::Black] {
            let (own, theirs) = (viewer.index(), 1 - viewer.index());
            let old = (
                oriented(before[own], viewer),
                oriented(before[theirs], viewer),
            );
            let new = (
                oriented(after[own], viewer),
                oriented(after[theirs], viewer),
            );
            let mut touched = touched_diamonds(oriented(changed, viewer));
            while touched != 0 {
                let diamond = touched.trailing_zeros() as usize;
                touched &= touched - 1;
                let was = diamond_input(old.0, old.1, diamond);
                let now = diamond_input(new.0, new.1, diamond);
                if was != now {
                    changes.remove(viewer, was);
                    changes.add(viewer, now);
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plateau_core::Game;

    #[test]
    fn every_square_but_two_corners_is_in_a_diamond_and_a_half_turn_maps_diamonds_onto_diamonds() {
        let mut covered = 0u64;
        let mut shapes: Vec<[u8; 4]> = DIAMOND_SQUARES.to_vec();
        for squares in DIAMOND_SQUARES {
            for square in squares {
                covered |= 1 << square;
            }
        }
        // Squares 5 and 46 have one neighbour each: no diamond holds them
        // (their men are still inputs, as squares).
        assert_eq!(covered, ((1 << SQUARES) - 1) & !(1 << 4) & !(1 << 45));
        // Turned, a diamond's top becomes its bottom and its left its right.
        let mut turned: Vec<[u8; 4]> = DIAMOND_SQUARES
            .iter()
            .map(|d| [49 - d[3], 49 - d[2], 49 - d[1], 49 - d[0]])
            .collect();
        shapes.sort_unstable();
        turned.sort_unstable();
        assert_eq!(shapes, turned);
    }

    #[test]
    fn a_diamond_reads_its_four_squares_in_order() {
        // Diamond 0: squares 1 (top), 6 and 7 (below), 11 (bottom).
        assert_eq!(DIAMOND_SQUARES[0], [0, 5, 6, 10]);
        // White men on 6 and 11, a Black man on 1: digits 2, 1, 0, 1.
        let game = Draughts::from_text("W:W6,11:B1").unwrap();
        let mut list = Vec::new();
        game.active_features(PATTERN_SET, Side::White, &mut |f| list.push(f));
        assert_eq!(list.len(), 3 + DIAMONDS);
        assert!(list.contains(&(PATTERN_BASE + 2 + 3 + 27)));
        // From Black's view the same four squares are the last diamond, read
        // from the other end: 11 its top (theirs), 7 its lower left (empty),
        // 6 its lower right (theirs), 1 its bottom (Black's own): 2, 0, 2, 1.
        assert_eq!(DIAMOND_SQUARES[DIAMONDS - 1], [39, 43, 44, 49]);
        let mut list = Vec::new();
        game.active_features(PATTERN_SET, Side::Black, &mut |f| list.push(f));
        let last = PATTERN_BASE + (DIAMONDS - 1) * PATTERNS;
        assert!(list.contains(&(last + 2 + 2 * 9 + 27)), "{list:?}");
    }
}
