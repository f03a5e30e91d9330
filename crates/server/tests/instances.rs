//! Several server instances on one PostgreSQL database: any instance serves
//! any room, live events cross instances, and the version check keeps
//! concurrent writers honest.

#[macro_use]
mod support;

use serde_json::json;
use std::time::Duration;
use support::*;

const BACKEND: Backend = Backend::Postgres;

/// Two servers on one fresh database.
async fn two_instances(name: &str) -> Option<(TestServer, TestServer)> {
    let db = fresh_db(BACKEND, name).await?;
    let a = TestServer::start(&db, test_config()).await;
    let b = TestServer::start(&db, test_config()).await;
    Some((a, b))
}

#[tokio::test(flavor = "multi_thread")]
async fn a_player_on_each_instance_sees_the_others_moves_live() {
    let Some((a, b)) = two_instances("live").await else {
        return;
    };
    let (code, white) = white_room(&a, "escampe").await;
    // The second player joins through the other instance.
    let black = join(&b, &code).await;
    let mut on_a = SseReader::open(
        &a.url(&format!("/api/rooms/{code}/events")),
        Some(&white),
        None,
    )
    .await;
    let mut on_b = SseReader::open(
        &b.url(&format!("/api/rooms/{code}/events")),
        Some(&black),
        None,
    )
    .await;
    assert_eq!(on_a.next_state().await.id, Some(2), "A has seen B's join");
    assert_eq!(on_b.next_state().await.id, Some(2));

    // Black (on B) places, White (on A) places and moves, Black answers on B.
    let turns = [
        (&b, &black, "C6/A6/B5/D5/E6/F5"),
        (&a, &white, "B2/A1/B1/C2/E2/F2"),
        (&a, &white, "C2-C5"),
        (&b, &black, "E"),
    ];
    for (i, (server, token, mv)) in turns.iter().enumerate() {
        let version = 2 + i as u64;
        let (status, body) = play(server, &code, token, version, mv).await;
        assert_eq!(status, 200, "move {mv}: {body}");
        for stream in [&mut on_a, &mut on_b] {
            let event = stream.next_state().await;
            assert_eq!(event.id, Some(version + 1), "{mv}");
            assert_eq!(event.data["moves"].as_array().unwrap().len(), i + 1);
        }
    }
    // Both instances answer with the same state.
    let mut from_a = state(&a, &code).await;
    let mut from_b = state(&b, &code).await;
    // Presence is per instance (each counts its own streams).
    from_a["seats"] = json!(null);
    from_b["seats"] = json!(null);
    assert_eq!(from_a, from_b);
    a.stop().await;
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn concurrent_moves_through_both_instances_give_exactly_one_success() {
    let Some((a, b)) = two_instances("race").await else {
        return;
    };
    for round in 0..6 {
        let (code, white, black) = friend_room(&a).await;
        // Both instances have the room in memory.
        state(&b, &code).await;
        // The same seat sends its move to both at once (two tabs, say).
        let url_a = a.url(&format!("/api/rooms/{code}/moves"));
        let url_b = b.url(&format!("/api/rooms/{code}/moves"));
        let body = json!({"token": black, "version": 2, "move": "C6/A6/B5/D5/E6/F5"});
        let other = json!({"token": black, "version": 2, "move": "A6/B6/C6/D6/E6/F6"});
        let (first, second) = tokio::join!(post(&url_a, body), post(&url_b, other));
        let mut statuses = [first.0, second.0];
        statuses.sort();
        assert_eq!(statuses, [200, 409], "round {round}: {first:?} {second:?}");
        // Both instances show the winner's placement, and only it.
        let winner = if first.0 == 200 { &first.1 } else { &second.1 };
        for server in [&a, &b] {
            let now = state(server, &code).await;
            assert_eq!(now["version"], 3);
            assert_eq!(now["moves"].as_array().unwrap().len(), 1);
            assert_eq!(now["position"], winner["position"], "{winner}");
        }
        // The loser's next try, on its own instance, is based on the new state.
        let (status, body) = play(&b, &code, &white, 3, "B2/A1/B1/C2/E2/F2").await;
        assert_eq!(status, 200, "{body}");
    }
    a.stop().await;
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn reconnecting_to_the_other_instance_replays_exactly_the_missed_events() {
    let Some((a, b)) = two_instances("replay").await else {
        return;
    };
    let (code, white, black) = friend_room(&a).await;
    let mut stream =
        SseReader::open(&a.url(&format!("/api/rooms/{code}/events")), None, None).await;
    assert_eq!(stream.next_state().await.id, Some(2));
    play(&a, &code, &black, 2, "C6/A6/B5/D5/E6/F5").await;
    assert_eq!(stream.next_state().await.id, Some(3));
    // The client loses instance A; meanwhile moves land through A and B.
    drop(stream);
    assert_eq!(play(&a, &code, &white, 3, "B2/A1/B1/C2/E2/F2").await.0, 200);
    assert_eq!(play(&b, &code, &white, 4, "C2-C5").await.0, 200);
    let mut again =
        SseReader::open(&b.url(&format!("/api/rooms/{code}/events")), None, Some(3)).await;
    let replayed: Vec<Option<u64>> = vec![again.next_state().await.id, again.next_state().await.id];
    assert_eq!(replayed, [Some(4), Some(5)]);
    again
        .assert_no_state_within(Duration::from_millis(300), "after the replay")
        .await;
    // And it stays live for a move made through A.
    assert_eq!(play(&a, &code, &black, 5, "E").await.0, 200);
    let live = again.next_state().await;
    assert_eq!(live.id, Some(6));
    assert_eq!(live.data["moves"].as_array().unwrap().len(), 4);
    a.stop().await;
    b.stop().await;
}

/// A stream that resumes from an event id is served from the events an
/// instance has passed on (a spectator's without reading the room again); a
/// seat taken through the other instance since is still recognised by its
/// token.
#[tokio::test(flavor = "multi_thread")]
async fn a_seat_taken_on_the_other_instance_resumes_its_stream_with_its_token() {
    let Some((a, b)) = two_instances("resume-seat").await else {
        return;
    };
    let (code, white) = white_room(&a, "escampe").await;
    let events_on_a = a.url(&format!("/api/rooms/{code}/events"));
    let mut watching = SseReader::open(&events_on_a, None, None).await;
    assert_eq!(watching.next_state().await.id, Some(1));
    // Black joins through B; A passes the event on but keeps its copy.
    let black = join(&b, &code).await;
    assert_eq!(watching.next_state().await.id, Some(2));
    // A's copy of the room is behind the events it passed on: a spectator
    // resumes from them.
    let mut spectator = SseReader::open(&events_on_a, None, Some(1)).await;
    let replayed = spectator.next_state().await;
    assert_eq!(replayed.id, Some(2));
    assert_eq!(replayed.data["seats"]["black"]["taken"], true);
    let mut resumed = SseReader::open(&events_on_a, Some(&black), Some(2)).await;
    resumed
        .assert_no_state_within(Duration::from_millis(200), "resumed up to date")
        .await;
    assert_eq!(play(&b, &code, &black, 2, "C6/A6/B5/D5/E6/F5").await.0, 200);
    let live = resumed.next_state().await;
    assert_eq!(live.id, Some(3));
    assert_eq!(spectator.next_state().await.id, Some(3));
    assert_eq!(live.data["moves"].as_array().unwrap().len(), 1);
    assert_eq!(state(&a, &code).await["seats"]["black"]["connected"], true);
    // The white seat resumes on A from further back: the join and the move.
    let mut white_stream = SseReader::open(&events_on_a, Some(&white), Some(1)).await;
    assert_eq!(white_stream.next_state().await.id, Some(2));
    assert_eq!(white_stream.next_state().await.id, Some(3));
    a.stop().await;
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_room_swept_by_one_instance_is_gone_from_the_other() {
    let Some((a, b)) = two_instances("sweep").await else {
        return;
    };
    let (code, _, _) = friend_room(&a).await;
    state(&b, &code).await;
    // An instance that expires every room at once sweeps the shared database.
    let sweeper_config = plateau_server::ServerConfig {
        idle_expiry: Duration::from_secs(0),
        sweep_interval: Duration::from_millis(200),
        ..test_config()
    };
    let sweeper = TestServer::start(&a.db, sweeper_config).await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (status, body) = get(&b.url(&format!("/api/rooms/{code}"))).await;
    assert_eq!(status, 404, "{body}");
    sweeper.stop().await;
    a.stop().await;
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_clock_started_on_a_stopped_instance_falls_on_the_other() {
    let Some((a, b)) = two_instances("clock").await else {
        return;
    };
    let (code, _, _) = create(
        &a,
        json!({"game": "draughts", "seat": "white", "opponent": "friend", "clock": {"initial_s": 1}}),
    )
    .await;
    // B has the room and a watcher on it before the game starts.
    let mut on_b = SseReader::open(&b.url(&format!("/api/rooms/{code}/events")), None, None).await;
    assert_eq!(on_b.next_state().await.id, Some(1));
    // The second player joins through A, which starts White's clock there;
    // then A stops, its timer with it.
    let (status, joined) = post(&a.url(&format!("/api/rooms/{code}/join")), json!({})).await;
    assert_eq!(status, 200, "{joined}");
    let started = on_b.next_state().await;
    assert_eq!(started.data["clock"]["running"], "white");
    a.stop().await;
    // B heard of the running clock and ends the game on time by itself.
    let ended = on_b.next_state().await;
    assert_eq!(ended.data["status"], "finished", "{:?}", ended.data);
    assert_eq!(
        ended.data["result"],
        json!({"winner": "black", "reason": "time forfeit"})
    );
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_clock_is_watched_by_an_instance_that_first_reads_the_room_after_the_other_stopped() {
    let Some((a, b)) = two_instances("clock-late").await else {
        return;
    };
    let (code, _, _) = create(
        &a,
        json!({"game": "draughts", "seat": "white", "opponent": "friend", "clock": {"initial_s": 2}}),
    )
    .await;
    let (status, _) = post(&a.url(&format!("/api/rooms/{code}/join")), json!({})).await;
    assert_eq!(status, 200);
    a.stop().await;
    // B reads the room for the first time, with White's clock running (or,
    // on a slow machine, just fallen): B alone can end the game.
    let mut on_b = SseReader::open(&b.url(&format!("/api/rooms/{code}/events")), None, None).await;
    let mut now = on_b.next_state().await;
    assert!(now.id >= Some(2), "{:?}", now.data);
    if now.data["status"] == "playing" {
        assert_eq!(now.data["clock"]["running"], "white");
        now = on_b.next_state().await;
    }
    assert_eq!(now.data["status"], "finished", "{:?}", now.data);
    assert_eq!(now.data["result"]["reason"], "time forfeit");
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_code_drawn_again_after_a_sweep_is_the_new_room_on_every_instance() {
    let Some((a, b)) = two_instances("reuse").await else {
        return;
    };
    let (code, _, _) = friend_room(&a).await;
    assert_eq!(state(&b, &code).await["version"], 2, "B holds the old room");
    // The old room is swept, and a new room gets the same code.
    let database = a.db.0.clone();
    let replaced = code.clone();
    tokio::task::spawn_blocking(move || {
        let storage = database.open().unwrap();
        // An instance sweeping at that moment makes this sweep skip its turn.
        let mut swept = Vec::new();
        for _ in 0..100 {
            swept = storage.sweep(i64::MAX).unwrap();
            if !swept.is_empty() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        assert_eq!(swept, [replaced.as_str()]);
        let room = plateau_server::storage::NewRoom {
            code: replaced,
            game: "escampe".into(),
            variant: String::new(),
            status: "waiting".into(),
            ai: None,
            seats: vec![("white".into(), [9; 32])],
            public: false,
            clock: None,
            now: 12_345,
            creator: "10.0.0.1".into(),
            ai_due: None,
            move_limit: None,
        };
        assert!(storage.create_room(&room, "{}").unwrap());
    })
    .await
    .unwrap();
    // B notices that its copy is another room's and serves the new one.
    let now = state(&b, &code).await;
    assert_eq!(
        (now["version"].as_u64(), now["status"].as_str()),
        (Some(1), Some("waiting"))
    );
    a.stop().await;
    b.stop().await;
}
