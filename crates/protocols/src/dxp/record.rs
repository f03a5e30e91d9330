//! What a DamExchange session leaves behind: one record per game, the PDN of
//! every game, and the score.

use plateau_core::Side;
use plateau_draughts::pdn::{PdnGame, PdnResult, write_game};
use plateau_draughts::{Draughts, Move};
use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

/// One game as this side saw it.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// 1-based, in the order the games were played.
    pub number: u32,
    pub our_side: Side,
    /// The programs' names, White first.
    pub names: [String; 2],
    pub start: Draughts,
    pub moves: Vec<Move>,
    /// `Unknown` when the game stopped without a result (move limit, a peer
    /// gone or out of step).
    pub result: PdnResult,
    /// How it ended, in words: `no legal move`, `the peer resigned`...
    pub reason: String,
    /// Thinking time, White first (the peer's as we measured it).
    pub times: [Duration; 2],
    pub minutes: u16,
    pub move_limit: u16,
}

impl GameRecord {
    /// The game in PDN, with its players, time control and how it ended.
    pub fn pdn(&self, date: &str) -> PdnGame {
        let mut tags: Vec<(String, String)> = vec![
            ("Event".into(), "plateau dxp".into()),
            ("Date".into(), date.into()),
            ("Round".into(), self.number.to_string()),
            ("White".into(), self.names[0].clone()),
            ("Black".into(), self.names[1].clone()),
            ("GameType".into(), "20".into()),
        ];
        if self.minutes > 0 {
            tags.push((
                "TimeControl".into(),
                format!("{}", u32::from(self.minutes) * 60),
            ));
        }
        tags.push(("Termination".into(), self.reason.clone()));
        PdnGame {
            tags,
            start: self.start.clone(),
            moves: self.moves.clone(),
            result: self.result,
        }
    }

    /// `game 1: plateau (White) - Scan (Black): 2-0 (no legal move), 41 moves,
    /// thinking 12.5 s / 10.1 s` (White's time first).
    pub fn line(&self) -> String {
        format!(
            "game {}: {} (White) - {} (Black): {} ({}), {} moves, thinking {:.1} s / {:.1} s",
            self.number,
            self.names[0],
            self.names[1],
            self.result,
            self.reason,
            self.moves.len().div_ceil(2),
            self.times[0].as_secs_f64(),
            self.times[1].as_secs_f64()
        )
    }
}

/// Writes every game to `path` (replacing the file), one PDN game after another.
pub fn write_pdn(path: &Path, records: &[GameRecord]) -> std::io::Result<()> {
    let date = plateau_core::date::today();
    let text: Vec<String> = records.iter().map(|r| write_game(&r.pdn(&date))).collect();
    std::fs::write(path, text.join("\n"))
}

/// The score from our side: games, wins, draws, losses, games without a
/// result, and the points of the games that have one.
pub fn summary(our_name: &str, records: &[GameRecord]) -> String {
    let (mut won, mut drawn, mut lost, mut unfinished) = (0, 0, 0, 0);
    for record in records {
        match (record.result, record.our_side) {
            (PdnResult::Unknown, _) => unfinished += 1,
            (PdnResult::Draw, _) => drawn += 1,
            (PdnResult::WhiteWins, Side::White) | (PdnResult::BlackWins, Side::Black) => won += 1,
            _ => lost += 1,
        }
    }
    let scored = won + drawn + lost;
    let points = won as f64 + drawn as f64 / 2.0;
    let mut text = String::new();
    let _ = write!(
        text,
        "{our_name}: {} games: {won} won, {drawn} drawn, {lost} lost, {unfinished} without result; {points:.1}/{scored}",
        records.len()
    );
    if scored > 0 {
        let _ = write!(text, " ({:.1}%)", 100.0 * points / scored as f64);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(our_side: Side, result: PdnResult) -> GameRecord {
        GameRecord {
            number: 1,
            our_side,
            names: ["a".into(), "b".into()],
            start: Draughts::new(),
            moves: Vec::new(),
            result,
            reason: "test".into(),
            times: [Duration::ZERO; 2],
            minutes: 5,
            move_limit: 0,
        }
    }

    #[test]
    fn the_summary_counts_from_our_side() {
        let records = [
            record(Side::White, PdnResult::WhiteWins),
            record(Side::Black, PdnResult::WhiteWins),
            record(Side::Black, PdnResult::Draw),
            record(Side::White, PdnResult::Unknown),
        ];
        assert_eq!(
            summary("plateau", &records),
            "plateau: 4 games: 1 won, 1 drawn, 1 lost, 1 without result; 1.5/3 (50.0%)"
        );
    }
}
