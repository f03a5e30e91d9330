//! Where a piece can go: lookup tables indexed by the emptiness of the squares
//! its paths may cross.
//!
//! A piece on a liseré-k square makes exactly k steps over empty squares, never
//! revisiting one. The arrival set depends only on which of the squares at
//! distance 1..k-1 are empty, so for each square we precompute it for every
//! pattern of those squares (at most 4 for liseré 2, 12 for liseré 3).

use crate::Square;
use crate::square::{NEIGHBOURS, squares};
use std::sync::LazyLock;

/// Per square: the squares whose emptiness matters, and the arrival sets for
/// every pattern of them.
struct SquareTable {
    relevant: Vec<u8>,
    reach: Vec<u64>,
}

static TABLES: LazyLock<Vec<SquareTable>> = LazyLock::new(|| {
    Square::all()
        .map(|from| {
            let relevant = relevant_squares(from);
            let reach = (0..1u64 << relevant.len())
                .map(|pattern| {
                    let mut empty = 0;
                    for (i, &sq) in relevant.iter().enumerate() {
                        if pattern >> i & 1 != 0 {
                            empty |= 1u64 << sq;
                        }
                    }
                    walk(from, empty)
                })
                .collect();
            SquareTable { relevant, reach }
        })
        .collect()
});

/// Squares at distance 1 .. lisere-1 from `from`: the possible intermediate
/// squares of its paths.
fn relevant_squares(from: Square) -> Vec<u8> {
    let mut mask = 0u64;
    let mut frontier = from.bit();
    for _ in 1..from.lisere() {
        let mut next = 0;
        for sq in squares(frontier) {
            next |= NEIGHBOURS[sq.index()];
        }
        mask |= next;
        frontier = next;
    }
    mask &= !from.bit();
    squares(mask).map(|sq| sq.index() as u8).collect()
}

/// The arrival squares by exhaustive search of the simple paths (used to fill
/// the tables; `empty` must not contain `from`).
fn walk(from: Square, empty: u64) -> u64 {
    fn go(at: usize, steps: u8, visited: u64, empty: u64, out: &mut u64) {
        if steps == 0 {
            *out |= 1 << at;
            return;
        }
        for next in squares(NEIGHBOURS[at] & !visited) {
            let bit = next.bit();
            if steps > 1 && empty & bit == 0 {
                continue;
            }
            go(next.index(), steps - 1, visited | bit, empty, out);
        }
    }
    let mut out = 0;
    go(
        from.index(),
        from.lisere(),
        from.bit(),
        empty & !from.bit(),
        &mut out,
    );
    out
}

/// Squares a piece on `from` reaches with exactly `lisere(from)` steps over the
/// `empty` squares (the arrival square itself may be occupied).
#[inline]
pub(crate) fn reachable(from: Square, empty: u64) -> u64 {
    if from.lisere() == 1 {
        return NEIGHBOURS[from.index()];
    }
    let table = &TABLES[from.index()];
    let mut pattern = 0usize;
    for (i, &sq) in table.relevant.iter().enumerate() {
        pattern |= ((empty >> sq) as usize & 1) << i;
    }
    table.reach[pattern]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relevant_squares_are_few() {
        for sq in Square::all() {
            let n = relevant_squares(sq).len();
            match sq.lisere() {
                1 => assert_eq!(n, 0),
                2 => assert!(n <= 4),
                _ => assert!(n <= 12),
            }
        }
    }

    #[test]
    fn tables_agree_with_the_walk_on_random_boards() {
        let mut rng = plateau_core::Rng::new(3);
        for _ in 0..20_000 {
            let empty = rng.next_u64() & rng.next_u64() & ((1u64 << 36) - 1);
            for from in Square::all() {
                let empty = empty & !from.bit();
                assert_eq!(
                    reachable(from, empty),
                    walk(from, empty),
                    "{from} {empty:#x}"
                );
            }
        }
    }
}
