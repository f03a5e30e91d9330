//! SQLite storage: one file, write-ahead log, fully synchronous commits (an
//! acknowledged move survives `kill -9` and power loss alike).

use super::{
    AiJob, Change, Lane, LobbyRoom, NewRoom, Storage, StorageError, StoredClock, StoredRoom,
};
use rusqlite::{Connection, OptionalExtension, params};
use std::path::Path;
use std::sync::Mutex;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    version INTEGER NOT NULL,
    status TEXT NOT NULL,
    winner TEXT,
    reason TEXT,
    ai_seat TEXT,
    ai_level TEXT,
    rematch TEXT,
    move_limit INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS rooms_updated ON rooms (updated_at);
CREATE TABLE IF NOT EXISTS seats (
    code TEXT NOT NULL,
    seat TEXT NOT NULL,
    token_hash BLOB NOT NULL,
    PRIMARY KEY (code, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    code TEXT NOT NULL,
    ply INTEGER NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (code, ply)
);
CREATE TABLE IF NOT EXISTS events (
    code TEXT NOT NULL,
    version INTEGER NOT NULL,
    payload TEXT NOT NULL,
    PRIMARY KEY (code, version)
);
CREATE TABLE IF NOT EXISTS clocks (
    code TEXT PRIMARY KEY,
    initial_ms INTEGER NOT NULL,
    increment_ms INTEGER NOT NULL,
    white_ms INTEGER NOT NULL,
    black_ms INTEGER NOT NULL,
    running TEXT,
    since_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS public_rooms (
    code TEXT PRIMARY KEY
);
CREATE TABLE IF NOT EXISTS offers (
    code TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    seat TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS ai_jobs (
    code TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    address TEXT NOT NULL,
    due_ms INTEGER NOT NULL,
    owner TEXT,
    lease_until_ms INTEGER NOT NULL,
    attempts INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS ai_jobs_address ON ai_jobs (address);
CREATE TABLE IF NOT EXISTS ai_addresses (
    address TEXT PRIMARY KEY,
    served_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS notes (
    code TEXT NOT NULL,
    seq INTEGER NOT NULL,
    version INTEGER NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (code, seq)
);
CREATE TABLE IF NOT EXISTS move_clocks (
    code TEXT NOT NULL,
    ply INTEGER NOT NULL,
    white_ms INTEGER NOT NULL,
    black_ms INTEGER NOT NULL,
    PRIMARY KEY (code, ply)
);
CREATE TABLE IF NOT EXISTS heartbeats (
    instance TEXT PRIMARY KEY,
    at_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS lobby_presence (
    code TEXT PRIMARY KEY,
    seen_ms INTEGER NOT NULL
);
";

/// Rooms in one SQLite file.
pub struct SqliteStorage {
    connection: Mutex<Connection>,
}

impl SqliteStorage {
    /// Opens (or creates) the database file.
    pub fn open(path: &Path) -> Result<SqliteStorage, StorageError> {
        let connection = Connection::open(path)?;
        SqliteStorage::setup(connection)
    }

    /// A private in-memory database (tests).
    pub fn in_memory() -> Result<SqliteStorage, StorageError> {
        SqliteStorage::setup(Connection::open_in_memory()?)
    }

    fn setup(connection: Connection) -> Result<SqliteStorage, StorageError> {
        connection.pragma_update(None, "journal_mode", "WAL")?;
        connection.pragma_update(None, "synchronous", "FULL")?;
        connection.pragma_update(None, "foreign_keys", "ON")?;
        connection.busy_timeout(std::time::Duration::from_secs(5))?;
        connection.execute_batch(SCHEMA)?;
        // Files from before the AI's fair share know no room creators.
        let has_creator = connection
            .prepare("SELECT 1 FROM pragma_table_info('rooms') WHERE name = 'creator'")?
            .exists([])?;
        if !has_creator {
            connection
                .execute_batch("ALTER TABLE rooms ADD COLUMN creator TEXT NOT NULL DEFAULT ''")?;
        }
        connection
            .execute_batch("CREATE INDEX IF NOT EXISTS rooms_creator ON rooms (creator, status)")?;
        // Files from before Abalone's move limit have none.
        let has_move_limit = connection
            .prepare("SELECT 1 FROM pragma_table_info('rooms') WHERE name = 'move_limit'")?
            .exists([])?;
        if !has_move_limit {
            connection.execute_batch("ALTER TABLE rooms ADD COLUMN move_limit INTEGER")?;
        }
        Ok(SqliteStorage {
            connection: Mutex::new(connection),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.connection.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn write_clock(
    connection: &Connection,
    code: &str,
    clock: &StoredClock,
) -> Result<(), StorageError> {
    connection.execute(
        "INSERT INTO clocks (code, initial_ms, increment_ms, white_ms, black_ms, running, since_ms)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
         ON CONFLICT (code) DO UPDATE SET initial_ms = ?2, increment_ms = ?3, white_ms = ?4,
             black_ms = ?5, running = ?6, since_ms = ?7",
        params![
            code,
            clock.initial_ms,
            clock.increment_ms,
            clock.white_ms,
            clock.black_ms,
            clock.running,
            clock.since_ms
        ],
    )?;
    Ok(())
}

/// Writes a whole room and its events; `false` if the code is taken.
fn insert_room(
    connection: &Connection,
    room: &StoredRoom,
    creator: &str,
    events: &[(u64, String)],
) -> Result<bool, StorageError> {
    let inserted = connection.execute(
        "INSERT INTO rooms (code, game, variant, version, status, winner, reason, ai_seat,
                            ai_level, rematch, created_at, updated_at, creator, move_limit)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)
         ON CONFLICT (code) DO NOTHING",
        params![
            room.code,
            room.game,
            room.variant,
            room.version as i64,
            room.status,
            room.winner,
            room.reason,
            room.ai.as_ref().map(|a| &a.0),
            room.ai.as_ref().map(|a| &a.1),
            room.rematch,
            room.created_at,
            room.updated_at,
            creator,
            room.move_limit
        ],
    )?;
    if inserted == 0 {
        return Ok(false);
    }
    for (seat, hash) in &room.seats {
        connection.execute(
            "INSERT INTO seats (code, seat, token_hash) VALUES (?1, ?2, ?3)",
            params![room.code, seat, &hash[..]],
        )?;
    }
    for (ply, text) in room.moves.iter().enumerate() {
        connection.execute(
            "INSERT INTO moves (code, ply, text) VALUES (?1, ?2, ?3)",
            params![room.code, ply as i64 + 1, text],
        )?;
    }
    for (ply, [white, black]) in &room.move_clocks {
        connection.execute(
            "INSERT INTO move_clocks (code, ply, white_ms, black_ms) VALUES (?1, ?2, ?3, ?4)",
            params![room.code, ply, white, black],
        )?;
    }
    if let Some((kind, seat)) = &room.offer {
        connection.execute(
            "INSERT INTO offers (code, kind, seat) VALUES (?1, ?2, ?3)",
            params![room.code, kind, seat],
        )?;
    }
    for (seq, text) in room.log.iter().enumerate() {
        connection.execute(
            "INSERT INTO notes (code, seq, version, text) VALUES (?1, ?2, ?3, ?4)",
            params![room.code, seq as i64 + 1, room.version as i64, text],
        )?;
    }
    if room.public {
        connection.execute(
            "INSERT INTO public_rooms (code) VALUES (?1)",
            params![room.code],
        )?;
    }
    if let Some(clock) = &room.clock {
        write_clock(connection, &room.code, clock)?;
    }
    for (version, payload) in events {
        connection.execute(
            "INSERT INTO events (code, version, payload) VALUES (?1, ?2, ?3)",
            params![room.code, *version as i64, payload],
        )?;
    }
    Ok(true)
}

fn write_beat(connection: &Connection, instance: &str, now_ms: i64) -> Result<(), StorageError> {
    connection.execute(
        "INSERT INTO heartbeats (instance, at_ms) VALUES (?1, ?2)
         ON CONFLICT (instance) DO UPDATE SET at_ms = excluded.at_ms",
        params![instance, now_ms],
    )?;
    Ok(())
}

/// Records the AI's move as due (at the room's current version), or drops it.
fn set_ai_turn(
    connection: &Connection,
    code: &str,
    due_ms: Option<i64>,
) -> Result<(), StorageError> {
    match due_ms {
        Some(due_ms) => connection.execute(
            "INSERT INTO ai_jobs (code, version, address, due_ms, owner, lease_until_ms, attempts)
             SELECT code, version, creator, ?2, NULL, 0, 0 FROM rooms WHERE code = ?1
             ON CONFLICT (code) DO UPDATE SET version = excluded.version, due_ms = excluded.due_ms,
                 owner = NULL, lease_until_ms = 0, attempts = 0",
            params![code, due_ms],
        )?,
        None => connection.execute("DELETE FROM ai_jobs WHERE code = ?1", params![code])?,
    };
    Ok(())
}

impl Storage for SqliteStorage {
    fn create_room(&self, room: &NewRoom, event: &str) -> Result<bool, StorageError> {
        let mut connection = self.lock();
        let tx = connection.transaction()?;
        if !insert_room(
            &tx,
            &room.stored(),
            &room.creator,
            &[(1, event.to_string())],
        )? {
            return Ok(false);
        }
        if let Some(due_ms) = room.ai_due {
            set_ai_turn(&tx, &room.code, Some(due_ms))?;
        }
        tx.commit()?;
        Ok(true)
    }

    fn load_room(&self, code: &str) -> Result<Option<StoredRoom>, StorageError> {
        let connection = self.lock();
        let room = connection
            .query_row(
                "SELECT code, game, variant, version, status, winner, reason, ai_seat, ai_level,
                        rematch, created_at, updated_at, move_limit FROM rooms WHERE code = ?1",
                params![code],
                |row| {
                    let ai_seat: Option<String> = row.get(7)?;
                    let ai_level: Option<String> = row.get(8)?;
                    Ok(StoredRoom {
                        code: row.get(0)?,
                        game: row.get(1)?,
                        variant: row.get(2)?,
                        version: row.get::<_, i64>(3)? as u64,
                        status: row.get(4)?,
                        winner: row.get(5)?,
                        reason: row.get(6)?,
                        ai: ai_seat.zip(ai_level),
                        rematch: row.get(9)?,
                        created_at: row.get(10)?,
                        updated_at: row.get(11)?,
                        seats: Vec::new(),
                        moves: Vec::new(),
                        offer: None,
                        log: Vec::new(),
                        public: false,
                        clock: None,
                        move_clocks: Vec::new(),
                        move_limit: row.get(12)?,
                    })
                },
            )
            .optional()?;
        let Some(mut room) = room else {
            return Ok(None);
        };
        let mut seats = connection
            .prepare("SELECT seat, token_hash FROM seats WHERE code = ?1 ORDER BY seat")?;
        let rows = seats.query_map(params![code], |row| {
            Ok((row.get::<_, String>(0)?, row.get::<_, Vec<u8>>(1)?))
        })?;
        for row in rows {
            let (seat, hash) = row?;
            room.seats.push((seat, super::hash_from(hash)?));
        }
        let mut moves =
            connection.prepare("SELECT text FROM moves WHERE code = ?1 ORDER BY ply")?;
        let rows = moves.query_map(params![code], |row| row.get::<_, String>(0))?;
        for row in rows {
            room.moves.push(row?);
        }
        room.offer = connection
            .query_row(
                "SELECT kind, seat FROM offers WHERE code = ?1",
                params![code],
                |row| Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?)),
            )
            .optional()?;
        room.clock = connection
            .query_row(
                "SELECT initial_ms, increment_ms, white_ms, black_ms, running, since_ms
                 FROM clocks WHERE code = ?1",
                params![code],
                |row| {
                    Ok(StoredClock {
                        initial_ms: row.get(0)?,
                        increment_ms: row.get(1)?,
                        white_ms: row.get(2)?,
                        black_ms: row.get(3)?,
                        running: row.get(4)?,
                        since_ms: row.get(5)?,
                    })
                },
            )
            .optional()?;
        room.public = connection
            .query_row(
                "SELECT 1 FROM public_rooms WHERE code = ?1",
                params![code],
                |_| Ok(()),
            )
            .optional()?
            .is_some();
        let mut clocks = connection.prepare(
            "SELECT ply, white_ms, black_ms FROM move_clocks WHERE code = ?1 ORDER BY ply",
        )?;
        let rows = clocks.query_map(params![code], |row| {
            Ok((row.get::<_, u32>(0)?, [row.get(1)?, row.get(2)?]))
        })?;
        for row in rows {
            room.move_clocks.push(row?);
        }
        let mut notes =
            connection.prepare("SELECT text FROM notes WHERE code = ?1 ORDER BY seq")?;
        let rows = notes.query_map(params![code], |row| row.get::<_, String>(0))?;
        for row in rows {
            room.log.push(row?);
        }
        Ok(Some(room))
    }

    fn commit(
        &self,
        code: &str,
        expected: u64,
        changes: &[Change],
        event: &str,
        now: i64,
    ) -> Result<bool, StorageError> {
        let mut connection = self.lock();
        let tx = connection.transaction()?;
        let bumped = tx.execute(
            "UPDATE rooms SET version = version + 1, updated_at = ?3 WHERE code = ?1 AND version = ?2",
            params![code, expected as i64, now],
        )?;
        if bumped == 0 {
            return Ok(false);
        }
        for change in changes {
            match change {
                Change::Seat { seat, token_hash } => {
                    tx.execute(
                        "INSERT INTO seats (code, seat, token_hash) VALUES (?1, ?2, ?3)",
                        params![code, seat, &token_hash[..]],
                    )?;
                }
                Change::Move { ply, text } => {
                    tx.execute(
                        "INSERT INTO moves (code, ply, text) VALUES (?1, ?2, ?3)",
                        params![code, ply, text],
                    )?;
                }
                Change::Status {
                    status,
                    winner,
                    reason,
                } => {
                    tx.execute(
                        "UPDATE rooms SET status = ?2, winner = ?3, reason = ?4 WHERE code = ?1",
                        params![code, status, winner, reason],
                    )?;
                }
                Change::Rematch { code: rematch } => {
                    tx.execute(
                        "UPDATE rooms SET rematch = ?2 WHERE code = ?1",
                        params![code, rematch],
                    )?;
                }
                Change::Offer { offer } => {
                    tx.execute("DELETE FROM offers WHERE code = ?1", params![code])?;
                    if let Some((kind, seat)) = offer {
                        tx.execute(
                            "INSERT INTO offers (code, kind, seat) VALUES (?1, ?2, ?3)",
                            params![code, kind, seat],
                        )?;
                    }
                }
                Change::Takeback { keep } => {
                    tx.execute(
                        "DELETE FROM moves WHERE code = ?1 AND ply > ?2",
                        params![code, keep],
                    )?;
                    tx.execute(
                        "DELETE FROM move_clocks WHERE code = ?1 AND ply > ?2",
                        params![code, keep],
                    )?;
                }
                Change::MoveClock {
                    ply,
                    clocks: [white, black],
                } => {
                    tx.execute(
                        "INSERT INTO move_clocks (code, ply, white_ms, black_ms)
                         VALUES (?1, ?2, ?3, ?4)
                         ON CONFLICT (code, ply) DO UPDATE SET white_ms = ?3, black_ms = ?4",
                        params![code, ply, white, black],
                    )?;
                }
                Change::Clock(clock) => write_clock(&tx, code, clock)?,
                Change::AiTurn { due_ms } => set_ai_turn(&tx, code, *due_ms)?,
                Change::Note { text } => {
                    tx.execute(
                        "INSERT INTO notes (code, seq, version, text)
                         SELECT ?1, COALESCE(MAX(seq), 0) + 1, ?2, ?3 FROM notes WHERE code = ?1",
                        params![code, (expected + 1) as i64, text],
                    )?;
                }
            }
        }
        tx.execute(
            "INSERT INTO events (code, version, payload) VALUES (?1, ?2, ?3)",
            params![code, (expected + 1) as i64, event],
        )?;
        tx.commit()?;
        Ok(true)
    }

    fn version(&self, code: &str) -> Result<Option<(u64, i64)>, StorageError> {
        let connection = self.lock();
        let version = connection
            .query_row(
                "SELECT version, created_at FROM rooms WHERE code = ?1",
                params![code],
                |row| Ok((row.get::<_, i64>(0)? as u64, row.get::<_, i64>(1)?)),
            )
            .optional()?;
        Ok(version)
    }

    fn events_after(&self, code: &str, version: u64) -> Result<Vec<(u64, String)>, StorageError> {
        let connection = self.lock();
        let mut statement = connection.prepare(
            "SELECT version, payload FROM events WHERE code = ?1 AND version > ?2 ORDER BY version",
        )?;
        let rows = statement.query_map(params![code, version as i64], |row| {
            Ok((row.get::<_, i64>(0)? as u64, row.get::<_, String>(1)?))
        })?;
        rows.collect::<Result<_, _>>().map_err(StorageError::from)
    }

    fn sweep(&self, before: i64) -> Result<Vec<String>, StorageError> {
        let mut connection = self.lock();
        let tx = connection.transaction()?;
        let codes: Vec<String> = {
            let mut statement = tx.prepare("SELECT code FROM rooms WHERE updated_at < ?1")?;
            let rows = statement.query_map(params![before], |row| row.get::<_, String>(0))?;
            rows.collect::<Result<_, _>>()?
        };
        tx.execute(
            "DELETE FROM ai_addresses WHERE served_ms < ?1",
            params![super::now_ms() - super::SERVED_MEMORY_MS],
        )?;
        tx.execute(
            "DELETE FROM heartbeats WHERE at_ms < ?1",
            params![super::now_ms() - super::HEARTBEAT_MEMORY_MS],
        )?;
        tx.execute(
            "DELETE FROM lobby_presence WHERE seen_ms < ?1",
            params![super::now_ms() - super::PRESENCE_MEMORY_MS],
        )?;
        for code in &codes {
            for table in [
                "seats",
                "moves",
                "events",
                "offers",
                "notes",
                "move_clocks",
                "ai_jobs",
                "lobby_presence",
                "public_rooms",
                "clocks",
                "rooms",
            ] {
                tx.execute(
                    &format!("DELETE FROM {table} WHERE code = ?1"),
                    params![code],
                )?;
            }
        }
        tx.commit()?;
        Ok(codes)
    }

    fn claim_ai(
        &self,
        owner: &str,
        now_ms: i64,
        lease_ms: i64,
        lane: Lane,
    ) -> Result<Option<AiJob>, StorageError> {
        let mut connection = self.lock();
        let tx = connection.transaction()?;
        let job = tx
            .query_row(
                &format!(
                    "SELECT j.code, j.version, j.attempts, j.address FROM ai_jobs j
                     WHERE j.lease_until_ms <= ?1 AND {} ORDER BY {} LIMIT 1",
                    lane.filter("j"),
                    super::fair_order("?1", lane)
                ),
                params![now_ms],
                |row| {
                    Ok((
                        AiJob {
                            code: row.get(0)?,
                            version: row.get::<_, i64>(1)? as u64,
                            attempts: row.get::<_, i64>(2)? as u32,
                            waiting: 0,
                        },
                        row.get::<_, String>(3)?,
                    ))
                },
            )
            .optional()?;
        let Some((mut job, address)) = job else {
            return Ok(None);
        };
        tx.execute(
            "INSERT INTO ai_addresses (address, served_ms) VALUES (?1, ?2)
             ON CONFLICT (address) DO UPDATE SET served_ms = excluded.served_ms",
            params![address, now_ms],
        )?;
        tx.execute(
            "UPDATE ai_jobs SET owner = ?2, lease_until_ms = ?3, attempts = attempts + 1 WHERE code = ?1",
            params![job.code, owner, now_ms.saturating_add(lease_ms)],
        )?;
        job.waiting = tx.query_row(
            &format!(
                "SELECT COUNT(*) FROM ai_jobs j WHERE j.lease_until_ms <= ?1 AND {}",
                lane.filter("j")
            ),
            params![now_ms],
            |row| row.get::<_, i64>(0),
        )? as u32;
        tx.commit()?;
        Ok(Some(job))
    }

    fn retry_ai(
        &self,
        code: &str,
        version: u64,
        owner: &str,
        at_ms: i64,
    ) -> Result<(), StorageError> {
        self.lock().execute(
            "UPDATE ai_jobs SET owner = NULL, lease_until_ms = ?4
             WHERE code = ?1 AND version = ?2 AND owner = ?3",
            params![code, version as i64, owner, at_ms],
        )?;
        Ok(())
    }

    fn release_ai(&self, owner: Option<&str>) -> Result<usize, StorageError> {
        let released = self.lock().execute(
            "UPDATE ai_jobs SET owner = NULL, lease_until_ms = 0
             WHERE owner IS NOT NULL AND (?1 IS NULL OR owner = ?1)",
            params![owner],
        )?;
        Ok(released)
    }

    fn drop_ai(&self, code: &str, version: u64) -> Result<(), StorageError> {
        self.lock().execute(
            "DELETE FROM ai_jobs WHERE code = ?1 AND version = ?2",
            params![code, version as i64],
        )?;
        Ok(())
    }

    fn ensure_ai(&self, code: &str, version: u64, now_ms: i64) -> Result<(), StorageError> {
        self.lock().execute(
            "INSERT INTO ai_jobs (code, version, address, due_ms, owner, lease_until_ms, attempts)
             SELECT code, version, creator, ?3, NULL, 0, 0 FROM rooms WHERE code = ?1 AND version = ?2
             ON CONFLICT (code) DO NOTHING",
            params![code, version as i64, now_ms],
        )?;
        Ok(())
    }

    fn ai_queue(&self, now_ms: i64, lane: Lane) -> Result<Vec<String>, StorageError> {
        let connection = self.lock();
        let mut statement = connection.prepare(&format!(
            "SELECT j.code FROM ai_jobs j WHERE j.lease_until_ms <= ?1 AND {} ORDER BY {}",
            lane.filter("j"),
            super::fair_order("?1", lane)
        ))?;
        let rows = statement.query_map(params![now_ms], |row| row.get::<_, String>(0))?;
        rows.collect::<Result<_, _>>().map_err(StorageError::from)
    }

    fn live_rooms(&self, creator: &str, waiting_since: i64) -> Result<u64, StorageError> {
        let count: i64 = self.lock().query_row(
            "SELECT COUNT(*) FROM rooms WHERE creator = ?1
                AND (status = 'playing' OR (status = 'waiting' AND updated_at >= ?2))",
            params![creator, waiting_since],
            |row| row.get(0),
        )?;
        Ok(count as u64)
    }

    fn beat(&self, instance: &str, now_ms: i64) -> Result<(), StorageError> {
        write_beat(&self.lock(), instance, now_ms)
    }

    fn first_beat(&self, instance: &str, now_ms: i64) -> Result<Option<i64>, StorageError> {
        let mut connection = self.lock();
        let tx = connection.transaction()?;
        let last = tx.query_row("SELECT MAX(at_ms) FROM heartbeats", [], |row| row.get(0))?;
        write_beat(&tx, instance, now_ms)?;
        tx.commit()?;
        Ok(last)
    }

    fn last_beat(&self) -> Result<Option<i64>, StorageError> {
        let last = self
            .lock()
            .query_row("SELECT MAX(at_ms) FROM heartbeats", [], |row| row.get(0))?;
        Ok(last)
    }

    fn room_codes(&self) -> Result<Vec<String>, StorageError> {
        let connection = self.lock();
        let mut statement = connection.prepare("SELECT code FROM rooms ORDER BY code")?;
        let rows = statement.query_map([], |row| row.get::<_, String>(0))?;
        rows.collect::<Result<_, _>>().map_err(StorageError::from)
    }

    fn import_room(
        &self,
        room: &StoredRoom,
        events: &[(u64, String)],
    ) -> Result<bool, StorageError> {
        let mut connection = self.lock();
        let tx = connection.transaction()?;
        if !insert_room(&tx, room, "", events)? {
            return Ok(false);
        }
        tx.commit()?;
        Ok(true)
    }

    fn playing_rooms(&self) -> Result<Vec<String>, StorageError> {
        let connection = self.lock();
        let mut statement =
            connection.prepare("SELECT code FROM rooms WHERE status = 'playing'")?;
        let rows = statement.query_map([], |row| row.get::<_, String>(0))?;
        rows.collect::<Result<_, _>>().map_err(StorageError::from)
    }

    fn mark_present(&self, codes: &[String], now_ms: i64) -> Result<(), StorageError> {
        let mut connection = self.lock();
        let tx = connection.transaction()?;
        {
            let mut statement = tx.prepare_cached(
                "INSERT INTO lobby_presence (code, seen_ms) VALUES (?1, ?2)
                 ON CONFLICT (code) DO UPDATE SET seen_ms = MAX(seen_ms, excluded.seen_ms)",
            )?;
            for code in codes {
                statement.execute(params![code, now_ms])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    fn mark_absent(&self, code: &str) -> Result<(), StorageError> {
        self.lock()
            .execute("DELETE FROM lobby_presence WHERE code = ?1", params![code])?;
        Ok(())
    }

    fn lobby(&self, limit: usize, present_since_ms: i64) -> Result<Vec<LobbyRoom>, StorageError> {
        let connection = self.lock();
        let mut statement = connection.prepare(
            "SELECT r.code, r.game, r.variant, r.status, r.ai_seat, r.ai_level, r.updated_at,
                    (SELECT COUNT(*) FROM moves m WHERE m.code = r.code),
                    (SELECT GROUP_CONCAT(s.seat, ' ') FROM seats s WHERE s.code = r.code),
                    c.initial_ms, c.increment_ms
             FROM rooms r JOIN public_rooms p ON p.code = r.code
             LEFT JOIN clocks c ON c.code = r.code
             WHERE r.status = 'playing'
                OR (r.status = 'waiting' AND EXISTS (SELECT 1 FROM lobby_presence l
                        WHERE l.code = r.code AND l.seen_ms >= ?2))
             ORDER BY r.updated_at DESC, r.code LIMIT ?1",
        )?;
        let rows = statement.query_map(params![limit as i64, present_since_ms], |row| {
            let ai_seat: Option<String> = row.get(4)?;
            let ai_level: Option<String> = row.get(5)?;
            let seats: Option<String> = row.get(8)?;
            let mut seats: Vec<String> = seats
                .unwrap_or_default()
                .split_whitespace()
                .map(str::to_string)
                .collect();
            seats.sort();
            Ok(LobbyRoom {
                code: row.get(0)?,
                game: row.get(1)?,
                variant: row.get(2)?,
                status: row.get(3)?,
                ai: ai_seat.zip(ai_level),
                seats,
                moves: row.get::<_, i64>(7)? as u32,
                updated_at: row.get(6)?,
                clock: row
                    .get::<_, Option<i64>>(9)?
                    .zip(row.get::<_, Option<i64>>(10)?),
            })
        })?;
        rows.collect::<Result<_, _>>().map_err(StorageError::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn room(code: &str) -> NewRoom {
        NewRoom {
            code: code.into(),
            game: "escampe".into(),
            variant: String::new(),
            status: "waiting".into(),
            ai: None,
            seats: vec![("white".into(), [7; 32])],
            public: false,
            clock: None,
            now: 100,
            creator: "127.0.0.1".into(),
            ai_due: None,
            move_limit: None,
        }
    }

    #[test]
    fn rooms_round_trip_and_codes_are_unique() {
        let storage = SqliteStorage::in_memory().unwrap();
        assert!(storage.create_room(&room("ABCDE"), "{}").unwrap());
        assert!(!storage.create_room(&room("ABCDE"), "{}").unwrap());
        let stored = storage.load_room("ABCDE").unwrap().unwrap();
        assert_eq!(stored.version, 1);
        assert_eq!(stored.seats, vec![("white".to_string(), [7; 32])]);
        assert!(storage.load_room("ZZZZZ").unwrap().is_none());
    }

    #[test]
    fn a_commit_needs_the_current_version() {
        let storage = SqliteStorage::in_memory().unwrap();
        storage.create_room(&room("ABCDE"), "v1").unwrap();
        let change = [Change::Move {
            ply: 1,
            text: "C6/A6/B5/D5/E6/F5".into(),
        }];
        assert!(storage.commit("ABCDE", 1, &change, "v2", 200).unwrap());
        // The same version again: refused, nothing written.
        let change = [Change::Move {
            ply: 2,
            text: "X".into(),
        }];
        assert!(!storage.commit("ABCDE", 1, &change, "v2'", 300).unwrap());
        let stored = storage.load_room("ABCDE").unwrap().unwrap();
        assert_eq!(stored.version, 2);
        assert_eq!(stored.moves, ["C6/A6/B5/D5/E6/F5"]);
        assert_eq!(stored.updated_at, 200);
        let events = storage.events_after("ABCDE", 0).unwrap();
        assert_eq!(events, vec![(1, "v1".to_string()), (2, "v2".to_string())]);
        assert_eq!(storage.events_after("ABCDE", 1).unwrap().len(), 1);
    }

    #[test]
    fn offers_takebacks_and_notes_are_stored() {
        let storage = SqliteStorage::in_memory().unwrap();
        storage.create_room(&room("ABCDE"), "v1").unwrap();
        let moves: Vec<Change> = (1..=3)
            .map(|ply| Change::Move {
                ply,
                text: format!("m{ply}"),
            })
            .collect();
        assert!(storage.commit("ABCDE", 1, &moves, "v2", 200).unwrap());
        let offer = [
            Change::Offer {
                offer: Some(("takeback".into(), "white".into())),
            },
            Change::Note {
                text: "white asks to take back".into(),
            },
        ];
        assert!(storage.commit("ABCDE", 2, &offer, "v3", 210).unwrap());
        let stored = storage.load_room("ABCDE").unwrap().unwrap();
        assert_eq!(
            stored.offer,
            Some(("takeback".to_string(), "white".to_string()))
        );
        let accept = [
            Change::Offer { offer: None },
            Change::Takeback { keep: 1 },
            Change::Note {
                text: "took back m2 m3".into(),
            },
        ];
        assert!(storage.commit("ABCDE", 3, &accept, "v4", 220).unwrap());
        let stored = storage.load_room("ABCDE").unwrap().unwrap();
        assert_eq!(stored.offer, None);
        assert_eq!(stored.moves, ["m1"]);
        assert_eq!(stored.log, ["white asks to take back", "took back m2 m3"]);
        // The moves after a takeback take the freed plies.
        let next = [Change::Move {
            ply: 2,
            text: "other".into(),
        }];
        assert!(storage.commit("ABCDE", 4, &next, "v5", 230).unwrap());
        assert_eq!(
            storage.load_room("ABCDE").unwrap().unwrap().moves,
            ["m1", "other"]
        );
        storage.sweep(1000).unwrap();
        assert!(storage.load_room("ABCDE").unwrap().is_none());
    }

    #[test]
    fn sweeping_removes_idle_rooms_entirely() {
        let storage = SqliteStorage::in_memory().unwrap();
        storage.create_room(&room("OLD11"), "{}").unwrap();
        let mut fresh = room("NEW22");
        fresh.now = 1000;
        storage.create_room(&fresh, "{}").unwrap();
        assert_eq!(storage.sweep(500).unwrap(), ["OLD11"]);
        assert!(storage.load_room("OLD11").unwrap().is_none());
        assert!(storage.events_after("OLD11", 0).unwrap().is_empty());
        assert!(storage.load_room("NEW22").unwrap().is_some());
    }
}
