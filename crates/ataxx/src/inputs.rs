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
use crate::{Ataxx, Move, Square, Virus};
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

/// The input map of symmetry `symmetry` (below
/// [`SYMMETRIES`](crate::symmetry::SYMMETRIES)) on an `n x n` board for input
/// set `set`: entry `f` is the input that input `f` of a position becomes in
/// the position's image (`Ataxx::transformed`). Both sets are made of one
/// input per place and state, so a symmetry only renames inputs, the same
/// way from either side's view: a trainer stores a position once and reads
/// its images through the maps, where materialising eight lists a position
/// would cost eight times the memory. A permutation of `0..inputs`; inputs
/// of cells or blocks off the board map to themselves.
pub fn input_map(set: usize, n: usize, symmetry: usize) -> Vec<u16> {
    let cell = |file: usize, rank: usize| -> (usize, usize) {
        let image = crate::symmetry::square(Square::at(file, rank), n, symmetry);
        (image.file(), image.rank())
    };
    let index = |(file, rank): (usize, usize)| rank * 8 + file;
    if set != BLOCKS {
        let mut map: Vec<u16> = (0..INPUTS as u16).collect();
        for rank in 0..n {
            for file in 0..n {
                let (from, to) = (index((file, rank)), index(cell(file, rank)));
                for base in [OWN, THEIRS, BLOCKED] {
                    map[base + from] = (base + to) as u16;
                }
            }
        }
        return map;
    }
    let mut map: Vec<u16> = (0..BLOCK_INPUTS as u16).collect();
    for rank in 0..n {
        for file in 0..n {
            map[BLOCK_GAPS + index((file, rank))] = (BLOCK_GAPS + index(cell(file, rank))) as u16;
        }
    }
    const POWERS: [usize; 4] = [1, 3, 9, 27];
    for rank in 0..n.saturating_sub(1) {
        for file in 0..n.saturating_sub(1) {
            // The block's cells in pattern-digit order, and their images.
            let cells = [(0, 0), (1, 0), (0, 1), (1, 1)].map(|(df, dr)| cell(file + df, rank + dr));
            let low_file = cells.iter().map(|&(f, _)| f).min().unwrap_or(0);
            let low_rank = cells.iter().map(|&(_, r)| r).min().unwrap_or(0);
            let digit_at = cells.map(|(f, r)| (f - low_file) + 2 * (r - low_rank));
            let (from, to) = (rank * BLOCK_SIDE + file, low_rank * BLOCK_SIDE + low_file);
            for pattern in 0..PATTERNS {
                let image: usize = (0..4)
                    .map(|k| (pattern / POWERS[k] % 3) * POWERS[digit_at[k]])
                    .sum();
                map[from * PATTERNS + pattern] = (to * PATTERNS + image) as u16;
            }
        }
    }
    map
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

    /// Every input of every image is the map's image of the position's
    /// input, from both views, on positions with gaps and stones of both
    /// sides in every kind of block; and each map is a permutation.
    #[test]
    fn input_maps_rename_inputs_as_the_symmetries_move_the_board() {
        use crate::symmetry::SYMMETRIES;
        let mut rng = plateau_core::Rng::new(7);
        for set in [0, BLOCKS] {
            for symmetry in 0..SYMMETRIES {
                let map = input_map(set, 7, symmetry);
                let mut sorted = map.clone();
                sorted.sort_unstable();
                assert!(sorted.iter().enumerate().all(|(i, &f)| usize::from(f) == i));
            }
        }
        let texts = [
            "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
            "x6/7/7/7/7/7/6o x 0 1",
            "xxxxxxx/ooooooo/xxxxxxx/ooooooo/xxxxxxx/ooooooo/xxxxxxx o 0 1",
            "x1-o2x/1-3o1/o5x/7/2-2x1/xo3-o/o1x3x o 3 9",
        ];
        let mut games: Vec<Ataxx> = texts.iter().map(|t| Ataxx::from_text(t).unwrap()).collect();
        // Random playouts from the start add crowded, lopsided positions.
        for _ in 0..20 {
            let mut game = crate::gaps::random_gaps(&mut rng);
            let mut moves = plateau_core::MoveList::new();
            for _ in 0..rng.below(60) {
                game.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                game.play(moves[rng.below(moves.len() as u64) as usize]);
            }
            games.push(game);
        }
        // The virus game's smaller and larger boards, mid-game.
        for n in [4, 5, 6, 8] {
            let mut game = Virus::new(n).unwrap();
            let mut moves = plateau_core::MoveList::new();
            for _ in 0..2 * n {
                game.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                game.play(moves[rng.below(moves.len() as u64) as usize]);
            }
            assert_maps_agree(&game, n, |s| game.transformed(s), &format!("virus {n}x{n}"));
        }
        for game in &games {
            assert_maps_agree(game, 7, |s| game.transformed(s), &game.to_text());
        }
    }

    /// Each side's inputs of each image of `game` (on an `n x n` board) are
    /// the maps' images of its own, in both sets.
    fn assert_maps_agree<G: NetInputs>(game: &G, n: usize, image: impl Fn(usize) -> G, what: &str) {
        for set in [0, BLOCKS] {
            for symmetry in 0..crate::symmetry::SYMMETRIES {
                let map = input_map(set, n, symmetry);
                let image = image(symmetry);
                for side in [Side::White, Side::Black] {
                    let mut mapped = Vec::new();
                    game.active_features(set, side, &mut |f| mapped.push(usize::from(map[f])));
                    let mut direct = Vec::new();
                    image.active_features(set, side, &mut |f| direct.push(f));
                    mapped.sort_unstable();
                    direct.sort_unstable();
                    assert_eq!(mapped, direct, "{what}: set {set}, symmetry {symmetry}");
                }
            }
        }
    }

    #[test]
    fn blocked_cells_are_their_own_inputs() {
        let game = Ataxx::from_text("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1").unwrap();
        let list = features(&game, Side::White);
        assert_eq!(list.len(), 36 + 4);
        assert!(list.iter().filter(|&&f| f >= BLOCK_GAPS).count() == 4);
    }
}
