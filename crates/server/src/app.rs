//! The server's shared state, its routes, and the loop that runs it.

use crate::error::ApiError;
use crate::limits::{Kind, Limiter, Rates};
use crate::room::{Need, Room, RoomData};
use crate::storage::{Change, Database, Lane, Notice, Storage};
use crate::tokens;
use axum::Router;
use axum::routing::{get, post};
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio::sync::{Mutex as AsyncMutex, Notify, OwnedMutexGuard, Semaphore};
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::TimeoutLayer;

/// Settings of a server.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// Rooms untouched this long are deleted.
    pub idle_expiry: Duration,
    /// How often idle rooms are looked for.
    pub sweep_interval: Duration,
    /// AI searches running at once (the rest wait their turn).
    pub ai_threads: usize,
    /// Longest an AI move may take, whatever the level.
    pub ai_time_cap: Duration,
    pub rates: Rates,
    /// Largest request body accepted.
    pub body_limit: usize,
    /// Longest a request (other than an event stream) may take.
    pub request_timeout: Duration,
    /// Interval of the keep-alive comments on event streams.
    pub keep_alive: Duration,
    /// Event streams one address may hold open at once (a page holds one).
    pub streams_per_address: usize,
    /// Longest a client may take to send a request's headers, and longest a
    /// connection may sit idle between requests.
    pub header_timeout: Duration,
    /// The reverse proxy whose `X-Forwarded-For` names the client; from any
    /// other peer the header is ignored.
    pub trusted_proxy: Option<IpAddr>,
    /// One line per request on stderr: address, method, path, status, time.
    pub access_log: bool,
    /// Connections one address (an IPv4 address or IPv6 /64) may hold open
    /// at once (at least 1), counted at accept: one client cannot take every
    /// file descriptor. The trusted proxy's connections are not counted.
    pub connections_per_address: usize,
    /// Rooms one address may have waiting or being played at once (made by
    /// creation, rematch or carrying a game over).
    pub rooms_per_address: usize,
    /// Threads of their own for the cheap AI levels (beginner, medium), on
    /// top of `ai_threads`: their moves never wait behind long searches.
    pub quick_ai_threads: usize,
}

impl Default for ServerConfig {
    fn default() -> ServerConfig {
        ServerConfig {
            idle_expiry: Duration::from_secs(48 * 3600),
            sweep_interval: Duration::from_secs(600),
            ai_threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            ai_time_cap: Duration::from_secs(5),
            rates: Rates::default(),
            body_limit: 16 * 1024,
            request_timeout: Duration::from_secs(10),
            keep_alive: Duration::from_secs(15),
            streams_per_address: 40,
            header_timeout: Duration::from_secs(10),
            trusted_proxy: None,
            access_log: true,
            connections_per_address: 64,
            rooms_per_address: 30,
            quick_ai_threads: 1,
        }
    }
}

/// Everything the handlers share.
pub struct AppState {
    pub(crate) storage: Arc<dyn Storage>,
    pub(crate) config: ServerConfig,
    rooms: Mutex<HashMap<String, Arc<AsyncMutex<Room>>>>,
    /// The AI's lanes: main (strong, expert, master), quick (beginner,
    /// medium).
    lanes: [crate::ai::AiLane; 2],
    /// Threads for the AI's answers to draw offers, made while the room is
    /// held: never the workers' own, which may be waiting for that room.
    pub(crate) answer_permits: Arc<Semaphore>,
    pub(crate) limiter: Limiter,
    /// Set when the server stops: background work (AI moves, sweeps) then
    /// writes nothing more.
    closed: AtomicBool,
    /// Flips to `true` when the server stops: background loops waiting on
    /// it end, letting go of the state (and the storage's connections).
    stopping: tokio::sync::watch::Sender<bool>,
    /// This instance's name on the AI moves it claims.
    pub(crate) instance: String,
    /// Wakes the task that shows each waiting room its place in line.
    pub(crate) queue_changed: Notify,
    /// Open event streams per address.
    streams: Mutex<HashMap<IpAddr, usize>>,
    /// Public waiting rooms whose creator has an event stream open here,
    /// with how many: the lobby lists them (lobby.rs).
    pub(crate) lobby_present: Mutex<HashMap<String, usize>>,
    /// Wakes the task that streams the lobby: something in it changed.
    pub(crate) lobby_changed: Notify,
    /// The lobby as last streamed (`None` while nobody watches).
    pub(crate) lobby_feed: tokio::sync::watch::Sender<Option<Arc<str>>>,
}

/// One open event stream of an address, counted while it lives.
pub(crate) struct StreamSlot {
    state: Arc<AppState>,
    address: IpAddr,
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut streams = self.state.streams.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(count) = streams.get_mut(&self.address) {
            *count -= 1;
            if *count == 0 {
                streams.remove(&self.address);
            }
        }
    }
}

/// An address as rooms record their creator: the unit per-address limits
/// count (an IPv4 address, an IPv6 /64).
pub(crate) fn creator_key(address: IpAddr) -> String {
    crate::limits::client_key(address).to_string()
}

/// How long a room waiting for an opponent counts against its creator's
/// live rooms: it cannot be resigned, so it must lapse.
const WAITING_ROOMS_COUNT_FOR: Duration = Duration::from_secs(3600);

/// How often each instance records that it is alive.
const HEARTBEAT: Duration = Duration::from_secs(1);

/// Downtime shorter than this is not credited: with other instances alive,
/// the last heartbeat is always this recent (three missed beats are a
/// stopped server, not a slow one).
const CREDITED_DOWNTIME_MS: i64 = 3 * HEARTBEAT.as_millis() as i64;

/// Seconds since the epoch.
pub(crate) fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

impl AppState {
    pub fn new(storage: Arc<dyn Storage>, config: ServerConfig) -> Arc<AppState> {
        Arc::new(AppState {
            storage,
            limiter: Limiter::new(config.rates),
            lanes: [
                crate::ai::AiLane::new(config.ai_threads),
                crate::ai::AiLane::new(config.quick_ai_threads),
            ],
            answer_permits: Arc::new(Semaphore::new(config.ai_threads.max(1))),
            config,
            rooms: Mutex::new(HashMap::new()),
            closed: AtomicBool::new(false),
            stopping: tokio::sync::watch::channel(false).0,
            instance: format!("{}-{}", std::process::id(), &tokens::new_token()[..8]),
            queue_changed: Notify::new(),
            streams: Mutex::new(HashMap::new()),
            lobby_present: Mutex::new(HashMap::new()),
            lobby_changed: Notify::new(),
            lobby_feed: tokio::sync::watch::channel(None).0,
        })
    }

    /// Wakes the AI workers of both lanes (a move became due), and the task
    /// that shows the rooms their place in line.
    pub(crate) fn wake_ai(&self) {
        for lane in &self.lanes {
            lane.wake.notify_one();
        }
        self.queue_changed.notify_one();
    }

    /// The AI's `lane`: its threads, its wake-up, its line's length.
    pub(crate) fn lane(&self, lane: Lane) -> &crate::ai::AiLane {
        match lane {
            Lane::Main => &self.lanes[0],
            Lane::Quick => &self.lanes[1],
        }
    }

    /// Refuses a new room from `address` once it holds its share of live
    /// rooms (waiting or being played): 429, naming the limit.
    pub(crate) async fn check_live_rooms(
        self: &Arc<Self>,
        address: IpAddr,
    ) -> Result<(), ApiError> {
        let cap = self.config.rooms_per_address;
        if cap == usize::MAX {
            return Ok(());
        }
        let creator = creator_key(address);
        let waiting_since = now() - WAITING_ROOMS_COUNT_FOR.as_secs() as i64;
        let live = self
            .blocking(move |s| s.live_rooms(&creator, waiting_since))
            .await?;
        if live >= cap as u64 {
            return Err(ApiError::too_many(
                format!(
                    "your address already has {live} rooms waiting or being played (the \
                     limit is {cap}); finish or resign some, or wait: a room nobody joins \
                     stops counting after an hour"
                ),
                60,
            ));
        }
        Ok(())
    }

    /// Stops background work: nothing is committed after this.
    pub fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        self.stopping.send_replace(true);
    }

    /// Resolves once the server stops.
    pub(crate) async fn stopped(&self) {
        let mut stopping = self.stopping.subscribe();
        let _ = stopping.wait_for(|stopped| *stopped).await;
    }

    /// Stops cleanly: background work stops, and the AI moves this
    /// instance claimed go back to the line at once rather than when their
    /// lease runs out.
    pub async fn shutdown(self: &Arc<Self>) {
        self.close();
        let owner = self.instance.clone();
        if let Err(err) = self.blocking(move |s| s.release_ai(Some(&owner))).await {
            eprintln!("giving back AI moves: {}", err.message);
        }
    }

    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }

    /// Runs a storage call off the async runtime.
    pub(crate) async fn blocking<T: Send + 'static>(
        self: &Arc<Self>,
        job: impl FnOnce(&dyn Storage) -> Result<T, crate::storage::StorageError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let state = Arc::clone(self);
        tokio::task::spawn_blocking(move || job(state.storage.as_ref()))
            .await
            .map_err(|e| ApiError::internal(format!("storage task failed: {e}")))?
            .map_err(ApiError::from)
    }

    /// Counts an event stream of `address`; 429 once it holds its share.
    pub(crate) fn open_stream(self: &Arc<Self>, address: IpAddr) -> Result<StreamSlot, ApiError> {
        let address = crate::limits::client_key(address);
        let mut streams = self.streams.lock().unwrap_or_else(|e| e.into_inner());
        let count = streams.entry(address).or_insert(0);
        if *count >= self.config.streams_per_address {
            return Err(ApiError::too_many(
                format!(
                    "your address already has {} event streams open; close some",
                    self.config.streams_per_address
                ),
                10,
            ));
        }
        *count += 1;
        Ok(StreamSlot {
            state: Arc::clone(self),
            address,
        })
    }

    /// Rate-limits `address`; 429 when over, naming the limit.
    pub(crate) fn limit(&self, address: IpAddr, kind: Kind) -> Result<(), ApiError> {
        if self.limiter.allow(address, kind) {
            Ok(())
        } else {
            Err(self.rate_refusal(kind))
        }
    }

    /// The 429 of a per-address rate limit: which one, and when to retry.
    fn rate_refusal(&self, kind: Kind) -> ApiError {
        let retry = self.limiter.retry_after(kind);
        ApiError::too_many(
            format!(
                "too many {} from your address (the limit is {}); try again in {retry} s",
                kind.counts(),
                self.config.rates.of(kind).describe()
            ),
            retry,
        )
    }

    /// The room with this code, from memory or storage, locked. A miss counts
    /// against the caller's scanning allowance.
    pub(crate) async fn room(
        self: &Arc<Self>,
        code: &str,
        address: IpAddr,
    ) -> Result<OwnedMutexGuard<Room>, ApiError> {
        self.room_for(code, address, Need::State).await
    }

    /// `room`, for a caller that needs only `need` to be current.
    pub(crate) async fn room_for(
        self: &Arc<Self>,
        code: &str,
        address: IpAddr,
        need: Need,
    ) -> Result<OwnedMutexGuard<Room>, ApiError> {
        let not_found = || ApiError::not_found(format!("no room {:?}", shown_code(code)));
        if !self.limiter.would_allow(address, Kind::Miss) {
            return Err(self.rate_refusal(Kind::Miss));
        }
        let miss = || {
            self.limiter.allow(address, Kind::Miss);
            not_found()
        };
        let code = code.to_ascii_uppercase();
        if !tokens::is_code(&code) {
            return Err(miss());
        }
        self.find_room(&code, need).await?.ok_or_else(miss)
    }

    /// The room with this code, for the server's own work (AI moves, clocks,
    /// resuming after a restart): never rate-limited, since a limit meant for
    /// a scanning address must not stall a game.
    pub(crate) async fn own_room(
        self: &Arc<Self>,
        code: &str,
    ) -> Result<Option<OwnedMutexGuard<Room>>, ApiError> {
        self.find_room(code, Need::State).await
    }

    /// The room from memory or from storage, locked; `None` if there is no
    /// such room. When other instances share the storage, the room is
    /// checked against it under the lock the caller then holds, so nothing
    /// they commit can slip between the check and the caller's use (an event
    /// stream's subscription, say).
    async fn find_room(
        self: &Arc<Self>,
        code: &str,
        need: Need,
    ) -> Result<Option<OwnedMutexGuard<Room>>, ApiError> {
        let arrived = Instant::now();
        if let Some(shared) = self.cached_room(code) {
            let mut room = shared.lock_owned().await;
            if !self.storage.is_shared()
                || room.checked_since(arrived, need)
                || match need {
                    Need::State => self.refresh(&mut room, None).await?,
                    Need::Events => self.catch_up(&mut room).await?,
                }
            {
                return Ok(Some(room));
            }
            drop(room);
            // Swept (by another instance), perhaps with its code drawn again
            // for a new room: read from storage afresh.
            self.forget(code);
        }
        let lookup = code.to_string();
        let Some(stored) = self.blocking(move |s| s.load_room(&lookup)).await? else {
            return Ok(None);
        };
        let data = RoomData::restore(stored).map_err(ApiError::internal)?;
        let deadline = data.clock_deadline();
        let shared = self.cache(Room::new(data));
        // A clock another instance started (one that may have died since) is
        // watched here too.
        if let Some(deadline) = deadline {
            crate::clock::watch(Arc::clone(self), code.to_string(), deadline);
        }
        Ok(Some(shared.lock_owned().await))
    }

    /// Brings the events a room has sent up to storage's version, without
    /// reading the room itself (an event stream resuming from an event id
    /// needs no more): one query when nothing is missing. `Ok(false)`: the
    /// room is gone from storage.
    async fn catch_up(self: &Arc<Self>, room: &mut Room) -> Result<bool, ApiError> {
        let started = Instant::now();
        let code = room.data.code.clone();
        let stored = self.blocking(move |s| s.version(&code)).await?;
        let Some((version, created_at)) = stored else {
            return Ok(false);
        };
        if created_at != room.data.created_at {
            return Ok(false);
        }
        if version <= room.data.version {
            room.checked = Some(started);
        } else {
            // The room stays as it was read: only its events are current.
            self.publish_missed(room, version).await?;
        }
        room.events_checked = Some(started);
        Ok(true)
    }

    /// Brings a room kept in memory up to date with storage, where another
    /// instance may have changed it: the events it missed go out to its
    /// subscribers, in order. `known`: the version storage is known to have
    /// reached (from a notification), which saves asking. `Ok(false)`: the
    /// room is gone from storage (swept).
    pub(crate) async fn refresh(
        self: &Arc<Self>,
        room: &mut Room,
        known: Option<u64>,
    ) -> Result<bool, ApiError> {
        let held = room.data.version;
        let started = Instant::now();
        let stored_version = match known {
            Some(version) => version,
            None => {
                let code = room.data.code.clone();
                match self.blocking(move |s| s.version(&code)).await? {
                    // Another room under the same code: this one is gone.
                    Some((_, created_at)) if created_at != room.data.created_at => {
                        return Ok(false);
                    }
                    Some((version, _)) => version,
                    None => return Ok(false),
                }
            }
        };
        if stored_version <= held {
            if known.is_none() {
                room.checked = Some(started);
                room.events_checked = Some(started);
            }
            return Ok(true);
        }
        let code = room.data.code.clone();
        // Events already passed on to the subscribers need no second read.
        let after = held.max(room.published);
        let (stored, missed) = self
            .blocking(move |s| {
                let stored = s.load_room(&code)?;
                let missed = match &stored {
                    Some(stored) if stored.version > after => s.events_after(&code, after)?,
                    _ => Vec::new(),
                };
                Ok((stored, missed))
            })
            .await?;
        let Some(stored) = stored.filter(|r| r.created_at == room.data.created_at) else {
            return Ok(false);
        };
        let old_deadline = room.data.clock_deadline();
        let data = RoomData::restore(stored).map_err(ApiError::internal)?;
        for (version, payload) in missed {
            if version <= data.version {
                room.publish_at(version, payload);
            }
        }
        room.data = data;
        room.checked = Some(started);
        room.events_checked = Some(started);
        // Whichever instance sees a clock run watches it: the first to end
        // the game wins, the others find it over.
        if let Some(deadline) = room.data.clock_deadline()
            && Some(deadline) != old_deadline
        {
            crate::clock::watch(Arc::clone(self), room.data.code.clone(), deadline);
        }
        Ok(true)
    }

    /// Acts on another instance's change: a room kept here is re-read.
    async fn on_notice(self: &Arc<Self>, notice: Notice) {
        let targets: Vec<(Arc<AsyncMutex<Room>>, Option<u64>)> = match notice {
            Notice::AiDue => {
                self.wake_ai();
                return;
            }
            Notice::Changed { code, version } => match self.cached_room(&code) {
                Some(room) => vec![(room, Some(version))],
                None => return,
            },
            Notice::Resync => {
                self.wake_ai();
                self.rooms
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .values()
                    .map(|room| (Arc::clone(room), None))
                    .collect()
            }
        };
        for (shared, known) in targets {
            let mut room = shared.lock().await;
            if let Some(version) = known
                && room.data.clock.is_none()
            {
                // Without a clock to watch, only the subscribers need the
                // change now; the room is re-read when next used.
                if let Err(err) = self.pass_on(&mut room, version).await {
                    eprintln!("events of room {}: {}", room.data.code, err.message);
                }
                continue;
            }
            match self.refresh(&mut room, known).await {
                Ok(true) => {}
                Ok(false) => self.forget(&room.data.code),
                Err(err) => eprintln!("re-reading room {}: {}", room.data.code, err.message),
            }
        }
    }

    /// Sends a room's subscribers the events up to `version` committed by
    /// another instance: one read of the events table, not of the room.
    async fn pass_on(self: &Arc<Self>, room: &mut Room, version: u64) -> Result<(), ApiError> {
        if room.events.receiver_count() == 0 {
            return Ok(());
        }
        self.publish_missed(room, version).await
    }

    /// Sends the state events after the last one sent, up to at least
    /// `version`, from storage.
    async fn publish_missed(
        self: &Arc<Self>,
        room: &mut Room,
        version: u64,
    ) -> Result<(), ApiError> {
        if version <= room.published {
            return Ok(());
        }
        let (code, after) = (room.data.code.clone(), room.published);
        let missed = self.blocking(move |s| s.events_after(&code, after)).await?;
        for (version, payload) in missed {
            room.publish_at(version, payload);
        }
        Ok(())
    }

    /// Lets go of the rooms in memory that nobody uses: no event stream, no
    /// request or background task holding them. They are read again from
    /// storage when next asked for, so memory stays bounded by the rooms in
    /// use (and, with several instances, no forgotten copy goes stale).
    fn evict_idle(&self) {
        let mut rooms = self.rooms.lock().unwrap_or_else(|e| e.into_inner());
        rooms.retain(|_, shared| {
            Arc::strong_count(shared) > 1
                || shared
                    .try_lock()
                    .map_or(true, |room| room.events.receiver_count() > 0)
        });
    }

    pub(crate) fn forget(&self, code: &str) {
        self.rooms
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(code);
    }

    /// The room if this instance keeps it in memory (no storage access).
    pub(crate) fn cached_room(&self, code: &str) -> Option<Arc<AsyncMutex<Room>>> {
        self.rooms
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(code)
            .cloned()
    }

    /// Keeps a room in memory (the first copy wins if two requests loaded it).
    pub(crate) fn cache(&self, room: Room) -> Arc<AsyncMutex<Room>> {
        let code = room.data.code.clone();
        let mut rooms = self.rooms.lock().unwrap_or_else(|e| e.into_inner());
        Arc::clone(
            rooms
                .entry(code)
                .or_insert_with(|| Arc::new(AsyncMutex::new(room))),
        )
    }

    /// Commits a change: `next` is the room's data after it, `changes` what to
    /// write. Storage first; only then is the room updated and the event sent.
    /// A version clash (another server wrote first) is a 409.
    pub(crate) async fn commit(
        self: &Arc<Self>,
        room: &mut Room,
        mut next: RoomData,
        changes: Vec<Change>,
    ) -> Result<serde_json::Value, ApiError> {
        if self.is_closed() {
            return Err(ApiError::new(
                axum::http::StatusCode::SERVICE_UNAVAILABLE,
                "the server is shutting down",
            ));
        }
        let expected = room.data.version;
        let old_deadline = room.data.clock_deadline();
        next.version = expected + 1;
        // The AI's job follows every change: renewed at the new version while
        // the AI is to move, dropped otherwise.
        let ai_due = next.ai_to_move();
        let mut changes = changes;
        changes.push(Change::AiTurn {
            due_ms: ai_due.then(crate::clock::now_ms),
        });
        let state = room.state_of(&next);
        let payload = state.to_string();
        let code = next.code.clone();
        let event = payload.clone();
        let written = self
            .blocking(move |s| s.commit(&code, expected, &changes, &event, now()))
            .await?;
        if !written {
            return Err(ApiError::conflict(
                "the room changed in the meantime; reload it",
            ));
        }
        let listed = room.data.public || next.public;
        room.data = next;
        room.publish(payload);
        if listed {
            self.lobby_changed.notify_one();
        }
        if ai_due {
            self.wake_ai();
        }
        // One timer per running clock: a change that leaves it as it was
        // (an offer, say) sets none.
        if let Some(deadline) = room.data.clock_deadline()
            && Some(deadline) != old_deadline
        {
            crate::clock::watch(Arc::clone(self), room.data.code.clone(), deadline);
        }
        Ok(state)
    }

    /// Deletes idle rooms, from storage and memory.
    pub(crate) async fn sweep(self: &Arc<Self>) -> Result<usize, ApiError> {
        let before = now() - self.config.idle_expiry.as_secs() as i64;
        let codes = self.blocking(move |s| s.sweep(before)).await?;
        let mut rooms = self.rooms.lock().unwrap_or_else(|e| e.into_inner());
        for code in &codes {
            rooms.remove(code);
        }
        Ok(codes.len())
    }

    /// After a restart: the time the server was down is not charged to
    /// anyone. Each running clock is credited with the time since the
    /// server was last known alive (its last heartbeat, or the clock's last
    /// change if later). Without any heartbeat to go by (a file from before
    /// heartbeats), a clock is paused instead, until the side to move acts;
    /// on a shared database it is left running, since instances of an
    /// earlier release may be serving it. Returns the rooms whose clock
    /// changed.
    pub(crate) async fn credit_downtime(self: &Arc<Self>) -> Result<usize, ApiError> {
        let (instance, started) = (self.instance.clone(), crate::clock::now_ms());
        let last_beat = self
            .blocking(move |s| s.first_beat(&instance, started))
            .await?;
        match last_beat {
            // Another instance is alive (or this one restarted at once):
            // the clocks ran on.
            Some(beat) if started - beat <= CREDITED_DOWNTIME_MS => return Ok(0),
            // Instances of an earlier release may be serving these rooms
            // (a rolling upgrade): they are left running.
            None if self.storage.is_shared() => return Ok(0),
            _ => {}
        }
        let codes = self.blocking(|s| s.playing_rooms()).await?;
        let mut credited = 0;
        for code in codes {
            let Ok(Some(mut room)) = self.own_room(&code).await else {
                continue;
            };
            let now = crate::clock::now_ms();
            let Some(clock) = room.data.clock else {
                continue;
            };
            let Some(running) = clock.running else {
                continue;
            };
            if room.data.status != crate::room::Status::Playing {
                continue;
            }
            let mut next = room.data.clone();
            let mut changes = Vec::new();
            let who = crate::room::side_name(running);
            let text = match last_beat {
                Some(beat) => {
                    let down_ms = now - beat.max(clock.since_ms);
                    if down_ms <= CREDITED_DOWNTIME_MS {
                        continue;
                    }
                    if let Some(clock) = next.clock.as_mut() {
                        clock.since_ms += down_ms;
                        changes.push(clock.change());
                    }
                    format!(
                        "the server was down for {:.1} s: {who}'s clock was stopped for that time",
                        down_ms as f64 / 1000.0
                    )
                }
                None => {
                    if let Some(clock) = next.clock.as_mut() {
                        // Charged up to its last write, and stopped.
                        clock.running = None;
                        clock.since_ms = now;
                        changes.push(clock.change());
                    }
                    format!(
                        "the server restarted without knowing how long it was down: \
                         {who}'s clock waits for {who}'s move"
                    )
                }
            };
            next.log.push(text.clone());
            changes.push(Change::Note { text });
            match self.commit(&mut room, next, changes).await {
                Ok(_) => credited += 1,
                Err(err) => eprintln!("crediting the clock of room {code}: {}", err.message),
            }
        }
        Ok(credited)
    }

    /// After a restart: every running clock is watched again, and every room
    /// whose AI is to move has its job (the worker plays them).
    pub(crate) async fn resume_ai(self: &Arc<Self>) -> Result<usize, ApiError> {
        if !self.storage.is_shared() {
            // The only instance: claims left by an earlier run are void.
            self.blocking(|s| s.release_ai(None)).await?;
        }
        let codes = self.blocking(|s| s.playing_rooms()).await?;
        let mut resumed = 0;
        for code in codes {
            let Ok(Some(room)) = self.own_room(&code).await else {
                continue;
            };
            let (ai_to_move, deadline, version) = (
                room.data.ai_to_move(),
                room.data.clock_deadline(),
                room.data.version,
            );
            drop(room);
            // A clock that fell while the server was down ends the game now.
            if let Some(deadline) = deadline {
                crate::clock::watch(Arc::clone(self), code.clone(), deadline);
            }
            if ai_to_move {
                // Rooms from before AI jobs existed get theirs now.
                self.blocking(move |s| s.ensure_ai(&code, version, crate::clock::now_ms()))
                    .await?;
                resumed += 1;
            }
        }
        Ok(resumed)
    }
}

/// The HTTP routes.
pub fn router(state: Arc<AppState>) -> Router {
    let timeout = state.config.request_timeout;
    let limited = Router::new()
        .route("/api/games", get(crate::api::games))
        .route(
            "/api/rooms",
            post(crate::api::create_room).get(crate::api::summaries),
        )
        .route("/api/lobby", get(crate::lobby::lobby))
        .route("/api/rooms/{code}", get(crate::api::get_room))
        .route("/api/rooms/{code}/join", post(crate::api::join))
        .route("/api/rooms/{code}/moves", post(crate::api::play))
        .route("/api/rooms/{code}/resign", post(crate::api::resign))
        .route("/api/rooms/{code}/ready", post(crate::api::ready))
        .route("/api/rooms/{code}/draw", post(crate::offers::draw))
        .route("/api/rooms/{code}/check", post(crate::check::check))
        .route("/api/rooms/{code}/takeback", post(crate::offers::takeback))
        .route("/api/rooms/{code}/rematch", post(crate::api::rematch))
        .route("/api/rooms/{code}/record", get(crate::api::record))
        .route("/api/rooms/{code}/positions", get(crate::replay::positions))
        .route("/", get(crate::web::index))
        .route("/r/{code}", get(crate::web::room_page))
        .route("/local/{id}", get(crate::web::local_page))
        .route("/analysis", get(crate::web::local_page))
        .route("/train", get(crate::web::local_page))
        .route("/bench", get(crate::web::local_page))
        .route("/rules", get(crate::web::local_page))
        .route("/rules/{game}", get(crate::web::local_page))
        .layer(TimeoutLayer::with_status_code(
            axum::http::StatusCode::REQUEST_TIMEOUT,
            timeout,
        ));
    Router::new()
        .route("/api/rooms/{code}/events", get(crate::sse::events))
        .route("/api/lobby/events", get(crate::lobby::events))
        .merge(limited)
        .fallback(get(crate::web::file).fallback(crate::api::not_found))
        .layer(RequestBodyLimitLayer::new(state.config.body_limit))
        .with_state(state)
}

/// Serves on `listener` until the process is stopped: sweeps idle rooms and
/// resumes AI seats left thinking by a previous run.
pub async fn serve(listener: tokio::net::TcpListener, state: Arc<AppState>) -> std::io::Result<()> {
    // Before the first heartbeat of this run: the last one says when the
    // server went down.
    match state.credit_downtime().await {
        Ok(0) => {}
        Ok(n) => eprintln!("credited the downtime to the clocks of {n} room(s)"),
        Err(err) => eprintln!("could not credit downtime to clocks: {}", err.message),
    }
    let beating = Arc::clone(&state);
    tokio::spawn(async move {
        let mut interval = tokio::time::interval(HEARTBEAT);
        loop {
            tokio::select! {
                _ = interval.tick() => {}
                () = beating.stopped() => break,
            }
            if beating.is_closed() {
                break;
            }
            let instance = beating.instance.clone();
            let now = crate::clock::now_ms();
            if let Err(err) = beating.blocking(move |s| s.beat(&instance, now)).await {
                eprintln!("heartbeat: {}", err.message);
            }
            crate::lobby::mark_present(&beating).await;
        }
    });
    match state.resume_ai().await {
        Ok(0) => {}
        Ok(n) => eprintln!("resumed {n} AI seat(s)"),
        Err(err) => eprintln!("could not resume AI seats: {}", err.message),
    }
    if let Some(mut notices) = state.storage.subscribe() {
        let listener = Arc::clone(&state);
        tokio::spawn(async move {
            loop {
                let notice = tokio::select! {
                    notice = notices.recv() => notice,
                    () = listener.stopped() => None,
                };
                let Some(notice) = notice else { break };
                // Rooms are independent: one slow re-read holds up no other.
                let listener = Arc::clone(&listener);
                tokio::spawn(async move { listener.on_notice(notice).await });
            }
        });
    }
    tokio::spawn(crate::ai::work(Arc::clone(&state), Lane::Main));
    tokio::spawn(crate::ai::work(Arc::clone(&state), Lane::Quick));
    tokio::spawn(crate::ai::show_queues(Arc::clone(&state)));
    tokio::spawn(crate::lobby::feed(Arc::clone(&state)));
    let sweeper = Arc::clone(&state);
    tokio::spawn(async move {
        let mut interval = tokio::time::interval(sweeper.config.sweep_interval);
        loop {
            tokio::select! {
                _ = interval.tick() => {}
                () = sweeper.stopped() => break,
            }
            if sweeper.is_closed() {
                break;
            }
            sweeper.evict_idle();
            match sweeper.sweep().await {
                Ok(0) => {}
                Ok(n) => eprintln!("swept {n} idle room(s)"),
                Err(err) => eprintln!("sweep failed: {}", err.message),
            }
        }
    });
    let config = state.config.clone();
    crate::http::serve(listener, router(state), &config).await
}

/// A room code as shown in a message: a long one is cut short.
pub(crate) fn shown_code(code: &str) -> String {
    const SHOWN: usize = 16;
    match code.char_indices().nth(SHOWN) {
        Some((cut, _)) => format!("{}…", &code[..cut]),
        None => code.to_string(),
    }
}

/// Opens the database, binds `addr` and serves until Ctrl-C: what `plateau
/// serve` runs. `on_ready` receives the bound address.
pub fn run(
    addr: &str,
    database: &Database,
    config: ServerConfig,
    on_ready: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    let storage = database
        .open()
        .map_err(|e| std::io::Error::other(format!("{}: {e}", database.describe())))?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let mut config = config;
    match crate::http::raise_descriptor_limit() {
        Ok(limit) => {
            if limit.soft > limit.before {
                eprintln!(
                    "open files: soft limit raised from {} to {} (the hard limit)",
                    limit.before, limit.soft
                );
            } else {
                eprintln!(
                    "open files: soft limit {}, hard limit {}",
                    limit.soft, limit.hard
                );
            }
            let cap = crate::http::connection_cap(config.connections_per_address, limit.soft);
            // `usize::MAX`: no cap at all (`--no-rate-limits`).
            if cap < config.connections_per_address && config.connections_per_address != usize::MAX
            {
                eprintln!(
                    "connections per address: {cap} (lowered from {} to keep within a \
                     quarter of the open-file limit)",
                    config.connections_per_address
                );
                config.connections_per_address = cap;
            }
        }
        Err(err) => eprintln!("open files: the limit could not be read: {err}"),
    }
    runtime.block_on(async {
        let listener = crate::http::bind(addr).await?;
        on_ready(listener.local_addr()?);
        let state = AppState::new(storage, config);
        let served = tokio::select! {
            served = serve(listener, Arc::clone(&state)) => served,
            _ = tokio::signal::ctrl_c() => Ok(()),
        };
        state.shutdown().await;
        served
    })
}
