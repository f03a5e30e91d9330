//! A room's game record in its game's own file format, as the programs of
//! each game's world read it: PDN for draughts (what Scan, Moby Dam and
//! pydraughts read), PGN for Ataxx and the virus game (as cuteataxx and
//! libataxx write it), the course's board file for Escampe, and Abalone's
//! numbered notation. Served by `GET /api/rooms/{code}/record`.

use crate::room::{RoomData, Status};
use plateau_core::{Game, Side, Verdict};
use plateau_draughts::Draughts;
use plateau_draughts::pdn::{PdnGame, PdnResult, write_game};

/// A record and how to name its file.
pub struct Record {
    pub text: String,
    /// The file name's extension: `pdn`, `pgn` or `txt`.
    pub extension: &'static str,
}

/// Where and what a record says a game was.
struct Tags {
    event: String,
    site: String,
    date: String,
    white: String,
    black: String,
    /// PGN's form: `180+2` (seconds and increment), `-` without a clock.
    time_control: String,
    /// Why it ended, in the room's words.
    termination: Option<String>,
}

/// The record of the room's game so far; `site` is where it was played (the
/// server's address, as the request named it).
pub fn write(data: &RoomData, site: &str) -> Record {
    let player = |side: Side| match data.ai {
        Some((seat, level)) if seat == side => format!("plateau {}", level.name()),
        _ => "Anonymous".to_string(),
    };
    let tags = Tags {
        event: match data.ai {
            Some(_) => "plateau game against the computer".to_string(),
            None => "plateau casual game".to_string(),
        },
        site: site.to_string(),
        date: plateau_core::date::tag_date(data.created_at),
        white: player(Side::White),
        black: player(Side::Black),
        time_control: data.clock.map_or_else(
            || "-".to_string(),
            |c| {
                let (initial, increment) = (c.initial_ms / 1000, c.increment_ms / 1000);
                if increment > 0 {
                    format!("{initial}+{increment}")
                } else {
                    initial.to_string()
                }
            },
        ),
        termination: data.result.as_ref().map(|r| r.reason.clone()),
    };
    let finished = data.status == Status::Finished;
    let winner = data.result.as_ref().and_then(|r| r.winner);
    let result = finished.then_some(winner);
    match data.spec.info.name {
        "draughts" => draughts_pdn(data, &tags, result),
        "ataxx" | "virus" => ataxx_pgn(data, &tags, result),
        "escampe" => escampe_file(data, &tags, result),
        _ => numbered(data, &tags, result),
    }
}

/// PDN with the standard tags; `[FEN]` when the game did not start from the
/// start.
fn draughts_pdn(data: &RoomData, tags: &Tags, result: Option<Option<Side>>) -> Record {
    let replayed = Draughts::from_text(&data.game.start_text()).and_then(|start| {
        let mut position = start.clone();
        let mut moves = Vec::with_capacity(data.game.history().len());
        for text in data.game.history() {
            let mv = position
                .parse_move(text)
                .map_err(|e| plateau_core::PositionError::new(e.to_string()))?;
            position.play(mv);
            moves.push(mv);
        }
        Ok((start, moves))
    });
    // The room's own moves always replay; should they not, the plain record
    // still says what was played.
    let Ok((start, moves)) = replayed else {
        return numbered(data, tags, result);
    };
    let mut pdn_tags = vec![
        ("Event".to_string(), tags.event.clone()),
        ("Site".to_string(), tags.site.clone()),
        ("Date".to_string(), tags.date.clone()),
        ("Round".to_string(), "-".to_string()),
        ("White".to_string(), tags.white.clone()),
        ("Black".to_string(), tags.black.clone()),
        ("GameType".to_string(), "20".to_string()),
        ("TimeControl".to_string(), tags.time_control.clone()),
    ];
    if let Some(reason) = &tags.termination {
        pdn_tags.push(("Termination".to_string(), reason.clone()));
    }
    let game = PdnGame {
        tags: pdn_tags,
        start,
        moves,
        result: match result {
            None => PdnResult::Unknown,
            Some(Some(Side::White)) => PdnResult::WhiteWins,
            Some(Some(Side::Black)) => PdnResult::BlackWins,
            Some(None) => PdnResult::Draw,
        },
    };
    Record {
        text: write_game(&game),
        extension: "pdn",
    }
}

/// The standard Ataxx start, which PGN files leave without a `[FEN]` tag.
const ATAXX_START: &str = "x5o/7/7/7/7/7/o5x x 0 1";

/// PGN as the Ataxx tools write it: Black (`x`) moves first and `1-0` is
/// Black's win.
fn ataxx_pgn(data: &RoomData, tags: &Tags, result: Option<Option<Side>>) -> Record {
    let result_text = match result {
        None => "*",
        Some(Some(Side::Black)) => "1-0",
        Some(Some(Side::White)) => "0-1",
        Some(None) => "1/2-1/2",
    };
    let mut text = String::new();
    let mut tag = |key: &str, value: &str| {
        text.push_str(&format!("[{key} \"{}\"]\n", escape(value)));
    };
    tag("Event", &tags.event);
    tag("Site", &tags.site);
    tag("Date", &tags.date);
    tag("Round", "-");
    // PGN lists the first player's name first; in Ataxx that is Black.
    tag("Black", &tags.black);
    tag("White", &tags.white);
    tag("Result", result_text);
    let start = data.game.start_text();
    if start != ATAXX_START {
        tag("FEN", &start);
        tag("SetUp", "1");
    }
    if data.spec.info.name == "virus" {
        tag(
            "Variant",
            &format!("virus {} (clone moves only)", data.spec.variant),
        );
    }
    tag("TimeControl", &tags.time_control);
    if let Some(reason) = &tags.termination {
        tag("Termination", reason);
    }
    text.push('\n');
    let first_is_black = start.split_whitespace().nth(1) != Some("o");
    let mut tokens = Vec::new();
    for (i, mv) in data.game.history().iter().enumerate() {
        let by_black = (i % 2 == 0) == first_is_black;
        let number = (i + usize::from(!first_is_black)) / 2 + 1;
        if by_black {
            tokens.push(format!("{number}. {mv}"));
        } else if i == 0 {
            tokens.push(format!("{number}... {mv}"));
        } else {
            tokens.push(mv.clone());
        }
    }
    tokens.push(result_text.to_string());
    // One line, as python-ataxx and cuteataxx write it: python-ataxx reads
    // each further line as a variation of the first move.
    text.push_str(&tokens.join(" "));
    text.push('\n');
    Record {
        text,
        extension: "pgn",
    }
}

/// The course's board file of the position reached, with the game's tags
/// and its moves as `%` comment lines (which the board file's readers skip).
fn escampe_file(data: &RoomData, tags: &Tags, result: Option<Option<Side>>) -> Record {
    let mut text = header_lines("%", tags, Some(result));
    text.push_str(&data.game.to_file());
    text.push_str("% moves:\n");
    let mut tokens = numbered_moves(data.game.history());
    tokens.push(
        result
            .map_or("*", |winner| {
                plateau_core::Verdict { winner, reason: "" }.result_text()
            })
            .to_string(),
    );
    for line in wrap(&tokens).lines() {
        text.push_str(&format!("% {line}\n"));
    }
    Record {
        text,
        extension: "txt",
    }
}

/// The game's own numbered notation under `#` header lines (Abalone).
fn numbered(data: &RoomData, tags: &Tags, result: Option<Option<Side>>) -> Record {
    let verdict = result.map(|winner| Verdict {
        winner,
        reason: tags.termination.as_deref().unwrap_or(""),
    });
    // The numbered record says the result itself.
    let mut text = header_lines("#", tags, None);
    if let Some(plies) = data.move_limit {
        text.push_str(&format!(
            "# move limit: {} moves each, then more marbles pushed off wins\n",
            plies / 2
        ));
    }
    text.push_str(&plateau_core::numbered_record(
        &data.game.start_text(),
        data.game.history(),
        verdict,
    ));
    Record {
        text,
        extension: "txt",
    }
}

/// The tags as comment lines; `result` when the lines must say it.
fn header_lines(mark: &str, tags: &Tags, result: Option<Option<Option<Side>>>) -> String {
    let mut text = String::new();
    for (key, value) in [
        ("event", tags.event.as_str()),
        ("site", &tags.site),
        ("date", &tags.date),
        ("white", &tags.white),
        ("black", &tags.black),
        ("time control", &tags.time_control),
    ] {
        text.push_str(&format!("{mark} {key}: {value}\n"));
    }
    if let Some(result) = result {
        let outcome = match result {
            None => "not finished".to_string(),
            Some(None) => "drawn".to_string(),
            Some(Some(side)) => format!("{} won", side.name()),
        };
        text.push_str(&format!("{mark} result: {outcome}\n"));
    }
    if let Some(reason) = &tags.termination {
        text.push_str(&format!("{mark} termination: {reason}\n"));
    }
    text
}

fn numbered_moves(moves: &[String]) -> Vec<String> {
    moves
        .iter()
        .enumerate()
        .map(|(i, mv)| {
            if i % 2 == 0 {
                format!("{}. {mv}", i / 2 + 1)
            } else {
                mv.clone()
            }
        })
        .collect()
}

/// Joins tokens into lines of at most 79 characters.
fn wrap(tokens: &[String]) -> String {
    let mut text = String::new();
    let mut line_len = 0;
    for token in tokens {
        if line_len > 0 && line_len + 1 + token.len() > 79 {
            text.push('\n');
            line_len = 0;
        }
        if line_len > 0 {
            text.push(' ');
            line_len += 1;
        }
        text.push_str(token);
        line_len += token.len();
    }
    text.push('\n');
    text
}

/// A tag value with its quotes and backslashes escaped.
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}
