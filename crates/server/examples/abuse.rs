//! Abuse probes against a running `plateau serve`, on loopback: extra
//! 127.x source addresses stand in for separate clients. Each probe prints
//! what one abusive client achieved and what the others saw, so that a
//! server before and after a fix can be compared.
//!
//! ```text
//! ulimit -n 256   # the descriptors of a small host
//! plateau serve --addr 127.0.0.1:8080 --db /tmp/abuse.db --no-access-log &
//! cargo run --release -p plateau-server --example abuse -- --url http://127.0.0.1:8080
//! ```
//!
//! 1. **rematch flood**: one address resigns and asks for a rematch in a
//!    loop for `--seconds`: the rooms it made, and the refusals.
//! 2. **connection flood**: one address opens connections and reopens them
//!    as they close, up to `--connections`, while another sends one normal
//!    request every 0.4 s (2 s timeout each): how many of those failed.
//! 3. **AI latency**: one address makes 6 rooms against the master AI (each
//!    moving first); then a beginner room's first reply is timed from
//!    another address and from the same one, and the master moves' times
//!    are reported.
//!
//! Run it against a fresh database: the probes make rooms, and a server's
//! per-address limits remember the addresses for a while.

use serde_json::{Value, json};
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tokio::net::TcpSocket;

const USAGE: &str =
    "usage: abuse --url URL [--seconds S (default 5)] [--connections N (default 400)]";

struct Options {
    url: String,
    seconds: u64,
    connections: usize,
}

fn options() -> Options {
    let mut options = Options {
        url: String::new(),
        seconds: 5,
        connections: 400,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let value = pair.get(1).cloned().unwrap_or_default();
        let number = |flag: &str| -> u64 {
            value
                .parse()
                .unwrap_or_else(|_| panic!("{flag} needs a number, not {value:?}\n{USAGE}"))
        };
        match pair[0].as_str() {
            "--url" => options.url = value.trim_end_matches('/').to_string(),
            "--seconds" => options.seconds = number("--seconds"),
            "--connections" => options.connections = number("--connections") as usize,
            other => panic!("unknown option {other:?}\n{USAGE}"),
        }
    }
    if options.url.is_empty() {
        panic!("{USAGE}");
    }
    options
}

/// A client whose requests come from 127.0.0.`last`.
fn client_from(last: u8) -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .local_address(IpAddr::from([127, 0, 0, last]))
        .build()
        .expect("a client")
}

async fn post(client: &reqwest::Client, url: String, body: Value) -> (u16, Value) {
    match client.post(url).json(&body).send().await {
        Ok(response) => {
            let status = response.status().as_u16();
            (status, response.json().await.unwrap_or(Value::Null))
        }
        Err(_) => (0, Value::Null),
    }
}

async fn get(client: &reqwest::Client, url: String) -> (u16, Value) {
    match client.get(url).send().await {
        Ok(response) => {
            let status = response.status().as_u16();
            (status, response.json().await.unwrap_or(Value::Null))
        }
        Err(_) => (0, Value::Null),
    }
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
}

/// Probe 1: rooms made by resign and rematch in a loop.
async fn rematch_flood(options: &Options) {
    let client = client_from(11);
    let base = &options.url;
    let (status, created) = post(
        &client,
        format!("{base}/api/rooms"),
        json!({"game": "ataxx", "seat": "black", "opponent": "ai", "level": "beginner"}),
    )
    .await;
    if status != 201 {
        println!("rematch flood: the first room was refused ({status}: {created})");
        return;
    }
    let token = created["token"].as_str().unwrap_or_default().to_string();
    let mut code = created["code"].as_str().unwrap_or_default().to_string();
    let (mut made, mut refused) = (0u64, 0u64);
    let mut refusal = String::new();
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(options.seconds) {
        post(
            &client,
            format!("{base}/api/rooms/{code}/resign"),
            json!({"token": token}),
        )
        .await;
        let (status, body) = post(
            &client,
            format!("{base}/api/rooms/{code}/rematch"),
            json!({"token": token}),
        )
        .await;
        match status {
            201 => {
                made += 1;
                code = body["code"].as_str().unwrap_or_default().to_string();
            }
            429 => {
                refused += 1;
                if refusal.is_empty() {
                    refusal = body["error"].as_str().unwrap_or_default().to_string();
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            _ => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
    println!(
        "rematch flood: one address made {made} rooms by rematch in {} s ({refused} refused with 429)",
        options.seconds
    );
    if !refusal.is_empty() {
        println!("  the refusal: {refusal}");
    }
}

/// Probe 2: one address holding and reopening connections; another's
/// normal requests.
async fn connection_flood(options: &Options) {
    let address: SocketAddr = options
        .url
        .trim_start_matches("http://")
        .parse()
        .expect("--url http://IP:PORT");
    let stop = Arc::new(AtomicBool::new(false));
    let open = Arc::new(AtomicUsize::new(0));
    let peak = Arc::new(AtomicUsize::new(0));
    let opened = Arc::new(AtomicUsize::new(0));
    let mut holders = Vec::new();
    for _ in 0..options.connections {
        let (stop, open, peak, opened) = (
            Arc::clone(&stop),
            Arc::clone(&open),
            Arc::clone(&peak),
            Arc::clone(&opened),
        );
        holders.push(tokio::spawn(async move {
            while !stop.load(Ordering::Relaxed) {
                let socket = TcpSocket::new_v4().expect("a socket");
                if socket.bind(SocketAddr::from(([127, 0, 0, 12], 0))).is_err() {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
                let Ok(Ok(mut stream)) =
                    tokio::time::timeout(Duration::from_secs(2), socket.connect(address)).await
                else {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                };
                opened.fetch_add(1, Ordering::Relaxed);
                // Held until the server closes it; then opened again. One
                // still open after a second counts as held (a refused one
                // closes at once).
                let connected = Instant::now();
                let mut counted = false;
                let mut buffer = [0u8; 256];
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    if !counted && connected.elapsed() >= Duration::from_secs(1) {
                        counted = true;
                        let now = open.fetch_add(1, Ordering::Relaxed) + 1;
                        peak.fetch_max(now, Ordering::Relaxed);
                    }
                    match tokio::time::timeout(
                        Duration::from_millis(200),
                        tokio::io::AsyncReadExt::read(&mut stream, &mut buffer),
                    )
                    .await
                    {
                        Ok(Ok(0)) | Ok(Err(_)) => break,
                        _ => {}
                    }
                }
                if counted {
                    open.fetch_sub(1, Ordering::Relaxed);
                }
            }
        }));
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    let normal = reqwest::Client::builder()
        .timeout(Duration::from_secs(2))
        .local_address(IpAddr::from([127, 0, 0, 13]))
        .pool_max_idle_per_host(0)
        .build()
        .expect("a client");
    let (mut failed, mut times) = (0, Vec::new());
    let tries = 7;
    for _ in 0..tries {
        let started = Instant::now();
        match normal
            .get(format!("{}/api/games", options.url))
            .send()
            .await
        {
            Ok(response) if response.status().is_success() => {
                times.push(started.elapsed().as_secs_f64() * 1000.0);
            }
            _ => failed += 1,
        }
        tokio::time::sleep(Duration::from_millis(400)).await;
    }
    stop.store(true, Ordering::Relaxed);
    for holder in holders {
        let _ = holder.await;
    }
    println!(
        "connection flood: one address kept up to {} connections open for over a second \
         ({} opened in all); another address's normal requests: {failed} of {tries} failed, \
         median {:.1} ms",
        peak.load(Ordering::Relaxed),
        opened.load(Ordering::Relaxed),
        median(&mut times)
    );
}

/// Seconds until the first AI move of room `code` (or `None` after 60 s).
async fn first_ai_move(client: &reqwest::Client, base: &str, code: &str) -> Option<f64> {
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(60) {
        let (_, state) = get(client, format!("{base}/api/rooms/{code}")).await;
        if state["moves"].as_array().is_some_and(|m| !m.is_empty()) {
            return Some(started.elapsed().as_secs_f64());
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    None
}

/// A room against the AI at `level` (moving first), from `client`.
async fn ai_room(client: &reqwest::Client, base: &str, level: &str) -> Option<String> {
    let (status, body) = post(
        client,
        format!("{base}/api/rooms"),
        json!({"game": "ataxx", "seat": "white", "opponent": "ai", "level": level}),
    )
    .await;
    (status == 201).then(|| body["code"].as_str().unwrap_or_default().to_string())
}

/// Probe 3: a beginner's reply while master rooms think.
async fn ai_latency(options: &Options) {
    let base = &options.url;
    let heavy = client_from(14);
    let started = Instant::now();
    let mut masters = Vec::new();
    for _ in 0..6 {
        match ai_room(&heavy, base, "master").await {
            Some(code) => masters.push(code),
            None => {
                println!("AI latency: a master room was refused");
                return;
            }
        }
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut queue_shown = 0;
    for code in &masters {
        let (_, state) = get(&heavy, format!("{base}/api/rooms/{code}")).await;
        if state["ai"]["queue"].is_u64() {
            queue_shown += 1;
        }
    }
    let master_moves: Vec<_> = masters
        .iter()
        .map(|code| {
            let (client, base, code) = (heavy.clone(), base.clone(), code.clone());
            tokio::spawn(async move {
                first_ai_move(&client, &base, &code).await;
                started.elapsed().as_secs_f64()
            })
        })
        .collect();
    let other = client_from(15);
    let mut replies = Vec::new();
    for (name, client) in [("another address", &other), ("the same address", &heavy)] {
        let Some(code) = ai_room(client, base, "beginner").await else {
            println!("AI latency: the beginner room was refused");
            return;
        };
        let reply = first_ai_move(client, base, &code).await;
        replies.push(format!(
            "{name} {}",
            reply.map_or("none in 60 s".to_string(), |s| format!("{s:.2} s"))
        ));
    }
    let mut done = Vec::new();
    for task in master_moves {
        done.push(task.await.unwrap_or(f64::NAN));
    }
    done.sort_by(f64::total_cmp);
    let gaps: Vec<String> = std::iter::once(0.0)
        .chain(done.iter().copied())
        .collect::<Vec<_>>()
        .windows(2)
        .map(|w| format!("{:.2}", w[1] - w[0]))
        .collect();
    println!(
        "AI latency: a beginner's first reply while 6 master rooms think: {}",
        replies.join(", ")
    );
    println!(
        "  the 6 master moves done after {} s (one every {} s); {queue_shown} of 6 showed a place in line",
        done.iter()
            .map(|t| format!("{t:.2}"))
            .collect::<Vec<_>>()
            .join(", "),
        gaps.join(", ")
    );
}

#[tokio::main]
async fn main() {
    let options = options();
    let (status, _) = get(&client_from(1), format!("{}/api/games", options.url)).await;
    if status != 200 {
        eprintln!("{}: not a plateau server ({status})", options.url);
        std::process::exit(1);
    }
    rematch_flood(&options).await;
    connection_flood(&options).await;
    // Idle connections of the flood close after the header timeout.
    tokio::time::sleep(Duration::from_secs(1)).await;
    ai_latency(&options).await;
}
