//! What a DamExchange session leaves behind: one record per game, the PDN of
//! every game, and the score.

use plateau_core::{Game, Side};
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

impl GameRecord {
    /// Our score in this game (1, ½, 0), `None` without a result.
    pub fn our_score(&self) -> Option<f64> {
        match (self.result, self.our_side) {
            (PdnResult::Unknown, _) => None,
            (PdnResult::Draw, _) => Some(0.5),
            (PdnResult::WhiteWins, Side::White) | (PdnResult::BlackWins, Side::Black) => Some(1.0),
            _ => Some(0.0),
        }
    }
}

/// The match as `plateau match` reports it, from our side: wins, draws and
/// losses, Elo ± 95% over the colour-swapped pairs (games 2k-1 and 2k of a
/// session, which start from the same opening), and the score as White and
/// as Black. `sessions`: each session's records in the order played.
pub fn match_report(our_name: &str, sessions: &[Vec<GameRecord>]) -> String {
    use plateau_arena::stats::{Pentanomial, Tally, result_lines};
    let (mut all, mut as_white, mut as_black) =
        (Tally::default(), Tally::default(), Tally::default());
    let mut pairs = Pentanomial::default();
    for records in sessions {
        for record in records {
            if let Some(score) = record.our_score() {
                all.add(score);
                match record.our_side {
                    Side::White => as_white.add(score),
                    Side::Black => as_black.add(score),
                }
            }
        }
        for pair in records.chunks(2) {
            if let [first, second] = pair
                && first.number % 2 == 1
                && second.number == first.number + 1
                && first.start.to_text() == second.start.to_text()
                && let (Some(a), Some(b)) = (first.our_score(), second.our_score())
            {
                pairs.add_pair(a, b);
            }
        }
    }
    let side_line = |name: &str, t: &Tally| {
        if t.games() == 0 {
            return format!("  as {name:<5}  no games\n");
        }
        format!(
            "  as {name:<5}  +{} ={} -{}   {:.1}/{} = {:.1}%\n",
            t.wins,
            t.draws,
            t.losses,
            t.points(),
            t.games(),
            100.0 * t.score()
        )
    };
    let mut text = format!("{our_name}, {} games with a result\n", all.games());
    if all.games() > 0 {
        text += &result_lines(&all, &pairs);
    }
    text += &side_line("White", &as_white);
    text += &side_line("Black", &as_black);
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
    fn the_match_report_scores_pairs_and_each_colour() {
        let numbered = |number, our_side, result| GameRecord {
            number,
            ..record(our_side, result)
        };
        // Session one: a pair won twice, then a pair won and drawn. Session
        // two: a pair lost and drawn, and a game without result (no pair).
        let sessions = vec![
            vec![
                numbered(1, Side::White, PdnResult::WhiteWins),
                numbered(2, Side::Black, PdnResult::BlackWins),
                numbered(3, Side::White, PdnResult::WhiteWins),
                numbered(4, Side::Black, PdnResult::Draw),
            ],
            vec![
                numbered(1, Side::White, PdnResult::BlackWins),
                numbered(2, Side::Black, PdnResult::Draw),
                numbered(3, Side::White, PdnResult::Unknown),
            ],
        ];
        let report = match_report("plateau", &sessions);
        assert!(
            report.starts_with("plateau, 6 games with a result"),
            "{report}"
        );
        assert!(report.contains("+3 =2 -1"), "{report}");
        assert!(report.contains("as White  +2 =0 -1"), "{report}");
        assert!(report.contains("as Black  +1 =2 -0"), "{report}");
        assert!(report.contains("over 3 pairs"), "{report}");
        assert!(
            report.contains("LL 0  LD 1  WL 0  DD 0  WD 1  WW 1"),
            "{report}"
        );
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
