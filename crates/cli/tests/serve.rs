//! `plateau serve` as a process: it survives `kill -9` without losing an
//! acknowledged move, and resumes every room with the same tokens; its access
//! log; and two processes on one PostgreSQL database, one killed mid-search.

#[path = "../../server/tests/support/postgres.rs"]
mod postgres;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running `plateau serve` and its address.
struct Server {
    child: Child,
    address: String,
    /// Every stderr line so far.
    log: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl Server {
    fn start(db: &Path) -> Server {
        Server::start_with(db.to_str().expect("a UTF-8 path"), &[])
    }

    /// A server on database `db` (a file or a URL) with more options.
    fn start_with(db: &str, options: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_plateau"))
            .args(["serve", "--addr", "127.0.0.1:0", "--db", db])
            .args(options)
            .stderr(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .expect("the server starts");
        let stderr = child.stderr.take().expect("stderr");
        let mut lines = BufReader::new(stderr).lines();
        let address = loop {
            let line = lines
                .next()
                .expect("the server says where it listens")
                .unwrap();
            if let Some(rest) = line.split("http://").nth(1) {
                break rest.split_whitespace().next().unwrap().to_string();
            }
        };
        // Keep draining stderr so the server never blocks on it.
        let log = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let kept = std::sync::Arc::clone(&log);
        std::thread::spawn(move || {
            for line in lines.map_while(Result::ok) {
                kept.lock().unwrap().push(line);
            }
        });
        Server {
            child,
            address,
            log,
        }
    }

    /// SIGKILL: no chance to flush anything.
    fn kill(mut self) {
        self.child.kill().expect("kill -9");
        self.child.wait().expect("reaped");
    }

    /// A minimal HTTP/1.1 request; returns (status, body).
    fn request(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.address,
            body.len()
        )
        .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let status = response[9..12].parse().unwrap();
        let body = response.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
        (status, body)
    }
}

impl Drop for Server {
    /// A failing test leaves no server behind.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A string or number field of a JSON object (the first with that name).
fn field(json: &str, name: &str) -> String {
    let key = format!("\"{name}\":");
    let start = json
        .find(&key)
        .unwrap_or_else(|| panic!("{name} in {json}"))
        + key.len();
    json[start..]
        .trim_start_matches('"')
        .split(['"', ',', '}'])
        .next()
        .unwrap()
        .to_string()
}

/// A friend room made with `body` (White's seat taken), joined, and Black's
/// `first` move played: (code, White's token, Black's token).
fn first_move(server: &Server, body: &str, first: &str) -> (String, String, String) {
    let (status, created) = server.request("POST", "/api/rooms", body);
    assert_eq!(status, 201, "{created}");
    let code = field(&created, "code");
    let white = field(&created, "token");
    let (status, joined) = server.request("POST", &format!("/api/rooms/{code}/join"), "{}");
    assert_eq!(status, 200, "{joined}");
    let black = field(&joined, "token");
    let (status, played) = server.request(
        "POST",
        &format!("/api/rooms/{code}/moves"),
        &format!(r#"{{"token":"{black}","version":2,"move":"{first}"}}"#),
    );
    assert_eq!(status, 200, "{played}");
    (code, white, black)
}

#[test]
fn kill_9_loses_no_acknowledged_move() {
    let dir = std::env::temp_dir().join(format!("plateau-kill9-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("plateau.db");

    let server = Server::start(&db);
    // Escampe: Black places first.
    let (code, white, _) = first_move(
        &server,
        r#"{"game":"escampe","seat":"white","opponent":"friend"}"#,
        "C6/A6/B5/D5/E6/F5",
    );
    // Acknowledged: now kill it without warning.
    server.kill();

    let server = Server::start(&db);
    let (status, state) = server.request("GET", &format!("/api/rooms/{code}"), "");
    assert_eq!(status, 200, "{state}");
    assert!(
        state.contains(r#""moves":["C6/B5/D5/F5/A6/E6"]"#),
        "{state}"
    );
    assert!(state.contains(r#""version":3"#), "{state}");
    // The same tokens still hold the same seats.
    let (status, body) = server.request(
        "POST",
        &format!("/api/rooms/{code}/moves"),
        &format!(r#"{{"token":"{white}","version":3,"move":"B2/A1/B1/C2/E2/F2"}}"#),
    );
    assert_eq!(status, 200, "{body}");
    server.kill();
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_downtime_after_kill_9_is_not_charged_to_the_clock() {
    let dir = std::env::temp_dir().join(format!("plateau-downtime-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("plateau.db");
    let server = Server::start(&db);
    // Ataxx: Black moves first.
    let (code, _, _) = first_move(
        &server,
        r#"{"game":"ataxx","seat":"white","opponent":"friend","clock":{"initial_s":60}}"#,
        "b6",
    );
    // White's clock runs; a heartbeat or two go by, then the server dies
    // and stays down for 5 s.
    std::thread::sleep(Duration::from_millis(1500));
    server.kill();
    std::thread::sleep(Duration::from_secs(5));
    let server = Server::start(&db);
    let (status, state) = server.request("GET", &format!("/api/rooms/{code}"), "");
    assert_eq!(status, 200, "{state}");
    let state: serde_json::Value = serde_json::from_str(&state).unwrap();
    let white_ms = state["clock"]["white_ms"].as_i64().unwrap();
    // Charged: at most the 1.5 s the server was up (from the last
    // heartbeat on, the time is credited), not the 5 s it was down
    // (without the credit: 53.5 s at most).
    assert!(
        (57_000..=60_000).contains(&white_ms),
        "white has {white_ms} ms: {state}"
    );
    assert_eq!(state["clock"]["running"], "white");
    let log = state["log"].to_string();
    assert!(log.contains("the server was down for"), "{log}");
    server.kill();
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_access_log_has_every_request_and_no_token() {
    let dir = std::env::temp_dir().join(format!("plateau-access-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let server = Server::start(&dir.join("plateau.db"));
    let (status, created) = server.request(
        "POST",
        "/api/rooms",
        r#"{"game":"escampe","seat":"white","opponent":"friend"}"#,
    );
    assert_eq!(status, 201, "{created}");
    let code = field(&created, "code");
    let white = field(&created, "token");
    let (_, joined) = server.request("POST", &format!("/api/rooms/{code}/join"), "{}");
    let black = field(&joined, "token");
    let (status, _) = server.request(
        "POST",
        &format!("/api/rooms/{code}/moves?token={black}"),
        &format!(r#"{{"token":"{black}","version":2,"move":"C6/A6/B5/D5/E6/F5"}}"#),
    );
    assert_eq!(status, 200);
    let (status, _) = server.request("GET", "/api/rooms/NOPE9", "");
    assert_eq!(status, 404);
    // The lines are written as the answers go out; give the pipe a moment.
    std::thread::sleep(Duration::from_millis(300));
    let log = server.log.lock().unwrap().join("\n");
    for expected in [
        "127.0.0.1 POST /api/rooms 201".to_string(),
        format!("POST /api/rooms/{code}/moves 200"),
        "GET /api/rooms/NOPE9 404".to_string(),
    ] {
        assert!(log.contains(&expected), "{expected:?} in {log}");
    }
    for token in [&white, &black] {
        assert!(!log.contains(token.as_str()), "a token in the log: {log}");
    }
    server.kill();
    std::fs::remove_dir_all(&dir).ok();
}

/// The AI's time cap given to both instances, in seconds.
const CAP_S: u64 = 1;
/// The lease of a claim under that cap (twice the cap plus 3 s).
const LEASE: Duration = Duration::from_secs(2 * CAP_S + 3);

#[test]
fn an_ai_move_claimed_by_a_killed_instance_is_played_by_another_within_the_lease() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let Some(url) = runtime.block_on(postgres::fresh_database("kill9_ai")) else {
        return;
    };
    let options = ["--ai-threads", "1", "--ai-time-cap", &CAP_S.to_string()];
    let a = Server::start_with(&url, &options);
    // A master AI that moves first (whichever colour that takes).
    let mut code = String::new();
    for seat in ["white", "black"] {
        let body =
            format!(r#"{{"game":"abalone","seat":"{seat}","opponent":"ai","level":"master"}}"#);
        let (status, created) = a.request("POST", "/api/rooms", &body);
        assert_eq!(status, 201, "{created}");
        let room = field(&created, "code");
        let (_, state) = a.request("GET", &format!("/api/rooms/{room}"), "");
        if field(&state, "side_to_move") != seat {
            code = room;
            break;
        }
    }
    assert!(!code.is_empty(), "one seat lets the AI move first");
    // Wait until A searches, then kill it mid-search.
    let searching = Instant::now();
    loop {
        let (_, state) = a.request("GET", &format!("/api/rooms/{code}"), "");
        if state.contains("\"thinking\":true") {
            break;
        }
        assert!(
            searching.elapsed() < Duration::from_secs(10),
            "A never searched: {state}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let claimed = Instant::now();
    a.kill();

    let b = Server::start_with(&url, &options);
    let (_, state) = b.request("GET", &format!("/api/rooms/{code}"), "");
    assert_eq!(
        field(&state, "version"),
        "1",
        "A died before its move: {state}"
    );
    let played = loop {
        let (_, state) = b.request("GET", &format!("/api/rooms/{code}"), "");
        if field(&state, "version") != "1" {
            break state;
        }
        assert!(
            claimed.elapsed() < LEASE + Duration::from_secs(CAP_S + 4),
            "B never played the move: {state}"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let waited = claimed.elapsed();
    // Exactly one AI move, played by B after A's lease ran out.
    assert_eq!(field(&played, "version"), "2", "{played}");
    assert!(played.contains("\"moves\":[\""), "{played}");
    assert!(
        waited + Duration::from_millis(500) >= LEASE,
        "B did not wait for the lease: {waited:?}"
    );
    eprintln!("the move was played {waited:?} after A's claim (lease {LEASE:?})");
}

/// A room's state without what is live on one server only (connections,
/// the AI's search, clocks read at different moments).
fn settled(state: &str) -> serde_json::Value {
    let mut value: serde_json::Value = serde_json::from_str(state).expect("a JSON state");
    value["seats"] = serde_json::Value::Null;
    value["ai"] = serde_json::Value::Null;
    value["clock"] = serde_json::Value::Null;
    value
}

#[test]
fn copy_rooms_moves_a_site_from_sqlite_to_postgresql() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let Some(url) = runtime.block_on(postgres::fresh_database("copy_rooms")) else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("plateau-copy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("plateau.db");
    let old = Server::start(&file);
    // A game under way with a clock, a draw offer and its history...
    let (status, created) = old.request(
        "POST",
        "/api/rooms",
        r#"{"game":"draughts","seat":"white","opponent":"friend","public":true,"clock":{"initial_s":600}}"#,
    );
    assert_eq!(status, 201, "{created}");
    let code = field(&created, "code");
    let white = field(&created, "token");
    let (_, joined) = old.request("POST", &format!("/api/rooms/{code}/join"), "{}");
    let black = field(&joined, "token");
    let (status, _) = old.request(
        "POST",
        &format!("/api/rooms/{code}/moves"),
        &format!(r#"{{"token":"{white}","version":2,"move":"32-28"}}"#),
    );
    assert_eq!(status, 200);
    let (status, _) = old.request(
        "POST",
        &format!("/api/rooms/{code}/draw"),
        &format!(r#"{{"token":"{black}","version":3,"action":"offer"}}"#),
    );
    assert_eq!(status, 200);
    // ...and a room waiting for its second player.
    let (_, waiting) = old.request("POST", "/api/rooms", r#"{"game":"escampe","seat":"black"}"#);
    let waiting = field(&waiting, "code");
    let (_, before) = old.request("GET", &format!("/api/rooms/{code}"), "");
    let (_, waiting_before) = old.request("GET", &format!("/api/rooms/{waiting}"), "");
    old.kill();

    let copy = |expected: &str| {
        let output = Command::new(env!("CARGO_BIN_EXE_plateau"))
            .args(["copy-rooms", "--from"])
            .arg(&file)
            .args(["--to", &url])
            .output()
            .expect("copy-rooms runs");
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let said = String::from_utf8_lossy(&output.stdout).to_string();
        assert!(said.contains(expected), "{said}");
        assert!(!String::from_utf8_lossy(&output.stderr).contains("s3cret"));
    };
    copy("2 room(s) copied, 0 skipped");
    // Again: nothing is copied twice.
    copy("0 room(s) copied, 2 skipped");

    let new = Server::start_with(&url, &[]);
    let (status, after) = new.request("GET", &format!("/api/rooms/{code}"), "");
    assert_eq!(status, 200, "{after}");
    // The move took time: it is credited to the running clock (the last
    // heartbeat came along), with a line in the room's history and a
    // version more.
    let mut moved = settled(&after);
    let log = moved["log"].as_array_mut().unwrap();
    let before_len = log.len();
    log.retain(|line| {
        !line
            .as_str()
            .unwrap()
            .starts_with("the server was down for")
    });
    let credited = before_len - log.len();
    assert!(credited <= 1, "{after}");
    moved["version"] = (moved["version"].as_u64().unwrap() - credited as u64).into();
    assert_eq!(moved, settled(&before));
    assert!(!after.contains("without knowing"), "{after}");
    let version = field(&after, "version");
    let (_, waiting_after) = new.request("GET", &format!("/api/rooms/{waiting}"), "");
    assert_eq!(settled(&waiting_after), settled(&waiting_before));
    // The history replays, and the same tokens hold the same seats.
    let mut stream = TcpStream::connect(&new.address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    write!(
        stream,
        "GET /api/rooms/{code}/events HTTP/1.1\r\nHost: x\r\nLast-Event-ID: 1\r\n\r\n"
    )
    .unwrap();
    let mut replay = String::new();
    let mut reader = BufReader::new(stream);
    while !replay.contains("id: 4") {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            break;
        }
        replay.push_str(&line);
    }
    for id in ["id: 2", "id: 3", "id: 4"] {
        assert!(replay.contains(id), "{id} in {replay}");
    }
    let (status, body) = new.request(
        "POST",
        &format!("/api/rooms/{code}/draw"),
        &format!(r#"{{"token":"{white}","version":{version},"action":"accept"}}"#),
    );
    assert_eq!(status, 200, "{body}");
    assert!(body.contains(r#""status":"finished""#), "{body}");
    new.kill();
    std::fs::remove_dir_all(&dir).ok();
}
