//! Makes draughts' combinations suite: positions where the side to move wins
//! material by force with a sacrifice, and only one move does it. Each comes
//! from a game of `master` against itself (four random plies, then
//! `--play-nodes` a move). A position is kept when:
//! - the side to move has no capture, and the move found gives material: the
//!   opponent must take next (the start of a shot);
//! - a search of `--nodes` scores it at least `--gain` men above the
//!   material on the board (man 100, king 300);
//! - the best other move, searched with that move excluded, scores at least
//!   a man less (so the move is the only one that wins);
//! - a fresh engine searching four times `--nodes` chooses the same move,
//!   and with it excluded scores the best other move a man less too, and not
//!   a forced win (a game already won, where many moves win, tests no shot);
//! - a search to `--hidden-depth` plies does not choose it (shots that a
//!   shallow search with its capture quiescence already sees test nothing).
//!
//! At most one position is taken from a game. Made with (it stops at
//! `--count`: the suite's 40 came from the first 287 games):
//!
//!     cargo run --release -p plateau-games --example draughts_combinations -- \
//!         --games 1500 --count 40 > crates/games/suites/draughts-combinations.txt
//!
//! `plateau bench draughts --suite FILE --movetime 1000` says which an engine
//! solves within a second (docs/engine.md).
//!
//! `--verify FILE [--nodes N] [--engine TEXT]` checks a suite instead: each
//! position is searched with its solving moves excluded, and a line is
//! reported AMBIGUOUS where the best other move scores within a man of them
//! or wins the game too (a transposition into the same shot, or a second
//! win): such a move belongs in `bm`, or the position out of the suite.
//! Exits with 1 when one is found.
//!
//!     cargo run --release -p plateau-games --example draughts_combinations -- \
//!         --verify crates/games/suites/draughts-combinations.txt --nodes 5000000

use plateau_core::{Game, MoveList, Side, play_random_plies};
use plateau_draughts::Draughts;
use plateau_games::{AnyEngine, GameSpec, Level, Limits, Profile, describe_score, parse_suite};
use plateau_search::score::is_proven;
use std::collections::HashSet;

struct Options {
    first: u64,
    games: u64,
    count: usize,
    nodes: u64,
    play_nodes: u64,
    gain: f64,
    hidden_depth: u32,
}

fn main() {
    let mut options = Options {
        first: 0,
        games: 400,
        count: 40,
        nodes: 200_000,
        play_nodes: 3_000,
        gain: 1.5,
        hidden_depth: 5,
    };
    let (mut verify, mut engine_text) = (None, "master".to_string());
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().unwrap_or_default();
        match flag.as_str() {
            "--verify" => verify = Some(value),
            "--engine" => engine_text = value,
            "--first" => options.first = value.parse().expect("--first N"),
            "--games" => options.games = value.parse().expect("--games N"),
            "--count" => options.count = value.parse().expect("--count N"),
            "--nodes" => options.nodes = value.parse().expect("--nodes N"),
            "--play-nodes" => options.play_nodes = value.parse().expect("--play-nodes N"),
            "--gain" => options.gain = value.parse().expect("--gain MEN"),
            "--hidden-depth" => options.hidden_depth = value.parse().expect("--hidden-depth PLIES"),
            other => {
                eprintln!(
                    "unknown option {other}: --first N --games N --count N --nodes N --play-nodes N --gain MEN \
                     --hidden-depth PLIES, or --verify FILE [--nodes N] [--engine TEXT]"
                );
                std::process::exit(2);
            }
        }
    }
    let spec = GameSpec::lookup("draughts", None).expect("draughts");
    if let Some(path) = verify {
        match verify_suite(&spec, &path, &engine_text, options.nodes) {
            Ok(0) => {}
            Ok(_) => std::process::exit(1),
            Err(err) => {
                eprintln!("{path}: {err}");
                std::process::exit(2);
            }
        }
        return;
    }
    println!("# International draughts combinations: the side to move wins material by");
    println!("# force, starting with a sacrifice, and only one move does it. From games");
    println!(
        "# of master against itself; kept when a search of {} nodes",
        options.nodes
    );
    println!(
        "# scores the move {:.1} men or more above the material, the best other move",
        options.gain
    );
    println!(
        "# a man less and no win, a search of {} nodes agrees on both, and a search to depth {} does",
        options.nodes * 4,
        options.hidden_depth
    );
    println!("# not choose it. Made with:");
    println!("#   cargo run --release -p plateau-games --example draughts_combinations -- \\");
    println!(
        "#       --first {} --games {} --count {} --nodes {} --play-nodes {} --gain {} --hidden-depth {}",
        options.first,
        options.games,
        options.count,
        options.nodes,
        options.play_nodes,
        options.gain,
        options.hidden_depth
    );
    let mut found = 0;
    let mut seen = HashSet::new();
    for number in options.first..options.games {
        if found >= options.count {
            break;
        }
        // Games that differ in their random plies can meet again later:
        // a position already taken is passed over.
        if let Some((position, comment, line)) = play(&spec, number, &options, &seen) {
            found += 1;
            seen.insert(position);
            println!("{comment}");
            println!("{line}");
        }
    }
    eprintln!("{found} positions");
}

/// Material of `side` minus the other's, man 100 and king 300.
fn material(game: &Draughts, side: Side) -> i32 {
    let of =
        |s: Side| 100 * game.men(s).count_ones() as i32 + 300 * game.kings(s).count_ones() as i32;
    of(side) - of(!side)
}

/// Plays one game; returns the position, comment and suite line of the
/// first shot found that is not in `seen`.
fn play(
    spec: &GameSpec,
    number: u64,
    options: &Options,
    seen: &HashSet<String>,
) -> Option<(String, String, String)> {
    let mut game = Draughts::new();
    play_random_plies(&mut game, 4, 0xd4a0_9800 + number);
    let mut engine = spec.engine(Profile::Level(Level::Master), number);
    let master = Profile::Level(Level::Master);
    let mut engines = [
        spec.engine(master, number),
        spec.engine(master, number + 1_000_003),
    ];
    for ply in 4..120 {
        if game.outcome().is_some() {
            return None;
        }
        let erased = spec.from_text(&game.to_text()).ok()?;
        let thought = engine
            .think(
                erased.as_ref(),
                &Limits::nodes(options.play_nodes),
                &mut |_| {},
            )
            .ok()?;
        if ply >= 10
            && !seen.contains(&game.to_text())
            && let Some(found) = shot(spec, &mut engines, &game, number, ply, options)
        {
            return Some(found);
        }
        let mv = game.check_move(&thought.best).ok()?;
        game.play(mv);
    }
    None
}

/// Whether `mv` is quiet and leaves the opponent only captures.
fn sacrifice(game: &Draughts, mv: &str) -> bool {
    let Ok(mv) = game.check_move(mv) else {
        return false;
    };
    if game.is_noisy(mv) {
        return false;
    }
    let mut after = game.clone();
    after.play(mv);
    let mut replies = MoveList::new();
    after.legal_moves(&mut replies);
    !replies.is_empty() && replies.iter().all(|&reply| after.is_noisy(reply))
}

/// The shot of this position, if it has one (see the module's comment).
fn shot(
    spec: &GameSpec,
    engines: &mut [Box<dyn AnyEngine>; 2],
    game: &Draughts,
    number: u64,
    ply: u32,
    options: &Options,
) -> Option<(String, String, String)> {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    if moves.len() < 2 || moves.iter().any(|&mv| game.is_noisy(mv)) {
        return None;
    }
    let side = game.side_to_move();
    let text = game.to_text();
    let erased = spec.from_text(&text).ok()?;
    // Engines are reused (a fresh one costs its hash table), forgetting
    // between searches; the check is the other engine, of another seed.
    let mut search_within = |which: usize, limits: Limits, excluded: &[String]| {
        let engine = &mut engines[which];
        engine.new_game();
        engine
            .think_excluding(erased.as_ref(), &limits, excluded, &mut |_| {})
            .ok()
    };
    // A cheap look first: most positions have no shot.
    let quick = search_within(0, Limits::nodes(options.nodes / 20), &[])?;
    let threshold = material(game, side) + (options.gain * 100.0) as i32;
    if quick.score < threshold || !sacrifice(game, &quick.best) {
        return None;
    }
    let shallow = search_within(0, Limits::depth(options.hidden_depth), &[])?;
    if shallow.best == quick.best {
        return None;
    }
    let best = search_within(0, Limits::nodes(options.nodes), &[])?;
    if best.score < threshold || !sacrifice(game, &best.best) {
        return None;
    }
    let excluded = std::slice::from_ref(&best.best);
    let second = search_within(0, Limits::nodes(options.nodes), excluded)?;
    if second.score > best.score - 100 {
        return None;
    }
    let check = search_within(1, Limits::nodes(options.nodes * 4), &[])?;
    if check.best != best.best {
        return None;
    }
    let check_second = search_within(1, Limits::nodes(options.nodes * 4), excluded)?;
    if rivals(check.score, check_second.score) {
        return None;
    }
    let comment = format!(
        "# game {number}, ply {ply}, {} to move: {} scores {} (material {:+}), the best other move {} {}",
        side.name(),
        best.best,
        describe_score(best.score),
        material(game, side),
        second.best,
        describe_score(second.score)
    );
    let line = format!("{text} ; bm {}", best.best);
    Some((text, comment, line))
}

/// Whether the best other move, scoring `other` where the solution scores
/// `solution`, makes the position no unique shot: within a man of it, or a
/// forced win too.
fn rivals(solution: i32, other: i32) -> bool {
    other > solution - 100 || (other > 0 && is_proven(other))
}

/// `--verify`: the number of suite lines whose solving moves are not the
/// only ones (see the module's comment).
fn verify_suite(spec: &GameSpec, path: &str, text: &str, nodes: u64) -> Result<usize, String> {
    let suite = std::fs::read_to_string(path).map_err(|err| err.to_string())?;
    let entries = parse_suite(spec, &suite)?;
    let choice = spec.parse_engine(text)?;
    let mut engine = spec.build_engine(&choice, 1)?;
    let mut ambiguous = 0;
    for entry in &entries {
        let game = spec
            .from_text(&entry.position)
            .map_err(|err| err.to_string())?;
        let mut search = |excluded: &[String]| {
            engine.new_game();
            engine.think_excluding(game.as_ref(), &Limits::nodes(nodes), excluded, &mut |_| {})
        };
        let solution = search(&[])?;
        let other = search(&entry.best)?;
        let close = rivals(solution.score, other.score);
        if close {
            ambiguous += 1;
        }
        println!(
            "line {:>3}: {} bm {} scores {}, the best other move {} {}",
            entry.line,
            if close { "AMBIGUOUS" } else { "unique   " },
            entry.best.join(" "),
            describe_score(solution.score),
            other.best,
            describe_score(other.score)
        );
    }
    println!(
        "{path}: {ambiguous} of {} positions have another move within a man of the solution, \
         or winning too, at {nodes} nodes by {text}",
        entries.len(),
    );
    Ok(ambiguous)
}
