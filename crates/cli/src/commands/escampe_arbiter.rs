use anyhow::{Context, Result, bail};
use clap::Args;
use plateau_protocols::escampe::arbiter::{ArbiterConfig, run_arbiter};
use plateau_protocols::escampe::openings::read_openings;
use std::net::TcpListener;
use std::path::PathBuf;
use std::time::Duration;

/// Run an Escampe tournament arbiter, byte-compatible with the course's.
///
/// Clients connect and send a name; once --players have registered, every pair
/// plays --rounds rounds of two games, colours swapped (with two players,
/// --games N plays N games instead; the first to connect is Blanc in odd
/// games). Every placement and move is checked with plateau's rules, each
/// player's thinking time is charged, and an illegal move, a timeout or a
/// disconnection during a game loses it.
///
/// Clients may leave between games (the course's clients exit after each one):
/// before a game the arbiter checks both seats and waits --seat-timeout seconds
/// for an empty one to be taken again, by the same name or, once every place
/// is registered, by a newcomer. A game that never started is never scored.
/// The end prints standings (points, Sonneborn-Berger, Elo ± 95%) and the
/// crosstable.
#[derive(Args)]
pub struct EscampeArbiterArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    bind: String,
    /// Port to listen on.
    #[arg(long)]
    port: u16,
    /// Players in the tournament: a round robin among the first K names.
    #[arg(long, default_value_t = 2)]
    players: usize,
    /// Rounds: every pair plays two games per round, colours swapped.
    #[arg(long, conflicts_with = "games")]
    rounds: Option<u32>,
    /// With two players: games to play, colours swapping every game
    /// (default 1).
    #[arg(long)]
    games: Option<u32>,
    /// Thinking seconds per player and game.
    #[arg(long, default_value_t = 300.0)]
    clock: f64,
    /// Set placements to impose, one opening per line: Noir's placement and
    /// Blanc's, either `-` when free. Each opening is played with both colours.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Seconds to wait for a player whose seat is empty before a game; the
    /// game is then listed as not played.
    #[arg(long, default_value_t = 60.0)]
    seat_timeout: f64,
    /// Write a record of each game (moves, times, result, reason) into this directory.
    #[arg(long)]
    record: Option<PathBuf>,
    /// Plies after which a game is drawn (`FIN! Egalité`).
    #[arg(long, default_value_t = 1000)]
    max_plies: usize,
}

pub fn run(args: EscampeArbiterArgs) -> Result<()> {
    // A day is more than any tournament game needs, and keeps durations sane.
    const MAX_SECONDS: f64 = 86_400.0;
    if !(args.clock > 0.0 && args.clock <= MAX_SECONDS) {
        bail!("--clock must be a number of seconds above 0 and at most {MAX_SECONDS}");
    }
    if !(args.seat_timeout >= 0.0 && args.seat_timeout <= MAX_SECONDS) {
        bail!("--seat-timeout must be a number of seconds from 0 to {MAX_SECONDS}");
    }
    if args.players < 2 {
        bail!("--players must be at least 2");
    }
    let games_per_pair = match (args.games, args.rounds) {
        (Some(_), _) if args.players > 2 => {
            bail!("--games is for two players; a round robin of more uses --rounds")
        }
        (Some(0), _) => bail!("--games must be at least 1"),
        (_, Some(0)) => bail!("--rounds must be at least 1"),
        (Some(games), _) => games,
        (None, Some(rounds)) => rounds.saturating_mul(2),
        (None, None) if args.players > 2 => 2,
        (None, None) => 1,
    };
    let openings = match &args.openings {
        Some(path) => read_openings(path)?,
        None => Vec::new(),
    };
    let used = (games_per_pair as usize).div_ceil(2);
    if !openings.is_empty() && used < openings.len() {
        eprintln!(
            "warning: {} games per pair use {used} of the {} openings (each is played twice, colours swapped)",
            games_per_pair,
            openings.len()
        );
    }
    if !openings.is_empty() && games_per_pair % 2 == 1 {
        eprintln!(
            "warning: with an odd number of games per pair, the last opening is played with one colour only"
        );
    }
    let listener = TcpListener::bind((args.bind.as_str(), args.port))
        .with_context(|| format!("cannot listen on {}:{}", args.bind, args.port))?;
    let pairs = args.players * (args.players - 1) / 2;
    let games = pairs as u64 * games_per_pair as u64;
    eprintln!(
        "escampe arbiter listening on {}: {} players, {games} game{} ({games_per_pair} per pair){}",
        listener.local_addr()?,
        args.players,
        if games == 1 { "" } else { "s" },
        if openings.is_empty() {
            String::new()
        } else {
            format!(", {} set openings", openings.len())
        }
    );
    let config = ArbiterConfig {
        players: args.players,
        games_per_pair,
        clock: Duration::from_secs_f64(args.clock),
        max_plies: args.max_plies.max(1),
        record: args.record,
        seat_timeout: Duration::from_secs_f64(args.seat_timeout),
        openings,
        ..ArbiterConfig::default()
    };
    let tournament = run_arbiter(&listener, &config, &mut |line| eprintln!("{line}"))?;
    print!("{}", tournament.summary());
    Ok(())
}
