//! Verifying a slice against the rules: every position's value must be the
//! best of its moves' values, which is what any damage or generator error
//! breaks.

use crate::generate::Solved;
use crate::index::{Board, board_at, slice_len};
use crate::material::Material;
use crate::wdl::Wdl;
use plateau_core::{Game, MoveList, Side};
use plateau_draughts::Draughts;
use rayon::prelude::*;
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
    (0..len.div_ceil(chunk)).into_par_iter().for_each_init(
        || (Draughts::new().with_draw_rules(false), MoveList::new()),
        |(position, moves), c| {
            let end = ((c + 1) * chunk).min(len);
            let mut count = 0;
            for index in c * chunk..end {
                let Some(board) = board_at(index, material) else {
                    continue;
                };
                let (pieces, kings) = board.to_dense();
                if position.set_dense(pieces, kings, Side::White).is_err() {
                    continue;
                }
                count += 1;
                let derived = derive(position, moves, solved);
                let stored = values.get(index);
                if derived != Some(stored) {
                    let mut found = mismatches.lock().unwrap_or_else(|e| e.into_inner());
                    if found.len() < 10 {
                        found.push(Mismatch {
                            position: position.to_text(),
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
        },
    );
    let mismatches = mismatches.into_inner().unwrap_or_else(|e| e.into_inner());
    if mismatches.is_empty() {
        Ok(checked.load(Relaxed))
    } else {
        Err(mismatches)
    }
}

/// The value the moves of `position` give: the best for the side to move of
/// the values they lead to (no move: a loss). `None` when a slice is missing.
fn derive(
    position: &mut Draughts,
    moves: &mut MoveList<plateau_draughts::Move>,
    solved: &Solved,
) -> Option<Wdl> {
    position.legal_moves(moves);
    let mut best = Wdl::Loss;
    for &mv in moves.iter() {
        position.play(mv);
        let (pieces, kings) = position.dense();
        position.undo(mv);
        let next = Board::from_dense(pieces, kings, Side::Black);
        match solved.value(&next)?.flipped() {
            Wdl::Win => return Some(Wdl::Win),
            Wdl::Draw => best = Wdl::Draw,
            Wdl::Loss => {}
        }
    }
    Some(best)
}
