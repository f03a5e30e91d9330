//! Network inputs for draughts: for each of the 50 squares, whether it holds
//! a man or a king of the side whose view it is, or of the other side. Black's
//! view turns the board half a turn (square `n` reads as `51 - n`), so that in
//! both views one's own men walk towards square 1: the network learns one game,
//! not two mirrored ones.

use crate::moves::Move;
use crate::position::Draughts;
use crate::square::{PROMOTION, to_dense};
use plateau_core::Side;
use plateau_core::net::{FeatureChanges, InputSet, NetInputs};

const SQUARES: usize = 50;
/// Own men, own kings, the opponent's men, the opponent's kings.
pub const INPUTS: usize = 4 * SQUARES;

const OWN_MAN: usize = 0;
const OWN_KING: usize = SQUARES;
const THEIR_MAN: usize = 2 * SQUARES;
const THEIR_KING: usize = 3 * SQUARES;

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
    const INPUT_SETS: &'static [InputSet] = &[InputSet {
        name: "squares",
        inputs: INPUTS,
    }];

    fn active_features(&self, _set: usize, perspective: Side, add: &mut impl FnMut(usize)) {
        for owner in [Side::White, Side::Black] {
            let pieces = self.s.pieces[owner.index()];
            for index in indices(to_dense(pieces & !self.s.kings)) {
                add(input(owner, false, index, perspective));
            }
            for index in indices(to_dense(pieces & self.s.kings)) {
                add(input(owner, true, index, perspective));
            }
        }
    }

    fn feature_changes(&self, _set: usize, mv: Move, changes: &mut FeatureChanges) -> bool {
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
        true
    }
}
