use anyhow::Result;
use clap::Args;
use plateau_games::EngineChoice;
use plateau_protocols::hub::{HubConfig, run_hub};

/// Play draughts as a Hub engine (the protocol of Scan and the Hub GUI): read
/// commands on standard input, answer on standard output. Point a Hub GUI or
/// match tool at `plateau hub`; the GUI may also choose the level with its
/// `engine` parameter. See docs/draughts-protocols.md.
///
/// Try it by hand: type `hub`, `init`, `pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww`,
/// `level move-time=1`, `go think`, then `quit`.
#[derive(Args)]
pub struct HubArgs {
    /// The player: random, seed, or a level (beginner ... master), with options
    /// (`master,hash=256`).
    #[arg(long, default_value = "master")]
    engine: String,
    /// Seed for the engine's randomness.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

pub fn run(args: HubArgs) -> Result<()> {
    let config = HubConfig {
        engine: EngineChoice::parse(&args.engine).map_err(anyhow::Error::msg)?,
        seed: args.seed,
    };
    let stdin = std::io::stdin();
    run_hub(&mut stdin.lock(), Box::new(std::io::stdout()), &config)?;
    Ok(())
}
