//! The databases of a directory, opened for probing during play.

use crate::file::{TableError, file_name, read_slice};
use crate::index::{Board, index_of};
use crate::material::Material;
use crate::wdl::{Packed, Wdl};
use plateau_core::{Game, MoveList};
use plateau_draughts::{Draughts, Move};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Every slice of a directory, read (and checked) the first time a position
/// needs it, then kept in memory for the life of the program.
pub struct Tablebase {
    dir: PathBuf,
    /// Positions with at most this many pieces are all covered.
    pieces: u32,
    slices: HashMap<Material, OnceLock<Option<Packed>>>,
}

impl Tablebase {
    /// The databases in `dir`: every material up to the largest piece count
    /// of which all slices are there. Refused when `dir` cannot be listed or
    /// holds no complete set (not even the 2-piece slices).
    pub fn open(dir: &Path) -> Result<Tablebase, TableError> {
        let entries = std::fs::read_dir(dir).map_err(|source| TableError::Read {
            path: dir.to_path_buf(),
            source,
        })?;
        let mut present = std::collections::HashSet::new();
        for entry in entries.flatten() {
            let name = entry.file_name();
            if let Some(material) = name
                .to_str()
                .and_then(|n| n.strip_suffix(".wdl"))
                .and_then(Material::from_name)
            {
                present.insert(material);
            }
        }
        let complete = |n: u32| {
            Material::all(n)
                .iter()
                .filter(|m| m.pieces() == n)
                .all(|m| present.contains(m))
        };
        let mut pieces = 1;
        while pieces < crate::material::MAX_PIECES && complete(pieces + 1) {
            pieces += 1;
        }
        if pieces < 2 {
            return Err(TableError::Corrupt {
                path: dir.to_path_buf(),
                reason: format!(
                    "no complete set of databases (the 2-piece ones are {} and the like); run `plateau egtb draughts --pieces N`",
                    file_name(Material::all(2)[0])
                ),
            });
        }
        Ok(Tablebase {
            dir: dir.to_path_buf(),
            pieces,
            slices: Material::all(pieces)
                .into_iter()
                .map(|m| (m, OnceLock::new()))
                .collect(),
        })
    }

    /// The most pieces a position may have to be found here.
    pub fn pieces(&self) -> u32 {
        self.pieces
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The value of `position` for its side to move, when it has few enough
    /// pieces (the draw rules that count moves and repetitions are not the
    /// databases': the caller judges the game's own outcome first). `None`
    /// when it has too many or its slice cannot be read.
    #[inline]
    pub fn probe(&self, position: &Draughts) -> Option<Wdl> {
        let (pieces, kings) = position.dense();
        if (pieces[0] | pieces[1]).count_ones() > self.pieces {
            return None;
        }
        let board = Board::from_dense(pieces, kings, position.side_to_move());
        self.value(&board)
    }

    #[inline]
    fn value(&self, board: &Board) -> Option<Wdl> {
        let material = board.material();
        if material.side_pieces(0) == 0 {
            return Some(Wdl::Loss);
        }
        if material.side_pieces(1) == 0 {
            return Some(Wdl::Win);
        }
        let slice = self
            .slices
            .get(&material)?
            .get_or_init(|| read_slice(&self.dir, material).ok())
            .as_ref()?;
        Some(slice.get(index_of(board, material)))
    }

    /// Reads every slice now (a server or a match wants the time spent before
    /// the first move, not during it) and checks each; the first failure.
    pub fn load_all(&self) -> Result<(), TableError> {
        for (&material, slot) in &self.slices {
            if slot.get().is_none() {
                let values = read_slice(&self.dir, material)?;
                let _ = slot.set(Some(values));
            }
        }
        Ok(())
    }

    /// The moves of `position` that keep its value (the winning ones when it
    /// is won, the drawing ones when drawn, all when lost), with the value.
    /// `None` when it is not in the databases.
    pub fn keeping_moves(&self, position: &Draughts) -> Option<(Wdl, Vec<Move>)> {
        let value = self.probe(position)?;
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        let mut keep = Vec::new();
        let mut after = position.clone();
        for &mv in moves.iter() {
            after.play(mv);
            let next = self.probe(&after).map(Wdl::flipped);
            after.undo(mv);
            if next? == value {
                keep.push(mv);
            }
        }
        Some((value, keep))
    }
}
