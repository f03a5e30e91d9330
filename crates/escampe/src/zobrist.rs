//! Zobrist keys, built at compile time from a fixed seed so hashes are the same on
//! every machine and every run.

use plateau_core::zobrist_keys;

const KEYS: [u64; 4 * 36 + 1 + 4] = zobrist_keys(0x45_5343_414D_5045); // "ESCAMPE"

/// Key of a piece: `kind` = side index * 2 + 1 for a unicorn, + 0 for a paladin.
#[inline]
pub(crate) fn piece(kind: usize, square: usize) -> u64 {
    KEYS[kind * 36 + square]
}

/// Toggled when Black is to move.
pub(crate) const BLACK_TO_MOVE: u64 = KEYS[4 * 36];

/// Key of the imposed liseré (0 = free).
#[inline]
pub(crate) fn constraint(lisere: u8) -> u64 {
    KEYS[4 * 36 + 1 + lisere as usize]
}
