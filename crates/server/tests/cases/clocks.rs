// Included once per storage backend by the test file of the same name.

use serde_json::{Value, json};
use std::time::Duration;
use crate::support::*;

async fn clocked_friend_room(
    server: &TestServer,
    game: &str,
    clock: Value,
) -> (String, String, String) {
    let (code, _, white) = create(
        server,
        json!({"game": game, "seat": "white", "opponent": "friend", "clock": clock}),
    )
    .await;
    let (status, joined) = post(&server.url(&format!("/api/rooms/{code}/join")), json!({})).await;
    assert_eq!(status, 200, "{joined}");
    (code, white, joined["token"].as_str().unwrap().to_string())
}

#[tokio::test(flavor = "multi_thread")]
async fn a_clock_runs_only_once_the_game_starts_and_a_flag_fall_ends_it() {
    let server = TestServer::start(&test_db!("flag"), test_config()).await;
    let (code, _, _) = create(
        &server,
        json!({"game": "draughts", "seat": "white", "opponent": "friend", "clock": {"initial_s": 1}}),
    )
    .await;
    let waiting = state(&server, &code).await;
    assert_eq!(
        waiting["clock"],
        json!({"initial_s": 1.0, "increment_s": 0.0, "white_ms": 1000, "black_ms": 1000, "running": null})
    );
    let events = server.url(&format!("/api/rooms/{code}/events"));
    let mut stream = SseReader::open(&events, None, None).await;
    stream.next_state().await;
    post(&server.url(&format!("/api/rooms/{code}/join")), json!({})).await;
    let started = stream.next_state().await;
    assert_eq!(started.data["clock"]["running"], "white");
    // Nobody moves: the server's timer ends the game without any request.
    let ended = stream.next_state().await;
    assert_eq!(ended.data["status"], "finished", "{:?}", ended.data);
    assert_eq!(
        ended.data["result"],
        json!({"winner": "black", "reason": "time forfeit"})
    );
    assert_eq!(ended.data["clock"]["white_ms"], 0);
    assert_eq!(ended.data["clock"]["running"], Value::Null);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn moves_are_charged_from_the_servers_time_with_the_increment() {
    let server = TestServer::start(&test_db!("charge"), test_config()).await;
    let (code, white, black) = clocked_friend_room(
        &server,
        "draughts",
        json!({"initial_s": 60, "increment_s": 5}),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let now = state(&server, &code).await;
    let mv = now["legal_moves"][0].as_str().unwrap().to_string();
    let (status, moved) = play(
        &server,
        &code,
        &white,
        now["version"].as_u64().unwrap(),
        &mv,
    )
    .await;
    assert_eq!(status, 200, "{moved}");
    let white_ms = moved["clock"]["white_ms"].as_i64().unwrap();
    assert!(
        (60_000..=64_750).contains(&white_ms),
        "60 s, less at least 250 ms of thinking, plus 5 s: {white_ms}"
    );
    assert_eq!(moved["clock"]["running"], "black");
    // Black's clock started as the move was accepted: at most a few
    // milliseconds have run when the answer is made.
    let black_ms = moved["clock"]["black_ms"].as_i64().unwrap();
    assert!((59_500..=60_000).contains(&black_ms), "{black_ms}");
    // A resignation stops both clocks.
    let (_, resigned) = post(
        &server.url(&format!("/api/rooms/{code}/resign")),
        json!({"token": black}),
    )
    .await;
    assert_eq!(resigned["clock"]["running"], Value::Null);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_servers_downtime_is_not_charged_and_the_flag_still_falls_after_it() {
    let db = test_db!("flag-restart");
    let server = TestServer::start(&db, test_config()).await;
    // In Ataxx Black moves first: White's seat waits, Black's clock runs.
    let (code, white, _) = clocked_friend_room(&server, "ataxx", json!({"initial_s": 4})).await;
    let before = state(&server, &code).await;
    assert_eq!(before["clock"]["running"], "black");
    server.stop().await;
    // Down for longer than Black had.
    tokio::time::sleep(Duration::from_millis(4500)).await;
    let server = TestServer::start(&db, test_config()).await;
    let after = state(&server, &code).await;
    assert_eq!(after["status"], "playing", "{after}");
    let black_ms = after["clock"]["black_ms"].as_i64().unwrap();
    assert!(black_ms > 2_000, "the downtime was charged: {after}");
    assert!(
        after["log"].to_string().contains("the server was down for"),
        "{after}"
    );
    // Black's time still runs out, with the server up: the game ends.
    tokio::time::sleep(Duration::from_millis(black_ms as u64 + 300)).await;
    let after = state(&server, &code).await;
    assert_eq!(after["status"], "finished", "{after}");
    assert_eq!(after["result"]["winner"], "white");
    assert_eq!(after["result"]["reason"], "time forfeit");
    // A move after the flag fell is refused.
    let (status, _) = play(
        &server,
        &code,
        &white,
        after["version"].as_u64().unwrap(),
        "a7",
    )
    .await;
    assert_eq!(status, 409);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_ai_plays_by_its_clock() {
    let server = TestServer::start(&test_db!("ai-clock"), test_config()).await;
    let (code, _, token) = create(
        &server,
        json!({"game": "draughts", "seat": "white", "opponent": "ai", "level": "beginner",
               "clock": {"initial_s": 30, "increment_s": 1}}),
    )
    .await;
    // The person's first move waits for their page to show the board.
    let now = state(&server, &code).await;
    assert_eq!(now["clock"]["running"], Value::Null, "{now}");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let ready = server.url(&format!("/api/rooms/{code}/ready"));
    let (status, shown) = post(&ready, json!({"token": token})).await;
    assert_eq!(status, 200, "{shown}");
    assert_eq!(shown["clock"]["running"], "white");
    // The 300 ms before the page said so were not charged (the answer is
    // read a moment after the start).
    let white_ms = shown["clock"]["white_ms"].as_i64().unwrap();
    assert!(white_ms > 29_900, "{white_ms}");
    // Said again, it changes nothing; without a seat it is refused.
    let (_, again) = post(&ready, json!({"token": token})).await;
    assert_eq!(again["version"], shown["version"]);
    let (status, _) = post(&ready, json!({})).await;
    assert_eq!(status, 403);
    play_first(&server, &code, &token).await;
    let now = wait_for_moves(&server, &code, 2).await;
    assert_eq!(now["clock"]["running"], "white", "from then on, at once");
    let black_ms = now["clock"]["black_ms"].as_i64().unwrap();
    assert!(black_ms <= 31_000 && black_ms > 0, "{black_ms}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn when_the_ai_moves_first_the_persons_clock_waits_for_their_page() {
    let server = TestServer::start(&test_db!("ai-clock-first"), test_config()).await;
    let (code, _, token) = create(
        &server,
        json!({"game": "draughts", "seat": "black", "opponent": "ai", "level": "beginner",
               "clock": {"initial_s": 30, "increment_s": 0}}),
    )
    .await;
    let now = wait_for_moves(&server, &code, 1).await;
    assert_eq!(now["side_to_move"], "black");
    assert_eq!(now["clock"]["running"], Value::Null, "{now}");
    assert_eq!(now["clock"]["black_ms"], 30_000);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (status, shown) = post(
        &server.url(&format!("/api/rooms/{code}/ready")),
        json!({"token": token}),
    )
    .await;
    assert_eq!(status, 200, "{shown}");
    assert_eq!(shown["clock"]["running"], "black");
    let black_ms = shown["clock"]["black_ms"].as_i64().unwrap();
    assert!(black_ms > 29_900, "{black_ms}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn bad_time_controls_are_refused() {
    let server = TestServer::start(&test_db!("clock-bad"), test_config()).await;
    for clock in [
        json!({"initial_s": 0}),
        json!({"initial_s": -3}),
        json!({"initial_s": 60, "increment_s": -1}),
        json!({"initial_s": 1e9}),
        json!({"increment_s": 2}),
        json!({"initial_s": 60, "moves": 40}),
        json!("5+3"),
    ] {
        let (status, body) = post(
            &server.url("/api/rooms"),
            json!({"game": "draughts", "clock": clock}),
        )
        .await;
        assert_eq!(status, 422, "{clock}: {body}");
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_takeback_sets_both_clocks_back_to_before_the_moves_it_undoes() {
    let server = TestServer::start(&test_db!("clock-takeback"), test_config()).await;
    let (code, white, black) = clocked_friend_room(
        &server,
        "draughts",
        json!({"initial_s": 60, "increment_s": 5}),
    )
    .await;
    let takeback = server.url(&format!("/api/rooms/{code}/takeback"));
    // White thinks, moves; Black thinks, moves; White thinks, moves.
    tokio::time::sleep(Duration::from_millis(600)).await;
    play_first(&server, &code, &white).await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    play_first(&server, &code, &black).await;
    let after_two = state(&server, &code).await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    play_first(&server, &code, &white).await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    // White takes its second move back, Black agrees: the clocks stand as
    // they did once Black had moved (White's thinking, the increment and
    // Black's time since are all undone).
    post(&takeback, json!({"token": white, "action": "offer"})).await;
    let (status, after) = post(&takeback, json!({"token": black, "action": "accept"})).await;
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["moves"].as_array().unwrap().len(), 2);
    assert_eq!(after["clock"]["running"], "white");
    let white_before = after_two["clock"]["white_ms"].as_i64().unwrap();
    let white_now = after["clock"]["white_ms"].as_i64().unwrap();
    assert!(
        (white_before - 300..=white_before + 300).contains(&white_now),
        "white {white_now}, had {white_before}"
    );
    assert_eq!(after["clock"]["black_ms"], after_two["clock"]["black_ms"]);
    // Black's move, then White's first: back to the start, both clocks full.
    post(&takeback, json!({"token": black, "action": "offer"})).await;
    let (status, after) = post(&takeback, json!({"token": white, "action": "accept"})).await;
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["moves"].as_array().unwrap().len(), 1);
    post(&takeback, json!({"token": white, "action": "offer"})).await;
    let (status, start) = post(&takeback, json!({"token": black, "action": "accept"})).await;
    assert_eq!(status, 200, "{start}");
    assert!(start["moves"].as_array().unwrap().is_empty(), "{start}");
    assert_eq!(start["clock"]["black_ms"], 60_000, "{start}");
    let white_ms = start["clock"]["white_ms"].as_i64().unwrap();
    assert!(white_ms > 59_700, "{start}");
    server.stop().await;
}
