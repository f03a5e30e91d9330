//! Win, draw or loss, and a slice of them packed four to a byte.

use crate::index::board_at;
use crate::material::Material;
use rayon::prelude::*;
use std::fmt;

/// The value of a position for the side to move, with perfect play and the
/// rules' end of a game (no move: a loss), but not the draw rules that count
/// moves or repetitions (as every draughts database).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wdl {
    Loss,
    Draw,
    Win,
}

impl Wdl {
    /// Two bits: draw 0, win 1, loss 2 (3 never appears).
    #[inline]
    pub(crate) fn code(self) -> u8 {
        match self {
            Wdl::Draw => 0,
            Wdl::Win => 1,
            Wdl::Loss => 2,
        }
    }

    #[inline]
    pub(crate) fn from_code(code: u8) -> Option<Wdl> {
        match code {
            0 => Some(Wdl::Draw),
            1 => Some(Wdl::Win),
            2 => Some(Wdl::Loss),
            _ => None,
        }
    }

    /// The value for the other side.
    #[inline]
    pub fn flipped(self) -> Wdl {
        match self {
            Wdl::Win => Wdl::Loss,
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
        }
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Wdl::Win => "win",
            Wdl::Draw => "draw",
            Wdl::Loss => "loss",
        })
    }
}

/// One slice's values, four per byte (entry `i` in bits `2(i % 4)` of byte
/// `i / 4`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packed {
    pub(crate) bytes: Vec<u8>,
    pub(crate) len: u64,
}

impl Packed {
    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The value of entry `index` (a broken entry reads as whatever was
    /// stored there: only real positions are ever looked up).
    #[inline]
    pub fn get(&self, index: u64) -> Wdl {
        let code = self.bytes[(index / 4) as usize] >> ((index % 4) * 2) & 3;
        Wdl::from_code(code).unwrap_or(Wdl::Draw)
    }

    /// Packs `len` values given by `value` (`None`: a broken entry, stored as
    /// the value before it so that runs stay long and compress well).
    pub(crate) fn pack(len: u64, mut value: impl FnMut(u64) -> Option<Wdl>) -> Packed {
        let mut bytes = vec![0u8; len.div_ceil(4) as usize];
        let mut last = 0;
        for index in 0..len {
            let code = value(index).map_or(last, Wdl::code);
            last = code;
            bytes[(index / 4) as usize] |= code << ((index % 4) * 2);
        }
        Packed { bytes, len }
    }

    /// How many positions of `material` (whose values these are) are won,
    /// drawn and lost for the side to move; broken entries are not counted.
    pub fn counts(&self, material: Material) -> [u64; 3] {
        const CHUNK: u64 = 1 << 16;
        (0..self.len.div_ceil(CHUNK))
            .into_par_iter()
            .map(|chunk| {
                let mut counts = [0u64; 3];
                for index in chunk * CHUNK..((chunk + 1) * CHUNK).min(self.len) {
                    if board_at(index, material).is_some() {
                        counts[match self.get(index) {
                            Wdl::Win => 0,
                            Wdl::Draw => 1,
                            Wdl::Loss => 2,
                        }] += 1;
                    }
                }
                counts
            })
            .reduce(|| [0; 3], |a, b| [a[0] + b[0], a[1] + b[1], a[2] + b[2]])
    }
}
