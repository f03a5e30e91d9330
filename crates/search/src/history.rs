//! What one search thread learns from its cutoffs, for move ordering,
//! reductions and the static evaluation: quiet, noisy and continuation
//! histories, counter-moves, and the correction of the static evaluation.
//! Each table is allocated once, when the thread is built.

use plateau_core::Side;

/// History values stay within ±`HISTORY_MAX`: each update moves an entry
/// toward the bonus's sign by a share of the distance left (the "gravity"
/// update), so no rescaling pass is ever needed.
pub(crate) const HISTORY_MAX: i32 = 16_384;

/// Entries of a continuation table: one row of every move key per previous
/// move, with previous moves folded onto fewer rows where the full square of
/// `MOVE_KEYS` would not fit (tens of megabytes per thread for Abalone). The
/// moves of one node all read one row, which stays in the cache.
const CONTINUATION_ENTRIES: usize = 1 << 19;

/// Structures per side in the correction table.
const CORRECTION_SLOTS: usize = 1 << 14;
/// Corrections are kept in 1/`CORRECTION_GRAIN` evaluation units.
const CORRECTION_GRAIN: i32 = 256;
/// The largest correction, in evaluation units.
const CORRECTION_LIMIT: i32 = 400;

/// The bonus for a move that caused a cutoff at `depth` (and the malus of
/// those tried before it).
#[inline]
pub(crate) fn bonus(depth: i32) -> i32 {
    (depth * depth * 32 + 32 * depth).min(2400)
}

#[inline]
fn gravity(entry: &mut i16, bonus: i32) {
    let value = i32::from(*entry);
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *entry = (value + bonus - value * bonus.abs() / HISTORY_MAX) as i16;
}

/// Histories indexed by a game's move keys.
pub(crate) struct Histories {
    /// Quiet moves, per side.
    quiet: [Vec<i16>; 2],
    /// Noisy moves, per side.
    noisy: [Vec<i16>; 2],
    /// Quiet moves after a given move one ply before (index 0) and two plies
    /// before (index 1).
    continuation: [Vec<i16>; 2],
    /// Rows and columns of the continuation tables.
    rows: usize,
    keys: usize,
    /// Correction of the static evaluation, per side and structure key.
    correction: [Vec<i32>; 2],
}

impl Histories {
    pub(crate) fn new(move_keys: usize) -> Histories {
        let keys = move_keys.max(1);
        let rows = (CONTINUATION_ENTRIES / keys).clamp(1, keys);
        Histories {
            quiet: [vec![0; keys], vec![0; keys]],
            noisy: [vec![0; keys], vec![0; keys]],
            continuation: [vec![0; rows * keys], vec![0; rows * keys]],
            rows,
            keys,
            correction: [vec![0; CORRECTION_SLOTS], vec![0; CORRECTION_SLOTS]],
        }
    }

    pub(crate) fn clear(&mut self) {
        for table in self
            .quiet
            .iter_mut()
            .chain(&mut self.noisy)
            .chain(&mut self.continuation)
        {
            table.iter_mut().for_each(|h| *h = 0);
        }
        for table in &mut self.correction {
            table.iter_mut().for_each(|c| *c = 0);
        }
    }

    #[inline]
    pub(crate) fn quiet(&self, side: Side, key: usize) -> i32 {
        self.quiet[side.index()]
            .get(key)
            .copied()
            .map_or(0, i32::from)
    }

    #[inline]
    pub(crate) fn update_quiet(&mut self, side: Side, key: usize, bonus: i32) {
        if let Some(entry) = self.quiet[side.index()].get_mut(key) {
            gravity(entry, bonus);
        }
    }

    #[inline]
    pub(crate) fn noisy(&self, side: Side, key: usize) -> i32 {
        self.noisy[side.index()]
            .get(key)
            .copied()
            .map_or(0, i32::from)
    }

    #[inline]
    pub(crate) fn update_noisy(&mut self, side: Side, key: usize, bonus: i32) {
        if let Some(entry) = self.noisy[side.index()].get_mut(key) {
            gravity(entry, bonus);
        }
    }

    /// Where the row of the moves that follow the move of key `previous`
    /// starts: computed once a node (a division), then read for every move.
    #[inline]
    pub(crate) fn row_of(&self, previous: usize) -> usize {
        (previous % self.rows) * self.keys
    }

    /// The entry of `key` in the row starting at `row`.
    #[inline]
    fn continuation_slot(&self, row: usize, key: usize) -> usize {
        row + key.min(self.keys - 1)
    }

    /// The continuation score of `key` after the moves one and two plies
    /// back, given by their rows ([`Histories::row_of`]; `None` where there
    /// was no move or a null move).
    #[inline]
    pub(crate) fn continuation(&self, previous: [Option<usize>; 2], key: usize) -> i32 {
        let mut total = 0;
        for (back, prev) in previous.iter().enumerate() {
            if let Some(prev) = *prev {
                total += i32::from(self.continuation[back][self.continuation_slot(prev, key)]);
            }
        }
        total
    }

    #[inline]
    pub(crate) fn update_continuation(
        &mut self,
        previous: [Option<usize>; 2],
        key: usize,
        bonus: i32,
    ) {
        for (back, prev) in previous.iter().enumerate() {
            if let Some(prev) = *prev {
                let slot = self.continuation_slot(prev, key);
                gravity(&mut self.continuation[back][slot], bonus);
            }
        }
    }

    #[inline]
    fn correction_slot(structure: u64) -> usize {
        (structure as usize) & (CORRECTION_SLOTS - 1)
    }

    /// What to add to the static evaluation of a position of this structure.
    #[inline]
    pub(crate) fn correction(&self, side: Side, structure: u64) -> i32 {
        self.correction[side.index()][Self::correction_slot(structure)] / CORRECTION_GRAIN
    }

    /// Moves the correction toward `error` (searched score minus static
    /// evaluation), more for deeper searches.
    #[inline]
    pub(crate) fn update_correction(&mut self, side: Side, structure: u64, error: i32, depth: i32) {
        let entry = &mut self.correction[side.index()][Self::correction_slot(structure)];
        let weight = (depth + 1).min(16);
        let target = error.clamp(-CORRECTION_LIMIT, CORRECTION_LIMIT) * CORRECTION_GRAIN;
        *entry = (*entry * (256 - weight) + target * weight) / 256;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_keeps_entries_bounded() {
        let mut entry = 0i16;
        for _ in 0..10_000 {
            gravity(&mut entry, 2400);
        }
        assert!(i32::from(entry) <= HISTORY_MAX && entry > 16_000, "{entry}");
        for _ in 0..10_000 {
            gravity(&mut entry, -2400);
        }
        assert!(
            i32::from(entry) >= -HISTORY_MAX && entry < -16_000,
            "{entry}"
        );
    }

    #[test]
    fn corrections_move_toward_the_error_and_stay_bounded() {
        let mut histories = Histories::new(10);
        for _ in 0..1000 {
            histories.update_correction(Side::White, 77, 10_000, 20);
        }
        assert_eq!(histories.correction(Side::White, 77), CORRECTION_LIMIT - 1);
        assert_eq!(histories.correction(Side::Black, 77), 0);
        for _ in 0..1000 {
            histories.update_correction(Side::White, 77, -30, 20);
        }
        assert!((-30..=-28).contains(&histories.correction(Side::White, 77)));
    }

    #[test]
    fn continuation_history_is_per_previous_move() {
        let mut histories = Histories::new(10);
        let row = |key| Some(histories.row_of(key));
        let (three, four) = (row(3), row(4));
        histories.update_continuation([three, None], 5, 1000);
        assert!(histories.continuation([three, None], 5) > 0);
        assert_eq!(histories.continuation([four, None], 5), 0);
        assert_eq!(histories.continuation([None, three], 5), 0);
    }

    #[test]
    fn previous_moves_fold_onto_the_rows_there_are() {
        // Abalone-sized keys: the rows hold fewer previous moves than there
        // are keys, and keys a row count apart share a row.
        let keys = 4000;
        let histories = Histories::new(keys);
        let rows = CONTINUATION_ENTRIES / keys;
        assert_eq!(histories.row_of(7), 7 * keys);
        assert_eq!(histories.row_of(7 + rows), histories.row_of(7));
        assert!(histories.row_of(keys - 1) + keys <= CONTINUATION_ENTRIES);
    }
}
