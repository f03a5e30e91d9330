//! The test suites in `crates/games/suites/` that have solving moves: each
//! position is solved by `master` within a fixed node budget (a node budget,
//! not a time, so the test is the same on every machine; `plateau bench
//! draughts --suite FILE --movetime 1000` measures the time).

use plateau_games::{GameSpec, Level, Limits, Profile, SuiteEntry, parse_suite, run_entry};
use std::path::Path;

/// Nodes a position may take: about a tenth of a second on one core.
const NODES: u64 = 300_000;

/// The draughts combinations suite, read (and so checked) as a whole.
fn draughts_combinations() -> (GameSpec, Vec<SuiteEntry>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("suites/draughts-combinations.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let spec = GameSpec::lookup("draughts", None).unwrap();
    let entries = parse_suite(&spec, &text).unwrap();
    (spec, entries)
}

#[test]
fn master_solves_every_draughts_combination() {
    let (spec, entries) = draughts_combinations();
    assert!(entries.len() >= 30, "{} positions", entries.len());
    let mut engine = spec.engine(Profile::Level(Level::Master), 1);
    let mut unsolved = Vec::new();
    for entry in &entries {
        let result = run_entry(&spec, engine.as_mut(), entry, &Limits::nodes(NODES)).unwrap();
        if !result.solved {
            unsolved.push(format!(
                "line {}: chose {} (score {}), not {}",
                entry.line,
                result.chosen,
                result.score,
                entry.best.join(" ")
            ));
        }
    }
    assert!(unsolved.is_empty(), "{}", unsolved.join("\n"));
}

/// A search stopped by its node limit in the middle of an iteration reports
/// a score some completed search gave: asked for the second-best move of
/// these positions (a search with the solving move excluded, where the best
/// move changes late), it once reported an aborted aspiration re-search's
/// bound, `win in 1`, for a quiet move.
#[test]
fn stopped_searches_report_real_scores() {
    use plateau_search::score::WIN;
    let (spec, entries) = draughts_combinations();
    let mut engine = spec.engine(Profile::Level(Level::Master), 19);
    for entry in &entries {
        let game = spec.from_text(&entry.position).unwrap();
        engine.new_game();
        let thought = engine
            .think_excluding(
                game.as_ref(),
                &Limits::nodes(NODES),
                &entry.best,
                &mut |_| {},
            )
            .unwrap();
        assert!(
            thought.score.abs() < WIN,
            "line {}: {}",
            entry.line,
            thought.score
        );
        if thought.score >= WIN - 1 {
            let mut after = spec.from_text(&entry.position).unwrap();
            after.play(&thought.best).unwrap();
            assert!(
                after.outcome().is_some(),
                "line {}: {} claims a win in 1",
                entry.line,
                thought.best
            );
        }
    }
}

/// The Abalone conversion suites' positions, with their line numbers.
fn abalone_conversion_suite(name: &str) -> Vec<(usize, plateau_abalone::Abalone)> {
    use plateau_core::Game;
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("suites")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|(index, line)| {
            let position = plateau_abalone::Abalone::from_text(line)
                .unwrap_or_else(|error| panic!("{name} line {}: {error}", index + 1));
            (index + 1, position)
        })
        .collect()
}

/// Each conversion suite holds what docs/engine.md says it does: positions
/// still in play where one side leads by three marbles or more against a
/// compact defence, every defending marble touching two others. Playing them
/// out takes minutes a position (`plateau match --openings`, see
/// docs/engine.md), so CI checks what they are, not the conversion rate.
#[test]
fn the_abalone_conversion_suites_hold_leads_against_compact_defences() {
    use plateau_abalone::{Cell, Direction};
    use plateau_core::{Game, Side};
    for (name, at_least) in [
        ("abalone-conversion.txt", 12),
        ("abalone-conversion-51.txt", 51),
    ] {
        let positions = abalone_conversion_suite(name);
        assert!(positions.len() >= at_least, "{name}: {}", positions.len());
        let mut seen = std::collections::HashSet::new();
        for (line, position) in &positions {
            assert!(position.outcome().is_none(), "{name} line {line}: over");
            assert!(
                seen.insert(position.to_text()),
                "{name} line {line}: a repeat"
            );
            let (black, white) = (position.lost(Side::Black), position.lost(Side::White));
            let defender = if white >= black + 3 {
                Side::White
            } else {
                assert!(
                    black >= white + 3,
                    "{name} line {line}: lost {black} and {white}"
                );
                Side::Black
            };
            let mask = position.marbles(defender);
            for cell in Cell::all().filter(|cell| mask & cell.bit() != 0) {
                let touching = (0..6)
                    .filter_map(|dir| cell.step(Direction::from_index(dir)))
                    .filter(|next| mask & next.bit() != 0)
                    .count();
                assert!(
                    touching >= 2,
                    "{name} line {line}: {cell} touches {touching}"
                );
            }
        }
    }
}
