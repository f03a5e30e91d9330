//! A room in memory: the game rebuilt from its stored moves, the seats, and the
//! channel that fans its events out to subscribers.

use crate::storage::StoredRoom;
use plateau_core::{AnyGame, Side};
use plateau_games::{GameSpec, Level};
use serde_json::{Value, json};
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::broadcast;

/// History lines sent with each state (the room keeps them all).
pub const LOG_SHOWN: usize = 50;

/// Lists of legal moves longer than this are left out of the state (Escampe's
/// 11 088 placements): clients then submit moves and read the verdict.
pub const MAX_LISTED_MOVES: usize = 1000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Waiting for the second player.
    Waiting,
    Playing,
    Finished,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Waiting => "waiting",
            Status::Playing => "playing",
            Status::Finished => "finished",
        }
    }

    pub fn parse(text: &str) -> Option<Status> {
        match text {
            "waiting" => Some(Status::Waiting),
            "playing" => Some(Status::Playing),
            "finished" => Some(Status::Finished),
            _ => None,
        }
    }
}

/// A message for the room's subscribers: a versioned state change (replayed on
/// reconnection) or a presence update (who is connected, the AI thinking).
#[derive(Clone, Debug)]
pub struct Event {
    pub version: Option<u64>,
    pub kind: &'static str,
    pub data: String,
}

impl Event {
    /// The room's whole state at `version`, as sent live and replayed.
    pub fn state(version: u64, data: String) -> Event {
        Event {
            version: Some(version),
            kind: "state",
            data,
        }
    }
}

/// What a handler needs current when it looks a room up, with other
/// instances sharing the storage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    /// The room itself: its game, seats, clock (every change, every answer
    /// built from the state).
    State,
    /// Only the events it has sent: an event stream that resumes from an
    /// event id. After an instance dies, its clients all resume on the others
    /// at once; reading each of their rooms whole made that storm seconds
    /// long.
    Events,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    pub winner: Option<Side>,
    pub reason: String,
}

/// What a pending offer asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OfferKind {
    /// End the game drawn.
    Draw,
    /// Undo the offerer's last move (and the reply to it).
    Takeback,
}

impl OfferKind {
    pub fn name(self) -> &'static str {
        match self {
            OfferKind::Draw => "draw",
            OfferKind::Takeback => "takeback",
        }
    }

    pub fn parse(text: &str) -> Option<OfferKind> {
        match text {
            "draw" => Some(OfferKind::Draw),
            "takeback" => Some(OfferKind::Takeback),
            _ => None,
        }
    }
}

/// An offer waiting for the other player's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Offer {
    pub kind: OfferKind,
    pub by: Side,
}

/// How long a person's clock against the AI waits for their page to show
/// the board before it starts anyway.
pub const FIRST_SIGHT_GRACE_MS: i64 = 30_000;

/// What a room is, as stored: every change is made on a copy, committed, then
/// swapped in, so a failed commit leaves the room as it was.
#[derive(Clone)]
pub struct RoomData {
    pub code: String,
    /// When the room was made (seconds): with the code, its identity, since
    /// a code is drawn again once its room has been swept.
    pub created_at: i64,
    pub spec: GameSpec,
    pub game: Box<dyn AnyGame>,
    pub version: u64,
    pub status: Status,
    pub result: Option<GameResult>,
    /// Token hashes, White first; `None` for a free seat or the AI's.
    pub seats: [Option<[u8; 32]>; 2],
    pub ai: Option<(Side, Level)>,
    pub rematch: Option<String>,
    /// A draw or takeback offer waiting for an answer.
    pub offer: Option<Offer>,
    /// The room's history beyond its moves: offers, answers, takebacks.
    pub log: Vec<String>,
    /// Listed in the lobby.
    pub public: bool,
    /// The players' clocks, in a game with a time control.
    pub clock: Option<crate::clock::ClockState>,
    /// Both clocks (White, Black) as they stood after each move, by ply:
    /// what a takeback sets them back to.
    pub move_clocks: std::collections::BTreeMap<u32, [i64; 2]>,
    /// Abalone's move limit, in plies: the game ends there, won by the side
    /// that has pushed off more marbles. `None`: the game's own rules.
    pub move_limit: Option<u32>,
}

/// What the state shows of the AI's work on this instance.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AiShown {
    /// Searching its move.
    pub thinking: bool,
    /// Its move waits for a thread: its place in line (1: next).
    pub queue: Option<u32>,
}

/// A room in memory: its data and its live parts.
pub struct Room {
    pub data: RoomData,
    pub ai: AiShown,
    /// The version of the last state event sent to the subscribers: ahead of
    /// `data.version` when another instance's changes were passed on before
    /// the room itself was re-read.
    pub published: u64,
    /// Open event streams per seat (tokens sent with the stream).
    pub connected: [usize; 2],
    pub events: broadcast::Sender<Arc<Event>>,
    /// The last state events sent, oldest first: a client reconnecting with
    /// `Last-Event-ID` a few events behind is served from here, not from
    /// storage (after an instance dies, its clients all reconnect at once).
    recent: VecDeque<Arc<Event>>,
    /// Every state event after this version, up to `published`, is in
    /// `recent`.
    recent_from: u64,
    /// When the last check of this room against shared storage began, if it
    /// found the room current: a request that arrived before then needs no
    /// check of its own, since every change acknowledged before it arrived
    /// was in storage when the check read it.
    pub checked: Option<Instant>,
    /// The same for the events alone: when the last check began that found
    /// (or brought) the events sent up to storage's version. A check that
    /// found the room current found its events current too.
    pub events_checked: Option<Instant>,
}

/// Broadcast buffer per room: a subscriber further behind reconnects and is
/// served from storage.
const EVENT_BUFFER: usize = 256;

/// State events kept for reconnecting clients, per room.
const RECENT_EVENTS: usize = 16;

/// A room's game at its start: under a move limit of so many plies where the
/// game takes one, else by the game's own rules.
pub fn room_start(spec: &GameSpec, move_limit: Option<u32>) -> Box<dyn AnyGame> {
    move_limit
        .and_then(|plies| spec.new_game_with_move_limit(plies))
        .unwrap_or_else(|| spec.new_game())
}

pub fn side_name(side: Side) -> &'static str {
    side.name()
}

pub fn parse_side(text: &str) -> Option<Side> {
    match text {
        "white" => Some(Side::White),
        "black" => Some(Side::Black),
        _ => None,
    }
}

impl RoomData {
    /// A new room (not yet stored).
    pub fn new(code: String, spec: GameSpec, ai: Option<(Side, Level)>) -> RoomData {
        RoomData {
            code,
            created_at: crate::app::now(),
            game: spec.new_game(),
            spec,
            version: 1,
            status: if ai.is_some() {
                Status::Playing
            } else {
                Status::Waiting
            },
            result: None,
            seats: [None, None],
            ai,
            rematch: None,
            offer: None,
            log: Vec::new(),
            public: false,
            clock: None,
            move_clocks: std::collections::BTreeMap::new(),
            move_limit: None,
        }
    }

    /// Puts the game under a move limit of `plies` (`None`: none); only
    /// before the first move, since it changes the game's rules.
    pub fn set_move_limit(&mut self, plies: Option<u32>) {
        debug_assert!(self.game.history().is_empty());
        self.move_limit = plies;
        self.game = self.fresh_game();
    }

    /// The room's game at its start, under the room's rules: every replay
    /// starts here.
    pub fn fresh_game(&self) -> Box<dyn AnyGame> {
        room_start(&self.spec, self.move_limit)
    }

    /// Rebuilds a stored room by replaying its moves with the game's rules.
    pub fn restore(stored: StoredRoom) -> Result<RoomData, String> {
        let variant = (!stored.variant.is_empty()).then_some(stored.variant.as_str());
        let spec = GameSpec::lookup(&stored.game, variant).map_err(|e| e.0)?;
        let ai = match &stored.ai {
            Some((seat, level)) => Some((
                parse_side(seat).ok_or_else(|| format!("bad AI seat {seat:?}"))?,
                Level::parse(level).ok_or_else(|| format!("bad AI level {level:?}"))?,
            )),
            None => None,
        };
        let mut room = RoomData::new(stored.code.clone(), spec, ai);
        room.created_at = stored.created_at;
        room.set_move_limit(stored.move_limit);
        for (ply, mv) in stored.moves.iter().enumerate() {
            room.game
                .play(mv)
                .map_err(|e| format!("stored move {} of room {}: {e}", ply + 1, stored.code))?;
        }
        room.version = stored.version;
        room.status = Status::parse(&stored.status)
            .ok_or_else(|| format!("bad status {:?}", stored.status))?;
        room.result = (room.status == Status::Finished).then(|| GameResult {
            winner: stored.winner.as_deref().and_then(parse_side),
            reason: stored.reason.clone().unwrap_or_default(),
        });
        for (seat, hash) in &stored.seats {
            let side = parse_side(seat).ok_or_else(|| format!("bad seat {seat:?}"))?;
            room.seats[side.index()] = Some(*hash);
        }
        room.rematch = stored.rematch.clone();
        room.offer = match &stored.offer {
            Some((kind, seat)) => Some(Offer {
                kind: OfferKind::parse(kind).ok_or_else(|| format!("bad offer {kind:?}"))?,
                by: parse_side(seat).ok_or_else(|| format!("bad offer seat {seat:?}"))?,
            }),
            None => None,
        };
        room.log = stored.log;
        room.public = stored.public;
        room.clock = match &stored.clock {
            Some(clock) => Some(crate::clock::ClockState::restore(clock)?),
            None => None,
        };
        room.move_clocks = stored.move_clocks.iter().copied().collect();
        Ok(room)
    }

    /// Who played each move of the game, in order (a side may play twice
    /// in a row: Escampe's Blanc places, then moves first).
    pub fn movers(&self) -> Vec<Side> {
        let mut replay = self.fresh_game();
        self.game
            .history()
            .iter()
            .map(|mv| {
                let side = replay.side_to_move();
                let _ = replay.play(mv);
                side
            })
            .collect()
    }

    /// How many moves stay if `side`'s last move is taken back (with
    /// everything played since); `None` if `side` has not moved yet.
    pub fn takeback_keep(&self, side: Side) -> Option<usize> {
        self.movers().iter().rposition(|&mover| mover == side)
    }

    /// The game rebuilt with only its first `keep` moves.
    pub fn truncated(&self, keep: usize) -> Result<Box<dyn AnyGame>, String> {
        let mut game = self.fresh_game();
        for mv in self.game.history().iter().take(keep) {
            game.play(mv).map_err(|e| e.to_string())?;
        }
        Ok(game)
    }

    /// Whether `side` may not take moves back at all: in a timed game
    /// against the AI, which answers at once, each takeback would be free
    /// thinking time (Lichess turns takebacks off in rated games for the
    /// same reason).
    /// Whether `side` is a person playing the AI who has not moved yet:
    /// their clock waits until their page has shown them the board (`POST
    /// .../ready`), as on Lichess, where the first move's time does not run
    /// before the player sees the board.
    /// When the room's clock next needs a look: the running side's flag
    /// fall, or the end of a person's grace to open the board against the
    /// AI ([`RoomData::first_sight_due`]).
    pub fn clock_deadline(&self) -> Option<i64> {
        let clock = self.clock?;
        clock
            .deadline()
            .or_else(|| self.first_sight_due().map(|(_, due)| due))
    }

    /// The person whose clock waits for their page, and when it starts
    /// anyway: a page that never says it is ready (a closed tab, a plain
    /// API client) must not hold a timed game open for ever.
    pub fn first_sight_due(&self) -> Option<(Side, i64)> {
        let clock = self.clock?;
        if clock.running.is_some()
            || self.status != Status::Playing
            || self.game.outcome().is_some()
        {
            return None;
        }
        let side = self.game.side_to_move();
        self.awaits_first_sight(side)
            .then(|| (side, clock.since_ms + FIRST_SIGHT_GRACE_MS))
    }

    pub fn awaits_first_sight(&self, side: Side) -> bool {
        if self.ai.is_none() || self.is_ai(side) || self.clock.is_none() {
            return false;
        }
        // Each side has moved once the first two plies are played.
        let mut replay = self.fresh_game();
        for mv in self.game.history().iter().take(2) {
            if replay.side_to_move() == side {
                return false;
            }
            if replay.play(mv).is_err() {
                return false;
            }
        }
        true
    }

    pub fn takebacks_off(&self, side: Side) -> bool {
        self.clock.is_some() && self.is_ai(!side)
    }

    /// Which seat a token holds, if any.
    pub fn seat_of(&self, token: &str) -> Option<Side> {
        Side::ALL.into_iter().find(|side| {
            self.seats[side.index()].is_some_and(|hash| crate::tokens::matches(token, &hash))
        })
    }

    pub fn is_ai(&self, side: Side) -> bool {
        self.ai.is_some_and(|(seat, _)| seat == side)
    }

    /// Whether the AI should be thinking now.
    pub fn ai_to_move(&self) -> bool {
        self.status == Status::Playing
            && self.game.outcome().is_none()
            && self.is_ai(self.game.side_to_move())
    }

    /// The state every client sees (no token in it), with the live parts.
    pub fn state(&self, connected: [usize; 2], ai: AiShown) -> Value {
        let count = if self.status == Status::Playing {
            self.game.legal_move_count()
        } else {
            0
        };
        let listed = if count == 0 {
            Some(Vec::new())
        } else {
            (count <= MAX_LISTED_MOVES).then(|| self.game.legal_moves())
        };
        let seat = |side: Side| {
            json!({
                "taken": self.seats[side.index()].is_some() || self.is_ai(side),
                "connected": connected[side.index()] > 0 || self.is_ai(side),
                "ai": self.is_ai(side),
            })
        };
        let movers = self.movers();
        let may = |side: Side| {
            self.status == Status::Playing && movers.contains(&side) && !self.takebacks_off(side)
        };
        let can_take_back = json!({ "white": may(Side::White), "black": may(Side::Black) });
        json!({
            "code": self.code,
            "game": self.spec.info.name,
            "variant": (!self.spec.variant.is_empty()).then_some(self.spec.variant),
            "title": self.spec.info.title,
            "version": self.version,
            "start": self.game.start_text(),
            "position": self.game.to_text(),
            "moves": self.game.history(),
            "side_to_move": side_name(self.game.side_to_move()),
            "legal_moves": listed,
            "legal_move_count": count,
            "seats": { "white": seat(Side::White), "black": seat(Side::Black) },
            "status": self.status.name(),
            "result": self.result.as_ref().map(|r| json!({
                "winner": r.winner.map(side_name),
                "reason": r.reason,
            })),
            "ai": self.ai.map(|(side, level)| json!({
                "seat": side_name(side),
                "level": level.name(),
                "thinking": ai.thinking,
                "queue": ai.queue,
            })),
            "rematch": self.rematch,
            "offer": self.offer.map(|offer| json!({
                "kind": offer.kind.name(),
                "by": side_name(offer.by),
            })),
            "draw_by_agreement": self.spec.info.draw_by_agreement,
            "can_take_back": can_take_back,
            // The latest lines: enough for the page, bounded for every event.
            "log": &self.log[self.log.len().saturating_sub(LOG_SHOWN)..],
            "public": self.public,
            "clock": self.clock.map(|c| c.shown(crate::clock::now_ms())),
            "move_limit": self.move_limit.map(|plies| json!({
                "plies": plies,
                "moves_each": plies / 2,
                "plies_played": self.game.history().len(),
            })),
        })
    }
}

impl Room {
    pub fn new(data: RoomData) -> Room {
        Room {
            published: data.version,
            ai: AiShown::default(),
            connected: [0, 0],
            events: broadcast::channel(EVENT_BUFFER).0,
            recent: VecDeque::with_capacity(RECENT_EVENTS),
            recent_from: data.version,
            checked: None,
            events_checked: None,
            data,
        }
    }

    /// The current state with the live parts.
    pub fn state(&self) -> Value {
        self.data.state(self.connected, self.ai)
    }

    /// What `data` would look like to clients in this room.
    pub fn state_of(&self, data: &RoomData) -> Value {
        data.state(self.connected, self.ai)
    }

    /// Sends a versioned state event to the subscribers.
    pub fn publish(&mut self, data: String) {
        let version = self.data.version;
        self.publish_at(version, data);
    }

    /// Sends a versioned state event, unless already sent (a change made by
    /// another instance may be heard of twice).
    pub fn publish_at(&mut self, version: u64, data: String) {
        if version <= self.published {
            return;
        }
        self.published = version;
        let event = Arc::new(Event::state(version, data));
        if self.recent.len() == RECENT_EVENTS
            && let Some(oldest) = self.recent.pop_front()
        {
            self.recent_from = oldest.version.unwrap_or(self.recent_from);
        }
        self.recent.push_back(Arc::clone(&event));
        let _ = self.events.send(event);
    }

    /// Whether this copy of the room is older than the events it has sent:
    /// another instance's changes were passed on without reading it again.
    pub fn is_behind(&self) -> bool {
        self.published > self.data.version
    }

    /// Whether a check against shared storage that began after `arrived`
    /// found `need` current: requests waiting on one room share one check
    /// (after an instance dies, its clients all come back at once).
    pub fn checked_since(&self, arrived: Instant, need: Need) -> bool {
        let since = |check: Option<Instant>| check.is_some_and(|check| check >= arrived);
        match need {
            Need::State => since(self.checked) && !self.is_behind(),
            Need::Events => since(self.events_checked),
        }
    }

    /// The state events after `seen` up to `upto`, if they are all still
    /// kept in memory.
    pub fn recent_after(&self, seen: u64, upto: u64) -> Option<Vec<Arc<Event>>> {
        if seen < self.recent_from || upto > self.published {
            return None;
        }
        Some(
            self.recent
                .iter()
                .filter(|e| e.version.is_some_and(|v| seen < v && v <= upto))
                .cloned()
                .collect(),
        )
    }

    /// Sends an unversioned presence event (connections, AI thinking).
    pub fn publish_presence(&self) {
        // Built from the room as last read: behind events already passed on
        // from another instance, it would show an older state. The next
        // state event carries the live parts anyway.
        if self.is_behind() {
            return;
        }
        let _ = self.events.send(Arc::new(Event {
            version: None,
            kind: "presence",
            data: self.state().to_string(),
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn versions(events: Option<Vec<Arc<Event>>>) -> Option<Vec<u64>> {
        events.map(|events| events.iter().filter_map(|e| e.version).collect())
    }

    #[test]
    fn a_persons_clock_waits_for_their_page_only_for_a_grace() {
        let spec = GameSpec::lookup("draughts", None).unwrap();
        let mut room = RoomData::new("ABCDE".into(), spec, Some((Side::Black, Level::Beginner)));
        let mut clock = crate::clock::ClockRequest {
            initial_s: 60.0,
            increment_s: 0.0,
        }
        .build()
        .unwrap();
        clock.stop(1_000);
        room.clock = Some(clock);
        // White, the person, moves first: the clock waits, for a while.
        assert_eq!(
            room.first_sight_due(),
            Some((Side::White, 1_000 + FIRST_SIGHT_GRACE_MS))
        );
        assert_eq!(room.clock_deadline(), Some(1_000 + FIRST_SIGHT_GRACE_MS));
        // Once running, the flag fall is the deadline.
        if let Some(clock) = room.clock.as_mut() {
            clock.start(Side::White, 5_000);
        }
        assert_eq!(room.first_sight_due(), None);
        assert_eq!(room.clock_deadline(), Some(65_000));
        // No AI, or no clock: nothing waits.
        let friends = RoomData::new("FGHJK".into(), spec, None);
        assert_eq!(friends.first_sight_due(), None);
        assert_eq!(friends.clock_deadline(), None);
    }

    #[test]
    fn the_last_events_are_kept_and_only_a_complete_run_is_served() {
        let spec = GameSpec::lookup("escampe", None).unwrap();
        let mut room = Room::new(RoomData::new("ABCDE".into(), spec, None));
        assert_eq!(room.published, 1);
        for version in 2..=10 {
            room.publish_at(version, format!("state {version}"));
        }
        assert_eq!(versions(room.recent_after(1, 10)), Some((2..=10).collect()));
        assert_eq!(versions(room.recent_after(4, 6)), Some(vec![5, 6]));
        assert_eq!(versions(room.recent_after(10, 10)), Some(vec![]));
        // Before the room was read: not in memory.
        assert_eq!(versions(room.recent_after(0, 10)), None);
        for version in 11..=40 {
            room.publish_at(version, format!("state {version}"));
        }
        // An event already sent is not sent or kept twice.
        room.publish_at(40, "again".into());
        let kept = room.recent_after(24, 40).unwrap();
        assert_eq!(kept.len(), RECENT_EVENTS);
        assert_eq!(kept[0].version, Some(25));
        assert_eq!(kept[0].data, "state 25");
        assert_eq!(kept[RECENT_EVENTS - 1].data, "state 40");
        // The oldest kept is 25: resuming after 23 needs 24, gone.
        assert_eq!(versions(room.recent_after(23, 40)), None);
        assert_eq!(
            versions(room.recent_after(30, 35)),
            Some(vec![31, 32, 33, 34, 35])
        );
        // Beyond what was sent: not known here.
        assert_eq!(versions(room.recent_after(30, 41)), None);
    }
}
