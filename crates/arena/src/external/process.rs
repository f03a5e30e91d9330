//! An engine program as a child process: lines to its stdin, lines from its
//! stdout with deadlines, and a sure end (asked to quit, then killed).
//!
//! A thread reads stdout into a channel so that waiting for an answer can time
//! out; the engine's stderr goes nowhere (engines chatter there).

use super::ExternalError;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::time::{Duration, Instant};

/// Longest line accepted from an engine (an `info` line with a long PV fits).
pub const MAX_LINE: usize = 64 * 1024;

/// Lines buffered between the reader thread and the client: a chatty engine
/// blocks on its pipe instead of filling our memory.
const CHANNEL_LINES: usize = 1024;

/// How long a process has to leave after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(300);

/// What the reader thread passes on.
enum Event {
    Line(String),
    TooLong,
    Closed,
}

/// A running engine program.
pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Event>,
    /// The program name, for messages.
    label: String,
    /// Set once the process is known to be gone or unusable.
    dead: bool,
}

impl Process {
    /// Starts `command` (program then arguments).
    pub fn spawn(command: &[String]) -> Result<Process, ExternalError> {
        let (program, args) = command
            .split_first()
            .ok_or_else(|| ExternalError::Protocol("an empty engine command".into()))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|source| ExternalError::Spawn {
                command: command.join(" "),
                source,
            })?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| ExternalError::Protocol("no stdout pipe".into()))?;
        let (sender, lines) = sync_channel(CHANNEL_LINES);
        std::thread::Builder::new()
            .name(format!("engine {program}"))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                loop {
                    let event = match read_bounded_line(&mut reader) {
                        Ok(Some(line)) => Event::Line(line),
                        Ok(None) => Event::TooLong,
                        Err(()) => Event::Closed,
                    };
                    let last = !matches!(event, Event::Line(_));
                    if sender.send(event).is_err() || last {
                        break;
                    }
                }
            })
            .map_err(|source| ExternalError::Spawn {
                command: command.join(" "),
                source,
            })?;
        Ok(Process {
            stdin: child.stdin.take(),
            child,
            lines,
            label: program.clone(),
            dead: false,
        })
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), ExternalError> {
        let stdin = self.stdin.as_mut().ok_or(ExternalError::Exited)?;
        let written = stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush());
        written.map_err(|_| {
            self.dead = true;
            ExternalError::Exited
        })
    }

    /// The next line, waiting until `deadline` at most.
    pub fn recv(&mut self, deadline: Instant) -> Result<String, ExternalError> {
        if self.dead {
            return Err(ExternalError::Exited);
        }
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(Event::Line(line)) => Ok(line),
            Ok(Event::TooLong) => {
                self.dead = true;
                Err(ExternalError::Protocol(format!(
                    "a line longer than {MAX_LINE} bytes"
                )))
            }
            Ok(Event::Closed) | Err(RecvTimeoutError::Disconnected) => {
                self.dead = true;
                Err(ExternalError::Exited)
            }
            Err(RecvTimeoutError::Timeout) => Err(ExternalError::Timeout),
        }
    }

    /// Reads lines until `accept` returns something, giving each line that
    /// does not match to `other` (which may turn it into an error).
    pub fn wait_for<T>(
        &mut self,
        deadline: Instant,
        mut accept: impl FnMut(&str) -> Option<T>,
        mut other: impl FnMut(&str) -> Result<(), ExternalError>,
    ) -> Result<T, ExternalError> {
        loop {
            let line = self.recv(deadline)?;
            if let Some(found) = accept(&line) {
                return Ok(found);
            }
            other(&line)?;
        }
    }

    /// What came of waiting for the engine's move: the move, or the error that
    /// loses the game, the process abandoned since it can no longer be trusted
    /// (after a timeout it is asked to `stop` first). `reply` names the line
    /// that carries the move (`bestmove`, `done`), `awaited` what a timeout
    /// says was missing, `allowed` the time it had.
    pub fn settle_move(
        &mut self,
        answer: Result<Option<String>, ExternalError>,
        reply: &str,
        awaited: &str,
        allowed: Duration,
    ) -> Result<String, ExternalError> {
        let error = match answer {
            Ok(Some(mv)) if !mv.is_empty() => return Ok(mv),
            Ok(_) => ExternalError::Protocol(format!("`{reply}` without a move")),
            Err(ExternalError::Timeout) => {
                let _ = self.send("stop");
                ExternalError::Protocol(format!(
                    "no {awaited} within {:.1} s",
                    allowed.as_secs_f64()
                ))
            }
            Err(other) => other,
        };
        self.abandon();
        Err(error)
    }

    /// Marks the process unusable (it will be killed when dropped).
    pub fn abandon(&mut self) {
        self.dead = true;
    }

    pub fn is_dead(&self) -> bool {
        self.dead
    }

    pub fn label(&self) -> &str {
        &self.label
    }
}

impl Drop for Process {
    /// Asks the engine to quit, waits a moment, then kills it: no engine
    /// outlives its game.
    fn drop(&mut self) {
        if !self.dead {
            let _ = self.send("quit");
        }
        self.stdin = None;
        let until = Instant::now() + QUIT_GRACE;
        while Instant::now() < until {
            match self.child.try_wait() {
                Ok(Some(_)) => return,
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                Err(_) => break,
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One line without its end (`\n`, `\r\n`), decoded leniently. `Ok(None)`
/// for a line longer than [`MAX_LINE`], `Err` at the end of the stream.
fn read_bounded_line(reader: &mut impl BufRead) -> Result<Option<String>, ()> {
    let mut bytes = Vec::new();
    let read = reader
        .by_ref()
        .take(MAX_LINE as u64 + 1)
        .read_until(b'\n', &mut bytes)
        .map_err(|_| ())?;
    if read == 0 {
        return Err(());
    }
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
    } else if bytes.len() > MAX_LINE {
        return Ok(None);
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    Ok(Some(String::from_utf8_lossy(&bytes).into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_bounded_and_trimmed() {
        let mut input = BufReader::new(&b"one\r\ntwo\nlast"[..]);
        assert_eq!(read_bounded_line(&mut input), Ok(Some("one".into())));
        assert_eq!(read_bounded_line(&mut input), Ok(Some("two".into())));
        assert_eq!(read_bounded_line(&mut input), Ok(Some("last".into())));
        assert_eq!(read_bounded_line(&mut input), Err(()));
        let long = vec![b'a'; MAX_LINE + 10];
        let mut input = BufReader::new(&long[..]);
        assert_eq!(read_bounded_line(&mut input), Ok(None));
    }

    #[test]
    fn a_missing_program_is_a_spawn_error() {
        let err = Process::spawn(&["/nonexistent/plateau-engine".to_string()])
            .err()
            .unwrap();
        assert!(matches!(err, ExternalError::Spawn { .. }), "{err}");
        assert!(err.to_string().contains("/nonexistent/plateau-engine"));
    }
}
