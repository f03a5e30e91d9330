//! Draw offers and takebacks: what players ask of each other during a game.
//!
//! One offer can be pending at a time. Between two players it waits for the
//! other's answer; the AI answers at once (it grants every takeback, except
//! in a timed game, and accepts a draw when its own search does not see it
//! better). A move answers the opponent's pending offers (declined) and voids
//! any takeback asked for; an offer of the other kind declines the pending
//! one; every offer, answer and takeback is written to the room's history.
//! A takeback in a timed game sets both clocks back to where they stood
//! before the moves it undoes.

use crate::api::{Body, seat, token};
use crate::app::AppState;
use crate::error::ApiError;
use crate::limits::Kind;
use crate::room::{GameResult, Offer, OfferKind, Room, RoomData, Status, side_name};
use crate::storage::Change;
use axum::Json;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::HeaderMap;
use plateau_core::{EndReason, Side};
use plateau_games::Limits;
use serde::Deserialize;
use serde_json::Value;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// What a player does about an offer.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    /// Make one (or, if the opponent already made the same, accept theirs).
    Offer,
    /// Accept the opponent's.
    Accept,
    /// Decline the opponent's, or withdraw one's own.
    Decline,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OfferBody {
    #[serde(default)]
    token: Option<String>,
    action: Action,
    /// When given, the request only applies to this version of the room.
    #[serde(default)]
    version: Option<u64>,
}

/// How much better (in the engine's units, 100 = a clear advantage) the AI
/// must find its position to turn a draw down.
const AI_DRAW_MARGIN: i32 = 25;

/// The AI's search before answering a draw offer.
const AI_DRAW_THINK: Duration = Duration::from_millis(300);

/// History lines a room keeps at most: offers stop being accepted beyond it,
/// so that offering and withdrawing in a loop cannot grow a room without end.
pub(crate) const MAX_LOG: usize = 200;

/// Removes a pending offer, recording the change.
pub(crate) fn clear_offer(next: &mut RoomData, changes: &mut Vec<Change>) {
    if next.offer.take().is_some() {
        changes.push(Change::Offer { offer: None });
    }
}

fn note(next: &mut RoomData, changes: &mut Vec<Change>, text: String) {
    next.log.push(text.clone());
    changes.push(Change::Note { text });
}

fn set_offer(next: &mut RoomData, changes: &mut Vec<Change>, offer: Offer) {
    next.offer = Some(offer);
    changes.push(Change::Offer {
        offer: Some((
            offer.kind.name().to_string(),
            side_name(offer.by).to_string(),
        )),
    });
}

/// Makes `offer`, which answers an opponent's pending offer of the other
/// kind: declined, and the history says so.
fn replace_offer(next: &mut RoomData, changes: &mut Vec<Change>, offer: Offer) {
    if let Some(pending) = next
        .offer
        .filter(|p| p.kind != offer.kind && p.by != offer.by)
    {
        let (declined, instead) = match pending.kind {
            OfferKind::Draw => ("draw", "asking for a takeback"),
            OfferKind::Takeback => ("takeback", "offering a draw"),
        };
        note(
            next,
            changes,
            format!(
                "{} declined the {declined} ({instead})",
                side_name(offer.by)
            ),
        );
    }
    set_offer(next, changes, offer);
}

/// Checks that the room is in play and, if a version is given, current.
fn check_playing(room: &Room, version: Option<u64>) -> Result<(), ApiError> {
    match room.data.status {
        Status::Finished => return Err(ApiError::conflict("the game is over")),
        Status::Waiting => return Err(ApiError::conflict("the game has not started")),
        Status::Playing => {}
    }
    if let Some(version) = version
        && version != room.data.version
    {
        return Err(ApiError::conflict(format!(
            "stale version {version}: the room is at version {}",
            room.data.version
        )));
    }
    Ok(())
}

/// The answer to `action` on offers of `kind` by `seat`: who the pending offer
/// is from decides what each action means.
fn pending_for(room: &Room, kind: OfferKind, seat: Side, action: Action) -> Result<(), ApiError> {
    let pending = room.data.offer.filter(|offer| offer.kind == kind);
    let what = match kind {
        OfferKind::Draw => "draw offer",
        OfferKind::Takeback => "takeback request",
    };
    match (action, pending) {
        (Action::Offer, Some(offer)) if offer.by == seat => Err(ApiError::conflict(format!(
            "your {what} is already waiting for an answer"
        ))),
        (Action::Offer, _) => match room.data.offer {
            Some(other) if other.kind != kind && other.by == seat => Err(ApiError::conflict(
                format!("your {} is still waiting for an answer", other.kind.name()),
            )),
            _ => Ok(()),
        },
        (Action::Accept, Some(offer)) if offer.by != seat => Ok(()),
        (Action::Accept, _) => Err(ApiError::conflict(format!(
            "there is no {what} from your opponent to accept"
        ))),
        (Action::Decline, Some(_)) => Ok(()),
        (Action::Decline, None) => Err(ApiError::conflict(format!("there is no {what} pending"))),
    }
}

/// `POST /api/rooms/{code}/draw`: offer, accept or decline a draw.
pub async fn draw(
    State(state): State<Arc<AppState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(code): Path<String>,
    headers: HeaderMap,
    Body(body): Body<OfferBody>,
) -> Result<Json<Value>, ApiError> {
    state.limit(peer.ip(), Kind::Join)?;
    let mut room = state.room(&code, peer.ip()).await?;
    let seat = seat(&room, token(&headers, body.token.as_deref())?.as_deref())?;
    crate::clock::check_flag(&state, &mut room).await?;
    check_playing(&room, body.version)?;
    if body.action == Action::Offer && room.data.log.len() >= MAX_LOG {
        return Err(ApiError::conflict(
            "too many offers in this game: answer with a move",
        ));
    }
    if !room.data.spec.info.draw_by_agreement {
        return Err(ApiError::conflict(format!(
            "{} has no draw by agreement: every game has a winner",
            room.data.spec.info.title
        )));
    }
    pending_for(&room, OfferKind::Draw, seat, body.action)?;
    let mut next = room.data.clone();
    let mut changes = Vec::new();
    let opponent_offered = next
        .offer
        .is_some_and(|o| o.kind == OfferKind::Draw && o.by != seat);
    let me = side_name(seat);
    match body.action {
        Action::Offer | Action::Accept if opponent_offered => {
            agree_draw(&mut next, &mut changes, format!("{me} accepted the draw"));
        }
        Action::Offer if next.is_ai(!seat) => {
            note(&mut next, &mut changes, format!("{me} offered a draw"));
            if ai_accepts_draw(&state, &room.data, !seat).await {
                agree_draw(&mut next, &mut changes, "the AI accepted the draw".into());
            } else {
                clear_offer(&mut next, &mut changes);
                note(&mut next, &mut changes, "the AI declined the draw".into());
            }
        }
        Action::Offer => {
            replace_offer(
                &mut next,
                &mut changes,
                Offer {
                    kind: OfferKind::Draw,
                    by: seat,
                },
            );
            note(&mut next, &mut changes, format!("{me} offered a draw"));
        }
        Action::Accept => unreachable!("pending_for allows accepting only an opponent's offer"),
        Action::Decline => decline(&mut next, &mut changes, seat, "draw offer", "draw"),
    }
    Ok(Json(state.commit(&mut room, next, changes).await?))
}

/// Declines the opponent's offer, or withdraws `seat`'s own.
fn decline(next: &mut RoomData, changes: &mut Vec<Change>, seat: Side, own: &str, theirs: &str) {
    let me = side_name(seat);
    let withdrawn = next.offer.is_some_and(|o| o.by == seat);
    clear_offer(next, changes);
    let text = if withdrawn {
        format!("{me} withdrew the {own}")
    } else {
        format!("{me} declined the {theirs}")
    };
    note(next, changes, text);
}

fn agree_draw(next: &mut RoomData, changes: &mut Vec<Change>, text: String) {
    clear_offer(next, changes);
    note(next, changes, text);
    next.status = Status::Finished;
    next.result = Some(GameResult {
        winner: None,
        reason: EndReason::Agreement.to_string(),
    });
    changes.push(Change::Status {
        status: Status::Finished.name().to_string(),
        winner: None,
        reason: Some(EndReason::Agreement.to_string()),
    });
    crate::clock::restart(next, changes, crate::clock::now_ms());
}

/// Whether the AI, playing `ai`, takes a draw: unless a short search finds
/// it better by [`AI_DRAW_MARGIN`].
async fn ai_accepts_draw(state: &Arc<AppState>, data: &RoomData, ai: Side) -> bool {
    let Some((_, level)) = data.ai else {
        return false;
    };
    let spec = data.spec;
    let game = data.game.clone_box();
    // A pool of its own (the handler holds the room, and an AI worker
    // holding a thread may be waiting for that room), with the AI's engine
    // settings: a draw offer costs what a move does.
    let permit = Arc::clone(&state.answer_permits).acquire_owned().await;
    let verdict = tokio::task::spawn_blocking(move || {
        let mut engine = spec.engine_with(&crate::ai::ai_choice(level), 0);
        let mut limits: Limits = level.limits();
        limits.movetime = Some(
            limits
                .movetime
                .map_or(AI_DRAW_THINK, |t| t.min(AI_DRAW_THINK)),
        );
        // A search for its score, not an opening book's move.
        let thought = engine
            .think_excluding(game.as_ref(), &limits, &[], &mut |_| {})
            .ok()?;
        // The score is the side to move's.
        let ours = if game.side_to_move() == ai {
            thought.score
        } else {
            -thought.score
        };
        Some(ours < AI_DRAW_MARGIN)
    })
    .await;
    drop(permit);
    matches!(verdict, Ok(Some(true)))
}

/// `POST /api/rooms/{code}/takeback`: ask to take one's last move back, or
/// answer the opponent's request. Against the AI it is granted at once.
pub async fn takeback(
    State(state): State<Arc<AppState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(code): Path<String>,
    headers: HeaderMap,
    Body(body): Body<OfferBody>,
) -> Result<Json<Value>, ApiError> {
    state.limit(peer.ip(), Kind::Join)?;
    let mut room = state.room(&code, peer.ip()).await?;
    let seat = seat(&room, token(&headers, body.token.as_deref())?.as_deref())?;
    crate::clock::check_flag(&state, &mut room).await?;
    check_playing(&room, body.version)?;
    if body.action == Action::Offer && room.data.log.len() >= MAX_LOG {
        return Err(ApiError::conflict(
            "too many offers in this game: answer with a move",
        ));
    }
    pending_for(&room, OfferKind::Takeback, seat, body.action)?;
    let mut next = room.data.clone();
    let mut changes = Vec::new();
    let me = side_name(seat);
    let opponent_asked = next
        .offer
        .is_some_and(|o| o.kind == OfferKind::Takeback && o.by != seat);
    match body.action {
        Action::Offer | Action::Accept if opponent_asked => {
            take_back(&mut next, &mut changes, !seat, format!("granted by {me}"))?;
        }
        Action::Offer => {
            if room.data.takeback_keep(seat).is_none() {
                return Err(ApiError::conflict("you have no move to take back"));
            }
            if next.is_ai(!seat) {
                if next.takebacks_off(seat) {
                    return Err(ApiError::conflict(
                        "takebacks are off in a timed game against the AI: it answers at \
                         once, so each takeback would be free thinking time",
                    ));
                }
                take_back(&mut next, &mut changes, seat, "against the AI".into())?;
            } else {
                replace_offer(
                    &mut next,
                    &mut changes,
                    Offer {
                        kind: OfferKind::Takeback,
                        by: seat,
                    },
                );
                note(
                    &mut next,
                    &mut changes,
                    format!("{me} asked for a takeback"),
                );
            }
        }
        Action::Accept => unreachable!("pending_for allows accepting only an opponent's offer"),
        Action::Decline => decline(
            &mut next,
            &mut changes,
            seat,
            "takeback request",
            "takeback",
        ),
    }
    let value = state.commit(&mut room, next, changes).await?;
    Ok(Json(value))
}

/// Takes back `side`'s last move and everything played after it.
fn take_back(
    next: &mut RoomData,
    changes: &mut Vec<Change>,
    side: Side,
    why: String,
) -> Result<(), ApiError> {
    let keep = next.takeback_keep(side).ok_or_else(|| {
        ApiError::conflict(format!("{} has no move to take back", side_name(side)))
    })?;
    let undone = next.game.history()[keep..].join(" ");
    let movers = next.movers();
    if let Some(clock) = next.clock.as_mut() {
        // Both clocks as they stood before the undone moves: the time spent
        // on them comes back, and the increments they earned go.
        let before = match keep {
            0 => Some([clock.initial_ms; 2]),
            _ => next.move_clocks.get(&(keep as u32)).copied(),
        };
        match before {
            // Nothing more is charged for the time before the takeback.
            Some(clocks) => {
                clock.remaining_ms = clocks;
                clock.running = None;
            }
            // A room from before the clocks were kept with each move: the
            // time runs on, and the increments at least go (else move, take
            // back, repeat would bank time).
            None => {
                clock.stop(crate::clock::now_ms());
                for mover in &movers[keep..] {
                    let left = &mut clock.remaining_ms[mover.index()];
                    *left = (*left - clock.increment_ms).max(1);
                }
            }
        }
    }
    next.move_clocks.retain(|&ply, _| ply as usize <= keep);
    next.game = next.truncated(keep).map_err(ApiError::internal)?;
    changes.push(Change::Takeback { keep: keep as u32 });
    // The clock goes to the side to move again.
    crate::clock::restart(next, changes, crate::clock::now_ms());
    clear_offer(next, changes);
    note(
        next,
        changes,
        format!("took back {undone} for {} ({why})", side_name(side)),
    );
    Ok(())
}
