//! The other program, at the end of a TCP connection: messages out, messages
//! (or why there are none) in.

use super::wire::{Message, WireError};
use crate::line::{LineError, read_message_until};
use std::io::{BufReader, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// Longest message read before it is refused (the protocol allows 127
/// characters; a longer one is read whole, then reported).
const READ_LIMIT: usize = 1024;

/// How long a write may block (a peer that stops reading is a peer gone).
const WRITE_TIMEOUT: Duration = Duration::from_secs(30);

/// What came from the peer.
#[derive(Debug)]
pub enum Incoming {
    Message(Message),
    /// Something that is not a DamExchange message: its text and what is wrong.
    Malformed {
        text: String,
        reason: String,
    },
    /// Nothing before the deadline.
    TimedOut,
    /// The connection is closed or broken.
    Gone(String),
}

pub struct Peer {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
}

impl Peer {
    pub fn new(stream: TcpStream) -> std::io::Result<Peer> {
        let _ = stream.set_nodelay(true);
        stream.set_write_timeout(Some(WRITE_TIMEOUT))?;
        let writer = stream.try_clone()?;
        Ok(Peer {
            reader: BufReader::new(stream),
            writer,
        })
    }

    /// Sends a message; the error says why the peer is gone.
    pub fn send(&mut self, message: &Message) -> Result<(), String> {
        self.writer
            .write_all(&message.encode())
            .and_then(|_| self.writer.flush())
            .map_err(|e| e.to_string())
    }

    /// The next message, or why there is none, by `deadline`.
    pub fn receive(&mut self, deadline: Instant) -> Incoming {
        match read_message_until(&mut self.reader, READ_LIMIT, deadline) {
            Ok(text) => match Message::decode(&text) {
                Ok(message) => Incoming::Message(message),
                Err(WireError(reason)) => Incoming::Malformed {
                    text: shorten(&text),
                    reason,
                },
            },
            Err(LineError::TooLong(limit)) => Incoming::Malformed {
                text: String::from("(over-long message)"),
                reason: format!("more than {limit} bytes without a NUL"),
            },
            Err(LineError::TimedOut) => Incoming::TimedOut,
            Err(LineError::Closed) => Incoming::Gone("the connection was closed".into()),
            Err(LineError::Io(err)) => Incoming::Gone(err.to_string()),
        }
    }

    /// Closes both directions (the peer sees the end of the stream).
    pub fn close(&mut self) {
        let _ = self.writer.shutdown(std::net::Shutdown::Both);
    }
}

/// A message as a log shows it: printable, at most 60 characters.
fn shorten(text: &str) -> String {
    let clean: String = text
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if clean.chars().count() > 60 {
        format!("{}...", clean.chars().take(60).collect::<String>())
    } else {
        clean
    }
}
