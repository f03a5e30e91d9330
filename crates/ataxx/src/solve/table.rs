//! The solver's memory: for each position met, the bounds proven on its exact
//! value and the move that proved the last one.
//!
//! Unlike a heuristic search's table, nothing here depends on a depth: a bound
//! proven once holds for good, so bounds from different probes merge (the
//! lower bound only rises, the upper bound only falls). Entries keep the whole
//! position, not a hash of it, so two positions can never be confused.

use plateau_core::splitmix64;
use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicBool, Ordering};

/// No move stored.
pub(crate) const NO_MOVE: u8 = u8::MAX;

/// One position (in its canonical image: see `symmetry`), from the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Entry {
    pub me: u64,
    pub opp: u64,
    pub lower: i8,
    pub upper: i8,
    /// Bit index of the best move found, in the canonical image.
    pub best: u8,
    /// Empty cells: how much work the entry stands for; 0 marks a free slot.
    pub empties: u8,
}

/// What a probe found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Found {
    pub lower: i32,
    pub upper: i32,
    pub best: u8,
}

/// Two entries, one cache line, and the lock that lets threads share them:
/// one entry kept for the position with the most empty cells (the costliest
/// to find again), one always replaced.
#[repr(C, align(64))]
struct Bucket {
    lock: AtomicBool,
    entries: UnsafeCell<[Entry; 2]>,
}

/// The table, shared by every thread of a solve. Each bucket has its own
/// spin lock, held for a few loads and stores: with millions of buckets two
/// threads almost never want the same one, and an exact solver cannot afford
/// the torn entries a lock-free table would have to detect by luck.
pub(crate) struct BoundTable {
    buckets: Vec<Bucket>,
    mask: usize,
}

// SAFETY: a bucket's entries are only read or written while its lock is held
// (see `BoundTable::with`).
unsafe impl Sync for BoundTable {}

impl BoundTable {
    /// A table of at most `mb` megabytes, as many buckets as fit rounded down
    /// to a power of two (at least 4096: 256 KB).
    pub(crate) fn new(mb: usize) -> BoundTable {
        let bytes = mb.max(1) << 20;
        let fit = (bytes / std::mem::size_of::<Bucket>()).max(1 << 12);
        let count = 1usize << fit.ilog2();
        let buckets = (0..count)
            .map(|_| Bucket {
                lock: AtomicBool::new(false),
                entries: UnsafeCell::new([Entry::default(); 2]),
            })
            .collect();
        BoundTable {
            buckets,
            mask: count - 1,
        }
    }

    /// Runs `f` on the bucket of `(me, opp)` with its lock held.
    #[inline]
    fn with<R>(&self, me: u64, opp: u64, f: impl FnOnce(&mut [Entry; 2]) -> R) -> R {
        let (_, mixed) = splitmix64(me ^ splitmix64(opp).1);
        let bucket = &self.buckets[mixed as usize & self.mask];
        while bucket
            .lock
            .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            std::hint::spin_loop();
        }
        // SAFETY: the lock is held, so no other thread touches these entries.
        let result = f(unsafe { &mut *bucket.entries.get() });
        bucket.lock.store(false, Ordering::Release);
        result
    }

    /// The bounds known for `(me, opp)`, if any.
    #[inline]
    pub(crate) fn probe(&self, me: u64, opp: u64) -> Option<Found> {
        self.with(me, opp, |entries| {
            entries
                .iter()
                .find(|e| e.empties != 0 && e.me == me && e.opp == opp)
                .map(|e| Found {
                    lower: i32::from(e.lower),
                    upper: i32::from(e.upper),
                    best: e.best,
                })
        })
    }

    /// Records `lower <= value <= upper` for `(me, opp)`, merged with what was
    /// known; `best` replaces the stored move unless it is [`NO_MOVE`].
    #[inline]
    pub(crate) fn store(&self, me: u64, opp: u64, empties: u32, lower: i32, upper: i32, best: u8) {
        let empties = empties.clamp(1, 255) as u8;
        let clamp = |v: i32| v.clamp(i32::from(i8::MIN), i32::from(i8::MAX)) as i8;
        self.with(me, opp, |entries| {
            if let Some(e) = entries
                .iter_mut()
                .find(|e| e.empties != 0 && e.me == me && e.opp == opp)
            {
                e.lower = e.lower.max(clamp(lower));
                e.upper = e.upper.min(clamp(upper));
                if best != NO_MOVE {
                    e.best = best;
                }
                return;
            }
            let slot = if empties >= entries[0].empties {
                // The deep slot's occupant moves to the other slot rather than vanish.
                entries[1] = entries[0];
                0
            } else {
                1
            };
            entries[slot] = Entry {
                me,
                opp,
                lower: clamp(lower),
                upper: clamp(upper),
                best,
                empties,
            };
        })
    }

    /// Every entry held, for a checkpoint (taken while other threads may
    /// still be storing: each entry read is whole, the set is a snapshot of
    /// proven bounds, which is all a checkpoint needs).
    pub(crate) fn for_each(&self, mut f: impl FnMut(&Entry)) {
        for bucket in &self.buckets {
            let entries = {
                while bucket
                    .lock
                    .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
                    .is_err()
                {
                    std::hint::spin_loop();
                }
                // SAFETY: the lock is held.
                let copy = unsafe { *bucket.entries.get() };
                bucket.lock.store(false, Ordering::Release);
                copy
            };
            for e in entries.iter().filter(|e| e.empties != 0) {
                f(e);
            }
        }
    }

    /// Puts back an entry read from a checkpoint.
    pub(crate) fn restore(&self, e: &Entry) {
        self.store(
            e.me,
            e.opp,
            u32::from(e.empties),
            i32::from(e.lower),
            i32::from(e.upper),
            e.best,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_takes_the_megabytes_asked_for() {
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        for mb in [1, 16, 256, 300] {
            let table = BoundTable::new(mb);
            let bytes = table.buckets.len() * 64;
            assert!(
                bytes <= mb << 20 && 2 * bytes > mb << 20,
                "{mb} MB: {bytes}"
            );
        }
    }

    #[test]
    fn bounds_merge_and_positions_never_mix() {
        let table = BoundTable::new(1);
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
