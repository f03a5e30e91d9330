//! Where rooms live between requests and across restarts.
//!
//! One interface, so that SQLite (the default: one file, one server) and
//! PostgreSQL (one database, several server instances) are interchangeable.
//! The SQL stays portable; every state change is one transaction that also
//! checks the room's version, so two requests racing on the same version
//! cannot both win, even from two instances.

mod postgres;
mod sqlite;

pub use postgres::{PostgresStorage, is_postgres_url};
pub use sqlite::SqliteStorage;
use std::sync::Arc;

/// Which database a server uses: a `postgres://` URL, or a SQLite file path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Database {
    Sqlite(std::path::PathBuf),
    Postgres(String),
}

impl Database {
    /// The URL's scheme selects PostgreSQL; anything else is a file path.
    pub fn parse(text: &str) -> Database {
        if is_postgres_url(text) {
            Database::Postgres(text.to_string())
        } else {
            Database::Sqlite(text.into())
        }
    }

    /// Opens (or creates) the database and brings its schema up to date.
    pub fn open(&self) -> Result<Arc<dyn Storage>, StorageError> {
        Ok(match self {
            Database::Sqlite(path) => Arc::new(SqliteStorage::open(path)?),
            Database::Postgres(url) => Arc::new(PostgresStorage::connect(url)?),
        })
    }

    /// For messages: the file, or the URL without its password.
    pub fn describe(&self) -> String {
        match self {
            Database::Sqlite(path) => path.display().to_string(),
            Database::Postgres(url) => redact_password(url),
        }
    }
}

/// `postgres://user:secret@host/db?password=x` as
/// `postgres://user:***@host/db?password=***`.
fn redact_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let (rest, query) = match rest.split_once('?') {
        Some((rest, query)) => (rest, Some(query)),
        None => (rest, None),
    };
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let authority = match authority.rsplit_once('@') {
        Some((user_info, host)) => match user_info.split_once(':') {
            Some((user, _)) => format!("{user}:***@{host}"),
            None => authority.to_string(),
        },
        None => authority.to_string(),
    };
    let query = query.map(|query| {
        let pairs: Vec<String> = query
            .split('&')
            .map(|pair| match pair.split_once('=') {
                Some((key, _)) if key.eq_ignore_ascii_case("password") => format!("{key}=***"),
                _ => pair.to_string(),
            })
            .collect();
        format!("?{}", pairs.join("&"))
    });
    format!("{scheme}://{authority}{path}{}", query.unwrap_or_default())
}

/// What `copy_rooms` did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CopyReport {
    pub copied: usize,
    /// Rooms whose code was already taken in the target (left as they were).
    pub skipped: usize,
}

/// Copies every room, with its moves, seats, clocks and event history, from
/// one database to another (and the last heartbeat, so that the downtime
/// of the move is credited to the clocks): moving a site from SQLite to
/// PostgreSQL. Rooms
/// whose code the target already has are skipped. `progress` hears the
/// rooms done and the total.
pub fn copy_rooms(
    from: &dyn Storage,
    to: &dyn Storage,
    mut progress: impl FnMut(usize, usize),
) -> Result<CopyReport, StorageError> {
    let codes = from.room_codes()?;
    let mut report = CopyReport::default();
    for (done, code) in codes.iter().enumerate() {
        // A room swept between the listing and now is simply not copied.
        if let Some(room) = from.load_room(code)? {
            let events = from.events_after(code, 0)?;
            if to.import_room(&room, &events)? {
                report.copied += 1;
            } else {
                report.skipped += 1;
            }
        }
        progress(done + 1, codes.len());
    }
    // The source's last heartbeat comes too: the clocks running there are
    // credited with the time the move took, not paused.
    if let Some(beat) = from.last_beat()? {
        to.beat("copied", beat)?;
    }
    Ok(report)
}

/// What another server instance changed (PostgreSQL notifications).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// Room `code` is now at `version`.
    Changed { code: String, version: u64 },
    /// An AI move became due somewhere: idle AI workers look for it.
    AiDue,
    /// Notifications may have been missed (the listening connection dropped):
    /// every room kept in memory must be re-read.
    Resync,
}

/// The order in which due AI moves of `lane` are claimed, fair between
/// addresses: by how many of the same address's moves in the lane are
/// searching or ahead in line, then the address served longest ago first
/// (round robin between addresses), then by waiting time. `now` is the SQL
/// parameter holding the current time in milliseconds; `j` is the job.
fn fair_order(now: &str, lane: Lane) -> String {
    format!(
        "(SELECT COUNT(*) FROM ai_jobs r WHERE r.address = j.address AND r.code <> j.code
              AND {}
              AND ((r.owner IS NOT NULL AND r.lease_until_ms > {now})
                   OR (r.lease_until_ms <= {now}
                       AND (r.due_ms < j.due_ms OR (r.due_ms = j.due_ms AND r.code < j.code))))),
         COALESCE((SELECT a.served_ms FROM ai_addresses a WHERE a.address = j.address), 0),
         j.due_ms, j.code",
        lane.filter("r")
    )
}

/// The two lines AI moves wait in: the cheap levels (fixed shallow depths,
/// milliseconds a move) have threads of their own, so that a beginner's
/// reply never waits behind a master's two-second searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lane {
    /// Beginner and medium.
    Quick,
    /// Strong, expert and master.
    Main,
}

impl Lane {
    /// The levels of the quick lane.
    pub const QUICK_LEVELS: [&'static str; 2] = ["beginner", "medium"];

    /// The SQL condition on job `alias` (a row of `ai_jobs`) that keeps this
    /// lane's moves.
    fn filter(self, alias: &str) -> String {
        let levels = Lane::QUICK_LEVELS
            .map(|level| format!("'{level}'"))
            .join(", ");
        let quick = format!(
            "EXISTS (SELECT 1 FROM rooms q WHERE q.code = {alias}.code AND q.ai_level IN ({levels}))"
        );
        match self {
            Lane::Quick => quick,
            Lane::Main => format!("NOT {quick}"),
        }
    }
}

/// How long an instance's heartbeat is kept once it stops beating.
const HEARTBEAT_MEMORY_MS: i64 = 24 * 3_600_000;

/// How long a creator's last mark of presence is kept: long after it
/// stopped counting (a few seconds), but not for ever.
const PRESENCE_MEMORY_MS: i64 = 3_600_000;

/// How long an address's last AI service is remembered for the fair order.
const SERVED_MEMORY_MS: i64 = 3_600_000;

/// Milliseconds since the epoch.
fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

fn hash_from(bytes: Vec<u8>) -> Result<[u8; 32], StorageError> {
    bytes
        .try_into()
        .map_err(|_| StorageError("a token hash is not 32 bytes".into()))
}

/// A storage failure (the disk, the database): the server answers 500.
#[derive(Debug, thiserror::Error)]
#[error("storage: {0}")]
pub struct StorageError(pub String);

impl From<rusqlite::Error> for StorageError {
    fn from(err: rusqlite::Error) -> StorageError {
        StorageError(err.to_string())
    }
}

/// A room as first written.
#[derive(Clone, Debug)]
pub struct NewRoom {
    pub code: String,
    pub game: String,
    pub variant: String,
    pub status: String,
    /// The AI's seat and level, for rooms against the engine.
    pub ai: Option<(String, String)>,
    /// Seats taken at creation: seat name and token hash.
    pub seats: Vec<(String, [u8; 32])>,
    /// Listed in the lobby.
    pub public: bool,
    pub clock: Option<StoredClock>,
    pub now: i64,
    /// The creator's address: the AI's moves are shared fairly between
    /// addresses.
    pub creator: String,
    /// When the AI is to move first: the job's time (ms since the epoch).
    pub ai_due: Option<i64>,
    /// Abalone's move limit, in plies; `None` for the game's own rules.
    pub move_limit: Option<u32>,
}

impl NewRoom {
    /// The room as stored at version 1.
    fn stored(&self) -> StoredRoom {
        StoredRoom {
            code: self.code.clone(),
            game: self.game.clone(),
            variant: self.variant.clone(),
            version: 1,
            status: self.status.clone(),
            winner: None,
            reason: None,
            ai: self.ai.clone(),
            rematch: None,
            created_at: self.now,
            updated_at: self.now,
            seats: self.seats.clone(),
            moves: Vec::new(),
            offer: None,
            log: Vec::new(),
            public: self.public,
            clock: self.clock.clone(),
            move_clocks: Vec::new(),
            move_limit: self.move_limit,
        }
    }
}

/// An AI move claimed by one instance (see `Storage::claim_ai`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AiJob {
    pub code: String,
    /// The room's version the move answers.
    pub version: u64,
    /// Earlier claims of this move that did not end it.
    pub attempts: u32,
    /// Moves waiting for a thread when this one was claimed.
    pub waiting: u32,
}

/// A room's clocks as stored (see `crate::clock`): milliseconds, and the
/// running side's start in milliseconds since the Unix epoch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredClock {
    pub initial_ms: i64,
    pub increment_ms: i64,
    pub white_ms: i64,
    pub black_ms: i64,
    pub running: Option<String>,
    pub since_ms: i64,
}

/// A room as read back.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredRoom {
    pub code: String,
    pub game: String,
    pub variant: String,
    pub version: u64,
    pub status: String,
    pub winner: Option<String>,
    pub reason: Option<String>,
    pub ai: Option<(String, String)>,
    pub rematch: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
    pub seats: Vec<(String, [u8; 32])>,
    pub moves: Vec<String>,
    /// The pending offer: its kind (`draw`, `takeback`) and the seat that made it.
    pub offer: Option<(String, String)>,
    /// The room's history notes (offers, takebacks), oldest first.
    pub log: Vec<String>,
    /// Listed in the lobby.
    pub public: bool,
    pub clock: Option<StoredClock>,
    /// The clocks after each move that has them: ply, White's, Black's.
    pub move_clocks: Vec<(u32, [i64; 2])>,
    /// Abalone's move limit, in plies; `None` for the game's own rules.
    pub move_limit: Option<u32>,
}

/// A public room as the lobby lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct LobbyRoom {
    pub code: String,
    pub game: String,
    pub variant: String,
    pub status: String,
    pub ai: Option<(String, String)>,
    /// The seats taken by people.
    pub seats: Vec<String>,
    pub moves: u32,
    pub updated_at: i64,
    /// The time control: initial and increment, in milliseconds.
    pub clock: Option<(i64, i64)>,
}

/// One part of a state change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// A seat is taken by the holder of this token.
    Seat { seat: String, token_hash: [u8; 32] },
    /// A move, the `ply`-th of the game (1-based).
    Move { ply: u32, text: String },
    /// The room's status and result.
    Status {
        status: String,
        winner: Option<String>,
        reason: Option<String>,
    },
    /// The code of the rematch room.
    Rematch { code: String },
    /// The pending offer (kind and seat), or none.
    Offer { offer: Option<(String, String)> },
    /// A takeback: only the first `keep` moves remain.
    Takeback { keep: u32 },
    /// A line of the room's history.
    Note { text: String },
    /// Both clocks (White, Black) as they stood once move `ply` was played:
    /// a takeback sets the clocks back to them.
    MoveClock { ply: u32, clocks: [i64; 2] },
    /// The clocks after the change.
    Clock(StoredClock),
    /// Whether the AI is to move after the change: `Some(ms)` records (or
    /// renews) its job, due then; `None` drops any.
    AiTurn { due_ms: Option<i64> },
}

/// The storage interface. Calls block (run them off the async runtime).
pub trait Storage: Send + Sync + 'static {
    /// Writes a new room with version 1 and its first event. `Ok(false)` if the
    /// code is already taken.
    fn create_room(&self, room: &NewRoom, event: &str) -> Result<bool, StorageError>;

    fn load_room(&self, code: &str) -> Result<Option<StoredRoom>, StorageError>;

    /// The room's current version and creation time (`None`: no such room):
    /// a cheap freshness check for a room kept in memory.
    fn version(&self, code: &str) -> Result<Option<(u64, i64)>, StorageError>;

    /// Applies `changes` and the event of the new version `expected + 1`, only if
    /// the room is still at version `expected`. `Ok(false)`: it was not (someone
    /// else changed the room first), and nothing was written.
    fn commit(
        &self,
        code: &str,
        expected: u64,
        changes: &[Change],
        event: &str,
        now: i64,
    ) -> Result<bool, StorageError>;

    /// The events after `version`, oldest first.
    fn events_after(&self, code: &str, version: u64) -> Result<Vec<(u64, String)>, StorageError>;

    /// Deletes rooms untouched since `before`; returns their codes.
    fn sweep(&self, before: i64) -> Result<Vec<String>, StorageError>;

    /// Rooms still being played (to resume AI seats after a restart).
    fn playing_rooms(&self) -> Result<Vec<String>, StorageError>;

    /// Public rooms being played, and those waiting for an opponent whose
    /// creator's page was connected at `present_since_ms` or later (a room
    /// whose creator has gone is no game to join); the most recently active
    /// first, at most `limit`.
    fn lobby(&self, limit: usize, present_since_ms: i64) -> Result<Vec<LobbyRoom>, StorageError>;

    /// Records that the creators of these rooms have their page connected at
    /// `now_ms` (each instance writes it for the streams it holds).
    fn mark_present(&self, codes: &[String], now_ms: i64) -> Result<(), StorageError>;

    /// The creator of `code` closed their page: the room leaves the lobby at
    /// once, not when the last mark grows old.
    fn mark_absent(&self, code: &str) -> Result<(), StorageError>;

    /// Claims the next AI move in the fair order (round robin between the
    /// addresses that wait, each address's moves oldest first), for
    /// `lease_ms`: no other instance takes it until the lease runs out, so a
    /// claim whose instance died is taken again then.
    fn claim_ai(
        &self,
        owner: &str,
        now_ms: i64,
        lease_ms: i64,
        lane: Lane,
    ) -> Result<Option<AiJob>, StorageError>;

    /// Gives a claimed move back, to be claimed again from `at_ms` (a
    /// failed search or commit is retried, never dropped).
    /// Only `owner`'s claim is given back: one whose lease ran out and was
    /// taken by another instance is left alone.
    fn retry_ai(
        &self,
        code: &str,
        version: u64,
        owner: &str,
        at_ms: i64,
    ) -> Result<(), StorageError>;

    /// Gives back every claim of `owner` (an instance stopping cleanly), or
    /// every claim (`None`: a single instance starting, whose earlier run
    /// cannot be searching any more).
    fn release_ai(&self, owner: Option<&str>) -> Result<usize, StorageError>;

    /// Drops a claimed move that no longer answers the room (it moved on
    /// to another version since).
    fn drop_ai(&self, code: &str, version: u64) -> Result<(), StorageError>;

    /// Records the AI's move as due if the room is at `version` and has no
    /// job yet (rooms from before jobs existed, after an upgrade).
    fn ensure_ai(&self, code: &str, version: u64, now_ms: i64) -> Result<(), StorageError>;

    /// The rooms whose AI move waits for a thread of `lane`, in the order
    /// they will be claimed.
    fn ai_queue(&self, now_ms: i64, lane: Lane) -> Result<Vec<String>, StorageError>;

    /// Rooms made by `creator` (an address, as `NewRoom::creator`) that are
    /// being played, or waiting for an opponent and changed since
    /// `waiting_since` (seconds): the per-address cap on live rooms. A
    /// waiting room nobody joins cannot be ended, so it stops counting.
    fn live_rooms(&self, creator: &str, waiting_since: i64) -> Result<u64, StorageError>;

    /// Records that `instance` is alive at `now_ms`: after a crash, the last
    /// beat tells how long the server was down.
    fn beat(&self, instance: &str, now_ms: i64) -> Result<(), StorageError>;

    /// The first beat of an instance's run: records it and returns the
    /// latest beat of any instance before it, in one step, so that of
    /// instances starting together after an outage only the first finds
    /// the outage (and credits the clocks once).
    fn first_beat(&self, instance: &str, now_ms: i64) -> Result<Option<i64>, StorageError>;

    /// The latest heartbeat of any instance (`None`: none ever beat).
    fn last_beat(&self) -> Result<Option<i64>, StorageError>;

    /// Every room's code (to copy a database).
    fn room_codes(&self) -> Result<Vec<String>, StorageError>;

    /// Writes a room exactly as read from another database, with its events.
    /// `Ok(false)`: the code is taken here, and nothing was written.
    fn import_room(
        &self,
        room: &StoredRoom,
        events: &[(u64, String)],
    ) -> Result<bool, StorageError>;

    /// Whether other server instances write to the same rooms, so that a
    /// room kept in memory must be checked against storage before use.
    fn is_shared(&self) -> bool {
        false
    }

    /// The changes made by other instances, as they are committed (`None`:
    /// there are no other instances).
    fn subscribe(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<Notice>> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scheme_selects_the_backend_and_passwords_stay_out_of_messages() {
        assert_eq!(
            Database::parse("plateau.db"),
            Database::Sqlite("plateau.db".into())
        );
        let url = "postgres://plateau:s3cret@db.example:5432/plateau";
        assert_eq!(Database::parse(url), Database::Postgres(url.into()));
        assert!(matches!(
            Database::parse("postgresql://localhost/x"),
            Database::Postgres(_)
        ));
        let shown = Database::parse(url).describe();
        assert_eq!(shown, "postgres://plateau:***@db.example:5432/plateau");
        assert!(!shown.contains("s3cret"));
        assert_eq!(
            Database::parse("postgres://localhost/x").describe(),
            "postgres://localhost/x"
        );
        assert_eq!(
            Database::parse("postgres://u@h/db?sslmode=disable&password=hunter2").describe(),
            "postgres://u@h/db?sslmode=disable&password=***"
        );
    }
}
