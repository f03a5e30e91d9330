//! Load test for a running `plateau serve`: many Server-Sent Events clients and a
//! steady rate of moves across many rooms, on loopback.
//!
//! ```text
//! plateau serve --addr 127.0.0.1:8080 --db /tmp/load.db --no-rate-limits &
//! cargo run --release -p plateau-server --example load -- \
//!     --url http://127.0.0.1:8080 --rooms 500 --clients 5000 --rate 200 --seconds 60
//! ```
//!
//! Reports the event streams held, move-to-event latency (from sending a move to
//! each subscriber receiving its event) and move POST latency, as percentiles.
//! All clients share one address, so the server runs without rate limits.

use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

struct Options {
    url: String,
    rooms: usize,
    clients: usize,
    rate: f64,
    seconds: u64,
}

fn options() -> Options {
    let mut options = Options {
        url: "http://127.0.0.1:8080".into(),
        rooms: 500,
        clients: 5000,
        rate: 200.0,
        seconds: 60,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let value = pair.get(1).cloned().unwrap_or_default();
        match pair[0].as_str() {
            "--url" => options.url = value,
            "--rooms" => options.rooms = value.parse().expect("--rooms N"),
            "--clients" => options.clients = value.parse().expect("--clients N"),
            "--rate" => options.rate = value.parse().expect("--rate MOVES_PER_SECOND"),
            "--seconds" => options.seconds = value.parse().expect("--seconds N"),
            other => panic!("unknown option {other}"),
        }
    }
    options
}

/// One room the load tool plays in: its seats and the moves legal now.
struct Room {
    code: String,
    tokens: [String; 2],
    version: u64,
    side: usize,
    legal: Vec<String>,
}

/// When each (room, version) was sent, for the latency of its event.
type Sent = Arc<Mutex<HashMap<(String, u64), Instant>>>;

struct Stats {
    event_latency: Mutex<Vec<f64>>,
    post_latency: Mutex<Vec<f64>>,
    streams_open: AtomicUsize,
    streams_max: AtomicUsize,
    events: AtomicU64,
    errors: AtomicU64,
}

fn percentile(values: &mut [f64], p: f64) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    values.sort_by(|a, b| a.total_cmp(b));
    values[((values.len() - 1) as f64 * p).round() as usize]
}

async fn new_room(client: &reqwest::Client, url: &str) -> Room {
    let created: Value = client
        .post(format!("{url}/api/rooms"))
        .json(&json!({"game": "draughts", "seat": "white", "opponent": "friend"}))
        .send()
        .await
        .expect("create")
        .json()
        .await
        .expect("created");
    let code = created["code"].as_str().expect("code").to_string();
    let joined: Value = client
        .post(format!("{url}/api/rooms/{code}/join"))
        .json(&json!({}))
        .send()
        .await
        .expect("join")
        .json()
        .await
        .expect("joined");
    let state: Value = client
        .get(format!("{url}/api/rooms/{code}"))
        .send()
        .await
        .expect("state")
        .json()
        .await
        .expect("state json");
    Room {
        code,
        tokens: [
            created["token"].as_str().unwrap_or_default().to_string(),
            joined["token"].as_str().unwrap_or_default().to_string(),
        ],
        version: state["version"].as_u64().unwrap_or(2),
        side: 0,
        legal: legal(&state),
    }
}

fn legal(state: &Value) -> Vec<String> {
    state["legal_moves"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|m| m.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// A raw SSE subscriber: counts events and their latency until the end.
async fn subscribe(address: String, code: String, sent: Sent, stats: Arc<Stats>, until: Instant) {
    let Ok(mut stream) = TcpStream::connect(&address).await else {
        stats.errors.fetch_add(1, Ordering::Relaxed);
        return;
    };
    let request = format!(
        "GET /api/rooms/{code}/events HTTP/1.1\r\nHost: {address}\r\nAccept: text/event-stream\r\n\r\n"
    );
    if stream.write_all(request.as_bytes()).await.is_err() {
        stats.errors.fetch_add(1, Ordering::Relaxed);
        return;
    }
    let open = stats.streams_open.fetch_add(1, Ordering::Relaxed) + 1;
    stats.streams_max.fetch_max(open, Ordering::Relaxed);
    let mut lines = BufReader::new(stream).lines();
    let mut version = None;
    loop {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        let Ok(Ok(Some(line))) = tokio::time::timeout(left, lines.next_line()).await else {
            break;
        };
        if let Some(id) = line.strip_prefix("id:") {
            version = id.trim().parse::<u64>().ok();
        } else if line.is_empty()
            && let Some(v) = version.take()
        {
            stats.events.fetch_add(1, Ordering::Relaxed);
            let started = sent.lock().unwrap().get(&(code.clone(), v)).copied();
            if let Some(started) = started {
                let ms = started.elapsed().as_secs_f64() * 1000.0;
                stats.event_latency.lock().unwrap().push(ms);
            }
        }
    }
    stats.streams_open.fetch_sub(1, Ordering::Relaxed);
}

#[tokio::main]
async fn main() {
    let options = options();
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(64)
        .build()
        .expect("client");
    let address = options.url.trim_start_matches("http://").to_string();
    eprintln!("creating {} rooms...", options.rooms);
    let mut rooms = Vec::new();
    for _ in 0..options.rooms {
        rooms.push(new_room(&client, &options.url).await);
    }
    let sent: Sent = Arc::new(Mutex::new(HashMap::new()));
    let stats = Arc::new(Stats {
        event_latency: Mutex::new(Vec::new()),
        post_latency: Mutex::new(Vec::new()),
        streams_open: AtomicUsize::new(0),
        streams_max: AtomicUsize::new(0),
        events: AtomicU64::new(0),
        errors: AtomicU64::new(0),
    });
    let warmup = Duration::from_secs(10);
    let until =
        Instant::now() + warmup + Duration::from_secs(options.seconds) + Duration::from_secs(2);
    eprintln!("opening {} event streams...", options.clients);
    for i in 0..options.clients {
        let code = rooms[i % rooms.len()].code.clone();
        tokio::spawn(subscribe(
            address.clone(),
            code,
            Arc::clone(&sent),
            Arc::clone(&stats),
            until,
        ));
        if i % 200 == 199 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    tokio::time::sleep(warmup).await;
    eprintln!(
        "{} streams open; {} moves/s for {} s...",
        stats.streams_open.load(Ordering::Relaxed),
        options.rate,
        options.seconds
    );
    let interval = Duration::from_secs_f64(1.0 / options.rate);
    let mut ticker = tokio::time::interval(interval);
    let stop = Instant::now() + Duration::from_secs(options.seconds);
    let mut next = 0;
    let mut posted = 0u64;
    let rooms: Vec<Arc<tokio::sync::Mutex<Room>>> = rooms
        .into_iter()
        .map(|r| Arc::new(tokio::sync::Mutex::new(r)))
        .collect();
    while Instant::now() < stop {
        ticker.tick().await;
        let room = Arc::clone(&rooms[next % rooms.len()]);
        next += 1;
        let (client, url, sent, stats) = (
            client.clone(),
            options.url.clone(),
            Arc::clone(&sent),
            Arc::clone(&stats),
        );
        posted += 1;
        tokio::spawn(async move {
            let Ok(mut room) = room.try_lock() else {
                return;
            };
            if room.legal.is_empty() {
                *room = new_room(&client, &url).await;
                return;
            }
            let mv = room.legal[(room.version as usize * 7) % room.legal.len()].clone();
            let started = Instant::now();
            sent.lock()
                .unwrap()
                .insert((room.code.clone(), room.version + 1), started);
            let response = client
                .post(format!("{url}/api/rooms/{}/moves", room.code))
                .json(
                    &json!({"token": room.tokens[room.side], "version": room.version, "move": mv}),
                )
                .send()
                .await;
            let Ok(response) = response else {
                stats.errors.fetch_add(1, Ordering::Relaxed);
                return;
            };
            let ok = response.status().is_success();
            let state: Value = response.json().await.unwrap_or(Value::Null);
            stats
                .post_latency
                .lock()
                .unwrap()
                .push(started.elapsed().as_secs_f64() * 1000.0);
            if !ok {
                stats.errors.fetch_add(1, Ordering::Relaxed);
                return;
            }
            room.version = state["version"].as_u64().unwrap_or(room.version + 1);
            room.side = usize::from(state["side_to_move"] == "black");
            room.legal = if state["status"] == "playing" {
                legal(&state)
            } else {
                Vec::new()
            };
        });
    }
    // Streams still open at the end of the moves: those held the whole run.
    let held = stats.streams_open.load(Ordering::Relaxed);
    tokio::time::sleep(Duration::from_secs(2)).await;
    let mut events = stats.event_latency.lock().unwrap().clone();
    let mut posts = stats.post_latency.lock().unwrap().clone();
    println!(
        "streams held to the end: {held} (most at once {}); moves posted: {posted} ({:.0}/s); events received: {}; errors: {}",
        stats.streams_max.load(Ordering::Relaxed),
        posted as f64 / options.seconds as f64,
        stats.events.load(Ordering::Relaxed),
        stats.errors.load(Ordering::Relaxed)
    );
    println!(
        "move-to-event latency: p50 {:.2} ms, p99 {:.2} ms, max {:.1} ms ({} deliveries)",
        percentile(&mut events, 0.5),
        percentile(&mut events, 0.99),
        percentile(&mut events, 1.0),
        events.len()
    );
    println!(
        "move POST latency: p50 {:.2} ms, p99 {:.2} ms, max {:.1} ms ({} posts)",
        percentile(&mut posts, 0.5),
        percentile(&mut posts, 0.99),
        percentile(&mut posts, 1.0),
        posts.len()
    );
}
