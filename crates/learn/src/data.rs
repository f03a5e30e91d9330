//! The training-data file: positions with their search score and the game's
//! result, in a compact binary form that names its game and format version.
//!
//! Layout (little-endian):
//!
//! ```text
//! header: b"PLATDATA"  version: u16  layout: u8  name length: u8  name: UTF-8
//! blocks: count: u32, then `count` samples
//! sample: text length: u16  position text: UTF-8  score: i16  result: i8  ply: u16
//! ```
//!
//! A self-play file holds one block per game, so that a run that stops can be
//! resumed at the next game: a block cut short by a crash is recognised and
//! dropped. Merged and shuffled files hold blocks of any size. Positions are
//! stored as the game's own position text rather than as network inputs, so
//! that one data set can train networks with different inputs.

use std::fs::{File, OpenOptions};
use std::io::{BufReader, BufWriter, ErrorKind, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The first bytes of every data file.
pub const MAGIC: &[u8; 8] = b"PLATDATA";
/// The format version this code writes and reads.
pub const VERSION: u16 = 1;
/// Longest position text a sample may hold (every game's is far shorter).
pub const MAX_TEXT: usize = 1024;
/// Most samples in one block: more means a damaged count.
pub const MAX_BLOCK: u32 = 1 << 24;

/// What a block of samples is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// One block per self-play game, in the order the games were numbered.
    Games,
    /// Blocks of any size: merged or shuffled data.
    Mixed,
}

impl Layout {
    fn code(self) -> u8 {
        match self {
            Layout::Games => 0,
            Layout::Mixed => 1,
        }
    }

    fn from_code(code: u8) -> Option<Layout> {
        match code {
            0 => Some(Layout::Games),
            1 => Some(Layout::Mixed),
            _ => None,
        }
    }
}

/// The file's header: which game (with its variant) the positions are of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The registry name with the variant: `abalone/belgian-daisy`.
    pub game: String,
    pub layout: Layout,
}

/// The game's result for the side to move in a sample's position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    Loss,
    Draw,
    Win,
}

impl GameResult {
    fn code(self) -> i8 {
        match self {
            GameResult::Loss => -1,
            GameResult::Draw => 0,
            GameResult::Win => 1,
        }
    }

    fn from_code(code: i8) -> Option<GameResult> {
        match code {
            -1 => Some(GameResult::Loss),
            0 => Some(GameResult::Draw),
            1 => Some(GameResult::Win),
            _ => None,
        }
    }

    /// 0 for a loss, ½ for a draw, 1 for a win: a training target.
    pub fn score(self) -> f32 {
        match self {
            GameResult::Loss => 0.0,
            GameResult::Draw => 0.5,
            GameResult::Win => 1.0,
        }
    }
}

/// One training position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Sample {
    /// The game's position text.
    pub position: String,
    /// The search score for the side to move, in evaluation units.
    pub score: i16,
    /// How the game ended for the side to move.
    pub result: GameResult,
    /// Plies played since the start of the game.
    pub ply: u16,
}

/// Why a data file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: not a plateau training-data file (it does not start with PLATDATA)")]
    NotData { path: PathBuf },
    #[error("{path}: format version {found}; this plateau reads version {VERSION}")]
    Version { path: PathBuf, found: u16 },
    #[error("{path}: damaged at byte {offset}: {what}")]
    Damaged {
        path: PathBuf,
        offset: u64,
        what: String,
    },
    #[error("{path}: the last block, from byte {offset}, is cut short")]
    Truncated { path: PathBuf, offset: u64 },
    #[error("{path}: holds {found} positions, not {wanted}")]
    WrongGame {
        path: PathBuf,
        found: String,
        wanted: String,
    },
    #[error("{what}")]
    Invalid { what: String },
}

fn io_error(path: &Path) -> impl Fn(std::io::Error) -> DataError + '_ {
    move |source| DataError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Encodes a header.
fn header_bytes(header: &Header) -> Result<Vec<u8>, DataError> {
    let name = header.game.as_bytes();
    if name.is_empty() || name.len() > usize::from(u8::MAX) {
        return Err(DataError::Invalid {
            what: format!("game name {:?} must be 1 to 255 bytes", header.game),
        });
    }
    let mut bytes = Vec::with_capacity(12 + name.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    bytes.push(header.layout.code());
    bytes.push(name.len() as u8);
    bytes.extend_from_slice(name);
    Ok(bytes)
}

/// Appends a sample's bytes to `out`.
fn encode_sample(sample: &Sample, out: &mut Vec<u8>) -> Result<(), DataError> {
    let text = sample.position.as_bytes();
    if text.is_empty() || text.len() > MAX_TEXT {
        return Err(DataError::Invalid {
            what: format!(
                "position text of {} bytes; a sample holds 1 to {MAX_TEXT}",
                text.len()
            ),
        });
    }
    out.extend_from_slice(&(text.len() as u16).to_le_bytes());
    out.extend_from_slice(text);
    out.extend_from_slice(&sample.score.to_le_bytes());
    out.push(sample.result.code() as u8);
    out.extend_from_slice(&sample.ply.to_le_bytes());
    Ok(())
}

/// Writes blocks of samples to a data file.
pub struct DataWriter {
    path: PathBuf,
    out: BufWriter<File>,
    buffer: Vec<u8>,
    blocks: u64,
    samples: u64,
}

impl DataWriter {
    /// Creates (or overwrites) `path` with `header`.
    pub fn create(path: &Path, header: &Header) -> Result<DataWriter, DataError> {
        let bytes = header_bytes(header)?;
        let file = File::create(path).map_err(io_error(path))?;
        let mut out = BufWriter::new(file);
        out.write_all(&bytes).map_err(io_error(path))?;
        out.flush().map_err(io_error(path))?;
        Ok(DataWriter {
            path: path.to_path_buf(),
            out,
            buffer: Vec::new(),
            blocks: 0,
            samples: 0,
        })
    }

    /// Opens an existing file of `game` to add blocks after its last whole
    /// one. A last block cut short (a run that was killed) is cut off; the
    /// answer says what the file holds then.
    pub fn append(path: &Path, game: &str) -> Result<(DataWriter, Contents), DataError> {
        let contents = scan(path)?;
        if contents.header.game != game {
            return Err(DataError::WrongGame {
                path: path.to_path_buf(),
                found: contents.header.game,
                wanted: game.to_string(),
            });
        }
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(io_error(path))?;
        file.set_len(contents.whole_length)
            .map_err(io_error(path))?;
        file.seek(SeekFrom::End(0)).map_err(io_error(path))?;
        Ok((
            DataWriter {
                path: path.to_path_buf(),
                out: BufWriter::new(file),
                buffer: Vec::new(),
                blocks: contents.blocks,
                samples: contents.samples,
            },
            contents,
        ))
    }

    /// Writes one block (a game's positions: possibly none) and flushes it,
    /// so that a run killed later loses nothing before it.
    pub fn write_block(&mut self, samples: &[Sample]) -> Result<(), DataError> {
        let count = u32::try_from(samples.len())
            .ok()
            .filter(|&n| n <= MAX_BLOCK)
            .ok_or_else(|| DataError::Invalid {
                what: format!("a block of {} samples; at most {MAX_BLOCK}", samples.len()),
            })?;
        self.buffer.clear();
        self.buffer.extend_from_slice(&count.to_le_bytes());
        for sample in samples {
            encode_sample(sample, &mut self.buffer)?;
        }
        self.out
            .write_all(&self.buffer)
            .and_then(|()| self.out.flush())
            .map_err(io_error(&self.path))?;
        self.blocks += 1;
        self.samples += samples.len() as u64;
        Ok(())
    }

    /// Blocks in the file so far (games, for a self-play file).
    pub fn blocks(&self) -> u64 {
        self.blocks
    }

    /// Samples in the file so far.
    pub fn samples(&self) -> u64 {
        self.samples
    }
}

/// Reads a data file block by block.
pub struct DataReader<R = BufReader<File>> {
    path: PathBuf,
    input: R,
    header: Header,
    offset: u64,
}

/// Reads exactly `buf.len()` bytes; `Ok(false)` on a clean end of file before
/// the first byte.
fn read_or_end(input: &mut impl Read, buf: &mut [u8]) -> std::io::Result<bool> {
    let mut filled = 0;
    while filled < buf.len() {
        match input.read(&mut buf[filled..]) {
            Ok(0) if filled == 0 => return Ok(false),
            Ok(0) => return Err(ErrorKind::UnexpectedEof.into()),
            Ok(n) => filled += n,
            Err(err) if err.kind() == ErrorKind::Interrupted => {}
            Err(err) => return Err(err),
        }
    }
    Ok(true)
}

impl DataReader {
    pub fn open(path: &Path) -> Result<DataReader, DataError> {
        let file = File::open(path).map_err(io_error(path))?;
        DataReader::from_reader(path, BufReader::new(file))
    }
}

impl<R: Read> DataReader<R> {
    /// Reads the header from any byte source; `path` only names it in errors.
    /// What [`DataReader::open`] does after opening the file, kept apart so
    /// that the fuzz targets can feed bytes from memory.
    pub fn from_reader(path: &Path, mut input: R) -> Result<DataReader<R>, DataError> {
        let mut fixed = [0u8; 12];
        match read_or_end(&mut input, &mut fixed) {
            Ok(true) if &fixed[..8] == MAGIC => {}
            Ok(_) => {
                return Err(DataError::NotData {
                    path: path.to_path_buf(),
                });
            }
            Err(err) if err.kind() == ErrorKind::UnexpectedEof => {
                return Err(DataError::NotData {
                    path: path.to_path_buf(),
                });
            }
            Err(err) => return Err(io_error(path)(err)),
        }
        let version = u16::from_le_bytes([fixed[8], fixed[9]]);
        if version != VERSION {
            return Err(DataError::Version {
                path: path.to_path_buf(),
                found: version,
            });
        }
        let damaged = |offset: u64, what: &str| DataError::Damaged {
            path: path.to_path_buf(),
            offset,
            what: what.to_string(),
        };
        let layout = Layout::from_code(fixed[10])
            .ok_or_else(|| damaged(10, &format!("unknown layout {}", fixed[10])))?;
        let mut name = vec![0u8; usize::from(fixed[11])];
        match read_or_end(&mut input, &mut name) {
            Ok(true) if !name.is_empty() => {}
            Ok(_) => return Err(damaged(11, "the header names no game")),
            Err(err) if err.kind() == ErrorKind::UnexpectedEof => {
                return Err(damaged(12, "the header is cut short"));
            }
            Err(err) => return Err(io_error(path)(err)),
        }
        let game =
            String::from_utf8(name).map_err(|_| damaged(12, "the game name is not UTF-8"))?;
        let offset = 12 + game.len() as u64;
        Ok(DataReader {
            path: path.to_path_buf(),
            input,
            header: Header { game, layout },
            offset,
        })
    }

    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Where the next block starts.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The next block, or `None` at the end of the file. A block cut short
    /// is [`DataError::Truncated`]; bytes that cannot be a block are
    /// [`DataError::Damaged`], naming the byte.
    pub fn next_block(&mut self) -> Result<Option<Vec<Sample>>, DataError> {
        let start = self.offset;
        let mut count = [0u8; 4];
        match read_or_end(&mut self.input, &mut count) {
            Ok(false) => return Ok(None),
            Ok(true) => {}
            Err(err) => return Err(self.failure(err, start)),
        }
        let count = u32::from_le_bytes(count);
        if count > MAX_BLOCK {
            return Err(self.damaged(start, format!("a block of {count} samples")));
        }
        self.offset += 4;
        let mut samples = Vec::new();
        for _ in 0..count {
            let sample = self.read_sample().map_err(|err| match err {
                SampleError::Io(err) => self.failure(err, start),
                SampleError::Bad(offset, what) => self.damaged(offset, what),
            })?;
            samples.push(sample);
        }
        Ok(Some(samples))
    }

    fn damaged(&self, offset: u64, what: String) -> DataError {
        DataError::Damaged {
            path: self.path.clone(),
            offset,
            what,
        }
    }

    fn failure(&self, err: std::io::Error, block_start: u64) -> DataError {
        if err.kind() == ErrorKind::UnexpectedEof {
            DataError::Truncated {
                path: self.path.clone(),
                offset: block_start,
            }
        } else {
            io_error(&self.path)(err)
        }
    }

    fn read_exact(&mut self, buf: &mut [u8]) -> Result<(), SampleError> {
        self.input.read_exact(buf).map_err(SampleError::Io)?;
        self.offset += buf.len() as u64;
        Ok(())
    }

    fn read_sample(&mut self) -> Result<Sample, SampleError> {
        let at = self.offset;
        let mut len = [0u8; 2];
        self.read_exact(&mut len)?;
        let len = usize::from(u16::from_le_bytes(len));
        if len == 0 || len > MAX_TEXT {
            return Err(SampleError::Bad(
                at,
                format!("a position text of {len} bytes"),
            ));
        }
        let mut text = vec![0u8; len];
        self.read_exact(&mut text)?;
        let position = String::from_utf8(text)
            .map_err(|_| SampleError::Bad(at + 2, "a position text that is not UTF-8".into()))?;
        let mut rest = [0u8; 5];
        self.read_exact(&mut rest)?;
        let score = i16::from_le_bytes([rest[0], rest[1]]);
        let result = GameResult::from_code(rest[2] as i8).ok_or_else(|| {
            SampleError::Bad(
                at + 4 + len as u64,
                format!("result {} (not -1, 0 or 1)", rest[2] as i8),
            )
        })?;
        let ply = u16::from_le_bytes([rest[3], rest[4]]);
        Ok(Sample {
            position,
            score,
            result,
            ply,
        })
    }
}

enum SampleError {
    Io(std::io::Error),
    Bad(u64, String),
}

/// What a data file holds, from [`scan`].
#[derive(Clone, Debug)]
pub struct Contents {
    pub header: Header,
    pub blocks: u64,
    pub samples: u64,
    /// Results for the side to move: losses, draws, wins.
    pub results: [u64; 3],
    /// The length up to the end of the last whole block.
    pub whole_length: u64,
    /// Bytes after the last whole block (a block cut short), if any.
    pub cut_short: u64,
}

/// Reads a whole file and counts what it holds, accepting a last block cut
/// short (it is reported in [`Contents::cut_short`]).
pub fn scan(path: &Path) -> Result<Contents, DataError> {
    let mut reader = DataReader::open(path)?;
    let mut contents = Contents {
        header: reader.header().clone(),
        blocks: 0,
        samples: 0,
        results: [0; 3],
        whole_length: reader.offset(),
        cut_short: 0,
    };
    loop {
        match reader.next_block() {
            Ok(Some(block)) => {
                contents.blocks += 1;
                contents.samples += block.len() as u64;
                for sample in &block {
                    contents.results[(sample.result.code() + 1) as usize] += 1;
                }
                contents.whole_length = reader.offset();
            }
            Ok(None) => break,
            Err(DataError::Truncated { offset, .. }) => {
                let length = std::fs::metadata(path).map_err(io_error(path))?.len();
                contents.whole_length = offset;
                contents.cut_short = length.saturating_sub(offset);
                break;
            }
            Err(err) => return Err(err),
        }
    }
    Ok(contents)
}

/// Every sample of a file, refusing one cut short.
pub fn read_all(path: &Path) -> Result<(Header, Vec<Sample>), DataError> {
    let mut reader = DataReader::open(path)?;
    let mut samples = Vec::new();
    while let Some(block) = reader.next_block()? {
        samples.extend(block);
    }
    Ok((reader.header().clone(), samples))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(i: u16) -> Sample {
        Sample {
            position: format!("position {i}"),
            score: i as i16 * 7 - 30,
            result: [GameResult::Loss, GameResult::Draw, GameResult::Win][usize::from(i % 3)],
            ply: i,
        }
    }

    fn header() -> Header {
        Header {
            game: "virus/5x5".into(),
            layout: Layout::Games,
        }
    }

    #[test]
    fn blocks_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("data.bin");
        let mut writer = DataWriter::create(&path, &header()).unwrap();
        let first: Vec<Sample> = (0..5).map(sample).collect();
        writer.write_block(&first).unwrap();
        writer.write_block(&[]).unwrap();
        writer.write_block(&[sample(9)]).unwrap();
        drop(writer);
        let mut reader = DataReader::open(&path).unwrap();
        assert_eq!(reader.header(), &header());
        assert_eq!(reader.next_block().unwrap(), Some(first));
        assert_eq!(reader.next_block().unwrap(), Some(vec![]));
        assert_eq!(reader.next_block().unwrap(), Some(vec![sample(9)]));
        assert_eq!(reader.next_block().unwrap(), None);
        let contents = scan(&path).unwrap();
        assert_eq!((contents.blocks, contents.samples), (3, 6));
        assert_eq!(contents.results, [3, 2, 1]);
        assert_eq!(contents.cut_short, 0);
    }

    #[test]
    fn a_block_cut_short_is_dropped_on_append() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("data.bin");
        let mut writer = DataWriter::create(&path, &header()).unwrap();
        writer.write_block(&[sample(1), sample(2)]).unwrap();
        writer.write_block(&[sample(3), sample(4)]).unwrap();
        drop(writer);
        let whole = std::fs::metadata(&path).unwrap().len();
        let file = OpenOptions::new().write(true).open(&path).unwrap();
        file.set_len(whole - 3).unwrap();
        drop(file);
        assert!(matches!(read_all(&path), Err(DataError::Truncated { .. })));
        let (mut writer, contents) = DataWriter::append(&path, "virus/5x5").unwrap();
        assert_eq!((contents.blocks, contents.samples), (1, 2));
        assert!(contents.cut_short > 0);
        writer.write_block(&[sample(5)]).unwrap();
        drop(writer);
        let (_, samples) = read_all(&path).unwrap();
        assert_eq!(samples, vec![sample(1), sample(2), sample(5)]);
    }

    #[test]
    fn appending_to_another_game_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("data.bin");
        DataWriter::create(&path, &header()).unwrap();
        let err = DataWriter::append(&path, "ataxx").err().unwrap();
        assert!(
            err.to_string()
                .contains("holds virus/5x5 positions, not ataxx"),
            "{err}"
        );
    }

    #[test]
    fn other_files_and_versions_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("other.txt");
        std::fs::write(&path, "hello, world").unwrap();
        let err = DataReader::open(&path).err().unwrap();
        assert!(
            err.to_string().contains("not a plateau training-data file"),
            "{err}"
        );
        let mut bytes = header_bytes(&header()).unwrap();
        bytes[8] = 9;
        std::fs::write(&path, &bytes).unwrap();
        let err = DataReader::open(&path).err().unwrap();
        assert!(err.to_string().contains("format version 9"), "{err}");
    }

    /// Arbitrary bytes after a valid header: every read ends in a sample, the
    /// end, or an error; never a panic or a huge allocation.
    #[test]
    fn garbage_never_panics() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("garbage.bin");
        let mut rng = plateau_core::Rng::new(5);
        for round in 0..2000 {
            let mut bytes = header_bytes(&header()).unwrap();
            if round % 2 == 0 {
                let mut valid = Vec::new();
                valid.extend_from_slice(&2u32.to_le_bytes());
                encode_sample(&sample(1), &mut valid).unwrap();
                encode_sample(&sample(2), &mut valid).unwrap();
                let flips = 1 + rng.below(3);
                for _ in 0..flips {
                    let at = rng.below(valid.len() as u64) as usize;
                    valid[at] = rng.next_u64() as u8;
                }
                bytes.extend_from_slice(&valid);
            } else {
                let len = rng.below(64);
                bytes.extend((0..len).map(|_| rng.next_u64() as u8));
            }
            std::fs::write(&path, &bytes).unwrap();
            let _ = scan(&path);
            let _ = read_all(&path);
        }
    }
}
