//! A slice on disk: a header, a table of block offsets, and the packed
//! values in blocks compressed with LZ4, each checked when read.
//!
//! ```text
//! magic      "plateau-wdl\n"                12 bytes
//! version    1                              u32
//! material   men, kings (side to move), men, kings (other side)   4 bytes
//! entries    the slice's length             u64
//! block      entries per block (16384)      u32
//! blocks     number of blocks               u32
//! checksum   FNV-1a of the packed values    u64
//! offsets    blocks + 1 offsets into the data (the first 0)   u64 each
//! data       each block: LZ4 (block format) of its packed values
//! ```
//!
//! All numbers little-endian. A block decompresses to 4096 bytes (the last
//! one to what is left).

use crate::index::slice_len;
use crate::material::Material;
use crate::wdl::Packed;
use std::io::Write;
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 12] = b"plateau-wdl\n";
const VERSION: u32 = 1;
/// Entries per compressed block (4096 packed bytes).
const BLOCK_ENTRIES: u32 = 16384;
const HEADER: usize = 12 + 4 + 4 + 8 + 4 + 4 + 8;

/// Why a slice file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} is not a good database file: {reason}")]
    Corrupt { path: PathBuf, reason: String },
}

/// The file name of `material`'s slice: `2m1k-1m0k.wdl`.
pub fn file_name(material: Material) -> String {
    format!("{}.wdl", material.name())
}

/// FNV-1a, 64 bits: enough to catch a damaged file.
fn checksum(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// Writes `values` as `material`'s slice in `dir` (through a temporary file,
/// renamed when complete, so a crash leaves no half file). Returns the
/// file's size in bytes.
pub fn write_slice(dir: &Path, material: Material, values: &Packed) -> Result<u64, TableError> {
    let path = dir.join(file_name(material));
    let block_bytes = (BLOCK_ENTRIES / 4) as usize;
    let blocks: Vec<Vec<u8>> = values
        .bytes
        .chunks(block_bytes)
        .map(lz4_flex::block::compress)
        .collect();
    let mut out = Vec::with_capacity(HEADER + 8 * (blocks.len() + 1));
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&[
        material.men[0],
        material.kings[0],
        material.men[1],
        material.kings[1],
    ]);
    out.extend_from_slice(&values.len.to_le_bytes());
    out.extend_from_slice(&BLOCK_ENTRIES.to_le_bytes());
    out.extend_from_slice(&(blocks.len() as u32).to_le_bytes());
    out.extend_from_slice(&checksum(&values.bytes).to_le_bytes());
    let mut offset = 0u64;
    out.extend_from_slice(&offset.to_le_bytes());
    for block in &blocks {
        offset += block.len() as u64;
        out.extend_from_slice(&offset.to_le_bytes());
    }
    let temporary = dir.join(format!(".{}.partial", file_name(material)));
    let write = |path: &Path| -> std::io::Result<()> {
        let mut file = std::fs::File::create(path)?;
        file.write_all(&out)?;
        for block in &blocks {
            file.write_all(block)?;
        }
        file.sync_all()
    };
    write(&temporary)
        .and_then(|()| std::fs::rename(&temporary, &path))
        .map_err(|source| TableError::Write {
            path: path.clone(),
            source,
        })?;
    Ok(out.len() as u64 + offset)
}

/// Reads `material`'s slice from `dir`, checking every field, every block and
/// the checksum.
pub fn read_slice(dir: &Path, material: Material) -> Result<Packed, TableError> {
    let path = dir.join(file_name(material));
    let bytes = std::fs::read(&path).map_err(|source| TableError::Read {
        path: path.clone(),
        source,
    })?;
    decode(&bytes, material).map_err(|reason| TableError::Corrupt { path, reason })
}

/// The slice in `bytes`, or what is wrong with it.
pub(crate) fn decode(bytes: &[u8], material: Material) -> Result<Packed, String> {
    if bytes.len() < HEADER {
        return Err(format!("{} bytes, shorter than the header", bytes.len()));
    }
    if &bytes[..12] != MAGIC {
        return Err("no plateau-wdl header".into());
    }
    let u32_at =
        |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    let u64_at = |at: usize| {
        let mut word = [0u8; 8];
        word.copy_from_slice(&bytes[at..at + 8]);
        u64::from_le_bytes(word)
    };
    let version = u32_at(12);
    if version != VERSION {
        return Err(format!(
            "format version {version}, this plateau reads {VERSION}"
        ));
    }
    let stored = Material {
        men: [bytes[16], bytes[18]],
        kings: [bytes[17], bytes[19]],
    };
    if stored != material {
        return Err(format!("it holds {stored}, not {material}"));
    }
    let entries = u64_at(20);
    let expected = slice_len(material);
    if entries != expected {
        return Err(format!("{entries} entries, {material} has {expected}"));
    }
    if u32_at(28) != BLOCK_ENTRIES {
        return Err(format!(
            "blocks of {} entries, not {BLOCK_ENTRIES}",
            u32_at(28)
        ));
    }
    let blocks = u32_at(32) as usize;
    let packed_len = entries.div_ceil(4) as usize;
    let block_bytes = (BLOCK_ENTRIES / 4) as usize;
    if blocks != packed_len.div_ceil(block_bytes) {
        return Err(format!("{blocks} blocks for {entries} entries"));
    }
    let sum = u64_at(36);
    let table_end = HEADER + 8 * (blocks + 1);
    if bytes.len() < table_end {
        return Err("the block table is cut short".into());
    }
    let data = &bytes[table_end..];
    if u64_at(HEADER) != 0 {
        return Err("the first block does not start the data".into());
    }
    let mut packed = vec![0u8; packed_len];
    for (block, out) in packed.chunks_mut(block_bytes).enumerate() {
        let start = u64_at(HEADER + 8 * block);
        let end = u64_at(HEADER + 8 * (block + 1));
        if start > end || end > data.len() as u64 {
            return Err(format!("block {block} lies outside the file"));
        }
        let written = lz4_flex::block::decompress_into(&data[start as usize..end as usize], out)
            .map_err(|e| format!("block {block} does not decompress: {e}"))?;
        if written != out.len() {
            return Err(format!(
                "block {block} decompresses to {written} bytes, not {}",
                out.len()
            ));
        }
    }
    if u64_at(HEADER + 8 * blocks) != data.len() as u64 {
        return Err("bytes after the last block".into());
    }
    if checksum(&packed) != sum {
        return Err("the checksum does not match".into());
    }
    if packed.iter().any(|&b| b & (b >> 1) & 0x55 != 0) {
        return Err("a value outside win, draw and loss".into());
    }
    Ok(Packed {
        bytes: packed,
        len: entries,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wdl::Wdl;

    #[test]
    fn a_slice_reads_back_and_damage_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let material = Material::from_name("0m1k-1m0k").unwrap();
        let len = slice_len(material);
        let values = Packed::pack(len, |i| {
            Some(match i % 7 {
                0 => Wdl::Win,
                1 => Wdl::Loss,
                _ => Wdl::Draw,
            })
        });
        let size = write_slice(dir.path(), material, &values).unwrap();
        let path = dir.path().join(file_name(material));
        assert_eq!(std::fs::metadata(&path).unwrap().len(), size);
        assert_eq!(read_slice(dir.path(), material).unwrap(), values);

        let good = std::fs::read(&path).unwrap();
        let other = Material::from_name("1m0k-0m1k").unwrap();
        assert!(
            decode(&good, other)
                .unwrap_err()
                .contains("holds 0m1k-1m0k")
        );
        for (at, what) in [(0, "header"), (12, "version"), (HEADER - 1, "checksum")] {
            let mut bad = good.clone();
            bad[at] ^= 0x40;
            let error = decode(&bad, material).unwrap_err();
            assert!(error.contains(what), "byte {at}: {error}");
        }
        let mut cut = good.clone();
        cut.truncate(good.len() - 3);
        assert!(decode(&cut, material).is_err());
        for len in [0, 5, HEADER, HEADER + 9] {
            assert!(decode(&good[..len], material).is_err());
        }
        // Every single-byte change in the data is caught.
        for at in (HEADER..good.len()).step_by(7) {
            let mut bad = good.clone();
            bad[at] = bad[at].wrapping_add(1);
            assert!(decode(&bad, material).is_err(), "byte {at}");
        }
    }

    #[test]
    fn random_damage_never_panics_nor_reads_a_wrong_value() {
        // Fuzz-style: thousands of files damaged at random (bytes changed,
        // cut, inserted, header fields replaced): never a panic, and never
        // a value read wrong.
        let material = Material::from_name("0m2k-1m0k").unwrap();
        let len = slice_len(material);
        let values = Packed::pack(len, |i| Some(if i % 5 == 0 { Wdl::Win } else { Wdl::Draw }));
        let dir = tempfile::tempdir().unwrap();
        write_slice(dir.path(), material, &values).unwrap();
        let good = std::fs::read(dir.path().join(file_name(material))).unwrap();
        let mut rng = plateau_core::Rng::new(0x9e37_79b9_7f4a_7c15u64);
        let mut next = |bound: usize| rng.below(bound as u64) as usize;
        for _ in 0..3000 {
            let mut bad = good.clone();
            for _ in 0..1 + next(4) {
                match next(4) {
                    0 => {
                        let at = next(bad.len());
                        bad[at] = bad[at].wrapping_add(1 + next(255) as u8);
                    }
                    1 => bad.truncate(next(bad.len())),
                    2 => {
                        let at = next(bad.len() + 1);
                        bad.insert(at, next(256) as u8);
                    }
                    _ => {
                        // A header field or a block offset replaced whole.
                        let at = next(HEADER + 16).min(bad.len().saturating_sub(8));
                        let word = (next(usize::MAX) as u64).to_le_bytes();
                        let end = (at + 8).min(bad.len());
                        bad[at..end].copy_from_slice(&word[..end - at]);
                    }
                }
                if bad.is_empty() {
                    break;
                }
            }
            // Damage the checks let through left the values as they were
            // (an LZ4 match moved by a whole period of repeating data).
            if let Ok(read) = decode(&bad, material) {
                assert_eq!(read, values);
            }
        }
    }
}
