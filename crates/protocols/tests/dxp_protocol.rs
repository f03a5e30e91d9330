//! DamExchange over real loopback sockets: our initiator against our follower
//! (every byte recorded by a relay between them), and scripted peers that
//! send garbage, illegal moves, or leave.

use plateau_core::{Game, Side};
use plateau_draughts::Draughts;
use plateau_draughts::pdn::{PdnResult, read_games};
use plateau_games::EngineChoice;
use plateau_protocols::draughts_wire::move_from_fields;
use plateau_protocols::dxp::wire::{Message, MoveMessage};
use plateau_protocols::dxp::{DxpConfig, GameRecord, run_follower, run_initiator};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

fn config(name: &str, engine: &str, games: Option<u32>) -> DxpConfig {
    let mut config = DxpConfig::new(EngineChoice::parse(engine).unwrap());
    config.name = name.into();
    config.games = games;
    config.seed = 3;
    config.minutes = 2;
    config.idle_timeout = Duration::from_secs(20);
    config
}

/// A session on its own thread, with its log lines.
struct Running {
    handle: JoinHandle<Vec<GameRecord>>,
    log: Receiver<String>,
}

impl Running {
    fn join(self) -> (Vec<GameRecord>, Vec<String>) {
        let records = self.handle.join().unwrap();
        (records, self.log.try_iter().collect())
    }
}

fn follower(listener: TcpListener, config: DxpConfig) -> Running {
    let (sender, log) = channel();
    let handle = std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        run_follower(stream, &config, &mut |line| {
            let _ = sender.send(line.to_string());
        })
        .unwrap()
    });
    Running { handle, log }
}

fn initiator(port: u16, config: DxpConfig) -> Running {
    let (sender, log) = channel();
    let handle = std::thread::spawn(move || {
        let stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
        run_initiator(stream, &config, &mut |line| {
            let _ = sender.send(line.to_string());
        })
        .unwrap()
    });
    Running { handle, log }
}

fn listener() -> (TcpListener, u16) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    (listener, port)
}

/// Every message that crossed the relay: `true` when the initiator sent it.
type Transcript = Arc<Mutex<Vec<(bool, Vec<u8>)>>>;

/// A relay between an initiator (connecting to the returned port) and a
/// follower (on `target`), recording every NUL-terminated message.
fn relay(target: u16) -> (u16, Transcript) {
    let (front, port) = listener();
    let transcript: Transcript = Arc::new(Mutex::new(Vec::new()));
    let record = Arc::clone(&transcript);
    std::thread::spawn(move || {
        let (a, _) = front.accept().unwrap();
        let b = TcpStream::connect(("127.0.0.1", target)).unwrap();
        let pipe = |from: TcpStream, to: TcpStream, by_initiator: bool, record: Transcript| {
            std::thread::spawn(move || {
                let mut reader = BufReader::new(from);
                let mut to = to;
                loop {
                    let mut message = Vec::new();
                    match reader.read_until(0, &mut message) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {}
                    }
                    record.lock().unwrap().push((by_initiator, message.clone()));
                    if to.write_all(&message).is_err() {
                        break;
                    }
                }
                let _ = to.shutdown(std::net::Shutdown::Write);
            })
        };
        let up = pipe(
            a.try_clone().unwrap(),
            b.try_clone().unwrap(),
            true,
            Arc::clone(&record),
        );
        let down = pipe(b, a, false, record);
        let _ = up.join();
        let _ = down.join();
    });
    (port, transcript)
}

/// The result the rules give the record's final position.
fn rules_result(record: &GameRecord) -> PdnResult {
    let mut board = record.start.clone();
    for &mv in &record.moves {
        board.play(mv);
    }
    PdnResult::from_outcome(board.outcome())
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes.strip_suffix(&[0]).unwrap_or(bytes)).into_owned()
}

#[test]
fn our_initiator_plays_our_follower_full_games() {
    let dir = std::env::temp_dir().join(format!("plateau-dxp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (follower_listener, follower_port) = listener();
    let (relay_port, transcript) = relay(follower_port);
    let mut follower_config = config("plateau follower", "medium", None);
    follower_config.pdn = Some(dir.join("follower.pdn"));
    let follower = follower(follower_listener, follower_config);
    let mut initiator_config = config("plateau initiator", "strong", Some(4));
    // Two threads per search on one side: the games are not reproducible,
    // but every check below holds whatever the moves.
    initiator_config.threads = 2;
    initiator_config.pdn = Some(dir.join("initiator.pdn"));
    let initiator = initiator(relay_port, initiator_config);
    let (ours, initiator_log) = initiator.join();
    let (theirs, _) = follower.join();

    assert_eq!(ours.len(), 4, "{initiator_log:#?}");
    assert_eq!(theirs.len(), 4);
    for (game, (a, b)) in ours.iter().zip(&theirs).enumerate() {
        let initiator_white = game % 2 == 0;
        assert_eq!(
            a.our_side == Side::White,
            initiator_white,
            "colours alternate"
        );
        assert_eq!(b.our_side, !a.our_side);
        assert_eq!(a.names, b.names);
        assert_eq!(a.moves, b.moves, "both sides saw the same game");
        assert_eq!(a.result, b.result);
        assert_ne!(a.result, PdnResult::Unknown, "full games: {a:?}");
        assert!(a.moves.len() > 20, "a full game: {a:?}");
        assert_eq!(rules_result(a), a.result, "the rules decided game {game}");
    }

    // The wire: per game GAMEREQ, GAMEACC, alternating MOVEs, GAMEEND and its echo.
    let transcript = transcript.lock().unwrap().clone();
    let mut messages = transcript.iter().map(|(by_initiator, bytes)| {
        assert_eq!(bytes.last(), Some(&0), "NUL-terminated: {bytes:?}");
        (*by_initiator, Message::decode(&text(bytes)).unwrap())
    });
    for (game, record) in ours.iter().enumerate() {
        let (by, request) = messages.next().unwrap();
        let Message::GameRequest(request) = request else {
            panic!("game {game}: {request:?}");
        };
        assert!(by);
        assert_eq!(request.name, "plateau initiator");
        assert_eq!(request.follower, !record.our_side);
        assert_eq!((request.minutes, request.moves), (2, 0));
        let (by, accept) = messages.next().unwrap();
        assert!(!by);
        assert!(
            matches!(accept, Message::GameAccept { ref name, .. } if name == "plateau follower")
        );
        let mut board = Draughts::new();
        for &mv in &record.moves {
            let (by, message) = messages.next().unwrap();
            let white_is_initiator = record.our_side == Side::White;
            assert_eq!(
                by,
                (board.side_to_move() == Side::White) == white_is_initiator
            );
            let Message::Move(MoveMessage {
                from, to, captured, ..
            }) = message
            else {
                panic!("expected a move, got {message:?}");
            };
            assert_eq!(move_from_fields(&board, from, to, &captured).unwrap(), mv);
            board.play(mv);
        }
        // Then a GAMEEND from each side: one ends the game and the other
        // echoes, or (after a move that drew by rule, which the mover
        // claims at once and the other side sees on its turn) both end it at
        // the same time. The mover may explain in a CHAT first.
        let mut ends = [None, None];
        while ends.iter().any(Option::is_none) {
            let (by, message) = messages.next().unwrap();
            match message {
                Message::Chat(text) => assert!(text.starts_with("game over: "), "{text}"),
                Message::GameEnd { stop, .. } => {
                    assert!(
                        ends[usize::from(by)].replace(stop).is_none(),
                        "one GAMEEND each"
                    );
                }
                other => panic!("game {game}: expected GAMEEND, got {other:?}"),
            }
        }
        let last = game == 3;
        assert_eq!(
            ends[0] == Some(true) || ends[1] == Some(true),
            last,
            "the initiator stops after the last game"
        );
    }
    assert!(messages.next().is_none());

    // The PDN files hold the same games.
    for (path, records) in [("initiator.pdn", &ours), ("follower.pdn", &theirs)] {
        let text = std::fs::read_to_string(dir.join(path)).unwrap();
        let games = read_games(&text).unwrap();
        assert_eq!(games.len(), 4);
        for (pdn, record) in games.iter().zip(records.iter()) {
            assert_eq!(pdn.moves, record.moves);
            assert_eq!(pdn.result, record.result);
            assert_eq!(pdn.tag("White"), Some(record.names[0].as_str()));
            assert_eq!(pdn.tag("GameType"), Some("20"));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A raw peer: sends bytes, reads NUL-terminated messages.
struct Raw {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
}

impl Raw {
    fn new(stream: TcpStream) -> Raw {
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        Raw {
            writer: stream.try_clone().unwrap(),
            reader: BufReader::new(stream),
        }
    }

    fn send(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).unwrap();
    }

    fn receive(&mut self) -> Vec<u8> {
        let mut message = Vec::new();
        self.reader.read_until(0, &mut message).unwrap();
        message
    }
}

fn wait_for(log: &Receiver<String>, part: &str, seen: &mut Vec<String>) {
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while std::time::Instant::now() < deadline {
        if let Ok(line) = log.recv_timeout(Duration::from_millis(50)) {
            let found = line.contains(part);
            seen.push(line);
            if found {
                return;
            }
        }
    }
    panic!("no log line with {part:?} in {seen:#?}");
}

#[test]
fn a_peer_sending_garbage_is_rejected_not_obeyed() {
    let (listener, port) = listener();
    let follower = follower(listener, config("follower", "medium", None));
    let mut peer = Raw::new(TcpStream::connect(("127.0.0.1", port)).unwrap());
    let mut seen = Vec::new();
    peer.send(b"hello\0");
    wait_for(&follower.log, "unknown message type \"h\"", &mut seen);
    let mut long = vec![b'C'; 3000];
    long.push(0);
    peer.send(&long);
    wait_for(&follower.log, "more than 1024 bytes", &mut seen);
    peer.send(b"R01\xff\0");
    wait_for(&follower.log, "ASCII", &mut seen);
    peer.send(b"M0000\0");
    wait_for(&follower.log, "too short", &mut seen);

    // A real game at last: the follower plays Black, so we move first.
    let request = format!("R01{:<32}Z001000A\0", "raw peer");
    peer.send(request.as_bytes());
    assert_eq!(peer.receive(), format!("A{:<32}0\0", "follower").as_bytes());
    let mut board = Draughts::new();
    peer.send(b"M0001322800\0");
    board.play(board.check_move("32-28").unwrap());
    let reply = text(&peer.receive());
    let Message::Move(mv) = Message::decode(&reply).unwrap() else {
        panic!("{reply}");
    };
    board.play(move_from_fields(&board, mv.from, mv.to, &mv.captured).unwrap());
    // Take-backs are declined; chat is only logged; garbage changes nothing.
    peer.send(b"B001W\0");
    assert_eq!(peer.receive(), b"K2\0");
    peer.send(b"Chello there\0");
    wait_for(&follower.log, "peer says: hello there", &mut seen);
    peer.send(b"M00zz\0");
    wait_for(&follower.log, "4 digits", &mut seen);
    // An illegal move: the follower explains, ends the game, and we echo.
    peer.send(b"M0000464100\0");
    assert_eq!(
        peer.receive(),
        b"Cgame over: illegal move from the peer (46-41)\0"
    );
    assert_eq!(peer.receive(), b"E00\0");
    peer.send(b"E00\0");
    drop(peer);
    let (records, log) = follower.join();
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].result, PdnResult::Unknown);
    assert_eq!(
        records[0].moves.len(),
        2,
        "only the legal moves were played"
    );
    assert!(
        log.iter()
            .chain(&seen)
            .any(|l| l.contains("46-41 is not legal")),
        "{log:#?}"
    );
}

#[test]
fn a_follower_that_vanishes_ends_the_game_cleanly() {
    let (listener, port) = listener();
    let peer = std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        let mut peer = Raw::new(stream);
        let request = text(&peer.receive());
        assert!(request.starts_with("R01plateau"), "{request}");
        peer.send(format!("A{:<32}0\0", "vanishing").as_bytes());
        // We are Black: read White's first move, then leave.
        assert!(peer.receive().starts_with(b"M"));
    });
    let running = initiator(port, config("plateau", "medium", Some(2)));
    peer.join().unwrap();
    let (records, log) = running.join();
    assert_eq!(
        records.len(),
        1,
        "no second game without a follower: {log:#?}"
    );
    assert_eq!(records[0].result, PdnResult::Unknown);
    assert_eq!(records[0].reason, "the peer left");
    assert_eq!(records[0].moves.len(), 1);
}

#[test]
fn a_declined_game_is_skipped_and_a_refusal_of_all_stops() {
    let (listener, port) = listener();
    let peer = std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        let mut peer = Raw::new(stream);
        let first = text(&peer.receive());
        assert!(first.contains("Z002000A"), "{first}");
        peer.send(format!("A{:<32}2\0", "picky").as_bytes());
        let second = text(&peer.receive());
        assert!(second.contains("W002000A"), "colours alternate: {second}");
        peer.send(format!("A{:<32}3\0", "picky").as_bytes());
        let mut rest = Vec::new();
        let _ = peer.reader.read_to_end(&mut rest);
        rest
    });
    let running = initiator(port, config("plateau", "medium", Some(3)));
    let rest = peer.join().unwrap();
    let (records, log) = running.join();
    assert!(records.is_empty());
    assert!(rest.is_empty(), "nothing after the refusal: {rest:?}");
    assert!(
        log.iter().any(|l| l.contains("declined this game")),
        "{log:#?}"
    );
    assert!(
        log.iter().any(|l| l.contains("wants no more games")),
        "{log:#?}"
    );
}

#[test]
fn a_follower_with_a_game_limit_and_a_setup_position() {
    let (listener, port) = listener();
    let follower = follower(listener, config("follower", "medium", Some(1)));
    let mut peer = Raw::new(TcpStream::connect(("127.0.0.1", port)).unwrap());
    // A bad position is declined, the game only.
    let bad = format!("R01{:<32}Z001000BW{}\0", "raw", "w".repeat(50));
    peer.send(bad.as_bytes());
    assert_eq!(peer.receive(), format!("A{:<32}2\0", "follower").as_bytes());
    // A position where White (the follower) is to move and has one capture.
    let position = Draughts::from_text("W:W28,K46:B9,23").unwrap();
    let squares = plateau_protocols::draughts_wire::squares_text(
        &position,
        &plateau_protocols::draughts_wire::DXP,
    );
    peer.send(format!("R01{:<32}W001000BW{squares}\0", "raw").as_bytes());
    assert_eq!(peer.receive(), format!("A{:<32}0\0", "follower").as_bytes());
    let reply = text(&peer.receive());
    assert!(
        reply.starts_with('M') && reply.ends_with("28190123"),
        "{reply}"
    );
    // We resign: the follower echoes, saying it stops (its one game is
    // played), and closes the connection.
    peer.send(b"E10\0");
    assert_eq!(peer.receive(), b"E01\0");
    assert_eq!(peer.receive(), b"", "closed");
    let (records, _) = follower.join();
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].result, PdnResult::WhiteWins);
    assert_eq!(records[0].reason, "the peer resigned");
    assert_eq!(records[0].start.to_text(), position.to_text());
}

/// A legal move for `board` after which the other side has no capture.
fn a_safe_move(board: &Draughts) -> plateau_draughts::Move {
    let mut ours = plateau_core::MoveList::new();
    board.legal_moves(&mut ours);
    ours.iter()
        .copied()
        .find(|&mv| {
            let mut after = board.clone();
            after.play(mv);
            let mut theirs = plateau_core::MoveList::new();
            after.legal_moves(&mut theirs);
            theirs.iter().all(|reply| reply.captured().next().is_none())
        })
        .unwrap_or_else(|| panic!("no move gives nothing away in {}", board.to_text()))
}

/// The scripted peer's move: the first legal one that gives nothing away and
/// leads to a position of its own pieces not seen before (so that only the
/// rule under test can end the game), or the first legal one.
fn a_fresh_safe_move(board: &Draughts, seen: &mut Vec<u64>) -> plateau_draughts::Move {
    let mut ours = plateau_core::MoveList::new();
    board.legal_moves(&mut ours);
    let side = board.side_to_move();
    let fresh = ours.iter().copied().find(|&mv| {
        let mut after = board.clone();
        after.play(mv);
        let mut theirs = plateau_core::MoveList::new();
        after.legal_moves(&mut theirs);
        let key = after.pieces(side) ^ after.kings(side).rotate_left(7);
        theirs.iter().all(|reply| reply.captured().next().is_none()) && !seen.contains(&key)
    });
    let mv = fresh.unwrap_or_else(|| a_safe_move(board));
    let mut after = board.clone();
    after.play(mv);
    seen.push(after.pieces(side) ^ after.kings(side).rotate_left(7));
    mv
}

fn move_message(mv: plateau_draughts::Move) -> Vec<u8> {
    Message::Move(MoveMessage {
        seconds: 0,
        from: mv.from().number(),
        to: mv.to().number(),
        captured: mv.captured().map(|s| s.number()).collect(),
    })
    .encode()
}

/// How a scripted peer ends a game that the rules have drawn.
#[derive(Clone, Copy, PartialEq, Eq)]
enum PeerHabit {
    /// It plays on after the draw, as Moby Dam does (its move crosses our
    /// GAMEEND on the wire).
    PlaysOn,
    /// It waits for our GAMEEND.
    Waits,
}

/// A game from `position` (Black to move or White) between our follower,
/// playing White, and a scripted peer playing Black with `peer_move`, until
/// the rules draw it. Checks that the follower ends the game itself, with the
/// draw, at once after the move that completes it (explaining the rule when
/// the draw came from its own move) and that its record, PDN and score all
/// say 1-1. Returns the explanation sent (empty when the peer's move drew)
/// and the plies played.
fn a_drawn_game_with_a_scripted_peer(
    position: &str,
    habit: PeerHabit,
    mut peer_move: impl FnMut(&Draughts) -> plateau_draughts::Move,
) -> (String, usize) {
    let (listener, port) = listener();
    let follower = follower(listener, config("follower", "medium", Some(1)));
    let mut peer = Raw::new(TcpStream::connect(("127.0.0.1", port)).unwrap());
    let position = Draughts::from_text(position).unwrap();
    let squares = plateau_protocols::draughts_wire::squares_text(
        &position,
        &plateau_protocols::draughts_wire::DXP,
    );
    let to_move = match position.side_to_move() {
        Side::White => 'W',
        Side::Black => 'Z',
    };
    peer.send(format!("R01{:<32}W001000B{to_move}{squares}\0", "raw").as_bytes());
    assert_eq!(peer.receive(), format!("A{:<32}0\0", "follower").as_bytes());
    let mut board = position.clone();
    let explanation = loop {
        if board.side_to_move() == Side::Black {
            let mv = peer_move(&board);
            peer.send(&move_message(mv));
            board.play(mv);
            if board.outcome().is_some() {
                break String::new();
            }
            continue;
        }
        let reply = text(&peer.receive());
        let Message::Move(mv) = Message::decode(&reply).unwrap() else {
            panic!(
                "expected the follower's move in {}: {reply}",
                board.to_text()
            );
        };
        board.play(move_from_fields(&board, mv.from, mv.to, &mv.captured).unwrap());
        if board.outcome().is_some() {
            if habit == PeerHabit::PlaysOn {
                let mv = a_safe_move(&board.clone().with_draw_rules(false));
                peer.send(&move_message(mv));
            }
            let reply = text(&peer.receive());
            let Message::Chat(chat) = Message::decode(&reply).unwrap() else {
                panic!("expected the draw claim's explanation: {reply}");
            };
            break chat;
        }
    };
    let outcome = board.outcome().unwrap();
    assert_eq!(outcome.winner, None, "{}", board.to_text());
    assert_eq!(
        Message::decode(&text(&peer.receive())).unwrap(),
        Message::GameEnd {
            reason: plateau_protocols::dxp::wire::EndReason::Draw,
            stop: true,
        }
    );
    peer.send(b"E01\0");
    let (records, log) = follower.join();
    assert_eq!(records.len(), 1, "{log:#?}");
    let record = &records[0];
    assert_eq!(record.result, PdnResult::Draw, "{log:#?}");
    assert_eq!(record.moves.len(), board.plies_played(), "{log:#?}");
    assert_eq!(record.pdn("2026.12.01").result, PdnResult::Draw);
    assert!(
        plateau_protocols::dxp::summary("follower", &records).contains("1 drawn"),
        "{}",
        plateau_protocols::dxp::summary("follower", &records)
    );
    (explanation, record.moves.len())
}

#[test]
fn the_five_move_limit_completed_by_our_move_is_claimed_at_once() {
    // King against king is drawn after 5 moves each (FMJD 6.5). The peer,
    // Black, moves first, so the follower's fifth move completes the count,
    // and the follower ends the game there, naming the rule: a peer that
    // plays on (Moby Dam does) gets that, not an "illegal move" and `*`.
    for habit in [PeerHabit::PlaysOn, PeerHabit::Waits] {
        let mut seen = Vec::new();
        let (chat, plies) = a_drawn_game_with_a_scripted_peer("B:WK46:BK3", habit, |board| {
            a_fresh_safe_move(board, &mut seen)
        });
        assert!(chat.contains("5 moves each"), "{chat}");
        assert_eq!(plies, 10);
    }
}

#[test]
fn the_sixteen_move_limit_completed_by_our_move_is_claimed_at_once() {
    // Three kings against a lone king on the main diagonal: 16 moves each
    // (FMJD 6.4). The peer has the kings and never repeats a position, so
    // only the limit ends the game, on the follower's 16th move.
    let mut seen = Vec::new();
    let (chat, plies) =
        a_drawn_game_with_a_scripted_peer("B:WK46:BK1,K2,K3", PeerHabit::PlaysOn, |board| {
            a_fresh_safe_move(board, &mut seen)
        });
    assert!(chat.contains("16 moves each"), "{chat}");
    assert_eq!(plies, 32);
}

/// A position where White's king can only go 46-41 and back, while Black's
/// king on 5 goes to 10 and back: the fourth return repeats the position a
/// third time.
const SHUTTLE: &str = "W:WK46,36,37,31,32:BK47,K5,16,18,19,21,22,23,26,27,28,30,34,35,38,40,43,45";

fn shuttle(board: &Draughts) -> plateau_draughts::Move {
    let from = if board
        .piece_at(plateau_draughts::Square::from_number(5).unwrap())
        .is_some()
    {
        "5-10"
    } else {
        "10-5"
    };
    board.check_move(from).unwrap()
}

#[test]
fn a_repetition_completed_by_the_peer_is_ended_by_us_as_a_draw() {
    // White (the follower) moves first: Black's fourth move brings the start
    // position back a third time; the follower ends the game on its turn.
    let (chat, plies) = a_drawn_game_with_a_scripted_peer(SHUTTLE, PeerHabit::Waits, shuttle);
    assert_eq!(chat, "");
    assert_eq!(plies, 8);
}

#[test]
fn a_repetition_completed_by_our_move_is_claimed_at_once() {
    // Black (the peer) moves first: White's fourth move completes the
    // repetition, and the peer's next move is not waited for.
    let start = SHUTTLE.replacen('W', "B", 1);
    let (chat, plies) = a_drawn_game_with_a_scripted_peer(&start, PeerHabit::PlaysOn, shuttle);
    assert!(chat.contains("repetition"), "{chat}");
    assert_eq!(plies, 8);
}

#[test]
fn a_pondering_follower_searches_on_the_peers_time_and_still_answers_at_once() {
    let (listener, port) = listener();
    let mut pondering = config("follower", "master", Some(1));
    pondering.ponder = true;
    let follower = follower(listener, pondering);
    let mut peer = Raw::new(TcpStream::connect(("127.0.0.1", port)).unwrap());
    // The follower plays Black from the start, 1 min each: the peer moves first.
    peer.send(format!("R01{:<32}Z001000A\0", "raw").as_bytes());
    assert_eq!(peer.receive(), format!("A{:<32}0\0", "follower").as_bytes());
    let mut board = Draughts::new();
    for _ in 0..4 {
        // The peer takes its time; the follower ponders meanwhile. The
        // pondering search has no limit of its own: only the peer's move
        // stops it, and the follower's answer then comes within its clock
        // (the peer's read timeout is 20 s).
        std::thread::sleep(Duration::from_millis(300));
        let mut moves = plateau_core::MoveList::new();
        board.legal_moves(&mut moves);
        let mv = moves[0];
        peer.send(&move_message(mv));
        board.play(mv);
        let reply = text(&peer.receive());
        let Message::Move(reply) = Message::decode(&reply).unwrap() else {
            panic!("expected the follower's move: {reply}");
        };
        let reply = move_from_fields(&board, reply.from, reply.to, &reply.captured).unwrap();
        board.play(reply);
    }
    peer.send(b"E10\0");
    assert_eq!(peer.receive(), b"E01\0");
    let (records, log) = follower.join();
    assert_eq!(records.len(), 1, "{log:#?}");
    assert_eq!(records[0].moves.len(), 8, "{log:#?}");
    assert_eq!(records[0].reason, "the peer resigned");
    // It pondered through each of the peer's four turns (the last ended by
    // the GAMEEND), and searched.
    let line = log
        .iter()
        .find(|line| line.starts_with("game 1: pondered through"))
        .unwrap_or_else(|| panic!("{log:#?}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words[4], "5", "{line}");
    let nodes: u64 = words[9].parse().unwrap();
    assert!(nodes > 10_000, "{line}");
}
