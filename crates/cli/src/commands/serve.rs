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
    /// Turn off the per-address rate limits (load tests, a trusted network
    /// behind one address).
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
    if args.no_rate_limits {
        config.rates = plateau_server::Rates::unlimited();
    }
    if !(args.ai_time_cap >= 0.05 && args.ai_time_cap <= 600.0) {
        bail!("--ai-time-cap must be between 0.05 and 600 seconds");
    }
    config.ai_time_cap = Duration::from_secs_f64(args.ai_time_cap);
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
