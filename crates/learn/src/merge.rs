//! Several data files into one, optionally shuffled: what a trainer reads.
//! The merged file is of the newest version its game is written in (packed
//! for the Ataxx family), whatever the versions of its inputs.

use crate::data::{DataError, DataWriter, Header, Layout, Sample, read_all};
use plateau_core::Rng;
use std::path::{Path, PathBuf};

/// Samples per block of a merged file.
pub const MERGED_BLOCK: usize = 1 << 16;

/// What a merge wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergeSummary {
    pub game: String,
    pub files: usize,
    pub samples: u64,
    /// Positions seen more than once and dropped (with `dedup`).
    pub duplicates: u64,
}

/// Reads `inputs` (all of one game, none cut short) and writes their samples
/// to `output`: shuffled with `shuffle = Some(seed)`, each position kept once
/// with `dedup` (its first sample). The output may not be one of the inputs.
pub fn merge(
    inputs: &[PathBuf],
    output: &Path,
    shuffle: Option<u64>,
    dedup: bool,
) -> Result<MergeSummary, DataError> {
    if inputs.is_empty() {
        return Err(DataError::Invalid {
            what: "no input file to merge".into(),
        });
    }
    for input in inputs {
        if same_file(input, output) {
            return Err(DataError::Invalid {
                what: format!(
                    "{} is both an input and the output; write the merge to a new file",
                    output.display()
                ),
            });
        }
    }
    let mut game: Option<String> = None;
    let mut samples: Vec<Sample> = Vec::new();
    for input in inputs {
        let (header, read) = read_all(input)?;
        match &game {
            Some(wanted) if *wanted != header.game => {
                return Err(DataError::WrongGame {
                    path: input.clone(),
                    found: header.game,
                    wanted: wanted.clone(),
                });
            }
            Some(_) => {}
            None => game = Some(header.game),
        }
        samples.extend(read);
    }
    let game = game.unwrap_or_default();
    let mut duplicates = 0;
    if dedup {
        let mut seen = std::collections::HashSet::new();
        let before = samples.len();
        samples.retain(|sample| seen.insert(sample.position.clone()));
        duplicates = (before - samples.len()) as u64;
    }
    if let Some(seed) = shuffle {
        let mut rng = Rng::new(seed);
        for i in (1..samples.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            samples.swap(i, j);
        }
    }
    let header = Header::new(game.clone(), Layout::Mixed);
    let mut writer = DataWriter::create(output, &header)?;
    for block in samples.chunks(MERGED_BLOCK) {
        writer.write_block(block)?;
    }
    Ok(MergeSummary {
        game,
        files: inputs.len(),
        samples: samples.len() as u64,
        duplicates,
    })
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{GameResult, VERSION_PACKED, VERSION_TEXT};

    /// Positions of a short virus game: `x3o/5/5/5/o3x x` and the drops
    /// after it.
    fn samples(first: u16) -> Vec<Sample> {
        [
            "x3o/5/5/5/o3x x",
            "x3o/x4/5/5/o3x o",
            "x3o/x4/5/o4/o3x x",
            "xx2o/x4/5/o4/o3x o",
            "xx2o/x4/5/o4/oo2x x",
        ]
        .iter()
        .zip(first..)
        .map(|(text, ply)| Sample {
            position: text.to_string(),
            score: 10 * ply as i16 - 20,
            result: [GameResult::Loss, GameResult::Win][usize::from(ply % 2)],
            ply,
        })
        .collect()
    }

    #[test]
    fn text_and_packed_inputs_merge_into_a_packed_file() {
        let dir = tempfile::tempdir().unwrap();
        let (text, packed, merged) = (
            dir.path().join("text.data"),
            dir.path().join("packed.data"),
            dir.path().join("merged.data"),
        );
        let old = Header {
            version: VERSION_TEXT,
            ..Header::new("virus/5x5", Layout::Games)
        };
        let mut writer = DataWriter::create(&text, &old).unwrap();
        writer.write_block(&samples(0)).unwrap();
        let new = Header::new("virus/5x5", Layout::Games);
        assert_eq!(new.version, VERSION_PACKED);
        let mut writer = DataWriter::create(&packed, &new).unwrap();
        writer.write_block(&samples(10)).unwrap();
        drop(writer);

        let summary = merge(&[text.clone(), packed.clone()], &merged, None, false).unwrap();
        assert_eq!(summary.samples, 10);
        let (header, all) = read_all(&merged).unwrap();
        assert_eq!(header.version, VERSION_PACKED);
        assert_eq!(header.layout, Layout::Mixed);
        let expected: Vec<Sample> = samples(0).into_iter().chain(samples(10)).collect();
        assert_eq!(all, expected);
        // Either order, the same samples; the same positions, once each.
        merge(&[packed, text], &merged, None, true).unwrap();
        let (_, all) = read_all(&merged).unwrap();
        assert_eq!(all, samples(10));
    }
}
