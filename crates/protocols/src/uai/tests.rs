//! Whole sessions on in-memory input and output.

use super::*;
use std::io::Cursor;

/// An output the test can read after the session (the session needs `'static`).
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn session(input: &str) -> Vec<String> {
    session_with("expert", 1, input)
}

fn session_with(engine: &str, threads: usize, input: &str) -> Vec<String> {
    let out = Shared::default();
    let config = UaiConfig {
        engine: EngineChoice::parse(engine).unwrap(),
        seed: 1,
        threads,
    };
    run_uai(&config, Cursor::new(input.as_bytes().to_vec()), out.clone()).unwrap();
    let bytes = out.0.lock().unwrap().clone();
    String::from_utf8(bytes)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn bestmoves(lines: &[String]) -> Vec<&str> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .collect()
}

fn errors(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error: "))
        .collect()
}

fn legal_after(game: &str, variant: Option<&str>, moves: &str) -> Vec<String> {
    let spec = GameSpec::lookup(game, variant).unwrap();
    let mut position = spec.new_game();
    play_record(position.as_mut(), moves).unwrap();
    position.legal_moves()
}

#[test]
fn the_handshake_names_the_engine_and_its_options() {
    let lines = session("uai\nisready\nquit\n");
    assert!(lines[0].starts_with("id name plateau"), "{lines:?}");
    assert!(lines[1].starts_with("id author"));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name Hash type spin default 64"))
    );
    let variant = lines
        .iter()
        .find(|l| l.starts_with("option name Variant"))
        .unwrap();
    assert!(variant.contains("default ataxx"), "{variant}");
    assert!(variant.contains("var virus5x5"), "{variant}");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("option name Level type combo default expert"))
    );
    let ok = lines.iter().position(|l| l == "uaiok").unwrap();
    assert_eq!(lines[ok + 1], "readyok");
    assert!(errors(&lines).is_empty());
}

#[test]
fn the_threads_option_announces_the_configured_count_and_can_change() {
    let lines = session_with("expert", 3, "uai\n");
    let threads = format!("option name Threads type spin default 3 min 1 max {MAX_THREADS}");
    assert!(lines.contains(&threads), "{lines:?}");
    // A `threads=` in the engine text wins over the configured count.
    let lines = session_with("expert,threads=2", 3, "uai\n");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name Threads type spin default 2 ")),
        "{lines:?}"
    );

    let lines = session(
        "setoption name Threads value 2\n\
         position startpos moves g2\n\
         go depth 4\n",
    );
    assert!(errors(&lines).is_empty(), "{lines:?}");
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 1, "{lines:?}");
    assert!(legal_after("ataxx", None, "g2").contains(&best[0].to_string()));
}

#[test]
fn bad_thread_counts_are_refused_and_the_engine_still_plays() {
    let lines = session(
        "setoption name Threads value 0\n\
         setoption name Threads value x\n\
         setoption name Threads value 100000\n\
         setoption name Threads\n\
         position startpos\n\
         go depth 3\n",
    );
    let errors = errors(&lines);
    assert_eq!(errors.len(), 4, "{lines:?}");
    assert!(errors[0].contains("Threads: \"0\""), "{}", errors[0]);
    assert!(errors[1].contains("Threads: \"x\""), "{}", errors[1]);
    assert!(errors[2].contains(&format!("from 1 to {MAX_THREADS}")));
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 1, "{lines:?}");
    assert!(legal_after("ataxx", None, "").contains(&best[0].to_string()));
}

#[test]
fn the_engine_searches_with_the_sessions_threads_and_table() {
    let config = UaiConfig {
        engine: EngineChoice::parse("expert").unwrap(),
        seed: 1,
        threads: 3,
    };
    let spec = variant_spec(ATAXX).unwrap();
    let mut session = Session {
        out: Out(Arc::new(Mutex::new(Box::new(Shared::default())))),
        config: config.clone(),
        spec,
        game: spec.new_game(),
        engine: None,
        running: None,
        profile: config.engine.profile,
        hash_mb: 32,
        threads: 3,
    };
    let engine = session.engine();
    assert_eq!((engine.threads(), engine.table_mb()), (3, 32));
    session.engine = Some(engine);
    session.set_option("Threads", Some("2")).unwrap();
    session.set_option("Hash", Some("8")).unwrap();
    let engine = session.engine();
    assert_eq!((engine.threads(), engine.table_mb()), (2, 8));
    // Refused values leave the engine as it was.
    session.engine = Some(engine);
    assert!(session.set_option("Threads", Some("0")).is_err());
    assert_eq!(session.engine().threads(), 2);
}

#[test]
fn go_answers_with_info_lines_then_a_legal_move() {
    let lines = session("position startpos moves g2 a1c3\ngo depth 3\n");
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 1, "{lines:?}");
    assert!(legal_after("ataxx", None, "g2 a1c3").contains(&best[0].to_string()));
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 3, "{lines:?}");
    for info in infos {
        for field in [" score cp ", " nodes ", " nps ", " time ", " pv "] {
            assert!(info.contains(field), "{info}");
        }
    }
    assert!(lines.last().unwrap().starts_with("bestmove"));
}

#[test]
fn bad_lines_are_reported_and_change_nothing() {
    let lines = session(
        "position startpos moves g2\n\
         position startpos moves a1a2 g1g3\n\
         position fen x5o/7/7/7/7/7/o5x q 0 1\n\
         position fen 8/8/8/8/8/8/8/8 x 0 1\n\
         launch\n\
         go depth many\n\
         setoption name Hash value 0\n\
         setoption name Colour value blue\n\
         setoption name Variant value chess\n\
         go depth 2\n",
    );
    assert_eq!(errors(&lines).len(), 8, "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("a1a2")), "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("launch")));
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 1);
    // Still the position after g2: White (o) to move.
    assert!(legal_after("ataxx", None, "g2").contains(&best[0].to_string()));
}

#[test]
fn the_variant_option_plays_the_virus_game_of_any_size() {
    let lines = session(
        "setoption name Variant value virus5x5\n\
         position startpos moves b4\n\
         go depth 4\n\
         isready\n",
    );
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert!(lines.contains(&"info string playing virus/5x5".to_string()));
    let best = bestmoves(&lines);
    assert!(legal_after("virus", Some("5x5"), "b4").contains(&best[0].to_string()));
    // `isready` is answered at once, even while the engine thinks.
    assert!(lines.contains(&"readyok".to_string()));

    // In the virus game the position text decides the size (clocks ignored).
    let lines = session(
        "setoption name Variant value virus\n\
         position fen x2o/4/4/o2x x 0 1 moves b3\n\
         go depth 20\n",
    );
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert!(lines.contains(&"info string playing virus/4x4".to_string()));
    let best = bestmoves(&lines);
    assert!(legal_after("virus", Some("4x4"), "b3").contains(&best[0].to_string()));
    // 4x4 is small enough for depth 20 to see the end: a forced result.
    assert!(lines.iter().any(|l| l.contains("score mate")), "{lines:?}");

    // A size no variant has is refused, and the game stays as it was.
    let lines = session(
        "setoption name Variant value virus5x5\n\
         position fen x8o/10/10/10/10/10/10/10/10/o8x x\n\
         position fen x3o/5/5/5/o3x o 0 1\n\
         go depth 2\n",
    );
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
    assert!(
        !lines.iter().any(|l| l.contains("virus/10x10")),
        "{lines:?}"
    );
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 1, "{lines:?}");
    let five = GameSpec::lookup("virus", Some("5x5")).unwrap();
    let legal = five.from_text("x3o/5/5/5/o3x o").unwrap().legal_moves();
    assert!(legal.contains(&best[0].to_string()), "{lines:?}");
}

#[test]
fn stop_right_after_an_infinite_go_still_answers() {
    let lines = session("position startpos\ngo infinite\nstop\nisready\n");
    assert_eq!(bestmoves(&lines).len(), 1, "{lines:?}");
    let best = lines
        .iter()
        .position(|l| l.starts_with("bestmove"))
        .unwrap();
    let ready = lines.iter().position(|l| l == "readyok").unwrap();
    assert!(best < ready);
}

#[test]
fn the_end_of_input_lets_a_bounded_search_answer() {
    let lines = session("position startpos\ngo movetime 50\n");
    assert_eq!(bestmoves(&lines).len(), 1, "{lines:?}");
    let lines = session("position startpos\ngo infinite\n");
    assert_eq!(bestmoves(&lines).len(), 1, "{lines:?}");
}

#[test]
fn a_finished_game_gets_a_null_move() {
    let lines = session("position fen xxxxxxx/7/7/7/7/7/7 o 0 1\ngo depth 3\n");
    assert_eq!(bestmoves(&lines), vec!["0000"], "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("the game is over")));
}

#[test]
fn clocks_become_the_side_to_moves_budget() {
    // White (o) to move with 30 ms left: the answer comes quickly and is legal.
    let lines =
        session("uainewgame\nposition startpos moves g2\ngo btime 600000 wtime 30 binc 0 winc 0\n");
    let best = bestmoves(&lines);
    assert!(legal_after("ataxx", None, "g2").contains(&best[0].to_string()));
}

#[test]
fn variant_names_are_read_generously() {
    for (value, name) in [
        ("ataxx", "ataxx"),
        ("Virus", "virus/7x7"),
        ("virus5x5", "virus/5x5"),
        ("virus/6x6", "virus/6x6"),
        ("virus 9x9", "virus/9x9"),
    ] {
        assert_eq!(variant_spec(value).unwrap().full_name(), name);
    }
    assert!(variant_spec("virus3x3").is_err());
    assert!(variant_spec("draughts").is_err());
}
