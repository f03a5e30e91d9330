//! `plateau hub` and `plateau dxp` as real processes: a scripted Hub session
//! over stdin/stdout, and two `plateau dxp` processes playing each other.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

const START: &str = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";

/// Generous: the machine may be loaded; a normal answer takes milliseconds.
const PATIENCE: Duration = Duration::from_secs(30);

/// `plateau hub` with a line-by-line view of its output.
struct Hub {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Hub {
    fn start(engine: &str) -> Hub {
        Hub::start_with(&["--engine", engine])
    }

    fn start_with(args: &[&str]) -> Hub {
        let mut child = Command::new(env!("CARGO_BIN_EXE_plateau"))
            .arg("hub")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary starts");
        let stdout = child.stdout.take().expect("stdout");
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Hub {
            stdin: child.stdin.take(),
            child,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line.as_bytes()).expect("written");
        stdin.write_all(b"\n").expect("written");
        stdin.flush().expect("flushed");
    }

    fn next(&self) -> String {
        match self.lines.recv_timeout(PATIENCE) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => panic!("no answer in {PATIENCE:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("the engine closed its output"),
        }
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self.next();
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    fn exit_status(mut self) -> std::process::ExitStatus {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().expect("waits") {
                return status;
            }
            assert!(Instant::now() < deadline, "the engine does not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Hub {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The value of `name=` in a Hub line (bare or quoted).
fn field(line: &str, name: &str) -> Option<String> {
    let start = line.find(&format!(" {name}="))? + name.len() + 2;
    let rest = &line[start..];
    Some(match rest.strip_prefix('"') {
        Some(quoted) => quoted[..quoted.find('"')?].to_string(),
        None => rest.split(' ').next()?.to_string(),
    })
}

#[test]
fn a_hub_session_with_bad_lines_and_a_stopped_analysis() {
    let mut hub = Hub::start("master");
    hub.send("hub");
    assert_eq!(hub.next(), "id name=plateau version=0.1.0");
    let params = hub.until("wait");
    assert_eq!(
        params[0],
        "param name=variant value=normal type=enum values=normal"
    );
    assert!(params[1].starts_with("param name=engine value=master type=enum values=\""));
    assert!(
        params[2].starts_with("param name=threads value="),
        "{params:?}"
    );
    assert!(params[3].starts_with("param name=hash value=64 type=int min=0 max="));
    assert_eq!(params.len(), 5);
    hub.send("init");
    assert_eq!(hub.next(), "ready");

    // Bad lines: each is answered with an error, and changes nothing.
    for (line, expected) in [
        ("dance", "error message=\"unknown command 'dance'"),
        (
            "pos pos=Wbbb",
            "error message=\"pos=: the board has 3 squares, not 50\"",
        ),
        (
            "pos pos=Xbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww",
            "error message=\"pos=: the first character is the side to move, W or B",
        ),
        (
            &format!("pos pos={START} moves=\"32-28 28-22\""),
            "error message=\"moves=: move 2 (28-22)",
        ),
        (
            "level depth=many",
            "error message=\"level depth=many: a whole number",
        ),
        (
            "level moves=40",
            "error message=\"level: moves= and inc= go with time=",
        ),
        ("level", "error message=\"level needs depth=N"),
        (
            "go fast",
            "error message=\"go needs think, ponder or analyze\"",
        ),
        (
            "pos pos=\"Wbbb",
            "error message=\"pos: the value of pos opens a double quote",
        ),
        (
            "set-param name=engine value=grandmaster",
            "error message=\"unknown engine",
        ),
        (
            "set-param name=variant value=killer",
            "error message=\"variant 'killer' is not played",
        ),
    ] {
        hub.send(line);
        let answer = hub.next();
        assert!(answer.starts_with(expected), "{line:?} -> {answer:?}");
    }
    hub.send("ping");
    assert_eq!(hub.next(), "pong");

    // A capture is forced after 32-28 19-23: the answer lists the captured square.
    hub.send(&format!("pos pos={START} moves=\"32-28 19-23\""));
    hub.send("level depth=5");
    hub.send("go think");
    let lines = hub.until("done");
    let done = lines.last().unwrap();
    assert!(done.starts_with("done move=28x19x23"), "{lines:#?}");
    for info in &lines[..lines.len() - 1] {
        assert!(info.starts_with("info depth="), "{info}");
        for name in ["score", "nodes", "time", "nps", "pv"] {
            assert!(field(info, name).is_some(), "{name} in {info}");
        }
        assert!(field(info, "pv").unwrap().starts_with("28x19x23"), "{info}");
    }

    // An infinite analysis answers ping while it runs, and stop at once.
    hub.send(&format!("pos pos={START}"));
    hub.send("level infinite");
    hub.send("go analyze");
    let first = hub.next();
    assert!(first.starts_with("info depth=1 "), "{first}");
    hub.send("ping");
    hub.until("pong");
    hub.send("stop");
    let stopped = Instant::now();
    let lines = hub.until("done");
    assert!(stopped.elapsed() < PATIENCE);
    let best = field(lines.last().unwrap(), "move").unwrap();
    let legal = [
        "31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30",
    ];
    assert!(legal.contains(&best.as_str()), "{best}");

    // A second search starts normally after the stopped one.
    hub.send("level move-time=0.2");
    hub.send("go think");
    assert!(hub.until("done").last().unwrap().starts_with("done move="));
    hub.send("new-game");
    hub.send("quit");
    assert!(hub.exit_status().success());
}

#[test]
fn hub_levels_pondering_and_the_end_of_input() {
    // One thread: with helpers, one may complete depth 3 before the main
    // thread reports depth 2, and the reported depths would skip it.
    let mut hub = Hub::start_with(&["--engine", "expert", "--threads", "1"]);
    hub.send("hub");
    hub.until("wait");
    hub.send("set-param name=engine value=medium");
    hub.send("init");
    assert_eq!(
        hub.next(),
        "ready",
        "set-param answers nothing when it succeeds"
    );
    // The level's depth caps any search: medium searches 3 plies.
    hub.send(&format!("pos pos={START}"));
    hub.send("level depth=20");
    hub.send("go analyze");
    let lines = hub.until("done");
    let depths: Vec<String> = lines.iter().filter_map(|l| field(l, "depth")).collect();
    assert_eq!(depths, ["1", "2", "3"], "{lines:#?}");
    // Pondering, then ponder-hit: the search becomes a real one and answers.
    hub.send("level move-time=0.2");
    hub.send("set-param name=engine value=master");
    hub.send(&format!("pos pos={START} moves=\"32-28\""));
    hub.send("go ponder");
    std::thread::sleep(Duration::from_millis(100));
    hub.send("ponder-hit");
    let done = hub.until("done");
    assert!(field(done.last().unwrap(), "move").is_some());
    // Only one answer: the ponder search ended silently.
    hub.send("ping");
    assert_eq!(hub.until("pong").len(), 1);
    // The end of the input ends the engine.
    hub.stdin = None;
    assert!(hub.exit_status().success());
}

#[test]
fn hub_threads_and_hash_params() {
    let mut hub = Hub::start_with(&["--engine", "strong", "--threads", "3"]);
    hub.send("hub");
    let params = hub.until("wait");
    assert!(
        params.contains(&format!(
            "param name=threads value=3 type=int min=1 max={}",
            plateau_games::MAX_THREADS
        )),
        "{params:#?}"
    );
    let hash = params
        .iter()
        .find(|l| l.starts_with("param name=hash "))
        .unwrap();
    assert_eq!(field(hash, "type").as_deref(), Some("int"), "{hash}");
    assert_eq!(field(hash, "min").as_deref(), Some("0"), "{hash}");

    // Bad values: an error naming the value, and nothing changes.
    for (line, expected) in [
        (
            "set-param name=threads value=0",
            "threads=0: give a number of threads",
        ),
        ("set-param name=threads value=many", "threads=many:"),
        ("set-param name=hash value=-1", "hash=-1: give a table size"),
        ("set-param name=hash value=999999", "hash=999999:"),
        ("set-param name=cores value=2", "unknown parameter"),
    ] {
        hub.send(line);
        let answer = hub.next();
        assert!(
            answer.starts_with(&format!("error message=\"{expected}")),
            "{line:?} -> {answer:?}"
        );
    }
    hub.send("hub");
    assert_eq!(
        hub.until("wait"),
        params,
        "the refused values changed nothing"
    );

    // Good values are silent, announced afterwards, and kept by a new engine.
    hub.send("set-param name=threads value=2");
    hub.send("set-param name=hash value=32");
    hub.send("set-param name=engine value=expert");
    hub.send("hub");
    let params = hub.until("wait");
    assert!(
        params[2].starts_with("param name=engine value=expert "),
        "{params:#?}"
    );
    assert!(
        params[3].starts_with("param name=threads value=2 "),
        "{params:#?}"
    );
    assert!(
        params[4].starts_with("param name=hash value=32 "),
        "{params:#?}"
    );
    hub.send("init");
    assert_eq!(hub.next(), "ready");
    hub.send(&format!("pos pos={START} moves=\"32-28 19-23\""));
    hub.send("level depth=6");
    hub.send("go think");
    let lines = hub.until("done");
    assert!(
        lines.last().unwrap().starts_with("done move=28x19x23"),
        "{lines:#?}"
    );

    // A change during a search is refused, like the engine's (master: the
    // other levels' depth caps would end an infinite analysis by themselves).
    hub.send("set-param name=engine value=master");
    hub.send(&format!("pos pos={START}"));
    hub.send("level infinite");
    hub.send("go analyze");
    hub.until("info");
    hub.send("set-param name=threads value=1");
    let refused = hub.until("error");
    assert!(
        refused
            .last()
            .unwrap()
            .contains("threads cannot change during a search"),
        "{refused:#?}"
    );
    hub.send("stop");
    hub.until("done");
    hub.send("quit");
    assert!(hub.exit_status().success());
}

#[test]
fn two_dxp_processes_play_each_other() {
    let dir = std::env::temp_dir().join(format!("plateau-cli-dxp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pdn = dir.join("games.pdn");
    let (follower, address, drain) = dxp_follower("medium");
    let initiator = Command::new(env!("CARGO_BIN_EXE_plateau"))
        .args([
            "dxp",
            "--connect",
            &address,
            "--games",
            "2",
            "--minutes",
            "1",
        ])
        .args([
            "--engine",
            "strong",
            "--name",
            "initiator",
            "--ponder",
            "--pdn",
        ])
        .arg(&pdn)
        .output()
        .expect("the initiator runs");
    let follower = follower.wait_with_output().expect("the follower ends");
    let follower_log = drain.join().unwrap();
    let ours = String::from_utf8_lossy(&initiator.stdout).into_owned();
    let theirs = String::from_utf8_lossy(&follower.stdout).into_owned();
    assert!(
        initiator.status.success(),
        "{}",
        String::from_utf8_lossy(&initiator.stderr)
    );
    assert!(follower.status.success(), "{follower_log}");
    let ours: Vec<&str> = ours.lines().collect();
    let theirs: Vec<&str> = theirs.lines().collect();
    // The games, the score, then the match report (Elo over the pairs).
    assert!(ours.len() > 3, "{ours:#?}");
    assert!(ours[3].starts_with("initiator, "), "{ours:#?}");
    assert!(ours[0].starts_with("game 1: initiator (White) - plateau medium (Black): "));
    assert!(ours[1].starts_with("game 2: plateau medium (White) - initiator (Black): "));
    assert!(ours[2].starts_with("initiator: 2 games: "), "{}", ours[2]);
    assert!(
        theirs[2].starts_with("plateau medium: 2 games: "),
        "{}",
        theirs[2]
    );
    assert!(ours[2].contains("0 without result"), "{}", ours[2]);
    // --ponder: the initiator searched on the follower's time in both games.
    let events = String::from_utf8_lossy(&initiator.stderr);
    for game in 1..=2 {
        assert!(
            events.contains(&format!("game {game}: pondered through ")),
            "{events}"
        );
    }
    let text = std::fs::read_to_string(&pdn).unwrap();
    let games = plateau_draughts_pdn_count(&text);
    assert_eq!(games, 2, "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Games in a PDN text (its `[Result` tags), without a dependency on the
/// draughts crate: the library tests read the PDN with it.
fn plateau_draughts_pdn_count(text: &str) -> usize {
    text.lines().filter(|l| l.starts_with("[Result ")).count()
}

/// A follower process listening on a free loopback port: the process, its
/// address, and a thread collecting its stderr.
fn dxp_follower(engine: &str) -> (std::process::Child, String, std::thread::JoinHandle<String>) {
    let mut follower = Command::new(env!("CARGO_BIN_EXE_plateau"))
        .args(["dxp", "--listen", "127.0.0.1:0", "--engine", engine])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the follower starts");
    let mut stderr = BufReader::new(follower.stderr.take().unwrap());
    let mut first = String::new();
    stderr.read_line(&mut first).unwrap();
    let address = first
        .strip_prefix("dxp: listening on ")
        .and_then(|rest| rest.split(';').next())
        .unwrap_or_else(|| panic!("{first}"))
        .to_string();
    let drain = std::thread::spawn(move || {
        let mut rest = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut rest);
        rest
    });
    (follower, address, drain)
}

/// Two sessions at once, each against its own follower, from an openings
/// file: each opening is played with both colours, and the report gives Elo
/// over the pairs and the score as White and as Black.
#[test]
fn a_balloted_match_over_two_dxp_sessions_at_once() {
    let dir = std::env::temp_dir().join(format!("plateau-cli-ballots-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let openings = dir.join("ballots.txt");
    std::fs::write(
        &openings,
        "# two ballots\n1. 32-28 17-21 2. 37-32\n34-30 20-25\n",
    )
    .unwrap();
    let pdn = dir.join("match.pdn");
    let followers = [dxp_follower("beginner"), dxp_follower("beginner")];
    let addresses = format!("{},{}", followers[0].1, followers[1].1);
    let initiator = Command::new(env!("CARGO_BIN_EXE_plateau"))
        .args(["dxp", "--connect", &addresses, "--openings"])
        .arg(&openings)
        .args(["--games", "4", "--minutes", "1", "--threads", "1"])
        .args(["--engine", "medium", "--name", "balloted", "--pdn"])
        .arg(&pdn)
        .output()
        .expect("the initiator runs");
    let ours = String::from_utf8_lossy(&initiator.stdout).into_owned();
    let log = String::from_utf8_lossy(&initiator.stderr).into_owned();
    assert!(initiator.status.success(), "{log}");
    for (follower, _, drain) in followers {
        let out = follower.wait_with_output().expect("the follower ends");
        assert!(out.status.success(), "{}", drain.join().unwrap());
    }
    // Each session logs under its address.
    assert!(log.contains("[127.0.0.1:"), "{log}");
    let games: Vec<&str> = ours.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 4, "{ours}");
    assert!(ours.contains("over 2 pairs"), "{ours}");
    assert!(
        ours.contains("as White") && ours.contains("as Black"),
        "{ours}"
    );
    // One PDN with every game, each from its ballot (a FEN tag), and each
    // session's own file beside it.
    let text = std::fs::read_to_string(&pdn).unwrap();
    assert_eq!(plateau_draughts_pdn_count(&text), 4, "{text}");
    assert_eq!(text.matches("[FEN ").count(), 4, "{text}");
    for session in ["match-1.pdn", "match-2.pdn"] {
        let own = std::fs::read_to_string(dir.join(session)).unwrap();
        assert_eq!(plateau_draughts_pdn_count(&own), 2, "{session}: {own}");
    }
    // A bad openings file is refused before any connection, naming the line.
    std::fs::write(&openings, "32-28\n32-28 32-28\n").unwrap();
    let refused = Command::new(env!("CARGO_BIN_EXE_plateau"))
        .args(["dxp", "--connect", "127.0.0.1:9", "--openings"])
        .arg(&openings)
        .output()
        .unwrap();
    assert!(!refused.status.success());
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("line 2"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}
