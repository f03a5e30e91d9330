// Included once per storage backend by the test file of the same name.

use serde_json::json;
use std::time::Duration;
use crate::support::*;

#[tokio::test(flavor = "multi_thread")]
async fn games_lists_games_variants_and_levels() {
    let server = TestServer::start(&test_db!("games"), test_config()).await;
    let (status, value) = get(&server.url("/api/games")).await;
    assert_eq!(status, 200);
    let names: Vec<&str> = value["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"escampe"));
    assert_eq!(
        value["levels"],
        json!(["beginner", "medium", "strong", "expert", "master"])
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_friend_room_seats_two_players_then_spectators_only() {
    let server = TestServer::start(&test_db!("seats"), test_config()).await;
    let (code, seat, token) = create(&server, json!({"game": "escampe", "seat": "black"})).await;
    assert_eq!(seat, "black");
    assert_eq!(code.len(), 5);
    assert!(!code.contains(['0', 'O', '1', 'I']));
    assert_eq!(token.len(), 32);
    let before = state(&server, &code).await;
    assert_eq!(before["status"], "waiting");
    assert_eq!(before["seats"]["white"]["taken"], false);
    assert!(
        !before.to_string().contains(&token),
        "tokens never appear in the state"
    );

    let join = server.url(&format!("/api/rooms/{code}/join"));
    let (status, second) = post(&join, json!({"token": null})).await;
    assert_eq!(status, 200);
    assert_eq!(second["seat"], "white");
    // A known token gets its seat back (a reload, a second device).
    let (status, again) = post(&join, json!({"token": token})).await;
    assert_eq!((status, again["seat"].as_str()), (200, Some("black")));
    // Also as a bearer token.
    let response = client()
        .post(&join)
        .bearer_auth(second["token"].as_str().unwrap())
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["seat"], "white");
    // A third person may only watch.
    let (status, refused) = post(&join, json!({})).await;
    assert_eq!(status, 409, "{refused}");
    assert!(refused["error"].as_str().unwrap().contains("watch"));
    let after = state(&server, &code).await;
    assert_eq!(after["status"], "playing");
    assert_eq!(after["version"], 2);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn moves_are_validated_and_every_refusal_has_its_status() {
    let server = TestServer::start(&test_db!("moves"), test_config()).await;
    let (code, white, black) = friend_room(&server).await;
    // Escampe: Black places first.
    let (status, value) = play(&server, &code, &black, 2, "C6/A6/B5/D5/E6/F5").await;
    assert_eq!(status, 200, "{value}");
    assert_eq!(value["version"], 3);
    assert_eq!(value["moves"], json!(["C6/B5/D5/F5/A6/E6"]));

    let unchanged = state(&server, &code).await;
    let cases = [
        (
            play(
                &server,
                &code,
                "0123456789abcdef0123456789abcdef",
                3,
                "B2/A1/B1/C2/E2/F2",
            )
            .await,
            403,
            "unknown token",
        ),
        (
            play(&server, "ZZZZZ", &white, 3, "B2/A1/B1/C2/E2/F2").await,
            404,
            "no room",
        ),
        (
            play(&server, &code, &black, 3, "A6/A5/C5/F5/B6/E6").await,
            409,
            "not your turn",
        ),
        (
            play(&server, &code, &white, 2, "B2/A1/B1/C2/E2/F2").await,
            409,
            "stale version",
        ),
        (
            play(&server, &code, &white, 3, "B2/A1/B1/C2/E2/F3").await,
            422,
            "off the edge",
        ),
        (
            play(&server, &code, &white, 3, "b2/a1/b1/c2/e2/f2").await,
            422,
            "lower case",
        ),
        (
            play(&server, &code, &white, 3, &"X".repeat(300)).await,
            422,
            "too long",
        ),
    ];
    for ((status, body), expected, words) in cases {
        assert_eq!(status, expected, "{body}");
        assert!(
            body["error"].as_str().unwrap().contains(words),
            "{body} lacks {words:?}"
        );
    }
    assert_eq!(
        state(&server, &code).await,
        unchanged,
        "refused moves change nothing"
    );

    let (status, _) = play(&server, &code, &white, 3, "B2/A1/B1/C2/E2/F2").await;
    assert_eq!(status, 200);
    // Resubmitting the same version again is a duplicate.
    let (status, body) = play(&server, &code, &white, 3, "B2/A1/B1/C2/E2/F2").await;
    assert_eq!(status, 409, "{body}");
    // White wins at once: C2-C5 forces Black to pass, C5-C6 takes the unicorn.
    let (status, _) = play(&server, &code, &white, 4, "C2-C5").await;
    assert_eq!(status, 200);
    let (status, _) = play(&server, &code, &black, 5, "E").await;
    assert_eq!(status, 200);
    let (status, end) = play(&server, &code, &white, 6, "C5-C6").await;
    assert_eq!(status, 200);
    assert_eq!(end["status"], "finished");
    assert_eq!(
        end["result"],
        json!({"winner": "white", "reason": "unicorn captured"})
    );
    let (status, body) = play(&server, &code, &black, 7, "A6-A5").await;
    assert_eq!(status, 409);
    assert!(body["error"].as_str().unwrap().contains("over"));

    let response = client()
        .get(server.url(&format!("/api/rooms/{code}/record")))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let record = response.text().await.unwrap();
    assert!(record.ends_with("2. C2-C5 E 3. C5-C6 1-0\n"), "{record}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn bad_requests_are_clean_4xx_and_change_nothing() {
    let server = TestServer::start(&test_db!("bad"), test_config()).await;
    let (code, white, _black) = friend_room(&server).await;
    let before = state(&server, &code).await;
    let rooms = server.url("/api/rooms");
    let raw = |url: String, body: &'static str| async move {
        let response = client()
            .post(url)
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        (status, response.text().await.unwrap())
    };
    let (status, text) = raw(rooms.clone(), "{not json").await;
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("\"error\""), "{text}");
    let (status, text) = raw(
        server.url(&format!("/api/rooms/{code}/moves")),
        r#"{"token": 3}"#,
    )
    .await;
    assert_eq!(status, 422, "{text}");
    let (status, body) = post(&rooms, json!({"game": "chess"})).await;
    assert_eq!(status, 422);
    assert!(body["error"].as_str().unwrap().contains("unknown game"));
    let (status, _) = post(&rooms, json!({"game": "escampe", "seat": "green"})).await;
    assert_eq!(status, 422);
    let (status, _) = post(
        &rooms,
        json!({"game": "escampe", "opponent": "ai", "level": "god"}),
    )
    .await;
    assert_eq!(status, 422);
    let (status, _) = post(&rooms, json!({"game": "escampe", "colour": "white"})).await;
    assert_eq!(status, 422, "unknown fields are refused");
    let huge = json!({"game": "x".repeat(100_000)});
    let (status, _) = post(&rooms, huge).await;
    assert_eq!(status, 413);
    let (status, _) = get(&server.url("/api/rooms/ABCDE")).await;
    assert_eq!(status, 404);
    let (status, _) = get(&server.url("/api/rooms/not-a-code")).await;
    assert_eq!(status, 404);
    let (status, _) = post(&server.url(&format!("/api/rooms/{code}/resign")), json!({})).await;
    assert_eq!(status, 403, "no token");
    // White's token, but Black is to place.
    let (status, body) = play(&server, &code, &white, 2, "C6/A6/B5/D5/E6/F5").await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(state(&server, &code).await, before);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn two_players_and_a_spectator_see_every_move_in_order() {
    let server = TestServer::start(&test_db!("sse"), test_config()).await;
    let (code, white, black) = friend_room(&server).await;
    let events = server.url(&format!("/api/rooms/{code}/events"));
    let mut streams = vec![
        SseReader::open(&events, Some(&white), None).await,
        SseReader::open(&events, Some(&black), None).await,
        SseReader::open(&events, None, None).await,
    ];
    for stream in &mut streams {
        let first = stream.next_state().await;
        assert_eq!(first.id, Some(2), "the current state comes first");
    }
    let moves = [
        "C6/A6/B5/D5/E6/F5",
        "B2/A1/B1/C2/E2/F2",
        "C2-C5",
        "E",
        "C5-C6",
    ];
    let tokens = [&black, &white, &white, &black, &white];
    for (i, (mv, token)) in moves.iter().zip(tokens).enumerate() {
        let (status, _) = play(&server, &code, token, 2 + i as u64, mv).await;
        assert_eq!(status, 200);
    }
    for stream in &mut streams {
        for i in 0..moves.len() {
            let event = stream.next_state().await;
            assert_eq!(event.id, Some(3 + i as u64));
            assert_eq!(event.data["version"], 3 + i as u64);
            assert_eq!(event.data["moves"].as_array().unwrap().len(), i + 1);
        }
    }
    let last = state(&server, &code).await;
    assert_eq!(
        last["seats"]["white"]["connected"], true,
        "seat streams count as connected"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_reconnecting_client_gets_exactly_what_it_missed() {
    let server = TestServer::start(&test_db!("replay"), test_config()).await;
    let (code, white, black) = friend_room(&server).await;
    play(&server, &code, &black, 2, "C6/A6/B5/D5/E6/F5").await;
    play(&server, &code, &white, 3, "B2/A1/B1/C2/E2/F2").await;
    play(&server, &code, &white, 4, "C2-C5").await;
    let events = server.url(&format!("/api/rooms/{code}/events"));
    let mut stream = SseReader::open(&events, None, Some(3)).await;
    let missed: Vec<Option<u64>> = vec![stream.next_state().await.id, stream.next_state().await.id];
    assert_eq!(missed, [Some(4), Some(5)]);
    // Nothing else until the next change.
    stream
        .assert_no_state_within(Duration::from_millis(300), "after the missed events")
        .await;
    play(&server, &code, &black, 5, "E").await;
    assert_eq!(stream.next_state().await.id, Some(6));
    // Up to date: only new events.
    let mut current = SseReader::open(&events, None, Some(6)).await;
    current
        .assert_no_state_within(Duration::from_millis(300), "up to date")
        .await;
    server.stop().await;
}

/// A client a few events behind is served from the events the server keeps
/// in memory, one further behind from storage: either way exactly the events
/// that went out live, in order.
#[tokio::test(flavor = "multi_thread")]
async fn a_reconnection_near_or_far_behind_replays_the_events_sent_live() {
    let server = TestServer::start(&test_db!("replay-far"), test_config()).await;
    let (code, white) = white_room(&server, "ataxx").await;
    let black = join(&server, &code).await;
    let events = server.url(&format!("/api/rooms/{code}/events"));
    let mut live = SseReader::open(&events, None, None).await;
    let mut sent = vec![live.next_state().await];
    // More moves than the server keeps in memory per room.
    for _ in 0..30 {
        let now = state(&server, &code).await;
        let token = match now["side_to_move"].as_str() {
            Some("white") => &white,
            _ => &black,
        };
        play_first(&server, &code, token).await;
        sent.push(live.next_state().await);
    }
    let last = sent.last().unwrap().id.unwrap();
    for seen in [last - 1, last - 3, last - 15, last - 16, last - 17, last - 25, 2] {
        let mut again = SseReader::open(&events, None, Some(seen)).await;
        for expected in sent.iter().filter(|e| e.id.unwrap() > seen) {
            let event = again.next_state().await;
            assert_eq!(event.id, expected.id, "after {seen}");
            assert_eq!(event.data, expected.data, "event {:?} after {seen}", event.id);
        }
        again
            .assert_no_state_within(Duration::from_millis(100), &format!("after {seen}"))
            .await;
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_ai_room_answers_with_a_legal_move() {
    let server = TestServer::start(&test_db!("ai"), test_config()).await;
    // Black places first: with White chosen, the AI (Black) starts.
    let (code, seat, token) = create(
        &server,
        json!({"game": "escampe", "seat": "white", "opponent": "ai", "level": "medium"}),
    )
    .await;
    assert_eq!(seat, "white");
    let events = server.url(&format!("/api/rooms/{code}/events"));
    let mut stream = SseReader::open(&events, Some(&token), None).await;
    let mut latest = stream.next_state().await;
    while latest.data["moves"].as_array().unwrap().is_empty() {
        latest = stream.next_state().await;
    }
    assert_eq!(latest.data["side_to_move"], "white");
    assert_eq!(latest.data["ai"]["level"], "medium");
    let version = latest.data["version"].as_u64().unwrap();
    // White places on the edge Black left free.
    let black_on_top = latest.data["moves"][0].as_str().unwrap().ends_with('6')
        || latest.data["moves"][0].as_str().unwrap().ends_with('5');
    let placement = if black_on_top {
        "A1/B1/C1/D1/E1/F1"
    } else {
        "A6/B6/C6/D6/E6/F6"
    };
    let (status, body) = play(&server, &code, &token, version, placement).await;
    assert_eq!(status, 200, "{body}");
    // White moves first after both placements; play a legal move, then the AI replies.
    let now = state(&server, &code).await;
    let mv = now["legal_moves"][0].as_str().unwrap().to_string();
    let (status, _) = play(
        &server,
        &code,
        &token,
        now["version"].as_u64().unwrap(),
        &mv,
    )
    .await;
    assert_eq!(status, 200);
    let reply = loop {
        let event = stream.next_state().await;
        if event.data["moves"].as_array().unwrap().len() == 4 || event.data["status"] == "finished"
        {
            break event;
        }
    };
    let moves = reply.data["moves"].as_array().unwrap();
    assert!(
        moves.len() == 4 || reply.data["status"] == "finished",
        "{reply:?}"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn resign_and_rematch_with_colours_swapped() {
    let server = TestServer::start(&test_db!("rematch"), test_config()).await;
    let (code, white, black) = friend_room(&server).await;
    let old_events = server.url(&format!("/api/rooms/{code}/events"));
    let mut stream = SseReader::open(&old_events, Some(&black), None).await;
    stream.next_state().await;
    let (status, _) = post(
        &server.url(&format!("/api/rooms/{code}/rematch")),
        json!({"token": white}),
    )
    .await;
    assert_eq!(status, 409, "no rematch before the end");
    let (status, resigned) = post(
        &server.url(&format!("/api/rooms/{code}/resign")),
        json!({"token": black}),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        resigned["result"],
        json!({"winner": "white", "reason": "resignation"})
    );
    let (status, _) = post(
        &server.url(&format!("/api/rooms/{code}/resign")),
        json!({"token": white}),
    )
    .await;
    assert_eq!(status, 409);
    assert_eq!(stream.next_state().await.data["status"], "finished");

    let (status, rematch) = post(
        &server.url(&format!("/api/rooms/{code}/rematch")),
        json!({"token": white}),
    )
    .await;
    assert_eq!(status, 201, "{rematch}");
    let new_code = rematch["code"].as_str().unwrap().to_string();
    assert_eq!(rematch["seat"], "black", "colours swap");
    // Announced to both seats through the old room's stream.
    let announced = stream.next_state().await;
    assert_eq!(announced.data["rematch"], new_code.as_str());
    // The other player asks too: same room.
    let (status, other) = post(
        &server.url(&format!("/api/rooms/{code}/rematch")),
        json!({"token": black}),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(other["code"], new_code.as_str());
    assert_eq!(other["seat"], "white");
    // Both keep their tokens.
    let join = server.url(&format!("/api/rooms/{new_code}/join"));
    let (_, seat) = post(&join, json!({"token": black})).await;
    assert_eq!(seat["seat"], "white");
    let fresh = state(&server, &new_code).await;
    assert_eq!(fresh["status"], "playing");
    // In the new room the old Black (now White)... Black places first: old White.
    let (status, _) = play(
        &server,
        &new_code,
        &white,
        fresh["version"].as_u64().unwrap(),
        "C6/A6/B5/D5/E6/F5",
    )
    .await;
    assert_eq!(status, 200);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn two_posts_of_the_same_version_exactly_one_wins() {
    let server = TestServer::start(&test_db!("race"), test_config()).await;
    for _ in 0..5 {
        let (code, _white, black) = friend_room(&server).await;
        let a = play(&server, &code, &black, 2, "C6/A6/B5/D5/E6/F5");
        let b = play(&server, &code, &black, 2, "A6/A5/C5/F5/B6/E6");
        let ((sa, _), (sb, _)) = tokio::join!(a, b);
        let mut statuses = [sa, sb];
        statuses.sort();
        assert_eq!(statuses, [200, 409]);
        assert_eq!(
            state(&server, &code).await["moves"]
                .as_array()
                .unwrap()
                .len(),
            1
        );
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_restart_keeps_rooms_seats_and_moves() {
    let db = test_db!("restart");
    let server = TestServer::start(&db, test_config()).await;
    let (code, white, black) = friend_room(&server).await;
    play(&server, &code, &black, 2, "C6/A6/B5/D5/E6/F5").await;
    server.stop().await;
    let server = TestServer::start(&db, test_config()).await;
    let restored = state(&server, &code).await;
    assert_eq!(restored["version"], 3);
    assert_eq!(restored["moves"], json!(["C6/B5/D5/F5/A6/E6"]));
    let (status, _) = play(&server, &code, &white, 3, "B2/A1/B1/C2/E2/F2").await;
    assert_eq!(status, 200, "the same token still holds its seat");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_ai_left_thinking_resumes_after_a_restart() {
    let db = test_db!("resume");
    let config = test_config();
    let server = TestServer::start(&db, config.clone()).await;
    let (code, _, token) = create(
        &server,
        json!({"game": "escampe", "seat": "black", "opponent": "ai", "level": "beginner"}),
    )
    .await;
    let (status, _) = play(&server, &code, &token, 1, "A6/A5/C5/F5/B6/E6").await;
    assert_eq!(status, 200);
    server.stop().await;
    // The AI (White) may or may not have answered before the stop; after the
    // restart it must have answered, or answer now.
    let server = TestServer::start(&db, config).await;
    let mut answered = false;
    for _ in 0..100 {
        if state(&server, &code).await["moves"]
            .as_array()
            .unwrap()
            .len()
            >= 2
        {
            answered = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(answered);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn idle_rooms_expire() {
    let config = plateau_server::ServerConfig {
        idle_expiry: Duration::from_secs(1),
        sweep_interval: Duration::from_millis(200),
        ..test_config()
    };
    let server = TestServer::start(&test_db!("expiry"), config).await;
    let (code, _, _) = create(&server, json!({"game": "escampe"})).await;
    assert_eq!(get(&server.url(&format!("/api/rooms/{code}"))).await.0, 200);
    tokio::time::sleep(Duration::from_millis(2600)).await;
    assert_eq!(get(&server.url(&format!("/api/rooms/{code}"))).await.0, 404);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn creation_and_code_scanning_are_rate_limited() {
    let config = plateau_server::ServerConfig {
        rates: plateau_server::Rates {
            create_room: plateau_server::Rate {
                per_minute: 1.0,
                burst: 3.0,
            },
            miss: plateau_server::Rate {
                per_minute: 1.0,
                burst: 5.0,
            },
            ..plateau_server::Rates::default()
        },
        ..test_config()
    };
    let server = TestServer::start(&test_db!("limits"), config).await;
    for _ in 0..3 {
        create(&server, json!({"game": "escampe"})).await;
    }
    let (status, body) = post(&server.url("/api/rooms"), json!({"game": "escampe"})).await;
    assert_eq!(status, 429, "{body}");
    let mut statuses = Vec::new();
    for code in [
        "AAAAA", "AAAAB", "AAAAC", "AAAAD", "AAAAE", "AAAAF", "AAAAG",
    ] {
        statuses.push(get(&server.url(&format!("/api/rooms/{code}"))).await.0);
    }
    assert_eq!(statuses[..5], [404; 5]);
    assert_eq!(statuses[5..], [429, 429]);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_scanning_neighbour_never_stalls_the_ai() {
    // Real limits: ten unknown codes exhaust an address's allowance.
    let config = plateau_server::ServerConfig {
        rates: plateau_server::Rates::default(),
        ..test_config()
    };
    let server = TestServer::start(&test_db!("ai-limits"), config).await;
    let player = [127, 0, 0, 2];
    let (status, created) = post_from(
        player,
        &server.url("/api/rooms"),
        json!({"game": "escampe", "seat": "black", "opponent": "ai", "level": "beginner"}),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let code = created["code"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    // Someone on the server's own host (127.0.0.1, as a proxy would be)
    // scans codes until refused.
    let mut refused = false;
    for _ in 0..30 {
        let (status, _) = get(&server.url("/api/rooms/ZZZZZ")).await;
        if status == 429 {
            refused = true;
            break;
        }
    }
    assert!(refused, "the scanner is limited");
    let (status, body) = post_from(
        player,
        &server.url(&format!("/api/rooms/{code}/moves")),
        json!({"token": token, "version": 1, "move": "A6/A5/C5/F5/B6/E6"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    // The AI's own lookups never count as the host's: it answers.
    let mut moves = 0;
    for _ in 0..100 {
        let (_, now) = get_from(player, &server.url(&format!("/api/rooms/{code}"))).await;
        moves = now["moves"].as_array().unwrap().len();
        if moves >= 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(moves >= 2, "the AI answered: {moves} moves");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_burst_of_master_rooms_from_one_address_waits_its_turn() {
    let config = plateau_server::ServerConfig {
        ai_threads: 1,
        ai_time_cap: Duration::from_millis(700),
        ..test_config()
    };
    let server = TestServer::start(&test_db!("ai-fair"), config).await;
    // One address opens four master rooms where the AI moves first.
    let mut masters = Vec::new();
    for _ in 0..4 {
        let (status, created) = post_from(
            [127, 0, 0, 3],
            &server.url("/api/rooms"),
            json!({"game": "ataxx", "seat": "white", "opponent": "ai", "level": "master"}),
        )
        .await;
        assert_eq!(status, 201, "{created}");
        masters.push(created["code"].as_str().unwrap().to_string());
    }
    // Another address then opens one room at beginner level.
    let (status, created) = post_from(
        [127, 0, 0, 4],
        &server.url("/api/rooms"),
        json!({"game": "ataxx", "seat": "white", "opponent": "ai", "level": "beginner"}),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let mine = created["code"].as_str().unwrap().to_string();
    let moved = |state: &serde_json::Value| !state["moves"].as_array().unwrap().is_empty();
    // The last master room is told its place in line while it waits.
    let mut saw_place = false;
    let mut masters_done_before_mine = None;
    for _ in 0..200 {
        let last = state(&server, &masters[3]).await;
        if last["ai"]["queue"].as_u64().is_some_and(|place| place >= 1) {
            saw_place = true;
        }
        let me = state(&server, &mine).await;
        if moved(&me) && masters_done_before_mine.is_none() {
            let mut done = 0;
            for code in &masters {
                done += moved(&state(&server, code).await) as usize;
            }
            masters_done_before_mine = Some(done);
        }
        if saw_place && masters_done_before_mine.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let done = masters_done_before_mine.expect("the beginner room got its move");
    // Round robin: the other address is served after at most the search
    // that was running (allow one more for timing), not after all four.
    assert!(done <= 2, "{done} master moves went first");
    assert!(saw_place, "a waiting room shows its place in line");
    server.stop().await;
}

/// A game played against the computer elsewhere (the browser) is carried
/// over: the room starts with its moves, checked, and the AI answers when it
/// is its turn; bad carried moves are refused by name and make no room.
#[tokio::test(flavor = "multi_thread")]
async fn a_game_carried_over_starts_with_its_moves() {
    let server = TestServer::start(&test_db!("carry"), test_config()).await;
    // Ataxx: Black moves first; three moves in, White (the AI) is to move.
    let (code, seat, token) = create(
        &server,
        json!({"game": "ataxx", "opponent": "ai", "level": "beginner", "seat": "black",
               "moves": ["f2", "b2", "e3"]}),
    )
    .await;
    assert_eq!(seat, "black");
    let now = wait_for_moves(&server, &code, 4).await;
    let moves: Vec<&str> = now["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    assert_eq!(&moves[..3], ["f2", "b2", "e3"]);
    assert_eq!(now["side_to_move"], "black");
    // The person plays on.
    let mv = now["legal_moves"][0].as_str().unwrap().to_string();
    let (status, body) = play(&server, &code, &token, now["version"].as_u64().unwrap(), &mv).await;
    assert_eq!(status, 200, "{body}");
    // Refusals name the move; no room is made.
    for (body, expected) in [
        (json!({"game": "ataxx", "opponent": "ai", "moves": ["f2", "f2"]}), "move 2 (f2)"),
        (json!({"game": "ataxx", "moves": ["f2"]}), "against the computer"),
        (json!({"game": "ataxx", "opponent": "ai", "moves": ["f2"], "clock": {"initial_s": 60, "increment_s": 0}}), "no clock"),
        (json!({"game": "ataxx", "opponent": "ai", "moves": vec!["f2"; 1001]}), "at most 1000"),
    ] {
        let (status, value) = post(&server.url("/api/rooms"), body).await;
        assert_eq!(status, 422, "{value}");
        assert!(value["error"].as_str().unwrap().contains(expected), "{value}");
    }
    // The replay starts from the game's start: the carried moves are history.
    let (status, replay) = get(&server.url(&format!("/api/rooms/{code}/positions"))).await;
    assert_eq!(status, 200, "{replay}");
    assert!(replay["positions"].as_array().unwrap().len() >= 6);
    server.stop().await;
}

/// Twenty plies of Abalone that end neither by ejections nor by repetition
/// before the twentieth: each the first legal move that keeps the game going.
fn abalone_plies(count: usize) -> Vec<String> {
    let spec = plateau_games::GameSpec::lookup("abalone", None).unwrap();
    let mut game = spec.new_game_with_move_limit(count as u32).unwrap();
    let mut played = Vec::new();
    while played.len() < count {
        let mv = game
            .legal_moves()
            .into_iter()
            .find(|mv| {
                let mut next = game.clone();
                next.play(mv).is_ok() && (next.outcome().is_none() || played.len() + 1 == count)
            })
            .expect("a move that keeps the game going");
        game.play(&mv).unwrap();
        played.push(mv);
    }
    played
}

/// Plays `moves` in a friend room, each by the side to move.
async fn play_plies(server: &TestServer, code: &str, [white, black]: [&str; 2], moves: &[String]) {
    for mv in moves {
        let now = state(server, code).await;
        assert_eq!(now["status"], "playing", "before {mv}: {now}");
        let token = if now["side_to_move"] == "black" { black } else { white };
        let version = now["version"].as_u64().unwrap();
        let (status, body) = play(server, code, token, version, mv).await;
        assert_eq!(status, 200, "{mv}: {body}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn an_abalone_room_ends_at_its_move_limit_and_keeps_it_over_a_restart() {
    let db = test_db!("move-limit");
    let server = TestServer::start(&db, test_config()).await;
    // The default: 100 moves each, in the state for the page to show.
    let (code, _, _) = create(&server, json!({"game": "abalone"})).await;
    assert_eq!(
        state(&server, &code).await["move_limit"],
        json!({"plies": 200, "moves_each": 100, "plies_played": 0})
    );
    // None asked for: the game's own rules.
    let (code, _, _) = create(&server, json!({"game": "abalone", "move_limit": 0})).await;
    assert_eq!(state(&server, &code).await["move_limit"], json!(null));
    // Limits out of range, and a limit for a game that has none, are refused
    // by name.
    for (body, words) in [
        (json!({"game": "abalone", "move_limit": 5}), "from 10 to 500"),
        (json!({"game": "abalone", "move_limit": 501}), "from 10 to 500"),
        (json!({"game": "draughts", "move_limit": 50}), "no move limit"),
    ] {
        let (status, value) = post(&server.url("/api/rooms"), body.clone()).await;
        assert_eq!(status, 422, "{body}: {value}");
        let error = value["error"].as_str().unwrap_or("");
        assert!(error.contains("move_limit") && error.contains(words), "{error}");
    }
    // A game of 10 moves each, played to its limit across a restart.
    let (code, white) = {
        let (code, seat, token) = create(
            &server,
            json!({"game": "abalone", "seat": "white", "move_limit": 10}),
        )
        .await;
        assert_eq!(seat, "white");
        (code, token)
    };
    let black = join(&server, &code).await;
    let plies = abalone_plies(20);
    play_plies(&server, &code, [&white, &black], &plies[..10]).await;
    server.stop().await;
    let server = TestServer::start(&db, test_config()).await;
    assert_eq!(state(&server, &code).await["move_limit"]["plies_played"], 10);
    play_plies(&server, &code, [&white, &black], &plies[10..]).await;
    let over = state(&server, &code).await;
    assert_eq!(over["status"], "finished", "{over}");
    let reason = over["result"]["reason"].as_str().unwrap();
    assert!(
        ["ply limit", "more marbles pushed off at the move limit"].contains(&reason),
        "{over}"
    );
    assert_eq!(over["move_limit"]["plies_played"], 20);
    assert_eq!(over["legal_move_count"], 0);
    // A rematch keeps the room's limit.
    let (status, rematch) = post(
        &server.url(&format!("/api/rooms/{code}/rematch")),
        json!({"token": white}),
    )
    .await;
    assert_eq!(status, 201, "{rematch}");
    let again = state(&server, rematch["code"].as_str().unwrap()).await;
    assert_eq!(again["move_limit"]["plies"], 20, "{again}");
    server.stop().await;
}
