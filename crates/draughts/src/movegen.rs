//! Move generation: bitboard shifts for men, precomputed rays for kings, a
//! depth-first search for capture sequences under the majority rule.

use crate::Draughts;
use crate::moves::Move;
use crate::square::{
    BOARD, DIRECTIONS, bits, farthest, free_run, nearest, perpendicular, ray, reverse, shift,
    to_dense,
};
use plateau_core::MoveList;

/// The men of `men` that can jump an enemy piece in `direction`: an enemy
/// piece next to them that way, and an empty square right behind it.
#[inline(always)]
fn jumpers(direction: usize, men: u64, enemy: u64, empty: u64) -> u64 {
    let back = reverse(direction);
    men & shift(back, enemy & shift(back, empty))
}

/// The men of `men` that can jump an enemy piece in some direction.
#[inline(always)]
fn man_capturers(men: u64, enemy: u64, empty: u64) -> u64 {
    (0..4).fold(0, |found, d| found | jumpers(d, men, enemy, empty))
}

/// When every capture of the men is a single jump (the common case), the men
/// that jump in each direction; `None` when some jump could go on.
///
/// After jumping along `d` a man can only go on along the three other
/// directions (backwards lies the piece it took, still on the board), where
/// neither its start square nor the piece it took changes anything: the test
/// is the ordinary jump test from the landing squares.
#[inline(always)]
fn single_jumps(men: u64, enemy: u64, empty: u64) -> Option<[u64; 4]> {
    let mut by_direction = [0u64; 4];
    for (d, slot) in by_direction.iter_mut().enumerate() {
        let from = jumpers(d, men, enemy, empty);
        if from == 0 {
            continue;
        }
        let landing = shift(d, shift(d, from));
        for e in 0..4 {
            if e != reverse(d) && jumpers(e, landing, enemy, empty) != 0 {
                return None;
            }
        }
        *slot = from;
    }
    Some(by_direction)
}

/// Bits set in a mask expected to have few (cheaper than a software popcount).
#[inline(always)]
fn sparse_count(mut mask: u64) -> u32 {
    let mut count = 0;
    while mask != 0 {
        mask &= mask - 1;
        count += 1;
    }
    count
}

/// Whether the king on `bit` can jump an enemy piece in some direction.
#[inline(always)]
fn king_can_capture(bit: u32, enemy: u64, occupied: u64) -> bool {
    (0..4).any(|d| {
        let ray = ray(d, bit);
        let blockers = ray & occupied;
        if blockers == 0 {
            return false;
        }
        let first = nearest(d, blockers);
        // An enemy piece, and right behind it a square of the ray that is empty.
        enemy >> first & 1 != 0 && shift(d, 1 << first) & ray & !occupied != 0
    })
}

/// The capture search of one position: the moves found so far (all of the
/// largest size yet seen) and what every sequence shares.
struct Captures<'a> {
    out: &'a mut MoveList<Move>,
    best: u32,
    enemy: u64,
    /// Empty squares, the moving piece's start square included.
    empty: u64,
    from: u32,
}

impl Captures<'_> {
    /// Records a finished sequence, keeping only the largest and one move per
    /// (start, end, captured set).
    #[inline]
    fn emit(&mut self, to: u32, captured: u64, count: u32) {
        if count < self.best {
            return;
        }
        if count > self.best {
            self.best = count;
            self.out.clear();
        }
        let mv = Move::from_bits(self.from, to, to_dense(captured));
        // Two sequences with the same start, end and set need at least three
        // captures (a man needs four, to go round a ring; a king's straight
        // run over two pieces is explored once, from its last landing square).
        if count >= 3 && self.out.contains(&mv) {
            return;
        }
        self.out.push(mv);
    }

    /// A man on `at` having taken `captured` (still on the board: Turkish strike).
    fn man(&mut self, at: u32, captured: u64, count: u32) {
        let here = 1u64 << at;
        let live = self.enemy & !captured;
        let mut extended = false;
        for (d, &step) in DIRECTIONS.iter().enumerate() {
            let victim = shift(d, here);
            if victim & live != 0 && shift(d, victim) & self.empty != 0 {
                extended = true;
                let landing = (at as i32 + 2 * step) as u32;
                self.man(landing, captured | victim, count + 1);
            }
        }
        if !extended && count > 0 {
            self.emit(at, captured, count);
        }
    }

    /// The piece a king on `at` would jump along `direction` and the squares it
    /// could land on, if that capture is possible.
    #[inline(always)]
    fn king_jump(&self, at: u32, direction: usize, captured: u64) -> Option<(u64, u64)> {
        let occupied = !self.empty;
        let blockers = ray(direction, at) & occupied;
        if blockers == 0 {
            return None;
        }
        let victim = nearest(direction, blockers);
        let victim_bit = 1u64 << victim;
        if victim_bit & self.enemy & !captured == 0 {
            return None;
        }
        let landing = free_run(direction, victim, occupied);
        (landing != 0).then_some((victim_bit, landing))
    }

    /// A king that has just jumped along `direction` and may land on any square
    /// of `landing`, having taken `captured`.
    fn king(&mut self, direction: usize, landing: u64, captured: u64, count: u32) {
        // Going on in the same direction finds the same next piece from every
        // landing square: explore it once, from the farthest one.
        let far = farthest(direction, landing);
        let ahead = match self.king_jump(far, direction, captured) {
            Some((victim, next)) => {
                self.king(direction, next, captured | victim, count + 1);
                true
            }
            None => false,
        };
        let [left, right] = perpendicular(direction);
        for at in bits(landing) {
            let mut extended = ahead;
            for turn in [left, right] {
                if let Some((victim, next)) = self.king_jump(at, turn, captured) {
                    extended = true;
                    self.king(turn, next, captured | victim, count + 1);
                }
            }
            if !extended {
                self.emit(at, captured, count);
            }
        }
    }
}

impl Draughts {
    /// Every legal move (captures if any, else quiet moves) of the side to move,
    /// ignoring the draw rules.
    #[inline]
    pub(crate) fn generate(&self, out: &mut MoveList<Move>) {
        out.clear();
        let us = self.s.side.index();
        let own = self.s.pieces[us];
        let enemy = self.s.pieces[1 - us];
        let occupied = own | enemy;
        let empty = BOARD & !occupied;
        let men = own & !self.s.kings;
        let kings = own & self.s.kings;
        if self.generate_captures(out, men, kings, enemy, empty) {
            return;
        }
        let forward = if us == 0 { [0, 1] } else { [2, 3] };
        for d in forward {
            let step = DIRECTIONS[d];
            for to in bits(shift(d, men) & empty) {
                out.push(Move::from_bits((to as i32 - step) as u32, to, 0));
            }
        }
        for from in bits(kings) {
            for d in 0..4 {
                for to in bits(free_run(d, from, occupied)) {
                    out.push(Move::from_bits(from, to, 0));
                }
            }
        }
    }

    /// Fills `out` with the captures of the side to move (majority rule,
    /// duplicates removed) and says whether there were any.
    #[inline]
    fn generate_captures(
        &self,
        out: &mut MoveList<Move>,
        men: u64,
        kings: u64,
        enemy: u64,
        empty: u64,
    ) -> bool {
        let capturing_men = man_capturers(men, enemy, empty);
        let occupied = BOARD & !empty;
        let mut capturing_kings = 0;
        for king in bits(kings) {
            if king_can_capture(king, enemy, occupied) {
                capturing_kings |= 1 << king;
            }
        }
        if capturing_men | capturing_kings == 0 {
            return false;
        }
        if capturing_kings == 0
            && let Some(by_direction) = single_jumps(capturing_men, enemy, empty)
        {
            for (d, &from) in by_direction.iter().enumerate() {
                let step = DIRECTIONS[d];
                for bit in bits(from) {
                    let victim = (bit as i32 + step) as u32;
                    let to = (bit as i32 + 2 * step) as u32;
                    out.push(Move::from_bits(bit, to, to_dense(1 << victim)));
                }
            }
            return true;
        }
        let mut search = Captures {
            out,
            best: 0,
            enemy,
            empty,
            from: 0,
        };
        for from in bits(capturing_men) {
            search.from = from;
            search.empty = empty | 1 << from;
            search.man(from, 0, 0);
        }
        for from in bits(capturing_kings) {
            search.from = from;
            search.empty = empty | 1 << from;
            for d in 0..4 {
                if let Some((victim, landing)) = search.king_jump(from, d, 0) {
                    search.king(d, landing, victim, 1);
                }
            }
        }
        true
    }

    /// Whether the side to move has a capture.
    #[inline]
    pub(crate) fn has_capture(&self) -> bool {
        let us = self.s.side.index();
        let own = self.s.pieces[us];
        let enemy = self.s.pieces[1 - us];
        let occupied = own | enemy;
        let empty = BOARD & !occupied;
        if man_capturers(own & !self.s.kings, enemy, empty) != 0 {
            return true;
        }
        bits(own & self.s.kings).any(|king| king_can_capture(king, enemy, occupied))
    }

    /// Whether the side to move has any move (draw rules aside).
    pub(crate) fn has_legal_move(&self) -> bool {
        let us = self.s.side.index();
        let own = self.s.pieces[us];
        let occupied = self.s.pieces[0] | self.s.pieces[1];
        let empty = BOARD & !occupied;
        let men = own & !self.s.kings;
        let kings = own & self.s.kings;
        let forward = if us == 0 { [0, 1] } else { [2, 3] };
        if forward.iter().any(|&d| shift(d, men) & empty != 0) {
            return true;
        }
        let all_steps = (0..4).fold(0, |acc, d| acc | shift(d, kings));
        all_steps & empty != 0 || self.has_capture()
    }

    /// The number of legal moves (draw rules aside): quiet moves are counted with
    /// popcounts, captures (rare) are generated into `scratch`.
    #[inline]
    pub(crate) fn count(&self, scratch: &mut MoveList<Move>) -> u64 {
        let us = self.s.side.index();
        let own = self.s.pieces[us];
        let enemy = self.s.pieces[1 - us];
        let occupied = own | enemy;
        let empty = BOARD & !occupied;
        let men = own & !self.s.kings;
        let kings = own & self.s.kings;
        scratch.clear();
        let capturing_men = man_capturers(men, enemy, empty);
        if capturing_men != 0 && kings == 0 {
            // Single jumps only (the common case): count them without listing.
            if let Some(by_direction) = single_jumps(capturing_men, enemy, empty) {
                return by_direction.iter().map(|&m| sparse_count(m)).sum::<u32>() as u64;
            }
        }
        if self.generate_captures(scratch, men, kings, enemy, empty) {
            return scratch.len() as u64;
        }
        let forward = if us == 0 { [0, 1] } else { [2, 3] };
        let mut count = (shift(forward[0], men) & empty).count_ones()
            + (shift(forward[1], men) & empty).count_ones();
        for from in bits(kings) {
            for d in 0..4 {
                count += free_run(d, from, occupied).count_ones();
            }
        }
        count as u64
    }
}
