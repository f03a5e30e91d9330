//! Move generation by whole-board shifts: every mask below holds, for one
//! direction, the anchor cells of all moves of one kind, so counting moves is a
//! handful of popcounts and listing them never allocates.

use crate::Move;
use crate::board::{BOARD, Cell, Direction, shift};
use plateau_core::MoveList;

/// Inline moves in one direction, as anchor (trailing marble) masks.
#[derive(Clone, Copy, Default)]
struct Inline {
    /// Groups of 1, 2, 3 moving into an empty cell.
    simple: [u128; 3],
    /// 2 push 1, 3 push 1, 3 push 2.
    push: [u128; 3],
    /// The subsets of `push` that eject the last pushed marble.
    eject: [u128; 3],
}

/// Group size and pushed count of each `push` entry.
const PUSH_SHAPES: [(u8, u8); 3] = [(2, 1), (3, 1), (3, 2)];

/// The inline moves of `own` against `opp` in the direction of bit offset `D`.
#[inline(always)]
fn inline_masks<const D: i32>(own: u128, opp: u128) -> Inline {
    let d = D;
    let occupied = own | opp;
    let empty = BOARD & !occupied;
    // `back(x, k)` has bit c set when c + k·d is in x; cells beyond the integer
    // shift in as zeros, which reads "no marble" (right for `occupied`) and
    // "not on the board" (right for `empty` and `BOARD`).
    let back = |mask: u128, k: i32| shift(mask, -k * d);
    let own2 = own & back(own, 1);
    let own3 = own2 & back(own2, 1);
    let opp_at = |k| back(opp, k);
    let free_at = |k| !back(occupied, k);
    let off_at = |k| !back(BOARD, k);
    let p21 = own2 & opp_at(2) & free_at(3);
    let p31 = own3 & opp_at(3) & free_at(4);
    let p32 = own3 & opp_at(3) & opp_at(4) & free_at(5);
    Inline {
        simple: [
            own & back(empty, 1),
            own2 & back(empty, 2),
            own3 & back(empty, 3),
        ],
        push: [p21, p31, p32],
        eject: [p21 & off_at(3), p31 & off_at(4), p32 & off_at(5)],
    }
}

/// Pairs and triples of `own` along axis offset `A` (anchored on their lowest
/// cell), and the same for `empty`: what broadsides along that axis need.
#[derive(Clone, Copy)]
struct Lines {
    own: [u128; 2],
    free: [u128; 2],
}

#[inline(always)]
fn lines<const A: i32>(own: u128, empty: u128) -> Lines {
    let own2 = own & shift(own, -A);
    let free2 = empty & shift(empty, -A);
    Lines {
        own: [own2, own2 & shift(own2, -A)],
        free: [free2, free2 & shift(free2, -A)],
    }
}

/// Broadsides of those pairs and triples moving by offset `D`: anchor masks.
#[inline(always)]
fn broadside_masks<const D: i32>(lines: &Lines) -> [u128; 2] {
    [
        lines.own[0] & shift(lines.free[0], -D),
        lines.own[1] & shift(lines.free[1], -D),
    ]
}

// The macros below spell the direction offsets out as literals.
const _: () = assert!(
    Direction::DELTAS[0] == 1
        && Direction::DELTAS[1] == 11
        && Direction::DELTAS[2] == 10
        && Direction::DELTAS[3] == -1
        && Direction::DELTAS[4] == -11
        && Direction::DELTAS[5] == -10
);

/// Calls `$body!(dir_index, delta)` for the six directions, with constants.
macro_rules! each_direction {
    ($f:ident) => {
        $f!(0, 1);
        $f!(1, 11);
        $f!(2, 10);
        $f!(3, -1);
        $f!(4, -11);
        $f!(5, -10);
    };
}

/// Calls `$f!(axis, axis_delta, dir_index, delta)` for the twelve (axis,
/// sideways direction) pairs of broadsides.
macro_rules! each_broadside {
    ($f:ident) => {
        $f!(0, 1, 1, 11);
        $f!(0, 1, 2, 10);
        $f!(0, 1, 4, -11);
        $f!(0, 1, 5, -10);
        $f!(1, 11, 0, 1);
        $f!(1, 11, 2, 10);
        $f!(1, 11, 3, -1);
        $f!(1, 11, 5, -10);
        $f!(2, 10, 0, 1);
        $f!(2, 10, 1, 11);
        $f!(2, 10, 3, -1);
        $f!(2, 10, 4, -11);
    };
}

#[inline(always)]
fn popcount(mask: u128) -> u32 {
    mask.count_ones()
}

/// The moves along axis offset `A` (inline both ways) and across it
/// (broadsides in the `S1`..`S4` directions), counted with groups anchored on
/// their lowest cell so that both inline directions share the line masks.
#[inline(always)]
fn axis_count<const A: i32, const S1: i32, const S2: i32, const S3: i32, const S4: i32>(
    own: u128,
    opp: u128,
    empty: u128,
) -> u32 {
    let occupied = own | opp;
    // `up(m, k)`: bit c set when c + k·A is in m; `down(m, k)`: when c − k·A is.
    let up = |mask: u128, k: i32| shift(mask, -k * A);
    let down = |mask: u128, k: i32| shift(mask, k * A);
    let own2 = own & up(own, 1);
    let own3 = own2 & up(own2, 1);
    let empty_up = up(empty, 1);
    let empty_down = down(empty, 1);
    let mut total = popcount(own & empty_up)
        + popcount(own & empty_down)
        + popcount(own2 & up(empty, 2))
        + popcount(own2 & empty_down)
        + popcount(own3 & up(empty, 3))
        + popcount(own3 & empty_down);
    let opp_up2 = up(opp, 2);
    let opp_down = down(opp, 1);
    if own2 & (opp_up2 | opp_down) != 0 {
        // Off-board cells shift in as unoccupied: pushing off is allowed.
        total += popcount(own2 & opp_up2 & !up(occupied, 3))
            + popcount(own2 & opp_down & !down(occupied, 2));
        let opp_up3 = up(opp, 3);
        total += popcount(own3 & opp_up3 & !up(occupied, 4))
            + popcount(own3 & opp_down & !down(occupied, 2))
            + popcount(own3 & opp_up3 & up(opp, 4) & !up(occupied, 5))
            + popcount(own3 & opp_down & down(opp, 2) & !down(occupied, 3));
    }
    let free2 = empty & empty_up;
    let free3 = free2 & up(free2, 1);
    for side in [S1, S2, S3, S4] {
        total += popcount(own2 & shift(free2, -side)) + popcount(own3 & shift(free3, -side));
    }
    total
}

/// How many legal moves `own` has against `opp` (the game not being over).
///
/// Counting is mostly popcounts, and the default x86-64 target has no popcount
/// instruction (software popcounts are several times slower), so where the
/// processor has one a copy compiled for it is used.
#[inline]
pub(crate) fn count(own: u128, opp: u128) -> u32 {
    with_popcnt!(count_portable(own, opp))
}

/// Evaluates `$call` in a copy of the code compiled with the processor's
/// popcount instruction when it has one, portably otherwise.
macro_rules! with_popcnt {
    ($call:expr) => {{
        #[cfg(target_arch = "x86_64")]
        {
            #[target_feature(enable = "popcnt")]
            fn fast<T>(f: impl FnOnce() -> T) -> T {
                f()
            }
            if std::arch::is_x86_feature_detected!("popcnt") {
                // SAFETY: the processor has the instruction, checked just above.
                unsafe { fast(|| $call) }
            } else {
                $call
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            $call
        }
    }};
}
pub(crate) use with_popcnt;

#[inline(always)]
fn count_portable(own: u128, opp: u128) -> u32 {
    let empty = BOARD & !(own | opp);
    axis_count::<1, 11, 10, -11, -10>(own, opp, empty)
        + axis_count::<11, 1, 10, -1, -10>(own, opp, empty)
        + axis_count::<10, 1, 11, -1, -11>(own, opp, empty)
}

/// Appends every legal move of `own` against `opp` to `out`.
#[inline]
pub(crate) fn generate(own: u128, opp: u128, out: &mut MoveList<Move>) {
    let empty = BOARD & !(own | opp);
    macro_rules! inline {
        ($i:literal, $d:literal) => {
            let dir = Direction::from_index($i);
            let m = inline_masks::<$d>(own, opp);
            for (k, &mask) in m.simple.iter().enumerate() {
                for_each_bit(mask, |cell| {
                    out.push(Move::inline(cell, dir, k as u8 + 1, 0, false));
                });
            }
            for (k, &(len, pushed)) in PUSH_SHAPES.iter().enumerate() {
                let eject = m.eject[k];
                for_each_bit(m.push[k], |cell| {
                    let ejects = eject & cell.bit() != 0;
                    out.push(Move::inline(cell, dir, len, pushed, ejects));
                });
            }
        };
    }
    each_direction!(inline);
    let axes = [
        lines::<1>(own, empty),
        lines::<11>(own, empty),
        lines::<10>(own, empty),
    ];
    macro_rules! broadside {
        ($axis:literal, $a:literal, $i:literal, $d:literal) => {
            let dir = Direction::from_index($i);
            let masks = broadside_masks::<$d>(&axes[$axis]);
            for (k, &mask) in masks.iter().enumerate() {
                for_each_bit(mask, |cell| {
                    out.push(Move::broadside(cell, $axis, dir, k as u8 + 2));
                });
            }
        };
    }
    each_broadside!(broadside);
}

/// Appends the moves that eject an enemy marble; returns how many there are.
pub(crate) fn generate_ejections(own: u128, opp: u128, out: &mut MoveList<Move>) -> u32 {
    let mut found = 0;
    macro_rules! inline {
        ($i:literal, $d:literal) => {
            let dir = Direction::from_index($i);
            let m = inline_masks::<$d>(own, opp);
            for (k, &(len, pushed)) in PUSH_SHAPES.iter().enumerate() {
                for_each_bit(m.eject[k], |cell| {
                    out.push(Move::inline(cell, dir, len, pushed, true));
                    found += 1;
                });
            }
        };
    }
    each_direction!(inline);
    found
}

/// The pushes along axis offset `A`, both ways, for [`attacks`]: groups are
/// anchored on their lowest cell as in [`axis_count`].
#[inline(always)]
fn axis_attacks<const A: i32>(own: u128, opp: u128) -> (u128, u32) {
    let up = |mask: u128, k: i32| shift(mask, -k * A);
    let down = |mask: u128, k: i32| shift(mask, k * A);
    let own2 = own & up(own, 1);
    let opp_up2 = up(opp, 2);
    let opp_down = down(opp, 1);
    if own2 & (opp_up2 | opp_down) == 0 {
        return (0, 0);
    }
    let own3 = own2 & up(own2, 1);
    let occupied = own | opp;
    let opp_up3 = up(opp, 3);
    // Towards +A: the group's front is 2 or 3 cells above the anchor.
    let p21 = own2 & opp_up2 & !up(occupied, 3);
    let p31 = own3 & opp_up3 & !up(occupied, 4);
    let p32 = own3 & opp_up3 & up(opp, 4) & !up(occupied, 5);
    // Towards −A: the front is just below the anchor.
    let q21 = own2 & opp_down & !down(occupied, 2);
    let q31 = own3 & opp_down & !down(occupied, 2);
    let q32 = own3 & opp_down & down(opp, 2) & !down(occupied, 3);
    let pushes = popcount(p21)
        + popcount(p31)
        + popcount(p32)
        + popcount(q21)
        + popcount(q31)
        + popcount(q32);
    // The ejected marble is the last pushed one, when the cell after it is off.
    let targets = down(p21 & !up(BOARD, 3), 2)
        | down(p31 & !up(BOARD, 4), 3)
        | down(p32 & !up(BOARD, 5), 4)
        | up((q21 | q31) & !down(BOARD, 2), 1)
        | up(q32 & !down(BOARD, 3), 2);
    (targets, pushes)
}

/// What `own` could do to `opp` with one move: which enemy marbles it could
/// push off the board, and how many pushes (ejecting or not) it has.
#[inline(always)]
pub(crate) fn attacks(own: u128, opp: u128) -> (u128, u32) {
    let (t1, p1) = axis_attacks::<1>(own, opp);
    let (t2, p2) = axis_attacks::<11>(own, opp);
    let (t3, p3) = axis_attacks::<10>(own, opp);
    ((t1 | t2 | t3) & BOARD, p1 + p2 + p3)
}

#[inline(always)]
fn for_each_bit(mut mask: u128, mut f: impl FnMut(Cell)) {
    while mask != 0 {
        let bit = mask.trailing_zeros();
        mask &= mask - 1;
        f(Cell::from_bit(bit));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Abalone;
    use plateau_core::{Game, Rng, Side};

    /// `attacks` against the moves `generate` lists, on positions from random
    /// games that prefer pushes (so that contact and ejections are common).
    #[test]
    fn attacks_agree_with_the_generated_pushes() {
        let mut rng = Rng::new(5);
        let mut list = MoveList::new();
        let mut checked = 0;
        for _ in 0..100 {
            let mut game = Abalone::new();
            while game.outcome().is_none() && game.ply() < 200 {
                for side in Side::ALL {
                    let (own, opp) = (game.marbles(side), game.marbles(!side));
                    list.clear();
                    generate(own, opp, &mut list);
                    let pushes = list.iter().filter(|m| m.pushed() > 0).count() as u32;
                    let targets = list
                        .iter()
                        .filter(|m| m.ejects())
                        .map(|m| {
                            let last = m.front().bit_index() as i32
                                + (m.pushed() as i32 - 1) * m.direction().delta();
                            1u128 << last
                        })
                        .fold(0, |a, b| a | b);
                    assert_eq!(attacks(own, opp), (targets, pushes), "{}", game.to_text());
                    checked += 1;
                }
                game.legal_moves(&mut list);
                let pushing: Vec<Move> = list.iter().copied().filter(|m| m.pushed() > 0).collect();
                let mv = match rng.choose(&pushing) {
                    Some(&mv) if rng.below(3) > 0 => mv,
                    _ => *rng.choose(&list).expect("moves"),
                };
                game.play(mv);
            }
        }
        assert!(checked > 10_000);
    }
}
