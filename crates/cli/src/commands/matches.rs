use crate::setup::GameArgs;
use anyhow::{Context, Result, bail};
use clap::Args;
use plateau_arena::{ClockControl, EngineSpec, MatchConfig, run_match};
use plateau_games::Limits;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// Play a match between two engines: every opening twice, colours swapped.
/// Prints each game as it ends, then wins/draws/losses, the score and the Elo
/// difference with its 95% interval (from the first engine's point of view).
#[derive(Args)]
pub struct MatchArgs {
    #[command(flatten)]
    game: GameArgs,
    /// The two engines, e.g. `--engine expert --engine seed`: random, seed, or a
    /// level, optionally with options (`master,time=seed`, `master,hash=128`).
    #[arg(long = "engine", required = true, num_args = 1)]
    engines: Vec<String>,
    /// Number of games (rounded up to an even number).
    #[arg(long, default_value_t = 20)]
    games: u32,
    /// Milliseconds per move for both engines.
    #[arg(long, conflicts_with_all = ["depth", "clock"])]
    movetime: Option<u64>,
    /// Fixed search depth for both engines.
    #[arg(long, conflicts_with = "clock")]
    depth: Option<u32>,
    /// A game clock: seconds per game for each engine.
    #[arg(long)]
    clock: Option<f64>,
    /// Seconds added to a clock after each move.
    #[arg(long, default_value_t = 0.0, requires = "clock")]
    increment: f64,
    /// Random legal plies before the engines take over (default: the game's own;
    /// Escampe: both placements).
    #[arg(long)]
    opening_plies: Option<u32>,
    /// Seed for the openings and the engines' randomness.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once (default: one per core).
    #[arg(long)]
    concurrency: Option<usize>,
    /// Write every game (moves and result, one game per line) to this file.
    #[arg(long)]
    record: Option<PathBuf>,
}

pub fn run(args: MatchArgs) -> Result<()> {
    let spec = args.game.spec()?;
    if args.engines.len() != 2 {
        bail!("give exactly two engines: --engine A --engine B");
    }
    let engines = [
        EngineSpec::parse(&args.engines[0]).map_err(anyhow::Error::msg)?,
        EngineSpec::parse(&args.engines[1]).map_err(anyhow::Error::msg)?,
    ];
    let limits = if args.movetime.is_some() || args.depth.is_some() {
        Some(Limits {
            depth: args.depth,
            movetime: args.movetime.map(Duration::from_millis),
            ..Limits::default()
        })
    } else {
        None
    };
    let clock = match args.clock {
        Some(seconds) if seconds > 0.0 && seconds.is_finite() && args.increment >= 0.0 => {
            Some(ClockControl {
                base: Duration::from_secs_f64(seconds),
                increment: Duration::from_secs_f64(args.increment),
            })
        }
        Some(_) => bail!("--clock must be a positive number of seconds"),
        None => None,
    };
    let concurrency = args
        .concurrency
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let config = MatchConfig {
        game: spec,
        engines: engines.clone(),
        games: args.games.max(1),
        limits,
        clock,
        opening_plies: args.opening_plies.unwrap_or(spec.info.opening_plies),
        seed: args.seed,
        concurrency,
    };
    let names = [engines[0].name(), engines[1].name()];
    let total = config.games.div_ceil(2) * 2;
    eprintln!(
        "{} vs {} in {}: {total} games, {} at a time",
        names[0],
        names[1],
        spec.full_name(),
        concurrency.min(total as usize)
    );
    let result = run_match(&config, |record, tally| {
        let (white, black) = (&names[record.white], &names[1 - record.white]);
        let note = record
            .note
            .as_deref()
            .map(|n| format!(" [{n}]"))
            .unwrap_or_default();
        eprintln!(
            "game {:>4}/{total}: {white} (white) vs {black}: {} ({}, {} plies){note} | {} {:.1}/{}",
            record.number + 1,
            record.outcome.result_text(),
            record.outcome.reason,
            record.moves.len(),
            names[0],
            tally.points(),
            tally.games()
        );
    })
    .map_err(anyhow::Error::msg)?;
    if let Some(path) = &args.record {
        let mut file = std::fs::File::create(path)
            .with_context(|| format!("cannot write {}", path.display()))?;
        for record in &result.records {
            writeln!(
                file,
                "{} | white {} | black {} | {} | {}",
                record.number + 1,
                names[record.white],
                names[1 - record.white],
                record.outcome,
                record.moves.join(" ")
            )?;
        }
    }
    let tally = result.tally;
    println!(
        "{} vs {}: +{} ={} -{} (W/D/L), score {:.1}/{} = {:.1}%, Elo {}, LOS {:.1}%, draws {:.1}%",
        names[0],
        names[1],
        tally.wins,
        tally.draws,
        tally.losses,
        tally.points(),
        tally.games(),
        100.0 * tally.score(),
        tally.elo_text(),
        100.0 * tally.los(),
        100.0 * tally.draw_ratio()
    );
    Ok(())
}
