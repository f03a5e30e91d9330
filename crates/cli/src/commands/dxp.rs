use crate::setup::ThreadsArg;
use anyhow::{Context, Result, bail};
use clap::Args;
use plateau_games::EngineChoice;
use plateau_protocols::dxp::{DEFAULT_PORT, DxpConfig, run_follower, run_initiator, summary};
use plateau_protocols::net::connect_with_retry;
use std::net::TcpListener;
use std::path::PathBuf;
use std::time::Duration;

/// Play draughts against another program over DamExchange (DXP, TCP).
#[derive(Args)]
#[command(after_long_help = "\
One side listens (the follower: it accepts the games proposed), the other \
connects (the initiator: it proposes the games, colours alternating, itself \
White in the first). Every move is checked with plateau's rules; each engine \
budgets its own clock. Events go to stderr; each game and the score go to stdout.

Two plateau engines on one machine (each with half of, say, 8 cores):
  plateau dxp --listen 27531 --engine expert --threads 4
  plateau dxp --connect 127.0.0.1:27531 --games 4 --minutes 2 --threads 4 --pdn games.pdn

See docs/draughts-protocols.md (and for Scan, its scan.ini dxp-* settings).")]
pub struct DxpArgs {
    /// Wait for the other program: a port (on 127.0.0.1) or ADDRESS:PORT
    /// (0.0.0.0:27531 to accept connections from the network). DXP's usual
    /// port is 27531.
    #[arg(long, conflicts_with = "connect", required_unless_present = "connect")]
    listen: Option<String>,
    /// Connect to the other program at HOST:PORT and propose the games.
    #[arg(long)]
    connect: Option<String>,
    /// When connecting: the games to play (default 2, one with each colour).
    /// When listening: the most games to accept (default: as many as proposed).
    #[arg(long)]
    games: Option<u32>,
    /// When connecting: each side's thinking time per game, in minutes
    /// (0: no clock, each engine plays at its level's own pace).
    #[arg(long, default_value_t = 5)]
    minutes: u16,
    /// When connecting: the moves each side plays before a game stops without
    /// result (0: no limit).
    #[arg(long, default_value_t = 0)]
    moves: u16,
    /// The player: random, seed, or a level (beginner ... master), with options
    /// (`master,hash=256`).
    #[arg(long, default_value = "master")]
    engine: String,
    /// Our name in the protocol (default: `plateau <engine>`).
    #[arg(long)]
    name: Option<String>,
    /// Write every game to this PDN file (rewritten after each game).
    #[arg(long)]
    pdn: Option<PathBuf>,
    #[command(flatten)]
    threads: ThreadsArg,
    /// Seed for the engine's randomness.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

pub fn run(args: DxpArgs) -> Result<()> {
    if args.minutes > 999 || args.moves > 999 {
        bail!("--minutes and --moves are at most 999 (three digits in DXP)");
    }
    let engine = EngineChoice::parse(&args.engine).map_err(anyhow::Error::msg)?;
    let mut config = DxpConfig::new(engine);
    if let Some(name) = args.name {
        config.name = name;
    }
    config.seed = args.seed;
    config.threads = args.threads.threads;
    config.minutes = args.minutes;
    config.moves = args.moves;
    if let Some(path) = &args.pdn {
        // Fail now rather than after the first game.
        std::fs::write(path, "").with_context(|| format!("cannot write {}", path.display()))?;
    }
    config.pdn = args.pdn;
    let mut log = |line: &str| eprintln!("{line}");
    let records = if let Some(address) = args.connect {
        config.games = Some(args.games.unwrap_or(2).max(1));
        let stream = connect_with_retry(&address, Duration::from_secs(10))
            .map_err(anyhow::Error::msg)
            .with_context(|| format!("cannot connect to {address}"))?;
        run_initiator(stream, &config, &mut log)?
    } else {
        config.games = args.games;
        let address = listen_address(args.listen.as_deref().unwrap_or_default())?;
        let listener =
            TcpListener::bind(&address).with_context(|| format!("cannot listen on {address}"))?;
        eprintln!(
            "dxp: listening on {}; waiting for the initiator",
            listener.local_addr()?
        );
        let (stream, _) = listener.accept().context("no connection")?;
        run_follower(stream, &config, &mut log)?
    };
    for record in &records {
        println!("{}", record.line());
    }
    println!("{}", summary(&config.name, &records));
    Ok(())
}

/// `27531` -> `127.0.0.1:27531`; `ADDRESS:PORT` as given.
fn listen_address(text: &str) -> Result<String> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(format!("127.0.0.1:{DEFAULT_PORT}"));
    }
    if let Ok(port) = text.parse::<u16>() {
        return Ok(format!("127.0.0.1:{port}"));
    }
    if text
        .rsplit_once(':')
        .is_some_and(|(_, port)| port.parse::<u16>().is_ok())
    {
        return Ok(text.to_string());
    }
    bail!("--listen {text:?}: give a port (27531) or ADDRESS:PORT (0.0.0.0:27531)")
}
