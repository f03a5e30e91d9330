//! Where match games start: random legal plies from the start position, or
//! the lines of an opening file. Every opening is played twice, colours
//! swapped, so that neither engine profits from a lucky draw.

use plateau_core::{AnyGame, Rng, play_record, splitmix64};
use plateau_games::{AnyEngine, GameSpec, Level, Limits, Profile};
use plateau_search::score::is_decisive;
use std::collections::HashSet;
use std::path::Path;

/// A start for a pair of games: a position and moves played from it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Opening {
    /// Position text; `None` for the game's start position.
    pub position: Option<String>,
    pub moves: Vec<String>,
}

impl Opening {
    /// The game this opening reaches.
    pub fn build(&self, spec: &GameSpec) -> Result<Box<dyn AnyGame>, String> {
        let mut game = match &self.position {
            Some(text) => spec.from_text(text).map_err(|e| e.to_string())?,
            None => spec.new_game(),
        };
        play_record(game.as_mut(), &self.moves.join(" "))?;
        Ok(game)
    }

    /// The game this opening reaches, played under the game's move limit of
    /// `plies` plies from the start (see [`GameSpec::new_game_with_move_limit`]).
    pub fn build_with_move_limit(
        &self,
        spec: &GameSpec,
        plies: u32,
    ) -> Result<Box<dyn AnyGame>, String> {
        if self.position.is_some() {
            return Err(
                "a move limit counts from the start: give openings as moves from the start, \
                 not positions"
                    .into(),
            );
        }
        let mut game = spec
            .new_game_with_move_limit(plies)
            .ok_or_else(|| format!("{} has no move limit", spec.full_name()))?;
        play_record(game.as_mut(), &self.moves.join(" "))?;
        Ok(game)
    }
}

/// Where a match's openings come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningSource {
    /// This many random legal plies from the start, redrawn while the result
    /// is already decided.
    Random { plies: u32 },
    /// These openings in turn (cycling when there are more pairs than lines).
    List(Vec<Opening>),
}

/// Largest opening file read.
const MAX_FILE_BYTES: u64 = 8 << 20;

/// Reads an opening file: one opening per line, either a position text or
/// moves from the start position (`32-28 19-23`, numbered or not). Blank
/// lines are skipped, and `#` starts a comment (a whole line, or after an
/// opening: no game's position text or move uses the sign).
pub fn read_openings(spec: &GameSpec, path: &Path) -> Result<Vec<Opening>, String> {
    let name = path.display();
    let size = std::fs::metadata(path)
        .map_err(|e| format!("cannot read {name}: {e}"))?
        .len();
    if size > MAX_FILE_BYTES {
        return Err(format!(
            "{name} is {size} bytes: too large for an opening file"
        ));
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {name}: {e}"))?;
    parse_openings(spec, &text).map_err(|e| format!("{name}: {e}"))
}

/// [`read_openings`] on a text.
pub fn parse_openings(spec: &GameSpec, text: &str) -> Result<Vec<Opening>, String> {
    let mut openings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let opening = match spec.from_text(line) {
            Ok(game) => Opening {
                position: Some(game.to_text()),
                moves: Vec::new(),
            },
            Err(position_error) => {
                let mut game = spec.new_game();
                play_record(game.as_mut(), line).map_err(|move_error| {
                    format!(
                        "line {}: neither a position ({position_error}) nor moves from the start ({move_error})",
                        number + 1
                    )
                })?;
                Opening {
                    position: None,
                    moves: game.history().to_vec(),
                }
            }
        };
        let game = opening
            .build(spec)
            .map_err(|e| format!("line {}: {e}", number + 1))?;
        if let Some(outcome) = game.outcome() {
            return Err(format!(
                "line {}: the game is already over there ({outcome})",
                number + 1
            ));
        }
        openings.push(opening);
    }
    if openings.is_empty() {
        return Err("no opening in the file".into());
    }
    Ok(openings)
}

/// The search that judges whether an opening is still open.
const OPENING_CHECK: Limits = Limits {
    depth: Some(12),
    nodes: Some(300_000),
    movetime: None,
    clock: None,
};

/// How many times a random opening is redrawn to find one not seen yet.
const DISTINCT_ATTEMPTS: usize = 20;

/// `count` random openings of `plies` legal plies, all different while the
/// game has that many, each redrawn while a short search finds a forced
/// result (random Escampe placements often leave a unicorn to a forced
/// capture: a match should measure the engines, not who drew the lucky side).
pub fn random_openings(
    spec: &GameSpec,
    plies: u32,
    count: usize,
    seed: u64,
) -> Result<Vec<Opening>, String> {
    let mut judge = Judge::new(spec);
    draw_openings(spec, plies, count, seed)?
        .into_iter()
        .enumerate()
        .map(|(index, opening)| judge.settle(spec, opening, plies, seed, index))
        .collect()
}

/// `count` random openings, different from each other while the game has
/// that many, not yet judged (cheap: no search).
pub fn draw_openings(
    spec: &GameSpec,
    plies: u32,
    count: usize,
    seed: u64,
) -> Result<Vec<Opening>, String> {
    let mut rng = Rng::new(splitmix64(seed ^ 0x6f70_656e_696e_6773).1);
    let mut seen = HashSet::new();
    let mut openings = Vec::with_capacity(count);
    for _ in 0..count {
        let mut chosen = None;
        for _ in 0..DISTINCT_ATTEMPTS {
            let opening = draw_one(spec, plies, &mut rng)?;
            let fresh = !seen.contains(&opening);
            chosen = Some(opening);
            if fresh {
                break;
            }
        }
        let opening = chosen.ok_or("no opening drawn")?;
        seen.insert(opening.clone());
        openings.push(opening);
    }
    Ok(openings)
}

/// Random legal plies from the start, redrawn while the game ends within them.
pub fn draw_one(spec: &GameSpec, plies: u32, rng: &mut Rng) -> Result<Opening, String> {
    for _attempt in 0..200 {
        let mut game = spec.new_game();
        for _ in 0..plies {
            let moves = game.legal_moves();
            let Some(mv) = rng.choose(&moves) else { break };
            game.play(mv).map_err(|e| e.to_string())?;
        }
        if game.outcome().is_none() {
            return Ok(Opening {
                position: None,
                moves: game.history().to_vec(),
            });
        }
    }
    Err(format!(
        "could not find {plies} random plies after which the game goes on"
    ))
}

/// Judges openings with a short search.
pub struct Judge {
    engine: Box<dyn AnyEngine>,
}

impl Judge {
    pub fn new(spec: &GameSpec) -> Judge {
        Judge {
            engine: spec.engine(Profile::Level(Level::Expert), 0),
        }
    }

    /// Whether a search finds a forced result in the opening.
    fn is_decided(&mut self, game: &dyn AnyGame) -> Result<bool, String> {
        self.engine.new_game();
        let verdict = self.engine.think(game, &OPENING_CHECK, &mut |_| {})?;
        Ok(is_decisive(verdict.score))
    }

    /// `opening` if the game is still open there, else a redrawn one (from a
    /// generator of its own, `index` being the opening's number).
    pub fn settle(
        &mut self,
        spec: &GameSpec,
        opening: Opening,
        plies: u32,
        seed: u64,
        index: usize,
    ) -> Result<Opening, String> {
        if plies == 0 || !self.is_decided(opening.build(spec)?.as_ref())? {
            return Ok(opening);
        }
        let mut rng = Rng::new(splitmix64(seed ^ 0x7265_6472_6177 ^ (index as u64) << 24).1);
        let mut last = opening;
        for _attempt in 0..200 {
            let candidate = draw_one(spec, plies, &mut rng)?;
            if !self.is_decided(candidate.build(spec)?.as_ref())? {
                return Ok(candidate);
            }
            last = candidate;
        }
        // Every draw is decided: play the last one rather than nothing.
        Ok(last)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_openings_are_distinct_and_open() {
        let spec = GameSpec::lookup("draughts", None).unwrap();
        let openings = random_openings(&spec, 2, 30, 7).unwrap();
        let distinct: HashSet<_> = openings.iter().collect();
        assert_eq!(distinct.len(), 30);
        for opening in &openings {
            assert_eq!(opening.moves.len(), 2);
            assert!(opening.build(&spec).unwrap().outcome().is_none());
        }
        assert_eq!(openings, random_openings(&spec, 2, 30, 7).unwrap());
    }

    #[test]
    fn opening_files_hold_positions_and_move_lines() {
        let spec = GameSpec::lookup("draughts", None).unwrap();
        let text = "# two openings\n32-28 19-23\n\nB:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29\n1. 33-29 17-21  # -0.12\n";
        let openings = parse_openings(&spec, text).unwrap();
        assert_eq!(openings.len(), 3);
        assert_eq!(openings[0].moves, ["32-28", "19-23"]);
        assert!(openings[1].position.is_some());
        // A comment after an opening is not read as a move.
        assert_eq!(openings[2].moves, ["33-29", "17-21"]);
        let err = parse_openings(&spec, "32-28 19-23\n32-99\n").unwrap_err();
        assert!(err.starts_with("line 2:"), "{err}");
        assert!(parse_openings(&spec, "# nothing\n").is_err());
    }
}
