//! Two `plateau serve` processes on one PostgreSQL database: an AI move
//! claimed by an instance that is killed (`kill -9`, mid-search) is played by
//! the other once the claim's lease runs out.

#[path = "../../server/tests/support/postgres.rs"]
mod postgres;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The AI's time cap given to both instances, in seconds.
const CAP_S: u64 = 1;
/// The lease of a claim under that cap (twice the cap plus 3 s).
const LEASE: Duration = Duration::from_secs(2 * CAP_S + 3);

struct Server {
    child: Child,
    address: String,
}

impl Server {
    fn start(url: &str) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_plateau"))
            .args(["serve", "--addr", "127.0.0.1:0", "--ai-threads", "1"])
            .args(["--ai-time-cap", &CAP_S.to_string(), "--db", url])
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
            assert!(!line.contains("s3cret"), "no password in the log: {line}");
            if let Some(rest) = line.split("http://").nth(1) {
                break rest.split_whitespace().next().unwrap().to_string();
            }
        };
        std::thread::spawn(move || for _ in lines {});
        Server { child, address }
    }

    fn kill(mut self) {
        self.child.kill().expect("kill -9");
        self.child.wait().expect("reaped");
    }

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
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn field<'a>(json: &'a str, name: &str) -> &'a str {
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
}

#[test]
fn an_ai_move_claimed_by_a_killed_instance_is_played_by_another_within_the_lease() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let Some(url) = runtime.block_on(postgres::fresh_database("kill9_ai")) else {
        return;
    };
    let a = Server::start(&url);
    // A master AI that moves first (whichever colour that takes).
    let mut code = String::new();
    for seat in ["white", "black"] {
        let body =
            format!(r#"{{"game":"abalone","seat":"{seat}","opponent":"ai","level":"master"}}"#);
        let (status, created) = a.request("POST", "/api/rooms", &body);
        assert_eq!(status, 201, "{created}");
        let room = field(&created, "code").to_string();
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

    let b = Server::start(&url);
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
