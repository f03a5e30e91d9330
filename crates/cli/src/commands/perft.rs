use crate::setup::PositionArgs;
use anyhow::{Result, bail};
use clap::Args;
use std::time::Instant;

/// Counts the leaves `--depth` plies below the position. The last line printed
/// is the count alone; timing goes to standard error.
#[derive(Args)]
pub struct PerftArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// How many plies deep to count.
    #[arg(long, short)]
    depth: u32,
    /// Also print the count below each legal move.
    #[arg(long)]
    divide: bool,
}

pub fn run(args: PerftArgs) -> Result<()> {
    if args.depth > 30 {
        bail!("--depth {} is too deep to ever finish", args.depth);
    }
    let (_, mut game) = args.position.build()?;
    let started = Instant::now();
    let total = if args.divide && args.depth > 0 {
        let rows = game.divide(args.depth);
        for (mv, count) in &rows {
            println!("{mv}: {count}");
        }
        rows.iter().map(|(_, count)| count).sum()
    } else {
        game.perft(args.depth)
    };
    let seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "perft {}: {total} leaves in {seconds:.3} s ({:.1} M leaves/s)",
        args.depth,
        total as f64 / seconds.max(1e-9) / 1e6
    );
    println!("{total}");
    Ok(())
}
