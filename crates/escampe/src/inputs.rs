//! Network inputs for Escampe: for each of the 36 squares, whether it holds
//! a paladin or the unicorn of the side whose view it is, or of the other
//! side; and which liseré the side to move must start from (none, 1, 2 or
//! 3), the rule that decides which pieces may move at all. Squares are read
//! as they are in both views: the liserés make the board asymmetric, so no
//! turn or reflection maps one side's game onto the other's.

use crate::moves::Move;
use crate::position::Escampe;
use crate::square::squares;
use plateau_core::net::{FeatureChanges, InputSet, NetInputs};
use plateau_core::{Game, Side};

const SQUARES: usize = 36;
/// Own paladins, own unicorn, the opponent's paladins, the opponent's
/// unicorn, then the four constraints.
pub const INPUTS: usize = 4 * SQUARES + 4;

const CONSTRAINT: usize = 4 * SQUARES;

/// The input for a piece of `owner` (its unicorn or a paladin) on square
/// `index`, seen by `viewer`.
#[inline]
fn input(owner: Side, unicorn: bool, index: usize, viewer: Side) -> usize {
    let base = match (owner == viewer, unicorn) {
        (true, false) => 0,
        (true, true) => SQUARES,
        (false, false) => 2 * SQUARES,
        (false, true) => 3 * SQUARES,
    };
    base + index
}

/// The input for the constraint `liseré` (0 when free).
#[inline]
fn constraint(lisere: u8) -> usize {
    CONSTRAINT + lisere as usize
}

/// Writes the constraint's change from `before` to `after`, in both views.
fn constraint_change(before: u8, after: u8, changes: &mut FeatureChanges) {
    if before != after {
        for viewer in [Side::White, Side::Black] {
            changes.remove(viewer, constraint(before));
            changes.add(viewer, constraint(after));
        }
    }
}

impl NetInputs for Escampe {
    const INPUT_SETS: &'static [InputSet] = &[InputSet {
        name: "squares",
        inputs: INPUTS,
    }];

    fn active_features(&self, _set: usize, perspective: Side, add: &mut impl FnMut(usize)) {
        for owner in [Side::White, Side::Black] {
            let unicorn = self.unicorn(owner);
            for square in squares(self.pieces(owner) & !unicorn) {
                add(input(owner, false, square.index(), perspective));
            }
            for square in squares(unicorn) {
                add(input(owner, true, square.index(), perspective));
            }
        }
        add(constraint(self.constraint().unwrap_or(0)));
    }

    fn feature_changes(&self, _set: usize, mv: Move, changes: &mut FeatureChanges) -> bool {
        let mover = self.side_to_move();
        let before = self.constraint().unwrap_or(0);
        match mv {
            Move::Place { unicorn, paladins } => {
                for viewer in [Side::White, Side::Black] {
                    changes.add(viewer, input(mover, true, unicorn.index(), viewer));
                    for square in squares(paladins) {
                        changes.add(viewer, input(mover, false, square.index(), viewer));
                    }
                }
                constraint_change(before, 0, changes);
            }
            Move::Step { from, to } => {
                let moving_unicorn = self.unicorn(mover) & from.bit() != 0;
                let takes_unicorn = self.unicorn(!mover) & to.bit() != 0;
                for viewer in [Side::White, Side::Black] {
                    changes.remove(viewer, input(mover, moving_unicorn, from.index(), viewer));
                    changes.add(viewer, input(mover, moving_unicorn, to.index(), viewer));
                    if takes_unicorn {
                        changes.remove(viewer, input(!mover, true, to.index(), viewer));
                    }
                }
                constraint_change(before, to.lisere(), changes);
            }
            Move::Pass => constraint_change(before, 0, changes),
        }
        true
    }

    fn null_feature_changes(&self, _set: usize, changes: &mut FeatureChanges) {
        constraint_change(self.constraint().unwrap_or(0), 0, changes);
    }
}
