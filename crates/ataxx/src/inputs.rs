//! Network inputs for the Ataxx family: for each cell, whether it holds a
//! stone of the side whose view it is, a stone of the other side, or is
//! blocked. Cells are the 64-bit boards' bit indices (rows 8 bits apart), so
//! one layout serves every board up to 8x8.

use crate::bits::Indices;
use crate::board::Board;
use crate::{Ataxx, Move, Virus};
use plateau_core::Side;
use plateau_core::net::{FeatureChanges, NetInputs};

/// Cells per kind of input.
const CELLS: usize = 64;
/// Own stones, the opponent's stones, blocked cells.
pub const INPUTS: usize = 3 * CELLS;

const OWN: usize = 0;
const THEIRS: usize = CELLS;
const BLOCKED: usize = 2 * CELLS;

fn active(board: &Board<u64>, perspective: Side, add: &mut impl FnMut(usize)) {
    let own = perspective.index();
    for cell in Indices(board.stones[own]) {
        add(OWN + cell);
    }
    for cell in Indices(board.stones[1 - own]) {
        add(THEIRS + cell);
    }
    for cell in Indices(board.blocked) {
        add(BLOCKED + cell);
    }
}

/// A stone of `owner` appears on (or leaves) `cell`: its input from both views.
#[inline]
fn stone(owner: Side, viewer: Side, cell: usize) -> usize {
    if owner == viewer {
        OWN + cell
    } else {
        THEIRS + cell
    }
}

fn changes(board: &Board<u64>, mv: Move, changes: &mut FeatureChanges) {
    let mover = board.side;
    let (from, to) = match mv {
        Move::Clone(to) => (None, to.index::<u64>()),
        Move::Jump(from, to) => (Some(from.index::<u64>()), to.index::<u64>()),
        Move::Pass => return,
    };
    let flips = board.geo.ring1[to] & board.stones[1 - mover.index()];
    for viewer in [Side::White, Side::Black] {
        changes.add(viewer, stone(mover, viewer, to));
        if let Some(from) = from {
            changes.remove(viewer, stone(mover, viewer, from));
        }
        for cell in Indices(flips) {
            changes.remove(viewer, stone(!mover, viewer, cell));
            changes.add(viewer, stone(mover, viewer, cell));
        }
    }
}

/// Both games read the same inputs from their 64-bit board.
macro_rules! board_inputs {
    ($($game:ty),*) => {$(
        impl NetInputs for $game {
            const INPUTS: usize = INPUTS;

            fn active_features(&self, perspective: Side, add: &mut impl FnMut(usize)) {
                active(self.board(), perspective, add);
            }

            fn feature_changes(&self, mv: Move, out: &mut FeatureChanges) -> bool {
                changes(self.board(), mv, out);
                true
            }
        }
    )*};
}

board_inputs!(Ataxx, Virus);
