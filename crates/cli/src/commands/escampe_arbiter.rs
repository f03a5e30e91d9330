use anyhow::{Context, Result, bail};
use clap::Args;
use plateau_protocols::escampe::arbiter::{ArbiterConfig, run_arbiter, summary};
use std::net::TcpListener;
use std::path::PathBuf;
use std::time::Duration;

/// Run an Escampe tournament arbiter, byte-compatible with the course's: two
/// clients connect (the first is Blanc), every placement and move is checked
/// with plateau's rules, each player's thinking time is charged (loss on time),
/// and an illegal move, a timeout or a disconnection loses. With --games N the
/// same two clients play N games, colours swapping, then a summary is printed.
#[derive(Args)]
pub struct EscampeArbiterArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    bind: String,
    /// Port to listen on.
    #[arg(long)]
    port: u16,
    /// Games to play in a row (colours swap every game).
    #[arg(long, default_value_t = 1)]
    games: u32,
    /// Thinking seconds per player and game.
    #[arg(long, default_value_t = 300.0)]
    clock: f64,
    /// Write a record of each game (moves, times, result, reason) into this directory.
    #[arg(long)]
    record: Option<PathBuf>,
    /// Plies after which a game is drawn (`FIN! Egalité`).
    #[arg(long, default_value_t = 1000)]
    max_plies: usize,
}

pub fn run(args: EscampeArbiterArgs) -> Result<()> {
    if !(args.clock > 0.0 && args.clock.is_finite()) {
        bail!("--clock must be a positive number of seconds");
    }
    let listener = TcpListener::bind((args.bind.as_str(), args.port))
        .with_context(|| format!("cannot listen on {}:{}", args.bind, args.port))?;
    eprintln!(
        "escampe arbiter listening on {}; waiting for two clients (the first is Blanc)",
        listener.local_addr()?
    );
    let config = ArbiterConfig {
        games: args.games.max(1),
        clock: Duration::from_secs_f64(args.clock),
        max_plies: args.max_plies.max(1),
        record: args.record,
        ..ArbiterConfig::default()
    };
    let reports = run_arbiter(&listener, &config, &mut |line| eprintln!("{line}"))?;
    print!("{}", summary(&reports));
    Ok(())
}
