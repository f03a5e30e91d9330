//! Bitboards of two widths behind one trait, and the per-size geometry tables.
//!
//! Boards up to 8x8 fit a `u64` (rows 8 bits apart); the 9x9 virus board needs a
//! `u128` (rows 9 bits apart). The rules are written once, generic over [`Bits`],
//! so the common sizes keep 64-bit speed and 9x9 costs only itself.
//!
//! Cell `(file, rank)` is bit `rank * STRIDE + file`; bits outside the `n x n`
//! board are always zero in every set the rules keep.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

/// Largest bit index any geometry uses, plus one (9 rows of 9 bits).
pub const MAX_INDEX: usize = 81;

/// A set of cells as an unsigned integer.
pub trait Bits:
    Copy
    + Eq
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<usize, Output = Self>
    + Shr<usize, Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    const ZERO: Self;
    /// Bits from one rank to the next.
    const STRIDE: usize;
    /// Largest board side this width holds.
    const MAX_SIZE: usize;
    /// Bit indices used by the largest board (`MAX_SIZE` rows of `STRIDE`).
    const INDICES: usize;

    /// The tables of the `n x n` board, if this width holds it.
    fn geometry(n: usize) -> Option<&'static Geometry<Self>>;

    /// The set holding only bit `index`.
    fn bit(index: usize) -> Self;

    fn count(self) -> u32;

    /// Index of the lowest set bit (the set must not be empty).
    fn lowest(self) -> usize;

    /// The set without its lowest bit.
    fn without_lowest(self) -> Self;

    #[inline]
    fn is_zero(self) -> bool {
        self == Self::ZERO
    }

    #[inline]
    fn has(self, index: usize) -> bool {
        !(self & Self::bit(index)).is_zero()
    }
}

/// Iterates the indices of a set, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Indices<B>(pub B);

impl<B: Bits> Iterator for Indices<B> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0.is_zero() {
            None
        } else {
            let index = self.0.lowest();
            self.0 = self.0.without_lowest();
            Some(index)
        }
    }
}

/// The masks and neighbour tables of one board size, built at compile time.
#[derive(Debug)]
pub struct Geometry<B> {
    /// Board side.
    pub n: usize,
    /// Every cell of the board.
    pub cells: B,
    /// Cells not on file a (may shift towards file a).
    pub not_first_file: B,
    /// Cells not on the last file (may shift away from file a).
    pub not_last_file: B,
    /// The four corners.
    pub corners: B,
    /// Border cells other than the corners.
    pub edges: B,
    /// Per cell, the cells at Chebyshev distance 1 (clone targets, capture zone).
    pub ring1: [B; MAX_INDEX],
    /// Per cell, the cells at Chebyshev distance exactly 2 (jump targets).
    pub ring2: [B; MAX_INDEX],
}

impl<B: Bits> Geometry<B> {
    /// The cells next to any cell of `set`, and `set` itself, on the board.
    #[inline]
    pub fn dilate(&self, set: B) -> B {
        let row = set | ((set & self.not_last_file) << 1) | ((set & self.not_first_file) >> 1);
        (row | (row << B::STRIDE) | (row >> B::STRIDE)) & self.cells
    }

    /// The cells within Chebyshev distance 2 of `set` (5x5 blocks).
    #[inline]
    pub fn dilate2(&self, set: B) -> B {
        self.dilate(self.dilate(set))
    }

    /// How many cells of `set` each cell touches, as four bit planes (bit `p` of
    /// the count in plane `p`); cells of `set` itself are not counted as their
    /// own neighbours.
    #[inline]
    pub fn neighbour_counts(&self, set: B) -> [B; 4] {
        let s = B::STRIDE;
        let east = set & self.not_last_file;
        let west = set & self.not_first_file;
        let shifted = [
            set << s,
            set >> s,
            east << 1,
            west >> 1,
            east << (s + 1),
            west << (s - 1),
            east >> (s - 1),
            west >> (s + 1),
        ];
        let mut planes = [B::ZERO; 4];
        for d in shifted {
            let d = d & self.cells;
            let c0 = planes[0] & d;
            planes[0] ^= d;
            let c1 = planes[1] & c0;
            planes[1] ^= c0;
            let c2 = planes[2] & c1;
            planes[2] ^= c1;
            planes[3] |= c2;
        }
        planes
    }
}

/// The largest count (0-8) among the cells of `among`, from planes built by
/// [`Geometry::neighbour_counts`].
#[inline]
pub fn max_count<B: Bits>(planes: &[B; 4], among: B) -> u32 {
    if among.is_zero() {
        return 0;
    }
    if !(planes[3] & among).is_zero() {
        return 8;
    }
    let mut candidates = among;
    let mut best = 0;
    for p in (0..3).rev() {
        let with = candidates & planes[p];
        if !with.is_zero() {
            candidates = with;
            best |= 1 << p;
        }
    }
    best
}

macro_rules! geometry_builder {
    ($name:ident, $t:ty, $stride:expr) => {
        const fn $name(n: usize) -> Geometry<$t> {
            let mut g = Geometry {
                n,
                cells: 0,
                not_first_file: 0,
                not_last_file: 0,
                corners: 0,
                edges: 0,
                ring1: [0; MAX_INDEX],
                ring2: [0; MAX_INDEX],
            };
            let mut rank = 0;
            while rank < n {
                let mut file = 0;
                while file < n {
                    let index = rank * $stride + file;
                    let bit: $t = 1 << index;
                    g.cells |= bit;
                    if file != 0 {
                        g.not_first_file |= bit;
                    }
                    if file != n - 1 {
                        g.not_last_file |= bit;
                    }
                    let border_file = file == 0 || file == n - 1;
                    let border_rank = rank == 0 || rank == n - 1;
                    if border_file && border_rank {
                        g.corners |= bit;
                    } else if border_file || border_rank {
                        g.edges |= bit;
                    }
                    let mut r2 = 0;
                    while r2 < n {
                        let mut f2 = 0;
                        while f2 < n {
                            let dr = if r2 > rank { r2 - rank } else { rank - r2 };
                            let df = if f2 > file { f2 - file } else { file - f2 };
                            let d = if dr > df { dr } else { df };
                            let other: $t = 1 << (r2 * $stride + f2);
                            if d == 1 {
                                g.ring1[index] |= other;
                            } else if d == 2 {
                                g.ring2[index] |= other;
                            }
                            f2 += 1;
                        }
                        r2 += 1;
                    }
                    file += 1;
                }
                rank += 1;
            }
            g
        }
    };
}

geometry_builder!(geometry_64, u64, 8);
geometry_builder!(geometry_128, u128, 9);

static GEOMETRY_64: [Geometry<u64>; 5] = [
    geometry_64(4),
    geometry_64(5),
    geometry_64(6),
    geometry_64(7),
    geometry_64(8),
];

static GEOMETRY_128: [Geometry<u128>; 6] = [
    geometry_128(4),
    geometry_128(5),
    geometry_128(6),
    geometry_128(7),
    geometry_128(8),
    geometry_128(9),
];

/// The 7x7 tables, for full Ataxx.
pub(crate) static GEOMETRY_7: &Geometry<u64> = &GEOMETRY_64[3];

/// Smallest board side either game accepts.
pub const MIN_SIZE: usize = 4;

impl Bits for u64 {
    const ZERO: u64 = 0;
    const STRIDE: usize = 8;
    const MAX_SIZE: usize = 8;
    const INDICES: usize = 64;

    #[inline]
    fn geometry(n: usize) -> Option<&'static Geometry<u64>> {
        GEOMETRY_64.get(n.checked_sub(MIN_SIZE)?)
    }

    #[inline]
    fn bit(index: usize) -> u64 {
        1 << index
    }

    #[inline]
    fn count(self) -> u32 {
        self.count_ones()
    }

    #[inline]
    fn lowest(self) -> usize {
        self.trailing_zeros() as usize
    }

    #[inline]
    fn without_lowest(self) -> u64 {
        self & self.wrapping_sub(1)
    }
}

impl Bits for u128 {
    const ZERO: u128 = 0;
    const STRIDE: usize = 9;
    const MAX_SIZE: usize = 9;
    const INDICES: usize = 81;

    #[inline]
    fn geometry(n: usize) -> Option<&'static Geometry<u128>> {
        GEOMETRY_128.get(n.checked_sub(MIN_SIZE)?)
    }

    #[inline]
    fn bit(index: usize) -> u128 {
        1 << index
    }

    #[inline]
    fn count(self) -> u32 {
        self.count_ones()
    }

    #[inline]
    fn lowest(self) -> usize {
        self.trailing_zeros() as usize
    }

    #[inline]
    fn without_lowest(self) -> u128 {
        self & self.wrapping_sub(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check<B: Bits>() {
        for n in MIN_SIZE..=B::MAX_SIZE {
            let g = B::geometry(n).unwrap();
            assert_eq!(g.n, n);
            assert_eq!(g.cells.count() as usize, n * n);
            assert_eq!(g.corners.count(), 4);
            assert_eq!(g.edges.count() as usize, 4 * (n - 2));
            for index in Indices(g.cells) {
                let one = B::bit(index);
                assert_eq!(g.dilate(one), g.ring1[index] | one);
                assert_eq!(g.dilate2(one), g.ring2[index] | g.ring1[index] | one);
                let planes = g.neighbour_counts(one);
                assert_eq!(max_count(&planes, g.ring1[index]), 1);
                assert_eq!(max_count(&planes, one), 0);
            }
            let planes = g.neighbour_counts(g.cells);
            assert_eq!(max_count(&planes, g.cells), 8);
            assert_eq!(max_count(&planes, g.corners), 3);
        }
        assert!(B::geometry(MIN_SIZE - 1).is_none());
        assert!(B::geometry(B::MAX_SIZE + 1).is_none());
    }

    #[test]
    fn geometries_are_consistent() {
        check::<u64>();
        check::<u128>();
    }
}
