use crate::setup::ThreadsArg;
use anyhow::{Context, Result, bail};
use clap::Args;
use plateau_core::Game;
use plateau_games::EngineChoice;
use plateau_games::GameSpec;
use plateau_protocols::dxp::{
    DEFAULT_PORT, Draughts, DxpConfig, GameRecord, match_report, run_follower, run_initiator,
    summary, write_pdn,
};
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

A match from balloted openings, two sessions at once (two programs
listening, on ports 27531 and 27532), one thread each: each opening is played
twice, once with each colour, and the score is given with Elo ± 95% over the
pairs, and as White and as Black:
  plateau dxp --connect 127.0.0.1:27531,127.0.0.1:27532 --openings \
      docs/ballots/draughts-3-move.txt --games 100 --minutes 1 --threads 1

See docs/draughts-protocols.md (and for Scan, its scan.ini dxp-* settings).")]
pub struct DxpArgs {
    /// Wait for the other program: a port (on 127.0.0.1) or ADDRESS:PORT
    /// (0.0.0.0:27531 to accept connections from the network). DXP's usual
    /// port is 27531.
    #[arg(long, conflicts_with = "connect", required_unless_present = "connect")]
    listen: Option<String>,
    /// Connect to the other program at HOST:PORT and propose the games. Several
    /// addresses, comma-separated, play that many sessions at once (one
    /// program listening on each port), sharing the games out by pairs.
    #[arg(long)]
    connect: Option<String>,
    /// When connecting: the games to play (default 2, one with each colour;
    /// with --openings, two per opening). When listening: the most games to
    /// accept (default: as many as proposed).
    #[arg(long)]
    games: Option<u32>,
    /// When connecting: start the games from these openings, one per line:
    /// moves from the start (`32-28 19-23 37-32`, move numbers allowed) or a
    /// position (`W:W31-50:B1-20`); `#` starts a comment. Each opening is
    /// played twice, once with each colour (DXP's GAMEREQ carries the
    /// position, so any DXP program can play them).
    #[arg(long, requires = "connect")]
    openings: Option<PathBuf>,
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
    /// Think on the other program's time: search the position it must move
    /// in, so that our next search starts from what the table learnt. Fair
    /// only when each program has cores of its own (with --threads 1 and
    /// one session, two free cores).
    #[arg(long)]
    ponder: bool,
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
    config.ponder = args.ponder;
    if let Some(path) = &args.pdn {
        // Fail now rather than after the first game.
        std::fs::write(path, "").with_context(|| format!("cannot write {}", path.display()))?;
    }
    config.pdn = args.pdn;
    let mut log = |line: &str| eprintln!("{line}");
    let mut report = None;
    let records = if let Some(addresses) = args.connect {
        let openings = match &args.openings {
            Some(path) => read_openings(path)?,
            None => Vec::new(),
        };
        let games = match (args.games, openings.len()) {
            (Some(games), 0) => games.max(1),
            (None, 0) => 2,
            (None, count) => 2 * count as u32,
            (Some(games), _) if games % 2 == 1 => {
                bail!(
                    "--games {games}: with --openings, an even number (each opening is played with both colours)"
                )
            }
            (Some(games), _) => games.max(2),
        };
        let addresses: Vec<&str> = addresses
            .split(',')
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .collect();
        if addresses.is_empty() {
            bail!("--connect: give HOST:PORT (several, comma-separated, for sessions at once)");
        }
        let sessions = play_sessions(&addresses, &config, &openings, games)?;
        report = Some(match_report(&config.name, &sessions));
        let mut all: Vec<GameRecord> = sessions.into_iter().flatten().collect();
        all.sort_by_key(|record| record.number);
        all
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
    if let Some(report) = report {
        print!("{report}");
    }
    Ok(())
}

/// Plays `games` games over one session per address, at once: pair `k`
/// (games 2k+1 and 2k+2) starts from opening `k` (going round), and the
/// pairs are dealt to the sessions in turn. Each session's records, in order.
fn play_sessions(
    addresses: &[&str],
    config: &DxpConfig,
    openings: &[Draughts],
    games: u32,
) -> Result<Vec<Vec<GameRecord>>> {
    let pairs = games.div_ceil(2) as usize;
    let several = addresses.len() > 1;
    let results: Vec<Result<Vec<GameRecord>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = addresses
            .iter()
            .enumerate()
            .map(|(index, &address)| {
                let mut session = config.clone();
                let mine: Vec<usize> = (index..pairs).step_by(addresses.len()).collect();
                session.games = Some(if several || !openings.is_empty() {
                    (2 * mine.len() as u32).min(games)
                } else {
                    games
                });
                if !openings.is_empty() {
                    session.openings = mine
                        .iter()
                        .map(|&k| openings[k % openings.len()].clone())
                        .collect();
                }
                if several && let Some(path) = &config.pdn {
                    session.pdn = Some(session_path(path, index + 1));
                }
                scope.spawn(move || -> Result<Vec<GameRecord>> {
                    if session.games == Some(0) {
                        return Ok(Vec::new());
                    }
                    let mut log = |line: &str| {
                        if several {
                            eprintln!("[{address}] {line}");
                        } else {
                            eprintln!("{line}");
                        }
                    };
                    let stream = connect_with_retry(address, Duration::from_secs(10))
                        .map_err(anyhow::Error::msg)
                        .with_context(|| format!("cannot connect to {address}"))?;
                    Ok(run_initiator(stream, &session, &mut log)?)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(anyhow::anyhow!("a session panicked")))
            })
            .collect()
    });
    // A session that could not run is reported; the others' games still count.
    let mut sessions = Vec::new();
    let mut failed = None;
    for (result, address) in results.into_iter().zip(addresses) {
        match result {
            Ok(records) => sessions.push(records),
            Err(err) => {
                eprintln!("dxp: the session with {address} failed: {err:#}");
                sessions.push(Vec::new());
                failed = Some(err);
            }
        }
    }
    if let Some(err) = failed.filter(|_| sessions.iter().all(Vec::is_empty)) {
        return Err(err);
    }
    // The match's own numbering: pair k is games 2k+1 and 2k+2, whichever
    // session played it (the same parity, so pairs stay pairs).
    let count = addresses.len();
    for (index, records) in sessions.iter_mut().enumerate() {
        for record in records.iter_mut() {
            let pair = index + count * ((record.number as usize - 1) / 2);
            record.number = (2 * pair) as u32 + 2 - record.number % 2;
        }
    }
    // One PDN of every game, the sessions' files kept alongside.
    if several && let Some(path) = &config.pdn {
        let mut all: Vec<GameRecord> = sessions.iter().flatten().cloned().collect();
        all.sort_by_key(|record| record.number);
        write_pdn(path, &all).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(sessions)
}

/// `games.pdn`, session 2 -> `games-2.pdn`.
fn session_path(path: &std::path::Path, session: usize) -> PathBuf {
    let stem = path
        .file_stem()
        .map_or_else(|| "games".into(), |s| s.to_string_lossy().into_owned());
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{session}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{session}"),
    };
    path.with_file_name(name)
}

/// Reads an openings file as `plateau match --openings` does (one opening
/// per line: moves from the start or a position text; `#` comments), each
/// opening as the position DXP's GAMEREQ will carry.
fn read_openings(path: &std::path::Path) -> Result<Vec<Draughts>> {
    let spec = GameSpec::lookup("draughts", None).map_err(|e| anyhow::anyhow!(e.0))?;
    plateau_arena::openings::read_openings(&spec, path)
        .map_err(anyhow::Error::msg)?
        .iter()
        .map(|opening| {
            let game = opening.build(&spec).map_err(anyhow::Error::msg)?;
            Draughts::from_text(&game.to_text()).map_err(|e| anyhow::anyhow!("{e}"))
        })
        .collect()
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
