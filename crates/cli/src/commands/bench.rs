use anyhow::{Result, bail};
use clap::Args;
use plateau_games::{EngineChoice, GAMES, GameSpec, Limits, Profile};
use std::time::{Duration, Instant};

/// Search a fixed set of positions and report nodes and speed. At the game's
/// fixed depth (the default) the total node count is the same on every run and
/// machine: it changes only when search behaviour changes, so it doubles as a
/// signature of the build. With --movetime, reports the depth reached instead.
#[derive(Args)]
pub struct BenchArgs {
    /// The game (all games when omitted).
    game: Option<String>,
    /// Search each position to this depth instead of the game's bench depth.
    #[arg(long, conflicts_with = "movetime")]
    depth: Option<u32>,
    /// Search each position for this many milliseconds and report the depth reached.
    #[arg(long)]
    movetime: Option<u64>,
    /// The engine profile to measure, with options (`expert,lmr=off` measures
    /// what late-move reductions bring).
    #[arg(long, default_value = "expert")]
    engine: String,
}

pub fn run(args: BenchArgs) -> Result<()> {
    let specs: Vec<GameSpec> = match &args.game {
        Some(name) => vec![GameSpec::lookup(name, None)?],
        None => GAMES
            .iter()
            .filter_map(|g| GameSpec::lookup(g.name, None).ok())
            .collect(),
    };
    let choice = EngineChoice::parse(&args.engine).map_err(anyhow::Error::msg)?;
    let profile = choice.profile;
    if profile == Profile::Random {
        bail!("the random player does not search");
    }
    let (mut all_nodes, mut all_time) = (0u64, Duration::ZERO);
    for spec in specs {
        let info = spec.info;
        let limits = match args.movetime {
            Some(ms) => Limits::movetime(Duration::from_millis(ms)),
            None => Limits::depth(args.depth.unwrap_or(info.bench_depth)),
        };
        let (mut nodes, mut time, mut depths) = (0u64, Duration::ZERO, Vec::new());
        for (i, text) in info.bench_positions.iter().enumerate() {
            let game = spec.from_text(text)?;
            let mut engine = spec.engine(profile, 0);
            engine.tweak(&choice.tweaks);
            let started = Instant::now();
            let thought = engine
                .think(game.as_ref(), &limits, &mut |_| {})
                .map_err(anyhow::Error::msg)?;
            let elapsed = started.elapsed();
            nodes += thought.nodes;
            time += elapsed;
            depths.push(thought.depth);
            eprintln!(
                "{} {:>2}: depth {:>2} nodes {:>11} {:>7.3} s  bestmove {}",
                spec.full_name(),
                i + 1,
                thought.depth,
                thought.nodes,
                elapsed.as_secs_f64(),
                thought.best
            );
        }
        depths.sort_unstable();
        let median = depths.get(depths.len() / 2).copied().unwrap_or(0);
        println!(
            "{}: {} positions, {} nodes, {:.3} s, {} nps, median depth {median}",
            spec.full_name(),
            info.bench_positions.len(),
            nodes,
            time.as_secs_f64(),
            nps(nodes, time)
        );
        all_nodes += nodes;
        all_time += time;
    }
    println!("{all_nodes} nodes {} nps", nps(all_nodes, all_time));
    Ok(())
}

fn nps(nodes: u64, time: Duration) -> u64 {
    (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64
}
