//! A slice's positions played forward: set up an entry, then visit the
//! position each legal move leads to. The generator's forward pass and the
//! check both walk slices this way.

use crate::index::{Board, board_at};
use crate::material::Material;
use plateau_core::{Game, MoveList, Side};
use plateau_draughts::{Draughts, Move};
use std::ops::ControlFlow;

/// One thread's position and move list, reused from entry to entry so that
/// walking a slice allocates nothing.
pub(crate) struct Mover {
    position: Draughts,
    moves: MoveList<Move>,
}

impl Mover {
    pub(crate) fn new() -> Mover {
        Mover {
            position: Draughts::new().with_draw_rules(false),
            moves: MoveList::new(),
        }
    }

    /// Sets up entry `index` of `material` (the side to move as White);
    /// `false` for a broken entry.
    #[inline]
    pub(crate) fn set(&mut self, index: u64, material: Material) -> bool {
        let Some(board) = board_at(index, material) else {
            return false;
        };
        let (pieces, kings) = board.to_dense();
        let set = self.position.set_dense(pieces, kings, Side::White).is_ok();
        debug_assert!(set, "index {index} of {material} is no position");
        set
    }

    pub(crate) fn position(&self) -> &Draughts {
        &self.position
    }

    /// Calls `next` with the position each legal move leads to (seen from
    /// its side to move) until it breaks. Returns the number of moves, or
    /// what `next` broke with.
    #[inline]
    pub(crate) fn successors<B>(
        &mut self,
        mut next: impl FnMut(Board) -> ControlFlow<B>,
    ) -> Result<usize, B> {
        self.position.legal_moves(&mut self.moves);
        for &mv in self.moves.iter() {
            self.position.play(mv);
            let (pieces, kings) = self.position.dense();
            self.position.undo(mv);
            if let ControlFlow::Break(value) = next(Board::from_dense(pieces, kings, Side::Black)) {
                return Err(value);
            }
        }
        Ok(self.moves.len())
    }
}
