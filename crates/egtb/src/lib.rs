//! plateau-egtb: endgame databases for international draughts, our own.
//!
//! For every position of up to N pieces (men and kings, either side to move),
//! whether the side to move wins, draws or loses with perfect play under the
//! FMJD rules as `plateau-draughts` implements them (majority capture,
//! promotion only at the end of a move, no move: a loss). Like every draughts
//! database, the values ignore the draw rules that count moves (the 25-move
//! rule, the 16- and 5-move endgame limits) and treat endless play as a draw.
//!
//! - [`generate`]: the parallel retrograde generator, one material at a time
//!   (see [`Material::all`] for the order);
//! - [`file`]: one compressed file per material, checked when read;
//! - [`Tablebase`]: the files of a directory, for probing during search;
//! - [`check`]: every stored value verified against the position's moves.
//!
//! A position with Black to move is looked up turned half a turn with the
//! colours swapped, so each file serves both colours.

pub mod check;
pub mod file;
pub mod generate;
pub mod index;
pub mod material;
mod mover;
mod tablebase;
pub mod unmove;
mod wdl;

pub use material::Material;
pub use tablebase::Tablebase;
pub use wdl::{Packed, Wdl};

use generate::{GenerateError, Progress, Solved, solve_pair};
use plateau_core::time::Instant;
use std::path::Path;
use std::time::Duration;

/// What generating one material gave.
#[derive(Clone, Debug)]
pub struct SliceReport {
    pub material: Material,
    /// Entries, broken ones included.
    pub entries: u64,
    /// Positions won, drawn and lost for the side to move (broken entries
    /// not counted).
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// The file's size in bytes.
    pub bytes: u64,
    /// Time to solve the pair it belongs to (reported on its first material).
    pub time: Duration,
    /// Whether the file was there already and read instead of generated.
    pub reused: bool,
}

/// Why generation stopped.
#[derive(Debug, thiserror::Error)]
pub enum EgtbError {
    #[error(transparent)]
    Generate(#[from] GenerateError),
    #[error(transparent)]
    Table(#[from] file::TableError),
}

/// Generates every slice of up to `pieces` pieces into `dir`, keeping (after
/// checking its file) each slice already there, so that an interrupted run
/// resumes. `progress` hears from each pass; `done` gets each material's
/// report as it is written.
pub fn generate_all(
    dir: &Path,
    pieces: u32,
    progress: &(dyn Fn(Progress) + Sync),
    done: &mut dyn FnMut(&SliceReport),
) -> Result<Vec<SliceReport>, EgtbError> {
    std::fs::create_dir_all(dir).map_err(|source| file::TableError::Write {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut solved = Solved::new();
    let mut reports = Vec::new();
    for material in Material::all(pieces) {
        if solved.get(material).is_some() {
            continue;
        }
        let mut twins = vec![material];
        if material.swapped() != material {
            twins.push(material.swapped());
        }
        let on_disk: Option<Vec<_>> = twins
            .iter()
            .map(|&m| file::read_slice(dir, m).ok().map(|v| (m, v)))
            .collect();
        let started = Instant::now();
        let (values, reused) = match on_disk {
            Some(values) => (values, true),
            None => (solve_pair(material, &solved, progress)?, false),
        };
        let time = started.elapsed();
        for (i, (m, v)) in values.into_iter().enumerate() {
            let bytes = if reused {
                std::fs::metadata(dir.join(file::file_name(m))).map_or(0, |meta| meta.len())
            } else {
                file::write_slice(dir, m, &v)?
            };
            let counts = v.counts(m);
            let report = SliceReport {
                material: m,
                entries: v.len(),
                wins: counts[0],
                draws: counts[1],
                losses: counts[2],
                bytes,
                time: if i == 0 { time } else { Duration::ZERO },
                reused,
            };
            done(&report);
            reports.push(report);
            solved.insert(m, v);
        }
    }
    Ok(reports)
}

/// Checks every slice of up to `pieces` pieces in `dir` against the moves of
/// its positions (see [`check::check_slice`]); each material's result goes
/// to `done` as it is known.
pub fn check_all(
    dir: &Path,
    pieces: u32,
    progress: &(dyn Fn(Material, u64, u64) + Sync),
    done: &mut dyn FnMut(Material, &check::CheckResult),
) -> Result<bool, EgtbError> {
    let mut solved = Solved::new();
    for material in Material::all(pieces) {
        solved.insert(material, file::read_slice(dir, material)?);
    }
    let mut good = true;
    for material in Material::all(pieces) {
        let result = check::check_slice(material, &solved, &|d, t| progress(material, d, t));
        good &= result.is_ok();
        done(material, &result);
    }
    Ok(good)
}
