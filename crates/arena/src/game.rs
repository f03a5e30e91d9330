//! One game between two players from a start position: moves asked for in
//! turn, checked by the rules, clocks kept, and an end whatever happens (the
//! rules, a ply cap, a time forfeit, a failing engine).

use crate::player::{Clocks, MoveRequest, Player};
use plateau_core::time::Instant;
use plateau_core::{AnyGame, EndReason, Outcome, Side};
use plateau_games::Limits;
use std::time::Duration;

/// A game clock for both players: base time and increment per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockControl {
    pub base: Duration,
    pub increment: Duration,
}

/// How the players' thinking is bounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// Each player's own default limits (a level's depth, `master`'s 2 s).
    Default,
    /// The same limits for every move: a depth, a node count, a move time.
    PerMove(Limits),
    /// A game clock.
    Clock(ClockControl),
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// 0-based game number; in a match, games `2k` and `2k + 1` share an opening.
    pub number: usize,
    /// Which player (0 or 1) had White.
    pub white: usize,
    /// The position the moves start from.
    pub start: String,
    /// Every move from `start`, the opening included.
    pub moves: Vec<String>,
    /// How many of `moves` were the opening.
    pub opening_len: usize,
    pub outcome: Outcome,
    /// Set when the result came from outside the rules: a loss on time, a
    /// failing engine, the ply cap.
    pub note: Option<String>,
    /// Thinking time per player.
    pub time_used: [Duration; 2],
}

impl GameRecord {
    /// The score of player `index` in this game.
    pub fn score_of(&self, index: usize) -> f64 {
        self.outcome.score_for(self.side_of(index))
    }

    /// Whether the game counts: `false` when an engine refused the position
    /// it was first asked to move in (then neither player scores and the
    /// record says `*`).
    pub fn has_result(&self) -> bool {
        self.outcome.reason != EndReason::PositionRefused
    }

    /// `1-0`, `0-1`, `1/2-1/2`, or `*` for a game without result.
    pub fn result_text(&self) -> &'static str {
        if self.has_result() {
            self.outcome.result_text()
        } else {
            "*"
        }
    }

    /// The side player `index` had.
    pub fn side_of(&self, index: usize) -> Side {
        if self.white == index {
            Side::White
        } else {
            Side::Black
        }
    }
}

/// Plays `players[white]` (White) against the other from `start`. `names` are
/// for the notes; `max_plies` adjudicates a draw when the whole game (opening
/// included) reaches that length.
pub(crate) fn play_game(
    start: &dyn AnyGame,
    players: &mut [Box<dyn Player>; 2],
    names: [&str; 2],
    white: usize,
    time: &TimeControl,
    max_plies: Option<u32>,
) -> (Outcome, Vec<String>, Option<String>, [Duration; 2]) {
    let mut game = start.clone_box();
    let mut clocks = match time {
        TimeControl::Clock(control) => Some([control.base; 2]),
        _ => None,
    };
    let mut time_used = [Duration::ZERO; 2];
    // Whether each player has been asked for a move yet.
    let mut has_moved = [false; 2];
    let player_of = |side: Side| {
        if side == Side::White {
            white
        } else {
            1 - white
        }
    };
    let outcome = loop {
        if let Some(outcome) = game.outcome() {
            break (outcome, None);
        }
        if max_plies.is_some_and(|cap| game.history().len() >= cap as usize) {
            break (
                Outcome::draw(EndReason::PlyCap),
                Some(format!(
                    "adjudicated a draw after {} plies",
                    game.history().len()
                )),
            );
        }
        let side = game.side_to_move();
        let player = player_of(side);
        let (limits, both) = match (time, clocks) {
            (TimeControl::Clock(control), Some(left)) => {
                // Clocks are kept per player; protocols want them per side.
                let by_side = [left[player_of(Side::White)], left[player_of(Side::Black)]];
                (
                    Limits::clock(left[player], control.increment),
                    Some(Clocks {
                        remaining: by_side,
                        increment: control.increment,
                    }),
                )
            }
            (TimeControl::PerMove(limits), _) => (*limits, None),
            _ => (players[player].default_limits(), None),
        };
        let request = MoveRequest {
            game: game.as_ref(),
            limits,
            clocks: both,
        };
        let started = Instant::now();
        let chosen = players[player].choose(&request);
        let spent = started.elapsed();
        time_used[player] += spent;
        let first_move = !has_moved[player];
        has_moved[player] = true;
        let played = match chosen {
            // A refusal of the position it was first given (the opening) is
            // the engine's limit, not its loss. Later, it would let an
            // engine escape a lost game: it fails like any other error.
            Err(err) if err.is_refusal() && first_move => {
                let position = game.to_text();
                break (
                    Outcome::draw(EndReason::PositionRefused),
                    Some(format!("{} refused {position}: {err}", names[player])),
                );
            }
            Err(err) => Err(format!("{} failed: {err}", names[player])),
            Ok(mv) => game
                .play(&mv)
                .map(|_| ())
                .map_err(|err| format!("{} played an illegal move: {err}", names[player])),
        };
        if let Err(reason) = played {
            break (Outcome::win(!side, EndReason::EngineFailure), Some(reason));
        }
        if let (TimeControl::Clock(control), Some(left)) = (time, clocks.as_mut()) {
            if spent > left[player] {
                break (
                    Outcome::win(!side, EndReason::TimeForfeit),
                    Some(format!("{} lost on time", names[player])),
                );
            }
            left[player] = left[player] - spent + control.increment;
        }
    };
    let ((outcome, note), moves) = (outcome, game.history().to_vec());
    (outcome, moves, note, time_used)
}
