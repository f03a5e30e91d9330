//! A match's journal: every finished game, appended as it ends, so that a
//! long match stopped by Ctrl-C, a crash or a lost machine resumes where it
//! was. The same command run again reads the file back and plays only the
//! games missing; the games are numbered, and a game's opening and seeds
//! follow from its number, so the finished match is the one that would have
//! run without the stop.
//!
//! The file is text: a first line naming the format, a second describing the
//! match (a journal of another match is refused, naming what differs), then
//! one JSON object per game.

use crate::game::GameRecord;
use crate::openings::OpeningSource;
use crate::runner::MatchConfig;
use plateau_core::{EndReason, Outcome, Side};
use serde_json::{Value, json};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

const FORMAT_LINE: &str = "plateau match journal 1";
const MATCH_PREFIX: &str = "match ";

/// An open journal: the games it held when opened, and the file to which
/// each new one is appended.
pub struct Journal {
    path: PathBuf,
    file: File,
    played: Vec<GameRecord>,
}

impl Journal {
    /// Opens the journal of `config` at `path`, creating it if missing. The
    /// games already in it are [`Journal::played`]. Errors name the file and
    /// the line at fault; a last line cut short (the process was killed
    /// while writing it) is dropped, since that game is simply played again.
    pub fn open(path: &Path, config: &MatchConfig) -> Result<Journal, String> {
        let name = path.display();
        let description = describe(config);
        let existing = match std::fs::read_to_string(path) {
            Ok(text) => Some(text),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => None,
            Err(err) => return Err(format!("cannot read the journal {name}: {err}")),
        };
        let mut played = Vec::new();
        let mut seen = vec![false; config.game_count() as usize];
        // The length of the file up to its last whole line: a line cut short
        // by a kill is cut off, and that game played again.
        let mut valid_len = 0;
        if let Some(text) = existing.as_deref().filter(|t| !t.is_empty()) {
            let header = format!("{FORMAT_LINE}\n{MATCH_PREFIX}{description}\n");
            let lines: Vec<&str> = text.split_inclusive('\n').collect();
            let header_written = lines.len() >= 2 && lines[1].ends_with('\n');
            // A header cut while it was written is only a start of ours.
            let journal = if header_written {
                lines[0].trim_end_matches(['\n', '\r']) == FORMAT_LINE
            } else {
                header.starts_with(text)
            };
            if !journal {
                return Err(format!(
                    "{name} is not a match journal (its first line should be {FORMAT_LINE:?})"
                ));
            }
            if header_written {
                let Some(theirs) = lines[1]
                    .trim_end_matches(['\n', '\r'])
                    .strip_prefix(MATCH_PREFIX)
                else {
                    return Err(format!("{name}, line 2: no match description"));
                };
                if theirs != description {
                    return Err(format!(
                        "the journal {name} is of another match ({}); give the same options \
                         as when it was started, or another --journal file",
                        difference(theirs, &description)
                    ));
                }
                valid_len = lines[0].len() + lines[1].len();
                for (index, line) in lines.iter().enumerate().skip(2) {
                    // A line is written whole with its newline: one without
                    // was cut by a kill, even if what is there parses.
                    if !line.ends_with('\n') {
                        break;
                    }
                    let content = line.trim_end_matches(['\n', '\r']);
                    if !content.is_empty() {
                        let record = parse_game(content, config)
                            .map_err(|err| format!("{name}, line {}: {err}", index + 1))?;
                        if std::mem::replace(&mut seen[record.number], true) {
                            return Err(format!(
                                "{name}, line {}: game {} is there twice",
                                index + 1,
                                record.number + 1
                            ));
                        }
                        played.push(record);
                    }
                    valid_len += line.len();
                }
            }
        }
        let cannot_write = |err: std::io::Error| format!("cannot write the journal {name}: {err}");
        let current = existing.as_deref().map_or(0, str::len);
        if valid_len < current {
            // Through a handle of its own: an append-only one may not
            // truncate everywhere.
            OpenOptions::new()
                .write(true)
                .open(path)
                .and_then(|file| file.set_len(valid_len as u64))
                .map_err(cannot_write)?;
        }
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(cannot_write)?;
        if valid_len == 0 {
            file.write_all(format!("{FORMAT_LINE}\n{MATCH_PREFIX}{description}\n").as_bytes())
                .and_then(|()| file.flush())
                .map_err(cannot_write)?;
        }
        Ok(Journal {
            path: path.to_path_buf(),
            file,
            played,
        })
    }

    /// The games the journal held when opened, in the order they finished
    /// (an SPRT counted in that order decides where it did).
    pub fn played(&self) -> &[GameRecord] {
        &self.played
    }

    /// Appends a finished game (one line, flushed at once).
    pub fn append(&mut self, record: &GameRecord) -> Result<(), String> {
        let line = game_line(record).to_string();
        // One write, the newline with it: a line without one was cut.
        self.file
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|err| format!("cannot write the journal {}: {err}", self.path.display()))
    }
}

/// The match a journal belongs to, on one line: what decides its games.
/// Concurrency is left out (a match is the same whatever it is).
fn describe(config: &MatchConfig) -> String {
    let mut description = json!({
        "game": config.game.full_name(),
        "engines": config.engines.clone().map(|e| e.name()),
        "games": config.game_count(),
        "time": format!("{:?}", config.time),
        "openings": match &config.openings {
            OpeningSource::Random { plies } => format!("{plies} random plies"),
            OpeningSource::List(list) => format!(
                "{} listed, digest {:016x}",
                list.len(),
                fnv1a(format!("{list:?}").as_bytes())
            ),
        },
        "max_plies": config.max_plies,
        "seed": config.seed,
        "sprt": config.sprt.map(|s| s.to_string()),
        "timeout_ms": config.external.move_timeout.as_millis() as u64,
    });
    // Only when set, so that journals from before the option still resume.
    if let Some(plies) = config.move_limit {
        description["move_limit"] = json!(plies);
    }
    description.to_string()
}

/// A digest of an opening list, so that the description stays one short line.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Names the fields in which two descriptions differ.
fn difference(theirs: &str, ours: &str) -> String {
    let (Ok(Value::Object(theirs)), Ok(Value::Object(ours))) = (
        serde_json::from_str::<Value>(theirs),
        serde_json::from_str::<Value>(ours),
    ) else {
        return "its description cannot be read".into();
    };
    let differing: Vec<String> = ours
        .iter()
        .filter(|(key, value)| theirs.get(*key) != Some(value))
        .map(|(key, value)| {
            let short = |v: Option<&Value>| {
                let text = v.map_or("nothing".to_string(), Value::to_string);
                if text.chars().count() > 60 {
                    format!("{}…", text.chars().take(60).collect::<String>())
                } else {
                    text
                }
            };
            format!(
                "{key}: {} there, {} now",
                short(theirs.get(key)),
                short(Some(value))
            )
        })
        .collect();
    if differing.is_empty() {
        "its description differs".into()
    } else {
        differing.join("; ")
    }
}

fn game_line(record: &GameRecord) -> Value {
    json!({
        "game": record.number + 1,
        "white": record.white,
        "winner": record.outcome.winner.map(Side::name),
        "reason": record.outcome.reason.phrase(),
        "note": record.note,
        "time_ms": record.time_used.map(|t| t.as_millis() as u64),
        "start": record.start,
        "opening_len": record.opening_len,
        "moves": record.moves,
    })
}

fn parse_game(line: &str, config: &MatchConfig) -> Result<GameRecord, String> {
    let value: Value = serde_json::from_str(line).map_err(|err| format!("not JSON: {err}"))?;
    let games = u64::from(config.game_count());
    let number = value["game"]
        .as_u64()
        .filter(|n| (1..=games).contains(n))
        .ok_or_else(|| format!("no game number from 1 to {games}"))?;
    let white = value["white"]
        .as_u64()
        .filter(|w| *w <= 1)
        .ok_or("no white player (0 or 1)")? as usize;
    // Game 2k has engine 0 as White, game 2k + 1 engine 1.
    if white as u64 != (number - 1) % 2 {
        return Err(format!(
            "game {number} had engine {} as White, not engine {white}",
            (number - 1) % 2
        ));
    }
    let winner = match &value["winner"] {
        Value::Null => None,
        Value::String(name) => {
            Some(Side::from_name(name).ok_or_else(|| format!("unknown winner {name:?}"))?)
        }
        other => return Err(format!("unknown winner {other}")),
    };
    let reason: EndReason = value["reason"]
        .as_str()
        .ok_or("no reason")?
        .parse()
        .map_err(|err| format!("{err}"))?;
    let note = value["note"].as_str().map(str::to_string);
    let time = |index: usize| {
        value["time_ms"][index]
            .as_u64()
            .map(Duration::from_millis)
            .ok_or("no thinking times")
    };
    let start = value["start"].as_str().ok_or("no start position")?;
    let moves: Vec<String> = value["moves"]
        .as_array()
        .ok_or("no moves")?
        .iter()
        .map(|m| {
            m.as_str()
                .map(str::to_string)
                .ok_or("a move that is not text")
        })
        .collect::<Result<_, _>>()?;
    let opening_len = value["opening_len"]
        .as_u64()
        .filter(|&n| n as usize <= moves.len())
        .ok_or("no opening length")? as usize;
    // The moves must be legal from the start: a record that the match's
    // game cannot replay is not this match's.
    let mut game = config
        .game
        .from_text(start)
        .map_err(|err| format!("start position: {err}"))?;
    for mv in &moves {
        game.play(mv).map_err(|err| format!("move {mv}: {err}"))?;
    }
    Ok(GameRecord {
        number: number as usize - 1,
        white,
        start: start.to_string(),
        moves,
        opening_len,
        outcome: Outcome { winner, reason },
        note,
        time_used: [time(0)?, time(1)?],
    })
}
