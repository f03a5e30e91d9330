//! The Escampe arbiter protocol over real loopback sockets: our client against
//! our arbiter, byte-exact transcripts, and clients that misbehave.

use plateau_core::{AnyGame, Rng, Side};
use plateau_games::{EngineChoice, GameSpec};
use plateau_protocols::escampe::arbiter::{ArbiterConfig, EndReason, GameReport, run_arbiter};
use plateau_protocols::escampe::client::{ClientConfig, ClientError, ClientGame, run_client};
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::mpsc::{Receiver, channel};
use std::thread::JoinHandle;
use std::time::Duration;

/// A running arbiter: its port, its thread, and its log lines.
struct Running {
    port: u16,
    handle: JoinHandle<Vec<GameReport>>,
    log: Receiver<String>,
}

impl Running {
    /// Waits until the arbiter has seated a client, so that connection order
    /// (the first is Blanc) is deterministic.
    fn seated(&self) {
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        while std::time::Instant::now() < deadline {
            if let Ok(line) = self.log.recv_timeout(Duration::from_millis(50))
                && line.contains("joined as")
            {
                return;
            }
        }
        panic!("no client was seated");
    }

    fn join(self) -> Vec<GameReport> {
        self.handle.join().unwrap()
    }
}

fn arbiter(config: ArbiterConfig) -> Running {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let (sender, log) = channel();
    let handle = std::thread::spawn(move || {
        run_arbiter(&listener, &config, &mut |line| {
            let _ = sender.send(line.to_string());
        })
        .unwrap()
    });
    Running { port, handle, log }
}

fn config(games: u32, clock_secs: f64) -> ArbiterConfig {
    ArbiterConfig {
        games,
        clock: Duration::from_secs_f64(clock_secs),
        ..ArbiterConfig::default()
    }
}

fn our_client(
    port: u16,
    name: &str,
    engine: &str,
    games: u32,
) -> JoinHandle<Result<Vec<ClientGame>, ClientError>> {
    our_client_with_threads(port, name, engine, games, 1)
}

fn our_client_with_threads(
    port: u16,
    name: &str,
    engine: &str,
    games: u32,
    threads: usize,
) -> JoinHandle<Result<Vec<ClientGame>, ClientError>> {
    let config = ClientConfig {
        host: "127.0.0.1".into(),
        port,
        name: name.into(),
        engine: EngineChoice::parse(engine).unwrap(),
        threads,
        clock: Duration::from_secs(30),
        games,
        seed: 1,
        connect_timeout: Duration::from_secs(5),
    };
    std::thread::spawn(move || run_client(&config, &mut |_| {}))
}

/// What a scripted client does when it is its turn.
#[derive(Clone, Debug)]
enum Act {
    /// A random legal move.
    Legal,
    /// This exact line.
    Send(&'static str),
    /// Nothing at all (to run out of time).
    Silent,
    /// Close the connection.
    Disconnect,
}

/// A client that plays from a script (then legal random moves) and records
/// every byte it receives.
struct Scripted {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
    received: Vec<Vec<u8>>,
}

impl Scripted {
    fn connect(port: u16, name: &str) -> Scripted {
        let stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
        let mut writer = stream.try_clone().unwrap();
        writer.write_all(format!("{name}\n").as_bytes()).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        Scripted {
            reader: BufReader::new(stream),
            writer,
            received: Vec::new(),
        }
    }

    fn line(&mut self) -> Option<Vec<u8>> {
        let mut bytes = Vec::new();
        match self.reader.read_until(b'\n', &mut bytes) {
            Ok(0) | Err(_) => None,
            Ok(_) => {
                self.received.push(bytes.clone());
                Some(bytes)
            }
        }
    }

    fn text(bytes: &[u8]) -> String {
        String::from_utf8_lossy(bytes)
            .trim_end_matches(['\n', '\0'])
            .to_string()
    }

    /// Plays `games` games: on each of its turns, the next act of the script
    /// (then `Legal` once the script is used up). Returns the results seen.
    fn play(&mut self, games: usize, script: &[Act], seed: u64) -> Vec<Option<Side>> {
        let spec = GameSpec::lookup("escampe", None).unwrap();
        let mut rng = Rng::new(seed);
        let mut board: Box<dyn AnyGame> = spec.new_game();
        let mut colour = Side::White;
        let mut acts = script.iter();
        let mut results = Vec::new();
        while results.len() < games {
            let Some(bytes) = self.line() else { break };
            let text = Scripted::text(&bytes);
            if text == "Blanc" || text == "Noir" {
                colour = if text == "Blanc" {
                    Side::White
                } else {
                    Side::Black
                };
                board = spec.new_game();
            } else if let Some(who) = text.strip_prefix("JOUEUR ") {
                let ours = (who == "Blanc") == (colour == Side::White);
                if !ours {
                    continue;
                }
                match acts.next().cloned().unwrap_or(Act::Legal) {
                    Act::Legal => {
                        let moves = board.legal_moves();
                        let mv = rng.choose(&moves).unwrap().clone();
                        board.play(&mv).unwrap();
                        self.writer.write_all(format!("{mv}\n").as_bytes()).unwrap();
                    }
                    Act::Send(line) => {
                        let _ = board.play(line.trim());
                        self.writer
                            .write_all(format!("{line}\n").as_bytes())
                            .unwrap();
                    }
                    Act::Silent => {}
                    Act::Disconnect => {
                        let _ = self.writer.shutdown(std::net::Shutdown::Both);
                        return results;
                    }
                }
            } else if let Some(mv) = text.strip_prefix("MOUVEMENT ") {
                board.play(mv).unwrap();
            } else if let Some(who) = text.strip_prefix("FIN! ") {
                results.push(match who {
                    "Blanc" => Some(Side::White),
                    "Noir" => Some(Side::Black),
                    _ => None,
                });
            }
        }
        results
    }
}

#[test]
fn our_ai_beats_random_with_both_colours() {
    let arbiter = arbiter(config(2, 60.0));
    // Two threads per search: the multi-threaded engine plays the same protocol.
    let ai = our_client_with_threads(arbiter.port, "plateau expert", "expert", 2, 2);
    arbiter.seated();
    let random = our_client(arbiter.port, "random", "random", 2);
    let reports = arbiter.join();
    let ai_games = ai.join().unwrap().unwrap();
    let random_games = random.join().unwrap().unwrap();
    assert_eq!(reports.len(), 2);
    // The first to connect (the AI) is Blanc in game 1, Noir in game 2.
    assert_eq!(ai_games[0].colour, Side::White);
    assert_eq!(ai_games[1].colour, Side::Black);
    for (report, game) in reports.iter().zip(&ai_games) {
        assert_eq!(report.winning_seat(), Some(0), "{report:?}");
        assert_eq!(report.reason, EndReason::Capture);
        assert_eq!(game.winner, Some(game.colour));
        let arbiter_moves: Vec<&str> = report.moves.iter().map(|(_, m, _)| m.as_str()).collect();
        assert_eq!(arbiter_moves, game.moves, "both sides saw the same game");
    }
    assert!(random_games.iter().all(|g| g.winner != Some(g.colour)));
}

#[test]
fn the_transcript_is_byte_exact() {
    let arbiter = arbiter(config(1, 60.0));
    let ai = our_client(arbiter.port, "plateau", "strong", 1);
    arbiter.seated();
    let mut raw = Scripted::connect(arbiter.port, "raw");
    let results = raw.play(1, &[], 5);
    let report = arbiter.join().remove(0);
    ai.join().unwrap().unwrap();
    assert_eq!(results.len(), 1);
    let lines = &raw.received;
    // Noir (the second to connect) hears its colour, then places first.
    assert_eq!(lines[0], b"Noir\0\n");
    assert_eq!(lines[1], b"JOUEUR Noir\0\n");
    assert_eq!(lines[2], b"JOUEUR Blanc\0\n");
    assert!(lines[3].starts_with(b"MOUVEMENT ") && lines[3].ends_with(b"\n"));
    // Blanc places, then Blanc moves first: Noir hears JOUEUR Blanc twice.
    assert_eq!(lines[4], b"JOUEUR Blanc\0\n");
    assert!(lines[5].starts_with(b"MOUVEMENT "));
    assert_eq!(lines[6], b"JOUEUR Noir\0\n");
    for line in lines {
        if line.starts_with(b"MOUVEMENT ") {
            assert!(!line.contains(&0), "no NUL on MOUVEMENT: {line:?}");
            assert!(line.ends_with(b"\n") && !line.ends_with(b"\r\n"));
        } else {
            assert!(line.ends_with(b"\0\n"), "NUL before the newline: {line:?}");
        }
    }
    let last = lines.last().unwrap();
    let expected_end: &[u8] = match report.winner {
        Some(Side::White) => b"FIN! Blanc\0\n",
        Some(Side::Black) => b"FIN! Noir\0\n",
        None => "FIN! Egalité\0\n".as_bytes(),
    };
    assert_eq!(last.as_slice(), expected_end);
    // Every move Blanc made reached Noir as a MOUVEMENT, in order.
    let forwarded: Vec<String> = lines
        .iter()
        .filter_map(|l| l.strip_prefix(b"MOUVEMENT "))
        .map(Scripted::text)
        .collect();
    let blancs: Vec<String> = report
        .moves
        .iter()
        .filter(|(side, _, _)| *side == Side::White)
        .map(|(_, m, _)| m.clone())
        .collect();
    assert_eq!(forwarded, blancs);
}

/// Runs two games: in the first the scripted client (Noir, second to connect)
/// misbehaves as told; the second game must then be played normally.
fn misbehaviour(script: Vec<Act>, clock: f64) -> (GameReport, GameReport) {
    let arbiter = arbiter(config(2, clock));
    let port = arbiter.port;
    let good = our_client(port, "good", "medium", 2);
    arbiter.seated();
    let bad = std::thread::spawn(move || {
        let mut client = Scripted::connect(port, "bad");
        client.play(2, &script, 9)
    });
    let mut reports = arbiter.join();
    let _ = bad.join();
    let _ = good.join();
    let second = reports.pop().unwrap();
    (reports.pop().unwrap(), second)
}

fn assert_lost_for(first: &GameReport, second: &GameReport, expect: impl Fn(&EndReason) -> bool) {
    assert_eq!(first.white_seat, 0);
    assert_eq!(
        first.winner,
        Some(Side::White),
        "the misbehaving Noir loses: {first:?}"
    );
    assert!(expect(&first.reason), "{:?}", first.reason);
    assert!(
        matches!(second.reason, EndReason::Capture | EndReason::PlyLimit),
        "the next game is played normally: {second:?}"
    );
}

fn illegal(reason_part: &'static str) -> impl Fn(&EndReason) -> bool {
    move |reason| matches!(reason, EndReason::IllegalMove { reason, .. } if reason.contains(reason_part))
}

#[test]
fn a_garbage_line_loses() {
    let (first, second) = misbehaviour(vec![Act::Send("bonjour tout le monde")], 30.0);
    assert_lost_for(&first, &second, illegal("place its six pieces"));
    assert!(first.moves.is_empty());
}

#[test]
fn a_placement_on_the_wrong_edge_loses() {
    let (first, second) = misbehaviour(vec![Act::Send("C6/A6/B5/D5/E6/F2")], 30.0);
    assert_lost_for(&first, &second, illegal("off the edge"));
}

#[test]
fn lower_case_squares_lose() {
    let (first, second) = misbehaviour(vec![Act::Send("c6/a6/b5/d5/e6/f5")], 30.0);
    assert_lost_for(&first, &second, illegal("lower case"));
}

#[test]
fn an_illegal_move_loses() {
    // Noir places legally, then tries to move a piece that is not there.
    let (first, second) = misbehaviour(
        vec![Act::Send("C6/A6/B5/D5/E6/F5"), Act::Send("C3-C4")],
        30.0,
    );
    assert_lost_for(&first, &second, illegal("no piece on C3"));
    assert_eq!(
        first.moves.len(),
        3,
        "the two placements and Blanc's first move"
    );
}

#[test]
fn passing_while_a_move_exists_loses() {
    // The seed's placement always leaves Noir a move, whatever Blanc does first.
    let (first, second) = misbehaviour(vec![Act::Send("A6/A5/C5/F5/B6/E6"), Act::Send("E")], 30.0);
    assert_lost_for(&first, &second, illegal("only legal when no move exists"));
}

#[test]
fn silence_loses_on_time() {
    let (first, second) = misbehaviour(vec![Act::Silent], 0.4);
    assert_lost_for(&first, &second, |r| *r == EndReason::Timeout);
}

#[test]
fn a_disconnection_loses_and_the_next_client_takes_the_seat() {
    let arbiter = arbiter(config(2, 30.0));
    let port = arbiter.port;
    let good = our_client(port, "good", "medium", 2);
    arbiter.seated();
    let mut quitter = Scripted::connect(port, "quitter");
    quitter.play(1, &[Act::Send("A6/A5/C5/F5/B6/E6"), Act::Disconnect], 3);
    // A replacement connects for the second game.
    let mut replacement = Scripted::connect(port, "replacement");
    let results = replacement.play(1, &[], 4);
    let reports = arbiter.join();
    let _ = good.join();
    assert_eq!(reports[0].reason, EndReason::Disconnected);
    assert_eq!(reports[0].winner, Some(Side::White));
    assert_eq!(
        reports[1].names[0], "replacement",
        "seat 1 is Blanc in game 2"
    );
    assert_eq!(results.len(), 1);
}

#[test]
fn a_forced_pass_goes_through_the_protocol() {
    // Noir places as in the brief; Blanc's C2-C5 leaves Noir no liseré-1 piece,
    // so Noir must pass (E), and C5-C6 takes the unicorn.
    let arbiter = arbiter(config(1, 30.0));
    let port = arbiter.port;
    let blanc = std::thread::spawn(move || {
        let mut client = Scripted::connect(port, "blanc");
        client.play(
            1,
            &[
                Act::Send("B2/A1/B1/C2/E2/F2"),
                Act::Send("C2-C5"),
                Act::Send("C5-C6"),
            ],
            1,
        );
        client.received
    });
    arbiter.seated();
    let noir = std::thread::spawn(move || {
        let mut client = Scripted::connect(port, "noir");
        client.play(1, &[Act::Send("C6/A6/B5/D5/E6/F5"), Act::Send("E")], 1);
        client.received
    });
    let report = arbiter.join().remove(0);
    let blanc_heard = blanc.join().unwrap();
    let noir_heard = noir.join().unwrap();
    assert_eq!(report.reason, EndReason::Capture);
    assert_eq!(report.winner, Some(Side::White));
    assert!(blanc_heard.contains(&b"MOUVEMENT E\n".to_vec()));
    // The loser hears the capture, then the result.
    let n = noir_heard.len();
    assert_eq!(noir_heard[n - 2], b"MOUVEMENT C5-C6\n");
    assert_eq!(noir_heard[n - 1], b"FIN! Blanc\0\n");
    // The winner does not hear its own move again.
    assert_eq!(blanc_heard.last().unwrap(), b"FIN! Blanc\0\n");
}

/// A fake arbiter that reads the client's name, then sends `script`, reading
/// one answer after each message marked `true`; then it closes.
fn fake_arbiter(script: &'static [(&'static [u8], bool)]) -> (u16, JoinHandle<Vec<String>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let handle = std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        let mut writer = stream.try_clone().unwrap();
        let mut reader = BufReader::new(stream);
        let mut heard = Vec::new();
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        heard.push(line.trim_end().to_string());
        for &(message, answer_expected) in script {
            writer.write_all(message).unwrap();
            if answer_expected {
                let mut answer = String::new();
                reader.read_line(&mut answer).unwrap();
                heard.push(answer.trim_end().to_string());
            }
        }
        // Nothing else may arrive before we close.
        std::thread::sleep(Duration::from_millis(200));
        reader
            .get_ref()
            .set_read_timeout(Some(Duration::from_millis(10)))
            .unwrap();
        let mut extra = String::new();
        if reader.read_line(&mut extra).is_ok_and(|n| n > 0) {
            heard.push(format!("UNEXPECTED {}", extra.trim_end()));
        }
        heard
    });
    (port, handle)
}

#[test]
fn the_client_ignores_unknown_lines_and_answers_only_its_turns() {
    // The client plays Blanc: it must stay silent on JOUEUR Noir, take Noir's
    // placement, answer JOUEUR Blanc with its own, and skip the greeting.
    static SCRIPT: &[(&[u8], bool)] = &[
        (b"Blanc\0\n", false),
        (b"Bienvenue au tournoi\n", false),
        (b"JOUEUR Noir\0\n", false),
        (b"MOUVEMENT C6/A6/B5/D5/E6/F5\n", false),
        (b"JOUEUR Blanc\0\n", true),
        (b"FIN! Egalit\xe9\0\n", false),
    ];
    let (port, fake) = fake_arbiter(SCRIPT);
    let client = our_client(port, "plateau", "strong", 1);
    let games = client.join().unwrap().unwrap();
    let heard = fake.join().unwrap();
    assert_eq!(heard[0], "plateau");
    assert_eq!(
        heard.len(),
        2,
        "one answer, to JOUEUR Blanc only: {heard:?}"
    );
    assert!(heard[1].contains('/'), "a placement: {}", heard[1]);
    assert_eq!(games[0].colour, Side::White);
    assert_eq!(games[0].winner, None);
    assert_eq!(games[0].moves.len(), 2);
}

#[test]
fn an_illegal_mouvement_is_a_loud_rules_mismatch() {
    static SCRIPT: &[(&[u8], bool)] = &[
        (b"Blanc\0\n", false),
        (b"JOUEUR Noir\0\n", false),
        (b"MOUVEMENT C3/A6/B5/D5/E6/F5\n", false),
    ];
    let (port, fake) = fake_arbiter(SCRIPT);
    let client = our_client(port, "plateau", "strong", 1);
    let err = client.join().unwrap().unwrap_err();
    let _ = fake.join();
    assert!(matches!(err, ClientError::RulesMismatch { .. }), "{err}");
    assert!(err.to_string().contains("RULES MISMATCH"));
}

#[test]
fn a_lost_connection_is_an_error() {
    static SCRIPT: &[(&[u8], bool)] = &[(b"Blanc\0\n", false), (b"JOUEUR Noir\0\n", false)];
    let (port, fake) = fake_arbiter(SCRIPT);
    let client = our_client(port, "plateau", "strong", 1);
    let _ = fake.join();
    let err = client.join().unwrap().unwrap_err();
    assert!(matches!(err, ClientError::ConnectionLost(_)), "{err}");
    assert!(err.to_string().contains("during a game"), "{err}");
}

#[test]
fn an_overlong_line_loses() {
    let long: &'static str = Box::leak("A1-".repeat(3000).into_boxed_str());
    let (first, second) = misbehaviour(vec![Act::Send(long)], 30.0);
    assert_lost_for(
        &first,
        &second,
        |r| matches!(r, EndReason::IllegalMove { reason, .. } if reason.contains("longer than")),
    );
}
