//! The training-data file: positions with their search score and the game's
//! result, in a compact binary form that names its game and format version.
//!
//! Layout (little-endian):
//!
//! ```text
//! header: b"PLATDATA"  version: u16  layout: u8  name length: u8  name: UTF-8
//! blocks: count: u32, then `count` samples
//! sample, version 1: text length: u16  position text: UTF-8  score: i16
//!                    result: i8  ply: u16
//! sample, version 2: packed position (fixed size for the game, see
//!                    crate::packed)  score: i16  result and ply: u16
//!                    (result + 1 in bits 0-1: 0 lost, 1 drawn, 2 won;
//!                    the ply in bits 2-15)
//! ```
//!
//! A self-play file holds one block per game, so that a run that stops can be
//! resumed at the next game: a block cut short by a crash is recognised and
//! dropped. Merged and shuffled files hold blocks of any size. Positions are
//! stored as the game's own position (text in version 1, packed in version 2)
//! rather than as network inputs, so that one data set can train networks
//! with different inputs; either way a reader hands back the position text.
//!
//! Version 2 is written for the games that have a [`Packer`] (the Ataxx
//! family), version 1 for the others: a version-2 sample of another game
//! would be the version-1 sample again, and older readers could not read
//! it. A file is never of two versions: appending continues in the file's.

use std::fs::{File, OpenOptions};
use std::io::{BufReader, BufWriter, ErrorKind, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::packed::Packer;

/// The first bytes of every data file.
pub const MAGIC: &[u8; 8] = b"PLATDATA";
/// The format version of position texts: every game.
pub const VERSION_TEXT: u16 = 1;
/// The format version of packed positions: the games with a [`Packer`].
pub const VERSION_PACKED: u16 = 2;
/// The newest format version this code writes (it reads every one).
pub const VERSION: u16 = VERSION_PACKED;
/// Largest ply a version-2 sample holds (14 bits).
pub const MAX_PACKED_PLY: u16 = (1 << 14) - 1;
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

/// The file's header: which game (with its variant) the positions are of,
/// and how they are stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The registry name with the variant: `abalone/belgian-daisy`.
    pub game: String,
    pub layout: Layout,
    /// The format version: [`VERSION_TEXT`], or [`VERSION_PACKED`] for a
    /// game with a [`Packer`].
    pub version: u16,
}

impl Header {
    /// A header of the newest version `game` is written in: packed where
    /// the game has a [`Packer`], text otherwise.
    pub fn new(game: impl Into<String>, layout: Layout) -> Header {
        let game = game.into();
        let version = if Packer::for_game(&game).is_some() {
            VERSION_PACKED
        } else {
            VERSION_TEXT
        };
        Header {
            game,
            layout,
            version,
        }
    }
}

/// How a file's samples hold their positions.
#[derive(Clone, Copy, Debug)]
enum Encoding {
    Text,
    Packed(Packer),
}

impl Encoding {
    /// The encoding of a header's version and game, or why there is none.
    fn of(header: &Header) -> Result<Encoding, String> {
        match header.version {
            VERSION_TEXT => Ok(Encoding::Text),
            VERSION_PACKED => Packer::for_game(&header.game)
                .map(Encoding::Packed)
                .ok_or_else(|| not_packed(&header.game)),
            other => Err(format!(
                "format version {other}; this plateau writes versions {VERSION_TEXT} and \
                 {VERSION_PACKED}"
            )),
        }
    }
}

fn not_packed(game: &str) -> String {
    format!(
        "format version {VERSION_PACKED} holds packed positions, and {game} has no packed \
         encoding (its files are version {VERSION_TEXT})"
    )
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
    #[error(
        "{path}: format version {found}; this plateau reads versions {VERSION_TEXT} to {VERSION}"
    )]
    Version { path: PathBuf, found: u16 },
    #[error("{path}: {}", not_packed(game))]
    NotPacked { path: PathBuf, game: String },
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
    bytes.extend_from_slice(&header.version.to_le_bytes());
    bytes.push(header.layout.code());
    bytes.push(name.len() as u8);
    bytes.extend_from_slice(name);
    Ok(bytes)
}

/// Appends a sample's bytes to `out`.
fn encode_sample(sample: &Sample, encoding: Encoding, out: &mut Vec<u8>) -> Result<(), DataError> {
    let Encoding::Packed(packer) = encoding else {
        return encode_text_sample(sample, out);
    };
    if sample.ply > MAX_PACKED_PLY {
        return Err(DataError::Invalid {
            what: format!(
                "ply {} in a version-{VERSION_PACKED} file, which holds plies up to \
                 {MAX_PACKED_PLY}",
                sample.ply
            ),
        });
    }
    packer
        .pack(&sample.position, out)
        .map_err(|what| DataError::Invalid { what })?;
    out.extend_from_slice(&sample.score.to_le_bytes());
    let result = (sample.result.code() + 1) as u16;
    out.extend_from_slice(&((sample.ply << 2) | result).to_le_bytes());
    Ok(())
}

fn encode_text_sample(sample: &Sample, out: &mut Vec<u8>) -> Result<(), DataError> {
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
    encoding: Encoding,
    out: BufWriter<File>,
    buffer: Vec<u8>,
    blocks: u64,
    samples: u64,
}

impl DataWriter {
    /// Creates (or overwrites) `path` with `header`, in the header's
    /// version ([`Header::new`] picks the newest for the game).
    pub fn create(path: &Path, header: &Header) -> Result<DataWriter, DataError> {
        let encoding = Encoding::of(header).map_err(|what| DataError::Invalid { what })?;
        let bytes = header_bytes(header)?;
        let file = File::create(path).map_err(io_error(path))?;
        let mut out = BufWriter::new(file);
        out.write_all(&bytes).map_err(io_error(path))?;
        out.flush().map_err(io_error(path))?;
        Ok(DataWriter {
            path: path.to_path_buf(),
            encoding,
            out,
            buffer: Vec::new(),
            blocks: 0,
            samples: 0,
        })
    }

    /// Opens an existing file of `game` to add blocks after its last whole
    /// one, in the file's version. A last block cut short (a run that was
    /// killed) is cut off; the answer says what the file holds then.
    pub fn append(path: &Path, game: &str) -> Result<(DataWriter, Contents), DataError> {
        let contents = scan(path)?;
        if contents.header.game != game {
            return Err(DataError::WrongGame {
                path: path.to_path_buf(),
                found: contents.header.game,
                wanted: game.to_string(),
            });
        }
        let encoding =
            Encoding::of(&contents.header).map_err(|what| DataError::Invalid { what })?;
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
                encoding,
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
            encode_sample(sample, self.encoding, &mut self.buffer)?;
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
    encoding: Encoding,
    offset: u64,
    /// A version-2 sample's bytes.
    scratch: Vec<u8>,
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
        if version != VERSION_TEXT && version != VERSION_PACKED {
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
        let header = Header {
            game,
            layout,
            version,
        };
        let encoding = Encoding::of(&header).map_err(|_| DataError::NotPacked {
            path: path.to_path_buf(),
            game: header.game.clone(),
        })?;
        Ok(DataReader {
            path: path.to_path_buf(),
            input,
            header,
            encoding,
            offset,
            scratch: Vec::new(),
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
        match self.encoding {
            Encoding::Text => self.read_text_sample(),
            Encoding::Packed(packer) => self.read_packed_sample(packer),
        }
    }

    fn read_packed_sample(&mut self, packer: Packer) -> Result<Sample, SampleError> {
        let at = self.offset;
        let size = packer.position_bytes();
        let mut bytes = std::mem::take(&mut self.scratch);
        bytes.resize(size + 4, 0);
        let read = self.read_exact(&mut bytes);
        self.scratch = bytes;
        read?;
        let bytes = &self.scratch;
        let score = i16::from_le_bytes([bytes[size], bytes[size + 1]]);
        let packed = u16::from_le_bytes([bytes[size + 2], bytes[size + 3]]);
        let ply = packed >> 2;
        let position = packer
            .unpack(&bytes[..size], ply)
            .map_err(|err| SampleError::Bad(at + err.byte as u64, err.what))?;
        let result = GameResult::from_code((packed & 3) as i8 - 1).ok_or_else(|| {
            SampleError::Bad(
                at + size as u64 + 2,
                "result code 3 (0 lost, 1 drawn, 2 won)".into(),
            )
        })?;
        Ok(Sample {
            position,
            score,
            result,
            ply,
        })
    }

    fn read_text_sample(&mut self) -> Result<Sample, SampleError> {
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
    use plateau_ataxx::{Ataxx, VirusWide};
    use plateau_core::{Game, MoveList, Rng};

    fn sample(i: u16) -> Sample {
        Sample {
            position: format!("position {i}"),
            score: i as i16 * 7 - 30,
            result: [GameResult::Loss, GameResult::Draw, GameResult::Win][usize::from(i % 3)],
            ply: i,
        }
    }

    /// A version-1 header of a game that packs: its files stay readable.
    fn header() -> Header {
        Header {
            game: "virus/5x5".into(),
            layout: Layout::Games,
            version: VERSION_TEXT,
        }
    }

    fn write(path: &Path, header: &Header, blocks: &[Vec<Sample>]) {
        let mut writer = DataWriter::create(path, header).unwrap();
        for block in blocks {
            writer.write_block(block).unwrap();
        }
    }

    /// Random playouts of `G` from `start`: every position on the way, with
    /// its ply, a score and a result.
    fn playouts<G: Game>(start: &str, games: usize, rng: &mut Rng) -> Vec<Sample> {
        let mut samples = Vec::new();
        let mut moves = MoveList::new();
        for _ in 0..games {
            let mut game = G::from_text(start).unwrap();
            for ply in 0..400u16 {
                samples.push(Sample {
                    position: game.to_text(),
                    score: rng.next_u64() as i16,
                    result: [GameResult::Loss, GameResult::Draw, GameResult::Win]
                        [rng.below(3) as usize],
                    ply,
                });
                if game.outcome().is_some() {
                    break;
                }
                moves.clear();
                game.legal_moves(&mut moves);
                let Some(&mv) = rng.choose(&moves) else { break };
                game.play(mv);
            }
        }
        samples
    }

    /// Positions of every game that packs, from random playouts (full Ataxx
    /// from starts with blocked cells too).
    fn packed_samples(rng: &mut Rng) -> Vec<(&'static str, Vec<Sample>)> {
        let mut all = vec![(
            "ataxx",
            [
                "x5o/7/7/7/7/7/o5x x 0 1",
                "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
                "x5o/1-3-1/7/3-3/7/1-3-1/o5x x 0 1",
                "x-3-o/-5-/7/7/7/-5-/o-3-x x 0 1",
            ]
            .iter()
            .flat_map(|start| playouts::<Ataxx>(start, 3, rng))
            .collect(),
        )];
        for (game, start) in [
            ("virus", "x5o/7/7/7/7/7/o5x x"),
            ("virus/4x4", "x2o/4/4/o2x x"),
            ("virus/5x5", "x3o/5/5/5/o3x x"),
            ("virus/6x6", "x4o/6/6/6/6/o4x x"),
            ("virus/7x7", "x5o/7/7/7/7/7/o5x x"),
            ("virus/8x8", "x6o/8/8/8/8/8/8/o6x x"),
            ("virus/9x9", "x7o/9/9/9/9/9/9/9/o7x x"),
        ] {
            all.push((game, playouts::<VirusWide>(start, 4, rng)));
        }
        all
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
    fn new_headers_pack_the_games_that_pack() {
        for (game, version) in [
            ("ataxx", VERSION_PACKED),
            ("virus/7x7", VERSION_PACKED),
            ("virus/9x9", VERSION_PACKED),
            ("draughts", VERSION_TEXT),
            ("escampe", VERSION_TEXT),
            ("abalone/belgian-daisy", VERSION_TEXT),
        ] {
            assert_eq!(Header::new(game, Layout::Games).version, version, "{game}");
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("data.bin");
        let mut draughts = Header::new("draughts", Layout::Games);
        draughts.version = VERSION_PACKED;
        let err = DataWriter::create(&path, &draughts).err().unwrap();
        assert!(err.to_string().contains("no packed encoding"), "{err}");
        assert!(!path.exists());
        // A version-2 file of a game without a packer is refused on reading.
        let mut bytes = header_bytes(&Header::new("draughts", Layout::Games)).unwrap();
        bytes[8] = 2;
        std::fs::write(&path, &bytes).unwrap();
        let err = DataReader::open(&path).err().unwrap();
        assert!(matches!(err, DataError::NotPacked { .. }), "{err}");
    }

    #[test]
    fn packed_positions_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let mut rng = Rng::new(36);
        for (game, samples) in packed_samples(&mut rng) {
            assert!(samples.len() > 20, "{game}: {}", samples.len());
            let path = dir.path().join("packed.bin");
            let header = Header::new(game, Layout::Mixed);
            assert_eq!(header.version, VERSION_PACKED);
            let blocks: Vec<Vec<Sample>> = samples.chunks(37).map(<[Sample]>::to_vec).collect();
            write(&path, &header, &blocks);
            let (read_header, read) = read_all(&path).unwrap();
            assert_eq!(read_header, header);
            assert_eq!(read, samples, "{game}");
            // The fixed size: blocks' counts, and per sample the position
            // and four bytes.
            let packer = Packer::for_game(game).unwrap();
            let size = std::fs::metadata(&path).unwrap().len();
            let expected = header_bytes(&header).unwrap().len()
                + 4 * blocks.len()
                + samples.len() * (packer.position_bytes() + 4);
            assert_eq!(size, expected as u64, "{game}");
        }
    }

    #[test]
    fn blocked_cells_and_the_clocks_survive_packing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ataxx.bin");
        let samples: Vec<Sample> = [
            ("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1", 0),
            ("x5o/7/2-1-2/7/2-1-2/7/o5x o 1 1", 1),
            ("-x3o-/1x5/2-1-2/1oo4/2-1-2/7/-o3x- o 99 8", 15),
            ("xxxxxxx/ooooooo/-------/7/7/7/7 x 100 8192", MAX_PACKED_PLY),
        ]
        .iter()
        .map(|&(text, ply)| Sample {
            position: text.into(),
            score: -7,
            result: GameResult::Win,
            ply,
        })
        .collect();
        write(
            &path,
            &Header::new("ataxx", Layout::Games),
            std::slice::from_ref(&samples),
        );
        assert_eq!(read_all(&path).unwrap().1, samples);

        // What version 2 cannot hold is refused, naming it.
        let mut writer = DataWriter::create(&path, &Header::new("ataxx", Layout::Games)).unwrap();
        for (bad, wanted) in [
            (
                Sample {
                    ply: MAX_PACKED_PLY + 1,
                    ..samples[0].clone()
                },
                "ply 16384",
            ),
            (
                Sample {
                    position: "x3o/5/5/5/o3x x".into(),
                    ..samples[0].clone()
                },
                "not an Ataxx position",
            ),
        ] {
            let err = writer.write_block(&[bad]).err().unwrap();
            assert!(err.to_string().contains(wanted), "{err}");
        }
        drop(writer);
        assert_eq!(scan(&path).unwrap().samples, 0);
    }

    /// Full Ataxx's move number is not stored: it is read back as `ply / 2
    /// + 1`, as it is in a game from the standard start.
    #[test]
    fn the_move_number_comes_from_the_ply() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ataxx.bin");
        let stored = Sample {
            position: "x5o/7/7/7/7/7/o5x x 0 40".into(),
            score: 0,
            result: GameResult::Draw,
            ply: 6,
        };
        write(&path, &Header::new("ataxx", Layout::Games), &[vec![stored]]);
        let read = read_all(&path).unwrap().1;
        assert_eq!(read[0].position, "x5o/7/7/7/7/7/o5x x 0 4");
    }

    #[test]
    fn text_and_packed_files_read_the_same_samples() {
        let dir = tempfile::tempdir().unwrap();
        let mut rng = Rng::new(7);
        for (game, samples) in packed_samples(&mut rng) {
            let text = dir.path().join("text.bin");
            let packed = dir.path().join("packed.bin");
            let mut header = Header::new(game, Layout::Games);
            write(&packed, &header, std::slice::from_ref(&samples));
            header.version = VERSION_TEXT;
            write(&text, &header, std::slice::from_ref(&samples));
            let (text_header, from_text) = read_all(&text).unwrap();
            let (packed_header, from_packed) = read_all(&packed).unwrap();
            assert_eq!(text_header.version, VERSION_TEXT);
            assert_eq!(packed_header.version, VERSION_PACKED);
            assert_eq!(from_text, from_packed, "{game}");
            let (text_size, packed_size) = (
                std::fs::metadata(&text).unwrap().len(),
                std::fs::metadata(&packed).unwrap().len(),
            );
            assert!(
                packed_size * 3 < text_size * 2,
                "{game}: {packed_size} {text_size}"
            );
        }
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
        // Still version 1 (position text), though the game packs.
        let (header, samples) = read_all(&path).unwrap();
        assert_eq!(header.version, VERSION_TEXT);
        assert_eq!(samples, vec![sample(1), sample(2), sample(5)]);
    }

    #[test]
    fn appending_continues_in_the_files_version() {
        let dir = tempfile::tempdir().unwrap();
        let mut rng = Rng::new(3);
        let samples = playouts::<Ataxx>("x5o/7/7/7/7/7/o5x x 0 1", 2, &mut rng);
        let (first, second) = samples.split_at(samples.len() / 2);
        for version in [VERSION_TEXT, VERSION_PACKED] {
            let path = dir.path().join(format!("v{version}.bin"));
            let header = Header {
                version,
                ..Header::new("ataxx", Layout::Games)
            };
            write(&path, &header, &[first.to_vec()]);
            let (mut writer, contents) = DataWriter::append(&path, "ataxx").unwrap();
            assert_eq!(contents.header.version, version);
            writer.write_block(second).unwrap();
            drop(writer);
            let (read_header, read) = read_all(&path).unwrap();
            assert_eq!(read_header.version, version);
            assert_eq!(read, samples);
        }
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

    /// A packed Ataxx file of one block: the header, the count, then samples
    /// of 18 bytes (14 of position, score, result and ply).
    fn packed_file(samples: &[Sample]) -> (Vec<u8>, usize) {
        let header = Header::new("ataxx", Layout::Games);
        let mut bytes = header_bytes(&header).unwrap();
        let first = bytes.len() + 4;
        bytes.extend_from_slice(&(samples.len() as u32).to_le_bytes());
        let packer = Encoding::of(&header).unwrap();
        for sample in samples {
            encode_sample(sample, packer, &mut bytes).unwrap();
        }
        (bytes, first)
    }

    fn damage(bytes: &[u8]) -> String {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("damaged.bin");
        std::fs::write(&path, bytes).unwrap();
        match read_all(&path) {
            Ok(_) => "read whole".into(),
            Err(err) => err.to_string(),
        }
    }

    #[test]
    fn damaged_packed_files_are_refused_naming_the_byte() {
        let samples = playouts::<Ataxx>("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1", 1, &mut Rng::new(11));
        let samples = &samples[..4];
        let (whole, first) = packed_file(samples);
        assert_eq!(whole.len(), first + 4 * 18);
        assert_eq!(damage(&whole), "read whole");
        // Cut anywhere: refused, as a header cut short or a block cut short.
        for len in 0..whole.len() {
            if len == first - 4 {
                // The header alone: a file of no block.
                assert_eq!(damage(&whole[..len]), "read whole");
                continue;
            }
            let err = damage(&whole[..len]);
            assert!(
                err.contains("not a plateau training-data file")
                    || err.contains("header")
                    || err.contains("is cut short"),
                "{len}: {err}"
            );
        }
        let with = |at: usize, byte: u8| {
            let mut bytes = whole.clone();
            bytes[at] = byte;
            damage(&bytes)
        };
        // The header: version, layout, the game's name.
        assert!(with(8, 3).contains("format version 3"));
        assert!(with(10, 2).contains("damaged at byte 10: unknown layout 2"));
        assert!(with(12, b'b').contains("btaxx has no packed encoding"));
        // The second sample, from byte `at`.
        let at = first + 18;
        let err = with(at + 12, whole[at + 12] | 0b1100);
        assert!(
            err.contains(&format!("damaged at byte {}", at + 12)) && err.contains("off the 7x7"),
            "{err}"
        );
        let err = with(at + 13, 101);
        assert!(
            err.contains(&format!("damaged at byte {}", at + 13))
                && err.contains("half-move clock of 101"),
            "{err}"
        );
        let err = with(at + 16, whole[at + 16] | 3);
        assert!(
            err.contains(&format!("damaged at byte {}", at + 16)) && err.contains("result code 3"),
            "{err}"
        );
        // No stone on the board.
        let mut bytes = whole.clone();
        bytes[at..at + 13].fill(0);
        let err = damage(&bytes);
        assert!(
            err.contains(&format!("damaged at byte {at}")) && err.contains("neither side"),
            "{err}"
        );
        // A virus file has no blocked cells.
        let virus = Header::new("virus/7x7", Layout::Games);
        let mut bytes = header_bytes(&virus).unwrap();
        let at = bytes.len() + 4;
        bytes.extend_from_slice(&1u32.to_le_bytes());
        let start = Sample {
            position: "x5o/7/7/7/7/7/o5x x".into(),
            ..samples[0].clone()
        };
        encode_sample(&start, Encoding::of(&virus).unwrap(), &mut bytes).unwrap();
        assert_eq!(damage(&bytes), "read whole");
        bytes[at + 5] |= 0b11 << 4;
        let err = damage(&bytes);
        assert!(
            err.contains(&format!("damaged at byte {}", at + 5)) && err.contains("blocked"),
            "{err}"
        );
    }

    /// Arbitrary bytes after a valid header: every read ends in a sample, the
    /// end, or an error; never a panic or a huge allocation.
    #[test]
    fn garbage_never_panics() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("garbage.bin");
        let mut rng = Rng::new(5);
        let ataxx = playouts::<Ataxx>("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1", 1, &mut rng);
        let virus = playouts::<VirusWide>("x3o/5/5/5/o3x x", 1, &mut rng);
        let text = [sample(1), sample(2)];
        let files: [(Header, &[Sample]); 3] = [
            (header(), &text),
            (Header::new("ataxx", Layout::Games), &ataxx[3..5]),
            (Header::new("virus/5x5", Layout::Mixed), &virus[1..3]),
        ];
        for round in 0..6000 {
            let (header, samples) = &files[round % 3];
            let mut bytes = header_bytes(header).unwrap();
            if round % 2 == 0 {
                let encoding = Encoding::of(header).unwrap();
                let mut valid = Vec::new();
                valid.extend_from_slice(&2u32.to_le_bytes());
                for sample in samples.iter() {
                    encode_sample(sample, encoding, &mut valid).unwrap();
                }
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
            if round % 7 == 0 {
                let at = rng.below(bytes.len() as u64) as usize;
                bytes[at] = rng.next_u64() as u8;
            }
            std::fs::write(&path, &bytes).unwrap();
            let _ = scan(&path);
            if let Ok((header, read)) = read_all(&path)
                && header.version == VERSION_PACKED
            {
                // What reads, reads as a position of its game.
                let packer = Packer::for_game(&header.game).unwrap();
                for sample in read {
                    packer.pack(&sample.position, &mut Vec::new()).unwrap();
                }
            }
        }
    }
}
