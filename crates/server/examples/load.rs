//! Load test for running `plateau serve` instances: many Server-Sent Events
//! clients and a steady rate of moves across many rooms, on loopback, spread
//! over one or several instances; optionally one instance is killed mid-run.
//!
//! ```text
//! plateau serve --addr 127.0.0.1:8080 --db /tmp/load.db --no-rate-limits --no-access-log &
//! cargo run --release -p plateau-server --example load -- \
//!     --url http://127.0.0.1:8080 --rooms 500 --clients 5000 --rate 200 --seconds 60
//!
//! # three instances on one PostgreSQL database, the second killed after 20 s:
//! cargo run --release -p plateau-server --example load -- \
//!     --url http://127.0.0.1:8081 --url http://127.0.0.1:8082 --url http://127.0.0.1:8083 \
//!     --kill-pid PID_OF_8082 --kill-at 20 --rooms 500 --clients 5000 --rate 200 --seconds 60
//! ```
//!
//! Client `i` listens on instance `i mod N`; rooms are created and moves posted
//! round robin over the instances. A stream that ends early reconnects to the
//! next instance with `Last-Event-ID` after a delay drawn as the page draws
//! its first (`--reconnect-ms`: half to one and a half times it, so that the
//! clients of a killed instance do not all come back in the same instant; 0
//! reconnects at once); a move whose instance does not answer goes to the
//! next one. At the end every room is read back and checked:
//!
//! - **lost**: a move acknowledged (200) but missing from the room;
//! - **duplicated**: an event a client received twice;
//! - **skipped**: an event between two that a client received, which it never
//!   received (across its reconnections);
//! - and, at the end, events not yet delivered to clients still connected
//!   (in flight: an overloaded server) and clients not reconnected.
//!
//! Reports the streams held, move-to-event latency (from sending a move to
//! each subscriber receiving its event live; replays after a reconnection are
//! counted apart), move POST latency and the reconnections' gaps (from the
//! cut to the new stream's first line), as percentiles, then the
//! move-to-event latency per 5 s window (a kill's reconnection storm shows up
//! as one slow window). All clients share one
//! address, so the servers run without rate limits.

use serde_json::{Value, json};
use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

struct Options {
    urls: Vec<String>,
    rooms: usize,
    clients: usize,
    rate: f64,
    seconds: u64,
    /// An instance to SIGKILL, and when (seconds into the moves).
    kill: Option<(i32, u64)>,
    /// The middle of the delay before a cut stream reconnects.
    reconnect: Duration,
}

const USAGE: &str = "usage: load --url URL [--url URL...] [--rooms N] [--clients N] [--rate MOVES_PER_S] [--seconds S] [--kill-pid PID --kill-at S] [--reconnect-ms MS (default 1000, as the page)]";

fn options() -> Options {
    let mut options = Options {
        urls: Vec::new(),
        rooms: 500,
        clients: 5000,
        rate: 200.0,
        seconds: 60,
        kill: None,
        reconnect: Duration::from_millis(1000),
    };
    let mut kill_pid = None;
    let mut kill_at = None;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |flag: &str, value: &str| -> f64 {
        value
            .parse()
            .unwrap_or_else(|_| panic!("{flag} needs a number, not {value:?}\n{USAGE}"))
    };
    for pair in args.chunks(2) {
        let value = pair.get(1).cloned().unwrap_or_default();
        match pair[0].as_str() {
            "--url" => options.urls.push(value.trim_end_matches('/').to_string()),
            "--rooms" => options.rooms = number("--rooms", &value) as usize,
            "--clients" => options.clients = number("--clients", &value) as usize,
            "--rate" => options.rate = number("--rate", &value),
            "--seconds" => options.seconds = number("--seconds", &value) as u64,
            "--kill-pid" => kill_pid = Some(number("--kill-pid", &value) as i32),
            "--kill-at" => kill_at = Some(number("--kill-at", &value) as u64),
            "--reconnect-ms" => {
                options.reconnect = Duration::from_millis(number("--reconnect-ms", &value) as u64)
            }
            other => panic!("unknown option {other}\n{USAGE}"),
        }
    }
    if options.urls.is_empty() {
        options.urls.push("http://127.0.0.1:8080".into());
    }
    options.kill = match (kill_pid, kill_at) {
        (Some(pid), Some(at)) => Some((pid, at)),
        (None, None) => None,
        _ => panic!("--kill-pid and --kill-at go together\n{USAGE}"),
    };
    assert!(options.rooms > 0 && options.rate > 0.0, "{USAGE}");
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

#[derive(Default)]
struct Stats {
    /// Each live delivery: when its move was sent, and its latency in ms.
    event_latency: Mutex<Vec<(Instant, f64)>>,
    post_latency: Mutex<Vec<f64>>,
    streams_open: AtomicUsize,
    streams_max: AtomicUsize,
    events: AtomicU64,
    replayed: AtomicU64,
    reconnections: AtomicU64,
    /// Each reconnection's gap: from the cut to the new stream's status line.
    reconnection_gaps: Mutex<Vec<f64>>,
    errors: AtomicU64,
    /// Moves that went to another instance because theirs did not answer.
    rerouted: AtomicU64,
    /// Every acknowledged move: (room, its version).
    acknowledged: Mutex<Vec<(String, u64)>>,
    /// What each client received.
    received: Mutex<Vec<Received>>,
}

fn percentile(values: &mut [f64], p: f64) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    values.sort_by(|a, b| a.total_cmp(b));
    values[((values.len() - 1) as f64 * p).round() as usize]
}

async fn get_json(client: &reqwest::Client, url: String) -> Option<Value> {
    client.get(url).send().await.ok()?.json().await.ok()
}

async fn new_room(client: &reqwest::Client, url: &str) -> Option<Room> {
    let created: Value = client
        .post(format!("{url}/api/rooms"))
        .json(&json!({"game": "draughts", "seat": "white", "opponent": "friend"}))
        .send()
        .await
        .ok()?
        .json()
        .await
        .ok()?;
    let code = created["code"].as_str()?.to_string();
    let joined: Value = client
        .post(format!("{url}/api/rooms/{code}/join"))
        .json(&json!({}))
        .send()
        .await
        .ok()?
        .json()
        .await
        .ok()?;
    let state = get_json(client, format!("{url}/api/rooms/{code}")).await?;
    Some(Room {
        code,
        tokens: [
            created["token"].as_str().unwrap_or_default().to_string(),
            joined["token"].as_str().unwrap_or_default().to_string(),
        ],
        version: state["version"].as_u64().unwrap_or(2),
        side: 0,
        legal: legal(&state),
    })
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

/// The delay before reconnection `attempt` of client `client`: uniform in
/// half to one and a half times `middle`, as the page draws its first.
fn reconnect_delay(middle: Duration, client: usize, attempt: usize) -> Duration {
    // A different, repeatable draw per client and attempt.
    let (_, z) = plateau_core::splitmix64((client as u64) << 20 ^ attempt as u64);
    middle.mul_f64(0.5 + (z >> 11) as f64 / (1u64 << 53) as f64)
}

/// A raw SSE subscriber of one room: counts events and their latency until
/// the end, reconnecting to the next instance when its stream ends early.
#[allow(clippy::too_many_arguments)]
async fn subscribe(
    addresses: Arc<Vec<String>>,
    client: usize,
    code: String,
    sent: Sent,
    stats: Arc<Stats>,
    until: Instant,
    reconnect: Duration,
) {
    let mut seen: Vec<u64> = Vec::new();
    let mut attempt = 0;
    let mut connected_at_end = false;
    let mut cut: Option<Instant> = None;
    while Instant::now() < until {
        let address = &addresses[(client + attempt) % addresses.len()];
        attempt += 1;
        if attempt > 1 {
            stats.reconnections.fetch_add(1, Ordering::Relaxed);
            tokio::time::sleep(reconnect_delay(reconnect, client, attempt)).await;
        }
        let Ok(mut stream) = TcpStream::connect(address).await else {
            stats.errors.fetch_add(1, Ordering::Relaxed);
            continue;
        };
        let resume = seen
            .last()
            .map(|v| format!("Last-Event-ID: {v}\r\n"))
            .unwrap_or_default();
        let request = format!(
            "GET /api/rooms/{code}/events HTTP/1.1\r\nHost: {address}\r\nAccept: text/event-stream\r\n{resume}\r\n"
        );
        if stream.write_all(request.as_bytes()).await.is_err() {
            stats.errors.fetch_add(1, Ordering::Relaxed);
            continue;
        }
        let mut lines = BufReader::new(stream).lines();
        // A refusal (429: too many streams) is not a stream.
        match lines.next_line().await {
            Ok(Some(status)) if status.starts_with("HTTP/1.1 200") => {}
            _ => {
                stats.errors.fetch_add(1, Ordering::Relaxed);
                continue;
            }
        }
        if let Some(at) = cut.take() {
            let gap = at.elapsed().as_secs_f64() * 1000.0;
            stats.reconnection_gaps.lock().unwrap().push(gap);
        }
        let open = stats.streams_open.fetch_add(1, Ordering::Relaxed) + 1;
        stats.streams_max.fetch_max(open, Ordering::Relaxed);
        let mut version = None;
        // Moves sent before a reconnection come back replayed from storage.
        let connected = (attempt > 1).then(Instant::now);
        loop {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                connected_at_end = true;
                break;
            }
            let line = match tokio::time::timeout(left, lines.next_line()).await {
                Ok(Ok(Some(line))) => line,
                // The run ended with the stream still open.
                Err(_) => {
                    connected_at_end = true;
                    break;
                }
                // Cut: reconnect.
                Ok(_) => break,
            };
            if let Some(id) = line.strip_prefix("id:") {
                version = id.trim().parse::<u64>().ok();
            } else if line.is_empty()
                && let Some(v) = version.take()
            {
                seen.push(v);
                stats.events.fetch_add(1, Ordering::Relaxed);
                let started = sent.lock().unwrap().get(&(code.clone(), v)).copied();
                match started {
                    // Replayed from storage after a reconnection: not a
                    // live delivery, its latency says nothing of fan-out.
                    Some(started) if connected.is_some_and(|at| started < at) => {
                        stats.replayed.fetch_add(1, Ordering::Relaxed);
                    }
                    Some(started) => {
                        let ms = started.elapsed().as_secs_f64() * 1000.0;
                        stats.event_latency.lock().unwrap().push((started, ms));
                    }
                    None => {}
                }
            }
        }
        stats.streams_open.fetch_sub(1, Ordering::Relaxed);
        if !connected_at_end {
            cut = Some(Instant::now());
        }
    }
    stats.received.lock().unwrap().push(Received {
        code,
        seen,
        connected_at_end,
    });
}

/// What one client received.
struct Received {
    code: String,
    /// Versions in order of arrival.
    seen: Vec<u64>,
    /// Its stream was open when the run ended (not cut and still reconnecting).
    connected_at_end: bool,
}

/// Posts the room's next move, to its instance or, if that one does not
/// answer, to the next ones.
async fn play(
    client: reqwest::Client,
    urls: Arc<Vec<String>>,
    home: usize,
    room: Arc<tokio::sync::Mutex<Room>>,
    sent: Sent,
    stats: Arc<Stats>,
) {
    let Ok(mut room) = room.try_lock() else {
        return;
    };
    if room.legal.is_empty() {
        // Game over: a new room in its place.
        for i in 0..urls.len() {
            if let Some(fresh) = new_room(&client, &urls[(home + i) % urls.len()]).await {
                *room = fresh;
                return;
            }
        }
        return;
    }
    let mv = room.legal[(room.version as usize * 7) % room.legal.len()].clone();
    let started = Instant::now();
    sent.lock()
        .unwrap()
        .insert((room.code.clone(), room.version + 1), started);
    for i in 0..urls.len() {
        let url = &urls[(home + i) % urls.len()];
        let response = client
            .post(format!("{url}/api/rooms/{}/moves", room.code))
            .timeout(Duration::from_secs(10))
            .json(&json!({"token": room.tokens[room.side], "version": room.version, "move": mv}))
            .send()
            .await;
        let Ok(response) = response else {
            // That instance is gone (or the answer was): try the next. A move
            // that did land there makes the retry a 409, and the room is
            // read again below.
            stats.rerouted.fetch_add(1, Ordering::Relaxed);
            continue;
        };
        let ok = response.status().is_success();
        let state: Value = response.json().await.unwrap_or(Value::Null);
        stats
            .post_latency
            .lock()
            .unwrap()
            .push(started.elapsed().as_secs_f64() * 1000.0);
        let state = if ok {
            let version = state["version"].as_u64().unwrap_or(room.version + 1);
            stats
                .acknowledged
                .lock()
                .unwrap()
                .push((room.code.clone(), version));
            state
        } else {
            stats.errors.fetch_add(1, Ordering::Relaxed);
            match get_json(&client, format!("{url}/api/rooms/{}", room.code)).await {
                Some(state) => state,
                None => return,
            }
        };
        room.version = state["version"].as_u64().unwrap_or(room.version);
        room.side = usize::from(state["side_to_move"] == "black");
        room.legal = if state["status"] == "playing" {
            legal(&state)
        } else {
            Vec::new()
        };
        return;
    }
    stats.errors.fetch_add(1, Ordering::Relaxed);
}

#[tokio::main]
async fn main() {
    let options = options();
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(64)
        .build()
        .expect("client");
    let urls = Arc::new(options.urls.clone());
    let addresses: Arc<Vec<String>> = Arc::new(
        urls.iter()
            .map(|u| u.trim_start_matches("http://").to_string())
            .collect(),
    );
    eprintln!(
        "creating {} rooms over {} instance(s)...",
        options.rooms,
        urls.len()
    );
    let mut rooms = Vec::new();
    for i in 0..options.rooms {
        let url = &urls[i % urls.len()];
        rooms.push(
            new_room(&client, url)
                .await
                .unwrap_or_else(|| panic!("cannot create a room on {url}")),
        );
    }
    let sent: Sent = Arc::new(Mutex::new(HashMap::new()));
    let stats = Arc::new(Stats::default());
    let warmup = Duration::from_secs(10);
    let until =
        Instant::now() + warmup + Duration::from_secs(options.seconds) + Duration::from_secs(3);
    eprintln!("opening {} event streams...", options.clients);
    for i in 0..options.clients {
        let code = rooms[i % rooms.len()].code.clone();
        tokio::spawn(subscribe(
            Arc::clone(&addresses),
            i,
            code,
            Arc::clone(&sent),
            Arc::clone(&stats),
            until,
            options.reconnect,
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
    let began = Instant::now();
    let stop = began + Duration::from_secs(options.seconds);
    let mut kill = options.kill;
    let mut next = 0;
    let mut posted = 0u64;
    let rooms: Vec<Arc<tokio::sync::Mutex<Room>>> = rooms
        .into_iter()
        .map(|r| Arc::new(tokio::sync::Mutex::new(r)))
        .collect();
    while Instant::now() < stop {
        ticker.tick().await;
        if let Some((pid, at)) = kill
            && began.elapsed() >= Duration::from_secs(at)
        {
            // SAFETY: kill(2) with a pid given by the user; no memory involved.
            let done = unsafe { libc::kill(pid, libc::SIGKILL) };
            eprintln!(
                "killed instance pid {pid} after {at} s ({})",
                if done == 0 { "ok" } else { "failed" }
            );
            kill = None;
        }
        let index = next % rooms.len();
        next += 1;
        posted += 1;
        tokio::spawn(play(
            client.clone(),
            Arc::clone(&urls),
            index % urls.len(),
            Arc::clone(&rooms[index]),
            Arc::clone(&sent),
            Arc::clone(&stats),
        ));
    }
    // Streams still open at the end of the moves: those held the whole run.
    let held = stats.streams_open.load(Ordering::Relaxed);
    // Let the last events arrive and every subscriber finish.
    tokio::time::sleep(until.saturating_duration_since(Instant::now()) + Duration::from_secs(1))
        .await;

    // Read every room back from a live instance.
    let mut finals: HashMap<String, u64> = HashMap::new();
    let codes: BTreeSet<String> = stats
        .received
        .lock()
        .unwrap()
        .iter()
        .map(|client| client.code.clone())
        .chain(
            stats
                .acknowledged
                .lock()
                .unwrap()
                .iter()
                .map(|(c, _)| c.clone()),
        )
        .collect();
    for code in codes {
        for url in urls.iter() {
            if let Some(state) = get_json(&client, format!("{url}/api/rooms/{code}")).await
                && let Some(version) = state["version"].as_u64()
            {
                finals.insert(code.clone(), version);
                break;
            }
        }
    }
    let acknowledged = stats.acknowledged.lock().unwrap().clone();
    let lost = acknowledged
        .iter()
        .filter(|(code, v)| finals.get(code).is_none_or(|last| v > last))
        .count();
    let mut duplicated = 0;
    let mut holes = 0;
    let mut late = 0;
    let mut disconnected = 0;
    for client in stats.received.lock().unwrap().iter() {
        let mut unique: BTreeSet<u64> = BTreeSet::new();
        for v in &client.seen {
            if !unique.insert(*v) {
                duplicated += 1;
            }
        }
        let (Some(&first), Some(&last)) = (unique.first(), unique.last()) else {
            continue;
        };
        // Never acceptable: a version skipped between two received ones
        // (a reconnection must replay it).
        holes += (first..=last).filter(|v| !unique.contains(v)).count();
        // Versions after the last received: still on the way when the run
        // ended (overload), or the client was cut and not back yet.
        let behind = finals
            .get(&client.code)
            .map_or(0, |&end| end.saturating_sub(last));
        if client.connected_at_end {
            late += behind;
        } else {
            disconnected += 1;
        }
    }

    let timed = stats.event_latency.lock().unwrap().clone();
    let mut events: Vec<f64> = timed.iter().map(|&(_, ms)| ms).collect();
    let mut posts = stats.post_latency.lock().unwrap().clone();
    println!(
        "instances: {}; streams held to the end: {held} (most at once {}); moves posted: {posted} ({:.0}/s), acknowledged: {}; events received: {} ({} replayed after {} reconnections); errors: {}; moves rerouted: {}",
        urls.len(),
        stats.streams_max.load(Ordering::Relaxed),
        posted as f64 / options.seconds as f64,
        acknowledged.len(),
        stats.events.load(Ordering::Relaxed),
        stats.replayed.load(Ordering::Relaxed),
        stats.reconnections.load(Ordering::Relaxed),
        stats.errors.load(Ordering::Relaxed),
        stats.rerouted.load(Ordering::Relaxed),
    );
    println!(
        "checked against the rooms: acknowledged moves lost {lost}, events duplicated {duplicated}, events skipped {holes}; at the end, {late} events not yet delivered to connected clients, {disconnected} clients not reconnected"
    );
    println!(
        "move-to-event latency (live): p50 {:.2} ms, p99 {:.2} ms, max {:.1} ms ({} deliveries)",
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
    let mut gaps = stats.reconnection_gaps.lock().unwrap().clone();
    println!(
        "reconnection gap (cut to new stream, delay {} ms +-50% included): p50 {:.0} ms, p99 {:.0} ms, max {:.0} ms ({} reconnected)",
        options.reconnect.as_millis(),
        percentile(&mut gaps, 0.5),
        percentile(&mut gaps, 0.99),
        percentile(&mut gaps, 1.0),
        gaps.len()
    );
    // Where the slow deliveries are: a kill's reconnection storm shows up as
    // one window, a server that cannot keep up as all of them.
    println!("move-to-event latency by when the move was sent:");
    for window in 0..options.seconds.div_ceil(TIMELINE_WINDOW) {
        let from = began + Duration::from_secs(window * TIMELINE_WINDOW);
        let to = from + Duration::from_secs(TIMELINE_WINDOW);
        let mut in_window: Vec<f64> = timed
            .iter()
            .filter(|&&(at, _)| from <= at && at < to)
            .map(|&(_, ms)| ms)
            .collect();
        if in_window.is_empty() {
            continue;
        }
        println!(
            "  {:>3}-{:<3} s: p50 {:>8.2} ms, p99 {:>8.2} ms, max {:>8.1} ms ({} deliveries)",
            window * TIMELINE_WINDOW,
            (window + 1) * TIMELINE_WINDOW,
            percentile(&mut in_window, 0.5),
            percentile(&mut in_window, 0.99),
            percentile(&mut in_window, 1.0),
            in_window.len()
        );
    }
}

/// Seconds per line of the latency timeline.
const TIMELINE_WINDOW: u64 = 5;
