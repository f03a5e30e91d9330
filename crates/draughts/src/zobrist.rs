//! Zobrist keys, built at compile time from a fixed seed so hashes are the same on
//! every machine and every run.

use plateau_core::zobrist_keys;

/// Board bits a key exists for (ghost bits included, never used).
const BITS: usize = 54;

const KEYS: [u64; 4 * BITS + 1] = zobrist_keys(0x4452_4155_4748_5453); // "DRAUGHTS"

/// Key of a piece on a board bit: `kind` = side index * 2, + 1 for a king.
#[inline(always)]
pub(crate) fn piece(kind: usize, bit: u32) -> u64 {
    KEYS[kind * BITS + bit as usize]
}

/// Toggled when Black is to move.
pub(crate) const BLACK_TO_MOVE: u64 = KEYS[4 * BITS];
