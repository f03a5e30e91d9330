//! A save file for games whose draw rules remember the past (repetitions, ply
//! limits), where the one-line position text is not enough: the position from
//! which that memory starts, the counters the text leaves out, and the moves
//! played since. Reading it back replays the moves, so the repetition history
//! and every counter come back exactly.
//!
//! ```text
//! # plateau save file: the position where the draw rules' memory starts,
//! # then the moves played since
//! start: x5o/7/7/7/7/7/o5x x 0 1
//! moves: a7c5 g1e3
//! ```
//!
//! Lines are `name: value`; `#` starts a comment line; `moves` may be given on
//! several lines, read in order. A text without any `name: value` line is a
//! bare position text (what the default [`Game::to_file`] writes), so games
//! using this file have no `:` in their position text.

use crate::{Game, PositionError, play_moves};

/// Longest save file read (a million bytes is thousands of moves).
pub const MAX_SAVE_FILE_LEN: usize = 1 << 20;

/// Moves written per `moves:` line.
const MOVES_PER_LINE: usize = 16;

/// A save file as read: the start position's text, the other fields, and the
/// moves, all still unchecked text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveFile<'a> {
    pub start: &'a str,
    fields: Vec<(&'a str, &'a str)>,
    pub moves: Vec<&'a str>,
}

impl<'a> SaveFile<'a> {
    /// The value of a field other than `start` and `moves`, if given.
    pub fn field(&self, name: &str) -> Option<&'a str> {
        self.fields
            .iter()
            .find(|(key, _)| *key == name)
            .map(|&(_, value)| value)
    }

    /// The moves as the game's own, each checked by playing it from `start`
    /// (the position read from [`SaveFile::start`], with the counters of the
    /// other fields; left as it is): a loaded game that keeps its moves.
    pub fn moves_from<G: Game>(&self, start: &G) -> Result<Vec<G::Move>, PositionError> {
        let mut game = start.clone();
        play_moves(&mut game, &self.moves.join(" "))
            .map_err(|reason| PositionError::illegal(format!("the moves: {reason}")))
    }
}

/// Writes a save file: the start position's text, `fields` (name and value,
/// in order), then the moves.
pub fn write_save_file(start: &str, fields: &[(&str, String)], moves: &[String]) -> String {
    let mut text = String::from(
        "# plateau save file: the position where the draw rules' memory starts,\n\
         # then the moves played since\n",
    );
    text += &format!("start: {start}\n");
    for (name, value) in fields {
        text += &format!("{name}: {value}\n");
    }
    for line in moves.chunks(MOVES_PER_LINE) {
        text += &format!("moves: {}\n", line.join(" "));
    }
    text
}

/// Reads a save file whose fields besides `start` and `moves` may be `known`;
/// `None` when `text` is a bare position text instead.
pub fn read_save_file<'a>(
    text: &'a str,
    known: &[&str],
) -> Result<Option<SaveFile<'a>>, PositionError> {
    let fail = |reason: String| Err(PositionError::new(reason));
    if text.len() > MAX_SAVE_FILE_LEN {
        return fail(format!("save file too long ({} bytes)", text.len()));
    }
    let lines = || {
        text.lines()
            .enumerate()
            .map(|(i, line)| (i + 1, line.trim()))
            .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
    };
    if !lines().any(|(_, line)| line.contains(':')) {
        return Ok(None);
    }
    let mut start = None;
    let mut fields: Vec<(&str, &str)> = Vec::new();
    let mut moves = Vec::new();
    for (number, line) in lines() {
        let Some((name, value)) = line.split_once(':') else {
            return fail(format!(
                "line {number}: expected \"name: value\" (start, moves{}), found {:?}",
                known.iter().map(|k| format!(", {k}")).collect::<String>(),
                line.chars().take(40).collect::<String>()
            ));
        };
        let (name, value) = (name.trim(), value.trim());
        match name {
            "start" if start.is_some() => {
                return fail(format!("line {number}: the start position is given twice"));
            }
            "start" => start = Some(value),
            "moves" => moves.extend(value.split_whitespace()),
            _ if known.contains(&name) => {
                if fields.iter().any(|(key, _)| *key == name) {
                    return fail(format!("line {number}: {name} is given twice"));
                }
                fields.push((name, value));
            }
            _ => {
                return fail(format!(
                    "line {number}: unknown field {:?} (start, moves{})",
                    name.chars().take(20).collect::<String>(),
                    known.iter().map(|k| format!(", {k}")).collect::<String>()
                ));
            }
        }
    }
    let Some(start) = start else {
        return fail("the save file has no start: line (the position the moves start from)".into());
    };
    Ok(Some(SaveFile {
        start,
        fields,
        moves,
    }))
}

/// Reads a counter field: ASCII digits only (no sign), at most `max`.
pub fn read_count(file: &SaveFile<'_>, name: &str, max: u64) -> Result<Option<u64>, PositionError> {
    let Some(value) = file.field(name) else {
        return Ok(None);
    };
    let number =
        (!value.is_empty() && value.len() <= 20 && value.bytes().all(|b| b.is_ascii_digit()))
            .then(|| value.parse::<u64>().ok())
            .flatten()
            .filter(|&n| n <= max);
    match number {
        Some(n) => Ok(Some(n)),
        None => Err(PositionError::new(format!(
            "{name} is a number from 0 to {max}, not {:?}",
            value.chars().take(20).collect::<String>()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_save_file_reads_back_what_was_written() {
        let moves: Vec<String> = (0..20).map(|i| format!("m{i}")).collect();
        let text = write_save_file("S T", &[("ply", "7".into())], &moves);
        let file = read_save_file(&text, &["ply"]).unwrap().unwrap();
        assert_eq!(file.start, "S T");
        assert_eq!(file.field("ply"), Some("7"));
        assert_eq!(
            file.moves,
            moves.iter().map(String::as_str).collect::<Vec<_>>()
        );
        assert_eq!(read_count(&file, "ply", 10).unwrap(), Some(7));
        assert!(read_count(&file, "ply", 6).is_err());
        assert_eq!(read_count(&file, "other", 6).unwrap(), None);
    }

    #[test]
    fn bare_positions_and_bad_files_are_told_apart() {
        assert_eq!(read_save_file("x5o/7 x 0 1\n", &[]).unwrap(), None);
        let cases = [
            ("ply: 3\n", "no start: line"),
            ("start: a\nstart: b\n", "given twice"),
            ("start: a\nply: 1\nply: 2\n", "ply is given twice"),
            ("start: a\nclock: 1\n", "unknown field \"clock\""),
            ("start: a\njunk\n", "line 2: expected \"name: value\""),
        ];
        for (text, expected) in cases {
            let err = read_save_file(text, &["ply"]).unwrap_err().to_string();
            assert!(err.contains(expected), "{text:?}: {err}");
        }
        let big = "#".repeat(MAX_SAVE_FILE_LEN + 1);
        assert!(
            read_save_file(&big, &[])
                .unwrap_err()
                .to_string()
                .contains("too long")
        );
        let file = read_save_file("start: a\nply: +5\n", &["ply"])
            .unwrap()
            .unwrap();
        let err = read_count(&file, "ply", 100).unwrap_err().to_string();
        assert!(
            err.contains("ply is a number from 0 to 100, not \"+5\""),
            "{err}"
        );
    }
}
