//! One game, from the accepted GAMEREQ to the GAMEEND and its echo: MOVEs in
//! turn, both clocks, and every way a game can end.

use super::peer::Incoming;
use super::record::{GameRecord, write_pdn};
use super::session::{DxpError, Next, Role, Session, Setup, receive_on};
use super::wire::{EndReason, Message, MoveMessage};
use crate::draughts_wire::{describe_fields, move_from_fields};
use crate::limits::within_level;
use plateau_core::{Erased, Game, Outcome, Side};
use plateau_draughts::Draughts;
use plateau_draughts::pdn::PdnResult;
use plateau_games::{Clock, Limits};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// How a game ended: the result, in words, and what comes next.
struct Ending {
    result: PdnResult,
    reason: String,
    next: Next,
}

/// A game in progress.
struct Board<'s> {
    setup: &'s Setup,
    game: Erased<Draughts>,
    /// Thinking time so far, White first.
    times: [Duration; 2],
    /// Each side's time for the game, if the game has a clock.
    clock: Option<Duration>,
    /// When the side to move started thinking (as we see it).
    turn_started: Instant,
    /// Pondering so far: the peer's turns we searched through, and the nodes.
    pondered: (u32, u64),
}

impl Session<'_> {
    /// Plays one game to its GAMEEND, records it and writes the PDN.
    pub(super) fn play(&mut self, setup: Setup) -> Result<Next, DxpError> {
        self.engine.new_game();
        let mut board = Board {
            setup: &setup,
            game: Erased::new(self.spec.full_name(), setup.start.clone()),
            times: [Duration::ZERO; 2],
            clock: (setup.minutes > 0).then(|| Duration::from_secs(u64::from(setup.minutes) * 60)),
            turn_started: Instant::now(),
            pondered: (0, 0),
        };
        let ending = loop {
            let turn = if board.game.game().side_to_move() == setup.our_side {
                self.our_turn(&mut board)
            } else {
                self.their_turn(&mut board)
            };
            if let Some(ending) = turn {
                break ending;
            }
        };
        let record = GameRecord {
            number: setup.number,
            our_side: setup.our_side,
            names: setup.names.clone(),
            start: setup.start.clone(),
            moves: board.game.moves().to_vec(),
            result: ending.result,
            reason: ending.reason,
            times: board.times,
            minutes: setup.minutes,
            move_limit: setup.move_limit,
        };
        (self.log)(&record.line());
        if self.config.ponder {
            let (turns, nodes) = board.pondered;
            (self.log)(&format!(
                "game {}: pondered through {turns} of the peer's turns, {nodes} nodes",
                setup.number
            ));
        }
        self.records.push(record);
        if let Some(path) = &self.config.pdn {
            write_pdn(path, &self.records).map_err(|source| DxpError::Pdn {
                path: path.display().to_string(),
                source,
            })?;
        }
        Ok(ending.next)
    }

    /// Our move, or the end of the game when the rules or the move limit say so.
    fn our_turn(&mut self, board: &mut Board) -> Option<Ending> {
        let setup = board.setup;
        let position = board.game.game();
        if let Some(outcome) = position.outcome() {
            let reason = match outcome.winner {
                Some(_) => EndReason::ILose,
                None => EndReason::Draw,
            };
            let text = outcome.reason.to_string();
            return Some(self.end_game(setup, reason, rules_result(&outcome), text, false));
        }
        if setup.move_limit > 0 && board.game.moves().len() >= 2 * usize::from(setup.move_limit) {
            let text = format!("{} moves played", setup.move_limit);
            return Some(self.abandon(setup, text));
        }
        let limits = self.limits(board);
        let chosen = self
            .engine
            .think(&board.game, &limits, &mut |_| {})
            .and_then(|thought| {
                position
                    .check_move(&thought.best)
                    .map_err(|e| e.to_string())
            });
        let mv = match chosen {
            Ok(mv) => mv,
            Err(reason) => {
                (self.log)(&format!("the engine failed: {reason}"));
                return Some(self.abandon(setup, format!("engine failure: {reason}")));
            }
        };
        let spent = board.turn_started.elapsed();
        board.times[setup.our_side.index()] += spent;
        let message = Message::Move(MoveMessage {
            seconds: spent.as_secs_f64().round().min(9999.0) as u16,
            from: mv.from().number(),
            to: mv.to().number(),
            captured: mv.captured().map(|s| s.number()).collect(),
        });
        if !self.send(&message) {
            return Some(gone(&board.game));
        }
        board.game.play_typed(mv);
        board.turn_started = Instant::now();
        // Our move may complete a draw by rule (the 25-move rule, a
        // repetition, an endgame limit): say so now, rather than wait for a
        // peer that may not apply the rule (Moby Dam plays on) to move.
        match board.game.game().outcome() {
            Some(outcome) if outcome.winner.is_none() => {
                let text = outcome.reason.to_string();
                Some(self.end_game(setup, EndReason::Draw, rules_result(&outcome), text, true))
            }
            _ => None,
        }
    }

    /// Waits for the peer's move (within its clock and the grace), handling
    /// what else it may send meanwhile.
    fn their_turn(&mut self, board: &mut Board) -> Option<Ending> {
        let setup = board.setup;
        let them = (!setup.our_side).index();
        let deadline = match board.clock {
            Some(clock) => {
                board.turn_started + clock.saturating_sub(board.times[them]) + self.config.grace
            }
            None => board.turn_started + self.config.idle_timeout,
        };
        let incoming = if self.config.ponder {
            self.ponder_until_answer(board, deadline)
        } else {
            self.receive(deadline)
        };
        match incoming {
            Incoming::Message(Message::Move(mv)) => {
                board.times[them] += board.turn_started.elapsed();
                match move_from_fields(board.game.game(), mv.from, mv.to, &mv.captured) {
                    Ok(typed) => {
                        board.game.play_typed(typed);
                        board.turn_started = Instant::now();
                        None
                    }
                    Err(reason) => {
                        (self.log)(&format!(
                            "the peer's move is refused: {reason}; position {}",
                            board.game.game().to_text()
                        ));
                        let text = format!(
                            "illegal move from the peer ({})",
                            describe_fields(mv.from, mv.to, &mv.captured)
                        );
                        Some(self.abandon(setup, text))
                    }
                }
            }
            Incoming::Message(Message::GameEnd { reason, stop }) => {
                Some(self.peer_ended(board, reason, stop))
            }
            Incoming::Message(Message::GameRequest(request)) if self.role == Role::Follower => {
                (self.log)("a new GAMEREQ arrived during the game: this game stops without result");
                Some(Ending {
                    result: PdnResult::Unknown,
                    reason: "abandoned for a new game".into(),
                    next: Next::Request(request),
                })
            }
            Incoming::Message(other) => {
                (self.log)(&format!("ignored a {} during the game", other.kind()));
                None
            }
            Incoming::TimedOut => {
                board.times[them] += board.turn_started.elapsed();
                (self.log)("the peer did not move within its time");
                let text = "the peer exceeded its time".to_string();
                let ending =
                    self.end_game(setup, EndReason::IWin, win_for(setup.our_side), text, true);
                // A peer that does not answer is not offered another game.
                Some(Ending {
                    next: Next::Stop,
                    ..ending
                })
            }
            Incoming::Gone(reason) => {
                (self.log)(&format!("the peer left during the game: {reason}"));
                Some(gone(&board.game))
            }
            Incoming::Malformed { .. } => None,
        }
    }

    /// Waits for the peer as [`Session::receive`] does, searching meanwhile
    /// the position with the peer to move: whatever it plays, our next search
    /// finds its position in the table, searched to nearly the depth pondering
    /// reached. The pondering search is stopped as soon as anything arrives.
    fn ponder_until_answer(&mut self, board: &mut Board, deadline: Instant) -> Incoming {
        let position = board.game.clone();
        let limits = within_level(&self.engine.default_limits(), &Limits::default());
        let stop = self.engine.stop_flag();
        let Session {
            peer,
            log,
            engine,
            spec,
            config,
            ..
        } = self;
        let (incoming, pondered) = std::thread::scope(|scope| {
            let search = scope.spawn(|| {
                engine
                    .think_excluding(&position, &limits, &[], &mut |_| {})
                    .map(|thought| thought.nodes)
            });
            let incoming = receive_on(peer, &mut **log, deadline);
            // The search clears its stop flag when it starts: raise it
            // until the search is over, not just once.
            while !search.is_finished() {
                stop.store(true, Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(1));
            }
            (incoming, search.join())
        });
        match pondered {
            Ok(Ok(nodes)) => {
                board.pondered.0 += 1;
                board.pondered.1 += nodes;
            }
            Ok(Err(_)) => {}
            Err(_) => {
                log("the pondering search failed; a new engine takes over");
                *engine = spec.engine_with(&config.engine.or_threads(config.threads), config.seed);
            }
        }
        incoming
    }

    /// Our search limits: our clock within the level's caps (or the level's
    /// own pace when the game has no clock).
    fn limits(&self, board: &Board) -> Limits {
        let level = self.engine.default_limits();
        let Some(clock) = board.clock else {
            return level;
        };
        let setup = board.setup;
        let moves_to_go = (setup.move_limit > 0).then(|| {
            let ours_played = (board.game.moves().len() / 2) as u32;
            u32::from(setup.move_limit)
                .saturating_sub(ours_played)
                .max(1)
        });
        let clock = Clock {
            remaining: clock.saturating_sub(board.times[setup.our_side.index()]),
            increment: Duration::ZERO,
            moves_to_go,
        };
        within_level(
            &level,
            &Limits {
                clock: Some(clock),
                ..Limits::default()
            },
        )
    }

    /// Ends a game that cannot go on, without a result.
    fn abandon(&mut self, setup: &Setup, text: String) -> Ending {
        self.end_game(
            setup,
            EndReason::Unspecified,
            PdnResult::Unknown,
            text,
            true,
        )
    }

    /// We end the game (on our turn): a CHAT saying why when the board does
    /// not show it, the GAMEEND, then the peer's echo.
    fn end_game(
        &mut self,
        setup: &Setup,
        reason: EndReason,
        result: PdnResult,
        text: String,
        explain: bool,
    ) -> Ending {
        if explain {
            self.send(&Message::Chat(format!("game over: {text}")));
        }
        let sent = self.send(&Message::GameEnd {
            reason,
            stop: setup.last,
        });
        let next = if sent {
            self.await_echo(setup.last)
        } else {
            Next::Stop
        };
        Ending {
            result,
            reason: text,
            next,
        }
    }

    fn await_echo(&mut self, last: bool) -> Next {
        let deadline = Instant::now() + self.config.idle_timeout.min(Duration::from_secs(60));
        loop {
            match self.receive(deadline) {
                Incoming::Message(Message::GameEnd { stop, .. }) => {
                    return if stop || last {
                        Next::Stop
                    } else {
                        Next::Continue
                    };
                }
                Incoming::Message(other) => (self.log)(&format!(
                    "ignored a {} while waiting for the GAMEEND echo",
                    other.kind()
                )),
                Incoming::TimedOut => {
                    (self.log)("the peer did not echo GAMEEND; stopping");
                    return Next::Stop;
                }
                Incoming::Gone(_) => {
                    if !last {
                        (self.log)("the peer left after the game");
                    }
                    return Next::Stop;
                }
                Incoming::Malformed { .. } => {}
            }
        }
    }

    /// The peer ended the game: echo it, and take the result from the board
    /// when the rules have one, else from the peer's reason.
    fn peer_ended(&mut self, board: &Board, reason: EndReason, stop: bool) -> Ending {
        let setup = board.setup;
        let echoed = self.send(&Message::GameEnd {
            reason: EndReason::Unspecified,
            stop: setup.last,
        });
        let next = if stop || setup.last || !echoed {
            Next::Stop
        } else {
            Next::Continue
        };
        let us = setup.our_side;
        let (result, text) = match board.game.game().outcome() {
            Some(outcome) => (rules_result(&outcome), outcome.reason.phrase()),
            None => match reason {
                EndReason::ILose => (win_for(us), "the peer resigned"),
                EndReason::Draw => (PdnResult::Draw, "the peer claimed a draw"),
                EndReason::IWin => (win_for(!us), "the peer claimed the win"),
                EndReason::Unspecified => (
                    PdnResult::Unknown,
                    "the peer ended the game without a reason",
                ),
            },
        };
        Ending {
            result,
            reason: text.to_string(),
            next,
        }
    }
}

fn rules_result(outcome: &Outcome) -> PdnResult {
    PdnResult::from_outcome(Some(*outcome))
}

fn win_for(side: Side) -> PdnResult {
    match side {
        Side::White => PdnResult::WhiteWins,
        Side::Black => PdnResult::BlackWins,
    }
}

/// A game whose peer disappeared: the board's result if the game was over,
/// else none.
fn gone(game: &Erased<Draughts>) -> Ending {
    let (result, reason) = match game.game().outcome() {
        Some(outcome) => (rules_result(&outcome), outcome.reason.to_string()),
        None => (PdnResult::Unknown, "the peer left".to_string()),
    };
    Ending {
        result,
        reason,
        next: Next::Stop,
    }
}
