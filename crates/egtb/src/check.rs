//! Verifying a slice against the rules: every position's value must be the
//! best of its moves' values, which is what any damage or generator error
//! breaks.

use crate::generate::Solved;
use crate::index::slice_len;
use crate::material::Material;
use crate::mover::Mover;
use crate::wdl::Wdl;
use plateau_core::Game;
use rayon::prelude::*;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// A position whose stored value its moves contradict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The position in FEN, White or Black to move as stored.
    pub position: String,
    pub stored: Wdl,
    /// The value its moves give.
    pub derived: Wdl,
}

/// What checking a slice found: the positions checked, or the first few
/// mismatches.
pub type CheckResult = Result<u64, Vec<Mismatch>>;

/// Checks every position of `material` against its moves, looking values
/// up in `solved` (which must hold the slice, its twin and every slice its
/// captures and promotions reach). Returns the number of positions checked,
/// or the first few mismatches.
pub fn check_slice(
    material: Material,
    solved: &Solved,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> CheckResult {
    let len = slice_len(material);
    let Some(values) = solved.get(material) else {
        return Err(Vec::new());
    };
    let chunk = 1u64 << 14;
    let done = AtomicU64::new(0);
    let checked = AtomicU64::new(0);
    let mismatches = std::sync::Mutex::new(Vec::new());
    (0..len.div_ceil(chunk))
        .into_par_iter()
        .for_each_init(Mover::new, |mover, c| {
            let end = ((c + 1) * chunk).min(len);
            let mut count = 0;
            for index in c * chunk..end {
                if !mover.set(index, material) {
                    continue;
                }
                count += 1;
                let derived = derive(mover, solved);
                let stored = values.get(index);
                if derived != Some(stored) {
                    let mut found = mismatches.lock().unwrap_or_else(|e| e.into_inner());
                    if found.len() < 10 {
                        found.push(Mismatch {
                            position: mover.position().to_text(),
                            stored,
                            derived: derived.unwrap_or(Wdl::Draw),
                        });
                    }
                }
            }
            checked.fetch_add(count, Relaxed);
            progress(
                done.fetch_add(end - c * chunk, Relaxed) + end - c * chunk,
                len,
            );
        });
    let mismatches = mismatches.into_inner().unwrap_or_else(|e| e.into_inner());
    if mismatches.is_empty() {
        Ok(checked.load(Relaxed))
    } else {
        Err(mismatches)
    }
}

/// The value the moves of the mover's position give: the best for the side
/// to move of the values they lead to (no move: a loss). `None` when a slice
/// is missing.
fn derive(mover: &mut Mover, solved: &Solved) -> Option<Wdl> {
    let mut best = Wdl::Loss;
    let moves = mover.successors(|next| match solved.value(&next).map(Wdl::flipped) {
        None => ControlFlow::Break(None),
        Some(Wdl::Win) => ControlFlow::Break(Some(Wdl::Win)),
        Some(Wdl::Draw) => {
            best = Wdl::Draw;
            ControlFlow::Continue(())
        }
        Some(Wdl::Loss) => ControlFlow::Continue(()),
    });
    match moves {
        Err(decided) => decided,
        Ok(_) => Some(best),
    }
}
