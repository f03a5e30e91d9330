//! The lobby: public rooms waiting for an opponent, and public games being
//! played, for the home page to offer to join or watch.
//!
//! A waiting room is listed only while its creator's page is connected (an
//! event stream opened with the creator's token): a game whose creator has
//! gone is no game to join. Each instance marks the rooms whose creator's
//! stream it holds as present every heartbeat, and absent the moment the
//! last such stream closes. `GET /api/lobby/events` streams the lobby as it
//! changes.

use crate::app::AppState;
use crate::error::ApiError;
use crate::limits::Kind;
use crate::room::Status;
use axum::Json;
use axum::extract::{ConnectInfo, State};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use futures_util::stream::{Stream, StreamExt};
use plateau_games::GameSpec;
use serde_json::{Value, json};
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio_stream::wrappers::WatchStream;

/// Rooms listed at most (the most recently active first).
const LOBBY_SIZE: usize = 50;

/// A waiting room stays listed this long after its creator's last mark of
/// presence (marks come every second while the page is connected; a page
/// that closes is marked absent at once, so this only covers an instance
/// that died with the stream).
pub(crate) const PRESENCE_LASTS_MS: i64 = 10_000;

/// How often the streamed lobby is read again without a change heard of
/// here (moves, and other instances' changes).
const FEED_EVERY: Duration = Duration::from_secs(2);

/// `GET /api/lobby`.
pub async fn lobby(
    State(state): State<Arc<AppState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
) -> Result<Json<Value>, ApiError> {
    state.limit(peer.ip(), Kind::Lookup)?;
    Ok(Json(listing(&state).await?))
}

/// `GET /api/lobby/events`: a `lobby` event with the whole lobby (as `GET
/// /api/lobby` answers) at once, then each time it changes.
pub async fn events(
    State(state): State<Arc<AppState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
) -> Result<Sse<impl Stream<Item = Result<SseEvent, Infallible>>>, ApiError> {
    state.limit(peer.ip(), Kind::Lookup)?;
    let slot = state.open_stream(peer.ip())?;
    let receiver = state.lobby_feed.subscribe();
    // The feed reads the lobby at once for the newcomer.
    state.lobby_changed.notify_one();
    let stream = WatchStream::new(receiver).filter_map(move |listing| {
        // The stream owns the address's slot: dropped when the client leaves.
        let _alive = &slot;
        std::future::ready(listing.map(|text| Ok(SseEvent::default().event("lobby").data(&*text))))
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(state.config.keep_alive)))
}

/// The lobby as the API shows it.
async fn listing(state: &Arc<AppState>) -> Result<Value, ApiError> {
    let since = crate::clock::now_ms() - PRESENCE_LASTS_MS;
    let rooms = state.blocking(move |s| s.lobby(LOBBY_SIZE, since)).await?;
    let mut waiting = Vec::new();
    let mut playing = Vec::new();
    for room in rooms {
        let variant = (!room.variant.is_empty()).then_some(room.variant.as_str());
        let Ok(spec) = GameSpec::lookup(&room.game, variant) else {
            continue;
        };
        let mut entry = json!({
            "code": room.code,
            "game": room.game,
            "variant": variant,
            "title": spec.info.title,
            "moves": room.moves,
            "updated_at": room.updated_at,
            "clock": room.clock.map(|(initial, increment)| json!({
                "initial_s": initial as f64 / 1000.0,
                "increment_s": increment as f64 / 1000.0,
            })),
        });
        if Status::parse(&room.status) == Some(Status::Waiting) {
            // The creator's seat: the one taken.
            entry["creator"] = json!(room.seats.first());
            waiting.push(entry);
        } else {
            entry["ai"] = json!(
                room.ai
                    .map(|(seat, level)| json!({"seat": seat, "level": level}))
            );
            playing.push(entry);
        }
    }
    Ok(json!({ "waiting": waiting, "playing": playing }))
}

/// Reads the lobby for its streams: when a change is heard of here, and
/// every [`FEED_EVERY`] while anyone watches; only a lobby that changed is
/// sent.
pub(crate) async fn feed(state: Arc<AppState>) {
    let mut interval = tokio::time::interval(FEED_EVERY);
    loop {
        tokio::select! {
            _ = interval.tick() => {}
            () = state.lobby_changed.notified() => {}
            () = state.stopped() => break,
        }
        if state.is_closed() {
            break;
        }
        if state.lobby_feed.receiver_count() == 0 {
            // Nobody watches: the next one must not be shown an old lobby.
            state
                .lobby_feed
                .send_if_modified(|shown| shown.take().is_some());
            continue;
        }
        match listing(&state).await {
            Ok(value) => {
                let text: Arc<str> = value.to_string().into();
                state.lobby_feed.send_if_modified(|shown| {
                    if shown.as_deref() == Some(&*text) {
                        return false;
                    }
                    *shown = Some(text);
                    true
                });
            }
            Err(err) => eprintln!("lobby: {}", err.message),
        }
        // A burst of changes (a room made and joined at once) is one read.
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Holds a public waiting room in the lobby while its creator's event
/// stream lives on this instance.
pub(crate) struct CreatorPresent {
    state: Arc<AppState>,
    code: String,
}

impl CreatorPresent {
    pub(crate) fn new(state: &Arc<AppState>, code: &str) -> CreatorPresent {
        let first = {
            let mut present = state
                .lobby_present
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            let count = present.entry(code.to_string()).or_insert(0);
            *count += 1;
            *count == 1
        };
        if first {
            let (marker, code) = (Arc::clone(state), code.to_string());
            tokio::spawn(async move {
                let now = crate::clock::now_ms();
                let codes = vec![code.clone()];
                if let Err(err) = marker.blocking(move |s| s.mark_present(&codes, now)).await {
                    eprintln!("lobby presence: {}", err.message);
                }
                // The stream may have closed while this was written, and its
                // absent mark gone in first: the map has the last word.
                if !is_present(&marker, &code) {
                    let gone = code.clone();
                    if let Err(err) = marker.blocking(move |s| s.mark_absent(&gone)).await {
                        eprintln!("lobby presence: {}", err.message);
                    }
                }
                marker.lobby_changed.notify_one();
            });
        }
        CreatorPresent {
            state: Arc::clone(state),
            code: code.to_string(),
        }
    }
}

impl Drop for CreatorPresent {
    fn drop(&mut self) {
        let last = {
            let mut present = self
                .state
                .lobby_present
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            match present.get_mut(&self.code) {
                Some(count) if *count > 1 => {
                    *count -= 1;
                    false
                }
                Some(_) => {
                    present.remove(&self.code);
                    true
                }
                None => false,
            }
        };
        if !last || self.state.is_closed() {
            return;
        }
        let (state, code) = (Arc::clone(&self.state), self.code.clone());
        // Drop cannot await: the write runs as a task.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                let gone = code.clone();
                if let Err(err) = state.blocking(move |s| s.mark_absent(&gone)).await {
                    eprintln!("lobby presence: {}", err.message);
                }
                // Back already (a reload): present again.
                if is_present(&state, &code) {
                    let now = crate::clock::now_ms();
                    let codes = vec![code];
                    if let Err(err) = state.blocking(move |s| s.mark_present(&codes, now)).await {
                        eprintln!("lobby presence: {}", err.message);
                    }
                }
                state.lobby_changed.notify_one();
            });
        }
    }
}

/// Whether a creator's stream for `code` is open on this instance now.
fn is_present(state: &AppState, code: &str) -> bool {
    state
        .lobby_present
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .contains_key(code)
}

/// Marks every room whose creator's stream this instance holds as present
/// (each heartbeat).
pub(crate) async fn mark_present(state: &Arc<AppState>) {
    let codes: Vec<String> = {
        let present = state
            .lobby_present
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        present.keys().cloned().collect()
    };
    if codes.is_empty() {
        return;
    }
    let now = crate::clock::now_ms();
    let marked = codes.clone();
    if let Err(err) = state.blocking(move |s| s.mark_present(&marked, now)).await {
        eprintln!("lobby presence: {}", err.message);
        return;
    }
    // A creator who left while the marks were written must not stay listed
    // until they grow old.
    let left: Vec<String> = {
        let present = state
            .lobby_present
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        codes
            .into_iter()
            .filter(|c| !present.contains_key(c))
            .collect()
    };
    for code in left {
        if let Err(err) = state.blocking(move |s| s.mark_absent(&code)).await {
            eprintln!("lobby presence: {}", err.message);
        }
    }
}
