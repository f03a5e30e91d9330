use crate::setup::PositionArgs;
use anyhow::{Result, bail};
use clap::Args;
use plateau_games::{SolveOptions, SolveReport};
use std::time::Duration;

/// Solve a position exactly: its value under perfect play from both sides and
/// a move that keeps it, with progress on standard error.
///
/// Only games small enough have a solver: the virus game on 4x4 to 8x8 boards
/// (`plateau solve virus --size 5`: a second; 6x6 takes hours, so give it a
/// `--time-limit`, after which the bounds proven so far are printed).
#[derive(Args)]
pub struct SolveArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// The board side, for games whose variants are board sizes: `--size 5`
    /// is `--variant 5x5`.
    #[arg(long, conflicts_with = "variant")]
    size: Option<u32>,
    /// Stop after this many seconds and print the bounds proven so far.
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
    /// Size of the solver's table in MB.
    #[arg(long, default_value_t = 256, value_name = "MB")]
    hash: usize,
}

/// Largest table accepted, in MB.
const MAX_HASH_MB: usize = 32_768;

pub fn run(args: SolveArgs) -> Result<()> {
    let mut position = args.position;
    if let Some(size) = args.size {
        if !(2..=30).contains(&size) {
            bail!("--size {size}: give the side of the board, like 5 for 5x5");
        }
        position.game.variant = Some(format!("{size}x{size}"));
    }
    let (spec, game) = position.build()?;
    if !spec.info.has_solver() {
        bail!("{} has no exact solver", spec.info.name);
    }
    if !(1..=MAX_HASH_MB).contains(&args.hash) {
        bail!("--hash {}: give 1 to {MAX_HASH_MB} MB", args.hash);
    }
    let time_limit = match args.time_limit {
        Some(s) if s > 0.0 && s.is_finite() && s < 1e9 => Some(Duration::from_secs_f64(s)),
        Some(s) => bail!("--time-limit {s}: give a positive number of seconds"),
        None => None,
    };
    let options = SolveOptions {
        table_mb: args.hash,
        time_limit,
    };
    eprintln!("{}: {}", spec.full_name(), game.to_text());
    let report = spec
        .solve(Some(&game.to_text()), &options, &mut |line| {
            eprintln!("{line}")
        })
        .map_err(anyhow::Error::msg)?;
    print_report(&report);
    Ok(())
}

fn print_report(report: &SolveReport) {
    let mover = report.side_to_move;
    let other = mover.opponent();
    let first = plateau_core::Side::Black;
    println!("position   {}", report.position);
    println!("to move    {}", mover.name());
    match report.value() {
        Some(value) => {
            let verdict = match report.for_side(first, value) {
                0 => "a draw".to_string(),
                v if v > 0 => format!("{} wins by {v}", first.name()),
                v => format!("{} wins by {}", first.opponent().name(), -v),
            };
            let both = if mover == first {
                String::new()
            } else {
                format!(", {:+} for {}", report.for_side(other, value), other.name())
            };
            println!(
                "value      {value:+} for {} (to move){both}: {verdict} ({} under perfect play)",
                mover.name(),
                report.measure
            );
        }
        None => println!(
            "value      unknown (limit reached): between {:+} and {:+} for {} (to move), \
             between {:+} and {:+} for {}",
            report.lower,
            report.upper,
            mover.name(),
            -report.upper,
            -report.lower,
            other.name()
        ),
    }
    match &report.best {
        Some(mv) if report.value().is_some() => println!("best move  {mv}"),
        Some(mv) => println!("best move  {mv} (proves the lower bound)"),
        None if report.value().is_some() => {
            println!("best move  none: the game is over")
        }
        None => println!("best move  unknown"),
    }
    if !report.pv.is_empty() {
        println!("line       {}", report.pv.join(" "));
    }
    let seconds = report.elapsed.as_secs_f64();
    println!(
        "nodes      {} in {seconds:.2} s ({:.1} M nodes/s)",
        report.nodes,
        report.nodes as f64 / seconds.max(1e-6) / 1e6
    );
}
