//! The solver's memory: for each position met, the bounds proven on its exact
//! value and the move that proved the last one.
//!
//! Unlike a heuristic search's table, nothing here depends on a depth: a bound
//! proven once holds for good, so bounds from different probes merge (the
//! lower bound only rises, the upper bound only falls). Entries keep the whole
//! position, not a hash of it, so two positions can never be confused.

use plateau_core::splitmix64;

/// No move stored.
pub(crate) const NO_MOVE: u8 = u8::MAX;

/// One position (in its canonical image: see `symmetry`), from the side to move.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    me: u64,
    opp: u64,
    lower: i8,
    upper: i8,
    /// Bit index of the best move found, in the canonical image.
    best: u8,
    /// Empty cells: how much work the entry stands for; 0 marks a free slot.
    empties: u8,
}

/// What a probe found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Found {
    pub lower: i32,
    pub upper: i32,
    pub best: u8,
}

/// Two entries per bucket: one kept for the position with the most empty cells
/// (the costliest to find again), one always replaced.
pub(crate) struct BoundTable {
    entries: Vec<Entry>,
    mask: usize,
}

impl BoundTable {
    /// A table of about `mb` megabytes (at least a few thousand entries).
    pub(crate) fn new(mb: usize) -> BoundTable {
        let bytes = mb.max(1) << 20;
        let buckets = (bytes / (2 * std::mem::size_of::<Entry>()))
            .next_power_of_two()
            .max(1 << 12)
            / 2;
        BoundTable {
            entries: vec![Entry::default(); 2 * buckets],
            mask: buckets - 1,
        }
    }

    #[inline]
    fn bucket(&self, me: u64, opp: u64) -> usize {
        let (_, mixed) = splitmix64(me ^ splitmix64(opp).1);
        2 * (mixed as usize & self.mask)
    }

    /// The bounds known for `(me, opp)`, if any.
    #[inline]
    pub(crate) fn probe(&self, me: u64, opp: u64) -> Option<Found> {
        let at = self.bucket(me, opp);
        self.entries[at..at + 2]
            .iter()
            .find(|e| e.empties != 0 && e.me == me && e.opp == opp)
            .map(|e| Found {
                lower: i32::from(e.lower),
                upper: i32::from(e.upper),
                best: e.best,
            })
    }

    /// Records `lower <= value <= upper` for `(me, opp)`, merged with what was
    /// known; `best` replaces the stored move unless it is [`NO_MOVE`].
    #[inline]
    pub(crate) fn store(
        &mut self,
        me: u64,
        opp: u64,
        empties: u32,
        lower: i32,
        upper: i32,
        best: u8,
    ) {
        let at = self.bucket(me, opp);
        let empties = empties.clamp(1, 255) as u8;
        let clamp = |v: i32| v.clamp(i32::from(i8::MIN), i32::from(i8::MAX)) as i8;
        let slot = if let Some(i) = (0..2).find(|&i| {
            let e = &self.entries[at + i];
            e.empties != 0 && e.me == me && e.opp == opp
        }) {
            let e = &mut self.entries[at + i];
            e.lower = e.lower.max(clamp(lower));
            e.upper = e.upper.min(clamp(upper));
            if best != NO_MOVE {
                e.best = best;
            }
            return;
        } else if empties >= self.entries[at].empties {
            // The deep slot's occupant moves to the other slot rather than vanish.
            self.entries[at + 1] = self.entries[at];
            at
        } else {
            at + 1
        };
        self.entries[slot] = Entry {
            me,
            opp,
            lower: clamp(lower),
            upper: clamp(upper),
            best,
            empties,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_merge_and_positions_never_mix() {
        let mut table = BoundTable::new(1);
        table.store(1, 2, 10, -5, 9, 3);
        table.store(1, 2, 10, -1, 20, NO_MOVE);
        assert_eq!(
            table.probe(1, 2),
            Some(Found {
                lower: -1,
                upper: 9,
                best: 3
            })
        );
        assert_eq!(table.probe(2, 1), None);
        assert_eq!(table.probe(1, 3), None);
    }
}
