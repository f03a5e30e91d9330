//! The AI seat: searches run on a bounded pool, off the async runtime, so that
//! many rooms thinking at once never starve the HTTP side.

use crate::app::AppState;
use plateau_games::{EngineChoice, Level, Limits, Profile, Tweaks};
use std::sync::Arc;

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

/// Starts the AI's move in room `code` if it is the AI's turn (a no-op
/// otherwise, or if it is already thinking).
pub fn schedule(state: Arc<AppState>, code: String) {
    tokio::spawn(async move {
        if let Err(err) = think(state, &code).await {
            eprintln!("AI in room {code}: {}", err.message);
        }
    });
}

async fn think(state: Arc<AppState>, code: &str) -> Result<(), crate::error::ApiError> {
    let Some(shared) = state.own_room(code).await? else {
        return Ok(());
    };
    let (game, version, level, seat) = {
        let mut room = shared.lock().await;
        if room.ai_thinking || !room.data.ai_to_move() {
            return Ok(());
        }
        let Some((seat, level)) = room.data.ai else {
            return Ok(());
        };
        room.ai_thinking = true;
        room.publish_presence();
        (room.data.game.clone_box(), room.data.version, level, seat)
    };
    let permit = Arc::clone(&state.ai_permits).acquire_owned().await;
    let (spec, clock) = {
        let room = shared.lock().await;
        (room.data.spec, room.data.clock)
    };
    let cap = state.config.ai_time_cap;
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
                remaining: std::time::Duration::from_millis(left),
                increment: std::time::Duration::from_millis(clock.increment_ms.max(0) as u64),
                moves_to_go: None,
            });
        }
        engine.think(game.as_ref(), &limits, &mut |_| {})
    })
    .await;
    drop(permit);
    let mut room = shared.lock().await;
    room.ai_thinking = false;
    let outcome = match decision {
        Ok(Ok(thought)) if room.data.version == version => {
            crate::api::apply_move(&state, &mut room, seat, version, &thought.best)
                .await
                .map(|_| ())
        }
        // The room changed while thinking (a resignation, a declined draw
        // offer, a takeback): this answer is stale. If the AI is still to move,
        // it thinks again; a search asked for meanwhile was skipped while this
        // one ran.
        Ok(Ok(_)) => {
            if room.data.ai_to_move() {
                schedule(Arc::clone(&state), code.to_string());
            }
            Ok(())
        }
        Ok(Err(reason)) => Err(crate::error::ApiError::internal(reason)),
        Err(err) => Err(crate::error::ApiError::internal(format!(
            "AI task failed: {err}"
        ))),
    };
    room.publish_presence();
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use plateau_games::{GAMES, GameSpec};

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
