//! The Escampe arbiter protocol over real loopback sockets: our client against
//! our arbiter, byte-exact transcripts, and clients that misbehave.

use plateau_core::{AnyGame, Rng, Side};
use plateau_games::{EngineChoice, GameSpec};
use plateau_protocols::escampe::arbiter::{
    ArbiterConfig, EndReason, GameReport, Tournament, run_arbiter,
};
use plateau_protocols::escampe::client::{ClientConfig, ClientError, ClientGame, run_client};
use plateau_protocols::escampe::openings::Opening;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::mpsc::{Receiver, channel};
use std::thread::JoinHandle;
use std::time::Duration;

/// A running arbiter: its port, its thread, and its log lines.
struct Running {
    port: u16,
    handle: JoinHandle<Tournament>,
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
        self.tournament().reports
    }

    fn tournament(self) -> Tournament {
        self.handle.join().unwrap()
    }

    /// Waits for a log line containing `needle` (earlier lines are consumed);
    /// returns the lines seen, that one last.
    fn wait_log(&self, needle: &str) -> Vec<String> {
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        let mut seen = Vec::new();
        while std::time::Instant::now() < deadline {
            if let Ok(line) = self.log.recv_timeout(Duration::from_millis(50)) {
                let found = line.contains(needle);
                seen.push(line);
                if found {
                    return seen;
                }
            }
        }
        panic!("no log line with {needle:?}: {seen:#?}");
    }

    /// The tournament and every line it logged.
    fn finish(self) -> (Tournament, Vec<String>) {
        let tournament = self.handle.join().unwrap();
        (tournament, self.log.try_iter().collect())
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
        games_per_pair: games,
        clock: Duration::from_secs_f64(clock_secs),
        settle: Duration::from_millis(100),
        seat_timeout: Duration::from_secs(20),
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
    our_client_with(port, name, engine, games, threads, 1)
}

fn our_client_with(
    port: u16,
    name: &str,
    engine: &str,
    games: u32,
    threads: usize,
    variety: usize,
) -> JoinHandle<Result<Vec<ClientGame>, ClientError>> {
    let config = ClientConfig {
        host: "127.0.0.1".into(),
        port,
        name: name.into(),
        engine: EngineChoice::parse(engine).unwrap(),
        threads,
        clock: Duration::from_secs(30),
        games: Some(games),
        variety,
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
    /// Close the connection on this turn of a game (1 = its first).
    quit_on_turn: Option<usize>,
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
            quit_on_turn: None,
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
        let mut turn = 0;
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
                turn = 0;
            } else if let Some(who) = text.strip_prefix("JOUEUR ") {
                let ours = (who == "Blanc") == (colour == Side::White);
                if !ours {
                    continue;
                }
                turn += 1;
                let act = if self.quit_on_turn == Some(turn) {
                    Act::Disconnect
                } else {
                    acts.next().cloned().unwrap_or(Act::Legal)
                };
                match act {
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
        assert_eq!(report.winning_player(), Some(0), "{report:?}");
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
    assert_eq!(first.players, [0, 1]);
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

/// A client like the course's: it connects, plays one game, and exits; then
/// it is started again under the same name, `games` times.
fn one_game_per_connection(
    port: u16,
    name: &'static str,
    games: usize,
    seed: u64,
) -> JoinHandle<usize> {
    std::thread::spawn(move || {
        let mut played = 0;
        for game in 0..games {
            let mut client = Scripted::connect(port, name);
            played += client.play(1, &[], seed + game as u64).len();
        }
        played
    })
}

#[test]
fn clients_that_exit_after_each_game_play_every_game() {
    let arbiter = arbiter(config(4, 30.0));
    let port = arbiter.port;
    let first = one_game_per_connection(port, "first", 4, 10);
    arbiter.seated();
    let second = one_game_per_connection(port, "second", 4, 20);
    let (tournament, log) = arbiter.finish();
    assert_eq!(first.join().unwrap(), 4);
    assert_eq!(second.join().unwrap(), 4);
    assert_eq!(tournament.reports.len(), 4, "{log:#?}");
    assert!(tournament.unplayed.is_empty());
    for (index, report) in tournament.reports.iter().enumerate() {
        assert_ne!(report.reason, EndReason::Disconnected, "{report:?}");
        assert!(report.moves.len() >= 3, "a real game: {report:?}");
        let blanc = if index % 2 == 0 { "first" } else { "second" };
        assert_eq!(report.names[0], blanc, "colours swap every game");
    }
    assert!(log.iter().any(|l| l.contains("first is back")), "{log:#?}");
}

#[test]
fn our_client_against_one_that_exits_after_each_game() {
    // The case: plateau stays connected, the course client leaves.
    let arbiter = arbiter(config(4, 30.0));
    let port = arbiter.port;
    let ours = our_client(port, "plateau", "medium", 4);
    arbiter.seated();
    let theirs = one_game_per_connection(port, "student", 4, 5);
    let reports = arbiter.join();
    assert_eq!(theirs.join().unwrap(), 4);
    let our_games = ours.join().unwrap().unwrap();
    assert_eq!(our_games.len(), 4);
    assert_eq!(reports.len(), 4);
    for report in &reports {
        assert_eq!(report.reason, EndReason::Capture, "{report:?}");
        assert_eq!(report.winning_player(), Some(0), "{report:?}");
        assert!(report.moves.len() >= 3, "{report:?}");
    }
}

#[test]
fn a_player_that_leaves_before_its_first_move_replays_the_game() {
    let arbiter = arbiter(config(1, 30.0));
    let port = arbiter.port;
    let blanc = std::thread::spawn(move || Scripted::connect(port, "stays").play(2, &[], 1));
    arbiter.seated();
    // Noir leaves when first asked to place, then comes back.
    let noir = std::thread::spawn(move || {
        let mut client = Scripted::connect(port, "flaky");
        client.quit_on_turn = Some(1);
        client.play(1, &[], 2);
        drop(client);
        std::thread::sleep(Duration::from_millis(300));
        Scripted::connect(port, "flaky").play(1, &[], 3)
    });
    let (tournament, log) = arbiter.finish();
    let stays = blanc.join().unwrap();
    let noir_results = noir.join().unwrap();
    assert_eq!(tournament.reports.len(), 1, "{log:#?}");
    let report = &tournament.reports[0];
    assert_ne!(report.reason, EndReason::Disconnected);
    assert!(report.moves.len() >= 3, "{report:?}");
    assert!(log.iter().any(|l| l.contains("not scored")), "{log:#?}");
    // Blanc heard a draw for the game that did not start, then the real result.
    assert_eq!(stays.len(), 2);
    assert_eq!(stays[0], None);
    assert_eq!(noir_results.len(), 1);
}

#[test]
fn a_player_that_never_comes_back_leaves_its_games_unplayed() {
    let mut settings = config(3, 30.0);
    settings.seat_timeout = Duration::from_millis(500);
    let arbiter = arbiter(settings);
    let port = arbiter.port;
    let ours = our_client(port, "plateau", "beginner", 3);
    arbiter.seated();
    let gone = one_game_per_connection(port, "gone", 1, 7);
    let (tournament, log) = arbiter.finish();
    assert_eq!(gone.join().unwrap(), 1);
    // Our client counted one game and then lost its connection at the end.
    let _ = ours.join();
    assert_eq!(tournament.reports.len(), 1, "{log:#?}");
    assert_eq!(tournament.unplayed.len(), 2);
    assert!(tournament.unplayed[0].reason.contains("gone"));
    let summary = tournament.summary();
    assert!(summary.contains("not played"), "{summary}");
    // Only the game played is scored: one game each.
    let table = tournament.crosstable();
    assert_eq!(table.tally(0).games(), 1);
    assert_eq!(table.tally(1).games(), 1);
}

#[test]
fn a_round_robin_of_four_plays_every_game_through_a_reconnection() {
    let mut settings = config(4, 30.0);
    settings.players = 4;
    settings.max_plies = 120;
    let arbiter = arbiter(settings);
    let port = arbiter.port;
    let names = ["ana", "bob", "cyd", "dee"];
    let mut clients = Vec::new();
    for (index, name) in names.into_iter().enumerate() {
        let client = std::thread::spawn(move || {
            let mut client = Scripted::connect(port, name);
            if name == "cyd" {
                // Cyd drops out on its third turn of a game, and comes back.
                client.quit_on_turn = Some(3);
                let before = client.play(usize::MAX, &[], 30);
                drop(client);
                std::thread::sleep(Duration::from_millis(200));
                let after = Scripted::connect(port, name).play(usize::MAX, &[], 31);
                before.len() + after.len()
            } else {
                client.play(usize::MAX, &[], index as u64).len()
            }
        });
        arbiter.seated();
        clients.push(client);
    }
    let (tournament, log) = arbiter.finish();
    for client in clients {
        client.join().unwrap();
    }
    assert_eq!(tournament.names, names, "registration order");
    assert_eq!(tournament.reports.len(), 24, "{log:#?}");
    assert!(tournament.unplayed.is_empty());
    let disconnections: Vec<&GameReport> = tournament
        .reports
        .iter()
        .filter(|r| r.reason == EndReason::Disconnected)
        .collect();
    assert_eq!(disconnections.len(), 1, "{log:#?}");
    assert_ne!(
        disconnections[0].winning_player(),
        Some(2),
        "cyd lost the game it left"
    );
    assert!(log.iter().any(|l| l.contains("cyd is back")), "{log:#?}");
    // Every pair met four times, twice with each colour.
    for a in 0..4 {
        for b in 0..4 {
            if a != b {
                let as_blanc = tournament
                    .reports
                    .iter()
                    .filter(|r| r.players == [a, b])
                    .count();
                assert_eq!(as_blanc, 2, "{a} as Blanc against {b}");
            }
        }
    }
    let table = tournament.crosstable();
    for player in 0..4 {
        assert_eq!(table.tally(player).games(), 12);
    }
    let summary = tournament.summary();
    for name in names {
        assert!(summary.contains(name), "{summary}");
    }
    assert!(summary.contains("24 games played"), "{summary}");
    assert!(summary.contains("Elo (95%)"), "{summary}");
}

#[test]
fn set_openings_are_imposed_on_both_sides() {
    let mut settings = config(2, 30.0);
    settings.openings = vec![
        Opening::parse("C6/A6/B5/D5/E6/F5 B2/A1/B1/C2/E2/F2")
            .unwrap()
            .unwrap(),
    ];
    let arbiter = arbiter(settings);
    let port = arbiter.port;
    let ours = our_client(port, "plateau", "medium", 2);
    arbiter.seated();
    let raw = std::thread::spawn(move || {
        let mut client = Scripted::connect(port, "raw");
        client.play(2, &[], 4);
        client.received
    });
    let reports = arbiter.join();
    let heard = raw.join().unwrap();
    let our_games = ours.join().unwrap().unwrap();
    assert_eq!(reports.len(), 2);
    for (report, game) in reports.iter().zip(&our_games) {
        assert_eq!(report.moves[0].1, "C6/A6/B5/D5/E6/F5");
        assert_eq!(report.moves[1].1, "B2/A1/B1/C2/E2/F2");
        assert_eq!(report.moves[0].2, Duration::ZERO);
        assert_eq!(
            report.opening.as_deref(),
            Some("C6/A6/B5/D5/E6/F5 B2/A1/B1/C2/E2/F2")
        );
        // The client's history holds each move in its canonical spelling.
        let mut replay = GameSpec::lookup("escampe", None).unwrap().new_game();
        for (_, mv, _) in &report.moves {
            replay.play(mv).unwrap();
        }
        assert_eq!(
            replay.history(),
            game.moves,
            "our client followed the imposed placements"
        );
    }
    // The raw client (Noir in game 1) is told both placements and asked for
    // neither: its first request is Blanc's first move... for Blanc.
    assert_eq!(heard[0], b"Noir\0\n");
    assert_eq!(heard[1], b"MOUVEMENT C6/A6/B5/D5/E6/F5\n");
    assert_eq!(heard[2], b"MOUVEMENT B2/A1/B1/C2/E2/F2\n");
    assert_eq!(heard[3], b"JOUEUR Blanc\0\n");
}

/// Blanc's placement and first move in the games our client played as Blanc
/// (the first and third), against an opponent whose Noir placement is fixed.
fn blanc_openings(variety: usize) -> (Vec<String>, Vec<String>) {
    let arbiter = arbiter(config(4, 30.0));
    let port = arbiter.port;
    let ours = our_client_with(port, "plateau", "medium", 4, 1, variety);
    arbiter.seated();
    let opponent = std::thread::spawn(move || {
        for game in 0..4u64 {
            let script: &[Act] = if game % 2 == 0 {
                &[Act::Send("C6/A6/B5/D5/E6/F5")]
            } else {
                &[]
            };
            Scripted::connect(port, "opponent").play(1, script, game);
        }
    });
    assert_eq!(arbiter.join().len(), 4);
    opponent.join().unwrap();
    let games = ours.join().unwrap().unwrap();
    assert_eq!(games[0].colour, Side::White);
    assert_eq!(games[2].colour, Side::White);
    (games[0].moves[1..3].to_vec(), games[2].moves[1..3].to_vec())
}

#[test]
fn variety_makes_a_deterministic_pairing_play_different_games() {
    // Without variety, the same Noir placement gets the same answer.
    let (first, third) = blanc_openings(1);
    assert_eq!(first, third);
    // With --variety 4, Blanc chooses among its best: another opening.
    let (first, third) = blanc_openings(4);
    assert_ne!(first, third);
}

#[test]
fn a_registered_player_never_takes_another_players_place() {
    let arbiter = arbiter(config(3, 30.0));
    let port = arbiter.port;
    let alice = one_game_per_connection(port, "alice", 2, 1);
    arbiter.seated();
    let bob = one_game_per_connection(port, "bob", 2, 2);
    arbiter.wait_log("game 2:");
    assert_eq!(alice.join().unwrap(), 2);
    assert_eq!(bob.join().unwrap(), 2);
    // Game 3 waits for Alice (Blanc): a newcomer fills her place first.
    arbiter.wait_log("waiting up to");
    let zed = one_game_per_connection(port, "zed", 1, 3);
    arbiter.wait_log("zed takes the place of alice");
    // The real Alice comes back while the arbiter waits for Bob: she must not
    // be seated as Bob.
    let late_alice = std::thread::spawn(move || Scripted::connect(port, "alice").play(1, &[], 4));
    let waited = arbiter.wait_log("alice waits");
    assert!(
        waited.iter().all(|l| !l.contains("takes the place of bob")),
        "{waited:#?}"
    );
    let bob_again = one_game_per_connection(port, "bob", 1, 5);
    let (tournament, log) = arbiter.finish();
    assert_eq!(zed.join().unwrap(), 1);
    assert_eq!(bob_again.join().unwrap(), 1);
    assert!(
        late_alice.join().unwrap().is_empty(),
        "the spare plays no game"
    );
    assert_eq!(tournament.reports.len(), 3, "{log:#?}");
    assert_eq!(tournament.reports[2].names, ["zed", "bob"]);
}
