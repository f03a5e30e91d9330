//! Checkpoints: what a long solve has proven so far, on disk, so that a run
//! stopped after hours (or one of a series of short runs) resumes where it
//! was. A checkpoint holds the root's proven bounds and every table entry;
//! each entry is a bound proven for good, so a resumed run trusts them all and
//! finds the same value as an uninterrupted one.
//!
//! The file is a few text lines, a blank line, then the entries (20 bytes
//! each, little-endian: the side to move's stones, the opponent's, lower,
//! upper, best move, empty cells) and an FNV-1a checksum of those bytes, so a
//! damaged or truncated file is refused rather than trusted.

use super::table::{BoundTable, Entry, NO_MOVE};
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;

const MAGIC: &str = "plateau virus solve checkpoint 1";
const ENTRY_BYTES: usize = 20;

/// The root's state in a checkpoint.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct State {
    /// The position solved, in the game's text.
    pub position: String,
    pub lower: i32,
    pub upper: i32,
    /// The move that proved the lower bound, as a bit index.
    pub best: Option<u8>,
    /// Nodes and seconds of every run so far.
    pub nodes: u64,
    pub seconds: f64,
}

/// FNV-1a over the entry bytes.
struct Checksum(u64);

impl Checksum {
    fn new() -> Checksum {
        Checksum(0xcbf2_9ce4_8422_2325)
    }

    fn add(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

fn encode(e: &Entry) -> [u8; ENTRY_BYTES] {
    let mut out = [0u8; ENTRY_BYTES];
    out[..8].copy_from_slice(&e.me.to_le_bytes());
    out[8..16].copy_from_slice(&e.opp.to_le_bytes());
    out[16] = e.lower as u8;
    out[17] = e.upper as u8;
    out[18] = e.best;
    out[19] = e.empties;
    out
}

fn decode(b: &[u8; ENTRY_BYTES]) -> Entry {
    let word = |at: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&b[at..at + 8]);
        u64::from_le_bytes(w)
    };
    Entry {
        me: word(0),
        opp: word(8),
        lower: b[16] as i8,
        upper: b[17] as i8,
        best: b[18],
        empties: b[19],
    }
}

/// Writes `state` and the table to `path` (through a temporary file renamed
/// over it, so a crash mid-write leaves the last checkpoint whole). Returns
/// the number of entries written.
pub(crate) fn save(path: &Path, state: &State, table: &BoundTable) -> Result<usize, String> {
    let mut entries = Vec::new();
    table.for_each(|e| entries.push(encode(e)));
    let tmp = path.with_extension("partial");
    let write = || -> std::io::Result<()> {
        let mut out = BufWriter::new(File::create(&tmp)?);
        writeln!(out, "{MAGIC}")?;
        writeln!(out, "position {}", state.position)?;
        writeln!(out, "lower {}", state.lower)?;
        writeln!(out, "upper {}", state.upper)?;
        match state.best {
            Some(b) => writeln!(out, "best {b}")?,
            None => writeln!(out, "best -")?,
        }
        writeln!(out, "nodes {}", state.nodes)?;
        writeln!(out, "seconds {:.3}", state.seconds)?;
        writeln!(out, "entries {}", entries.len())?;
        writeln!(out)?;
        let mut sum = Checksum::new();
        for e in &entries {
            sum.add(e);
            out.write_all(e)?;
        }
        out.write_all(&sum.0.to_le_bytes())?;
        out.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        std::fs::rename(&tmp, path)
    };
    write().map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(entries.len())
}

/// Reads a checkpoint of `position` into `table` (merging with what it holds)
/// for a board of `cells` cells, checking every field. Returns the root's state and the
/// number of entries.
pub(crate) fn load(
    path: &Path,
    table: &BoundTable,
    position: &str,
    cells: usize,
) -> Result<(State, usize), String> {
    let name = path.display();
    let file = File::open(path).map_err(|e| format!("cannot read checkpoint {name}: {e}"))?;
    let mut input = BufReader::new(file);
    let mut header = Vec::new();
    // The header: text lines up to the first blank one (a few hundred bytes).
    loop {
        let mut line = Vec::new();
        let mut byte = [0u8; 1];
        loop {
            match input.read(&mut byte) {
                Ok(1) if byte[0] == b'\n' => break,
                Ok(1) => line.push(byte[0]),
                Ok(_) => return Err(format!("checkpoint {name} ends inside its header")),
                Err(e) => return Err(format!("cannot read checkpoint {name}: {e}")),
            }
            if line.len() > 4096 {
                return Err(format!("{name} is not a plateau checkpoint"));
            }
        }
        if line.is_empty() {
            break;
        }
        header.push(
            String::from_utf8(line).map_err(|_| format!("{name} is not a plateau checkpoint"))?,
        );
        if header.len() > 16 {
            return Err(format!("{name} is not a plateau checkpoint"));
        }
    }
    if header.first().map(String::as_str) != Some(MAGIC) {
        return Err(format!(
            "{name} is not a plateau checkpoint (its first line should be {MAGIC:?})"
        ));
    }
    let field = |key: &str| -> Result<&str, String> {
        header
            .iter()
            .find_map(|l| l.strip_prefix(key).and_then(|r| r.strip_prefix(' ')))
            .ok_or_else(|| format!("checkpoint {name} has no {key} line"))
    };
    let number = |key: &str| -> Result<i64, String> {
        field(key)?
            .parse::<i64>()
            .map_err(|_| format!("checkpoint {name}: bad {key} line"))
    };
    let limit = cells as i64;
    let lower = number("lower")?;
    let upper = number("upper")?;
    if !(-limit..=limit).contains(&lower) || !(lower..=limit).contains(&upper) {
        return Err(format!(
            "checkpoint {name}: bounds [{lower}, {upper}] are not within [-{cells}, {cells}]"
        ));
    }
    let best = match field("best")? {
        "-" => None,
        text => Some(
            text.parse::<u8>()
                .ok()
                .filter(|&b| b < 64)
                .ok_or_else(|| format!("checkpoint {name}: bad best line"))?,
        ),
    };
    let nodes = number("nodes")?.max(0) as u64;
    let seconds = field("seconds")?
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0)
        .ok_or_else(|| format!("checkpoint {name}: bad seconds line"))?;
    let count = number("entries")?;
    if count < 0 {
        return Err(format!("checkpoint {name}: bad entries line"));
    }
    let saved = field("position")?;
    if saved != position {
        // Refused before any entry is read: another board's entries would be
        // taken for positions of this one.
        return Err(format!(
            "checkpoint {name} is for the position {saved}, not {position}"
        ));
    }
    let state = State {
        position: saved.to_string(),
        lower: lower as i32,
        upper: upper as i32,
        best,
        nodes,
        seconds,
    };

    // Entries are checked and summed first, stored only once the checksum
    // holds: a damaged file leaves the table as it was.
    let mut entries = Vec::new();
    let mut sum = Checksum::new();
    let mut bytes = [0u8; ENTRY_BYTES];
    let board = if cells == 64 {
        u64::MAX
    } else {
        let n = (cells as f64).sqrt() as u32;
        (0..n).fold(0u64, |acc, rank| acc | ((1u64 << n) - 1) << (8 * rank))
    };
    for _ in 0..count {
        input
            .read_exact(&mut bytes)
            .map_err(|_| format!("checkpoint {name} is truncated (fewer entries than it says)"))?;
        sum.add(&bytes);
        let e = decode(&bytes);
        let well_formed = e.me & e.opp == 0
            && (e.me | e.opp) & !board == 0
            && (1..=cells as u8).contains(&e.empties)
            && i64::from(e.lower) >= -limit
            && i64::from(e.upper) <= limit
            && e.lower <= e.upper
            && (e.best < 64 || e.best == NO_MOVE);
        if !well_formed {
            return Err(format!("checkpoint {name} holds a malformed entry"));
        }
        entries.push(e);
    }
    let mut stored = [0u8; 8];
    input
        .read_exact(&mut stored)
        .map_err(|_| format!("checkpoint {name} is truncated (no checksum)"))?;
    if u64::from_le_bytes(stored) != sum.0 {
        return Err(format!(
            "checkpoint {name} is damaged (its checksum does not match)"
        ));
    }
    if input.read(&mut [0u8; 1]).map_err(|e| e.to_string())? != 0 {
        return Err(format!("checkpoint {name} has bytes after its checksum"));
    }
    for e in &entries {
        table.restore(e);
    }
    Ok((state, entries.len()))
}
