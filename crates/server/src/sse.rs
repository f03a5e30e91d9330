//! `GET /api/rooms/{code}/events`: Server-Sent Events, one per state change.
//!
//! Each versioned event carries the room's whole state with its version as the
//! event id; a client reconnecting with `Last-Event-ID` first gets exactly the
//! events it missed (the room's last few from memory, older ones from
//! storage). Presence updates (who is connected,
//! the AI thinking) come as unversioned `presence` events. A stream opened with
//! a seat's token (`Authorization: Bearer`) marks that seat connected.

use crate::app::AppState;
use crate::error::ApiError;
use crate::limits::Kind;
use crate::lobby::CreatorPresent;
use crate::room::{Event, Need, Room, Status};
use axum::extract::{ConnectInfo, Path, State};
use axum::http::HeaderMap;
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use futures_util::stream::{self, Stream, StreamExt};
use plateau_core::Side;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::sync::{Mutex as AsyncMutex, OwnedMutexGuard};
use tokio_stream::wrappers::BroadcastStream;

/// Marks a seat connected while its stream lives.
struct Presence {
    room: Arc<AsyncMutex<Room>>,
    seat: Side,
}

impl Drop for Presence {
    fn drop(&mut self) {
        let room = Arc::clone(&self.room);
        let seat = self.seat;
        // Drop cannot await: the bookkeeping runs as a task.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                let mut room = room.lock().await;
                room.connected[seat.index()] = room.connected[seat.index()].saturating_sub(1);
                room.publish_presence();
            });
        }
    }
}

fn to_sse(event: &Event) -> SseEvent {
    let sse = SseEvent::default().event(event.kind).data(&event.data);
    match event.version {
        Some(version) => sse.id(version.to_string()),
        None => sse,
    }
}

pub async fn events(
    State(state): State<Arc<AppState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(code): Path<String>,
    headers: HeaderMap,
) -> Result<Sse<impl Stream<Item = Result<SseEvent, Infallible>>>, ApiError> {
    state.limit(peer.ip(), Kind::Lookup)?;
    let slot = state.open_stream(peer.ip())?;
    let last_seen: Option<u64> = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse().ok());
    let token = crate::api::bearer(&headers);
    // A client resuming from an event id needs the events, not the room.
    let need = match last_seen {
        Some(_) => Need::Events,
        None => Need::State,
    };
    let mut room = state.room_for(&code, peer.ip(), need).await?;
    // What only the room itself tells, when its copy here is behind the
    // events passed on: a seat's token (one taken through another instance,
    // and presence, which is built from the room and not sent from a copy
    // behind), or the state for an event id ahead of the events sent.
    // Spectators resuming, most of a reconnection storm, need none of it.
    if need == Need::Events
        && room.is_behind()
        && (token.is_some() || last_seen.is_some_and(|seen| seen > room.published))
        && !state.refresh(&mut room, None).await?
    {
        let gone = room.data.code.clone();
        drop(room);
        state.forget(&gone);
        return Err(ApiError::not_found(format!(
            "no room {:?}",
            crate::app::shown_code(&code)
        )));
    }

    // Subscribe and read the version under the lock: every later event is newer.
    // (`state.room_for` checked the room against storage under this same lock.)
    let (receiver, version, kept, current, code, presence) = {
        let receiver = room.events.subscribe();
        let seat = match token.as_deref() {
            // A token that holds no seat is a mistake, not a spectator.
            Some(token) => Some(
                room.data
                    .seat_of(token)
                    .ok_or_else(|| ApiError::forbidden("unknown token for this room"))?,
            ),
            None => None,
        };
        let presence = seat.map(|seat| {
            room.connected[seat.index()] += 1;
            room.publish_presence();
            Presence {
                room: Arc::clone(OwnedMutexGuard::mutex(&room)),
                seat,
            }
        });
        // In a public room waiting for an opponent, the only seat taken is
        // its creator's: the room is in the lobby while this stream lives.
        let listed = (seat.is_some() && room.data.public && room.data.status == Status::Waiting)
            .then(|| CreatorPresent::new(&state, &room.data.code));
        // Ahead of `data` when another instance's changes were passed on.
        let version = room.data.version.max(room.published);
        // A few events behind: exactly what was missed, from memory.
        let kept = last_seen
            .filter(|&seen| seen < version)
            .and_then(|seen| room.recent_after(seen, version));
        // Only for a client that has no usable event id.
        let current = last_seen
            .is_none_or(|seen| seen > version)
            .then(|| Event::state(version, room.state().to_string()));
        (
            receiver,
            version,
            kept,
            current,
            room.data.code.clone(),
            (presence, listed),
        )
    };
    drop(room);
    let backlog: Vec<Arc<Event>> = match (last_seen, kept) {
        (Some(_), Some(kept)) => kept,
        // Exactly what was missed, from storage.
        (Some(seen), None) if seen < version => state
            .blocking(move |s| s.events_after(&code, seen))
            .await?
            .into_iter()
            .filter(|(v, _)| *v <= version)
            .map(|(v, data)| Arc::new(Event::state(v, data)))
            .collect(),
        (Some(seen), None) if seen == version => Vec::new(),
        // Ahead of the room (an id from another room, or from before a
        // takeback was swept): start again from the current state.
        _ => current.map(Arc::new).into_iter().collect(),
    };
    let live = BroadcastStream::new(receiver)
        // A subscriber that fell too far behind is closed; it reconnects with
        // Last-Event-ID and is served from storage.
        .take_while(|item| std::future::ready(item.is_ok()))
        .filter_map(|item| std::future::ready(item.ok()));
    let stream = stream::iter(backlog).chain(live).map(move |event| {
        // The stream owns the presence guard and the address's slot:
        // dropped when the client leaves.
        let _alive = (&presence, &slot);
        Ok(to_sse(&event))
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(state.config.keep_alive)))
}
