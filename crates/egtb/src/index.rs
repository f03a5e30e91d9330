//! Positions to numbers and back, within one material.
//!
//! Boards are dense masks (bit `i` is square `i + 1`), seen from the side to
//! move: its men go towards square 1. The index places, in this order:
//!
//! 1. the side to move's men on squares 6-50 (45 squares; a man on 1-5 would
//!    be a king);
//! 2. the other side's men on squares 1-45 (45 squares). Both men sets are
//!    ranked on their own squares, so an index may put two men on one square:
//!    such entries are *broken* and stand for no position (a few percent of
//!    a slice with men on both sides, 17% for three men against three);
//! 3. the side to move's kings on the squares left free;
//! 4. the other side's kings on the squares still free.
//!
//! Each set is ranked in the combinatorial number system, so a slice has
//! exactly C(45, m0)·C(45, m1)·C(f, k0)·C(f − k0, k1) entries, f = 50 − m0 − m1.

use crate::material::{MAX_PIECES, Material};
use plateau_core::Side;

/// Every square.
pub const SQUARES: u64 = (1 << 50) - 1;

/// `BINOMIAL[n][k]` = C(n, k) for the board's sizes.
static BINOMIAL: [[u64; MAX_PIECES as usize + 1]; 51] = {
    let mut table = [[0u64; MAX_PIECES as usize + 1]; 51];
    let mut n = 0;
    while n <= 50 {
        table[n][0] = 1;
        let mut k = 1;
        while k <= MAX_PIECES as usize {
            table[n][k] = if n == 0 {
                0
            } else {
                table[n - 1][k - 1] + table[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    table
};

#[inline]
pub(crate) fn binomial(n: u32, k: u32) -> u64 {
    BINOMIAL[n as usize][k as usize]
}

/// A position seen from the side to move: its pieces first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    pub men: [u64; 2],
    pub kings: [u64; 2],
}

impl Board {
    /// From a position's dense masks (White first) and the side to move.
    #[inline]
    pub fn from_dense(pieces: [u64; 2], kings: u64, side: Side) -> Board {
        let (us, them) = match side {
            Side::White => (pieces[0], pieces[1]),
            Side::Black => (flip(pieces[1]), flip(pieces[0])),
        };
        let kings = match side {
            Side::White => kings,
            Side::Black => flip(kings),
        };
        Board {
            men: [us & !kings, them & !kings],
            kings: [us & kings, them & kings],
        }
    }

    /// The position's dense masks (White first) with White to move.
    #[inline]
    pub fn to_dense(self) -> ([u64; 2], u64) {
        (
            [self.men[0] | self.kings[0], self.men[1] | self.kings[1]],
            self.kings[0] | self.kings[1],
        )
    }

    /// The same position with the other side to move, seen from that side.
    #[inline]
    pub fn turned(self) -> Board {
        Board {
            men: [flip(self.men[1]), flip(self.men[0])],
            kings: [flip(self.kings[1]), flip(self.kings[0])],
        }
    }

    pub fn material(self) -> Material {
        Material {
            men: [
                self.men[0].count_ones() as u8,
                self.men[1].count_ones() as u8,
            ],
            kings: [
                self.kings[0].count_ones() as u8,
                self.kings[1].count_ones() as u8,
            ],
        }
    }

    pub fn occupied(self) -> u64 {
        self.men[0] | self.men[1] | self.kings[0] | self.kings[1]
    }
}

/// Square `i` to square `49 - i`: the board turned half a turn.
#[inline]
pub fn flip(mask: u64) -> u64 {
    mask.reverse_bits() >> 14
}

/// The number of entries of `material`'s slice.
pub fn slice_len(material: Material) -> u64 {
    let free = 50 - u32::from(material.men[0] + material.men[1]);
    binomial(45, material.men[0].into())
        * binomial(45, material.men[1].into())
        * binomial(free, material.kings[0].into())
        * binomial(
            free - u32::from(material.kings[0]),
            material.kings[1].into(),
        )
}

/// The colex rank of the set `mask` (ranks count from 0).
#[inline]
fn rank_set(mut mask: u64) -> u64 {
    let mut rank = 0;
    let mut k = 1;
    while mask != 0 {
        rank += binomial(mask.trailing_zeros(), k);
        mask &= mask - 1;
        k += 1;
    }
    rank
}

/// The set of `k` elements below `n` whose colex rank is `rank`.
#[inline]
fn unrank_set(mut rank: u64, k: u32, n: u32) -> u64 {
    let mut mask = 0;
    let mut top = n;
    for j in (1..=k).rev() {
        // The largest p < top with C(p, j) <= rank.
        let mut p = top - 1;
        while binomial(p, j) > rank {
            p -= 1;
        }
        rank -= binomial(p, j);
        mask |= 1 << p;
        top = p;
    }
    mask
}

/// `mask`'s squares renumbered among `free`'s (parallel bit extract).
#[inline]
fn extract(mask: u64, free: u64) -> u64 {
    let mut out = 0;
    let mut rest = mask;
    while rest != 0 {
        let bit = rest & rest.wrapping_neg();
        out |= 1 << (free & (bit - 1)).count_ones();
        rest &= rest - 1;
    }
    out
}

/// The inverse of [`extract`] (parallel bit deposit).
#[inline]
fn deposit(compact: u64, free: u64) -> u64 {
    let mut out = 0;
    let mut rest = free;
    let mut i = 0;
    while rest != 0 {
        let bit = rest & rest.wrapping_neg();
        if compact >> i & 1 != 0 {
            out |= bit;
        }
        rest &= rest - 1;
        i += 1;
    }
    out
}

/// Our men on 6-50 are ranked as bits 0-44.
const OUR_MEN_SHIFT: u32 = 5;

/// The board's index in its material's slice. The board must be a real
/// position of that material (no man on its crowning row).
#[inline]
pub fn index_of(board: &Board, material: Material) -> u64 {
    let free_count = 50 - u32::from(material.men[0] + material.men[1]);
    let men = board.men[0] | board.men[1];
    let free = SQUARES & !men;
    let our_kings = extract(board.kings[0], free);
    let their_free = free & !board.kings[0];
    let their_kings = extract(board.kings[1], their_free);
    let mut index = rank_set(board.men[0] >> OUR_MEN_SHIFT);
    index = index * binomial(45, material.men[1].into()) + rank_set(board.men[1]);
    index = index * binomial(free_count, material.kings[0].into()) + rank_set(our_kings);
    index
        * binomial(
            free_count - u32::from(material.kings[0]),
            material.kings[1].into(),
        )
        + rank_set(their_kings)
}

/// The board at `index` of `material`'s slice, or `None` for a broken entry
/// (two men on one square).
#[inline]
pub fn board_at(index: u64, material: Material) -> Option<Board> {
    let free_count = 50 - u32::from(material.men[0] + material.men[1]);
    let [m0, m1] = material.men.map(u32::from);
    let [k0, k1] = material.kings.map(u32::from);
    let their_kings_count = binomial(free_count - k0, k1);
    let our_kings_count = binomial(free_count, k0);
    let their_men_count = binomial(45, m1);
    let mut rest = index;
    let their_kings = rest % their_kings_count;
    rest /= their_kings_count;
    let our_kings = rest % our_kings_count;
    rest /= our_kings_count;
    let their_men = unrank_set(rest % their_men_count, m1, 45);
    let our_men = unrank_set(rest / their_men_count, m0, 45) << OUR_MEN_SHIFT;
    if our_men & their_men != 0 {
        return None;
    }
    let free = SQUARES & !(our_men | their_men);
    let our_kings = deposit(unrank_set(our_kings, k0, free_count), free);
    let their_free = free & !our_kings;
    let their_kings = deposit(unrank_set(their_kings, k1, free_count - k0), their_free);
    Some(Board {
        men: [our_men, their_men],
        kings: [our_kings, their_kings],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_of_small_slices_reads_back() {
        for material in Material::all(3) {
            let len = slice_len(material);
            let mut broken = 0;
            for index in 0..len {
                match board_at(index, material) {
                    Some(board) => {
                        assert_eq!(board.material(), material);
                        assert_eq!(index_of(&board, material), index, "{material}");
                    }
                    None => broken += 1,
                }
            }
            assert!(broken * 10 < len, "{material}: {broken} of {len} broken");
        }
    }

    #[test]
    fn sets_rank_densely() {
        let mut seen = Vec::new();
        for a in 0..10u64 {
            for b in a + 1..10 {
                let mask = 1 << a | 1 << b;
                seen.push(rank_set(mask));
                assert_eq!(unrank_set(rank_set(mask), 2, 10), mask);
            }
        }
        seen.sort_unstable();
        assert_eq!(seen, (0..45).collect::<Vec<_>>());
        let free = 0b1011_0110;
        assert_eq!(deposit(extract(0b0010_0100, free), free), 0b0010_0100);
    }

    #[test]
    fn turning_twice_is_the_same_board() {
        let board = Board {
            men: [1 << 30 | 1 << 41, 1 << 3],
            kings: [1 << 12, 1 << 49],
        };
        assert_eq!(board.turned().turned(), board);
        assert_eq!(flip(1), 1 << 49);
    }
}
