//! The transposition table: results of earlier searches keyed by Zobrist hash.

/// Whether a stored score is exact or only a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true score is at least this (a beta cutoff).
    Lower,
    /// The true score is at most this (no move raised alpha).
    Upper,
}

/// One stored result.
#[derive(Clone, Copy, Debug)]
pub struct Entry<M> {
    pub key: u64,
    pub best: Option<M>,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
    generation: u8,
}

/// Two entries sharing a cache line, so a probe costs one memory access.
#[derive(Clone, Copy)]
#[repr(align(64))]
struct Bucket<M>([Option<Entry<M>>; 2]);

/// Two-entry buckets: the first keeps the deepest (or current-search) result, the
/// second always takes the newest, so deep results survive and fresh ones fit.
pub struct Table<M> {
    buckets: Vec<Bucket<M>>,
    mask: usize,
    generation: u8,
}

impl<M: Copy> Table<M> {
    /// A table of about `megabytes` MB (at least one bucket; a power of two).
    pub fn new(megabytes: usize) -> Table<M> {
        let bucket_size = std::mem::size_of::<Bucket<M>>().max(1);
        let wanted = (megabytes.max(1) << 20) / bucket_size;
        let count = if wanted <= 1 {
            1
        } else {
            1usize << (usize::BITS - 1 - wanted.leading_zeros())
        };
        let mut buckets = Vec::with_capacity(count);
        advise_huge_pages(&buckets);
        buckets.resize(count, Bucket([None, None]));
        Table {
            buckets,
            mask: count - 1,
            generation: 0,
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        for bucket in &mut self.buckets {
            *bucket = Bucket([None, None]);
        }
        self.generation = 0;
    }

    /// Marks the start of a new search, so older entries give way first.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        (key as usize) & self.mask
    }

    /// Asks the processor to start loading the bucket of `key`, so that a probe
    /// a little later does not wait for memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let bucket: *const Bucket<M> = &self.buckets[self.index(key)];
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
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        let bucket = &self.buckets[self.index(key)].0;
        bucket.iter().flatten().find(|e| e.key == key).copied()
    }

    #[inline]
    pub fn store(&mut self, key: u64, best: Option<M>, score: i32, depth: i16, bound: Bound) {
        let generation = self.generation;
        let index = self.index(key);
        let bucket = &mut self.buckets[index].0;
        let entry = Entry {
            key,
            best,
            score,
            depth,
            bound,
            generation,
        };
        // Same position: refresh it, keeping a best move we already knew.
        for slot in bucket.iter_mut() {
            if let Some(old) = slot
                && old.key == key
            {
                let best = best.or(old.best);
                if depth >= old.depth || bound == Bound::Exact || old.generation != generation {
                    *slot = Some(Entry { best, ..entry });
                }
                return;
            }
        }
        let keep_first = match &bucket[0] {
            Some(first) => first.generation == generation && first.depth > depth,
            None => false,
        };
        if keep_first {
            bucket[1] = Some(entry);
        } else {
            bucket[1] = bucket[0];
            bucket[0] = Some(entry);
        }
    }

    /// Per-mille of the first slots used by this search (UCI's `hashfull`).
    pub fn fill_permille(&self) -> u32 {
        let sample = self.buckets.len().min(1000);
        let used = self.buckets[..sample]
            .iter()
            .filter(|b| matches!(b.0[0], Some(e) if e.generation == self.generation))
            .count();
        (used * 1000 / sample.max(1)) as u32
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

    #[test]
    fn stores_and_finds() {
        let mut table: Table<u16> = Table::new(1);
        table.store(42, Some(7), 100, 5, Bound::Exact);
        let entry = table.probe(42).unwrap();
        assert_eq!((entry.best, entry.score, entry.depth), (Some(7), 100, 5));
        assert!(table.probe(43).is_none());
    }

    #[test]
    fn deep_entries_survive_shallow_ones_of_the_same_search() {
        let mut table: Table<u16> = Table::new(1);
        let stride = table.mask as u64 + 1;
        table.store(1, Some(1), 10, 9, Bound::Exact);
        table.store(1 + stride, Some(2), 20, 1, Bound::Lower);
        table.store(1 + 2 * stride, Some(3), 30, 1, Bound::Lower);
        assert_eq!(table.probe(1).unwrap().depth, 9);
        assert!(table.probe(1 + 2 * stride).is_some());
    }

    #[test]
    fn a_refresh_without_a_move_keeps_the_old_move() {
        let mut table: Table<u16> = Table::new(1);
        table.store(5, Some(9), 1, 3, Bound::Lower);
        table.store(5, None, -4, 4, Bound::Upper);
        let entry = table.probe(5).unwrap();
        assert_eq!(
            (entry.best, entry.score, entry.bound),
            (Some(9), -4, Bound::Upper)
        );
    }

    #[test]
    fn a_bucket_is_one_cache_line_for_small_moves() {
        assert_eq!(std::mem::size_of::<Bucket<u64>>(), 64);
        assert_eq!(std::mem::align_of::<Bucket<u64>>(), 64);
    }

    #[test]
    fn size_is_a_power_of_two_near_the_request() {
        let table: Table<u32> = Table::new(16);
        let bytes = table.buckets.len() * std::mem::size_of::<Bucket<u32>>();
        assert!(bytes <= 16 << 20 && bytes > 8 << 20, "{bytes}");
        assert!(table.buckets.len().is_power_of_two());
    }
}
