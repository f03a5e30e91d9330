//! The server under abuse: slow and idle connections, stream hoarding,
//! confusing tokens, proxies, and the headers of every answer.

#[macro_use]
mod support;

use plateau_server::{Rates, ServerConfig};
use serde_json::json;
use std::time::{Duration, Instant};
use support::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const BACKEND: Backend = Backend::Sqlite;

/// How long until the server closes `stream` (reading and ignoring what it
/// sends); `None` if it is still open after `wait`.
async fn closed_within(stream: &mut TcpStream, wait: Duration) -> Option<Duration> {
    let start = Instant::now();
    let mut buffer = [0u8; 1024];
    loop {
        let left = wait.checked_sub(start.elapsed())?;
        match tokio::time::timeout(left, stream.read(&mut buffer)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return Some(start.elapsed()),
            Ok(Ok(_)) => continue,
            Err(_) => return None,
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn slow_headers_and_idle_connections_are_closed() {
    let config = ServerConfig {
        header_timeout: Duration::from_secs(1),
        ..test_config()
    };
    let server = TestServer::start(&test_db!("slow"), config).await;
    let address = server.base.trim_start_matches("http://").to_string();
    // Half a request header, then nothing.
    let mut half = TcpStream::connect(&address).await.unwrap();
    half.write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    // A connection that never says anything.
    let mut silent = TcpStream::connect(&address).await.unwrap();
    // A keep-alive connection left idle after one request.
    let mut idle = TcpStream::connect(&address).await.unwrap();
    idle.write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let mut first = [0u8; 64];
    let read = idle.read(&mut first).await.unwrap();
    assert!(first[..read].starts_with(b"HTTP/1.1 200"), "served first");
    for (name, stream) in [
        ("half", &mut half),
        ("silent", &mut silent),
        ("idle", &mut idle),
    ] {
        let closed = closed_within(stream, Duration::from_secs(5)).await;
        assert!(closed.is_some(), "the {name} connection is closed");
    }
    // Meanwhile the server kept serving.
    assert_eq!(get(&server.url("/api/games")).await.0, 200);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_address_holds_a_bounded_number_of_event_streams() {
    let config = ServerConfig {
        streams_per_address: 3,
        ..test_config()
    };
    let server = TestServer::start(&test_db!("streams"), config).await;
    let (code, _, _) = friend_room(&server).await;
    let url = server.url(&format!("/api/rooms/{code}/events"));
    let mut open = Vec::new();
    for _ in 0..3 {
        open.push(SseReader::open(&url, None, None).await);
    }
    let refused = client().get(&url).send().await.unwrap();
    assert_eq!(refused.status().as_u16(), 429);
    assert!(refused.headers().contains_key("retry-after"));
    // Another address is not affected.
    let other = client_from([127, 0, 0, 5]).get(&url).send().await.unwrap();
    assert_eq!(other.status().as_u16(), 200);
    drop(other);
    // A closed stream frees its place.
    open.pop();
    let mut reopened = false;
    for _ in 0..50 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        let again = client().get(&url).send().await.unwrap();
        if again.status().as_u16() == 200 {
            reopened = true;
            break;
        }
    }
    assert!(reopened, "a place frees up when a stream closes");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn answers_carry_safe_headers_and_refusals_are_json() {
    let config = ServerConfig {
        body_limit: 1024,
        ..test_config()
    };
    let server = TestServer::start(&test_db!("headers"), config).await;
    // A token in the answer: never cached; no content sniffing.
    let response = client()
        .post(server.url("/api/rooms"))
        .json(&json!({"game": "escampe", "seat": "white"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 201);
    assert_eq!(response.headers()["cache-control"], "no-store");
    assert_eq!(response.headers()["x-content-type-options"], "nosniff");
    let code = response.json::<serde_json::Value>().await.unwrap()["code"]
        .as_str()
        .unwrap()
        .to_string();
    let state = client()
        .get(server.url(&format!("/api/rooms/{code}")))
        .send()
        .await
        .unwrap();
    assert_eq!(state.headers()["cache-control"], "no-store");
    assert_eq!(state.headers()["x-content-type-options"], "nosniff");
    // A body over the limit, announced by its length: JSON, like every error.
    let large = client()
        .post(server.url("/api/rooms"))
        .header("content-type", "application/json")
        .body(vec![b' '; 4096])
        .send()
        .await
        .unwrap();
    assert_eq!(large.status().as_u16(), 413);
    assert!(
        large.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/json")
    );
    let body: serde_json::Value = large.json().await.unwrap();
    assert!(
        body["error"].as_str().unwrap().contains("too large"),
        "{body}"
    );
    // A 404 does not echo a huge code back.
    let long = "A".repeat(10_000);
    let missing = client()
        .get(server.url(&format!("/api/rooms/{long}")))
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status().as_u16(), 404);
    let text = missing.text().await.unwrap();
    assert!(text.len() < 200, "{} bytes", text.len());
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn two_different_tokens_in_one_request_are_refused() {
    let server = TestServer::start(&test_db!("two-tokens"), test_config()).await;
    let (code, white, black) = friend_room(&server).await;
    let url = server.url(&format!("/api/rooms/{code}/moves"));
    let before = state(&server, &code).await;
    // Black's move, with White's token in the header and Black's in the body.
    let response = client()
        .post(&url)
        .bearer_auth(&white)
        .json(&json!({"token": black, "version": 2, "move": "C6/A6/B5/D5/E6/F5"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 400);
    let body: serde_json::Value = response.json().await.unwrap();
    assert!(body["error"].as_str().unwrap().contains("differ"), "{body}");
    assert_eq!(state(&server, &code).await, before, "nothing changed");
    // The same token twice is fine.
    let response = client()
        .post(&url)
        .bearer_auth(&black)
        .json(&json!({"token": black, "version": 2, "move": "C6/A6/B5/D5/E6/F5"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn event_streams_refuse_a_wrong_token_and_restart_an_id_from_the_future() {
    let server = TestServer::start(&test_db!("sse-edges"), test_config()).await;
    let (code, _, _) = friend_room(&server).await;
    let url = server.url(&format!("/api/rooms/{code}/events"));
    let wrong = client()
        .get(&url)
        .bearer_auth("0123456789abcdef0123456789abcdef")
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status().as_u16(), 403, "not a spectator by mistake");
    // An id beyond the room's version: the current state, not silence.
    let mut stream = SseReader::open(&url, None, Some(99)).await;
    let first = stream.next_state().await;
    assert_eq!(first.id, Some(2));
    assert_eq!(first.data["version"], 2);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_refusal_for_rate_says_when_to_come_back() {
    let config = ServerConfig {
        rates: Rates::default(),
        ..test_config()
    };
    let server = TestServer::start(&test_db!("retry-after"), config).await;
    let mut refused = None;
    for _ in 0..40 {
        let response = client()
            .post(server.url("/api/rooms"))
            .json(&json!({"game": "escampe"}))
            .send()
            .await
            .unwrap();
        if response.status().as_u16() == 429 {
            refused = Some(response);
            break;
        }
    }
    let refused = refused.expect("room creation is limited");
    let seconds: u64 = refused.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&seconds), "{seconds}");
    let body: serde_json::Value = refused.json().await.unwrap();
    assert!(body["error"].is_string());
    server.stop().await;
}

/// Scans unknown codes with `forwarded` as X-Forwarded-For until refused;
/// returns how many lookups passed.
async fn scan(server: &TestServer, forwarded: &str) -> usize {
    for passed in 0..40 {
        let response = client()
            .get(server.url("/api/rooms/ZZZZZ"))
            .header("x-forwarded-for", forwarded)
            .send()
            .await
            .unwrap();
        if response.status().as_u16() == 429 {
            return passed;
        }
    }
    40
}

#[tokio::test(flavor = "multi_thread")]
async fn forwarded_for_counts_only_behind_the_trusted_proxy() {
    let limited = |trusted: Option<&str>| ServerConfig {
        rates: Rates::default(),
        trusted_proxy: trusted.map(|a| a.parse().unwrap()),
        ..test_config()
    };
    // Behind the proxy (the tests' 127.0.0.1), each forwarded client has its
    // own allowance.
    let server = TestServer::start(&test_db!("proxy"), limited(Some("127.0.0.1"))).await;
    let first = scan(&server, "10.1.1.1").await;
    assert!(first < 40, "a client is limited");
    assert_eq!(
        scan(&server, "10.1.1.2").await,
        first,
        "another client is not"
    );
    server.stop().await;
    // Without a trusted proxy the header is the client's word: ignored.
    let server = TestServer::start(&test_db!("no-proxy"), limited(None)).await;
    let first = scan(&server, "10.1.1.1").await;
    assert!(first < 40);
    assert_eq!(
        scan(&server, "10.1.1.2").await,
        0,
        "the same peer, still limited"
    );
    server.stop().await;
}

/// A player's list with many expired rooms still gets the others'
/// standing: codes past the unknown-code allowance are left unchecked, not
/// the whole answer refused; a request with nothing answerable is refused.
#[tokio::test(flavor = "multi_thread")]
async fn a_games_list_full_of_expired_rooms_still_answers_for_the_live_ones() {
    let config = ServerConfig {
        rates: Rates::default(),
        ..test_config()
    };
    let server = TestServer::start(&test_db!("summaries-misses"), config).await;
    let (live, _) = white_room(&server, "draughts").await;
    let expired: Vec<String> = "ABCDEFGHJKLMNP"
        .chars()
        .map(|c| format!("ZZZZ{c}"))
        .collect();
    let codes = format!("{live},{}", expired.join(","));
    let (status, answer) = get(&server.url(&format!("/api/rooms?codes={codes}"))).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["rooms"][0]["code"], live.as_str());
    let missing = answer["missing"].as_array().unwrap().len();
    let unchecked = answer["unchecked"].as_array().unwrap().len();
    assert_eq!(missing + unchecked, expired.len(), "{answer}");
    assert!(missing > 0 && unchecked > 0, "{answer}");
    // Asking again for the unchecked ones alone: nothing can be answered
    // now, so the refusal itself, with its wait.
    let again = answer["unchecked"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect::<Vec<_>>()
        .join(",");
    let (status, refused) = get(&server.url(&format!("/api/rooms?codes={again}"))).await;
    assert_eq!(status, 429, "{refused}");
    server.stop().await;
}
