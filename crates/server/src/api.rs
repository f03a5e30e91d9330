//! The JSON API handlers (see `docs/api.md`).

use crate::app::AppState;
use crate::error::{ApiError, quoted};
use crate::limits::Kind;
use crate::room::{GameResult, OfferKind, Room, RoomData, Status, parse_side, side_name};
use crate::storage::{Change, NewRoom};
use crate::tokens;
use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{ConnectInfo, FromRequest, Path, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use plateau_core::{EndReason, MoveErrorKind, Side};
use plateau_games::{GAMES, GameSpec, Level};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;

/// Longest move text accepted.
const MAX_MOVE_LENGTH: usize = 200;

/// A JSON body whose rejections are JSON errors like every other.
pub struct Body<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        match Json::<T>::from_request(request, state).await {
            Ok(Json(value)) => Ok(Body(value)),
            Err(rejection) => Err(json_rejection(rejection)),
        }
    }
}

fn json_rejection(rejection: JsonRejection) -> ApiError {
    let status = rejection.status();
    let message = match status {
        StatusCode::PAYLOAD_TOO_LARGE => "the request body is too large".to_string(),
        _ => rejection.body_text(),
    };
    ApiError::new(status, message)
}

/// The token of a request: `Authorization: Bearer <token>` or the body's.
/// Both may be given only if they agree: a request naming two seats is
/// refused rather than served as either.
pub(crate) fn token(headers: &HeaderMap, body: Option<&str>) -> Result<Option<String>, ApiError> {
    let bearer = bearer(headers);
    let body = body.map(str::trim).filter(|t| !t.is_empty());
    match (bearer, body) {
        (Some(bearer), Some(body)) if bearer != body => Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "the body's token and the Authorization header's differ: send one",
        )),
        (Some(bearer), _) => Ok(Some(bearer)),
        (None, body) => Ok(body.map(str::to_string)),
    }
}

/// The `Authorization: Bearer` token, if any.
pub(crate) fn bearer(headers: &HeaderMap) -> Option<String> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
}

/// The seat a request's token holds, or 403.
pub(crate) fn seat(room: &Room, token: Option<&str>) -> Result<Side, ApiError> {
    let token = token.ok_or_else(|| ApiError::forbidden("a seat token is required"))?;
    room.data
        .seat_of(token)
        .ok_or_else(|| ApiError::forbidden("unknown token for this room"))
}

pub async fn not_found() -> ApiError {
    ApiError::not_found("no such page; the API lives under /api (see docs/api.md)")
}

/// `GET /api/games`: the games, their variants and the AI levels.
pub async fn games() -> Json<Value> {
    let games: Vec<Value> = GAMES
        .iter()
        .map(|info| {
            json!({
                "name": info.name,
                "title": info.title,
                "description": info.description,
                "variants": info.variants.iter().map(|v| json!({
                    "name": v.name,
                    "description": v.description,
                })).collect::<Vec<_>>(),
                "default_variant": info.variants.first().map(|v| v.name),
                "position_example": info.position_example,
                "sides": {
                    "white": {"name": info.sides[0].name, "note": info.sides[0].note},
                    "black": {"name": info.sides[1].name, "note": info.sides[1].note},
                },
                "draw_by_agreement": info.draw_by_agreement,
                // Rooms end at this limit unless asked otherwise (Abalone).
                "move_limit": info.has_move_limit().then(|| json!({
                    "default_moves_each": DEFAULT_MOVE_LIMIT,
                    "min": MOVE_LIMITS.start(),
                    "max": MOVE_LIMITS.end(),
                })),
            })
        })
        .collect();
    let levels: Vec<&str> = Level::ALL.iter().map(|l| l.name()).collect();
    Json(json!({ "games": games, "levels": levels }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRoom {
    game: String,
    #[serde(default)]
    variant: Option<String>,
    #[serde(default)]
    seat: Option<String>,
    #[serde(default)]
    opponent: Option<String>,
    #[serde(default)]
    level: Option<String>,
    /// List the room in the lobby, for anyone to join or watch.
    #[serde(default)]
    public: bool,
    /// A time control; none by default.
    #[serde(default)]
    clock: Option<crate::clock::ClockRequest>,
    /// The game so far, from the start (against the AI only): a game played
    /// against the computer in the browser, saved to go on here.
    #[serde(default)]
    moves: Option<Vec<String>>,
    /// Abalone: moves each side may play before the game is decided on
    /// marbles pushed off ([`DEFAULT_MOVE_LIMIT`] when absent, 0 for none).
    #[serde(default)]
    move_limit: Option<u32>,
}

/// Abalone rooms' move limit when the request names none: moves each side
/// may play, then the side that has pushed off more marbles wins (a draw
/// when even). Long enough for a real game; short enough that a lead
/// nobody can convert does not run on for hundreds of moves.
pub const DEFAULT_MOVE_LIMIT: u32 = 100;

/// The move limits a room may ask for, moves each side.
const MOVE_LIMITS: std::ops::RangeInclusive<u32> = 10..=500;

/// Longest game or variant name read: longer ones are unknown at once.
const MAX_NAME_CHARS: usize = 40;

/// Moves a new room may be created with.
const MAX_CARRIED_MOVES: usize = 1000;

fn random_side() -> Side {
    let mut byte = [0u8; 1];
    match getrandom::fill(&mut byte) {
        Ok(()) if byte[0] & 1 == 1 => Side::Black,
        _ => Side::White,
    }
}

/// A room request once checked, before any room exists: the game, the seat
/// asked for (`None`: drawn at random) and the AI's level when the opponent is
/// the AI. Apart from the handler so that the fuzz targets (`plateau-fuzz`)
/// check every body without a server.
#[derive(Clone, Debug)]
pub struct RoomChoice {
    pub spec: GameSpec,
    pub seat: Option<Side>,
    pub ai: Option<Level>,
    /// The time control, not yet running.
    pub clock: Option<crate::clock::ClockState>,
    /// The moves the room starts with, as the game writes them, each legal.
    pub moves: Vec<String>,
    /// The game's move limit in plies (Abalone), `None` for none.
    pub move_limit: Option<u32>,
}

impl CreateRoom {
    /// Everything `POST /api/rooms` checks in the body, with its errors.
    pub fn check(&self) -> Result<RoomChoice, ApiError> {
        for (field, text) in [
            ("game", Some(&self.game)),
            ("variant", self.variant.as_ref()),
        ] {
            if let Some(text) = text.filter(|t| t.chars().count() > MAX_NAME_CHARS) {
                return Err(ApiError::unprocessable(format!(
                    "unknown {field} {}; GET /api/games lists them",
                    quoted(text)
                )));
            }
        }
        let spec = GameSpec::lookup(&self.game, self.variant.as_deref())
            .map_err(|e| ApiError::unprocessable(e.0))?;
        let seat = match self.seat.as_deref().unwrap_or("random") {
            "random" => None,
            other => Some(parse_side(other).ok_or_else(|| {
                ApiError::unprocessable(format!(
                    "seat must be white, black or random, not {}",
                    quoted(other)
                ))
            })?),
        };
        let ai = match self.opponent.as_deref().unwrap_or("friend") {
            "friend" => None,
            "ai" => {
                let name = self.level.as_deref().unwrap_or("medium");
                Some(Level::parse(name).ok_or_else(|| {
                    ApiError::unprocessable(format!(
                        "unknown level {}; choose one of {}",
                        quoted(name),
                        Level::ALL.map(|l| l.name()).join(", ")
                    ))
                })?)
            }
            other => {
                return Err(ApiError::unprocessable(format!(
                    "opponent must be friend or ai, not {}",
                    quoted(other)
                )));
            }
        };
        let clock = match self.clock {
            Some(control) => Some(control.build().map_err(ApiError::unprocessable)?),
            None => None,
        };
        let move_limit = self.move_limit(spec)?;
        let moves = self.carried_moves(spec, move_limit, ai.is_some(), clock.is_some())?;
        Ok(RoomChoice {
            spec,
            seat,
            ai,
            clock,
            moves,
            move_limit,
        })
    }

    /// The move limit in plies: Abalone's default or the one asked for.
    fn move_limit(&self, spec: GameSpec) -> Result<Option<u32>, ApiError> {
        match (spec.has_move_limit(), self.move_limit) {
            (true, None) => Ok(Some(DEFAULT_MOVE_LIMIT * 2)),
            (_, Some(0)) | (false, None) => Ok(None),
            (true, Some(moves)) if MOVE_LIMITS.contains(&moves) => Ok(Some(moves * 2)),
            (true, Some(moves)) => Err(ApiError::unprocessable(format!(
                "move_limit: {moves} moves each; from {} to {}, or 0 for none",
                MOVE_LIMITS.start(),
                MOVE_LIMITS.end()
            ))),
            (false, Some(_)) => Err(ApiError::unprocessable(format!(
                "move_limit: {} has no move limit (its own rules end every game)",
                spec.info.title
            ))),
        }
    }

    /// The moves a game carried over starts with, replayed and checked.
    fn carried_moves(
        &self,
        spec: GameSpec,
        move_limit: Option<u32>,
        against_ai: bool,
        clocked: bool,
    ) -> Result<Vec<String>, ApiError> {
        let Some(moves) = self.moves.as_ref().filter(|m| !m.is_empty()) else {
            return Ok(Vec::new());
        };
        if !against_ai {
            return Err(ApiError::unprocessable(
                "moves: only a game against the computer can be carried over",
            ));
        }
        if clocked {
            return Err(ApiError::unprocessable(
                "moves: a game carried over has no clock",
            ));
        }
        if moves.len() > MAX_CARRIED_MOVES {
            return Err(ApiError::unprocessable(format!(
                "moves: {} moves, at most {MAX_CARRIED_MOVES}",
                moves.len()
            )));
        }
        let mut game = crate::room::room_start(&spec, move_limit);
        let mut played = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            check_move_text(text)?;
            let written = game.play(text).map_err(|e| {
                ApiError::unprocessable(format!("moves: move {} ({text}): {e}", i + 1))
            })?;
            played.push(written);
        }
        Ok(played)
    }
}

/// `POST /api/rooms`.
pub async fn create_room(
    State(state): State<Arc<AppState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Body(request): Body<CreateRoom>,
) -> Result<Response, ApiError> {
    state.limit(peer.ip(), Kind::CreateRoom)?;
    let choice = request.check()?;
    state.check_live_rooms(peer.ip()).await?;
    let spec = choice.spec;
    let carried = !choice.moves.is_empty();
    let seat = choice.seat.unwrap_or_else(random_side);
    let ai = choice.ai.map(|level| (!seat, level));
    let clock = choice.clock;
    let token = tokens::new_token();
    let hash = tokens::hash(&token);
    let mut attempts = 0;
    let room = loop {
        attempts += 1;
        check_code_attempts(attempts)?;
        let mut data = RoomData::new(tokens::new_code(), spec, ai);
        data.set_move_limit(choice.move_limit);
        data.seats[seat.index()] = Some(hash);
        data.public = request.public;
        data.clock = clock;
        crate::clock::restart(&mut data, &mut Vec::new(), crate::clock::now_ms());
        let room = Room::new(data);
        let new_room = NewRoom {
            code: room.data.code.clone(),
            game: spec.info.name.to_string(),
            variant: spec.variant.to_string(),
            status: room.data.status.name().to_string(),
            ai: ai.map(|(side, level)| (side_name(side).to_string(), level.name().to_string())),
            seats: vec![(side_name(seat).to_string(), hash)],
            public: request.public,
            clock: room.data.clock.map(|c| c.stored()),
            now: room.data.created_at,
            creator: crate::app::creator_key(peer.ip()),
            // A carried-over game's moves come next: the AI's turn is known then.
            ai_due: (room.data.ai_to_move() && !carried).then(crate::clock::now_ms),
            move_limit: room.data.move_limit,
        };
        let event = room.state().to_string();
        if state
            .blocking(move |s| s.create_room(&new_room, &event))
            .await?
        {
            break room;
        }
    };
    let code = room.data.code.clone();
    let ai_first = room.data.ai_to_move() && !carried;
    let deadline = room.data.clock_deadline();
    state.cache(room);
    if carried {
        carry_over(&state, &code, &choice.moves).await?;
    }
    if ai_first {
        state.wake_ai();
    }
    if let Some(deadline) = deadline {
        crate::clock::watch(Arc::clone(&state), code.clone(), deadline);
    }
    Ok((
        StatusCode::CREATED,
        Json(json!({ "code": code, "seat": side_name(seat), "token": token })),
    )
        .into_response())
}

/// Plays a carried-over game's moves in the new room, in one change (the
/// room's version 2), before anyone else knows its code.
async fn carry_over(state: &Arc<AppState>, code: &str, moves: &[String]) -> Result<(), ApiError> {
    let Some(mut room) = state.own_room(code).await? else {
        return Err(ApiError::internal("the new room vanished"));
    };
    let mut next = room.data.clone();
    let mut changes = Vec::with_capacity(moves.len() + 1);
    for text in moves {
        let played = next
            .game
            .play(text)
            .map_err(|e| ApiError::unprocessable(format!("moves: {text}: {e}")))?;
        let ply = next.game.history().len() as u32;
        changes.push(Change::Move { ply, text: played });
    }
    finish_if_over(&mut next, &mut changes);
    state.commit(&mut room, next, changes).await?;
    Ok(())
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct TokenBody {
    #[serde(default)]
    pub token: Option<String>,
}

/// Codes drawn for one new room before giving up: with the code space
/// sparse, a clash is rare and twenty in a row means it is (nearly) full.
const CODE_ATTEMPTS: u32 = 20;

fn check_code_attempts(attempts: u32) -> Result<(), ApiError> {
    if attempts > CODE_ATTEMPTS {
        return Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "no free room code found: the server is full, try again later",
        ));
    }
    Ok(())
}

/// `POST /api/rooms/{code}/join`.
pub async fn join(
    State(state): State<Arc<AppState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(code): Path<String>,
    headers: HeaderMap,
    Body(body): Body<TokenBody>,
) -> Result<Json<Value>, ApiError> {
    state.limit(peer.ip(), Kind::Join)?;
    let mut room = state.room(&code, peer.ip()).await?;
    let presented = token(&headers, body.token.as_deref())?;
    if let Some(token) = &presented
        && let Some(seat) = room.data.seat_of(token)
    {
        return Ok(Json(json!({ "seat": side_name(seat), "token": token })));
    }
    let free = Side::ALL
        .into_iter()
        .find(|&side| room.data.seats[side.index()].is_none() && !room.data.is_ai(side));
    let Some(seat) = free.filter(|_| room.data.status == Status::Waiting) else {
        return Err(ApiError::conflict(
            "both seats are taken; you can still watch the game",
        ));
    };
    let token = tokens::new_token();
    let hash = tokens::hash(&token);
    let mut next = room.data.clone();
    next.seats[seat.index()] = Some(hash);
    next.status = Status::Playing;
    let mut changes = vec![
        Change::Seat {
            seat: side_name(seat).to_string(),
            token_hash: hash,
        },
        Change::Status {
            status: Status::Playing.name().to_string(),
            winner: None,
            reason: None,
        },
    ];
    crate::clock::restart(&mut next, &mut changes, crate::clock::now_ms());
    state.commit(&mut room, next, changes).await?;
    Ok(Json(json!({ "seat": side_name(seat), "token": token })))
}

/// Rooms one `GET /api/rooms?codes=` reads at most: a browser keeps its
/// last 30 games.
const MAX_SUMMARIES: usize = 30;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SummaryQuery {
    /// Room codes, comma-separated.
    codes: String,
}

/// `GET /api/rooms?codes=A,B,...`: where each of a player's games stands
/// (status, whose turn, result, clocks), for the home page's list: one
/// request instead of one per game. Codes of rooms that no longer exist are
/// listed under `missing`. Each code counts as one room read, and each
/// missing one as a miss: codes past the address's allowance are listed under
/// `unchecked` (ask again later) rather than failing the whole answer, so a
/// list with many expired rooms still gets the standing of the others.
pub async fn summaries(
    State(state): State<Arc<AppState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    query: Result<axum::extract::Query<SummaryQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let axum::extract::Query(query) = query.map_err(|e| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("{}; ask for ?codes=ABCDE,FGHJK", e.body_text()),
        )
    })?;
    let codes: Vec<&str> = query
        .codes
        .split(',')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    if codes.len() > MAX_SUMMARIES {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            format!(
                "{} codes asked for; at most {MAX_SUMMARIES} at once",
                codes.len()
            ),
        ));
    }
    if let Some(bad) = codes
        .iter()
        .find(|c| !tokens::is_code(&c.to_ascii_uppercase()))
    {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            format!(
                "{} is not a room code (five letters and digits)",
                quoted(bad)
            ),
        ));
    }
    let mut rooms = Vec::new();
    let mut missing = Vec::new();
    let mut unchecked = Vec::new();
    let mut refused = None;
    for code in codes {
        let found = match state.limit(peer.ip(), Kind::Lookup) {
            Ok(()) => state.room(code, peer.ip()).await,
            Err(err) => Err(err),
        };
        let mut room = match found {
            Ok(room) => room,
            Err(err) if err.status == StatusCode::NOT_FOUND => {
                missing.push(code.to_ascii_uppercase());
                continue;
            }
            Err(err) if err.status == StatusCode::TOO_MANY_REQUESTS => {
                unchecked.push(code.to_ascii_uppercase());
                refused = Some(err);
                continue;
            }
            Err(err) => return Err(err),
        };
        crate::clock::check_flag(&state, &mut room).await?;
        let data = &room.data;
        rooms.push(json!({
            "code": data.code,
            "game": data.spec.info.name,
            "variant": (!data.spec.variant.is_empty()).then_some(data.spec.variant),
            "title": data.spec.info.title,
            "version": data.version,
            "status": data.status.name(),
            "side_to_move": side_name(data.game.side_to_move()),
            "moves": data.game.history().len(),
            "result": data.result.as_ref().map(|r| json!({
                "winner": r.winner.map(side_name),
                "reason": r.reason,
            })),
            "ai": data.ai.map(|(side, level)| json!({"seat": side_name(side), "level": level.name()})),
            "offer": data.offer.map(|offer| json!({
                "kind": offer.kind.name(),
                "by": side_name(offer.by),
            })),
            "clock": data.clock.map(|c| c.shown(crate::clock::now_ms())),
        }));
    }
    // Nothing answered at all: the refusal itself, with its wait.
    if let Some(err) = refused.filter(|_| rooms.is_empty() && missing.is_empty()) {
        return Err(err);
    }
    Ok(Json(
        json!({ "rooms": rooms, "missing": missing, "unchecked": unchecked }),
    ))
}

/// `GET /api/rooms/{code}`.
pub async fn get_room(
    State(state): State<Arc<AppState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(code): Path<String>,
) -> Result<Json<Value>, ApiError> {
    state.limit(peer.ip(), Kind::Lookup)?;
    let mut room = state.room(&code, peer.ip()).await?;
    crate::clock::check_flag(&state, &mut room).await?;
    Ok(Json(room.state()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveBody {
    #[serde(default)]
    pub token: Option<String>,
    /// The room version the move was chosen in: a stale one is refused.
    pub version: u64,
    #[serde(rename = "move")]
    pub mv: String,
}

/// `POST /api/rooms/{code}/moves`.
pub async fn play(
    State(state): State<Arc<AppState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(code): Path<String>,
    headers: HeaderMap,
    Body(body): Body<MoveBody>,
) -> Result<Json<Value>, ApiError> {
    let mut room = state.room(&code, peer.ip()).await?;
    let seat = seat(&room, token(&headers, body.token.as_deref())?.as_deref())?;
    let state_value = apply_move(&state, &mut room, seat, body.version, &body.mv).await?;
    Ok(Json(state_value))
}

/// The check a move's text gets before the game reads it.
pub fn check_move_text(text: &str) -> Result<(), ApiError> {
    if text.len() > MAX_MOVE_LENGTH {
        return Err(ApiError::unprocessable("that is too long to be a move"));
    }
    Ok(())
}

/// Checks and plays a move for `seat` (a player's or the AI's), commits it, and
/// lets the AI answer if it is its turn.
pub(crate) async fn apply_move(
    state: &Arc<AppState>,
    room: &mut Room,
    seat: Side,
    version: u64,
    text: &str,
) -> Result<Value, ApiError> {
    if crate::clock::check_flag(state, room).await? {
        return Err(ApiError::conflict("the game is over: out of time"));
    }
    match room.data.status {
        Status::Finished => return Err(ApiError::conflict("the game is over")),
        Status::Waiting => return Err(ApiError::conflict("waiting for an opponent to join")),
        Status::Playing => {}
    }
    if version != room.data.version {
        return Err(ApiError::conflict(format!(
            "stale version {version}: the room is at version {}",
            room.data.version
        )));
    }
    if room.data.game.side_to_move() != seat {
        return Err(ApiError::conflict(format!(
            "not your turn: {} is to move",
            side_name(room.data.game.side_to_move())
        )));
    }
    check_move_text(text)?;
    let mut next = room.data.clone();
    let played = next.game.play(text).map_err(|e| match e.kind {
        // The status check above answers this first while the room follows
        // the rules; should it ever not, the same answer.
        MoveErrorKind::GameOver => ApiError::conflict(e.to_string()),
        MoveErrorKind::Unreadable | MoveErrorKind::Illegal => {
            ApiError::unprocessable(e.to_string())
        }
    })?;
    let ply = next.game.history().len() as u32;
    let mut changes = vec![Change::Move { ply, text: played }];
    // A move answers the opponent's offers (declined) and voids a takeback
    // asked for; a draw offered by the mover stands.
    if next
        .offer
        .is_some_and(|offer| offer.kind == OfferKind::Takeback || offer.by != seat)
        || next.game.outcome().is_some()
    {
        crate::offers::clear_offer(&mut next, &mut changes);
    }
    let to_move = next
        .game
        .outcome()
        .is_none()
        .then(|| next.game.side_to_move())
        .filter(|&side| !next.awaits_first_sight(side));
    if let Some(clock) = next.clock.as_mut() {
        clock.after_move(seat, to_move, crate::clock::now_ms());
        changes.push(clock.change());
        next.move_clocks.insert(ply, clock.remaining_ms);
        changes.push(Change::MoveClock {
            ply,
            clocks: clock.remaining_ms,
        });
    }
    finish_if_over(&mut next, &mut changes);
    state.commit(room, next, changes).await
}

/// `POST /api/rooms/{code}/ready`: the page has shown the player the board.
/// Against the AI, a person's clock waits for this before their first move;
/// otherwise (or said twice) it changes nothing. Answers the state.
pub async fn ready(
    State(state): State<Arc<AppState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(code): Path<String>,
    headers: HeaderMap,
    Body(body): Body<TokenBody>,
) -> Result<Json<Value>, ApiError> {
    state.limit(peer.ip(), Kind::Join)?;
    let mut room = state.room(&code, peer.ip()).await?;
    let side = seat(&room, token(&headers, body.token.as_deref())?.as_deref())?;
    let data = &room.data;
    let waiting = data.status == Status::Playing
        && data.game.outcome().is_none()
        && data.game.side_to_move() == side
        && data.clock.is_some_and(|c| c.running.is_none())
        && data.awaits_first_sight(side);
    if !waiting {
        return Ok(Json(room.state()));
    }
    let mut next = room.data.clone();
    let mut changes = Vec::new();
    if let Some(clock) = next.clock.as_mut() {
        clock.start(side, crate::clock::now_ms());
        changes.push(clock.change());
    }
    Ok(Json(state.commit(&mut room, next, changes).await?))
}

/// Ends the room when its game is over by the rules: status and result.
fn finish_if_over(next: &mut RoomData, changes: &mut Vec<Change>) {
    if let Some(outcome) = next.game.outcome() {
        next.status = Status::Finished;
        next.result = Some(GameResult {
            winner: outcome.winner,
            reason: outcome.reason.to_string(),
        });
        changes.push(Change::Status {
            status: Status::Finished.name().to_string(),
            winner: outcome.winner.map(|s| side_name(s).to_string()),
            reason: Some(outcome.reason.to_string()),
        });
    }
}

/// `POST /api/rooms/{code}/resign`.
pub async fn resign(
    State(state): State<Arc<AppState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(code): Path<String>,
    headers: HeaderMap,
    Body(body): Body<TokenBody>,
) -> Result<Json<Value>, ApiError> {
    let mut room = state.room(&code, peer.ip()).await?;
    let seat = seat(&room, token(&headers, body.token.as_deref())?.as_deref())?;
    // A flag that has fallen decides the game before a resignation can.
    crate::clock::check_flag(&state, &mut room).await?;
    match room.data.status {
        Status::Finished => return Err(ApiError::conflict("the game is over")),
        Status::Waiting => return Err(ApiError::conflict("the game has not started")),
        Status::Playing => {}
    }
    let mut next = room.data.clone();
    next.status = Status::Finished;
    next.result = Some(GameResult {
        winner: Some(!seat),
        reason: EndReason::Resignation.to_string(),
    });
    let mut changes = vec![Change::Status {
        status: Status::Finished.name().to_string(),
        winner: Some(side_name(!seat).to_string()),
        reason: Some(EndReason::Resignation.to_string()),
    }];
    crate::offers::clear_offer(&mut next, &mut changes);
    crate::clock::restart(&mut next, &mut changes, crate::clock::now_ms());
    Ok(Json(state.commit(&mut room, next, changes).await?))
}

/// `POST /api/rooms/{code}/rematch`: a new room, same game, colours swapped;
/// both players keep their tokens. Announced through the old room's stream.
pub async fn rematch(
    State(state): State<Arc<AppState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(code): Path<String>,
    headers: HeaderMap,
    Body(body): Body<TokenBody>,
) -> Result<Response, ApiError> {
    let mut room = state.room(&code, peer.ip()).await?;
    let presented = token(&headers, body.token.as_deref())?;
    let seat = seat(&room, presented.as_deref())?;
    let token = presented.unwrap_or_default();
    if room.data.status != Status::Finished {
        return Err(ApiError::conflict(
            "a rematch is offered once the game is over",
        ));
    }
    if let Some(existing) = room.data.rematch.clone() {
        return Ok((
            StatusCode::OK,
            Json(json!({ "code": existing, "seat": side_name(!seat), "token": token })),
        )
            .into_response());
    }
    // A new room: the same allowance as creating one (else resign and
    // rematch in a loop would make rooms without limit).
    state.limit(peer.ip(), Kind::CreateRoom)?;
    state.check_live_rooms(peer.ip()).await?;
    let spec = room.data.spec;
    let ai = room.data.ai.map(|(side, level)| (!side, level));
    let swapped = [room.data.seats[1], room.data.seats[0]];
    let mut attempts = 0;
    let fresh = loop {
        attempts += 1;
        check_code_attempts(attempts)?;
        let mut data = RoomData::new(tokens::new_code(), spec, ai);
        data.set_move_limit(room.data.move_limit);
        data.seats = swapped;
        data.status = Status::Playing;
        data.clock = room.data.clock.map(|c| c.fresh());
        crate::clock::restart(&mut data, &mut Vec::new(), crate::clock::now_ms());
        let fresh = Room::new(data);
        let new_room = NewRoom {
            code: fresh.data.code.clone(),
            game: spec.info.name.to_string(),
            variant: spec.variant.to_string(),
            status: Status::Playing.name().to_string(),
            ai: ai.map(|(side, level)| (side_name(side).to_string(), level.name().to_string())),
            seats: Side::ALL
                .into_iter()
                .filter_map(|side| swapped[side.index()].map(|h| (side_name(side).to_string(), h)))
                .collect(),
            public: false,
            clock: fresh.data.clock.map(|c| c.stored()),
            now: fresh.data.created_at,
            creator: crate::app::creator_key(peer.ip()),
            ai_due: fresh.data.ai_to_move().then(crate::clock::now_ms),
            move_limit: fresh.data.move_limit,
        };
        let event = fresh.state().to_string();
        if state
            .blocking(move |s| s.create_room(&new_room, &event))
            .await?
        {
            break fresh;
        }
    };
    let new_code = fresh.data.code.clone();
    let ai_first = fresh.data.ai_to_move();
    if let Some(deadline) = fresh.data.clock_deadline() {
        crate::clock::watch(Arc::clone(&state), new_code.clone(), deadline);
    }
    state.cache(fresh);
    let mut next = room.data.clone();
    next.rematch = Some(new_code.clone());
    state
        .commit(
            &mut room,
            next,
            vec![Change::Rematch {
                code: new_code.clone(),
            }],
        )
        .await?;
    if ai_first {
        state.wake_ai();
    }
    Ok((
        StatusCode::CREATED,
        Json(json!({ "code": new_code, "seat": side_name(!seat), "token": token })),
    )
        .into_response())
}

/// `GET /api/rooms/{code}/record`: the game in its standard record format.
pub async fn record(
    State(state): State<Arc<AppState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(code): Path<String>,
    headers: HeaderMap,
    query: axum::extract::RawQuery,
) -> Result<Response, ApiError> {
    state.limit(peer.ip(), Kind::Lookup)?;
    let room = state.room(&code, peer.ip()).await?;
    // Where the game was played, as the client reached the server; only a
    // plain host name is written into the record.
    let site = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .filter(|host| {
            host.len() <= 100
                && host
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || ".-:[]".contains(c))
        })
        .map_or_else(|| "plateau".to_string(), |host| format!("plateau {host}"));
    let record = crate::record::write(&room.data, &site);
    let download = query.0.is_some_and(|q| {
        q.split('&')
            .any(|p| p == "download" || p.starts_with("download="))
    });
    let disposition = format!(
        "{}; filename=\"plateau-{}.{}\"",
        if download { "attachment" } else { "inline" },
        room.data.code,
        record.extension
    );
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        record.text,
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drawing_room_codes_gives_up_after_a_bounded_number_of_clashes() {
        for attempt in 1..=CODE_ATTEMPTS {
            assert!(check_code_attempts(attempt).is_ok());
        }
        let full = check_code_attempts(CODE_ATTEMPTS + 1).unwrap_err();
        assert_eq!(full.status, StatusCode::SERVICE_UNAVAILABLE);
    }
}
