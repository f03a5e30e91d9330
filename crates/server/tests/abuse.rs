//! One abusive client must not hurt the others: the shared room-creation
//! budget and the cap on live rooms, the cap on connections per address,
//! takebacks that cannot drain the AI's clock, the AI's fair lanes and
//! shrinking time, the clock paused when the downtime is unknown, JSON
//! bodies on every error, and bounded, escaped echoes of the client's input.

#[macro_use]
mod support;

use plateau_server::{Rate, Rates, ServerConfig};
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use support::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

const BACKEND: Backend = Backend::Sqlite;

/// A connection to `server` from loopback address `from`.
async fn connect_from(server: &TestServer, from: [u8; 4]) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(std::net::SocketAddr::from((from, 0))).unwrap();
    let address = server.base.trim_start_matches("http://").parse().unwrap();
    socket.connect(address).await.unwrap()
}

/// Sends `request` as is and reads the answer until the server closes or
/// `wait` passes: (status, headers in lower case, body).
async fn raw(server: &TestServer, request: &[u8], wait: Duration) -> (u16, String, String) {
    let mut stream = connect_from(server, [127, 0, 0, 1]).await;
    stream.write_all(request).await.unwrap();
    read_answer(&mut stream, wait).await
}

async fn read_answer(stream: &mut TcpStream, wait: Duration) -> (u16, String, String) {
    let mut bytes = Vec::new();
    let deadline = tokio::time::Instant::now() + wait;
    let mut buffer = [0u8; 4096];
    loop {
        match tokio::time::timeout_at(deadline, stream.read(&mut buffer)).await {
            Ok(Ok(0)) | Ok(Err(_)) | Err(_) => break,
            Ok(Ok(n)) => bytes.extend_from_slice(&buffer[..n]),
        }
        // One whole answer is enough (the connection may stay open).
        let text = String::from_utf8_lossy(&bytes);
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let length = head
                .to_ascii_lowercase()
                .lines()
                .find_map(|l| l.strip_prefix("content-length: ").map(str::to_string))
                .and_then(|l| l.trim().parse::<usize>().ok());
            if length.is_some_and(|l| body.len() >= l) {
                break;
            }
        }
    }
    let text = String::from_utf8_lossy(&bytes).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, head.to_ascii_lowercase(), body.to_string())
}

/// Asserts an error answer with a JSON body whose message contains `says`.
fn assert_json_error(what: &str, (status, head, body): &(u16, String, String), says: &str) {
    assert!(
        head.contains("content-type: application/json"),
        "{what}: {status} not JSON: {head}\n{body}"
    );
    let value: Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{what}: {e}: {body}"));
    let message = value["error"].as_str().unwrap_or_default();
    assert!(
        message.contains(says),
        "{what}: {message:?} should say {says:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn rematches_share_the_room_creation_budget() {
    // The default burst, refilled slowly enough that the loop below never
    // sees a token come back.
    let config = ServerConfig {
        rates: Rates {
            create_room: Rate {
                per_minute: 1.0,
                burst: 10.0,
            },
            ..Rates::default()
        },
        ..test_config()
    };
    let server = TestServer::start(&test_db!("rematch-flood"), config).await;
    let (mut code, _, token) = create(
        &server,
        json!({"game": "ataxx", "seat": "white", "opponent": "ai", "level": "beginner"}),
    )
    .await;
    let mut made = 1;
    let refused = loop {
        let (status, body) = post(
            &server.url(&format!("/api/rooms/{code}/resign")),
            json!({"token": token}),
        )
        .await;
        assert_eq!(status, 200, "{body}");
        let response = client()
            .post(server.url(&format!("/api/rooms/{code}/rematch")))
            .json(&json!({"token": token}))
            .send()
            .await
            .unwrap();
        if response.status().as_u16() == 429 {
            break response;
        }
        assert_eq!(response.status().as_u16(), 201);
        code = response.json::<Value>().await.unwrap()["code"]
            .as_str()
            .unwrap()
            .to_string();
        made += 1;
        assert!(made <= 12, "rematches are not limited");
    };
    assert_eq!(made, 10, "the burst of room creation, rematches included");
    assert!(refused.headers().contains_key("retry-after"));
    let message = refused.json::<Value>().await.unwrap()["error"].to_string();
    assert!(message.contains("new rooms"), "{message}");
    assert!(
        message.contains("10 at once, then one every 60 s"),
        "{message}"
    );
    assert!(!message.contains("room reads"), "{message}");
    // Creating is refused too: one budget.
    let (status, _) = post(&server.url("/api/rooms"), json!({"game": "ataxx"})).await;
    assert_eq!(status, 429);
    // Another address is not affected.
    let (status, body) = post_from(
        [127, 0, 0, 9],
        &server.url("/api/rooms"),
        json!({"game": "ataxx"}),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_address_holds_a_bounded_number_of_live_rooms() {
    let config = ServerConfig {
        rooms_per_address: 3,
        ..test_config()
    };
    let server = TestServer::start(&test_db!("live-rooms"), config).await;
    let url = server.url("/api/rooms");
    let ai_room = json!({"game": "ataxx", "seat": "white", "opponent": "ai", "level": "beginner"});
    let mut first = None;
    for _ in 0..3 {
        let (status, body) = post_from([127, 0, 0, 6], &url, ai_room.clone()).await;
        assert_eq!(status, 201, "{body}");
        first.get_or_insert(body);
    }
    let response = client_from([127, 0, 0, 6])
        .post(&url)
        .json(&ai_room)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 429);
    assert!(response.headers().contains_key("retry-after"));
    let message = response.json::<Value>().await.unwrap()["error"].to_string();
    assert!(
        message.contains("3 rooms waiting or being played"),
        "{message}"
    );
    // A rematch would make a fourth: refused too.
    let first = first.unwrap();
    let (code, token) = (
        first["code"].as_str().unwrap(),
        first["token"].as_str().unwrap(),
    );
    let resign = server.url(&format!("/api/rooms/{code}/resign"));
    let (status, _) = post_from([127, 0, 0, 6], &resign, json!({"token": token})).await;
    assert_eq!(status, 200);
    let (status, body) = post_from([127, 0, 0, 6], &url, ai_room.clone()).await;
    assert_eq!(status, 201, "a finished room no longer counts: {body}");
    let rematch = server.url(&format!("/api/rooms/{code}/rematch"));
    let (status, body) = post_from([127, 0, 0, 6], &rematch, json!({"token": token})).await;
    assert_eq!(status, 429, "{body}");
    // Others are served.
    let (status, _) = post_from([127, 0, 0, 7], &url, ai_room).await;
    assert_eq!(status, 201);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_address_over_its_connection_cap_is_refused_and_others_are_served() {
    let config = ServerConfig {
        connections_per_address: 4,
        ..test_config()
    };
    let server = TestServer::start(&test_db!("connection-cap"), config).await;
    // Four idle connections from one address: its whole allowance.
    let mut held = Vec::new();
    for _ in 0..4 {
        held.push(connect_from(&server, [127, 0, 0, 2]).await);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    // The fifth is refused at once: a 429, then closed.
    let mut fifth = connect_from(&server, [127, 0, 0, 2]).await;
    let _ = fifth
        .write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n")
        .await;
    let started = Instant::now();
    let answer = read_answer(&mut fifth, Duration::from_secs(5)).await;
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "refused at once"
    );
    assert!(
        answer.0 == 429 || answer.0 == 0,
        "refused (a 429, or closed): {answer:?}"
    );
    if answer.0 == 429 {
        assert_json_error("over the cap", &answer, "connections open");
    }
    // Another address is served at once.
    let started = Instant::now();
    let (status, _) = get_from([127, 0, 0, 3], &server.url("/api/games")).await;
    assert_eq!(status, 200);
    assert!(started.elapsed() < Duration::from_secs(2));
    // One connection closed: the address may open another.
    drop(held.pop());
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut again = connect_from(&server, [127, 0, 0, 2]).await;
    again
        .write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let (status, _, _) = read_answer(&mut again, Duration::from_secs(5)).await;
    assert_eq!(status, 200);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn takebacks_are_off_against_the_ai_on_a_clock() {
    let server = TestServer::start(&test_db!("takeback-drain"), test_config()).await;
    // In Ataxx Black moves first.
    let (code, _, token) = create(
        &server,
        json!({"game": "ataxx", "seat": "black", "opponent": "ai", "level": "beginner",
               "clock": {"initial_s": 10}}),
    )
    .await;
    play_first(&server, &code, &token).await;
    let replied = wait_for_moves(&server, &code, 2).await;
    assert_eq!(replied["can_take_back"]["black"], false, "{replied}");
    let url = server.url(&format!("/api/rooms/{code}/takeback"));
    let mut ai_ms = Vec::new();
    // The drain: take back, again and again. Each is refused; the AI's
    // clock keeps its time.
    for _ in 0..5 {
        let (status, body) = post(&url, json!({"token": token, "action": "offer"})).await;
        assert_eq!(status, 409, "{body}");
        assert!(
            body["error"]
                .as_str()
                .unwrap()
                .contains("off in a timed game"),
            "{body}"
        );
        ai_ms.push(
            state(&server, &code).await["clock"]["white_ms"]
                .as_i64()
                .unwrap(),
        );
    }
    assert!(ai_ms.iter().all(|&ms| ms > 9_000), "{ai_ms:?}");
    let now = state(&server, &code).await;
    assert_eq!(
        now["moves"].as_array().unwrap().len(),
        2,
        "nothing taken back"
    );
    assert_eq!(now["status"], "playing");
    // Without a clock, takebacks against the AI stay granted.
    let (code, _, token) = create(
        &server,
        json!({"game": "ataxx", "seat": "black", "opponent": "ai", "level": "beginner"}),
    )
    .await;
    play_first(&server, &code, &token).await;
    wait_for_moves(&server, &code, 2).await;
    let (status, body) = post(
        &server.url(&format!("/api/rooms/{code}/takeback")),
        json!({"token": token, "action": "offer"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["moves"].as_array().unwrap().len(), 0);
    server.stop().await;
}

/// Rooms against the master AI (moving first: Black, in Ataxx) from
/// `from`: their codes.
async fn master_rooms(server: &TestServer, from: [u8; 4], count: usize) -> Vec<String> {
    let mut codes = Vec::new();
    for _ in 0..count {
        let (status, body) = post_from(
            from,
            &server.url("/api/rooms"),
            json!({"game": "ataxx", "seat": "white", "opponent": "ai", "level": "master"}),
        )
        .await;
        assert_eq!(status, 201, "{body}");
        codes.push(body["code"].as_str().unwrap().to_string());
    }
    codes
}

/// Seconds until the AI of a new beginner room (moving first) from `from`
/// has moved.
async fn beginner_reply(server: &TestServer, from: [u8; 4]) -> f64 {
    let started = Instant::now();
    let (status, body) = post_from(
        from,
        &server.url("/api/rooms"),
        json!({"game": "ataxx", "seat": "white", "opponent": "ai", "level": "beginner"}),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    let code = body["code"].as_str().unwrap();
    loop {
        let now = state(server, code).await;
        if !now["moves"].as_array().unwrap().is_empty() {
            return started.elapsed().as_secs_f64();
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "no reply: {now}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_beginner_reply_does_not_wait_behind_master_searches() {
    let config = ServerConfig {
        ai_threads: 2,
        ..test_config()
    };
    let server = TestServer::start(&test_db!("ai-lanes"), config).await;
    let masters = master_rooms(&server, [127, 0, 0, 4], 6).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let thinking = {
        let mut thinking = 0;
        for code in &masters {
            let now = state(&server, code).await;
            thinking += usize::from(now["ai"]["thinking"] == true);
        }
        thinking
    };
    assert!(thinking >= 1, "the masters are thinking");
    // From another address, and from the masters' own: the quick lane.
    let other = beginner_reply(&server, [127, 0, 0, 5]).await;
    let same = beginner_reply(&server, [127, 0, 0, 4]).await;
    eprintln!("beginner replies under 6 master rooms: {other:.3} s, {same:.3} s (same address)");
    // Generous bounds (a busy machine); `examples/abuse.rs` measures it.
    assert!(other < 1.5, "{other} s");
    assert!(same < 1.5, "{same} s");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_long_line_shortens_each_search_and_every_waiting_room_knows_its_place() {
    let config = ServerConfig {
        ai_threads: 1,
        ..test_config()
    };
    let server = TestServer::start(&test_db!("ai-shrink"), config).await;
    let started = Instant::now();
    let masters = master_rooms(&server, [127, 0, 0, 4], 6).await;
    // Every room waiting shows its place in line (1 to 5 while the first
    // thinks, 1 to 4 while the second does...).
    let mut places = Vec::new();
    let mut waiting = 0;
    for _ in 0..200 {
        places.clear();
        let (mut thinking, mut left) = (0, 0);
        for code in &masters {
            let now = state(&server, code).await;
            if now["moves"].as_array().unwrap().is_empty() {
                left += 1;
                thinking += usize::from(now["ai"]["thinking"] == true);
                if let Some(place) = now["ai"]["queue"].as_u64() {
                    places.push(place);
                }
            }
        }
        places.sort();
        waiting = left - thinking;
        if thinking == 1 && waiting >= 2 && places == (1..=waiting as u64).collect::<Vec<_>>() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(waiting >= 2, "the places in line: {places:?}");
    assert_eq!(
        places,
        (1..=waiting as u64).collect::<Vec<_>>(),
        "the places in line"
    );
    // At the level's full 2 s, five moves take 10 s on one thread; shared
    // out with the line behind them, about 3 s.
    let mut moved = Vec::new();
    while moved.len() < 5 {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "stuck: {moved:?}"
        );
        for code in &masters {
            if !moved.contains(code)
                && !state(&server, code).await["moves"]
                    .as_array()
                    .unwrap()
                    .is_empty()
            {
                moved.push(code.clone());
            }
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let elapsed = started.elapsed().as_secs_f64();
    eprintln!("five master moves with six rooms waiting on one thread: {elapsed:.2} s");
    assert!(
        elapsed < 7.0,
        "{elapsed} s: the searches were not shortened"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_clock_with_no_known_downtime_waits_for_the_side_to_move() {
    let db = test_db!("pause-unknown");
    // A clocked room, then a server stop with its heartbeats lost (a
    // database from before heartbeats were kept).
    let server = TestServer::start(&db, test_config()).await;
    let (status, created) = post(
        &server.url("/api/rooms"),
        json!({"game": "ataxx", "seat": "black", "clock": {"initial_s": 30, "increment_s": 2}}),
    )
    .await;
    assert_eq!(status, 201);
    let code = created["code"].as_str().unwrap().to_string();
    let black = created["token"].as_str().unwrap().to_string();
    let white = join(&server, &code).await;
    play_first(&server, &code, &black).await;
    server.stop().await;
    let plateau_server::storage::Database::Sqlite(path) = &db.0 else {
        unreachable!("SQLite")
    };
    let forget_heartbeats = || {
        rusqlite::Connection::open(path)
            .unwrap()
            .execute("DELETE FROM heartbeats", [])
            .unwrap();
    };
    forget_heartbeats();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    // A beat that was on its way as the server stopped has landed by now.
    forget_heartbeats();
    let server = TestServer::start(&db, test_config()).await;
    let paused = state(&server, &code).await;
    assert_eq!(paused["status"], "playing");
    assert_eq!(paused["clock"]["running"], Value::Null, "{paused}");
    let white_ms = paused["clock"]["white_ms"].as_i64().unwrap();
    assert!(white_ms > 29_000, "{paused}");
    assert!(
        paused["log"]
            .to_string()
            .contains("without knowing how long it was down"),
        "{paused}"
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        state(&server, &code).await["clock"]["white_ms"]
            .as_i64()
            .unwrap(),
        white_ms,
        "paused"
    );
    // White moves: charged nothing for the pause, given the increment, and
    // Black's clock runs.
    play_first(&server, &code, &white).await;
    let after = state(&server, &code).await;
    assert_eq!(after["clock"]["running"], "black");
    assert_eq!(
        after["clock"]["white_ms"].as_i64().unwrap(),
        white_ms + 2_000
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn every_error_status_carries_a_json_body() {
    let config = ServerConfig {
        request_timeout: Duration::from_secs(1),
        ..test_config()
    };
    let server = TestServer::start(&test_db!("json-errors"), config).await;
    let wait = Duration::from_secs(5);
    // 408: a body that never comes.
    let timeout = raw(
        &server,
        b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
        wait,
    )
    .await;
    assert_eq!(timeout.0, 408, "{timeout:?}");
    assert_json_error("408", &timeout, "longer than 1 s");
    // 414: a URL past hyper's limit.
    let long = format!(
        "GET /api/rooms/{} HTTP/1.1\r\nHost: x\r\n\r\n",
        "A".repeat(70_000)
    );
    let too_long = raw(&server, long.as_bytes(), wait).await;
    assert_eq!(too_long.0, 414, "{too_long:?}");
    assert_json_error("414", &too_long, "URL is too long");
    // 431: more headers than hyper reads.
    let mut many = String::from("GET /api/games HTTP/1.1\r\nHost: x\r\n");
    for i in 0..200 {
        many += &format!("X-Header-{i}: {i}\r\n");
    }
    many += "\r\n";
    let headers = raw(&server, many.as_bytes(), wait).await;
    assert_eq!(headers.0, 431, "{headers:?}");
    assert_json_error("431", &headers, "headers are too large");
    // 400: not HTTP at all.
    let garbage = raw(&server, b"\x01\x02 nonsense\r\n\r\n", wait).await;
    assert_eq!(garbage.0, 400, "{garbage:?}");
    assert_json_error("400", &garbage, "could not be read");
    // 400: a path that is not UTF-8 once decoded.
    let bad_path = raw(
        &server,
        b"GET /api/rooms/%FF%FE HTTP/1.1\r\nHost: x\r\n\r\n",
        wait,
    )
    .await;
    assert_eq!(bad_path.0, 400, "{bad_path:?}");
    assert_json_error("bad path", &bad_path, "");
    // 405: a method a route does not take.
    let method = raw(
        &server,
        b"DELETE /api/rooms HTTP/1.1\r\nHost: x\r\n\r\n",
        wait,
    )
    .await;
    assert_eq!(method.0, 405, "{method:?}");
    assert_json_error("405", &method, "method not allowed");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn echoed_input_is_bounded_and_escaped() {
    let server = TestServer::start(&test_db!("echoes"), test_config()).await;
    let (status, body) = post(
        &server.url("/api/rooms"),
        json!({"game": "x".repeat(15_000)}),
    )
    .await;
    assert_eq!(status, 422);
    let message = body["error"].as_str().unwrap();
    assert!(message.len() < 200, "{} bytes: {message}", message.len());
    assert!(message.contains("unknown game"), "{message}");
    let (status, body) = post(
        &server.url("/api/rooms"),
        json!({"game": "ataxx", "level": "\u{202e}evil", "opponent": "ai"}),
    )
    .await;
    assert_eq!(status, 422);
    let message = body["error"].as_str().unwrap();
    assert!(
        !message.contains('\u{202e}') && message.contains("\\u{202e}"),
        "{message}"
    );
    let (code, white, _) = friend_room(&server).await;
    let now = state(&server, &code).await;
    for bad in ["a1\u{0}b2", "\u{202e}C6/A6/B5/D5/E6/F5", "x\u{1b}[31m"] {
        let (status, body) = play(
            &server,
            &code,
            &white,
            now["version"].as_u64().unwrap(),
            bad,
        )
        .await;
        assert!(status == 422 || status == 409, "{status}: {body}");
        let message = body["error"].as_str().unwrap();
        assert!(
            !message.chars().any(|c| c.is_control() || c == '\u{202e}'),
            "{message:?}"
        );
    }
    assert_eq!(state(&server, &code).await, now, "nothing changed");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_draw_offer_declines_a_pending_takeback_in_the_log() {
    let server = TestServer::start(&test_db!("offer-replaces"), test_config()).await;
    let (code, white) = white_room(&server, "draughts").await;
    let black = join(&server, &code).await;
    play_first(&server, &code, &white).await;
    play_first(&server, &code, &black).await;
    let (status, body) = post(
        &server.url(&format!("/api/rooms/{code}/takeback")),
        json!({"token": white, "action": "offer"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = post(
        &server.url(&format!("/api/rooms/{code}/draw")),
        json!({"token": black, "action": "offer"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["offer"]["kind"], "draw");
    let log: Vec<&str> = body["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|l| l.as_str())
        .collect();
    assert_eq!(
        log[log.len() - 2..],
        [
            "black declined the takeback (offering a draw)",
            "black offered a draw"
        ],
        "{log:?}"
    );
    // And the other way round.
    let (status, body) = post(
        &server.url(&format!("/api/rooms/{code}/takeback")),
        json!({"token": white, "action": "offer"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let log = body["log"].to_string();
    assert!(
        log.contains("white declined the draw (asking for a takeback)"),
        "{log}"
    );
    server.stop().await;
}
