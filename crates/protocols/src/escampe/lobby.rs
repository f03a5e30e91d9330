//! The arbiter's players and their connections.
//!
//! A background thread accepts connections at any time and reads each
//! client's name line; the arbiter's loop then seats them. The course's own
//! clients play one game, receive `FIN!` and exit, so between games a place
//! is often empty: before every game the arbiter checks that both seats are
//! still connected (a zero-length peek is an empty seat) and waits, up to a
//! set time, for the player to come back.
//!
//! Who takes a place:
//! - a client that sends the name of a registered player takes that player's
//!   place, when its old connection is gone;
//! - until the field is full, any other client registers as a new player (a
//!   name already in use gets a ` (2)` suffix);
//! - once the field is full, a client with an unknown name (the course's
//!   random player picks a new name every run) fills the place the arbiter is
//!   waiting for, and is logged as a replacement.

use super::MAX_LINE;
use crate::line::read_line_until;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

/// One client connection.
pub(crate) struct Seat {
    /// The name the client sent.
    pub name: String,
    pub reader: BufReader<TcpStream>,
    writer: TcpStream,
    pub alive: bool,
    /// When it was last sent `FIN!`: a client that exits after its game needs
    /// a moment for its close to arrive.
    pub game_ended: Option<Instant>,
}

impl Seat {
    /// Sends `bytes`; a failed write marks the seat dead. Returns whether the
    /// seat is still alive.
    pub fn send(&mut self, bytes: &[u8]) -> bool {
        if self.alive
            && self
                .writer
                .write_all(bytes)
                .and_then(|_| self.writer.flush())
                .is_err()
        {
            self.alive = false;
        }
        self.alive
    }

    /// Whether the client is still connected, without blocking: a peek that
    /// reads zero bytes means it closed. Whatever it sent since its last game
    /// (a late answer, say) is read and thrown away, so that it cannot be
    /// taken for a move in the next game.
    fn check(&mut self, log: &mut dyn FnMut(&str)) -> bool {
        if !self.alive {
            return false;
        }
        let stale = self.reader.buffer().len();
        self.reader.consume(stale);
        let mut discarded = stale;
        let stream = self.reader.get_mut();
        if stream.set_nonblocking(true).is_err() {
            self.alive = false;
            return false;
        }
        let mut chunk = [0u8; 256];
        let alive = loop {
            match stream.read(&mut chunk) {
                Ok(0) => break false,
                Ok(n) => discarded += n,
                Err(err) if err.kind() == ErrorKind::WouldBlock => break true,
                Err(err) if err.kind() == ErrorKind::Interrupted => {}
                Err(_) => break false,
            }
        };
        if stream.set_nonblocking(false).is_err() {
            self.alive = false;
            return false;
        }
        if discarded > 0 {
            log(&format!(
                "{}: ignored {discarded} bytes sent between games",
                self.name
            ));
        }
        self.alive = alive;
        alive
    }
}

/// A client that sent its name.
pub(crate) struct Arrival {
    peer: SocketAddr,
    seat: Seat,
}

/// What the accepting thread tells the arbiter.
pub(crate) enum Event {
    Arrival(Arrival),
    /// A line for the log.
    Note(String),
}

/// A registered player and its current connection, if any.
struct Place {
    name: String,
    seat: Option<Seat>,
    /// It did not come back in time once: later games don't wait for it again
    /// unless it reconnects.
    absent: bool,
}

/// The registered players, and the clients waiting to be seated.
pub(crate) struct Lobby {
    arrivals: Receiver<Event>,
    places: Vec<Place>,
    capacity: usize,
    /// Clients with an unknown name that arrived while the field was full and
    /// nobody's place was being filled.
    spare: VecDeque<Arrival>,
    /// How long to let a client that just received `FIN!` close its connection
    /// before looking.
    settle: Duration,
}

/// Accepts clients on `listener` until `stop` is set, reading each one's name
/// line (within `name_timeout`) on a thread of its own so that a silent client
/// holds nobody up, and hands them over through `arrivals`.
pub(crate) fn accept_clients<'scope>(
    scope: &'scope std::thread::Scope<'scope, '_>,
    listener: &'scope TcpListener,
    name_timeout: Duration,
    events: Sender<Event>,
    stop: &'scope AtomicBool,
) -> std::io::Result<()> {
    listener.set_nonblocking(true)?;
    scope.spawn(move || {
        let mut number = 0usize;
        while !stop.load(Ordering::Relaxed) {
            let (stream, peer) = match listener.accept() {
                Ok(accepted) => accepted,
                Err(err) if err.kind() == ErrorKind::WouldBlock => {
                    std::thread::sleep(Duration::from_millis(10));
                    continue;
                }
                Err(err) => {
                    let _ = events.send(Event::Note(format!("accept failed: {err}")));
                    std::thread::sleep(Duration::from_millis(100));
                    continue;
                }
            };
            number += 1;
            let events = events.clone();
            scope.spawn(move || {
                let event = match read_name(stream, peer, name_timeout, number) {
                    Ok(arrival) => Event::Arrival(arrival),
                    Err(reason) => {
                        Event::Note(format!("{peer} dropped before sending its name: {reason}"))
                    }
                };
                let _ = events.send(event);
            });
        }
        let _ = listener.set_nonblocking(false);
    });
    Ok(())
}

fn read_name(
    stream: TcpStream,
    peer: SocketAddr,
    timeout: Duration,
    number: usize,
) -> Result<Arrival, String> {
    stream.set_nonblocking(false).map_err(|e| e.to_string())?;
    let _ = stream.set_nodelay(true);
    let writer = stream.try_clone().map_err(|e| e.to_string())?;
    let mut reader = BufReader::new(stream);
    let line = read_line_until(&mut reader, MAX_LINE, Instant::now() + timeout)
        .map_err(|e| e.to_string())?;
    let name: String = line.chars().filter(|c| !c.is_control()).take(64).collect();
    let name = match name.trim() {
        "" => format!("client {number}"),
        name => name.to_string(),
    };
    Ok(Arrival {
        peer,
        seat: Seat {
            name,
            reader,
            writer,
            alive: true,
            game_ended: None,
        },
    })
}

impl Lobby {
    pub fn new(arrivals: Receiver<Event>, capacity: usize, settle: Duration) -> Lobby {
        Lobby {
            arrivals,
            places: Vec::new(),
            capacity,
            spare: VecDeque::new(),
            settle,
        }
    }

    /// The registered players' names, in registration order.
    pub fn names(&self) -> Vec<String> {
        self.places.iter().map(|p| p.name.clone()).collect()
    }

    /// Waits, as long as it takes, until the field is full.
    pub fn register_all(&mut self, log: &mut dyn FnMut(&str)) {
        while self.places.len() < self.capacity {
            match self.arrivals.recv() {
                Ok(Event::Arrival(arrival)) => self.admit(arrival, None, log),
                Ok(Event::Note(note)) => log(&note),
                Err(_) => return,
            }
        }
    }

    /// Makes sure `player` has a live connection, waiting up to `timeout` for
    /// it (or, see the module, a replacement) to connect. False when nobody
    /// came: the player is then marked absent and later calls wait no more
    /// unless it has reconnected meanwhile.
    pub fn seat(&mut self, player: usize, timeout: Duration, log: &mut dyn FnMut(&str)) -> bool {
        self.drain(log);
        if self.is_seated(player, log) {
            return true;
        }
        for arrival in std::mem::take(&mut self.spare) {
            if self.places[player].seat.is_some() {
                self.spare.push_back(arrival);
            } else {
                // Its own place if it has one (freed meanwhile), else this one.
                self.admit(arrival, Some(player), log);
            }
        }
        if self.is_seated(player, log) {
            return true;
        }
        if self.places[player].absent {
            return false;
        }
        log(&format!(
            "waiting up to {:.0} s for {} to connect",
            timeout.as_secs_f64(),
            self.places[player].name
        ));
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.arrivals.recv_timeout(left) {
                Ok(Event::Note(note)) => log(&note),
                Ok(Event::Arrival(arrival)) => {
                    self.admit(arrival, Some(player), log);
                    if self.is_seated(player, log) {
                        return true;
                    }
                }
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {
                    log(&format!(
                        "{} did not connect within {:.0} s",
                        self.places[player].name,
                        timeout.as_secs_f64()
                    ));
                    self.places[player].absent = true;
                    return false;
                }
            }
        }
    }

    /// The seats of two different players, both seated.
    pub fn pair(&mut self, first: usize, second: usize) -> Option<(&mut Seat, &mut Seat)> {
        if first == second {
            return None;
        }
        let (low, high) = (first.min(second), first.max(second));
        let (head, tail) = self.places.split_at_mut(high);
        let (low_seat, high_seat) = (head[low].seat.as_mut()?, tail[0].seat.as_mut()?);
        Some(if first < second {
            (low_seat, high_seat)
        } else {
            (high_seat, low_seat)
        })
    }

    /// Whether `player` has a connection that is still open.
    fn is_seated(&mut self, player: usize, log: &mut dyn FnMut(&str)) -> bool {
        let settle = self.settle;
        let place = &mut self.places[player];
        let Some(seat) = place.seat.as_mut() else {
            return false;
        };
        if let Some(ended) = seat.game_ended {
            let since = ended.elapsed();
            if since < settle {
                std::thread::sleep(settle - since);
            }
        }
        if seat.check(log) {
            place.absent = false;
            return true;
        }
        log(&format!("{} has left", seat.name));
        place.seat = None;
        false
    }

    /// Seats every client that has arrived, without waiting.
    fn drain(&mut self, log: &mut dyn FnMut(&str)) {
        while let Ok(event) = self.arrivals.try_recv() {
            match event {
                Event::Arrival(arrival) => self.admit(arrival, None, log),
                Event::Note(note) => log(&note),
            }
        }
    }

    /// Seats one client: in its own place if it is a registered player whose
    /// connection is gone, as a new player while the field is not full, in
    /// `waiting_for`'s place as a replacement, or else among the spares.
    fn admit(&mut self, arrival: Arrival, waiting_for: Option<usize>, log: &mut dyn FnMut(&str)) {
        let name = arrival.seat.name.clone();
        let peer = arrival.peer;
        let registered = self.places.iter().position(|p| p.name == name);
        if let Some(index) = registered
            && !self.is_seated(index, log)
        {
            log(&format!("{peer}: {name} is back"));
            self.places[index].seat = Some(arrival.seat);
            self.places[index].absent = false;
            return;
        }
        if self.places.len() < self.capacity {
            let mut unique = name.clone();
            let mut copy = 1;
            while self.places.iter().any(|p| p.name == unique) {
                copy += 1;
                unique = format!("{name} ({copy})");
            }
            log(&format!(
                "{peer} joined as {unique:?} (player {} of {})",
                self.places.len() + 1,
                self.capacity
            ));
            self.places.push(Place {
                name: unique,
                seat: Some(arrival.seat),
                absent: false,
            });
            return;
        }
        // A registered player's program only ever plays in its own place.
        if registered.is_none()
            && let Some(index) = waiting_for
            && !self.is_seated(index, log)
        {
            log(&format!(
                "{peer}: {name} takes the place of {}",
                self.places[index].name
            ));
            self.places[index].seat = Some(arrival.seat);
            self.places[index].absent = false;
            return;
        }
        log(&format!(
            "{peer}: {name} waits ({})",
            if registered.is_some() {
                "its place is taken by a connected client"
            } else {
                "every place is taken and connected"
            }
        ));
        self.spare.push_back(arrival);
        // A spare that has closed in the meantime is no use to anybody.
        self.spare.retain_mut(|a| a.seat.check(&mut |_| {}));
    }

    /// Tells every connected client the tournament is over by closing.
    pub fn close_all(&mut self) {
        for place in &mut self.places {
            place.seat = None;
        }
        self.spare.clear();
    }
}
