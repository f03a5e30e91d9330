//! Makes a ballots file for `plateau dxp --openings`: every opening of
//! `--plies` plies from the start whose position `master` scores within
//! `--within` men of even at `--depth`, shuffled (a fixed seed): a match
//! that plays the first N of them gets a sample of every first move, not N
//! lines of the same one.
//!
//!     cargo run --release -p plateau-protocols --example ballots -- \
//!         --plies 3 --depth 10 --within 0.3 > docs/ballots/draughts-3-move.txt
//!
//! Tournament ballots are chosen by people from openings known to be
//! playable for both sides; this is the same idea with the engine as judge:
//! no opening that throws a man away or walks into a shot.

use plateau_core::AnyGame;
use plateau_games::{GameSpec, Level, Limits, Profile};

fn main() {
    let mut plies = 3;
    let mut depth = 10;
    let mut within = 0.3;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().unwrap_or_default();
        match flag.as_str() {
            "--plies" => plies = value.parse().expect("--plies N"),
            "--depth" => depth = value.parse().expect("--depth N"),
            "--within" => within = value.parse().expect("--within MEN"),
            other => {
                eprintln!("unknown option {other}: --plies N --depth N --within MEN");
                std::process::exit(2);
            }
        }
    }
    let spec = GameSpec::lookup("draughts", None).expect("draughts");
    let mut lines = Vec::new();
    let mut considered = 0;
    walk(
        spec.new_game(),
        &mut Vec::new(),
        plies,
        &mut |game, moves| {
            considered += 1;
            let mut engine = spec.engine(Profile::Level(Level::Master), 1);
            let Ok(thought) = engine.think(game, &Limits::depth(depth), &mut |_| {}) else {
                return;
            };
            // From White's side, in men.
            let white = if game.side_to_move() == plateau_core::Side::White {
                thought.score
            } else {
                -thought.score
            } as f64
                / 100.0;
            if white.abs() <= within {
                lines.push(format!("{}  # {white:+.2}", numbered(moves)));
            }
        },
    );
    // Fisher-Yates with a fixed seed: the same file every time.
    let mut state = 0x0ba1_1075;
    for i in (1..lines.len()).rev() {
        let (next, random) = plateau_core::splitmix64(state);
        state = next;
        lines.swap(i, (random % (i as u64 + 1)) as usize);
    }
    println!("# International draughts ballots: the openings of {plies} plies that");
    println!("# plateau master scores within {within} men of even at depth {depth}");
    println!(
        "# ({} of {considered}, in a shuffled order; White's view after each line). Made with:",
        lines.len()
    );
    println!("#   cargo run --release -p plateau-protocols --example ballots -- \\");
    println!("#       --plies {plies} --depth {depth} --within {within}");
    for line in lines {
        println!("{line}");
    }
}

/// Calls `visit` with every position `plies` plies on from `game`.
fn walk(
    game: Box<dyn AnyGame>,
    moves: &mut Vec<String>,
    plies: u32,
    visit: &mut dyn FnMut(&dyn AnyGame, &[String]),
) {
    if plies == 0 {
        visit(game.as_ref(), moves);
        return;
    }
    if game.outcome().is_some() {
        return;
    }
    for mv in game.legal_moves() {
        let mut next = game.clone();
        if next.play(&mv).is_err() {
            continue;
        }
        moves.push(mv);
        walk(next, moves, plies - 1, visit);
        moves.pop();
    }
}

/// `1. 32-28 17-21 2. 37-32`.
fn numbered(moves: &[String]) -> String {
    let mut text = String::new();
    for (i, mv) in moves.iter().enumerate() {
        if i % 2 == 0 {
            text += &format!("{}. ", i / 2 + 1);
        }
        text += mv;
        text.push(' ');
    }
    text.trim_end().to_string()
}
