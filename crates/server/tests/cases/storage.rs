// Included once per storage backend by tests/storage.rs.

use plateau_server::storage::{AiJob, Change, Lane, NewRoom, Storage};
use std::sync::Arc;

/// A fresh database on this module's backend, opened (or `None`: skipped).
fn open(name: &str) -> Option<Arc<dyn Storage>> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let db = runtime.block_on(crate::support::fresh_db(BACKEND, name))?;
    drop(runtime);
    Some(db.0.open().expect("the database opens"))
}

/// A room against the master AI, made by `creator`, its move due at `due_ms`.
fn ai_room(storage: &dyn Storage, code: &str, creator: &str, due_ms: Option<i64>) {
    leveled_ai_room(storage, code, creator, due_ms, "master");
}

/// A room as `creator` makes it, before its game starts.
fn friendless(code: &str, creator: &str) -> NewRoom {
    NewRoom {
        code: code.into(),
        game: "escampe".into(),
        variant: String::new(),
        status: "waiting".into(),
        ai: None,
        seats: vec![("white".into(), [7; 32])],
        public: false,
        clock: None,
        now: 100,
        creator: creator.into(),
        ai_due: None,
        move_limit: None,
    }
}

/// A room against the AI at `level`.
fn leveled_ai_room(
    storage: &dyn Storage,
    code: &str,
    creator: &str,
    due_ms: Option<i64>,
    level: &str,
) {
    let room = NewRoom {
        code: code.into(),
        game: "escampe".into(),
        variant: String::new(),
        status: "playing".into(),
        ai: Some(("white".into(), level.into())),
        seats: vec![("black".into(), [7; 32])],
        public: false,
        clock: None,
        now: 100,
        creator: creator.into(),
        ai_due: due_ms,
        move_limit: None,
    };
    assert!(storage.create_room(&room, "{}").unwrap());
}

fn codes(jobs: &[Option<AiJob>]) -> Vec<&str> {
    jobs.iter()
        .map(|job| job.as_ref().map_or("-", |j| j.code.as_str()))
        .collect()
}

#[test]
fn an_ai_job_follows_the_rooms_version_and_ends_with_its_turn() {
    let Some(storage) = open("job-version") else {
        return;
    };
    ai_room(storage.as_ref(), "AAAAA", "10.0.0.1", Some(1_000));
    let job = storage.claim_ai("one", 2_000, 10_000, Lane::Main).unwrap().expect("due");
    assert_eq!((job.code.as_str(), job.version, job.attempts), ("AAAAA", 1, 0));
    assert_eq!(storage.claim_ai("two", 2_001, 10_000, Lane::Main).unwrap(), None, "leased");
    // A change while the AI is still to move (an offer, say) renews the job
    // at the new version, free to claim again.
    let renew = [Change::AiTurn { due_ms: Some(3_000) }];
    assert!(storage.commit("AAAAA", 1, &renew, "{}", 200).unwrap());
    let again = storage.claim_ai("two", 3_001, 10_000, Lane::Main).unwrap().expect("renewed");
    assert_eq!((again.version, again.attempts), (2, 0));
    // The AI's move: its turn is over, the job gone.
    let moved = [
        Change::Move { ply: 1, text: "x".into() },
        Change::AiTurn { due_ms: None },
    ];
    assert!(storage.commit("AAAAA", 2, &moved, "{}", 300).unwrap());
    assert_eq!(storage.claim_ai("one", 1_000_000, 10_000, Lane::Main).unwrap(), None);
    assert!(storage.ai_queue(1_000_000, Lane::Main).unwrap().is_empty());
}

#[test]
fn a_claim_whose_lease_ran_out_is_taken_again() {
    let Some(storage) = open("job-lease") else {
        return;
    };
    ai_room(storage.as_ref(), "BBBBB", "10.0.0.1", Some(0));
    assert!(storage.claim_ai("dead", 1_000, 5_000, Lane::Main).unwrap().is_some());
    assert_eq!(storage.claim_ai("alive", 5_999, 5_000, Lane::Main).unwrap(), None);
    let taken = storage.claim_ai("alive", 6_000, 5_000, Lane::Main).unwrap().expect("expired");
    assert_eq!((taken.code.as_str(), taken.attempts), ("BBBBB", 1));
}

#[test]
fn a_move_given_back_waits_for_its_retry_time_and_releases_are_per_owner() {
    let Some(storage) = open("job-retry") else {
        return;
    };
    ai_room(storage.as_ref(), "CCCCC", "10.0.0.1", Some(0));
    let job = storage.claim_ai("one", 1_000, 60_000, Lane::Main).unwrap().unwrap();
    storage.retry_ai(&job.code, job.version, "one", 4_000).unwrap();
    assert_eq!(storage.claim_ai("one", 3_999, 60_000, Lane::Main).unwrap(), None);
    assert!(storage.claim_ai("two", 4_000, 60_000, Lane::Main).unwrap().is_some());
    // "one" giving the move back again, late, leaves "two"'s claim alone.
    storage.retry_ai(&job.code, job.version, "one", 0).unwrap();
    assert_eq!(storage.claim_ai("three", 4_500, 60_000, Lane::Main).unwrap(), None);
    // Another owner's release leaves the claim alone; the owner's frees it.
    assert_eq!(storage.release_ai(Some("one")).unwrap(), 0);
    assert_eq!(storage.claim_ai("one", 5_000, 60_000, Lane::Main).unwrap(), None);
    assert_eq!(storage.release_ai(Some("two")).unwrap(), 1);
    assert!(storage.claim_ai("one", 5_000, 60_000, Lane::Main).unwrap().is_some());
    assert_eq!(storage.release_ai(None).unwrap(), 1, "all claims");
    // A stale version changes nothing; the current one drops the job.
    storage.drop_ai("CCCCC", 7).unwrap();
    assert_eq!(storage.ai_queue(5_000, Lane::Main).unwrap(), ["CCCCC"]);
    storage.drop_ai("CCCCC", 1).unwrap();
    assert!(storage.ai_queue(5_000, Lane::Main).unwrap().is_empty());
    // A room from before jobs gets one only at its current version.
    storage.ensure_ai("CCCCC", 2, 6_000).unwrap();
    assert!(storage.ai_queue(6_000, Lane::Main).unwrap().is_empty());
    storage.ensure_ai("CCCCC", 1, 6_000).unwrap();
    assert_eq!(storage.ai_queue(6_000, Lane::Main).unwrap(), ["CCCCC"]);
}

#[test]
fn addresses_take_turns_for_the_ai() {
    let Some(storage) = open("job-fair") else {
        return;
    };
    // One address asks for three moves, then another for one.
    ai_room(storage.as_ref(), "XXXX1", "10.0.0.1", Some(1));
    ai_room(storage.as_ref(), "XXXX2", "10.0.0.1", Some(2));
    ai_room(storage.as_ref(), "XXXX3", "10.0.0.1", Some(3));
    ai_room(storage.as_ref(), "YYYY1", "10.0.0.2", Some(4));
    assert_eq!(
        storage.ai_queue(10, Lane::Main).unwrap(),
        ["XXXX1", "YYYY1", "XXXX2", "XXXX3"]
    );
    let claims: Vec<Option<AiJob>> = (0..4)
        .map(|_| storage.claim_ai("one", 10, 60_000, Lane::Main).unwrap())
        .collect();
    assert_eq!(codes(&claims), ["XXXX1", "YYYY1", "XXXX2", "XXXX3"]);
    assert_eq!(claims[0].as_ref().unwrap().waiting, 3, "left in line");
    assert_eq!(claims[3].as_ref().unwrap().waiting, 0);
}

#[test]
fn the_address_served_longest_ago_goes_next() {
    let Some(storage) = open("job-turns") else {
        return;
    };
    ai_room(storage.as_ref(), "XXXX1", "10.0.0.1", Some(1));
    ai_room(storage.as_ref(), "XXXX2", "10.0.0.1", Some(2));
    let first = storage.claim_ai("one", 10, 60_000, Lane::Main).unwrap().unwrap();
    assert_eq!(first.code, "XXXX1");
    // Another address asks while the first address's move is searched...
    ai_room(storage.as_ref(), "YYYY1", "10.0.0.2", Some(20));
    // ...and that search ends (the AI's move drops its job).
    let done = [Change::AiTurn { due_ms: None }];
    assert!(storage.commit("XXXX1", 1, &done, "{}", 200).unwrap());
    // Both addresses now have one move first in their line: the one not
    // served yet goes first, although it asked later.
    let next = storage.claim_ai("one", 30, 60_000, Lane::Main).unwrap().unwrap();
    assert_eq!(next.code, "YYYY1");
    assert_eq!(storage.claim_ai("one", 40, 60_000, Lane::Main).unwrap().unwrap().code, "XXXX2");
}

#[test]
fn claims_made_at_once_never_share_a_move() {
    let Some(storage) = open("job-race") else {
        return;
    };
    for i in 0..8 {
        ai_room(storage.as_ref(), &format!("RACE{i}"), &format!("10.0.0.{i}"), Some(i));
    }
    let claimed: Vec<String> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..8)
            .map(|n| {
                let storage = Arc::clone(&storage);
                scope.spawn(move || storage.claim_ai(&format!("w{n}"), 100, 60_000, Lane::Main).unwrap())
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap().expect("one move each").code)
            .collect()
    });
    let mut unique = claimed.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), 8, "{claimed:?}");
}

#[test]
fn the_cheap_levels_wait_in_a_lane_of_their_own() {
    let Some(storage) = open("job-lanes") else {
        return;
    };
    leveled_ai_room(storage.as_ref(), "MAST1", "10.0.0.1", Some(1), "master");
    leveled_ai_room(storage.as_ref(), "MAST2", "10.0.0.1", Some(2), "expert");
    leveled_ai_room(storage.as_ref(), "BEGI1", "10.0.0.1", Some(3), "beginner");
    leveled_ai_room(storage.as_ref(), "MEDI1", "10.0.0.2", Some(4), "medium");
    assert_eq!(storage.ai_queue(10, Lane::Main).unwrap(), ["MAST1", "MAST2"]);
    assert_eq!(storage.ai_queue(10, Lane::Quick).unwrap(), ["BEGI1", "MEDI1"]);
    let quick = storage.claim_ai("one", 10, 60_000, Lane::Quick).unwrap().unwrap();
    // Each lane counts an address's moves in that lane only: 10.0.0.1's
    // master moves do not hold its beginner move back, and 10.0.0.2's
    // medium move came later.
    assert_eq!(quick.code, "BEGI1");
    assert_eq!(quick.waiting, 1, "only its own lane counts");
    let main = storage.claim_ai("one", 10, 60_000, Lane::Main).unwrap().unwrap();
    assert_eq!((main.code.as_str(), main.waiting), ("MAST1", 1));
    assert_eq!(storage.claim_ai("one", 10, 60_000, Lane::Quick).unwrap().unwrap().code, "MEDI1");
    assert_eq!(storage.claim_ai("one", 10, 60_000, Lane::Quick).unwrap(), None);
}

#[test]
fn live_rooms_are_counted_per_creator_and_heartbeats_kept() {
    let Some(storage) = open("live-rooms") else {
        return;
    };
    ai_room(storage.as_ref(), "LIVE1", "10.0.0.1", None);
    ai_room(storage.as_ref(), "LIVE2", "10.0.0.1", None);
    ai_room(storage.as_ref(), "LIVE3", "10.0.0.2", None);
    assert_eq!(storage.live_rooms("10.0.0.1", 0).unwrap(), 2);
    assert_eq!(storage.live_rooms("10.0.0.9", 0).unwrap(), 0);
    let finish = [Change::Status {
        status: "finished".into(),
        winner: None,
        reason: Some("resignation".into()),
    }];
    assert!(storage.commit("LIVE1", 1, &finish, "{}", 200).unwrap());
    assert_eq!(storage.live_rooms("10.0.0.1", 0).unwrap(), 1, "a finished room is not live");
    // A room waiting for an opponent counts while recent.
    let mut waiting = NewRoom {
        status: "waiting".into(),
        ai: None,
        ..friendless("WAIT1", "10.0.0.1")
    };
    waiting.now = 1_000;
    assert!(storage.create_room(&waiting, "{}").unwrap());
    assert_eq!(storage.live_rooms("10.0.0.1", 1_000).unwrap(), 2);
    assert_eq!(storage.live_rooms("10.0.0.1", 1_001).unwrap(), 1, "lapsed");
    assert_eq!(storage.last_beat().unwrap(), None);
    assert_eq!(storage.first_beat("a", 5_000).unwrap(), None);
    assert_eq!(storage.first_beat("b", 7_000).unwrap(), Some(5_000));
    storage.beat("a", 6_000).unwrap();
    assert_eq!(storage.last_beat().unwrap(), Some(7_000));
    storage.beat("a", 8_000).unwrap();
    assert_eq!(storage.first_beat("c", 9_000).unwrap(), Some(8_000));
}

#[test]
fn clocks_kept_with_moves_follow_takebacks() {
    let Some(storage) = open("move-clocks") else {
        return;
    };
    ai_room(storage.as_ref(), "CLOCK", "10.0.0.1", None);
    let moves: Vec<Change> = (1..=3)
        .flat_map(|ply| {
            [
                Change::Move {
                    ply,
                    text: format!("m{ply}"),
                },
                Change::MoveClock {
                    ply,
                    clocks: [60_000 - ply as i64, 50_000 + ply as i64],
                },
            ]
        })
        .collect();
    assert!(storage.commit("CLOCK", 1, &moves, "{}", 200).unwrap());
    let stored = storage.load_room("CLOCK").unwrap().unwrap();
    assert_eq!(
        stored.move_clocks,
        [(1, [59_999, 50_001]), (2, [59_998, 50_002]), (3, [59_997, 50_003])]
    );
    assert!(storage.commit("CLOCK", 2, &[Change::Takeback { keep: 1 }], "{}", 300).unwrap());
    let stored = storage.load_room("CLOCK").unwrap().unwrap();
    assert_eq!(stored.move_clocks, [(1, [59_999, 50_001])]);
    assert_eq!(stored.moves, ["m1"]);
}

#[test]
fn a_rooms_move_limit_is_kept_and_none_stays_none() {
    let Some(storage) = open("move-limit") else {
        return;
    };
    let limited = NewRoom {
        game: "abalone".into(),
        variant: "belgian-daisy".into(),
        move_limit: Some(200),
        ..friendless("LIMIT", "10.0.0.1")
    };
    assert!(storage.create_room(&limited, "{}").unwrap());
    assert!(storage.create_room(&friendless("NOLIM", "10.0.0.1"), "{}").unwrap());
    let room = storage.load_room("LIMIT").unwrap().expect("stored");
    assert_eq!((room.variant.as_str(), room.move_limit), ("belgian-daisy", Some(200)));
    assert_eq!(storage.load_room("NOLIM").unwrap().expect("stored").move_limit, None);
}
