//! The retrograde generator: every position of a material solved at once, on
//! every core.
//!
//! A material and its colour-swapped twin are solved together, since a quiet
//! move leads from one to the other. Captures lead to fewer pieces and
//! promotions to fewer men, both solved before (see [`Material::all`]), so:
//!
//! 1. **Forward pass.** Each position's moves come from plateau's own move
//!    generator (majority capture, promotion only at the end of a move). A
//!    position without moves is lost. A move leaving the pair is looked up:
//!    to a lost position it wins at once; to a drawn one it keeps a draw in
//!    hand. The moves staying in the pair are counted.
//! 2. **Backward passes.** From each newly decided position, moves are taken
//!    back (see [`predecessors`]): a predecessor of a lost position is won;
//!    a predecessor of a won one has one move fewer left to try, and with
//!    none left it is lost (or drawn, with a draw in hand).
//! 3. What is still open is a draw: neither side can force anything.
//!
//! A position with a capture pending is decided in the forward pass, so a
//! move taken back to it is never counted: quiet moves are only legal where
//! no capture is.

use crate::index::{Board, board_at, index_of, slice_len};
use crate::material::Material;
use crate::mover::Mover;
use crate::unmove::predecessors;
use crate::wdl::{Packed, Wdl};
use rayon::prelude::*;
use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::atomic::{
    AtomicU8, AtomicU64,
    Ordering::{Acquire, Relaxed, Release},
};

/// The slices solved so far, for the moves that leave the material being
/// solved.
#[derive(Default)]
pub struct Solved {
    slices: HashMap<Material, Packed>,
}

impl Solved {
    pub fn new() -> Solved {
        Solved::default()
    }

    pub fn insert(&mut self, material: Material, values: Packed) {
        self.slices.insert(material, values);
    }

    pub fn get(&self, material: Material) -> Option<&Packed> {
        self.slices.get(&material)
    }

    /// The value of `board` for its side to move: a loss without pieces,
    /// else its slice's entry. `None` when the slice is not there.
    #[inline]
    pub fn value(&self, board: &Board) -> Option<Wdl> {
        let material = board.material();
        if material.side_pieces(0) == 0 {
            return Some(Wdl::Loss);
        }
        let slice = self.slices.get(&material)?;
        Some(slice.get(index_of(board, material)))
    }
}

/// Where a generation is, for a progress display.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// The pair being solved (its first material).
    pub material: Material,
    /// 0 during the forward pass, then the number of the backward pass.
    pub pass: u32,
    /// Positions handled so far in this pass, and in the pass at most.
    pub done: u64,
    pub total: u64,
}

/// What a generation found missing.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    #[error("{0} needs {1}, which is not solved yet")]
    Missing(Material, Material),
}

// The states of an entry while it is solved.
const OPEN: u8 = 0;
/// Open, with a move to a drawn position in hand.
const OPEN_DRAW: u8 = 1;
const WIN: u8 = 2;
const LOSS: u8 = 3;
const DRAW: u8 = 4;
const BROKEN: u8 = 5;

/// One material of the pair being solved.
struct Part {
    material: Material,
    len: u64,
    state: Vec<AtomicU8>,
    /// Moves into the pair not yet known to win for the opponent.
    open_moves: Vec<AtomicU8>,
    /// Decided as won or lost and not yet taken back from.
    fresh: Vec<AtomicU64>,
}

impl Part {
    fn new(material: Material) -> Part {
        let len = slice_len(material);
        Part {
            material,
            len,
            state: (0..len).map(|_| AtomicU8::new(OPEN)).collect(),
            open_moves: (0..len).map(|_| AtomicU8::new(0)).collect(),
            fresh: (0..len.div_ceil(64)).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    #[inline]
    fn mark_fresh(&self, index: u64) {
        // Release: whoever takes the bit (Acquire) sees the state decided
        // before it was set.
        self.fresh[(index / 64) as usize].fetch_or(1 << (index % 64), Release);
    }
}

/// Positions per unit of parallel work.
const CHUNK: u64 = 1 << 14;

/// Solves `material` and its colour-swapped twin (once when they are the
/// same) from the slices in `solved`, reporting as it goes. Returns the
/// values of each.
pub fn solve_pair(
    material: Material,
    solved: &Solved,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Vec<(Material, Packed)>, GenerateError> {
    check_needs(material, solved)?;
    let mut materials = vec![material];
    if material.swapped() != material {
        materials.push(material.swapped());
    }
    let parts: Vec<Part> = materials.iter().map(|&m| Part::new(m)).collect();
    let part_of = |m: Material| parts.iter().position(|p| p.material == m);

    // The forward pass.
    let total: u64 = parts.iter().map(|p| p.len).sum();
    let done = AtomicU64::new(0);
    for part in &parts {
        let chunks = part.len.div_ceil(CHUNK);
        (0..chunks)
            .into_par_iter()
            .for_each_init(Mover::new, |mover, chunk| {
                let end = ((chunk + 1) * CHUNK).min(part.len);
                for index in chunk * CHUNK..end {
                    let state = forward(part, index, mover, solved, &part_of);
                    part.state[index as usize].store(state, Relaxed);
                    if state == WIN || state == LOSS {
                        part.mark_fresh(index);
                    }
                }
                let done = done.fetch_add(end - chunk * CHUNK, Relaxed) + end - chunk * CHUNK;
                progress(Progress {
                    material,
                    pass: 0,
                    done,
                    total,
                });
            });
    }

    // The backward passes, until nothing new is decided.
    let mut pass = 0;
    loop {
        pass += 1;
        let handled = AtomicU64::new(0);
        for part in &parts {
            let words = part.fresh.len();
            let per_job = (CHUNK / 64) as usize;
            (0..words.div_ceil(per_job))
                .into_par_iter()
                .for_each(|job| {
                    let mut count = 0;
                    for w in job * per_job..((job + 1) * per_job).min(words) {
                        let mut word = part.fresh[w].swap(0, Acquire);
                        while word != 0 {
                            let index = w as u64 * 64 + u64::from(word.trailing_zeros());
                            word &= word - 1;
                            backward(part, index, &parts, &part_of);
                            count += 1;
                        }
                    }
                    let handled = handled.fetch_add(count, Relaxed) + count;
                    progress(Progress {
                        material,
                        pass,
                        done: handled,
                        total,
                    });
                });
        }
        if handled.load(Relaxed) == 0 {
            break;
        }
    }

    Ok(parts
        .into_iter()
        .map(|part| {
            let values = Packed::pack(part.len, |i| match part.state[i as usize].load(Relaxed) {
                WIN => Some(Wdl::Win),
                LOSS => Some(Wdl::Loss),
                BROKEN => None,
                _ => Some(Wdl::Draw),
            });
            (part.material, values)
        })
        .collect())
}

/// Every material a capture or a promotion from `material` (or its twin)
/// can reach must be solved already.
fn check_needs(material: Material, solved: &Solved) -> Result<(), GenerateError> {
    for m in [material, material.swapped()] {
        for need in Material::all(m.pieces()) {
            let fewer = need.pieces() < m.pieces();
            let promoted =
                need.pieces() == m.pieces() && need.men[0] + need.men[1] < m.men[0] + m.men[1];
            if (fewer || promoted) && solved.get(need).is_none() {
                return Err(GenerateError::Missing(m, need));
            }
        }
    }
    Ok(())
}

/// The forward pass for one entry: its state, with its open moves counted.
#[inline]
fn forward(
    part: &Part,
    index: u64,
    mover: &mut Mover,
    solved: &Solved,
    part_of: &dyn Fn(Material) -> Option<usize>,
) -> u8 {
    if !mover.set(index, part.material) {
        return BROKEN;
    }
    let mut open = 0u8;
    let mut draw_in_hand = false;
    let moves = mover.successors(|next| {
        let material = next.material();
        if material.side_pieces(0) > 0 && part_of(material).is_some() {
            open += 1;
            return ControlFlow::Continue(());
        }
        match solved.value(&next) {
            Some(Wdl::Loss) => return ControlFlow::Break(()),
            Some(Wdl::Draw) => draw_in_hand = true,
            Some(Wdl::Win) => {}
            // check_needs saw every slice there: a move cannot leave for
            // another material of as many pieces and men.
            None => unreachable!("{} leads to {material}, not solved", part.material),
        }
        ControlFlow::Continue(())
    });
    match moves {
        // A move to a lost position.
        Err(()) => return WIN,
        Ok(0) => return LOSS,
        Ok(_) => {}
    }
    if open == 0 {
        return if draw_in_hand { DRAW } else { LOSS };
    }
    part.open_moves[index as usize].store(open, Relaxed);
    if draw_in_hand { OPEN_DRAW } else { OPEN }
}

/// Takes back the moves into a newly decided entry.
#[inline]
fn backward(part: &Part, index: u64, parts: &[Part], part_of: &dyn Fn(Material) -> Option<usize>) {
    let won = match part.state[index as usize].load(Relaxed) {
        WIN => true,
        LOSS => false,
        _ => return,
    };
    let Some(board) = board_at(index, part.material) else {
        return;
    };
    let before_material = part.material.swapped();
    let Some(before_part) = part_of(before_material).map(|p| &parts[p]) else {
        return;
    };
    predecessors(&board, |before| {
        let at = index_of(&before, before_material);
        let state = &before_part.state[at as usize];
        let current = state.load(Relaxed);
        if current != OPEN && current != OPEN_DRAW {
            return;
        }
        if !won {
            // A move to a lost position: the predecessor wins.
            // Only this can change an open state now: its open moves cannot
            // run out while one of them leads to a lost position.
            if state
                .compare_exchange(current, WIN, Relaxed, Relaxed)
                .is_ok()
            {
                before_part.mark_fresh(at);
            }
        } else if before_part.open_moves[at as usize].fetch_sub(1, Relaxed) == 1 {
            // Its last open move leads to a won position.
            let settled = if current == OPEN_DRAW { DRAW } else { LOSS };
            if state
                .compare_exchange(current, settled, Relaxed, Relaxed)
                .is_ok()
                && settled == LOSS
            {
                before_part.mark_fresh(at);
            }
        }
    });
}
