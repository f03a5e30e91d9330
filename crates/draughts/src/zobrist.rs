//! Zobrist keys, built at compile time from a fixed seed so hashes are the same on
//! every machine and every run.

use plateau_core::zobrist_keys;

const FLAT: [u64; 4 * 64 + 1] = zobrist_keys(0x4452_4155_4748_5453); // "DRAUGHTS"

/// Keys by piece kind and board bit (64 per kind, so that indexing needs no
/// bounds check; ghost bits have keys that are never used).
const KEYS: [[u64; 64]; 4] = {
    let mut keys = [[0u64; 64]; 4];
    let mut kind = 0;
    while kind < 4 {
        let mut bit = 0;
        while bit < 64 {
            keys[kind][bit] = FLAT[kind * 64 + bit];
            bit += 1;
        }
        kind += 1;
    }
    keys
};

/// Key of a piece on a board bit: `kind` = side index * 2, + 1 for a king.
#[inline(always)]
pub(crate) fn piece(kind: usize, bit: u32) -> u64 {
    KEYS[kind & 3][bit as usize & 63]
}

/// Toggled when Black is to move.
pub(crate) const BLACK_TO_MOVE: u64 = FLAT[4 * 64];
