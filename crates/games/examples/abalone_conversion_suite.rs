//! Makes Abalone's conversion suite: won positions that `master` must
//! convert. Each comes from a game of `master` against itself (Belgian
//! daisy, four random plies, then 16 to 32 plies at `--nodes` a move), after
//! which the defending side loses its `--lead` loosest marbles; kept when
//! each of the rest touches two others and, with `--min-score`, a search of
//! ten times `--nodes` still scores the leader at least that much: a lead
//! against the compact defence that a shuffling engine fails to break, not
//! one the defender wins back at once.
//!
//!     cargo run --release -p plateau-games --example abalone_conversion_suite -- \
//!         --games 200 --lead 3 --nodes 20000 --min-score 250 \
//!         > crates/games/suites/abalone-conversion.txt
//!
//! Measure a version on it with `plateau match` (see docs/engine.md): each
//! position is played twice, each engine converting it once; a game drawn at
//! the ply cap is a lead not converted.

use plateau_abalone::reference::{Content, Reference};
use plateau_abalone::{Abalone, Cell, Direction, Layout};
use plateau_core::{Game, Side, play_random_plies};
use plateau_games::{GameSpec, Level, Limits, Profile};

fn main() {
    let (mut games, mut lead, mut nodes) = (40u64, 3u32, 20_000u64);
    let mut min_score: Option<i32> = None;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().unwrap_or_default();
        match flag.as_str() {
            "--games" => games = value.parse().expect("--games N"),
            "--lead" => lead = value.parse().expect("--lead MARBLES"),
            "--nodes" => nodes = value.parse().expect("--nodes N"),
            "--min-score" => min_score = Some(value.parse().expect("--min-score SCORE")),
            other => {
                eprintln!(
                    "unknown option {other}: --games N --lead MARBLES --nodes N --min-score SCORE"
                );
                std::process::exit(2);
            }
        }
    }
    let spec = GameSpec::lookup("abalone", Some("belgian-daisy")).expect("abalone");
    println!("# Abalone conversion suite (Belgian daisy): positions where one side has");
    println!("# pushed off at least {lead} more marbles and each of the other's marbles");
    println!("# touches two others; from games of master against itself ({nodes} nodes a");
    println!("# move, after four random plies), the lead made by taking marbles. Made with:");
    println!("#   cargo run --release -p plateau-games --example abalone_conversion_suite -- \\");
    match min_score {
        None => println!("#       --games {games} --lead {lead} --nodes {nodes}"),
        Some(min) => {
            println!("#       --games {games} --lead {lead} --nodes {nodes} --min-score {min}");
            println!(
                "# Kept where a search of {} nodes scores the leader {min} or more.",
                nodes * 10
            );
        }
    }
    let mut found = 0;
    for number in 0..games {
        let strong = if number % 2 == 0 {
            Side::Black
        } else {
            Side::White
        };
        if let Some((position, ply)) = play(&spec, number, strong, lead, nodes) {
            let ahead = position.lost(!strong) - position.lost(strong);
            let mut line = format!(
                "# {} ahead by {ahead}, ply {ply}, {} to move",
                strong.name(),
                position.side_to_move().name()
            );
            if let Some(min) = min_score {
                // A search that fails keeps nothing.
                let score = leader_score(&spec, &position, strong, nodes * 10, number);
                let Some(score) = score.filter(|&score| score >= min) else {
                    continue;
                };
                line += &format!(", scored {score:+} for {}", strong.name());
            }
            found += 1;
            println!("{line}");
            println!("{}", position.to_text());
        }
    }
    eprintln!("{found} positions from {games} games");
}

/// Plays one game of `master` against itself (four random plies, then
/// 16 to 32 more), then takes `lead` marbles from the side that is not
/// `strong`, its loosest ones; kept when the rest is compact (each touching
/// two others): a lead of `lead` against a compact defence. With its ply.
fn play(
    spec: &GameSpec,
    number: u64,
    strong: Side,
    lead: u32,
    nodes: u64,
) -> Option<(Abalone, u32)> {
    let mut game = Abalone::start(Layout::BelgianDaisy);
    play_random_plies(&mut game, 4, 0xab41_0e00 + number);
    let mut engine = spec.engine(Profile::Level(Level::Master), number);
    let plies = 4 + 16 + 8 * (number % 3) as u32;
    for _ in 4..plies {
        if game.outcome().is_some() {
            return None;
        }
        let erased = spec.from_text(&game.to_text()).ok()?;
        let thought = engine
            .think(erased.as_ref(), &Limits::nodes(nodes), &mut |_| {})
            .ok()?;
        let mv = game.check_move(&thought.best).ok()?;
        game.play(mv);
    }
    let weak = !strong;
    if game.outcome().is_some() || game.lost(weak) < game.lost(strong) {
        return None;
    }
    let mut mask = game.marbles(weak);
    for _ in 0..lead {
        // The loosest marble (fewest own neighbours): what a defender
        // would have lost at the edge.
        let taken = Cell::all()
            .filter(|c| mask & c.bit() != 0)
            .min_by_key(|c| neighbours(mask, *c))?;
        mask &= !taken.bit();
    }
    if !compact(mask) {
        return None;
    }
    let mut reference = Reference::from_text(&game.to_text())?;
    for cell in Cell::all() {
        if game.marbles(weak) & cell.bit() != 0 && mask & cell.bit() == 0 {
            reference.cells[(cell.row() * 9 + cell.diagonal()) as usize] = Content::Empty;
        }
    }
    reference.lost[usize::from(weak == Side::White)] += lead;
    let position = Abalone::from_text(&reference.text()).ok()?;
    (position.outcome().is_none() && position.lost(weak) >= position.lost(strong) + lead)
        .then_some((position, plies))
}

/// `master`'s score of `position` after `nodes`, from `leader`'s view.
fn leader_score(
    spec: &GameSpec,
    position: &Abalone,
    leader: Side,
    nodes: u64,
    seed: u64,
) -> Option<i32> {
    let mut engine = spec.engine(Profile::Level(Level::Master), seed);
    let erased = spec.from_text(&position.to_text()).ok()?;
    let thought = engine
        .think(erased.as_ref(), &Limits::nodes(nodes), &mut |_| {})
        .ok()?;
    Some(if position.side_to_move() == leader {
        thought.score
    } else {
        -thought.score
    })
}

/// Own marbles next to `cell`.
fn neighbours(mask: u128, cell: Cell) -> usize {
    (0..6)
        .filter_map(|dir| cell.step(Direction::from_index(dir)))
        .filter(|next| mask & next.bit() != 0)
        .count()
}

/// Whether every marble of `mask` touches at least two others: a compact
/// defence, with no loose marble to pick off.
fn compact(mask: u128) -> bool {
    mask != 0
        && Cell::all()
            .filter(|c| mask & c.bit() != 0)
            .all(|c| neighbours(mask, c) >= 2)
}
