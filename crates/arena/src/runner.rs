//! Matches: colour-swapped pairs of games from shared openings, played in
//! parallel, with statistics kept as games finish and an optional SPRT that
//! stops the match once it is decided.

use crate::external::ExternalOptions;
use crate::game::{GameRecord, TimeControl, play_game};
use crate::openings::{Judge, Opening, OpeningSource, draw_openings};
use crate::player::EngineSpec;
use crate::player::Player;
use crate::pool::run_jobs_with;
use crate::sprt::{Sprt, SprtStatus};
use crate::stats::{Pentanomial, Tally};
use plateau_core::{AnyGame, EndReason, Outcome, Side};
use plateau_games::GameSpec;
use std::sync::Mutex;

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub game: GameSpec,
    pub engines: [EngineSpec; 2],
    /// Rounded up to an even number: every opening is played with both colours.
    /// With an SPRT, the most games played.
    pub games: u32,
    pub time: TimeControl,
    pub openings: OpeningSource,
    /// Adjudicate a draw when a game reaches this many plies.
    pub max_plies: Option<u32>,
    /// Play under the game's move limit of this many plies from the start
    /// (Abalone: the side that has pushed off more marbles wins there).
    pub move_limit: Option<u32>,
    pub seed: u64,
    /// Games played at once.
    pub concurrency: usize,
    pub sprt: Option<Sprt>,
    pub external: ExternalOptions,
}

impl MatchConfig {
    /// The games the match plays: `games` rounded up to whole pairs.
    pub fn game_count(&self) -> u32 {
        self.games.max(1).div_ceil(2) * 2
    }
}

/// Where a match stands, from engine 0's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MatchStatus {
    pub tally: Tally,
    /// Over the pairs whose two games are both finished.
    pub penta: Pentanomial,
    /// The SPRT's log-likelihood ratio and verdict, when there is a test.
    pub sprt: Option<(f64, SprtStatus)>,
    /// Games finished and games planned.
    pub done: usize,
    /// Finished games without result (an engine refused the position): in
    /// `done`, in neither the tally nor the pairs.
    pub void: usize,
    pub total: usize,
}

/// All the games of a match and its statistics.
#[derive(Clone, Debug)]
pub struct MatchResult {
    pub records: Vec<GameRecord>,
    pub status: MatchStatus,
}

/// Plays the match, calling `on_game` as each game finishes (in finishing order).
pub fn run_match(
    config: &MatchConfig,
    on_game: impl FnMut(&GameRecord, &MatchStatus) + Send,
) -> Result<MatchResult, String> {
    run_match_resuming(config, &[], on_game)
}

/// [`run_match`] where the games in `played` (from a [`crate::journal`])
/// are already finished: they count as they are and only the others are
/// played. Each game's opening and seeds follow from its number, so the
/// result is the match that would have run without the stop.
pub fn run_match_resuming(
    config: &MatchConfig,
    played: &[GameRecord],
    mut on_game: impl FnMut(&GameRecord, &MatchStatus) + Send,
) -> Result<MatchResult, String> {
    let games = config.game_count() as usize;
    let pairs = games / 2;
    // Openings are drawn at once (cheap, and distinct), but judged by a search
    // only when their pair is about to be played: an SPRT may stop long before.
    let (openings, judged): (Vec<Opening>, bool) = match &config.openings {
        OpeningSource::Random { plies } => (
            draw_openings(&config.game, *plies, pairs, config.seed)?,
            *plies == 0,
        ),
        OpeningSource::List(list) if list.is_empty() => return Err("no openings given".into()),
        OpeningSource::List(list) => (
            (0..pairs).map(|i| list[i % list.len()].clone()).collect(),
            true,
        ),
    };
    let plies = match &config.openings {
        OpeningSource::Random { plies } => *plies,
        OpeningSource::List(_) => 0,
    };
    let slots: Vec<Mutex<Option<Box<dyn AnyGame>>>> =
        (0..pairs).map(|_| Mutex::new(None)).collect();
    let judges: Mutex<Vec<Judge>> = Mutex::new(Vec::new());
    // The start of a pair's games, judged the first time it is asked for.
    let start_of = |pair: usize| -> Result<Box<dyn AnyGame>, String> {
        let mut slot = slots[pair].lock().unwrap_or_else(|e| e.into_inner());
        if let Some(game) = slot.as_ref() {
            return Ok(game.clone_box());
        }
        let opening = if judged {
            openings[pair].clone()
        } else {
            let taken = judges.lock().unwrap_or_else(|e| e.into_inner()).pop();
            let mut judge = taken.unwrap_or_else(|| Judge::new(&config.game));
            let settled = judge.settle(
                &config.game,
                openings[pair].clone(),
                plies,
                config.seed,
                pair,
            );
            judges.lock().unwrap_or_else(|e| e.into_inner()).push(judge);
            settled?
        };
        let game = match config.move_limit {
            Some(plies) => opening.build_with_move_limit(&config.game, plies)?,
            None => opening.build(&config.game)?,
        };
        *slot = Some(game.clone_box());
        Ok(game)
    };
    let mut is_played = vec![false; games];
    for record in played {
        match is_played.get_mut(record.number) {
            None => {
                return Err(format!(
                    "game {} was played, but this match has {games} games",
                    record.number + 1
                ));
            }
            Some(seen) if *seen => {
                return Err(format!("game {} was played twice", record.number + 1));
            }
            Some(seen) => *seen = true,
        }
    }
    check_engines(config)?;
    let names = config.engines.clone().map(|e| e.name());
    let mut status = MatchStatus {
        total: games,
        ..MatchStatus::default()
    };
    // A pair's first finished game: its score, or `None` when it has no result.
    let mut first_of_pair: Vec<Option<Option<f64>>> = vec![None; pairs];
    // In the order they finished: an SPRT decides where it did.
    let mut decided = false;
    for record in played {
        decided |= account(config, &mut status, &mut first_of_pair, record);
    }
    let remaining: Vec<usize> = if decided {
        Vec::new()
    } else {
        (0..games).filter(|&number| !is_played[number]).collect()
    };
    let results = run_jobs_with(
        remaining.len(),
        config.concurrency,
        // Each worker keeps its two players from game to game: built-in
        // engines restart as if new (same seed, same game), without
        // allocating their tables again; engine programs start anew.
        || -> [Option<Box<dyn Player>>; 2] { [None, None] },
        |kept, index| {
            let number = remaining[index];
            let white = number % 2;
            let seed = config.seed.wrapping_add(number as u64 * 2);
            let start = start_of(number / 2)?;
            let start = start.as_ref();
            let record = |outcome, moves, note, time_used| GameRecord {
                number,
                white,
                start: start.start_text(),
                moves,
                opening_len: start.history().len(),
                outcome,
                note,
                time_used,
            };
            let mut ready = |index: usize| {
                let seed = seed + index as u64;
                if let Some(mut player) = kept[index].take()
                    && player.restart(seed)
                {
                    return Ok(player);
                }
                config.engines[index]
                    .build(&config.game, seed, &config.external)
                    .map_err(|err| (index, format!("{} could not start: {err}", names[index])))
            };
            let mut players = match ready(0).and_then(|a| ready(1).map(|b| [a, b])) {
                Ok(players) => players,
                Err((index, reason)) => {
                    // The engine that cannot start loses; the game is never played.
                    let side = if white == index {
                        Side::White
                    } else {
                        Side::Black
                    };
                    return Ok(record(
                        Outcome::win(!side, EndReason::EngineFailure),
                        start.history().to_vec(),
                        Some(reason),
                        Default::default(),
                    ));
                }
            };
            let (outcome, moves, note, time_used) = play_game(
                start,
                &mut players,
                [&names[0], &names[1]],
                white,
                &config.time,
                config.max_plies,
            );
            let [a, b] = players;
            *kept = [Some(a), Some(b)];
            Ok(record(outcome, moves, note, time_used))
        },
        |_, result: &Result<GameRecord, String>| {
            let Ok(record) = result else {
                return false;
            };
            let decided = account(config, &mut status, &mut first_of_pair, record);
            on_game(record, &status);
            !decided
        },
    );
    let mut records = played.to_vec();
    for result in results.into_iter().flatten() {
        records.push(result?);
    }
    records.sort_by_key(|record| record.number);
    status.total = records.len();
    Ok(MatchResult { records, status })
}

/// Counts a finished game in `status`; true once the SPRT has decided. A
/// decided test stays decided: the games still running when it stopped the
/// match count in the score, not in the verdict.
fn account(
    config: &MatchConfig,
    status: &mut MatchStatus,
    first_of_pair: &mut [Option<Option<f64>>],
    record: &GameRecord,
) -> bool {
    status.done += 1;
    let score = record.has_result().then(|| record.score_of(0));
    match score {
        Some(score) => status.tally.add(score),
        None => status.void += 1,
    }
    let pair = record.number / 2;
    match (first_of_pair[pair], score) {
        (Some(Some(other)), Some(score)) => status.penta.add_pair(other, score),
        // A pair with a void game is left out of the pairs.
        (Some(_), _) => {}
        (None, _) => first_of_pair[pair] = Some(score),
    }
    let decided = |status: &MatchStatus| matches!(status.sprt, Some((_, verdict)) if verdict != SprtStatus::Continue);
    if let Some(sprt) = &config.sprt
        && !decided(status)
    {
        let llr = sprt.llr(&status.tally, &status.penta);
        status.sprt = Some((llr, sprt.status(llr)));
    }
    decided(status)
}

/// Starts every engine once before the match so that a wrong command or a
/// broken weight file stops it at once with a clear message, instead of
/// losing every game.
fn check_engines(config: &MatchConfig) -> Result<(), String> {
    for engine in &config.engines {
        engine
            .build(&config.game, config.seed, &config.external)
            .map_err(|err| format!("{}: {err}", engine.name()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use plateau_games::Limits;

    fn config(game: &str, a: &str, b: &str, games: u32) -> MatchConfig {
        let spec = GameSpec::lookup(game, None).unwrap();
        MatchConfig {
            game: spec,
            engines: [
                EngineSpec::parse(a, &spec).unwrap(),
                EngineSpec::parse(b, &spec).unwrap(),
            ],
            games,
            time: TimeControl::PerMove(Limits::depth(1)),
            openings: OpeningSource::Random { plies: 2 },
            max_plies: Some(400),
            move_limit: None,
            seed: 3,
            concurrency: 2,
            sprt: None,
            external: ExternalOptions::default(),
        }
    }

    #[test]
    fn a_match_is_the_same_whatever_the_concurrency() {
        let mut one = config("draughts", "expert", "seed", 8);
        one.concurrency = 1;
        let two = config("draughts", "expert", "seed", 8);
        let a = run_match(&one, |_, _| {}).unwrap();
        let b = run_match(&two, |_, _| {}).unwrap();
        assert_eq!(a.status.tally, b.status.tally);
        assert_eq!(a.status.penta, b.status.penta);
        let moves = |r: &MatchResult| {
            r.records
                .iter()
                .map(|g| g.moves.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(moves(&a), moves(&b));
        assert_eq!(a.status.tally.games(), 8);
        assert_eq!(a.status.penta.pairs(), 4);
        // Both games of a pair start from the same opening with colours swapped.
        for pair in a.records.chunks(2) {
            assert_eq!(pair[0].moves[..2], pair[1].moves[..2]);
            assert_ne!(pair[0].white, pair[1].white);
        }
    }

    #[test]
    fn the_sprt_stops_a_one_sided_match() {
        let mut config = config("draughts", "expert", "random", 400);
        config.sprt = Some(Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap());
        let result = run_match(&config, |_, _| {}).unwrap();
        let (llr, verdict) = result.status.sprt.unwrap();
        assert_eq!(verdict, SprtStatus::AcceptH1, "llr {llr}");
        assert!(result.records.len() < 100, "{}", result.records.len());
    }

    #[test]
    fn the_ply_cap_adjudicates_a_draw() {
        let mut config = config("draughts", "random", "random", 2);
        config.max_plies = Some(10);
        let result = run_match(&config, |_, _| {}).unwrap();
        for record in &result.records {
            assert_eq!(record.moves.len(), 10);
            assert_eq!(record.outcome.reason, EndReason::PlyCap);
            assert!(record.note.is_some());
        }
        assert_eq!(result.status.tally.draws, 2);
    }

    #[test]
    fn a_move_limit_ends_games_by_the_rules() {
        let mut config = config("abalone/belgian-daisy", "expert", "random", 4);
        config.move_limit = Some(30);
        let result = run_match(&config, |_, _| {}).unwrap();
        for record in &result.records {
            assert!(record.moves.len() <= 30, "{}", record.moves.len());
            assert_ne!(record.outcome.reason, EndReason::PlyCap);
        }
        // Expert pushes random's marbles off long before the limit's draw.
        assert!(
            result
                .records
                .iter()
                .any(|r| r.outcome.reason == EndReason::MarblesAtMoveLimit),
            "{:?}",
            result.records.iter().map(|r| r.outcome).collect::<Vec<_>>()
        );
        let mut positions = config.clone();
        positions.openings = OpeningSource::List(
            crate::openings::parse_openings(&config.game, &config.game.new_game().to_text())
                .unwrap(),
        );
        let err = run_match(&positions, |_, _| {}).unwrap_err();
        assert!(err.contains("a move limit counts from the start"), "{err}");
        let mut draughts = self::config("draughts", "expert", "seed", 2);
        draughts.move_limit = Some(30);
        let err = run_match(&draughts, |_, _| {}).unwrap_err();
        assert!(err.contains("has no move limit"), "{err}");
    }

    #[test]
    fn listed_openings_are_used_in_turn() {
        let mut config = config("draughts", "expert", "seed", 6);
        let openings =
            crate::openings::parse_openings(&config.game, "32-28 19-23\n33-29 17-22\n").unwrap();
        config.openings = OpeningSource::List(openings);
        let result = run_match(&config, |_, _| {}).unwrap();
        let starts: Vec<&[String]> = result.records.iter().map(|r| &r.moves[..2]).collect();
        assert_eq!(starts[0], ["32-28", "19-23"]);
        assert_eq!(starts[2], ["33-29", "17-22"]);
        assert_eq!(starts[4], ["32-28", "19-23"], "the list cycles");
        assert!(result.records.iter().all(|r| r.opening_len == 2));
    }

    #[test]
    fn reused_noisy_engines_play_as_fresh_ones() {
        // Noisy levels: the games depend on each engine's seed, so a reused
        // engine must restart exactly as a new one would.
        let mut one = config("virus", "beginner", "medium", 12);
        one.concurrency = 1;
        let mut three = one.clone();
        three.concurrency = 3;
        let a = run_match(&one, |_, _| {}).unwrap();
        let b = run_match(&three, |_, _| {}).unwrap();
        let moves = |r: &MatchResult| {
            r.records
                .iter()
                .map(|g| g.moves.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(moves(&a), moves(&b));
        // And the noise makes the two games of a pair differ.
        assert!(
            a.records
                .chunks(2)
                .any(|p| p[0].moves[2..] != p[1].moves[2..])
        );
    }
}
