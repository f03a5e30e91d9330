//! The AI seat: searches run on a bounded pool, off the async runtime, so that
//! many rooms thinking at once never starve the HTTP side.
//!
//! A move the AI owes is a job row, written in the same transaction as the
//! change that made it due. Jobs wait in two lanes, each with threads of its
//! own: the cheap levels (beginner, medium) never wait behind the long
//! searches of the others. Each instance's worker per lane claims jobs with a
//! lease (round robin between addresses, the longest-waiting first),
//! searches, and commits the move only if the room is still at the job's
//! version; the commit drops the job. While many moves wait, each search gets
//! a share of its time, and one already running is cut short when the line
//! grows. A failed move is given back and retried; a claim whose instance
//! died is taken again when its lease runs out.

use crate::app::AppState;
use crate::clock::now_ms;
use crate::error::ApiError;
use crate::room::AiShown;
use crate::storage::{AiJob, Lane};
use plateau_games::{EngineChoice, Level, Limits, Profile, Tweaks};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;
use tokio::sync::{Notify, Semaphore};

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

/// The time a search may take (`full`: the level's own) while `waiting`
/// other moves wait for one of `threads` threads: with more moves than
/// threads, the time is shared out (the search and those waiting), so a
/// long line moves on; never below a floor.
pub(crate) fn shrunk_cap(full: Duration, threads: usize, waiting: u32) -> Duration {
    const FLOOR: Duration = Duration::from_millis(250);
    let threads = threads.max(1) as u32;
    let demand = waiting.saturating_add(1);
    if demand <= threads {
        return full;
    }
    (full * threads / demand).max(FLOOR.min(full))
}

/// One lane of AI moves on this instance.
pub(crate) struct AiLane {
    /// Its threads: a search holds one.
    pub permits: Arc<Semaphore>,
    pub threads: usize,
    /// Wakes its worker: a move became due.
    pub wake: Notify,
    /// Moves waiting for a thread, as last seen: a search running while
    /// many wait is cut short.
    pub waiting: AtomicU32,
}

impl AiLane {
    pub fn new(threads: usize) -> AiLane {
        let threads = threads.max(1);
        AiLane {
            permits: Arc::new(Semaphore::new(threads)),
            threads,
            wake: Notify::new(),
            waiting: AtomicU32::new(0),
        }
    }
}

/// How often a running search checks whether the line has grown.
const SHORTEN_CHECK: Duration = Duration::from_millis(25);

/// An AI worker of this instance, for one lane: while a thread is free,
/// claims the due AI move next in the fair order (from any instance's
/// rooms) and plays it.
pub(crate) async fn work(state: Arc<AppState>, lane: Lane) {
    loop {
        let Ok(permit) = Arc::clone(&state.lane(lane).permits).acquire_owned().await else {
            return;
        };
        if state.is_closed() {
            return;
        }
        let owner = state.instance.clone();
        let lease_ms = lease(state.config.ai_time_cap).as_millis() as i64;
        let claimed = state
            .blocking(move |s| s.claim_ai(&owner, now_ms(), lease_ms, lane))
            .await;
        match claimed {
            Ok(Some(job)) => {
                if state.is_closed() {
                    // Claimed while stopping: back to the line at once.
                    give_back(&state, &job, now_ms()).await;
                    return;
                }
                state
                    .lane(lane)
                    .waiting
                    .store(job.waiting, Ordering::Relaxed);
                let worker = Arc::clone(&state);
                tokio::spawn(async move {
                    play(&worker, job, lane).await;
                    drop(permit);
                });
                state.queue_changed.notify_one();
            }
            Ok(None) => {
                drop(permit);
                tokio::select! {
                    () = state.lane(lane).wake.notified() => {}
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
async fn play(state: &Arc<AppState>, job: AiJob, lane: Lane) {
    if let Err(err) = think(state, &job, lane).await {
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

async fn think(state: &Arc<AppState>, job: &AiJob, lane: Lane) -> Result<(), ApiError> {
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
    // The level's own time (master's; the depth-bound levels have none but
    // the cap), never past the cap.
    let cap = state.config.ai_time_cap;
    let full = level.limits().movetime.map_or(cap, |t| t.min(cap));
    let threads = state.lane(lane).threads;
    let seed = version
        ^ code
            .bytes()
            .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(b as u64));
    // Built off the runtime (its table is allocated here).
    let mut engine = tokio::task::spawn_blocking(move || spec.engine_with(&ai_choice(level), seed))
        .await
        .map_err(|e| ApiError::internal(format!("AI task failed: {e}")))?;
    let stop = engine.stop_flag();
    let started = std::time::Instant::now();
    let budget = shrunk_cap(full, threads, job.waiting);
    let search = tokio::task::spawn_blocking(move || {
        let mut limits: Limits = level.limits();
        limits.movetime = Some(budget);
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
    });
    tokio::pin!(search);
    // While it searches, a line grown longer cuts it short: its share of
    // the time shrinks with the moves waiting behind it.
    let decision = loop {
        tokio::select! {
            decision = &mut search => break decision,
            () = tokio::time::sleep(SHORTEN_CHECK) => {
                let waiting = state.lane(lane).waiting.load(Ordering::Relaxed);
                if started.elapsed() >= shrunk_cap(full, threads, waiting) {
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
    };
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

/// Keeps the rooms kept here whose AI move waits told of their place in
/// line, whenever the lines change: a move due, a move claimed.
pub(crate) async fn show_queues(state: Arc<AppState>) {
    loop {
        tokio::select! {
            () = state.queue_changed.notified() => {}
            // Other instances' claims change the lines too.
            () = tokio::time::sleep(POLL * 2) => {}
            () = state.stopped() => return,
        }
        // Changes come in bursts (six rooms made at once): one look each.
        tokio::time::sleep(Duration::from_millis(20)).await;
        for lane in [Lane::Main, Lane::Quick] {
            show_queue(&state, lane).await;
        }
    }
}

/// Tells the rooms kept here whose AI move waits in `lane` their place.
async fn show_queue(state: &Arc<AppState>, lane: Lane) {
    let Ok(queue) = state.blocking(move |s| s.ai_queue(now_ms(), lane)).await else {
        return;
    };
    state
        .lane(lane)
        .waiting
        .store(queue.len() as u32, Ordering::Relaxed);
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
        assert_eq!(shrunk_cap(cap, 4, 3), cap);
        assert_eq!(shrunk_cap(cap, 4, 7), Duration::from_millis(2500));
        assert_eq!(shrunk_cap(cap, 1, 4), Duration::from_secs(1));
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
