use crate::setup::{PositionArgs, ThreadsArg};
use anyhow::{Result, bail};
use clap::Args;
use plateau_games::Limits;
use std::time::Duration;

/// Search a position and print one info line per completed depth, then
/// `bestmove <move>` as the last line.
#[derive(Args)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Search this many plies deep.
    #[arg(long, conflicts_with_all = ["movetime", "nodes"])]
    depth: Option<u32>,
    /// Search for this many milliseconds.
    #[arg(long)]
    movetime: Option<u64>,
    /// Search this many nodes.
    #[arg(long)]
    nodes: Option<u64>,
    /// The engine: a level (beginner, medium, strong, expert, master), seed or
    /// random; options may follow: `master,hash=256`.
    #[arg(long, default_value = "master")]
    engine: String,
    #[command(flatten)]
    threads: ThreadsArg,
    /// Seed for the engine's randomness.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

pub fn run(args: AnalyzeArgs) -> Result<()> {
    // The position first: it may choose the variant the engine is for.
    let (spec, game) = args.position.build()?;
    let engine_text = spec
        .parse_engine(&args.engine)
        .map_err(anyhow::Error::msg)?
        .or_threads(args.threads.threads);
    if let Some(outcome) = game.outcome() {
        bail!("nothing to analyze: the game is over ({outcome})");
    }
    let mut engine = spec
        .build_engine(&engine_text, args.seed)
        .map_err(anyhow::Error::msg)?;
    let limits = if args.depth.is_some() || args.movetime.is_some() || args.nodes.is_some() {
        Limits {
            depth: args.depth,
            nodes: args.nodes,
            movetime: args.movetime.map(Duration::from_millis),
            clock: None,
        }
    } else {
        engine.default_limits()
    };
    // Analysis searches, even where an opening book has a move.
    let thought = engine
        .think_excluding(game.as_ref(), &limits, &[], &mut |info| {
            println!("{}", info.to_line())
        })
        .map_err(anyhow::Error::msg)?;
    println!("bestmove {}", thought.best);
    Ok(())
}
