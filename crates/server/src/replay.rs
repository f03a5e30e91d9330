//! The positions of a game, for stepping through its moves: the page has
//! board drawings but no rules, so the server replays the game for it.

use crate::app::AppState;
use crate::error::ApiError;
use crate::limits::Kind;
use axum::Json;
use axum::extract::{ConnectInfo, Path, State};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;

/// `GET /api/rooms/{code}/positions`: the position text before the first move
/// and after each one, with the version they belong to.
pub async fn positions(
    State(state): State<Arc<AppState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(code): Path<String>,
) -> Result<Json<Value>, ApiError> {
    state.limit(peer.ip(), Kind::Lookup)?;
    let room = state.room(&code, peer.ip()).await?;
    let data = &room.data;
    let mut game = data.fresh_game();
    let mut positions = Vec::with_capacity(data.game.history().len() + 1);
    positions.push(game.to_text());
    for mv in data.game.history() {
        game.play(mv)
            .map_err(|e| ApiError::internal(format!("replaying {code}: {e}")))?;
        positions.push(game.to_text());
    }
    Ok(Json(json!({
        "version": data.version,
        "moves": data.game.history(),
        "positions": positions,
    })))
}
