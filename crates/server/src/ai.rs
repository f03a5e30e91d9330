//! The AI seat: searches run on a bounded pool, off the async runtime, so that
//! many rooms thinking at once never starve the HTTP side.
//!
//! A move the AI owes is a job row, written in the same transaction as the
//! change that made it due. Each instance's worker claims jobs with a lease
//! (the longest-waiting first, addresses with the fewest searches running
//! first), searches, and commits the move only if the room is still at the
//! job's version; the commit drops the job. A failed move is given back and
//! retried; a claim whose instance died is taken again when its lease runs
//! out.

use crate::app::AppState;
use crate::clock::now_ms;
use crate::error::ApiError;
use crate::room::AiShown;
use crate::storage::AiJob;
use plateau_games::{EngineChoice, Level, Limits, Profile, Tweaks};
use std::sync::Arc;
use std::time::Duration;

/// Transposition table of an AI move: small, since many may run at once.
const AI_TABLE_MB: usize = 8;

/// The engine of an AI seat at `level`. One thread per search, whatever the
/// machine: the pool already runs one search per core (`ai_threads`), so
/// threads within a search would only compete with the other rooms'.
pub(crate) fn ai_choice(level: Level) -> EngineChoice {
    EngineChoice {
        profile: Profile::Level(level),
        tweaks: Tweaks {
            table_mb: Some(AI_TABLE_MB),
            threads: Some(1),
            ..Tweaks::default()
        },
    }
}

/// How long an idle worker waits before looking for due moves again: a
/// claim whose instance died, or a retry whose time came, needs no wake-up.
const POLL: Duration = Duration::from_millis(500);

/// The longest wait before a failed AI move is tried again.
const MAX_RETRY_DELAY: Duration = Duration::from_secs(30);

/// How long a claim holds: a search never runs past the time cap, so a claim
/// still held after twice that (and a margin for the commit) belongs to a
/// dead instance.
pub(crate) fn lease(cap: Duration) -> Duration {
    cap * 2 + Duration::from_secs(3)
}

/// The AI's time cap for a move claimed while `waiting` others wait for one
/// of `threads` threads: shared out, so a long line moves on.
pub(crate) fn shrunk_cap(cap: Duration, threads: usize, waiting: u32) -> Duration {
    const FLOOR: Duration = Duration::from_millis(250);
    let threads = threads.max(1) as u32;
    if waiting <= threads {
        return cap;
    }
    (cap * threads / waiting).max(FLOOR.min(cap))
}

/// The AI worker of this instance: while a thread is free, claims the due
/// AI move that has waited longest (from any instance's rooms) and plays it.
pub(crate) async fn work(state: Arc<AppState>) {
    loop {
        let Ok(permit) = Arc::clone(&state.ai_permits).acquire_owned().await else {
            return;
        };
        if state.is_closed() {
            return;
        }
        let owner = state.instance.clone();
        let lease_ms = lease(state.config.ai_time_cap).as_millis() as i64;
        let claimed = state
            .blocking(move |s| s.claim_ai(&owner, now_ms(), lease_ms))
            .await;
        match claimed {
            Ok(Some(job)) => {
                if state.is_closed() {
                    // Claimed while stopping: back to the line at once.
                    give_back(&state, &job, now_ms()).await;
                    return;
                }
                let worker = Arc::clone(&state);
                tokio::spawn(async move {
                    play(&worker, job).await;
                    drop(permit);
                });
                show_queue(&state).await;
            }
            Ok(None) => {
                drop(permit);
                tokio::select! {
                    _ = state.ai_wake.notified() => {}
                    _ = tokio::time::sleep(POLL) => {}
                    () = state.stopped() => return,
                }
            }
            Err(err) => {
                drop(permit);
                eprintln!("AI moves: {}", err.message);
                tokio::time::sleep(POLL * 2).await;
            }
        }
    }
}

/// Plays a claimed move; a failure gives it back to be tried again later.
async fn play(state: &Arc<AppState>, job: AiJob) {
    if let Err(err) = think(state, &job).await {
        if state.is_closed() {
            // Stopping: another instance (or the next run) plays it.
            give_back(state, &job, now_ms()).await;
            return;
        }
        let delay = Duration::from_secs(1 << job.attempts.min(5)).min(MAX_RETRY_DELAY);
        eprintln!(
            "AI in room {}: {}; trying again in {} s",
            job.code,
            err.message,
            delay.as_secs()
        );
        give_back(state, &job, now_ms() + delay.as_millis() as i64).await;
    }
}

/// Returns a claimed move to the line, to be claimed from `at_ms`.
async fn give_back(state: &Arc<AppState>, job: &AiJob, at_ms: i64) {
    let (code, version, owner) = (job.code.clone(), job.version, state.instance.clone());
    if let Err(err) = state
        .blocking(move |s| s.retry_ai(&code, version, &owner, at_ms))
        .await
    {
        // Its lease runs out instead.
        eprintln!("AI in room {}: {}", job.code, err.message);
    }
}

async fn think(state: &Arc<AppState>, job: &AiJob) -> Result<(), ApiError> {
    let code = job.code.as_str();
    let Some(mut room) = state.own_room(code).await? else {
        // The room is gone, and its job with it.
        return Ok(());
    };
    let shared = Arc::clone(tokio::sync::OwnedMutexGuard::mutex(&room));
    let (game, version, level, seat, spec, clock) = {
        let Some((seat, level)) = room.data.ai else {
            return drop_stale(state, job).await;
        };
        if room.data.version != job.version || !room.data.ai_to_move() {
            return drop_stale(state, job).await;
        }
        room.ai = AiShown {
            thinking: true,
            queue: None,
        };
        room.publish_presence();
        (
            room.data.game.clone_box(),
            room.data.version,
            level,
            seat,
            room.data.spec,
            room.data.clock,
        )
    };
    // The search runs unlocked: the room stays open to its players.
    drop(room);
    let cap = shrunk_cap(
        state.config.ai_time_cap,
        state.config.ai_threads,
        job.waiting,
    );
    let seed = version
        ^ code
            .bytes()
            .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(b as u64));
    let decision = tokio::task::spawn_blocking(move || {
        let mut engine = spec.engine_with(&ai_choice(level), seed);
        let mut limits: Limits = level.limits();
        limits.movetime = Some(limits.movetime.map_or(cap, |t| t.min(cap)));
        if level == Level::Master {
            limits.movetime = Some(plateau_games::MASTER_MOVETIME.min(cap));
        }
        // On a clock the AI also plays by its time left, as a person must.
        if let Some(clock) = clock {
            let left = clock.left(seat, crate::clock::now_ms()).max(0) as u64;
            limits.clock = Some(plateau_games::Clock {
                remaining: Duration::from_millis(left),
                increment: Duration::from_millis(clock.increment_ms.max(0) as u64),
                moves_to_go: None,
            });
        }
        engine.think(game.as_ref(), &limits, &mut |_| {})
    })
    .await;
    let mut room = shared.lock().await;
    room.ai.thinking = false;
    // Another instance may have changed the room meanwhile.
    if state.storage.is_shared() {
        state.refresh(&mut room, None).await?;
    }
    let outcome = match decision {
        Ok(Ok(thought)) if room.data.version == version => {
            crate::api::apply_move(state, &mut room, seat, version, &thought.best)
                .await
                .map(|_| ())
        }
        // The room changed while thinking (a resignation, a declined draw
        // offer, a takeback): this answer is stale, and the change that made
        // it so also renewed or dropped the job.
        Ok(Ok(_)) => Ok(()),
        Ok(Err(reason)) => Err(ApiError::internal(reason)),
        Err(err) => Err(ApiError::internal(format!("AI task failed: {err}"))),
    };
    room.publish_presence();
    outcome
}

/// A claimed move the room no longer asks for.
async fn drop_stale(state: &Arc<AppState>, job: &AiJob) -> Result<(), ApiError> {
    let (code, version) = (job.code.clone(), job.version);
    state.blocking(move |s| s.drop_ai(&code, version)).await
}

/// Tells the rooms kept here whose AI move waits their place in line.
pub(crate) async fn show_queue(state: &Arc<AppState>) {
    let Ok(queue) = state.blocking(|s| s.ai_queue(now_ms())).await else {
        return;
    };
    for (place, code) in queue.iter().enumerate() {
        let Some(shared) = state.cached_room(code) else {
            continue;
        };
        let mut room = shared.lock().await;
        let shown = AiShown {
            thinking: false,
            queue: Some(place as u32 + 1),
        };
        if !room.ai.thinking && room.ai != shown && room.data.ai_to_move() {
            room.ai = shown;
            room.publish_presence();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plateau_games::{GAMES, GameSpec};

    #[test]
    fn a_long_line_shrinks_the_time_cap_but_not_below_a_floor() {
        let cap = Duration::from_secs(5);
        assert_eq!(shrunk_cap(cap, 4, 0), cap);
        assert_eq!(shrunk_cap(cap, 4, 4), cap);
        assert_eq!(shrunk_cap(cap, 4, 8), Duration::from_millis(2500));
        assert_eq!(shrunk_cap(cap, 2, 1000), Duration::from_millis(250));
        assert_eq!(
            shrunk_cap(Duration::from_millis(100), 1, 50),
            Duration::from_millis(100)
        );
        assert!(lease(cap) > cap * 2);
    }

    #[test]
    fn ai_engines_search_with_one_thread_and_a_small_table() {
        for info in GAMES {
            let spec = GameSpec::lookup(info.name, None).unwrap();
            for level in Level::ALL {
                let engine = spec.engine_with(&ai_choice(level), 7);
                assert_eq!(engine.threads(), 1, "{} {level:?}", info.name);
                assert_eq!(engine.table_mb(), AI_TABLE_MB, "{} {level:?}", info.name);
            }
        }
    }
}
