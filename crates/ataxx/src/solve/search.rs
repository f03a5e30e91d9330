//! The null-window search: "is the value of this position at least `beta`?",
//! answered to the end of the game with a fail-soft bound.
//!
//! Positions are pairs of bitboards `(me, opp)` from the side to move; the
//! value is the final stone difference for the side to move (empty cells left
//! when a side has no drop count for its opponent), so it always has the parity
//! of the number of cells.

use super::symmetry::{self, Symmetry};
use super::table::{BoundTable, Found, NO_MOVE};
use crate::bits::{Geometry, Indices};
use plateau_core::time::Instant;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Positions with fewer empty cells are searched without the table: finding
/// them again is cheaper than storing them.
const TABLE_MIN_EMPTIES: u32 = 8;

/// Moves are ordered by a score (see `order`) only this far from the end; in
/// the last few plies generation order is as good and free.
const ORDER_MIN_EMPTIES: u32 = 3;

/// Positions with at least this many empty cells look up their replies in
/// the table before searching any (enhanced transposition cutoff).
const ETC_MIN_EMPTIES: u32 = 12;

/// Nodes between two looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 1 << 16;

/// Time between two heartbeats of a long probe.
pub(crate) const HEARTBEAT: Duration = Duration::from_secs(10);

/// A position's place in the table (its canonical image and the symmetry that
/// maps it there) and what the table knows of it.
pub(crate) struct Lookup {
    key: (u64, u64),
    sym: Symmetry,
    found: Option<Found>,
    /// The stored best move, mapped back onto this position.
    pub first: Option<u8>,
}

impl Lookup {
    /// A position kept out of the table.
    fn plain(me: u64, opp: u64) -> Lookup {
        Lookup {
            key: (me, opp),
            sym: 0,
            found: None,
            first: None,
        }
    }
}

/// The state of one solve: the board's tables, the bounds table, counters and
/// what stops it.
pub(crate) struct Search<'a> {
    pub geo: &'static Geometry<u64>,
    /// Number of cells: the value lies in `-cells ..= cells`.
    pub cells: i32,
    pub table: &'a mut BoundTable,
    /// Whether positions share table entries with their mirror images.
    pub symmetry: bool,
    pub nodes: u64,
    /// Set once a limit was reached: every result since is meaningless.
    pub stopped: bool,
    pub deadline: Option<Instant>,
    pub stop: Option<&'a AtomicBool>,
    next_check: u64,
    next_heartbeat: Instant,
    /// Called about every [`HEARTBEAT`] during a probe, with the node count.
    pub heartbeat: &'a mut dyn FnMut(u64),
}

impl<'a> Search<'a> {
    pub(crate) fn new(
        geo: &'static Geometry<u64>,
        table: &'a mut BoundTable,
        heartbeat: &'a mut dyn FnMut(u64),
    ) -> Search<'a> {
        Search {
            geo,
            cells: (geo.n * geo.n) as i32,
            table,
            symmetry: true,
            nodes: 0,
            stopped: false,
            deadline: None,
            stop: None,
            next_check: CHECK_EVERY,
            next_heartbeat: Instant::now() + HEARTBEAT,
            heartbeat,
        }
    }

    /// Looks at the clock, the stop flag and the heartbeat.
    #[cold]
    fn check(&mut self) {
        self.next_check = self.nodes + CHECK_EVERY;
        let now = Instant::now();
        if self.deadline.is_some_and(|d| now >= d)
            || self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
        {
            self.stopped = true;
        }
        if now >= self.next_heartbeat {
            self.next_heartbeat = now + HEARTBEAT;
            (self.heartbeat)(self.nodes);
        }
    }

    /// The final score when the side to move has no drop.
    #[inline]
    fn final_score(me: u64, opp: u64, empty: u64) -> i32 {
        me.count_ones() as i32 - opp.count_ones() as i32 - empty.count_ones() as i32
    }

    /// The value of `(me, opp)` if it is at least `beta` (then a lower bound,
    /// `>= beta`), otherwise an upper bound `< beta`.
    pub(crate) fn probe(&mut self, me: u64, opp: u64, beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.check();
        }
        if self.stopped {
            return 0;
        }
        let g = self.geo;
        let empty = g.cells & !(me | opp);
        let drops = g.dilate(me) & empty;
        if drops == 0 {
            return Self::final_score(me, opp, empty);
        }
        let empties = empty.count_ones();
        if empties == 1 {
            // The last cell: after it the board is full.
            let flips = g.ring1[drops.trailing_zeros() as usize] & opp;
            let turned = 2 * flips.count_ones() as i32;
            return me.count_ones() as i32 + 1 + turned - opp.count_ones() as i32;
        }

        // Stones with no empty neighbour can never turn again.
        let settled = !g.dilate(empty);
        let upper = self.cells - 2 * (opp & settled).count_ones() as i32;
        if upper < beta {
            return upper;
        }
        let lower = 2 * (me & settled).count_ones() as i32 - self.cells;
        if lower >= beta {
            return lower;
        }

        let use_table = empties >= TABLE_MIN_EMPTIES;
        let mut entry = Lookup::plain(me, opp);
        if use_table {
            entry = self.lookup(me, opp, drops);
            if let Some(found) = entry.found {
                if found.lower >= beta {
                    return found.lower;
                }
                if found.upper < beta {
                    return found.upper;
                }
            }
            if empties >= ETC_MIN_EMPTIES
                && let Some((value, to)) = self.transposition_cutoff(me, opp, drops, beta)
            {
                self.remember(&entry, empties, beta, value, to);
                return value;
            }
        }

        let mut moves = [0u8; 64];
        let count = self.order(me, opp, empty, drops, empties, entry.first, &mut moves);
        let mut best = -self.cells - 1;
        let mut best_move = NO_MOVE;
        for &to in &moves[..count] {
            let flips = g.ring1[to as usize] & opp;
            let value = -self.probe(opp ^ flips, me | (1 << to) | flips, 1 - beta);
            if self.stopped {
                return 0;
            }
            if value > best {
                best = value;
                best_move = to;
                if value >= beta {
                    break;
                }
            }
        }
        if use_table {
            self.remember(&entry, empties, beta, best, best_move);
        }
        best
    }

    /// Where `(me, opp)` lives in the table, what is known of it, and its best
    /// move if that is still a drop here.
    #[inline]
    pub(crate) fn lookup(&self, me: u64, opp: u64, drops: u64) -> Lookup {
        let n = self.geo.n;
        let (key_me, key_opp, sym) = if self.symmetry {
            symmetry::canonical(me, opp, n)
        } else {
            (me, opp, 0)
        };
        let found = self.table.probe(key_me, key_opp);
        let first = found
            .filter(|f| f.best != NO_MOVE)
            .map(|f| symmetry::invert(sym, 1 << f.best, n))
            .filter(|&to| to & drops != 0)
            .map(|to| to.trailing_zeros() as u8);
        Lookup {
            key: (key_me, key_opp),
            sym,
            found,
            first,
        }
    }

    /// Stores the result of a probe at `beta`: a lower bound (with the move that
    /// proved it) when it reached `beta`, an upper bound otherwise.
    #[inline]
    pub(crate) fn remember(&mut self, entry: &Lookup, empties: u32, beta: i32, value: i32, to: u8) {
        let (me, opp) = entry.key;
        if value >= beta {
            let canonical = symmetry::apply(entry.sym, 1 << to, self.geo.n).trailing_zeros() as u8;
            self.table
                .store(me, opp, empties, value, self.cells, canonical);
        } else {
            self.table
                .store(me, opp, empties, -self.cells, value, NO_MOVE);
        }
    }

    /// Enhanced transposition cutoff: a reply position already known to be
    /// worth at most `-beta` for the opponent settles this probe without a
    /// search. Worth its cost only far from the end, where subtrees are large.
    fn transposition_cutoff(&self, me: u64, opp: u64, drops: u64, beta: i32) -> Option<(i32, u8)> {
        let g = self.geo;
        for to in Indices(drops) {
            let flips = g.ring1[to] & opp;
            let (next_me, next_opp) = (opp ^ flips, me | (1 << to) | flips);
            let (key_me, key_opp) = if self.symmetry {
                let (a, b, _) = symmetry::canonical(next_me, next_opp, g.n);
                (a, b)
            } else {
                (next_me, next_opp)
            };
            if let Some(found) = self.table.probe(key_me, key_opp)
                && -found.upper >= beta
            {
                return Some((-found.upper, to as u8));
            }
        }
        None
    }

    /// Writes the drops of `me` into `out`, most promising first, and returns
    /// how many there are. `first` (the table's move) goes first.
    ///
    /// Far from the end the order is: fewest replies for the opponent (a side
    /// left without a drop loses every empty cell, and few replies mean small
    /// subtrees), then most stones turned, then fewest of our stones left next
    /// to an empty cell the opponent can reach.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) fn order(
        &self,
        me: u64,
        opp: u64,
        empty: u64,
        drops: u64,
        empties: u32,
        first: Option<u8>,
        out: &mut [u8; 64],
    ) -> usize {
        let g = self.geo;
        let mut count = 0;
        if let Some(mv) = first {
            out[0] = mv;
            count = 1;
        }
        let rest = match first {
            Some(mv) => drops & !(1u64 << mv),
            None => drops,
        };
        if empties < ORDER_MIN_EMPTIES {
            for to in Indices(rest) {
                out[count] = to as u8;
                count += 1;
            }
            return count;
        }
        let start = count;
        let mut keys = [0i32; 64];
        for to in Indices(rest) {
            let bit = 1u64 << to;
            let flips = g.ring1[to] & opp;
            let mine = me | bit | flips;
            let theirs = opp ^ flips;
            let left = empty ^ bit;
            let replies = (g.dilate(theirs) & left).count_ones() as i32;
            let exposed = (mine & g.dilate(g.dilate(theirs) & left)).count_ones() as i32;
            let key = flips.count_ones() as i32 - replies - exposed;
            // Insertion by key, best first; ties keep generation order.
            let mut i = count;
            while i > start && keys[i - 1] < key {
                keys[i] = keys[i - 1];
                out[i] = out[i - 1];
                i -= 1;
            }
            keys[i] = key;
            out[i] = to as u8;
            count += 1;
        }
        count
    }
}

impl Search<'_> {
    /// [`Search::probe`] at the root, which also says which move reached the
    /// bound (`None` when every move fails low: then none is better than the
    /// others as far as this probe can tell).
    pub(crate) fn root(&mut self, me: u64, opp: u64, beta: i32) -> (i32, Option<u8>) {
        let g = self.geo;
        let empty = g.cells & !(me | opp);
        let drops = g.dilate(me) & empty;
        if drops == 0 {
            return (Self::final_score(me, opp, empty), None);
        }
        let empties = empty.count_ones();
        let entry = self.lookup(me, opp, drops);
        let mut moves = [0u8; 64];
        let count = self.order(
            me,
            opp,
            empty,
            drops,
            empties.max(ORDER_MIN_EMPTIES),
            entry.first,
            &mut moves,
        );
        let mut best = -self.cells - 1;
        let mut best_move = None;
        for &to in &moves[..count] {
            self.nodes += 1;
            let flips = g.ring1[to as usize] & opp;
            let value = -self.probe(opp ^ flips, me | (1 << to) | flips, 1 - beta);
            if self.stopped {
                return (0, None);
            }
            if value > best {
                best = value;
                if value >= beta {
                    best_move = Some(to);
                    break;
                }
            }
        }
        self.remember(&entry, empties, beta, best, best_move.unwrap_or(NO_MOVE));
        (best, best_move)
    }
}
