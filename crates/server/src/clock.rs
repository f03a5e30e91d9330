//! Game clocks kept by the server: time is charged from the server's own
//! timestamps, never from what a client says. A flag fall ends the game; it is
//! noticed by a timer set after every change, and by the next request to the
//! room, so it holds across a restart too.

use crate::app::AppState;
use crate::error::ApiError;
use crate::room::{GameResult, Room, RoomData, Status, side_name};
use crate::storage::{Change, StoredClock};
use plateau_core::{EndReason, Side};
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;

/// The limits a clock may be set to.
const MAX_INITIAL_S: f64 = 3.0 * 3600.0;
const MAX_INCREMENT_S: f64 = 600.0;

/// A time control as a room is created with it.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ClockRequest {
    pub initial_s: f64,
    #[serde(default)]
    pub increment_s: f64,
}

impl ClockRequest {
    /// A clock of this control, not yet running.
    pub fn build(self) -> Result<ClockState, String> {
        if !(self.initial_s.is_finite() && self.initial_s >= 1.0 && self.initial_s <= MAX_INITIAL_S)
        {
            return Err(format!(
                "clock.initial_s must be between 1 and {MAX_INITIAL_S} seconds"
            ));
        }
        if !(self.increment_s.is_finite()
            && self.increment_s >= 0.0
            && self.increment_s <= MAX_INCREMENT_S)
        {
            return Err(format!(
                "clock.increment_s must be between 0 and {MAX_INCREMENT_S} seconds"
            ));
        }
        let initial_ms = (self.initial_s * 1000.0).round() as i64;
        Ok(ClockState {
            initial_ms,
            increment_ms: (self.increment_s * 1000.0).round() as i64,
            remaining_ms: [initial_ms; 2],
            running: None,
            since_ms: 0,
        })
    }
}

/// Both players' time. `remaining_ms` is what each had when `running`
/// started thinking, at `since_ms` (milliseconds since the Unix epoch).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockState {
    pub initial_ms: i64,
    pub increment_ms: i64,
    pub remaining_ms: [i64; 2],
    pub running: Option<Side>,
    pub since_ms: i64,
}

/// Now, in milliseconds since the Unix epoch, by the server's clock.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

impl ClockState {
    /// `side`'s time left at `now`.
    pub fn left(&self, side: Side, now: i64) -> i64 {
        let remaining = self.remaining_ms[side.index()];
        if self.running == Some(side) {
            remaining - (now - self.since_ms).max(0)
        } else {
            remaining
        }
    }

    /// The side whose time has run out, if any.
    pub fn flagged(&self, now: i64) -> Option<Side> {
        self.running.filter(|&side| self.left(side, now) <= 0)
    }

    /// When the running side's time runs out.
    pub fn deadline(&self) -> Option<i64> {
        self.running
            .map(|side| self.since_ms + self.remaining_ms[side.index()])
    }

    /// Starts `side`'s time (stopping the other's).
    pub fn start(&mut self, side: Side, now: i64) {
        self.stop(now);
        self.running = Some(side);
        self.since_ms = now;
    }

    /// Stops the running time, charging it.
    pub fn stop(&mut self, now: i64) {
        if let Some(side) = self.running {
            self.remaining_ms[side.index()] = self.left(side, now).max(0);
        }
        self.running = None;
        self.since_ms = now;
    }

    /// `mover` has moved: its time is charged, the increment added, and
    /// `next`'s time starts (none when the game is over).
    pub fn after_move(&mut self, mover: Side, next: Option<Side>, now: i64) {
        self.stop(now);
        self.remaining_ms[mover.index()] += self.increment_ms;
        if let Some(next) = next {
            self.start(next, now);
        }
    }

    /// The state's `clock`: the time left now, and whose clock runs.
    pub fn shown(&self, now: i64) -> Value {
        json!({
            "initial_s": self.initial_ms as f64 / 1000.0,
            "increment_s": self.increment_ms as f64 / 1000.0,
            "white_ms": self.left(Side::White, now).max(0),
            "black_ms": self.left(Side::Black, now).max(0),
            "running": self.running.map(side_name),
        })
    }

    /// The storage change that records this clock.
    pub fn change(&self) -> Change {
        Change::Clock(self.stored())
    }

    pub fn stored(&self) -> StoredClock {
        StoredClock {
            initial_ms: self.initial_ms,
            increment_ms: self.increment_ms,
            white_ms: self.remaining_ms[0],
            black_ms: self.remaining_ms[1],
            running: self.running.map(|s| side_name(s).to_string()),
            since_ms: self.since_ms,
        }
    }

    /// A clock read back from storage.
    pub fn restore(stored: &StoredClock) -> Result<ClockState, String> {
        let running = match stored.running.as_deref() {
            None => None,
            Some(seat) => Some(
                crate::room::parse_side(seat).ok_or_else(|| format!("bad clock side {seat:?}"))?,
            ),
        };
        Ok(ClockState {
            initial_ms: stored.initial_ms,
            increment_ms: stored.increment_ms,
            remaining_ms: [stored.white_ms, stored.black_ms],
            running,
            since_ms: stored.since_ms,
        })
    }

    /// A fresh clock of the same control (a rematch).
    pub fn fresh(&self) -> ClockState {
        ClockState {
            remaining_ms: [self.initial_ms; 2],
            running: None,
            since_ms: 0,
            ..*self
        }
    }
}

/// Starts the clock of the side to move in `next`, if it has a clock and is
/// being played (recording the change), or stops it otherwise. A person's
/// first move against the AI waits for their page ([`RoomData::awaits_first_sight`]).
pub(crate) fn restart(next: &mut RoomData, changes: &mut Vec<Change>, now: i64) {
    let playing = next.status == Status::Playing && next.game.outcome().is_none();
    let to_move = next.game.side_to_move();
    let waits = next.awaits_first_sight(to_move);
    if let Some(clock) = next.clock.as_mut() {
        if playing && !waits {
            clock.start(to_move, now);
        } else {
            clock.stop(now);
        }
        changes.push(clock.change());
    }
}

/// Ends the game if the running side's time is up. Returns whether it did.
/// A clock that waited past its grace for a person's page
/// ([`RoomData::first_sight_due`]) is started first, from the grace's end.
pub(crate) async fn check_flag(state: &Arc<AppState>, room: &mut Room) -> Result<bool, ApiError> {
    let now = now_ms();
    if let Some((side, due)) = room.data.first_sight_due().filter(|&(_, due)| now >= due) {
        let mut next = room.data.clone();
        let mut changes = Vec::new();
        if let Some(clock) = next.clock.as_mut() {
            clock.start(side, due);
            changes.push(clock.change());
        }
        state.commit(room, next, changes).await?;
    }
    let Some(clock) = room.data.clock else {
        return Ok(false);
    };
    let Some(flagged) = clock
        .flagged(now)
        .filter(|_| room.data.status == Status::Playing)
    else {
        return Ok(false);
    };
    let mut next = room.data.clone();
    let mut changes = Vec::new();
    if let Some(clock) = next.clock.as_mut() {
        clock.stop(now);
        clock.remaining_ms[flagged.index()] = 0;
        changes.push(clock.change());
    }
    next.status = Status::Finished;
    next.result = Some(GameResult {
        winner: Some(!flagged),
        reason: EndReason::TimeForfeit.to_string(),
    });
    changes.push(Change::Status {
        status: Status::Finished.name().to_string(),
        winner: Some(side_name(!flagged).to_string()),
        reason: Some(EndReason::TimeForfeit.to_string()),
    });
    crate::offers::clear_offer(&mut next, &mut changes);
    state.commit(room, next, changes).await?;
    Ok(true)
}

/// Wakes up when the running clock of room `code` would fall, and ends the
/// game if it did (a move in the meantime makes this a no-op).
pub(crate) fn watch(state: Arc<AppState>, code: String, deadline_ms: i64) {
    tokio::spawn(async move {
        let wait = (deadline_ms - now_ms()).max(0) as u64 + 5;
        tokio::time::sleep(Duration::from_millis(wait)).await;
        if state.is_closed() {
            return;
        }
        let Ok(Some(mut room)) = state.own_room(&code).await else {
            return;
        };
        if let Err(err) = check_flag(&state, &mut room).await {
            eprintln!("clock of room {code}: {}", err.message);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(initial_s: f64, increment_s: f64) -> ClockState {
        ClockRequest {
            initial_s,
            increment_s,
        }
        .build()
        .unwrap()
    }

    #[test]
    fn time_is_charged_to_the_side_to_move_with_the_increment_after() {
        let mut c = clock(60.0, 2.0);
        c.start(Side::White, 1_000);
        assert_eq!(c.left(Side::White, 11_000), 50_000);
        assert_eq!(c.left(Side::Black, 11_000), 60_000);
        c.after_move(Side::White, Some(Side::Black), 11_000);
        assert_eq!(c.left(Side::White, 20_000), 52_000);
        assert_eq!(c.left(Side::Black, 20_000), 51_000);
        assert_eq!(c.deadline(), Some(11_000 + 60_000));
        assert_eq!(c.flagged(70_999), None);
        assert_eq!(c.flagged(71_000), Some(Side::Black));
        c.stop(30_000);
        assert_eq!(c.running, None);
        assert_eq!(
            c.left(Side::Black, 99_000),
            41_000,
            "a stopped clock keeps its time"
        );
    }

    #[test]
    fn the_state_shows_the_time_left_now() {
        let mut c = clock(300.0, 3.0);
        c.start(Side::Black, 0);
        let shown = c.shown(1_500);
        assert_eq!(shown["black_ms"], 298_500);
        assert_eq!(shown["white_ms"], 300_000);
        assert_eq!(shown["running"], "black");
        assert_eq!(shown["increment_s"], 3.0);
        assert_eq!(c.shown(999_999)["black_ms"], 0, "never negative");
    }

    #[test]
    fn nonsense_controls_are_refused() {
        for (initial, increment) in [
            (0.0, 0.0),
            (-5.0, 1.0),
            (f64::NAN, 0.0),
            (60.0, -1.0),
            (1e9, 0.0),
            (60.0, 1e6),
        ] {
            let request = ClockRequest {
                initial_s: initial,
                increment_s: increment,
            };
            assert!(request.build().is_err(), "{initial} + {increment}");
        }
    }
}
