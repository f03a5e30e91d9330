//! PostgreSQL storage: one database shared by several server instances.
//!
//! The same tables and the same version-checked transactions as SQLite, on
//! tokio-postgres with a deadpool pool. Every commit also sends a notification
//! (`plateau_events`, payload `CODE:VERSION`) inside its transaction, so the
//! other instances hear of it only once it is durable and re-read the room.
//!
//! The `Storage` trait is blocking (the server calls it off the async runtime),
//! so the pool and the connections live on a small runtime of their own, which
//! the blocking calls wait on.

use super::{
    AiJob, Change, Lane, LobbyRoom, NewRoom, Notice, Storage, StorageError, StoredClock, StoredRoom,
};
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Transaction};
use std::future::Future;
use std::str::FromStr;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_postgres::{AsyncMessage, NoTls};

/// The channel of the change notifications.
const CHANNEL: &str = "plateau_events";
/// The channel that wakes the instances' AI workers: a move is due.
const JOBS_CHANNEL: &str = "plateau_ai_jobs";

/// Advisory-lock keys: one instance migrates at a time, one sweeps at a time.
const MIGRATION_LOCK: i64 = 0x706c_6174_6561_7501;
const SWEEP_LOCK: i64 = 0x706c_6174_6561_7502;
/// An instance's first heartbeat of a run is taken under this lock.
const HEARTBEAT_LOCK: i64 = 0x706c_6174_6561_7503;

/// Records an instance's heartbeat.
const WRITE_BEAT: &str = "INSERT INTO heartbeats (instance, at_ms) VALUES ($1, $2)
     ON CONFLICT (instance) DO UPDATE SET at_ms = excluded.at_ms";

/// The schema, one step per release that changed it; a database records the
/// steps it has had in `plateau_migrations` and gets only the missing ones.
const MIGRATIONS: &[&str] = &[
    "
CREATE TABLE rooms (
    code TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    version BIGINT NOT NULL,
    status TEXT NOT NULL,
    winner TEXT,
    reason TEXT,
    ai_seat TEXT,
    ai_level TEXT,
    rematch TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX rooms_updated ON rooms (updated_at);
CREATE INDEX rooms_status ON rooms (status);
CREATE TABLE seats (
    code TEXT NOT NULL REFERENCES rooms ON DELETE CASCADE,
    seat TEXT NOT NULL,
    token_hash BYTEA NOT NULL,
    PRIMARY KEY (code, seat)
);
CREATE TABLE moves (
    code TEXT NOT NULL REFERENCES rooms ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (code, ply)
);
CREATE TABLE events (
    code TEXT NOT NULL REFERENCES rooms ON DELETE CASCADE,
    version BIGINT NOT NULL,
    payload TEXT NOT NULL,
    PRIMARY KEY (code, version)
);
CREATE TABLE clocks (
    code TEXT PRIMARY KEY REFERENCES rooms ON DELETE CASCADE,
    initial_ms BIGINT NOT NULL,
    increment_ms BIGINT NOT NULL,
    white_ms BIGINT NOT NULL,
    black_ms BIGINT NOT NULL,
    running TEXT,
    since_ms BIGINT NOT NULL
);
CREATE TABLE public_rooms (
    code TEXT PRIMARY KEY REFERENCES rooms ON DELETE CASCADE
);
CREATE TABLE offers (
    code TEXT PRIMARY KEY REFERENCES rooms ON DELETE CASCADE,
    kind TEXT NOT NULL,
    seat TEXT NOT NULL
);
CREATE TABLE notes (
    code TEXT NOT NULL REFERENCES rooms ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    version BIGINT NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (code, seq)
);
",
    "
ALTER TABLE rooms ADD COLUMN creator TEXT NOT NULL DEFAULT '';
CREATE TABLE ai_jobs (
    code TEXT PRIMARY KEY REFERENCES rooms ON DELETE CASCADE,
    version BIGINT NOT NULL,
    address TEXT NOT NULL,
    due_ms BIGINT NOT NULL,
    owner TEXT,
    lease_until_ms BIGINT NOT NULL,
    attempts INTEGER NOT NULL
);
CREATE INDEX ai_jobs_due ON ai_jobs (lease_until_ms, due_ms);
CREATE INDEX ai_jobs_address ON ai_jobs (address);
CREATE TABLE ai_addresses (
    address TEXT PRIMARY KEY,
    served_ms BIGINT NOT NULL
);
",
    "
CREATE TABLE move_clocks (
    code TEXT NOT NULL REFERENCES rooms ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    white_ms BIGINT NOT NULL,
    black_ms BIGINT NOT NULL,
    PRIMARY KEY (code, ply)
);
CREATE TABLE heartbeats (
    instance TEXT PRIMARY KEY,
    at_ms BIGINT NOT NULL
);
CREATE INDEX rooms_creator ON rooms (creator, status);
",
    "
CREATE TABLE lobby_presence (
    code TEXT PRIMARY KEY REFERENCES rooms ON DELETE CASCADE,
    seen_ms BIGINT NOT NULL
);
",
    "
ALTER TABLE rooms ADD COLUMN move_limit INTEGER;
",
];

/// How often the listening connection proves it is alive.
const HEARTBEAT: Duration = Duration::from_secs(30);

/// Connections per server instance.
const POOL_SIZE: usize = 16;

impl From<tokio_postgres::Error> for StorageError {
    fn from(err: tokio_postgres::Error) -> StorageError {
        // The server's message (constraint, syntax) is in the source.
        match err.as_db_error() {
            Some(db) => StorageError(format!("postgres: {}", db.message())),
            // "error connecting to server" says little without its cause
            // ("Connection refused", a bad password...).
            None => match std::error::Error::source(&err) {
                Some(cause) => StorageError(format!("postgres: {err}: {cause}")),
                None => StorageError(format!("postgres: {err}")),
            },
        }
    }
}

impl From<deadpool_postgres::PoolError> for StorageError {
    fn from(err: deadpool_postgres::PoolError) -> StorageError {
        match err {
            // The database's own error, not the pool's wrapping of it.
            deadpool_postgres::PoolError::Backend(err) => StorageError::from(err),
            other => StorageError(format!("postgres pool: {other}")),
        }
    }
}

/// Rooms in a PostgreSQL database.
pub struct PostgresStorage {
    pool: Pool,
    config: tokio_postgres::Config,
    /// Drives the connections; `None` once dropped.
    runtime: Option<tokio::runtime::Runtime>,
}

impl Drop for PostgresStorage {
    fn drop(&mut self) {
        // Dropping a runtime blocks, which is refused inside async code.
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// Whether `database` names a PostgreSQL server rather than a SQLite file.
pub fn is_postgres_url(database: &str) -> bool {
    database.starts_with("postgres://") || database.starts_with("postgresql://")
}

impl PostgresStorage {
    /// Connects to `url` (`postgres://user:password@host:port/database`) and
    /// brings the schema up to date.
    pub fn connect(url: &str) -> Result<PostgresStorage, StorageError> {
        let config = tokio_postgres::Config::from_str(url)
            .map_err(|e| StorageError(format!("bad PostgreSQL URL: {e}")))?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("plateau-postgres")
            .enable_all()
            .build()
            .map_err(|e| StorageError(format!("cannot start the PostgreSQL runtime: {e}")))?;
        let manager = Manager::from_config(
            config.clone(),
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .runtime(deadpool_postgres::Runtime::Tokio1)
            .wait_timeout(Some(Duration::from_secs(10)))
            .create_timeout(Some(Duration::from_secs(10)))
            .build()
            .map_err(|e| StorageError(format!("cannot build the PostgreSQL pool: {e}")))?;
        let storage = PostgresStorage {
            pool,
            config,
            runtime: Some(runtime),
        };
        storage.wait(storage.migrate())?;
        Ok(storage)
    }

    /// Runs `job` on the storage's runtime and waits for it.
    fn wait<T>(
        &self,
        job: impl Future<Output = Result<T, StorageError>>,
    ) -> Result<T, StorageError> {
        match &self.runtime {
            Some(runtime) => runtime.block_on(job),
            None => Err(StorageError("the PostgreSQL storage is closed".into())),
        }
    }

    async fn migrate(&self) -> Result<(), StorageError> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
            .await?;
        tx.batch_execute(
            "CREATE TABLE IF NOT EXISTS plateau_migrations (
                 step INTEGER PRIMARY KEY,
                 applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
             )",
        )
        .await?;
        let done: i32 = tx
            .query_one("SELECT COALESCE(MAX(step), 0) FROM plateau_migrations", &[])
            .await?
            .get(0);
        if done as usize > MIGRATIONS.len() {
            return Err(StorageError(format!(
                "the database's schema (step {done}) is newer than this plateau's ({}): upgrade plateau",
                MIGRATIONS.len()
            )));
        }
        for (step, sql) in MIGRATIONS.iter().enumerate().skip(done as usize) {
            tx.batch_execute(sql).await?;
            tx.execute(
                "INSERT INTO plateau_migrations (step) VALUES ($1)",
                &[&(step as i32 + 1)],
            )
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn load(&self, code: &str) -> Result<Option<StoredRoom>, StorageError> {
        let mut client = self.pool.get().await?;
        // One snapshot for the room and its parts.
        let tx = client
            .build_transaction()
            .isolation_level(tokio_postgres::IsolationLevel::RepeatableRead)
            .read_only(true)
            .start()
            .await?;
        let Some(row) = tx
            .query_opt(
                &tx.prepare_cached("SELECT code, game, variant, version, status, winner, reason, ai_seat, ai_level,
                        rematch, created_at, updated_at, move_limit FROM rooms WHERE code = $1").await?,
                &[&code],
            )
            .await?
        else {
            return Ok(None);
        };
        let ai_seat: Option<String> = row.get(7);
        let ai_level: Option<String> = row.get(8);
        let mut room = StoredRoom {
            code: row.get(0),
            game: row.get(1),
            variant: row.get(2),
            version: row.get::<_, i64>(3) as u64,
            status: row.get(4),
            winner: row.get(5),
            reason: row.get(6),
            ai: ai_seat.zip(ai_level),
            rematch: row.get(9),
            created_at: row.get(10),
            updated_at: row.get(11),
            seats: Vec::new(),
            moves: Vec::new(),
            offer: None,
            log: Vec::new(),
            public: false,
            clock: None,
            move_clocks: Vec::new(),
            move_limit: row
                .get::<_, Option<i32>>(12)
                .and_then(|n| u32::try_from(n).ok()),
        };
        for row in tx
            .query(
                &tx.prepare_cached(
                    "SELECT seat, token_hash FROM seats WHERE code = $1 ORDER BY seat",
                )
                .await?,
                &[&code],
            )
            .await?
        {
            room.seats
                .push((row.get(0), super::hash_from(row.get::<_, Vec<u8>>(1))?));
        }
        for row in tx
            .query(
                &tx.prepare_cached("SELECT text FROM moves WHERE code = $1 ORDER BY ply")
                    .await?,
                &[&code],
            )
            .await?
        {
            room.moves.push(row.get(0));
        }
        room.offer = tx
            .query_opt(
                &tx.prepare_cached("SELECT kind, seat FROM offers WHERE code = $1")
                    .await?,
                &[&code],
            )
            .await?
            .map(|row| (row.get(0), row.get(1)));
        room.clock = tx
            .query_opt(
                &tx.prepare_cached(
                    "SELECT initial_ms, increment_ms, white_ms, black_ms, running, since_ms
                 FROM clocks WHERE code = $1",
                )
                .await?,
                &[&code],
            )
            .await?
            .map(|row| StoredClock {
                initial_ms: row.get(0),
                increment_ms: row.get(1),
                white_ms: row.get(2),
                black_ms: row.get(3),
                running: row.get(4),
                since_ms: row.get(5),
            });
        room.public = tx
            .query_opt(
                &tx.prepare_cached("SELECT 1 FROM public_rooms WHERE code = $1")
                    .await?,
                &[&code],
            )
            .await?
            .is_some();
        for row in tx
            .query(
                &tx.prepare_cached("SELECT text FROM notes WHERE code = $1 ORDER BY seq")
                    .await?,
                &[&code],
            )
            .await?
        {
            room.log.push(row.get(0));
        }
        for row in tx
            .query(
                &tx.prepare_cached(
                    "SELECT ply, white_ms, black_ms FROM move_clocks WHERE code = $1 ORDER BY ply",
                )
                .await?,
                &[&code],
            )
            .await?
        {
            room.move_clocks
                .push((row.get::<_, i32>(0) as u32, [row.get(1), row.get(2)]));
        }
        tx.commit().await?;
        Ok(Some(room))
    }

    async fn apply(
        &self,
        code: &str,
        expected: u64,
        changes: &[Change],
        event: &str,
        now: i64,
    ) -> Result<bool, StorageError> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        let next = expected as i64 + 1;
        // The row lock serializes writers of one room: a second writer waits,
        // then finds the version moved on and writes nothing.
        let bumped = tx
            .execute(
                &tx.prepare_cached("UPDATE rooms SET version = version + 1, updated_at = $3 WHERE code = $1 AND version = $2").await?,
                &[&code, &(expected as i64), &now],
            )
            .await?;
        if bumped == 0 {
            return Ok(false);
        }
        for change in changes {
            apply_change(&tx, code, next, change).await?;
        }
        tx.execute(
            &tx.prepare_cached("INSERT INTO events (code, version, payload) VALUES ($1, $2, $3)")
                .await?,
            &[&code, &next, &event],
        )
        .await?;
        tx.execute(
            &tx.prepare_cached("SELECT pg_notify($1, $2)").await?,
            &[&CHANNEL, &format!("{code}:{next}")],
        )
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Forwards the change notifications to `sender` over a dedicated
    /// connection, reconnecting (and asking for a resync) when it drops.
    async fn listen(config: tokio_postgres::Config, sender: mpsc::UnboundedSender<Notice>) {
        loop {
            match listen_once(&config, &sender).await {
                // The receiver is gone: the server stopped.
                Ok(()) => return,
                Err(err) => {
                    if sender.is_closed() {
                        return;
                    }
                    eprintln!("event notifications from PostgreSQL: {err}; reconnecting");
                }
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    }
}

/// One listening connection's life. `Ok` when the receiver is gone.
async fn listen_once(
    config: &tokio_postgres::Config,
    sender: &mpsc::UnboundedSender<Notice>,
) -> Result<(), StorageError> {
    // A connection dropped silently (a NAT, a failover) is noticed by TCP
    // keepalives and by the heartbeat below, not after hours.
    let mut config = config.clone();
    config.keepalives_idle(HEARTBEAT);
    let (client, mut connection) = config.connect(NoTls).await?;
    let (messages_tx, mut messages) = mpsc::unbounded_channel();
    let driver = tokio::spawn(async move {
        loop {
            let message = std::future::poll_fn(|cx| connection.poll_message(cx)).await;
            match message {
                Some(Ok(message)) => {
                    if messages_tx.send(Ok(message)).is_err() {
                        return;
                    }
                }
                Some(Err(err)) => {
                    let _ = messages_tx.send(Err(Some(err)));
                    return;
                }
                None => {
                    let _ = messages_tx.send(Err(None));
                    return;
                }
            }
        }
    });
    let result = async {
        client
            .batch_execute(&format!("LISTEN {CHANNEL}; LISTEN {JOBS_CHANNEL}"))
            .await?;
        // Anything committed while no one listened (before the first LISTEN
        // took effect, or while reconnecting) is caught by re-reading.
        if sender.send(Notice::Resync).is_err() {
            return Ok(());
        }
        let mut heartbeat = tokio::time::interval(HEARTBEAT);
        heartbeat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        // The first tick is at once: skip it.
        heartbeat.tick().await;
        loop {
            let message = tokio::select! {
                message = messages.recv() => message,
                _ = heartbeat.tick() => {
                    match tokio::time::timeout(HEARTBEAT, client.simple_query("SELECT 1")).await {
                        Ok(Ok(_)) => continue,
                        Ok(Err(err)) => return Err(StorageError::from(err)),
                        Err(_) => return Err(StorageError("no answer to the heartbeat".into())),
                    }
                }
            };
            let Some(message) = message else { break };
            match message {
                Ok(AsyncMessage::Notification(note)) if note.channel() == JOBS_CHANNEL => {
                    if sender.send(Notice::AiDue).is_err() {
                        return Ok(());
                    }
                }
                Ok(AsyncMessage::Notification(note)) => {
                    if let Some((code, version)) = note.payload().rsplit_once(':')
                        && let Ok(version) = version.parse()
                        && sender
                            .send(Notice::Changed {
                                code: code.to_string(),
                                version,
                            })
                            .is_err()
                    {
                        return Ok(());
                    }
                }
                Ok(_) => {}
                Err(Some(err)) => return Err(StorageError::from(err)),
                Err(None) => return Err(StorageError("the connection closed".into())),
            }
        }
        Err(StorageError("the connection closed".into()))
    }
    .await;
    driver.abort();
    result
}

async fn write_clock(
    tx: &Transaction<'_>,
    code: &str,
    clock: &StoredClock,
) -> Result<(), StorageError> {
    tx.execute(
        &tx.prepare_cached("INSERT INTO clocks (code, initial_ms, increment_ms, white_ms, black_ms, running, since_ms)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (code) DO UPDATE SET initial_ms = $2, increment_ms = $3, white_ms = $4,
             black_ms = $5, running = $6, since_ms = $7").await?,
        &[
            &code,
            &clock.initial_ms,
            &clock.increment_ms,
            &clock.white_ms,
            &clock.black_ms,
            &clock.running,
            &clock.since_ms,
        ],
    )
    .await?;
    Ok(())
}

/// Writes a whole room and its events; `false` if the code is taken.
async fn insert_room(
    tx: &Transaction<'_>,
    room: &StoredRoom,
    creator: &str,
    events: &[(u64, String)],
) -> Result<bool, StorageError> {
    let inserted = tx
        .execute(
            &tx.prepare_cached(
                "INSERT INTO rooms (code, game, variant, version, status, winner, reason, ai_seat,
                                ai_level, rematch, created_at, updated_at, creator, move_limit)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
             ON CONFLICT (code) DO NOTHING",
            )
            .await?,
            &[
                &room.code,
                &room.game,
                &room.variant,
                &(room.version as i64),
                &room.status,
                &room.winner,
                &room.reason,
                &room.ai.as_ref().map(|a| &a.0),
                &room.ai.as_ref().map(|a| &a.1),
                &room.rematch,
                &room.created_at,
                &room.updated_at,
                &creator,
                &room.move_limit.and_then(|n| i32::try_from(n).ok()),
            ],
        )
        .await?;
    if inserted == 0 {
        return Ok(false);
    }
    for (seat, hash) in &room.seats {
        tx.execute(
            &tx.prepare_cached("INSERT INTO seats (code, seat, token_hash) VALUES ($1, $2, $3)")
                .await?,
            &[&room.code, seat, &&hash[..]],
        )
        .await?;
    }
    for (ply, text) in room.moves.iter().enumerate() {
        tx.execute(
            &tx.prepare_cached("INSERT INTO moves (code, ply, text) VALUES ($1, $2, $3)")
                .await?,
            &[&room.code, &(ply as i32 + 1), text],
        )
        .await?;
    }
    for (ply, [white, black]) in &room.move_clocks {
        tx.execute(
            &tx.prepare_cached(
                "INSERT INTO move_clocks (code, ply, white_ms, black_ms) VALUES ($1, $2, $3, $4)",
            )
            .await?,
            &[&room.code, &(*ply as i32), white, black],
        )
        .await?;
    }
    if let Some((kind, seat)) = &room.offer {
        tx.execute(
            &tx.prepare_cached("INSERT INTO offers (code, kind, seat) VALUES ($1, $2, $3)")
                .await?,
            &[&room.code, kind, seat],
        )
        .await?;
    }
    for (seq, text) in room.log.iter().enumerate() {
        tx.execute(
            &tx.prepare_cached(
                "INSERT INTO notes (code, seq, version, text) VALUES ($1, $2, $3, $4)",
            )
            .await?,
            &[&room.code, &(seq as i32 + 1), &(room.version as i64), text],
        )
        .await?;
    }
    if room.public {
        tx.execute(
            &tx.prepare_cached("INSERT INTO public_rooms (code) VALUES ($1)")
                .await?,
            &[&room.code],
        )
        .await?;
    }
    if let Some(clock) = &room.clock {
        write_clock(tx, &room.code, clock).await?;
    }
    for (version, payload) in events {
        tx.execute(
            &tx.prepare_cached("INSERT INTO events (code, version, payload) VALUES ($1, $2, $3)")
                .await?,
            &[&room.code, &(*version as i64), payload],
        )
        .await?;
    }
    Ok(true)
}

/// Records the AI's move as due (at the room's current version), or drops it.
async fn set_ai_turn(
    tx: &Transaction<'_>,
    code: &str,
    due_ms: Option<i64>,
) -> Result<(), StorageError> {
    match due_ms {
        Some(due_ms) => {
            tx.execute(
                &tx.prepare_cached("INSERT INTO ai_jobs (code, version, address, due_ms, owner, lease_until_ms, attempts)
                 SELECT code, version, creator, $2, NULL, 0, 0 FROM rooms WHERE code = $1
                 ON CONFLICT (code) DO UPDATE SET version = excluded.version,
                     due_ms = excluded.due_ms, owner = NULL, lease_until_ms = 0, attempts = 0").await?,
                &[&code, &due_ms],
            )
            .await?;
            tx.execute(
                &tx.prepare_cached("SELECT pg_notify($1, '')").await?,
                &[&JOBS_CHANNEL],
            )
            .await?;
        }
        None => {
            tx.execute(
                &tx.prepare_cached("DELETE FROM ai_jobs WHERE code = $1")
                    .await?,
                &[&code],
            )
            .await?;
        }
    }
    Ok(())
}

async fn apply_change(
    tx: &Transaction<'_>,
    code: &str,
    version: i64,
    change: &Change,
) -> Result<(), StorageError> {
    match change {
        Change::Seat { seat, token_hash } => {
            tx.execute(
                &tx.prepare_cached(
                    "INSERT INTO seats (code, seat, token_hash) VALUES ($1, $2, $3)",
                )
                .await?,
                &[&code, seat, &&token_hash[..]],
            )
            .await?;
        }
        Change::Move { ply, text } => {
            tx.execute(
                &tx.prepare_cached("INSERT INTO moves (code, ply, text) VALUES ($1, $2, $3)")
                    .await?,
                &[&code, &(*ply as i32), text],
            )
            .await?;
        }
        Change::Status {
            status,
            winner,
            reason,
        } => {
            tx.execute(
                &tx.prepare_cached(
                    "UPDATE rooms SET status = $2, winner = $3, reason = $4 WHERE code = $1",
                )
                .await?,
                &[&code, status, winner, reason],
            )
            .await?;
        }
        Change::Rematch { code: rematch } => {
            tx.execute(
                &tx.prepare_cached("UPDATE rooms SET rematch = $2 WHERE code = $1")
                    .await?,
                &[&code, rematch],
            )
            .await?;
        }
        Change::Offer { offer } => {
            tx.execute(
                &tx.prepare_cached("DELETE FROM offers WHERE code = $1")
                    .await?,
                &[&code],
            )
            .await?;
            if let Some((kind, seat)) = offer {
                tx.execute(
                    &tx.prepare_cached("INSERT INTO offers (code, kind, seat) VALUES ($1, $2, $3)")
                        .await?,
                    &[&code, kind, seat],
                )
                .await?;
            }
        }
        Change::Takeback { keep } => {
            tx.execute(
                &tx.prepare_cached("DELETE FROM moves WHERE code = $1 AND ply > $2")
                    .await?,
                &[&code, &(*keep as i32)],
            )
            .await?;
            tx.execute(
                &tx.prepare_cached("DELETE FROM move_clocks WHERE code = $1 AND ply > $2")
                    .await?,
                &[&code, &(*keep as i32)],
            )
            .await?;
        }
        Change::MoveClock {
            ply,
            clocks: [white, black],
        } => {
            tx.execute(
                &tx.prepare_cached(
                    "INSERT INTO move_clocks (code, ply, white_ms, black_ms) VALUES ($1, $2, $3, $4)
                     ON CONFLICT (code, ply) DO UPDATE SET white_ms = $3, black_ms = $4",
                )
                .await?,
                &[&code, &(*ply as i32), white, black],
            )
            .await?;
        }
        Change::Clock(clock) => write_clock(tx, code, clock).await?,
        Change::AiTurn { due_ms } => set_ai_turn(tx, code, *due_ms).await?,
        Change::Note { text } => {
            tx.execute(
                &tx.prepare_cached(
                    "INSERT INTO notes (code, seq, version, text)
                 SELECT $1, COALESCE(MAX(seq), 0) + 1, $2, $3 FROM notes WHERE code = $1",
                )
                .await?,
                &[&code, &version, text],
            )
            .await?;
        }
    }
    Ok(())
}

impl Storage for PostgresStorage {
    fn create_room(&self, room: &NewRoom, event: &str) -> Result<bool, StorageError> {
        self.wait(async {
            let mut client = self.pool.get().await?;
            let tx = client.transaction().await?;
            let events = [(1, event.to_string())];
            if !insert_room(&tx, &room.stored(), &room.creator, &events).await? {
                return Ok(false);
            }
            if let Some(due_ms) = room.ai_due {
                set_ai_turn(&tx, &room.code, Some(due_ms)).await?;
            }
            tx.commit().await?;
            Ok(true)
        })
    }

    fn load_room(&self, code: &str) -> Result<Option<StoredRoom>, StorageError> {
        self.wait(self.load(code))
    }

    fn version(&self, code: &str) -> Result<Option<(u64, i64)>, StorageError> {
        self.wait(async {
            let client = self.pool.get().await?;
            let row = client
                .query_opt(
                    &client
                        .prepare_cached("SELECT version, created_at FROM rooms WHERE code = $1")
                        .await?,
                    &[&code],
                )
                .await?;
            Ok(row.map(|row| (row.get::<_, i64>(0) as u64, row.get(1))))
        })
    }

    fn commit(
        &self,
        code: &str,
        expected: u64,
        changes: &[Change],
        event: &str,
        now: i64,
    ) -> Result<bool, StorageError> {
        self.wait(self.apply(code, expected, changes, event, now))
    }

    fn events_after(&self, code: &str, version: u64) -> Result<Vec<(u64, String)>, StorageError> {
        self.wait(async {
            let client = self.pool.get().await?;
            let rows = client
                .query(
                    &client.prepare_cached("SELECT version, payload FROM events WHERE code = $1 AND version > $2 ORDER BY version").await?,
                    &[&code, &(version.min(i64::MAX as u64) as i64)],
                )
                .await?;
            Ok(rows
                .iter()
                .map(|row| (row.get::<_, i64>(0) as u64, row.get(1)))
                .collect())
        })
    }

    fn sweep(&self, before: i64) -> Result<Vec<String>, StorageError> {
        self.wait(async {
            let mut client = self.pool.get().await?;
            let tx = client.transaction().await?;
            // Another instance sweeping now does the work.
            let locked: bool = tx
                .query_one(
                    &tx.prepare_cached("SELECT pg_try_advisory_xact_lock($1)")
                        .await?,
                    &[&SWEEP_LOCK],
                )
                .await?
                .get(0);
            if !locked {
                return Ok(Vec::new());
            }
            let rows = tx
                .query(
                    &tx.prepare_cached("DELETE FROM rooms WHERE updated_at < $1 RETURNING code")
                        .await?,
                    &[&before],
                )
                .await?;
            let forget: i64 = super::now_ms() - super::SERVED_MEMORY_MS;
            tx.execute(
                &tx.prepare_cached("DELETE FROM ai_addresses WHERE served_ms < $1")
                    .await?,
                &[&forget],
            )
            .await?;
            let stale: i64 = super::now_ms() - super::HEARTBEAT_MEMORY_MS;
            tx.execute(
                &tx.prepare_cached("DELETE FROM heartbeats WHERE at_ms < $1")
                    .await?,
                &[&stale],
            )
            .await?;
            let gone: i64 = super::now_ms() - super::PRESENCE_MEMORY_MS;
            tx.execute(
                &tx.prepare_cached("DELETE FROM lobby_presence WHERE seen_ms < $1")
                    .await?,
                &[&gone],
            )
            .await?;
            tx.commit().await?;
            let mut codes: Vec<String> = rows.iter().map(|row| row.get(0)).collect();
            codes.sort();
            Ok(codes)
        })
    }

    fn claim_ai(
        &self,
        owner: &str,
        now_ms: i64,
        lease_ms: i64,
        lane: Lane,
    ) -> Result<Option<AiJob>, StorageError> {
        self.wait(async {
            let mut client = self.pool.get().await?;
            let tx = client.transaction().await?;
            // SKIP LOCKED: instances claiming at once each get a different move.
            let row = tx
                .query_opt(
                    &format!(
                        "WITH next AS (
                             SELECT j.code FROM ai_jobs j WHERE j.lease_until_ms <= $2 AND {}
                             ORDER BY {} LIMIT 1 FOR UPDATE OF j SKIP LOCKED)
                         UPDATE ai_jobs SET owner = $1, lease_until_ms = $3, attempts = ai_jobs.attempts + 1
                         FROM next WHERE ai_jobs.code = next.code
                         RETURNING ai_jobs.code, ai_jobs.version, ai_jobs.attempts - 1, ai_jobs.address",
                        lane.filter("j"),
                        super::fair_order("$2", lane)
                    ),
                    &[&owner, &now_ms, &now_ms.saturating_add(lease_ms)],
                )
                .await?;
            let Some(row) = row else {
                return Ok(None);
            };
            tx.execute(
                &tx.prepare_cached("INSERT INTO ai_addresses (address, served_ms) VALUES ($1, $2)
                 ON CONFLICT (address) DO UPDATE SET served_ms = excluded.served_ms").await?,
                &[&row.get::<_, String>(3), &now_ms],
            )
            .await?;
            let waiting: i64 = tx
                .query_one(
                    &format!(
                        "SELECT COUNT(*) FROM ai_jobs j WHERE j.lease_until_ms <= $1 AND {}",
                        lane.filter("j")
                    ),
                    &[&now_ms],
                )
                .await?
                .get(0);
            tx.commit().await?;
            Ok(Some(AiJob {
                code: row.get(0),
                version: row.get::<_, i64>(1) as u64,
                attempts: row.get::<_, i32>(2).max(0) as u32,
                waiting: waiting as u32,
            }))
        })
    }

    fn retry_ai(
        &self,
        code: &str,
        version: u64,
        owner: &str,
        at_ms: i64,
    ) -> Result<(), StorageError> {
        self.wait(async {
            let client = self.pool.get().await?;
            client
                .execute(
                    &client
                        .prepare_cached(
                            "UPDATE ai_jobs SET owner = NULL, lease_until_ms = $4
                     WHERE code = $1 AND version = $2 AND owner = $3",
                        )
                        .await?,
                    &[&code, &(version as i64), &owner, &at_ms],
                )
                .await?;
            Ok(())
        })
    }

    fn release_ai(&self, owner: Option<&str>) -> Result<usize, StorageError> {
        self.wait(async {
            let client = self.pool.get().await?;
            let released = client
                .execute(
                    &client
                        .prepare_cached(
                            "UPDATE ai_jobs SET owner = NULL, lease_until_ms = 0
                     WHERE owner IS NOT NULL AND ($1::TEXT IS NULL OR owner = $1)",
                        )
                        .await?,
                    &[&owner],
                )
                .await?;
            Ok(released as usize)
        })
    }

    fn drop_ai(&self, code: &str, version: u64) -> Result<(), StorageError> {
        self.wait(async {
            let client = self.pool.get().await?;
            client
                .execute(
                    &client
                        .prepare_cached("DELETE FROM ai_jobs WHERE code = $1 AND version = $2")
                        .await?,
                    &[&code, &(version as i64)],
                )
                .await?;
            Ok(())
        })
    }

    fn ensure_ai(&self, code: &str, version: u64, now_ms: i64) -> Result<(), StorageError> {
        self.wait(async {
            let client = self.pool.get().await?;
            client
                .execute(
                    &client.prepare_cached("INSERT INTO ai_jobs (code, version, address, due_ms, owner, lease_until_ms, attempts)
                     SELECT code, version, creator, $3, NULL, 0, 0 FROM rooms WHERE code = $1 AND version = $2
                     ON CONFLICT (code) DO NOTHING").await?,
                    &[&code, &(version as i64), &now_ms],
                )
                .await?;
            Ok(())
        })
    }

    fn ai_queue(&self, now_ms: i64, lane: Lane) -> Result<Vec<String>, StorageError> {
        self.wait(async {
            let client = self.pool.get().await?;
            let rows = client
                .query(
                    &format!(
                        "SELECT j.code FROM ai_jobs j WHERE j.lease_until_ms <= $1 AND {} ORDER BY {}",
                        lane.filter("j"),
                        super::fair_order("$1", lane)
                    ),
                    &[&now_ms],
                )
                .await?;
            Ok(rows.iter().map(|row| row.get(0)).collect())
        })
    }

    fn live_rooms(&self, creator: &str, waiting_since: i64) -> Result<u64, StorageError> {
        self.wait(async {
            let client = self.pool.get().await?;
            let count: i64 = client
                .query_one(
                    &client
                        .prepare_cached(
                            "SELECT COUNT(*) FROM rooms WHERE creator = $1
                                AND (status = 'playing'
                                     OR (status = 'waiting' AND updated_at >= $2))",
                        )
                        .await?,
                    &[&creator, &waiting_since],
                )
                .await?
                .get(0);
            Ok(count as u64)
        })
    }

    fn beat(&self, instance: &str, now_ms: i64) -> Result<(), StorageError> {
        self.wait(async {
            let client = self.pool.get().await?;
            client
                .execute(
                    &client.prepare_cached(WRITE_BEAT).await?,
                    &[&instance, &now_ms],
                )
                .await?;
            Ok(())
        })
    }

    fn first_beat(&self, instance: &str, now_ms: i64) -> Result<Option<i64>, StorageError> {
        self.wait(async {
            let mut client = self.pool.get().await?;
            let tx = client.transaction().await?;
            // Instances starting together take turns: the second sees the
            // first's beat.
            tx.execute(
                &tx.prepare_cached("SELECT pg_advisory_xact_lock($1)")
                    .await?,
                &[&HEARTBEAT_LOCK],
            )
            .await?;
            let last: Option<i64> = tx
                .query_one(
                    &tx.prepare_cached("SELECT MAX(at_ms) FROM heartbeats")
                        .await?,
                    &[],
                )
                .await?
                .get(0);
            tx.execute(&tx.prepare_cached(WRITE_BEAT).await?, &[&instance, &now_ms])
                .await?;
            tx.commit().await?;
            Ok(last)
        })
    }

    fn last_beat(&self) -> Result<Option<i64>, StorageError> {
        self.wait(async {
            let client = self.pool.get().await?;
            let row = client
                .query_one(
                    &client
                        .prepare_cached("SELECT MAX(at_ms) FROM heartbeats")
                        .await?,
                    &[],
                )
                .await?;
            Ok(row.get::<_, Option<i64>>(0))
        })
    }

    fn room_codes(&self) -> Result<Vec<String>, StorageError> {
        self.wait(async {
            let client = self.pool.get().await?;
            let rows = client
                .query(
                    &client
                        .prepare_cached("SELECT code FROM rooms ORDER BY code")
                        .await?,
                    &[],
                )
                .await?;
            Ok(rows.iter().map(|row| row.get(0)).collect())
        })
    }

    fn import_room(
        &self,
        room: &StoredRoom,
        events: &[(u64, String)],
    ) -> Result<bool, StorageError> {
        self.wait(async {
            let mut client = self.pool.get().await?;
            let tx = client.transaction().await?;
            if !insert_room(&tx, room, "", events).await? {
                return Ok(false);
            }
            tx.commit().await?;
            Ok(true)
        })
    }

    fn playing_rooms(&self) -> Result<Vec<String>, StorageError> {
        self.wait(async {
            let client = self.pool.get().await?;
            let rows = client
                .query(
                    &client
                        .prepare_cached(
                            "SELECT code FROM rooms WHERE status = 'playing' ORDER BY code",
                        )
                        .await?,
                    &[],
                )
                .await?;
            Ok(rows.iter().map(|row| row.get(0)).collect())
        })
    }

    fn mark_present(&self, codes: &[String], now_ms: i64) -> Result<(), StorageError> {
        if codes.is_empty() {
            return Ok(());
        }
        self.wait(async {
            let client = self.pool.get().await?;
            // Only rooms that exist: a mark for a room swept meanwhile is
            // dropped rather than refused by the foreign key.
            client
                .execute(
                    &client
                        .prepare_cached(
                            "INSERT INTO lobby_presence (code, seen_ms)
                             SELECT code, $2 FROM rooms WHERE code = ANY($1)
                             ON CONFLICT (code) DO UPDATE
                             SET seen_ms = GREATEST(lobby_presence.seen_ms, excluded.seen_ms)",
                        )
                        .await?,
                    &[&codes, &now_ms],
                )
                .await?;
            Ok(())
        })
    }

    fn mark_absent(&self, code: &str) -> Result<(), StorageError> {
        self.wait(async {
            let client = self.pool.get().await?;
            client
                .execute(
                    &client
                        .prepare_cached("DELETE FROM lobby_presence WHERE code = $1")
                        .await?,
                    &[&code],
                )
                .await?;
            Ok(())
        })
    }

    fn lobby(&self, limit: usize, present_since_ms: i64) -> Result<Vec<LobbyRoom>, StorageError> {
        self.wait(async {
            let client = self.pool.get().await?;
            let rows = client
                .query(
                    &client.prepare_cached("SELECT r.code, r.game, r.variant, r.status, r.ai_seat, r.ai_level, r.updated_at,
                            (SELECT COUNT(*) FROM moves m WHERE m.code = r.code),
                            (SELECT string_agg(s.seat, ' ') FROM seats s WHERE s.code = r.code),
                            c.initial_ms, c.increment_ms
                     FROM rooms r JOIN public_rooms p ON p.code = r.code
                     LEFT JOIN clocks c ON c.code = r.code
                     WHERE r.status = 'playing'
                        OR (r.status = 'waiting' AND EXISTS (SELECT 1 FROM lobby_presence l
                                WHERE l.code = r.code AND l.seen_ms >= $2))
                     ORDER BY r.updated_at DESC, r.code LIMIT $1").await?,
                    &[&(limit.min(i64::MAX as usize) as i64), &present_since_ms],
                )
                .await?;
            Ok(rows
                .iter()
                .map(|row| {
                    let ai_seat: Option<String> = row.get(4);
                    let ai_level: Option<String> = row.get(5);
                    let seats: Option<String> = row.get(8);
                    let mut seats: Vec<String> = seats
                        .unwrap_or_default()
                        .split_whitespace()
                        .map(str::to_string)
                        .collect();
                    seats.sort();
                    LobbyRoom {
                        code: row.get(0),
                        game: row.get(1),
                        variant: row.get(2),
                        status: row.get(3),
                        ai: ai_seat.zip(ai_level),
                        seats,
                        moves: row.get::<_, i64>(7) as u32,
                        updated_at: row.get(6),
                        clock: row
                            .get::<_, Option<i64>>(9)
                            .zip(row.get::<_, Option<i64>>(10)),
                    }
                })
                .collect())
        })
    }

    fn is_shared(&self) -> bool {
        true
    }

    fn subscribe(&self) -> Option<mpsc::UnboundedReceiver<Notice>> {
        let runtime = self.runtime.as_ref()?;
        let (sender, receiver) = mpsc::unbounded_channel();
        runtime.spawn(PostgresStorage::listen(self.config.clone(), sender));
        Some(receiver)
    }
}
