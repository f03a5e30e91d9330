//! Network inputs for the Ataxx family, in two sets:
//!
//! - `cells`: for each cell, whether it holds a stone of the side whose view
//!   it is, a stone of the other side, or is blocked;
//! - `blocks`: for each 2x2 block of cells on the board, its pattern of
//!   own, opposing and empty cells (3⁴ = 81 patterns), plus the blocked
//!   cells. A network then sees the local shapes that decide captures
//!   (a hole among the opponent's stones, a wall of one's own) directly,
//!   where single cells leave them for the hidden layer to find: the input
//!   of the strongest Ataxx networks (Zataxx's "2-tuples").
//!
//! Cells are the 64-bit boards' bit indices (rows 8 bits apart), so one
//! layout serves every board up to 8x8; a block is numbered by its
//! lowest cell (file and rank below 7).

use crate::bits::Indices;
use crate::board::Board;
use crate::{Ataxx, Move, Virus};
use plateau_core::Side;
use plateau_core::net::{FeatureChanges, InputSet, NetInputs};

/// Cells per kind of input.
const CELLS: usize = 64;
/// The `cells` set: own stones, the opponent's stones, blocked cells.
pub const INPUTS: usize = 3 * CELLS;

const OWN: usize = 0;
const THEIRS: usize = CELLS;
const BLOCKED: usize = 2 * CELLS;

/// Blocks per side of the layout: a block's lowest cell has file and rank
/// below 7.
const BLOCK_SIDE: usize = 7;
/// Patterns of one 2x2 block: each cell empty, own or opposing.
const PATTERNS: usize = 81;
/// Where the `blocks` set's blocked-cell inputs start.
const BLOCK_GAPS: usize = BLOCK_SIDE * BLOCK_SIDE * PATTERNS;
/// The `blocks` set: a pattern per block, then the blocked cells.
pub const BLOCK_INPUTS: usize = BLOCK_GAPS + CELLS;

/// The two sets, in the order `set` indexes them.
pub const SETS: &[InputSet] = &[
    InputSet {
        name: "cells",
        inputs: INPUTS,
    },
    InputSet {
        name: "blocks",
        inputs: BLOCK_INPUTS,
    },
];

/// `set` for the `blocks` inputs.
const BLOCKS: usize = 1;

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

/// The base-3 value of a 4-bit mask (bit k worth 3^k): a block's cells of
/// one kind as a pattern digit string.
const TERNARY: [usize; 16] = {
    let mut table = [0; 16];
    let mut mask = 0;
    while mask < 16 {
        let powers = [1, 3, 9, 27];
        let mut k = 0;
        while k < 4 {
            if mask & (1 << k) != 0 {
                table[mask] += powers[k];
            }
            k += 1;
        }
        mask += 1;
    }
    table
};

/// The cells of the block whose lowest cell is `anchor`, as 4 bits: the
/// anchor, its east neighbour, then the two above.
#[inline]
fn block_bits(set: u64, anchor: usize) -> usize {
    (((set >> anchor) & 3) | (((set >> (anchor + 8)) & 3) << 2)) as usize
}

/// The input of the block at `anchor` with `own` and `theirs` stones.
#[inline]
fn block_input(own: u64, theirs: u64, anchor: usize) -> usize {
    let index = (anchor / 8) * BLOCK_SIDE + anchor % 8;
    index * PATTERNS + TERNARY[block_bits(own, anchor)] + 2 * TERNARY[block_bits(theirs, anchor)]
}

/// The lowest cells of the 2x2 blocks that lie on the board.
#[inline]
fn anchors(board: &Board<u64>) -> u64 {
    let cells = board.geo.cells;
    cells & board.geo.not_last_file & (cells >> 8)
}

fn active_blocks(board: &Board<u64>, perspective: Side, add: &mut impl FnMut(usize)) {
    let own = board.stones[perspective.index()];
    let theirs = board.stones[1 - perspective.index()];
    for anchor in Indices(anchors(board)) {
        add(block_input(own, theirs, anchor));
    }
    for cell in Indices(board.blocked) {
        add(BLOCK_GAPS + cell);
    }
}

/// The blocks a move touches lose their old pattern and gain the new one;
/// blocked cells never change.
fn block_changes(board: &Board<u64>, mv: Move, changes: &mut FeatureChanges) {
    let mover = board.side.index();
    let (from, to) = match mv {
        Move::Clone(to) => (0, to.index::<u64>()),
        Move::Jump(from, to) => (1u64 << from.index::<u64>(), to.index::<u64>()),
        Move::Pass => return,
    };
    let flips = board.geo.ring1[to] & board.stones[1 - mover];
    let changed = from | 1u64 << to | flips;
    let mut after = board.stones;
    after[mover] = (after[mover] | 1u64 << to | flips) & !from;
    after[1 - mover] &= !flips;
    // A block is touched when any of its four cells changed.
    let touched = (changed | changed >> 1 | changed >> 8 | changed >> 9) & anchors(board);
    for viewer in [Side::White, Side::Black] {
        let (own, theirs) = (viewer.index(), 1 - viewer.index());
        for anchor in Indices(touched) {
            changes.remove(
                viewer,
                block_input(board.stones[own], board.stones[theirs], anchor),
            );
            changes.add(viewer, block_input(after[own], after[theirs], anchor));
        }
    }
}

/// Both games read the same inputs from their 64-bit board.
macro_rules! board_inputs {
    ($($game:ty),*) => {$(
        impl NetInputs for $game {
            const INPUT_SETS: &'static [InputSet] = SETS;

            fn active_features(&self, set: usize, perspective: Side, add: &mut impl FnMut(usize)) {
                if set == BLOCKS {
                    active_blocks(self.board(), perspective, add);
                } else {
                    active(self.board(), perspective, add);
                }
            }

            fn feature_changes(&self, set: usize, mv: Move, out: &mut FeatureChanges) -> bool {
                if set == BLOCKS {
                    block_changes(self.board(), mv, out);
                } else {
                    changes(self.board(), mv, out);
                }
                true
            }
        }
    )*};
}

board_inputs!(Ataxx, Virus);

#[cfg(test)]
mod tests {
    use super::*;
    use plateau_core::Game;

    fn features(game: &Ataxx, side: Side) -> Vec<usize> {
        let mut list = Vec::new();
        game.active_features(BLOCKS, side, &mut |f| list.push(f));
        list
    }

    #[test]
    fn a_7x7_board_has_36_blocks_in_range() {
        let game = Ataxx::new();
        let list = features(&game, Side::White);
        assert_eq!(list.len(), 36);
        assert!(list.iter().all(|&f| f < BLOCK_GAPS));
        // a1 holds White's stone (o) at the start: from White's view, the
        // block a1-b2 (block 0) has an own stone in its first cell (digit 1).
        assert!(list.contains(&1));
        // From Black's view the same cell is an opposing stone: digit 2.
        assert!(features(&game, Side::Black).contains(&2));
    }

    #[test]
    fn blocked_cells_are_their_own_inputs() {
        let game = Ataxx::from_text("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1").unwrap();
        let list = features(&game, Side::White);
        assert_eq!(list.len(), 36 + 4);
        assert!(list.iter().filter(|&&f| f >= BLOCK_GAPS).count() == 4);
    }
}
