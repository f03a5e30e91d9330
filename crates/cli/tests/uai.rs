//! `plateau uai` as a GUI drives it: a real process, lines on its pipes.

use plateau_games::GameSpec;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// Generous: the machine running the tests may be busy.
const PATIENCE: Duration = Duration::from_secs(60);

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_plateau"))
            .arg("uai")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary starts");
        let stdin = child.stdin.take().expect("stdin");
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
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("the engine reads");
        self.stdin.flush().expect("flushed");
    }

    /// Every line up to and including the first that satisfies `last`.
    fn until(&mut self, last: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + PATIENCE;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = last(&line);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("no answer in time; got {seen:?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("the engine quit; got {seen:?}"),
            }
        }
    }

    fn bestmove(&mut self) -> (Vec<String>, String) {
        let lines = self.until(|l| l.starts_with("bestmove "));
        let best = lines.last().unwrap()["bestmove ".len()..].to_string();
        (lines, best)
    }
}

fn legal(game: &str, moves: &str) -> Vec<String> {
    let spec = GameSpec::lookup(game, None).unwrap();
    let mut position = spec.new_game();
    plateau_core::play_record(position.as_mut(), moves).unwrap();
    position.legal_moves()
}

#[test]
fn a_gui_session_with_mistakes_a_stop_and_the_virus_game() {
    let mut engine = Engine::start(&["--engine", "expert"]);
    engine.send("uai");
    let hello = engine.until(|l| l == "uaiok");
    assert!(hello[0].starts_with("id name plateau"), "{hello:?}");
    assert!(hello.iter().any(|l| l.starts_with("option name Hash")));
    assert!(hello.iter().any(|l| l.starts_with("option name Variant")));
    engine.send("isready");
    engine.until(|l| l == "readyok");

    // Mistakes: each gets an error line, none changes the position.
    engine.send("uainewgame");
    engine.send("position startpos moves g2");
    for bad in [
        "hello",
        "position startpos moves a1a2",
        "position fen x5o/7/7/7/7/7 x 0 1",
        "go movetime",
        "setoption name Hash value lots",
    ] {
        engine.send(bad);
        let reply = engine.until(|_| true);
        assert!(
            reply[0].starts_with("info string error: "),
            "{bad}: {reply:?}"
        );
    }
    engine.send("go depth 3");
    let (lines, best) = engine.bestmove();
    assert!(legal("ataxx", "g2").contains(&best), "{best} after g2");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 3 ")),
        "{lines:?}"
    );

    // An infinite search runs until stop, then answers at once.
    engine.send("position startpos");
    engine.send("go infinite");
    engine.until(|l| l.starts_with("info depth 2 "));
    engine.send("isready");
    engine.until(|l| l == "readyok");
    engine.send("stop");
    let (_, best) = engine.bestmove();
    assert!(legal("ataxx", "").contains(&best), "{best}");

    // The virus game, 5x5, through the Variant option.
    engine.send("setoption name Variant value virus5x5");
    engine.send("position startpos moves b4");
    engine.send("go movetime 100");
    let (lines, best) = engine.bestmove();
    assert!(
        lines.iter().any(|l| l == "info string playing virus/5x5"),
        "{lines:?}"
    );
    let spec = GameSpec::lookup("virus", Some("5x5")).unwrap();
    let mut position = spec.new_game();
    position.play("b4").unwrap();
    assert!(position.legal_moves().contains(&best), "{best}");

    engine.send("quit");
    let deadline = Instant::now() + PATIENCE;
    loop {
        if let Some(status) = engine.child.try_wait().unwrap() {
            assert!(status.success());
            break;
        }
        assert!(Instant::now() < deadline, "quit did not end the engine");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn scripted_input_gets_its_answer_before_the_engine_exits() {
    let output = Command::new(env!("CARGO_BIN_EXE_plateau"))
        .args(["uai", "--engine", "strong"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child
                .stdin
                .take()
                .unwrap()
                .write_all(b"position startpos moves b6\ngo depth 2\n")?;
            child.wait_with_output()
        })
        .expect("the binary runs");
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    let best = text
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .unwrap_or_else(|| panic!("no bestmove in {text}"));
    assert!(legal("ataxx", "b6").contains(&best.to_string()));
}

#[test]
fn clock_fields_for_the_other_side_only_play_at_the_level() {
    // Black (x) is to move and only White's clock is given: nothing bounds the
    // search but the level, which must still answer.
    let mut engine = Engine::start(&["--engine", "medium"]);
    engine.send("uai");
    engine.until(|l| l == "uaiok");
    for go in ["go wtime 5000", "go movestogo 20", "go binc 100"] {
        engine.send("position startpos");
        engine.send(go);
        let (_, best) = engine.bestmove();
        assert!(legal("ataxx", "").contains(&best), "{go}: {best}");
    }
    engine.send("quit");
    assert!(engine.child.wait().expect("exits").success());
}

#[test]
fn the_threads_option_starts_at_the_flag_and_the_engine_text_wins() {
    for (args, default) in [
        (&["--engine", "strong", "--threads", "3"][..], 3),
        (&["--engine", "strong,threads=2", "--threads", "3"], 2),
    ] {
        let mut engine = Engine::start(args);
        engine.send("uai");
        let hello = engine.until(|l| l == "uaiok");
        let threads = format!("option name Threads type spin default {default} min 1 max ");
        assert!(
            hello.iter().any(|l| l.starts_with(&threads)),
            "{args:?}: {hello:?}"
        );
        engine.send("setoption name Threads value 2");
        engine.send("setoption name Threads value 0");
        let reply = engine.until(|_| true);
        assert!(
            reply[0].starts_with("info string error: Threads: \"0\""),
            "{reply:?}"
        );
        engine.send("position startpos moves g2");
        engine.send("go depth 4");
        let (_, best) = engine.bestmove();
        assert!(legal("ataxx", "g2").contains(&best), "{best} after g2");
        engine.send("quit");
        assert!(engine.child.wait().expect("exits").success());
    }
}
