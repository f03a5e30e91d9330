//! A real server on an ephemeral loopback port, an HTTP client, and an SSE reader.

#![allow(dead_code)]

pub mod postgres;

use futures_util::StreamExt;
use plateau_server::storage::Database;
use plateau_server::{AppState, ServerConfig};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The two storage backends every API test runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// A test's database, on either backend.
#[derive(Clone, Debug)]
pub struct TestDb(pub Database);

/// A fresh database on `backend`, or `None` where PostgreSQL is missing
/// outside CI (the test then returns at once, after a loud message).
pub async fn fresh_db(backend: Backend, name: &str) -> Option<TestDb> {
    match backend {
        Backend::Sqlite => Some(temp_db(name)),
        Backend::Postgres => postgres::fresh_database(name)
            .await
            .map(|url| TestDb(Database::Postgres(url))),
    }
}

/// Opens a test's database on `BACKEND` (a constant of the including module)
/// or returns from the test.
#[allow(unused_macros)]
macro_rules! test_db {
    ($name:expr) => {
        match $crate::support::fresh_db(BACKEND, $name).await {
            Some(db) => db,
            None => return,
        }
    };
}

pub struct TestServer {
    pub base: String,
    /// The database it serves from (another instance may share it).
    pub db: TestDb,
    pub state: Arc<AppState>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl TestServer {
    pub async fn start(db: &TestDb, config: ServerConfig) -> TestServer {
        TestServer::start_at(db, config, "127.0.0.1:0").await
    }

    /// A server on a given address (a restart on the same port, as after a
    /// dropped connection).
    pub async fn start_at(db: &TestDb, config: ServerConfig, address: &str) -> TestServer {
        let database = db.0.clone();
        let storage = tokio::task::spawn_blocking(move || database.open())
            .await
            .unwrap()
            .expect("database opens");
        let state = AppState::new(storage, config);
        let listener = tokio::net::TcpListener::bind(address).await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let task = tokio::spawn(plateau_server::serve(listener, Arc::clone(&state)));
        TestServer {
            base,
            db: db.clone(),
            state,
            task,
        }
    }

    /// Stops serving cleanly (open connections are cut, claimed AI moves
    /// given back) and lets go of the database.
    pub async fn stop(self) {
        self.state.shutdown().await;
        self.task.abort();
        let _ = self.task.await;
        drop(self.state);
        // Let aborted connection tasks release their handles on the state.
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }
}

/// A fresh SQLite database in a fresh directory.
pub fn temp_db(name: &str) -> TestDb {
    TestDb(Database::Sqlite(temp_path(name)))
}

/// A fresh database path in a fresh directory.
pub fn temp_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "plateau-server-{name}-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("plateau.db")
}

pub fn test_config() -> ServerConfig {
    ServerConfig {
        rates: plateau_server::Rates::unlimited(),
        connections_per_address: usize::MAX,
        rooms_per_address: usize::MAX,
        keep_alive: Duration::from_millis(500),
        access_log: false,
        ..ServerConfig::default()
    }
}

pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap()
}

pub async fn post(url: &str, body: Value) -> (u16, Value) {
    let response = client().post(url).json(&body).send().await.unwrap();
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// A client whose requests come from `address` (any 127.x.y.z on loopback):
/// a second user, as far as the per-address rules go.
pub fn client_from(address: [u8; 4]) -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .local_address(std::net::IpAddr::from(address))
        .build()
        .unwrap()
}

/// A POST from `address`.
pub async fn post_from(address: [u8; 4], url: &str, body: Value) -> (u16, Value) {
    let response = client_from(address)
        .post(url)
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// A GET from `address`.
pub async fn get_from(address: [u8; 4], url: &str) -> (u16, Value) {
    let response = client_from(address).get(url).send().await.unwrap();
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

pub async fn get(url: &str) -> (u16, Value) {
    let response = client().get(url).send().await.unwrap();
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// Creates a room; returns (code, seat, token).
pub async fn create(server: &TestServer, body: Value) -> (String, String, String) {
    let (status, value) = post(&server.url("/api/rooms"), body).await;
    assert_eq!(status, 201, "{value}");
    (
        value["code"].as_str().unwrap().to_string(),
        value["seat"].as_str().unwrap().to_string(),
        value["token"].as_str().unwrap().to_string(),
    )
}

/// A friend room of `game` with White's seat taken: (code, white token).
pub async fn white_room(server: &TestServer, game: &str) -> (String, String) {
    let (code, seat, token) = create(
        server,
        json!({"game": game, "seat": "white", "opponent": "friend"}),
    )
    .await;
    assert_eq!(seat, "white");
    (code, token)
}

/// Takes the free seat of a room (through `server`); returns its token.
pub async fn join(server: &TestServer, code: &str) -> String {
    let (status, joined) = post(&server.url(&format!("/api/rooms/{code}/join")), json!({})).await;
    assert_eq!(status, 200, "{joined}");
    joined["token"].as_str().unwrap().to_string()
}

/// A friend room for escampe with both seats taken: (code, white token, black token).
pub async fn friend_room(server: &TestServer) -> (String, String, String) {
    let (code, white) = white_room(server, "escampe").await;
    let black = join(server, &code).await;
    assert_eq!(state(server, &code).await["seats"]["black"]["taken"], true);
    (code, white, black)
}

pub async fn state(server: &TestServer, code: &str) -> Value {
    let (status, value) = get(&server.url(&format!("/api/rooms/{code}"))).await;
    assert_eq!(status, 200, "{value}");
    value
}

pub async fn play(
    server: &TestServer,
    code: &str,
    token: &str,
    version: u64,
    mv: &str,
) -> (u16, Value) {
    post(
        &server.url(&format!("/api/rooms/{code}/moves")),
        json!({"token": token, "version": version, "move": mv}),
    )
    .await
}

/// Plays the first legal move for `token`'s side; returns the move.
pub async fn play_first(server: &TestServer, code: &str, token: &str) -> String {
    let now = state(server, code).await;
    let mv = now["legal_moves"][0].as_str().unwrap().to_string();
    let (status, body) = play(server, code, token, now["version"].as_u64().unwrap(), &mv).await;
    assert_eq!(status, 200, "{body}");
    mv
}

/// The state once the game has `count` moves (the AI's reply, say).
pub async fn wait_for_moves(server: &TestServer, code: &str, count: usize) -> Value {
    let mut now = state(server, code).await;
    for _ in 0..200 {
        if now["moves"].as_array().unwrap().len() >= count {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        now = state(server, code).await;
    }
    assert_eq!(now["moves"].as_array().unwrap().len(), count, "{now}");
    now
}

/// One server-sent event.
#[derive(Clone, Debug)]
pub struct Sse {
    pub id: Option<u64>,
    pub event: String,
    pub data: Value,
}

/// Reads events from a streaming response.
pub struct SseReader {
    stream:
        std::pin::Pin<Box<dyn futures_util::Stream<Item = reqwest::Result<bytes::Bytes>> + Send>>,
    buffer: String,
}

impl SseReader {
    pub async fn open(url: &str, token: Option<&str>, last_event_id: Option<u64>) -> SseReader {
        let mut request = client().get(url).timeout(Duration::from_secs(3600));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(id) = last_event_id {
            request = request.header("Last-Event-ID", id.to_string());
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status().as_u16(), 200);
        assert!(
            response.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/event-stream")
        );
        SseReader {
            stream: Box::pin(response.bytes_stream()),
            buffer: String::new(),
        }
    }

    /// The next event (keep-alive comments skipped), or `None` after `wait`.
    pub async fn next_within(&mut self, wait: Duration) -> Option<Sse> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                let mut id = None;
                let mut event = String::from("message");
                let mut data = String::new();
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("id:") {
                        id = v.trim().parse().ok();
                    } else if let Some(v) = line.strip_prefix("event:") {
                        event = v.trim().to_string();
                    } else if let Some(v) = line.strip_prefix("data:") {
                        data += v.strip_prefix(' ').unwrap_or(v);
                    }
                }
                if data.is_empty() {
                    continue; // a comment (keep-alive)
                }
                return Some(Sse {
                    id,
                    event,
                    data: serde_json::from_str(&data).unwrap_or(Value::String(data)),
                });
            }
            let chunk = tokio::time::timeout_at(deadline, self.stream.next())
                .await
                .ok()??;
            self.buffer += &String::from_utf8_lossy(&chunk.ok()?);
        }
    }

    /// The next versioned state event (presence events skipped).
    pub async fn next_state(&mut self) -> Sse {
        loop {
            let event = self
                .next_within(Duration::from_secs(20))
                .await
                .expect("a state event arrives");
            if event.event == "state" {
                return event;
            }
        }
    }

    /// Fails if a state event arrives within `wait` (presence events may).
    pub async fn assert_no_state_within(&mut self, wait: Duration, context: &str) {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            if left.is_zero() {
                return;
            }
            match self.next_within(left).await {
                Some(event) if event.event == "state" => {
                    panic!("{context}: unexpected state event {event:?}")
                }
                Some(_) => {}
                None => return,
            }
        }
    }
}
