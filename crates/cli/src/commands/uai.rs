use crate::setup::ThreadsArg;
use anyhow::Result;
use clap::Args;
use plateau_games::EngineChoice;
use plateau_protocols::uai::{UaiConfig, run_uai};

/// Speak the Universal Ataxx Interface on standard input and output, for Ataxx
/// GUIs and match runners (cutechess-style tools with a UAI mode).
///
/// Commands: uai, isready, uainewgame, setoption name <Hash|Threads|Variant|Level>
/// value <v>, position startpos|fen <fen> [moves ...], go [btime/wtime/binc/winc
/// ms, movestogo n | movetime ms | depth n | nodes n | infinite], stop, quit.
/// `setoption name Variant value virus5x5` switches to the virus game (any size
/// from virus4x4 to virus9x9; `virus` is 7x7); the default is ataxx. Lines that
/// cannot be obeyed get `info string error: ...` and change nothing.
#[derive(Args)]
pub struct UaiArgs {
    /// The engine: a level (beginner, medium, strong, expert, master), seed or
    /// random, with options (`master,hash=256`); the Level option changes it.
    #[arg(long, default_value = "master")]
    engine: String,
    #[command(flatten)]
    threads: ThreadsArg,
    /// Seed for the engine's randomness.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

pub fn run(args: UaiArgs) -> Result<()> {
    let config = UaiConfig {
        engine: EngineChoice::parse(&args.engine).map_err(anyhow::Error::msg)?,
        seed: args.seed,
        threads: args.threads.threads,
    };
    let stdin = std::io::stdin().lock();
    run_uai(&config, stdin, std::io::stdout())?;
    Ok(())
}
