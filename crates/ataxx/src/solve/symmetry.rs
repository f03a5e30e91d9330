//! The eight symmetries of a square board (rotations and reflections), on the
//! 64-bit layout (bit `rank * 8 + file`, the board in the low-left `n x n`
//! corner). The solver stores each position once for all its images, which
//! divides the work on symmetric openings by up to eight.

/// A symmetry, as three bits applied in order: transpose (bit 2), then flip the
/// ranks (bit 1), then flip the files (bit 0). `0` is the identity.
pub(crate) type Symmetry = u8;

/// Reflects across the a1-h8 diagonal: `(file, rank)` -> `(rank, file)`. The
/// `n x n` corner maps onto itself for every `n`.
#[inline]
fn transpose(mut x: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0f0f_0f0f_0000_0000;
    let mut t = K4 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    t = K2 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    t = K1 & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    x
}

/// Rank `r` -> rank `n - 1 - r`.
#[inline]
fn flip_ranks(x: u64, n: usize) -> u64 {
    x.swap_bytes() >> (8 * (8 - n))
}

/// File `f` -> file `n - 1 - f` (after the byte-wise reversal the files sit at
/// `8 - n .. 8` of each byte, so one shift brings them back without spilling).
#[inline]
fn flip_files(x: u64, n: usize) -> u64 {
    x.reverse_bits().swap_bytes() >> (8 - n)
}

/// The image of `x` under `s`.
#[inline]
pub(crate) fn apply(s: Symmetry, x: u64, n: usize) -> u64 {
    let mut y = x;
    if s & 4 != 0 {
        y = transpose(y);
    }
    if s & 2 != 0 {
        y = flip_ranks(y, n);
    }
    if s & 1 != 0 {
        y = flip_files(y, n);
    }
    y
}

/// The inverse image: `invert(s, apply(s, x)) == x`.
#[inline]
pub(crate) fn invert(s: Symmetry, x: u64, n: usize) -> u64 {
    let mut y = x;
    if s & 1 != 0 {
        y = flip_files(y, n);
    }
    if s & 2 != 0 {
        y = flip_ranks(y, n);
    }
    if s & 4 != 0 {
        y = transpose(y);
    }
    y
}

/// The smallest image of the pair `(a, b)` (compared as `(a, b)`) and the
/// symmetry that produces it: one key for all eight images of a position.
#[inline]
pub(crate) fn canonical(a: u64, b: u64, n: usize) -> (u64, u64, Symmetry) {
    let mut best = (a, b, 0);
    let bases = [(a, b), (transpose(a), transpose(b))];
    for (t, &(x, y)) in bases.iter().enumerate() {
        let ranks = (flip_ranks(x, n), flip_ranks(y, n));
        let images = [
            (x, y),
            (flip_files(x, n), flip_files(y, n)),
            ranks,
            (flip_files(ranks.0, n), flip_files(ranks.1, n)),
        ];
        for (f, &(p, q)) in images.iter().enumerate() {
            if (p, q) < (best.0, best.1) {
                best = (p, q, (t as u8) << 2 | f as u8);
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::{Bits, Indices};

    #[test]
    fn the_eight_symmetries_move_cells_and_keep_neighbours() {
        for n in 4..=8 {
            let g = u64::geometry(n).unwrap();
            for s in 0..8u8 {
                let mut images = 0u64;
                for index in Indices(g.cells) {
                    let image = apply(s, 1 << index, n);
                    assert_eq!(image.count_ones(), 1, "n {n} s {s} index {index}");
                    assert_eq!(image & !g.cells, 0, "n {n} s {s} index {index}");
                    assert_eq!(invert(s, image, n), 1 << index);
                    assert_eq!(
                        apply(s, g.ring1[index], n),
                        g.ring1[image.trailing_zeros() as usize]
                    );
                    images |= image;
                }
                assert_eq!(images, g.cells);
            }
            // Eight different maps: where a1 and b1 go tells them apart.
            let mut seen: Vec<(u64, u64)> =
                (0..8u8).map(|s| (apply(s, 1, n), apply(s, 2, n))).collect();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), 8);
        }
    }

    #[test]
    fn canonical_keys_agree_across_images() {
        let n = 5;
        let (a, b) = (0b1_0011u64 | 1 << 17, 1u64 << 12 | 1 << 33);
        let (ka, kb, s) = canonical(a, b, n);
        assert_eq!((apply(s, a, n), apply(s, b, n)), (ka, kb));
        for t in 0..8u8 {
            let (ia, ib) = (apply(t, a, n), apply(t, b, n));
            let (ca, cb, _) = canonical(ia, ib, n);
            assert_eq!((ca, cb), (ka, kb));
        }
    }
}
