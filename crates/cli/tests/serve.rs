//! `plateau serve` as a process: it survives `kill -9` without losing an
//! acknowledged move, and resumes every room with the same tokens.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running `plateau serve` and its address.
struct Server {
    child: Child,
    address: String,
}

impl Server {
    fn start(db: &Path) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_plateau"))
            .args(["serve", "--addr", "127.0.0.1:0", "--db"])
            .arg(db)
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
        std::thread::spawn(move || for _ in lines {});
        Server { child, address }
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

fn field(json: &str, name: &str) -> String {
    let key = format!("\"{name}\":\"");
    let start = json
        .find(&key)
        .unwrap_or_else(|| panic!("{name} in {json}"))
        + key.len();
    json[start..].split('"').next().unwrap().to_string()
}

#[test]
fn kill_9_loses_no_acknowledged_move() {
    let dir = std::env::temp_dir().join(format!("plateau-kill9-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("plateau.db");

    let server = Server::start(&db);
    let (status, created) = server.request(
        "POST",
        "/api/rooms",
        r#"{"game":"escampe","seat":"white","opponent":"friend"}"#,
    );
    assert_eq!(status, 201, "{created}");
    let code = field(&created, "code");
    let white = field(&created, "token");
    let (status, joined) = server.request("POST", &format!("/api/rooms/{code}/join"), "{}");
    assert_eq!(status, 200, "{joined}");
    let black = field(&joined, "token");
    let (status, body) = server.request(
        "POST",
        &format!("/api/rooms/{code}/moves"),
        &format!(r#"{{"token":"{black}","version":2,"move":"C6/A6/B5/D5/E6/F5"}}"#),
    );
    assert_eq!(status, 200, "{body}");
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
