//! The lobby: public rooms waiting for an opponent, and public games being
//! played, for the home page to offer to join or watch.

use crate::app::AppState;
use crate::error::ApiError;
use crate::limits::Kind;
use crate::room::Status;
use axum::Json;
use axum::extract::{ConnectInfo, State};
use plateau_games::GameSpec;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;

/// Rooms listed at most (the most recently active first).
const LOBBY_SIZE: usize = 50;

/// `GET /api/lobby`.
pub async fn lobby(
    State(state): State<Arc<AppState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
) -> Result<Json<Value>, ApiError> {
    state.limit(peer.ip(), Kind::Lookup)?;
    let rooms = state.blocking(|s| s.lobby(LOBBY_SIZE)).await?;
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
    Ok(Json(json!({ "waiting": waiting, "playing": playing })))
}
