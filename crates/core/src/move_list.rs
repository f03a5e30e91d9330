use std::ops::{Deref, DerefMut};

/// A reusable buffer of moves.
///
/// Generators push into it; callers clear and refill the same list at every node,
/// so after warm-up no allocation happens in search or perft. It is a thin wrapper
/// over `Vec` because placement phases (Escampe has 11 088 placements) can be far
/// larger than any fixed array worth keeping on the stack.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveList<M> {
    moves: Vec<M>,
}

impl<M> MoveList<M> {
    pub fn new() -> MoveList<M> {
        MoveList { moves: Vec::new() }
    }

    pub fn with_capacity(capacity: usize) -> MoveList<M> {
        MoveList {
            moves: Vec::with_capacity(capacity),
        }
    }

    #[inline]
    pub fn push(&mut self, mv: M) {
        self.moves.push(mv);
    }

    #[inline]
    pub fn clear(&mut self) {
        self.moves.clear();
    }

    pub fn as_mut_vec(&mut self) -> &mut Vec<M> {
        &mut self.moves
    }
}

impl<M> Default for MoveList<M> {
    fn default() -> MoveList<M> {
        MoveList::new()
    }
}

impl<M> Deref for MoveList<M> {
    type Target = [M];
    #[inline]
    fn deref(&self) -> &[M] {
        &self.moves
    }
}

impl<M> DerefMut for MoveList<M> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [M] {
        &mut self.moves
    }
}

impl<'a, M> IntoIterator for &'a MoveList<M> {
    type Item = &'a M;
    type IntoIter = std::slice::Iter<'a, M>;
    fn into_iter(self) -> Self::IntoIter {
        self.moves.iter()
    }
}

impl<M> FromIterator<M> for MoveList<M> {
    fn from_iter<I: IntoIterator<Item = M>>(iter: I) -> Self {
        MoveList {
            moves: iter.into_iter().collect(),
        }
    }
}
