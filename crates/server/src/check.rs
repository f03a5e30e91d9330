//! A second look before a move: the engine checks whether the move loses by
//! force within a few plies, so that the page can warn a player (an Escampe
//! placement that lets the unicorn be taken at once, say) before it is played.

use crate::api::{Body, seat, token};
use crate::app::AppState;
use crate::error::ApiError;
use crate::limits::Kind;
use crate::storage::Lane;
use axum::Json;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::HeaderMap;
use plateau_games::{Level, Limits, Profile};
use serde::Deserialize;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// How deep and how long the opponent's replies are searched.
const CHECK_DEPTH: u32 = 5;
const CHECK_TIME: Duration = Duration::from_millis(600);

/// Forced losses longer than this (in the player's own moves) are not worth a warning.
const WARN_WITHIN_MOVES: i32 = 3;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckBody {
    #[serde(default)]
    token: Option<String>,
    #[serde(rename = "move")]
    mv: String,
}

/// `POST /api/rooms/{code}/check`: whether a move of the side to move is
/// legal, and whether the opponent then wins by force within a few moves.
pub async fn check(
    State(state): State<Arc<AppState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(code): Path<String>,
    headers: HeaderMap,
    Body(body): Body<CheckBody>,
) -> Result<Json<Value>, ApiError> {
    state.limit(peer.ip(), Kind::Lookup)?;
    state.limit(peer.ip(), Kind::Join)?;
    let (spec, mut game, mover) = {
        let room = state.room(&code, peer.ip()).await?;
        let seat = seat(&room, token(&headers, body.token.as_deref())?.as_deref())?;
        if room.data.game.side_to_move() != seat {
            return Err(ApiError::conflict("not your turn"));
        }
        (room.data.spec, room.data.game.clone_box(), seat)
    };
    if body.mv.len() > 200 {
        return Err(ApiError::unprocessable("that is too long to be a move"));
    }
    let played = match game.play(&body.mv) {
        Ok(played) => played,
        Err(err) => {
            return Ok(Json(json!({"legal": false, "reason": err.to_string()})));
        }
    };
    if game.outcome().is_some() {
        return Ok(Json(
            json!({"legal": true, "move": played, "warning": null}),
        ));
    }
    // The search shares the AI's pool, so checks cannot starve the games.
    let permit = Arc::clone(&state.lane(Lane::Main).permits)
        .acquire_owned()
        .await;
    // After a move the same side may still be to move (Escampe's Blanc places,
    // then moves first): read the score from the mover's side.
    let mover_to_move = game.side_to_move() == mover;
    let opponent = !mover;
    let verdict = tokio::task::spawn_blocking(move || {
        let mut engine = spec.engine(Profile::Level(Level::Strong), 0);
        let limits = Limits {
            depth: Some(CHECK_DEPTH),
            movetime: Some(CHECK_TIME),
            ..Limits::default()
        };
        // A search for its score, not an opening book's move.
        engine.think_excluding(game.as_ref(), &limits, &[], &mut |_| {})
    })
    .await;
    drop(permit);
    let thought = match verdict {
        Ok(Ok(thought)) => thought,
        Ok(Err(reason)) => return Err(ApiError::internal(reason)),
        Err(err) => return Err(ApiError::internal(format!("check failed: {err}"))),
    };
    let mover_score = if mover_to_move {
        thought.score
    } else {
        -thought.score
    };
    // A negative count is the mover's forced loss.
    let warning = plateau_games::plies_to_end(mover_score)
        .map(|plies| -plies)
        .filter(|&plies| plies > 0 && (plies + 1) / 2 <= WARN_WITHIN_MOVES)
        .map(|plies| {
            let moves = (plies + 1) / 2;
            json!({
                "winner": crate::room::side_name(opponent),
                "in_moves": moves,
                "line": thought.pv,
                "text": format!(
                    "after {played}, {} wins by force in {moves} move{}: {}",
                    crate::room::side_name(opponent),
                    if moves == 1 { "" } else { "s" },
                    thought.pv.join(" ")
                ),
            })
        });
    Ok(Json(
        json!({"legal": true, "move": played, "warning": warning}),
    ))
}
