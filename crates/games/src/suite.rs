//! Test suites of positions with a known best move (draughts combinations):
//! the file format, and a search that says whether an engine finds the move
//! and from when on it kept it.
//!
//! A suite file holds one position a line, `POSITION ; bm MOVE [MOVE...]`
//! (the game's position text, then the moves that solve it, in the game's
//! notation); blank lines and lines starting with `#` are comments.

use crate::{AnyEngine, GameSpec, InfoLine, Limits};
use std::time::Duration;

/// One position of a suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteEntry {
    /// The line of the file it was read from (1 for the first).
    pub line: usize,
    /// The position text.
    pub position: String,
    /// The moves that solve it, as the file writes them.
    pub best: Vec<String>,
}

/// Reads a suite file for `spec`: every position must read and appear once,
/// and every move must be legal there, so that a typo fails here, naming its
/// line, rather than as a position nobody can solve.
pub fn parse_suite(spec: &GameSpec, text: &str) -> Result<Vec<SuiteEntry>, String> {
    let mut entries: Vec<SuiteEntry> = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let content = raw.trim();
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        let Some((position, moves)) = content.split_once(';') else {
            return Err(format!(
                "line {line}: expected `POSITION ; bm MOVE`, found no `;`"
            ));
        };
        let mut words = moves.split_whitespace();
        if words.next() != Some("bm") {
            return Err(format!("line {line}: expected `bm` after the `;`"));
        }
        let best: Vec<String> = words.map(str::to_string).collect();
        if best.is_empty() {
            return Err(format!("line {line}: `bm` names no move"));
        }
        let position = position.trim().to_string();
        let game = spec
            .from_text(&position)
            .map_err(|err| format!("line {line}: bad position: {err}"))?;
        if game.outcome().is_some() {
            return Err(format!("line {line}: the game is over in this position"));
        }
        for mv in &best {
            let mut copy = game.clone_box();
            copy.play(mv)
                .map_err(|err| format!("line {line}: bad move {mv}: {err}"))?;
        }
        if let Some(first) = entries.iter().find(|entry| entry.position == position) {
            return Err(format!(
                "line {line}: the same position as line {}",
                first.line
            ));
        }
        entries.push(SuiteEntry {
            line,
            position,
            best,
        });
    }
    if entries.is_empty() {
        return Err("the suite holds no position".to_string());
    }
    Ok(entries)
}

/// What one search of a suite position gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteResult {
    /// The move the search chose.
    pub chosen: String,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    /// Whether it is one of the solving moves.
    pub solved: bool,
    /// When a solving move became the best and stayed so to the end: the
    /// time and nodes of the first iteration of that final run (`None` when
    /// not solved).
    pub found_at: Option<(Duration, u64)>,
}

/// Searches `entry` with `engine` (a fresh game, no opening book: the search
/// must find the move) within `limits`.
pub fn run_entry(
    spec: &GameSpec,
    engine: &mut dyn AnyEngine,
    entry: &SuiteEntry,
    limits: &Limits,
) -> Result<SuiteResult, String> {
    let game = spec
        .from_text(&entry.position)
        .map_err(|err| format!("line {}: bad position: {err}", entry.line))?;
    engine.new_game();
    let mut found_at: Option<(Duration, u64)> = None;
    let mut on_info = |info: &InfoLine| {
        match info.pv.first() {
            Some(first) if entry.best.contains(first) => {
                found_at.get_or_insert((info.elapsed, info.nodes));
            }
            _ => found_at = None,
        };
    };
    let thought = engine.think_excluding(game.as_ref(), limits, &[], &mut on_info)?;
    let solved = entry.best.contains(&thought.best);
    if !solved {
        found_at = None;
    } else if found_at.is_none() {
        // Solved without a report naming the move (a search too short for a
        // whole iteration): found when it ended.
        found_at = Some((thought.elapsed, thought.nodes));
    }
    Ok(SuiteResult {
        chosen: thought.best,
        score: thought.score,
        depth: thought.depth,
        nodes: thought.nodes,
        elapsed: thought.elapsed,
        solved,
        found_at,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draughts() -> GameSpec {
        GameSpec::lookup("draughts", None).unwrap()
    }

    #[test]
    fn a_suite_reads_with_comments_and_several_moves() {
        let spec = draughts();
        let start = spec.new_game().to_text();
        let text = format!("# a comment\n\n{start} ; bm 32-28 31-27\n");
        let entries = parse_suite(&spec, &text).unwrap();
        assert_eq!(
            entries,
            vec![SuiteEntry {
                line: 3,
                position: start,
                best: vec!["32-28".to_string(), "31-27".to_string()],
            }]
        );
    }

    #[test]
    fn bad_suites_are_refused_naming_the_line() {
        let spec = draughts();
        let start = spec.new_game().to_text();
        for (text, expected) in [
            (String::new(), "no position"),
            ("# only a comment".to_string(), "no position"),
            (start.clone(), "line 1: expected `POSITION ; bm MOVE`"),
            (format!("{start} ; best 32-28"), "line 1: expected `bm`"),
            (format!("#\n{start} ; bm"), "line 2: `bm` names no move"),
            (format!("{start} ; bm 32-23"), "line 1: bad move 32-23"),
            ("W:W99:B1 ; bm 1-6".to_string(), "line 1: bad position"),
            (
                format!("{start} ; bm 32-28\n\n{start} ; bm 33-28"),
                "line 3: the same position as line 1",
            ),
        ] {
            let err = parse_suite(&spec, &text).unwrap_err();
            assert!(err.contains(expected), "{text:?}: {err}");
        }
    }

    /// The only capture of a position is found, and the result says so; a
    /// suite that names another move is not solved.
    #[test]
    fn a_search_reports_whether_it_found_the_move() {
        let spec = draughts();
        // White 28 takes Black's 23 (landing on 19): the only legal move.
        let text = "W:W28:B23,1 ; bm 28x19";
        let entries = parse_suite(&spec, text).unwrap();
        let mut engine = spec.engine(crate::Profile::Level(crate::Level::Master), 1);
        let result = run_entry(&spec, engine.as_mut(), &entries[0], &Limits::depth(4)).unwrap();
        assert!(result.solved, "{result:?}");
        assert_eq!(result.chosen, "28x19");
        assert!(result.found_at.is_some());
    }
}
