use anyhow::{Context, Result, bail};
use clap::Args;
use plateau_server::storage::Database;
use plateau_server::{ServerConfig, run};
use std::time::Duration;

/// Run the game server: the web page and the JSON API (docs/api.md) for every
/// game, rooms with share codes, live updates, AI opponents. Games are kept in
/// a SQLite file (created on first start) and survive restarts; with a
/// `postgres://` URL instead, several instances share one PostgreSQL database
/// behind a load balancer (docs/deploy.md).
#[derive(Args)]
pub struct ServeArgs {
    /// Address and port to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: String,
    /// The database: a SQLite file path, or a PostgreSQL URL
    /// (postgres://user:password@host:port/database) shared by several
    /// instances. The schema is created or updated on start.
    #[arg(long, default_value = "plateau.db")]
    db: String,
    /// Hours after which an untouched room is deleted.
    #[arg(long, default_value_t = 48.0)]
    idle_hours: f64,
    /// AI searches run at once (default: one per core).
    #[arg(long)]
    ai_threads: Option<usize>,
    /// Longest an AI move may take, in seconds, whatever the level. A move
    /// claimed by an instance that dies is taken by another after twice this
    /// plus 3 s.
    #[arg(long, default_value_t = 5.0)]
    ai_time_cap: f64,
    /// Event streams (open room pages) one address may hold at once.
    #[arg(long, default_value_t = 40)]
    streams_per_address: usize,
    /// Connections one address (an IPv4 address, or an IPv6 /64) may hold
    /// open at once; more are refused at accept with a 429. Lowered at start
    /// to a quarter of the open-file limit if that is smaller. The trusted
    /// proxy's connections are not counted (limit them at the proxy).
    #[arg(long, default_value_t = 64)]
    connections_per_address: usize,
    /// Rooms one address may have being played, or waiting for an opponent
    /// (for an hour after their last change), at once: made by creating,
    /// rematching or carrying a game over.
    #[arg(long, default_value_t = 30)]
    rooms_per_address: usize,
    /// Threads for the cheap AI levels (beginner, medium), on top of
    /// --ai-threads, so that their replies never wait behind long searches.
    #[arg(long, default_value_t = 1)]
    quick_ai_threads: usize,
    /// Seconds a client may take to send a request's headers; also how long
    /// a connection may sit idle between requests.
    #[arg(long, default_value_t = 10.0)]
    header_timeout: f64,
    /// The address of the reverse proxy in front of this server (nginx on
    /// the same host: 127.0.0.1). Only requests from it have their
    /// X-Forwarded-For read, so that rate limits count real clients.
    #[arg(long, value_name = "ADDR")]
    trusted_proxy: Option<std::net::IpAddr>,
    /// No access log (one line per request on stderr).
    #[arg(long)]
    no_access_log: bool,
    /// Turn off the per-address rate limits and the caps on event streams,
    /// connections and live rooms (load tests, a trusted network behind one
    /// address).
    #[arg(long)]
    no_rate_limits: bool,
}

pub fn run_serve(args: ServeArgs) -> Result<()> {
    if !(args.idle_hours > 0.0 && args.idle_hours.is_finite()) {
        bail!("--idle-hours must be a positive number");
    }
    let mut config = ServerConfig {
        idle_expiry: Duration::from_secs_f64(args.idle_hours * 3600.0),
        ..ServerConfig::default()
    };
    if args.connections_per_address == 0 || args.rooms_per_address == 0 {
        bail!("--connections-per-address and --rooms-per-address must be at least 1");
    }
    if args.quick_ai_threads == 0 {
        bail!("--quick-ai-threads must be at least 1");
    }
    config.connections_per_address = args.connections_per_address;
    config.rooms_per_address = args.rooms_per_address;
    config.quick_ai_threads = args.quick_ai_threads;
    if args.no_rate_limits {
        config.rates = plateau_server::Rates::unlimited();
        config.streams_per_address = usize::MAX;
        config.connections_per_address = usize::MAX;
        config.rooms_per_address = usize::MAX;
    }
    if !(args.ai_time_cap >= 0.05 && args.ai_time_cap <= 600.0) {
        bail!("--ai-time-cap must be between 0.05 and 600 seconds");
    }
    config.ai_time_cap = Duration::from_secs_f64(args.ai_time_cap);
    if !(args.header_timeout >= 0.1 && args.header_timeout <= 3600.0) {
        bail!("--header-timeout must be between 0.1 and 3600 seconds");
    }
    config.header_timeout = Duration::from_secs_f64(args.header_timeout);
    if args.streams_per_address == 0 {
        bail!("--streams-per-address must be at least 1");
    }
    if !args.no_rate_limits {
        config.streams_per_address = args.streams_per_address;
    }
    config.trusted_proxy = args.trusted_proxy;
    config.access_log = !args.no_access_log;
    if let Some(threads) = args.ai_threads {
        config.ai_threads = threads.max(1);
    }
    let database = Database::parse(&args.db);
    run(&args.addr, &database, config, |addr| {
        eprintln!(
            "plateau is serving on http://{addr} (database {})",
            database.describe()
        );
    })
    .with_context(|| format!("cannot serve on {}", args.addr))
}

/// Copy every room (moves, seats and their tokens, clocks, offers, history
/// and the events that clients replay) from one server database into
/// another: how a site moves from SQLite to PostgreSQL (docs/deploy.md).
/// Stop the servers on the source first; the target may be in use. Rooms
/// whose code the target already has are left as they are and counted.
#[derive(Args)]
pub struct CopyRoomsArgs {
    /// The database to copy from: a SQLite file or a postgres:// URL.
    #[arg(long)]
    from: String,
    /// The database to copy into (created or brought up to date first).
    #[arg(long)]
    to: String,
}

pub fn run_copy_rooms(args: CopyRoomsArgs) -> Result<()> {
    let (from, to) = (Database::parse(&args.from), Database::parse(&args.to));
    if from == to {
        bail!("--from and --to name the same database");
    }
    if let Database::Sqlite(path) = &from
        && !path.is_file()
    {
        bail!("{}: no such database file", path.display());
    }
    let source = from
        .open()
        .with_context(|| format!("opening {}", from.describe()))?;
    let target = to
        .open()
        .with_context(|| format!("opening {}", to.describe()))?;
    eprintln!(
        "copying the rooms of {} into {}",
        from.describe(),
        to.describe()
    );
    let started = std::time::Instant::now();
    let report =
        plateau_server::storage::copy_rooms(source.as_ref(), target.as_ref(), |done, total| {
            if done % 1000 == 0 || done == total {
                eprintln!("  {done}/{total} rooms");
            }
        })
        .context("copying the rooms")?;
    println!(
        "{} room(s) copied, {} skipped (their code was taken in the target), in {:.1} s",
        report.copied,
        report.skipped,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
