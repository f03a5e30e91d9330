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
/// them again is cheaper than storing them (measured: 8 and 12 are both
/// slower on the 24-empty set).
const TABLE_MIN_EMPTIES: u32 = 10;

/// Positions with fewer empty cells are kept in the table as they are, not
/// under their smallest mirror image: below this, positions met are almost
/// never images of one another (the node counts are equal with and without),
/// and the eight images cost more than they save.
const SYMMETRY_MIN_EMPTIES: u32 = 16;

/// Positions with at most this many empty cells are finished by
/// [`Search::probe_last`]: no table, no ordering, no stability bound, just the
/// empty cells tried in turn, as Othello solvers end their searches.
const LAST_EMPTIES: u32 = 5;

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
    pub table: &'a BoundTable,
    /// Whether positions share table entries with their mirror images.
    pub symmetry: bool,
    pub nodes: u64,
    /// Set once the search must unwind (a limit, or another thread finished
    /// the probe): every result since is meaningless.
    pub stopped: bool,
    /// Set when the solve's own limit (time, nodes, stop flag) was reached,
    /// not merely this probe's end.
    pub limit_reached: bool,
    pub deadline: Option<Instant>,
    /// Stop once this thread has searched this many nodes.
    pub node_limit: Option<u64>,
    pub stop: Option<&'a AtomicBool>,
    /// Set by the thread that finishes a probe first, to stop the others.
    pub probe_done: Option<&'a AtomicBool>,
    /// 0 for the main thread; helpers (1, 2...) try the moves in another order
    /// near the top of the tree, so that they explore other subtrees and fill
    /// the shared table ahead of the main thread.
    pub helper: u32,
    /// Helpers try other moves first only at nodes with at least this many
    /// empty cells (near the root).
    pub shuffle_min_empties: u32,
    next_check: u64,
    next_heartbeat: Instant,
    /// Called about every [`HEARTBEAT`] during a probe, with the node count.
    pub heartbeat: &'a mut dyn FnMut(u64),
}

impl<'a> Search<'a> {
    pub(crate) fn new(
        geo: &'static Geometry<u64>,
        table: &'a BoundTable,
        heartbeat: &'a mut dyn FnMut(u64),
    ) -> Search<'a> {
        Search {
            geo,
            cells: (geo.n * geo.n) as i32,
            table,
            symmetry: true,
            nodes: 0,
            stopped: false,
            limit_reached: false,
            deadline: None,
            node_limit: None,
            stop: None,
            probe_done: None,
            helper: 0,
            shuffle_min_empties: u32::MAX,
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
            || self.node_limit.is_some_and(|n| self.nodes >= n)
            || self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
        {
            self.limit_reached = true;
            self.stopped = true;
        }
        if self.probe_done.is_some_and(|d| d.load(Ordering::Relaxed)) {
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
        if empties <= LAST_EMPTIES {
            return self.probe_last(me, opp, beta, empty);
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
            entry = self.lookup(me, opp, drops, empties);
            if let Some(found) = entry.found {
                if found.lower >= beta {
                    return found.lower;
                }
                if found.upper < beta {
                    return found.upper;
                }
            }
            if empties >= ETC_MIN_EMPTIES
                && let Some((value, to)) = self.transposition_cutoff(me, opp, drops, empties, beta)
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

    /// [`Search::probe`] for the last few empty cells: each empty cell next to
    /// one of ours is a drop, tried in board order. Subtrees are so small here
    /// (at most `LAST_EMPTIES!` leaves) that the clock is left alone. The
    /// caller counted this node.
    fn probe_last(&mut self, me: u64, opp: u64, beta: i32, empty: u64) -> i32 {
        let g = self.geo;
        if empty & (empty.wrapping_sub(1)) == 0 {
            let stones = me.count_ones() as i32 - opp.count_ones() as i32;
            if empty == 0 {
                return stones;
            }
            // The last cell: ours to fill, turning its neighbours, or the
            // opponent's when we have no stone next to it.
            let ring = g.ring1[empty.trailing_zeros() as usize];
            if ring & me == 0 {
                return stones - 1;
            }
            return stones + 1 + 2 * (ring & opp).count_ones() as i32;
        }
        let mut best = -self.cells - 1;
        let mut cells = empty;
        while cells != 0 {
            let to = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            let ring = g.ring1[to];
            if ring & me == 0 {
                continue;
            }
            let flips = ring & opp;
            let bit = 1u64 << to;
            self.nodes += 1;
            let value = -self.probe_last(opp ^ flips, me | bit | flips, 1 - beta, empty ^ bit);
            if value > best {
                best = value;
                if value >= beta {
                    return best;
                }
            }
        }
        if best == -self.cells - 1 {
            return Self::final_score(me, opp, empty);
        }
        best
    }

    /// Where `(me, opp)` lives in the table, what is known of it, and its best
    /// move if that is still a drop here.
    #[inline]
    pub(crate) fn lookup(&self, me: u64, opp: u64, drops: u64, empties: u32) -> Lookup {
        let n = self.geo.n;
        let (key_me, key_opp, sym) = self.key(me, opp, empties);
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

    /// The table's key for a position with `empties` empty cells: its smallest
    /// mirror image and the symmetry that maps it there, or itself.
    #[inline]
    fn key(&self, me: u64, opp: u64, empties: u32) -> (u64, u64, Symmetry) {
        if self.symmetry && empties >= SYMMETRY_MIN_EMPTIES {
            symmetry::canonical(me, opp, self.geo.n)
        } else {
            (me, opp, 0)
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
    fn transposition_cutoff(
        &self,
        me: u64,
        opp: u64,
        drops: u64,
        empties: u32,
        beta: i32,
    ) -> Option<(i32, u8)> {
        let g = self.geo;
        for to in Indices(drops) {
            let flips = g.ring1[to] & opp;
            let (next_me, next_opp) = (opp ^ flips, me | (1 << to) | flips);
            let (key_me, key_opp, _) = self.key(next_me, next_opp, empties - 1);
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
        if self.helper != 0 && empties >= self.shuffle_min_empties && count > start + 1 {
            let shift = (self.helper as usize + empties as usize) % (count - start);
            out[start..count].rotate_left(shift);
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
        let entry = self.lookup(me, opp, drops, empties);
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
