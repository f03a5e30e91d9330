//! Zobrist keys, built at compile time from a fixed seed so hashes are the same on
//! every machine and every run. Keys are per bit index, so the two layouts (u64,
//! u128) each get their own consistent hashes.

use crate::bits::MAX_INDEX;
use plateau_core::zobrist_keys;

const STONES: usize = 2 * MAX_INDEX;
const BLOCKED: usize = STONES;
const SIDE: usize = BLOCKED + MAX_INDEX;
const SIZE: usize = SIDE + 1;
const LEN: usize = SIZE + 10;

const KEYS: [u64; LEN] = zobrist_keys(0x4154_4158_5856_4952); // "ATAXXVIR"

/// A stone of side `side` (0 White, 1 Black) on bit `index`.
#[inline]
pub(crate) fn stone(side: usize, index: usize) -> u64 {
    KEYS[side * MAX_INDEX + index]
}

/// A stone changing colour on bit `index`.
pub(crate) static FLIP: [u64; MAX_INDEX] = {
    let mut table = [0u64; MAX_INDEX];
    let mut i = 0;
    while i < MAX_INDEX {
        table[i] = KEYS[i] ^ KEYS[MAX_INDEX + i];
        i += 1;
    }
    table
};

/// A blocked cell on bit `index` (constant during a game, but part of the key so
/// that layouts never share table entries).
#[inline]
pub(crate) fn blocked(index: usize) -> u64 {
    KEYS[BLOCKED + index]
}

/// Toggled when Black is to move.
pub(crate) const BLACK_TO_MOVE: u64 = KEYS[SIDE];

/// The board side, so that sizes never share table entries.
#[inline]
pub(crate) fn size(n: usize) -> u64 {
    KEYS[SIZE + n.min(9)]
}
