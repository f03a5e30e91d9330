//! Whole games in PDN (Portable Draughts Notation): tag pairs, then numbered
//! moves and a result.
//!
//! ```text
//! [White "Sijbrands"]
//! [Black "Baba Sy"]
//! [Result "1-1"]
//! [FEN "W:W31-50:B1-20"]          (only when the game does not start from the start)
//!
//! 1. 32-28 19-23 2. 28x19 14x23 ... 1-1
//! ```
//!
//! Reading skips comments (`{...}` and `;` to the end of the line), variations
//! (`(...)`, nested), numeric annotations (`$3`), move marks (`!`, `?`) and
//! `%` escape lines; every move is checked against the rules. Results are
//! `2-0`, `1-1`, `0-2` or `*` (the chess-style `1-0`, `0-1`, `1/2-1/2` are
//! accepted too).

use crate::Draughts;
use crate::moves::Move;
use plateau_core::{Game, Outcome, PositionError, Side};
use std::fmt;

/// Longest PDN text read at once.
const MAX_PDN_LEN: usize = 4 << 20;

/// plateau's tag for a game played without the draw rules (`[DrawRules "off"]`,
/// see [`Draughts::with_draw_rules`]); written only then, so that a save file
/// reloads the way it was played.
pub const DRAW_RULES_TAG: &str = "DrawRules";

/// Width PDN movetext is wrapped to.
const LINE_WIDTH: usize = 79;

/// How a game ended, as PDN writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PdnResult {
    /// `2-0`.
    WhiteWins,
    /// `1-1`.
    Draw,
    /// `0-2`.
    BlackWins,
    /// `*`: unfinished or unknown.
    Unknown,
}

impl PdnResult {
    pub fn as_str(self) -> &'static str {
        match self {
            PdnResult::WhiteWins => "2-0",
            PdnResult::Draw => "1-1",
            PdnResult::BlackWins => "0-2",
            PdnResult::Unknown => "*",
        }
    }

    /// Reads a result token (`2-0`, `1-1`, `0-2`, `*`, or chess style).
    pub fn parse(text: &str) -> Option<PdnResult> {
        match text {
            "2-0" | "1-0" => Some(PdnResult::WhiteWins),
            "1-1" | "1/2-1/2" => Some(PdnResult::Draw),
            "0-2" | "0-1" => Some(PdnResult::BlackWins),
            "*" => Some(PdnResult::Unknown),
            _ => None,
        }
    }

    /// The result of a finished game.
    pub fn from_outcome(outcome: Option<Outcome>) -> PdnResult {
        match outcome {
            None => PdnResult::Unknown,
            Some(o) => match o.winner {
                Some(Side::White) => PdnResult::WhiteWins,
                Some(Side::Black) => PdnResult::BlackWins,
                None => PdnResult::Draw,
            },
        }
    }
}

impl fmt::Display for PdnResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A game read from or written to PDN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnGame {
    /// Tag pairs in file order, except `FEN`, `DrawRules` and `Result`, which
    /// are `start` (its position and whether it applies the draw rules) and
    /// `result`.
    pub tags: Vec<(String, String)>,
    /// The position the moves start from (the `[FEN]` tag, or the start).
    pub start: Draughts,
    /// The moves, each legal in turn.
    pub moves: Vec<Move>,
    pub result: PdnResult,
}

impl PdnGame {
    /// A game from the start position with no tags.
    pub fn new(start: Draughts) -> PdnGame {
        PdnGame {
            tags: Vec::new(),
            start,
            moves: Vec::new(),
            result: PdnResult::Unknown,
        }
    }

    /// The value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }

    /// The position after every move, with the whole game as its history (so
    /// the draw rules know it).
    pub fn final_position(&self) -> Draughts {
        let mut position = self.start.clone();
        for &mv in &self.moves {
            position.play(mv);
        }
        position
    }

    /// The PDN text.
    pub fn write(&self) -> String {
        write_game(self)
    }
}

/// Why a PDN text was refused: the line and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnError {
    /// 1-based line of the fault (0 when it concerns the whole text).
    pub line: usize,
    pub reason: String,
}

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            f.write_str(&self.reason)
        } else {
            write!(f, "line {}: {}", self.line, self.reason)
        }
    }
}

impl std::error::Error for PdnError {}

impl From<PdnError> for PositionError {
    fn from(err: PdnError) -> PositionError {
        PositionError::new(err.to_string())
    }
}

/// Reads the first game of a PDN text.
pub fn read_game(text: &str) -> Result<PdnGame, PdnError> {
    let mut reader = Reader::new(text)?;
    match reader.next_game()? {
        Some(game) => Ok(game),
        None => Err(PdnError {
            line: 0,
            reason: "no game in this text".into(),
        }),
    }
}

/// Reads every game of a PDN text.
pub fn read_games(text: &str) -> Result<Vec<PdnGame>, PdnError> {
    let mut reader = Reader::new(text)?;
    let mut games = Vec::new();
    while let Some(game) = reader.next_game()? {
        games.push(game);
    }
    Ok(games)
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Writes a game: its tags, `[Result]`, `[FEN]` unless it starts from the start
/// position, then the numbered moves (wrapped) and the result.
pub fn write_game(game: &PdnGame) -> String {
    let mut out = String::new();
    for (key, value) in &game.tags {
        out.push_str(&format!("[{key} \"{}\"]\n", escape(value)));
    }
    out.push_str(&format!("[Result \"{}\"]\n", game.result));
    let start_text = game.start.to_text();
    if start_text != Draughts::new().to_text() {
        out.push_str(&format!("[FEN \"{start_text}\"]\n"));
    }
    if !game.start.draw_rules() {
        out.push_str(&format!("[{DRAW_RULES_TAG} \"off\"]\n"));
    }
    out.push('\n');

    let mut position = game.start.clone();
    let mut tokens: Vec<String> = Vec::with_capacity(game.moves.len() * 3 / 2 + 1);
    let mut number = 1;
    for (i, &mv) in game.moves.iter().enumerate() {
        let notation = position.format_move(mv);
        match position.side_to_move() {
            Side::White => tokens.push(format!("{number}. {notation}")),
            Side::Black if i == 0 => tokens.push(format!("{number}... {notation}")),
            Side::Black => tokens.push(notation),
        }
        if position.side_to_move() == Side::Black {
            number += 1;
        }
        position.play(mv);
    }
    tokens.push(game.result.to_string());
    let mut line_len = 0;
    for token in tokens {
        if line_len > 0 && line_len + 1 + token.len() > LINE_WIDTH {
            out.push('\n');
            line_len = 0;
        }
        if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(&token);
        line_len += token.len();
    }
    out.push('\n');
    out
}

/// The position file: a PDN game starting where the draw rules' memory starts.
pub(crate) fn position_file(position: &Draughts) -> String {
    let back = position.relevant_plies();
    let (start, moves) = position.past(back);
    let game = PdnGame {
        tags: vec![("GameType".into(), "20".into())],
        start,
        moves,
        result: PdnResult::from_outcome(position.outcome()),
    };
    write_game(&game)
}

/// Reads a position file: a PDN game (the position it starts from and its
/// moves), or a bare position text.
pub(crate) fn read_game_file(text: &str) -> Result<(Draughts, Vec<Move>), PositionError> {
    let trimmed = text.trim();
    if trimmed.starts_with("W:") || trimmed.starts_with("B:") {
        return Ok((Draughts::from_text(trimmed)?, Vec::new()));
    }
    let game = read_game(text)?;
    Ok((game.start, game.moves))
}

/// One token of movetext and the line it starts on.
struct Reader<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
}

impl<'a> Reader<'a> {
    fn new(text: &'a str) -> Result<Reader<'a>, PdnError> {
        if text.len() > MAX_PDN_LEN {
            return Err(PdnError {
                line: 0,
                reason: format!("PDN text too long ({} bytes)", text.len()),
            });
        }
        Ok(Reader {
            text,
            pos: 0,
            line: 1,
        })
    }

    fn fail<T>(&self, reason: impl Into<String>) -> Result<T, PdnError> {
        Err(PdnError {
            line: self.line,
            reason: reason.into(),
        })
    }

    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn at_line_start(&self) -> bool {
        self.pos == 0 || self.text[..self.pos].ends_with('\n')
    }

    /// Skips whitespace, comments, variations, annotations and escape lines.
    fn skip_trivia(&mut self) -> Result<(), PdnError> {
        loop {
            match self.peek() {
                Some(c) if c.is_whitespace() => {
                    self.bump();
                }
                Some('%') if self.at_line_start() => self.skip_line(),
                Some(';') => self.skip_line(),
                Some('{') => {
                    let line = self.line;
                    self.bump();
                    loop {
                        match self.bump() {
                            Some('}') => break,
                            Some(_) => {}
                            None => {
                                return Err(PdnError {
                                    line,
                                    reason: "a comment opened with { is never closed".into(),
                                });
                            }
                        }
                    }
                }
                Some('(') => {
                    let line = self.line;
                    let mut depth = 0usize;
                    loop {
                        match self.bump() {
                            Some('(') => depth += 1,
                            Some(')') => {
                                depth -= 1;
                                if depth == 0 {
                                    break;
                                }
                            }
                            Some('{') => {
                                while let Some(c) = self.bump() {
                                    if c == '}' {
                                        break;
                                    }
                                }
                            }
                            Some(_) => {}
                            None => {
                                return Err(PdnError {
                                    line,
                                    reason: "a variation opened with ( is never closed".into(),
                                });
                            }
                        }
                    }
                }
                Some('$') => {
                    self.bump();
                    while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                        self.bump();
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    fn skip_line(&mut self) {
        while let Some(c) = self.bump() {
            if c == '\n' {
                break;
            }
        }
    }

    /// A word: everything up to whitespace or a special character.
    fn word(&mut self) -> &'a str {
        let start = self.pos;
        while let Some(c) = self.peek() {
            if c.is_whitespace() || "{}()[];$".contains(c) {
                break;
            }
            self.bump();
        }
        &self.text[start..self.pos]
    }

    /// `[Name "value"]`.
    fn tag(&mut self) -> Result<(String, String), PdnError> {
        self.bump(); // '['
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        let name_start = self.pos;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            self.bump();
        }
        let name = self.text[name_start..self.pos].to_string();
        if name.is_empty() {
            return self.fail("a tag must start with a name, like [Event \"...\"]");
        }
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        if self.bump() != Some('"') {
            return self.fail(format!("the value of tag {name} must be in double quotes"));
        }
        let mut value = String::new();
        loop {
            match self.bump() {
                // A value is on one line: an escaped line break does not
                // continue it (the writer could not write it back).
                Some('\\') => match self.bump() {
                    Some('\n') => {
                        return self.fail(format!("the value of tag {name} is not closed by \""));
                    }
                    Some(c) => value.push(c),
                    None => break,
                },
                Some('"') => break,
                Some('\n') | None => {
                    return self.fail(format!("the value of tag {name} is not closed by \""));
                }
                Some(c) => value.push(c),
            }
        }
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        if self.bump() != Some(']') {
            return self.fail(format!("tag {name} is not closed by ]"));
        }
        Ok((name, value))
    }

    fn next_game(&mut self) -> Result<Option<PdnGame>, PdnError> {
        self.skip_trivia()?;
        if self.peek().is_none() {
            return Ok(None);
        }
        let mut tags: Vec<(String, String)> = Vec::new();
        let mut fen: Option<(String, usize)> = None;
        let mut tag_result: Option<PdnResult> = None;
        let mut draw_rules = true;
        while self.peek() == Some('[') {
            let line = self.line;
            let (name, value) = self.tag()?;
            match name.as_str() {
                "FEN" => fen = Some((value, line)),
                DRAW_RULES_TAG => {
                    draw_rules = match value.trim() {
                        "on" => true,
                        "off" => false,
                        other => {
                            return Err(PdnError {
                                line,
                                reason: format!(
                                    "the {DRAW_RULES_TAG} tag must be on or off, not {other:?}"
                                ),
                            });
                        }
                    };
                }
                "Result" => {
                    tag_result = Some(PdnResult::parse(value.trim()).ok_or_else(|| PdnError {
                        line,
                        reason: format!("the Result tag must be 2-0, 1-1, 0-2 or *, not {value:?}"),
                    })?);
                }
                "GameType" => {
                    let kind = value.split(',').next().unwrap_or("").trim();
                    if kind != "20" {
                        return Err(PdnError {
                            line,
                            reason: format!("GameType {kind} is not international draughts (20)"),
                        });
                    }
                    tags.push((name, value));
                }
                _ => tags.push((name, value)),
            }
            self.skip_trivia()?;
        }
        let start = match &fen {
            Some((text, line)) => Draughts::from_text(text).map_err(|e| PdnError {
                line: *line,
                reason: format!("the FEN tag: {e}"),
            })?,
            None => Draughts::new(),
        }
        .with_draw_rules(draw_rules);
        let mut position = start.clone();
        let mut moves = Vec::new();
        let mut moves_result = None;
        loop {
            self.skip_trivia()?;
            match self.peek() {
                None | Some('[') => break,
                Some(')') | Some('}') | Some(']') => {
                    let c = self.peek().unwrap_or(')');
                    return self.fail(format!("{c:?} closes nothing"));
                }
                _ => {}
            }
            let line = self.line;
            let word = self.word();
            if word.is_empty() {
                // A special character that `word` stops at and trivia did not take.
                self.bump();
                continue;
            }
            if let Some(result) = PdnResult::parse(word) {
                moves_result = Some(result);
                break;
            }
            // Move numbers: "12." or "12..." alone or glued to the move.
            let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            let rest = &word[digits..];
            let text = if digits > 0 && rest.starts_with('.') {
                rest.trim_start_matches('.')
            } else {
                word
            };
            let text = text.trim_end_matches(['!', '?']);
            if text.is_empty() {
                continue;
            }
            if let Some(outcome) = position.outcome() {
                return Err(PdnError {
                    line,
                    reason: format!("{text}: the game is already over ({outcome})"),
                });
            }
            let mv = position.check_move(text).map_err(|e| {
                let number = moves.len() / 2 + 1;
                let side = position.side_to_move();
                PdnError {
                    line,
                    reason: format!("move {number} ({side}): {e}"),
                }
            })?;
            position.play(mv);
            moves.push(mv);
        }
        let result = match (tag_result, moves_result) {
            (Some(a), Some(b)) if a != b && a != PdnResult::Unknown && b != PdnResult::Unknown => {
                return self.fail(format!(
                    "the Result tag says {a} but the moves end with {b}"
                ));
            }
            (_, Some(b)) if b != PdnResult::Unknown => b,
            (Some(a), _) => a,
            (None, b) => b.unwrap_or(PdnResult::Unknown),
        };
        Ok(Some(PdnGame {
            tags,
            start,
            moves,
            result,
        }))
    }
}
