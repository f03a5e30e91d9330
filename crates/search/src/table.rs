//! The transposition table: results of earlier searches keyed by Zobrist hash,
//! shared without locks by every thread of a search.
//!
//! Each entry is two machine words, `check` and `data`, with
//! `check = key ^ data`. Threads read and write the words separately, so a
//! reader may see one word of an entry and the other of a different one; such
//! a torn entry fails the check (`check ^ data != key`) and reads as a miss,
//! instead of handing a search a score or move from another position. Best
//! moves are kept as the game's 24-bit [`plateau_core::Game::move_code`].

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// Whether a stored score is exact or only a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true score is at least this (a beta cutoff).
    Lower,
    /// The true score is at most this (no move raised alpha).
    Upper,
}

/// One stored result, unpacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The best move's [`plateau_core::Game::move_code`], when one is known.
    pub best: Option<u32>,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
    generation: u8,
}

/// Bit layout of `data`: move code (24) | has move (1) | score (22, two's
/// complement) | depth (8) | bound (2, never 0 in a stored entry) | generation (7).
const CODE_BITS: u32 = 24;
const SCORE_SHIFT: u32 = 25;
const SCORE_BITS: u32 = 22;
const DEPTH_SHIFT: u32 = SCORE_SHIFT + SCORE_BITS;
const BOUND_SHIFT: u32 = DEPTH_SHIFT + 8;
const GENERATION_SHIFT: u32 = BOUND_SHIFT + 2;
const GENERATION_MASK: u8 = 0x7f;
const _: () = assert!(GENERATION_SHIFT + 7 == 64);
// Every score the search stores fits: wins are 1 000 000 at most.
const _: () = assert!(crate::score::INFINITY < 1 << (SCORE_BITS - 1));

/// The largest move code the table keeps.
pub const MAX_MOVE_CODE: u32 = (1 << CODE_BITS) - 1;

impl Entry {
    fn pack(self) -> u64 {
        let (code, has_move) = match self.best {
            Some(code) => (u64::from(code & MAX_MOVE_CODE), 1u64),
            None => (0, 0),
        };
        let score = (self.score as u64) & ((1 << SCORE_BITS) - 1);
        let depth = self.depth.clamp(0, 255) as u64;
        let bound = match self.bound {
            Bound::Exact => 1u64,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        code | has_move << CODE_BITS
            | score << SCORE_SHIFT
            | depth << DEPTH_SHIFT
            | bound << BOUND_SHIFT
            | u64::from(self.generation & GENERATION_MASK) << GENERATION_SHIFT
    }

    fn unpack(data: u64) -> Option<Entry> {
        let bound = match (data >> BOUND_SHIFT) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        let raw_score = ((data >> SCORE_SHIFT) & ((1 << SCORE_BITS) - 1)) as u32;
        // Sign-extend the 22-bit score.
        let score = ((raw_score << (32 - SCORE_BITS)) as i32) >> (32 - SCORE_BITS);
        Some(Entry {
            best: ((data >> CODE_BITS) & 1 == 1).then_some((data as u32) & MAX_MOVE_CODE),
            score,
            depth: ((data >> DEPTH_SHIFT) & 0xff) as i16,
            bound,
            generation: (data >> GENERATION_SHIFT) as u8 & GENERATION_MASK,
        })
    }
}

/// One entry's two words.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    /// The entry, when it is one for `key` and was not torn by a concurrent write.
    #[inline]
    fn read(&self, key: u64) -> Option<Entry> {
        let data = self.data.load(Ordering::Relaxed);
        let check = self.check.load(Ordering::Relaxed);
        if check ^ data == key {
            Entry::unpack(data)
        } else {
            None
        }
    }

    #[inline]
    fn write(&self, key: u64, data: u64) {
        self.data.store(data, Ordering::Relaxed);
        self.check.store(key ^ data, Ordering::Relaxed);
    }
}

/// Four entries sharing a cache line, so a probe costs one memory access.
#[repr(align(64))]
#[derive(Default)]
struct Bucket([Slot; 4]);

/// A shared table of four-entry buckets. A store replaces the entry of the same
/// position, or else the one least worth keeping: shallow and from old searches.
pub struct Table {
    buckets: Vec<Bucket>,
    mask: usize,
    generation: AtomicU8,
}

impl Table {
    /// A table of about `megabytes` MB (at least one bucket; a power of two).
    pub fn new(megabytes: usize) -> Table {
        let bucket_size = std::mem::size_of::<Bucket>();
        let wanted = (megabytes.max(1) << 20) / bucket_size;
        let count = if wanted <= 1 {
            1
        } else {
            1usize << (usize::BITS - 1 - wanted.leading_zeros())
        };
        let mut buckets = Vec::with_capacity(count);
        advise_huge_pages(&buckets);
        buckets.resize_with(count, Bucket::default);
        Table {
            buckets,
            mask: count - 1,
            generation: AtomicU8::new(0),
        }
    }

    /// The size in MB, as asked for at construction (rounded down to a power of two).
    pub fn megabytes(&self) -> usize {
        (self.buckets.len() * std::mem::size_of::<Bucket>()) >> 20
    }

    /// Forgets everything (a new game). Not while a search runs.
    pub fn clear(&mut self) {
        for bucket in &mut self.buckets {
            for slot in &mut bucket.0 {
                *slot.check.get_mut() = 0;
                *slot.data.get_mut() = 0;
            }
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search, so older entries give way first.
    pub fn new_search(&self) {
        let next = self.generation.load(Ordering::Relaxed).wrapping_add(1) & GENERATION_MASK;
        self.generation.store(next, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        &self.buckets[(key as usize) & self.mask]
    }

    /// Asks the processor to start loading the bucket of `key`, so that a probe
    /// a little later does not wait for memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let bucket: *const Bucket = self.bucket(key);
            // SAFETY: prefetching is a hint; the address is a valid element.
            unsafe {
                std::arch::x86_64::_mm_prefetch(
                    bucket.cast::<i8>(),
                    std::arch::x86_64::_MM_HINT_T0,
                );
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.bucket(key).0.iter().find_map(|slot| slot.read(key))
    }

    /// Stores a result; `best` is the move's code (see [`MAX_MOVE_CODE`]).
    #[inline]
    pub fn store(&self, key: u64, best: Option<u32>, score: i32, depth: i16, bound: Bound) {
        let generation = self.generation.load(Ordering::Relaxed);
        let bucket = &self.bucket(key).0;
        let entry = Entry {
            best,
            score,
            depth,
            bound,
            generation,
        };
        // Same position: refresh it, keeping a best move we already knew, unless
        // it holds a deeper result of this search.
        for slot in bucket {
            if let Some(old) = slot.read(key) {
                if depth >= old.depth || bound == Bound::Exact || old.generation != generation {
                    let best = best.or(old.best);
                    slot.write(key, Entry { best, ..entry }.pack());
                }
                return;
            }
        }
        // Otherwise the least valuable: empty, then old, then shallow.
        let worth = |slot: &Slot| -> i32 {
            let data = slot.data.load(Ordering::Relaxed);
            match Entry::unpack(data) {
                None => i32::MIN,
                Some(old) => {
                    let age = i32::from(generation.wrapping_sub(old.generation) & GENERATION_MASK);
                    i32::from(old.depth) - 8 * age
                }
            }
        };
        let mut victim = &bucket[0];
        let mut lowest = worth(victim);
        for slot in &bucket[1..] {
            let value = worth(slot);
            if value < lowest {
                lowest = value;
                victim = slot;
            }
        }
        victim.write(key, entry.pack());
    }

    /// Per-mille of the entries used by this search (UCI's `hashfull`).
    pub fn fill_permille(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let sample = self.buckets.len().min(250);
        let used = self.buckets[..sample]
            .iter()
            .flat_map(|b| b.0.iter())
            .filter(|slot| {
                Entry::unpack(slot.data.load(Ordering::Relaxed))
                    .is_some_and(|e| e.generation == generation)
            })
            .count();
        (used * 1000 / (sample * 4).max(1)) as u32
    }
}

/// Asks Linux to back the (still untouched) table with huge pages: probes land
/// anywhere in it, and with 4 KB pages nearly every one would also miss the TLB.
fn advise_huge_pages<T>(buffer: &Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = buffer.as_ptr() as usize;
        let end = start + buffer.capacity() * std::mem::size_of::<T>();
        let aligned = start.div_ceil(HUGE) * HUGE;
        if end > aligned + HUGE {
            // SAFETY: madvise only changes how the kernel backs memory this Vec
            // owns (a whole number of huge pages inside its allocation); it
            // never changes the contents.
            unsafe {
                libc::madvise(
                    aligned as *mut libc::c_void,
                    (end - aligned) / HUGE * HUGE,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = buffer;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::WIN;

    #[test]
    fn stores_and_finds() {
        let table = Table::new(1);
        table.store(42, Some(7), 100, 5, Bound::Exact);
        let entry = table.probe(42).unwrap();
        assert_eq!(
            (entry.best, entry.score, entry.depth, entry.bound),
            (Some(7), 100, 5, Bound::Exact)
        );
        assert!(table.probe(43).is_none());
    }

    #[test]
    fn every_field_survives_packing() {
        for best in [None, Some(0), Some(1), Some(MAX_MOVE_CODE)] {
            for score in [
                0,
                1,
                -1,
                99_999,
                -99_999,
                WIN - 3,
                -(WIN - 7),
                WIN + 1,
                -WIN - 1,
            ] {
                for depth in [0i16, 1, 37, 255] {
                    for bound in [Bound::Exact, Bound::Lower, Bound::Upper] {
                        let entry = Entry {
                            best,
                            score,
                            depth,
                            bound,
                            generation: 93,
                        };
                        assert_eq!(Entry::unpack(entry.pack()), Some(entry));
                    }
                }
            }
        }
    }

    #[test]
    fn deep_entries_survive_shallow_ones_of_the_same_search() {
        let table = Table::new(1);
        let stride = table.mask as u64 + 1;
        table.store(1, Some(1), 10, 9, Bound::Exact);
        for i in 1..=6 {
            table.store(1 + i * stride, Some(2), 20, 1, Bound::Lower);
        }
        assert_eq!(table.probe(1).unwrap().depth, 9);
        assert!(table.probe(1 + 6 * stride).is_some());
    }

    #[test]
    fn old_searches_give_way() {
        let table = Table::new(1);
        let stride = table.mask as u64 + 1;
        for i in 0..4 {
            table.store(1 + i * stride, Some(1), 10, 20, Bound::Exact);
        }
        for _ in 0..4 {
            table.new_search();
        }
        table.store(1 + 9 * stride, None, 0, 1, Bound::Upper);
        assert!(table.probe(1 + 9 * stride).is_some());
    }

    #[test]
    fn a_refresh_without_a_move_keeps_the_old_move() {
        let table = Table::new(1);
        table.store(5, Some(9), 1, 3, Bound::Lower);
        table.store(5, None, -4, 4, Bound::Upper);
        let entry = table.probe(5).unwrap();
        assert_eq!(
            (entry.best, entry.score, entry.bound),
            (Some(9), -4, Bound::Upper)
        );
    }

    #[test]
    fn a_bucket_is_one_cache_line() {
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        assert_eq!(std::mem::align_of::<Bucket>(), 64);
    }

    #[test]
    fn size_is_a_power_of_two_near_the_request() {
        let table = Table::new(16);
        assert_eq!(table.megabytes(), 16);
        assert!(table.buckets.len().is_power_of_two());
        assert_eq!(Table::new(24).megabytes(), 16);
    }

    /// A reader that sees the data word of one write and the check word of
    /// another finds nothing, rather than another position's result.
    #[test]
    fn a_torn_entry_reads_as_a_miss() {
        let table = Table::new(1);
        let key = 0x1234_5678_9abc_def0;
        table.store(key, Some(3), 50, 6, Bound::Exact);
        let slot = table
            .bucket(key)
            .0
            .iter()
            .find(|s| s.read(key).is_some())
            .unwrap();
        // Half of a second write for another position in the same slot:
        // new data, old check.
        let other = Entry {
            best: Some(4),
            score: -70,
            depth: 9,
            bound: Bound::Lower,
            generation: 0,
        };
        slot.data.store(other.pack(), Ordering::Relaxed);
        assert_eq!(table.probe(key), None);
        assert_eq!(table.probe(key ^ (0xff << 56)), None);
        // The other half: now consistent for the other key.
        slot.check
            .store((key ^ (0xff << 56)) ^ other.pack(), Ordering::Relaxed);
        assert_eq!(table.probe(key ^ (0xff << 56)), Some(other));
        assert_eq!(table.probe(key), None);
    }

    /// Threads hammering the same buckets with entries whose fields all derive
    /// from the key never read a mix of two entries.
    #[test]
    fn concurrent_writers_never_produce_a_mixed_entry() {
        let table = Table::new(1);
        let stride = table.mask as u64 + 1;
        // Every field is a function of the key, so a mixed entry shows.
        let fields = |key: u64| {
            let n = (key / stride) as i32;
            (Some(n as u32 * 7 + 1), n * 13 - 400, (n % 200) as i16 + 1)
        };
        std::thread::scope(|scope| {
            for thread in 0..4u64 {
                let table = &table;
                scope.spawn(move || {
                    for round in 0..200_000u64 {
                        let key = 5 + ((round * 4 + thread) % 64) * stride;
                        let (best, score, depth) = fields(key);
                        table.store(key, best, score, depth, Bound::Exact);
                        let probe = 5 + ((round * 7 + thread * 3) % 64) * stride;
                        if let Some(entry) = table.probe(probe) {
                            let (best, score, _) = fields(probe);
                            assert_eq!((entry.best, entry.score), (best, score));
                        }
                    }
                });
            }
        });
    }
}
