//! Network inputs for Abalone: for each of the 61 cells, whether it holds a
//! marble of the side whose view it is or of the other side. Black's view
//! reflects the board in row E (a1 reads as i5, c3 as g5), so that both sides
//! see their own start at the same place in every layout (the daisies are
//! symmetric that way, not under a half turn) and the network learns one
//! game, not two mirrored ones.

use crate::board::{Cell, cells};
use crate::moves::Move;
use crate::position::Abalone;
use plateau_core::net::{FeatureChanges, InputSet, NetInputs};
use plateau_core::{Game, Side};

const CELLS: usize = 61;
/// Own marbles, then the opponent's.
pub const INPUTS: usize = 2 * CELLS;

/// [`Cell::compact`] of each cell's reflection in row E: row `r` goes to
/// `8 - r`, and a cell keeps its place counted from its row's west end.
const REFLECTED: [u8; CELLS] = {
    let mut table = [0u8; CELLS];
    let mut index = 0;
    while index < CELLS {
        let cell = Cell::from_compact(index);
        let (row, diagonal) = (cell.row(), cell.diagonal());
        let mirrored = 8 - row;
        let target = match Cell::at(mirrored, diagonal - west(row) + west(mirrored)) {
            Some(target) => target,
            None => panic!("a reflection leaves the board"),
        };
        table[index] = target.compact() as u8;
        index += 1;
    }
    table
};

/// A row's west end: diagonal 0 on rows A-E, `row - 4` above.
const fn west(row: i32) -> i32 {
    if row > 4 { row - 4 } else { 0 }
}

/// The input for a marble of `owner` on `cell`, seen by `viewer`.
#[inline]
fn input(owner: Side, cell: Cell, viewer: Side) -> usize {
    let base = if owner == viewer { 0 } else { CELLS };
    let index = match viewer {
        Side::White => cell.compact(),
        Side::Black => REFLECTED[cell.compact()] as usize,
    };
    base + index
}

impl NetInputs for Abalone {
    const INPUT_SETS: &'static [InputSet] = &[InputSet {
        name: "cells",
        inputs: INPUTS,
    }];

    fn active_features(&self, _set: usize, perspective: Side, add: &mut impl FnMut(usize)) {
        for owner in [Side::White, Side::Black] {
            for cell in cells(self.marbles(owner)) {
                add(input(owner, cell, perspective));
            }
        }
    }

    fn feature_changes(&self, _set: usize, mv: Move, changes: &mut FeatureChanges) -> bool {
        let mover = self.side_to_move();
        let delta = mv.direction().delta();
        let moved = |cell: Cell| Cell::from_bit((cell.bit_index() as i32 + delta) as u32);
        for viewer in [Side::White, Side::Black] {
            if mv.is_inline() {
                // The trailing marble's cell empties, the one in front fills.
                let front = mv.front();
                changes.remove(viewer, input(mover, mv.cell(), viewer));
                changes.add(viewer, input(mover, front, viewer));
                let pushed = mv.pushed();
                if pushed > 0 {
                    changes.remove(viewer, input(!mover, front, viewer));
                    if !mv.ejects() {
                        let behind = Cell::from_bit(
                            (front.bit_index() as i32 + pushed as i32 * delta) as u32,
                        );
                        changes.add(viewer, input(!mover, behind, viewer));
                    }
                }
            } else {
                for cell in cells(mv.group()) {
                    changes.remove(viewer, input(mover, cell, viewer));
                    changes.add(viewer, input(mover, moved(cell), viewer));
                }
            }
        }
        true
    }
}
