use crate::setup::ThreadsArg;
use anyhow::Result;
use clap::Args;
use plateau_games::EngineChoice;
use plateau_protocols::hub::{HubConfig, run_hub};

/// Play draughts as a Hub engine (the protocol of Scan and the Hub GUI).
#[derive(Args)]
#[command(after_long_help = "\
plateau reads Hub commands on standard input and answers on standard output. \
Register `plateau hub` (with its options) in a Hub GUI or match tool where you \
would register `scan hub`; the GUI may also choose the level with the engine's \
`engine` parameter, the threads per search with `threads` and the table size \
in MB with `hash`. Moves are written 28x19x23 (start, end, captured squares).

Try it by hand: type `hub`, `init`, \
`pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww`, `level move-time=1`, \
`go think`, then `quit`. See docs/draughts-protocols.md.")]
pub struct HubArgs {
    /// The player: random, seed, or a level (beginner ... master), with options
    /// (`master,hash=256`).
    #[arg(long, default_value = "master")]
    engine: String,
    #[command(flatten)]
    threads: ThreadsArg,
    /// Seed for the engine's randomness.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

pub fn run(args: HubArgs) -> Result<()> {
    let config = HubConfig {
        engine: EngineChoice::parse(&args.engine).map_err(anyhow::Error::msg)?,
        seed: args.seed,
        threads: args.threads.threads,
    };
    let stdin = std::io::stdin();
    run_hub(&mut stdin.lock(), Box::new(std::io::stdout()), &config)?;
    Ok(())
}
