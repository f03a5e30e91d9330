//! Game records of a match: PDN for draughts (what draughts programs read),
//! each game's own record format otherwise, one game after another.

use crate::game::GameRecord;
use plateau_core::{Game, Verdict};
use plateau_draughts::Draughts;
use plateau_draughts::pdn::{PdnGame, PdnResult, write_game};
use plateau_games::GameSpec;

/// The records of `games` as one text; `names` are the two players.
pub fn write_records(
    spec: &GameSpec,
    games: &[GameRecord],
    names: [&str; 2],
    event: &str,
) -> Result<String, String> {
    let mut text = String::new();
    for record in games {
        let one = if spec.info.name == "draughts" {
            pdn_record(record, names, event)?
        } else {
            plain_record(spec, record, names, event)?
        };
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&one);
    }
    Ok(text)
}

/// Why the game ended, for a record: the rules' reason, or the note of an
/// adjudication or a failure.
fn termination(record: &GameRecord) -> String {
    match &record.note {
        Some(note) => format!("{} ({note})", record.outcome.reason),
        None => record.outcome.reason.to_string(),
    }
}

fn pdn_record(record: &GameRecord, names: [&str; 2], event: &str) -> Result<String, String> {
    let start = Draughts::from_text(&record.start).map_err(|e| e.to_string())?;
    let mut position = start.clone();
    let mut moves = Vec::with_capacity(record.moves.len());
    for text in &record.moves {
        let mv = position.parse_move(text).map_err(|e| e.to_string())?;
        position.play(mv);
        moves.push(mv);
    }
    let game = PdnGame {
        tags: vec![
            ("Event".into(), event.into()),
            ("Round".into(), (record.number + 1).to_string()),
            ("White".into(), names[record.white].into()),
            ("Black".into(), names[1 - record.white].into()),
            ("Termination".into(), termination(record)),
        ],
        start,
        moves,
        result: if record.has_result() {
            PdnResult::from_outcome(Some(record.outcome))
        } else {
            PdnResult::Unknown
        },
    };
    Ok(write_game(&game))
}

fn plain_record(
    spec: &GameSpec,
    record: &GameRecord,
    names: [&str; 2],
    event: &str,
) -> Result<String, String> {
    let mut game = spec.from_text(&record.start).map_err(|e| e.to_string())?;
    for mv in &record.moves {
        game.play(mv).map_err(|e| e.to_string())?;
    }
    let reason = termination(record);
    let verdict = record.has_result().then_some(Verdict {
        winner: record.outcome.winner,
        reason: &reason,
    });
    let void = if verdict.is_none() {
        format!("# no result: {reason}\n")
    } else {
        String::new()
    };
    Ok(format!(
        "# event: {event}, game {}\n# white: {}\n# black: {}\n{void}{}",
        record.number + 1,
        names[record.white],
        names[1 - record.white],
        game.record(verdict)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use plateau_core::{EndReason, Outcome};
    use std::time::Duration;

    fn record(spec: &GameSpec, moves: &[&str], outcome: Outcome) -> GameRecord {
        GameRecord {
            number: 0,
            white: 1,
            start: spec.new_game().start_text(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            opening_len: 2,
            outcome,
            note: None,
            time_used: [Duration::ZERO; 2],
        }
    }

    #[test]
    fn draughts_games_are_written_in_pdn_and_read_back() {
        let spec = GameSpec::lookup("draughts", None).unwrap();
        let game = record(
            &spec,
            &["32-28", "19-23", "28x19", "14x23"],
            Outcome::draw(EndReason::PlyCap),
        );
        let text = write_records(&spec, &[game], ["alpha", "beta"], "test").unwrap();
        assert!(text.contains("[White \"beta\"]"), "{text}");
        assert!(text.contains("[Black \"alpha\"]"), "{text}");
        assert!(text.contains("1-1"), "{text}");
        let back = plateau_draughts::pdn::read_game(&text).unwrap();
        assert_eq!(back.moves.len(), 4);
        assert_eq!(back.result, PdnResult::Draw);
    }

    #[test]
    fn other_games_use_their_own_record() {
        let spec = GameSpec::lookup("ataxx", None).unwrap();
        let game = record(
            &spec,
            &["b6", "f6"],
            Outcome::win(plateau_core::Side::White, EndReason::EngineFailure),
        );
        let text = write_records(&spec, &[game], ["alpha", "beta"], "test").unwrap();
        assert!(text.contains("# white: beta"), "{text}");
        assert!(text.contains("b6"), "{text}");
    }
}
