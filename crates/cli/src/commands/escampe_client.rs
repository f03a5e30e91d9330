use crate::setup::ThreadsArg;
use anyhow::{Result, bail};
use clap::Args;
use plateau_games::EngineChoice;
use plateau_protocols::escampe::client::{ClientConfig, run_client};
use plateau_protocols::escampe::wire::colour_name;
use std::time::Duration;

/// Enter the engine into an Escampe tournament: connect to the course's arbiter
/// (or `plateau escampe-arbiter`), send a name, and play the games it runs
/// until it closes the connection (or --games N games). Unknown lines are
/// logged and ignored; a connection lost during a game or a move our rules
/// refuse (a rules mismatch) ends with a non-zero exit code.
#[derive(Args)]
pub struct EscampeClientArgs {
    /// The arbiter's host.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// The arbiter's port.
    #[arg(long)]
    port: u16,
    /// The name sent to the arbiter.
    #[arg(long, default_value = "plateau")]
    name: String,
    /// The player: random, seed, or a level (beginner ... master), with options
    /// (`master,hash=256`).
    #[arg(long, default_value = "master")]
    engine: String,
    /// Thinking seconds per game, as the arbiter counts them (a safety reserve
    /// is kept).
    #[arg(long, default_value_t = 300.0)]
    clock: f64,
    /// Leave after this many games; by default the client plays until the
    /// arbiter closes the connection between games.
    #[arg(long)]
    games: Option<u32>,
    /// Play each placement and first move at random among the N best (within
    /// half a clear advantage of the best), so that games against a
    /// deterministic opponent differ; --seed makes the choice reproducible.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=20))]
    variety: u32,
    #[command(flatten)]
    threads: ThreadsArg,
    /// Seed for the engine's randomness and the --variety choices.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

pub fn run(args: EscampeClientArgs) -> Result<()> {
    if !(args.clock > 0.0 && args.clock <= 86_400.0) {
        bail!("--clock must be a number of seconds above 0 and at most 86400");
    }
    let config = ClientConfig {
        host: args.host,
        port: args.port,
        name: args.name,
        engine: EngineChoice::parse(&args.engine).map_err(anyhow::Error::msg)?,
        threads: args.threads.threads,
        clock: Duration::from_secs_f64(args.clock),
        games: args.games.map(|games| games.max(1)),
        variety: args.variety as usize,
        seed: args.seed,
        connect_timeout: Duration::from_secs(10),
    };
    let games = run_client(&config, &mut |line| eprintln!("{line}"))?;
    for (i, game) in games.iter().enumerate() {
        let result = match game.winner {
            Some(side) if side == game.colour => "won",
            Some(_) => "lost",
            None => "drew",
        };
        println!(
            "game {}: played {}, {result}: {}",
            i + 1,
            colour_name(game.colour),
            game.moves.join(" ")
        );
    }
    Ok(())
}
