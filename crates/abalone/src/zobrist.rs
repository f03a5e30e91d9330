//! Zobrist keys, built at compile time from a fixed seed so hashes are the same on
//! every machine and every run.

use plateau_core::zobrist_keys;

/// Padded-grid bits that can hold a marble (cells are bits 0..89).
const BITS: usize = 90;

const KEYS: [u64; 2 * BITS + 1] = zobrist_keys(0x41_4241_4C4F_4E45); // "ABALONE"

/// Key of a marble of side `side` (0 white, 1 black) on padded bit `bit`.
#[inline]
pub(crate) fn marble(side: usize, bit: usize) -> u64 {
    KEYS[side * BITS + bit]
}

/// Toggled when Black is to move.
pub(crate) const BLACK_TO_MOVE: u64 = KEYS[2 * BITS];
