//! The arena's UAI and Hub clients against real processes: this test binary
//! is its own fake engine. Run with `--fake-engine PROTOCOL BEHAVIOUR [N]` it
//! speaks UAI (Ataxx) or Hub (draughts) on stdin/stdout, playing the first
//! legal move, and misbehaves on request: exits after N moves (`crash`),
//! stops answering at move N (`silent`), plays an illegal move (`illegal`),
//! never finishes the handshake (`mute`), or reports an error (`error`).
//! Without that argument it runs the tests below (a plain `main`: the test
//! harness would print to stdout, which a fake engine cannot afford).

use plateau_arena::external::ExternalOptions;
use plateau_arena::{
    ClockControl, EngineSpec, MatchConfig, MatchResult, OpeningSource, TimeControl, run_match,
};
use plateau_core::{EndReason, Game, MoveList};
use plateau_draughts::Draughts;
use plateau_games::{GameSpec, Limits};
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == "--fake-engine") {
        let protocol = args.get(at + 1).cloned().unwrap_or_default();
        let behaviour = args.get(at + 2).cloned().unwrap_or_default();
        let n: usize = args.get(at + 3).and_then(|n| n.parse().ok()).unwrap_or(0);
        match protocol.as_str() {
            "uai" => fake_uai(&behaviour, n),
            "hub" => fake_hub(&behaviour, n),
            _ => std::process::exit(2),
        }
        return;
    }
    let filter = args.iter().skip(1).find(|a| !a.starts_with('-')).cloned();
    let tests: &[(&str, fn())] = &[
        ("uai_engine_plays_whole_games", uai_engine_plays_whole_games),
        ("uai_engine_gets_both_clocks", uai_engine_gets_both_clocks),
        ("crashed_engine_loses_cleanly", crashed_engine_loses_cleanly),
        ("silent_engine_loses_in_time", silent_engine_loses_in_time),
        ("illegal_move_loses", illegal_move_loses),
        ("mute_engine_stops_the_match", mute_engine_stops_the_match),
        (
            "missing_program_stops_the_match",
            missing_program_stops_the_match,
        ),
        ("hub_engine_plays_whole_games", hub_engine_plays_whole_games),
        ("hub_refusal_voids_the_game", hub_refusal_voids_the_game),
        (
            "hub_refusal_later_in_a_game_loses",
            hub_refusal_later_in_a_game_loses,
        ),
    ];
    let mut failed = 0;
    for (name, test) in tests {
        if filter.as_ref().is_some_and(|f| !name.contains(f.as_str())) {
            continue;
        }
        let outcome = std::panic::catch_unwind(test);
        println!(
            "test {name} ... {}",
            if outcome.is_ok() { "ok" } else { "FAILED" }
        );
        if outcome.is_err() {
            failed += 1;
        }
    }
    if failed > 0 {
        println!("{failed} external-engine test(s) failed");
        std::process::exit(1);
    }
}

// ---------------------------------------------------------------- the fakes

fn lines() -> impl Iterator<Item = String> {
    std::io::stdin().lock().lines().map_while(Result::ok)
}

fn say(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}");
    let _ = out.flush();
}

fn fake_uai(behaviour: &str, n: usize) {
    let spec = GameSpec::lookup("ataxx", None).unwrap();
    let mut game = spec.new_game();
    let mut moves_played = 0;
    for line in lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("uai") => {
                if behaviour == "mute" {
                    continue;
                }
                say("id name fake");
                say("id author plateau tests");
                say("option name Hash type spin default 1 min 1 max 1");
                say("uaiok");
            }
            Some("isready") => say("readyok"),
            Some("position") => {
                game = match words.get(1) {
                    Some(&"startpos") => spec.new_game(),
                    Some(&"fen") => {
                        let end = words
                            .iter()
                            .position(|w| *w == "moves")
                            .unwrap_or(words.len());
                        spec.from_text(&words[2..end].join(" ")).unwrap()
                    }
                    _ => return,
                };
                if let Some(at) = words.iter().position(|w| *w == "moves") {
                    for mv in &words[at + 1..] {
                        game.play(mv).unwrap();
                    }
                }
            }
            Some("go") => {
                // A good engine checks that it was told its limits.
                let told = ["depth", "movetime", "btime"]
                    .iter()
                    .any(|k| words.contains(k));
                if behaviour == "clock" && !(words.contains(&"btime") && words.contains(&"wtime")) {
                    say("bestmove nonsense");
                    continue;
                }
                moves_played += 1;
                match behaviour {
                    "crash" if moves_played > n => std::process::exit(3),
                    "silent" if moves_played > n => continue,
                    "illegal" => say("bestmove a1a1"),
                    _ if !told => say("bestmove nonsense"),
                    _ => {
                        say("info depth 1 score cp 0 nodes 1 pv x");
                        say(&format!("bestmove {}", game.legal_moves()[0]));
                    }
                }
            }
            Some("quit") => return,
            _ => {}
        }
    }
}

/// A Hub position (side, then squares 1-50) as a draughts FEN.
fn hub_to_fen(pos: &str) -> String {
    let chars: Vec<char> = pos.chars().collect();
    let (mut white, mut black) = (Vec::new(), Vec::new());
    for (i, c) in chars.iter().skip(1).enumerate() {
        let square = i + 1;
        match c {
            'w' => white.push(square.to_string()),
            'W' => white.push(format!("K{square}")),
            'b' => black.push(square.to_string()),
            'B' => black.push(format!("K{square}")),
            _ => {}
        }
    }
    format!("{}:W{}:B{}", chars[0], white.join(","), black.join(","))
}

fn fake_hub(behaviour: &str, n: usize) {
    let mut position = Draughts::new();
    let mut moves_played = 0;
    let mut refused = false;
    for line in lines() {
        let command = line.split_whitespace().next().unwrap_or("");
        match command {
            "hub" => {
                say("id name=fake version=\"0.1 test\"");
                say("param name=variant value=normal type=enum values=\"normal\"");
                say("wait");
            }
            "init" => say("ready"),
            "pos" => {
                let pos = line
                    .split_whitespace()
                    .find_map(|w| w.strip_prefix("pos="))
                    .unwrap();
                position = Draughts::from_text(&hub_to_fen(pos)).unwrap();
                if behaviour == "refuse" && moves_played >= n {
                    // As Scan answers a position it cannot take.
                    say("error message=\"out of ideas\"");
                    refused = true;
                    continue;
                }
                refused = false;
                if let Some(start) = line.find("moves=\"") {
                    let rest = &line[start + 7..];
                    let list = &rest[..rest.find('"').unwrap()];
                    for text in list.split_whitespace() {
                        let mv = position.parse_move(text).unwrap();
                        position.play(mv);
                    }
                }
            }
            "level" => {}
            "go" => {
                if refused {
                    continue;
                }
                moves_played += 1;
                let mut moves = MoveList::new();
                position.legal_moves(&mut moves);
                say("info depth=1 score=0 nodes=1");
                say(&format!("done move={}", moves[0].hub()));
            }
            "quit" => return,
            _ => {}
        }
    }
}

// ---------------------------------------------------------------- the tests

fn fake(protocol: &str, behaviour: &str, n: usize) -> String {
    let exe = std::env::current_exe().unwrap();
    format!(
        "{protocol}:\"{}\" --fake-engine {protocol} {behaviour} {n}",
        exe.display()
    )
}

fn config(game: &str, external: &str, time: TimeControl, games: u32) -> MatchConfig {
    let spec = GameSpec::lookup(game, None).unwrap();
    MatchConfig {
        game: spec,
        engines: [
            EngineSpec::parse(external, &spec).unwrap(),
            EngineSpec::parse("beginner", &spec).unwrap(),
        ],
        games,
        time,
        openings: OpeningSource::Random { plies: 2 },
        max_plies: Some(60),
        move_limit: None,
        seed: 5,
        concurrency: 2,
        sprt: None,
        external: ExternalOptions {
            handshake: Duration::from_secs(5),
            move_timeout: Duration::from_secs(20),
            grace: Duration::from_millis(300),
        },
    }
}

fn depth(d: u32) -> TimeControl {
    TimeControl::PerMove(Limits::depth(d))
}

/// The notes of the games the external engine (player 0) lost by failing.
fn failures(result: &MatchResult) -> Vec<String> {
    result
        .records
        .iter()
        .filter(|r| r.outcome.reason == EndReason::EngineFailure)
        .map(|r| r.note.clone().unwrap_or_default())
        .collect()
}

fn uai_engine_plays_whole_games() {
    let config = config("ataxx", &fake("uai", "good", 0), depth(1), 4);
    let result = run_match(&config, |_, _| {}).unwrap();
    assert_eq!(result.records.len(), 4);
    assert!(failures(&result).is_empty(), "{:?}", failures(&result));
    for record in &result.records {
        // Beyond the opening, the fake played its moves and the rules took them.
        assert!(record.moves.len() > record.opening_len + 2, "{record:?}");
    }
}

fn uai_engine_gets_both_clocks() {
    let clock = TimeControl::Clock(ClockControl {
        base: Duration::from_secs(30),
        increment: Duration::from_millis(100),
    });
    let config = config("ataxx", &fake("uai", "clock", 0), clock, 2);
    let result = run_match(&config, |_, _| {}).unwrap();
    assert!(failures(&result).is_empty(), "{:?}", failures(&result));
}

fn crashed_engine_loses_cleanly() {
    let config = config("ataxx", &fake("uai", "crash", 1), depth(1), 2);
    let result = run_match(&config, |_, _| {}).unwrap();
    assert_eq!(result.records.len(), 2);
    for record in &result.records {
        assert_eq!(
            record.outcome.reason,
            EndReason::EngineFailure,
            "{record:?}"
        );
        assert_eq!(record.score_of(0), 0.0);
        let note = record.note.as_deref().unwrap_or("");
        assert!(note.contains("exited"), "{note}");
    }
    assert_eq!(result.status.tally.losses, 2);
}

fn silent_engine_loses_in_time() {
    let started = Instant::now();
    let time = TimeControl::PerMove(Limits::movetime(Duration::from_millis(50)));
    let config = config("ataxx", &fake("uai", "silent", 2), time, 2);
    let result = run_match(&config, |_, _| {}).unwrap();
    for record in &result.records {
        let note = record.note.as_deref().unwrap_or("");
        assert!(note.contains("no bestmove within"), "{note}");
        assert_eq!(record.score_of(0), 0.0);
    }
    // Two games, each waiting 50 ms + 300 ms once: far below this bound.
    assert!(started.elapsed() < Duration::from_secs(20));
}

fn illegal_move_loses() {
    let config = config("ataxx", &fake("uai", "illegal", 0), depth(1), 2);
    let result = run_match(&config, |_, _| {}).unwrap();
    for note in failures(&result) {
        assert!(
            note.contains("illegal move") && note.contains("a1a1"),
            "{note}"
        );
    }
    assert_eq!(result.status.tally.losses, 2);
}

fn mute_engine_stops_the_match() {
    let mut config = config("ataxx", &fake("uai", "mute", 0), depth(1), 2);
    config.external.handshake = Duration::from_millis(500);
    let err = run_match(&config, |_, _| {}).unwrap_err();
    assert!(err.contains("uaiok"), "{err}");
}

fn missing_program_stops_the_match() {
    let config = config("ataxx", "uai:/nonexistent/engine --flag", depth(1), 2);
    let err = run_match(&config, |_, _| {}).unwrap_err();
    assert!(
        err.contains("cannot start") && err.contains("/nonexistent/engine"),
        "{err}"
    );
}

fn hub_engine_plays_whole_games() {
    let config = config("draughts", &fake("hub", "good", 0), depth(1), 4);
    let result = run_match(&config, |_, _| {}).unwrap();
    assert_eq!(result.records.len(), 4);
    assert!(failures(&result).is_empty(), "{:?}", failures(&result));
    let spec = GameSpec::lookup("draughts", None).unwrap();
    let names = ["fake", "beginner"];
    let pdn = plateau_arena::record::write_records(&spec, &result.records, names, "test").unwrap();
    assert_eq!(plateau_draughts::pdn::read_games(&pdn).unwrap().len(), 4);
}

fn hub_refusal_voids_the_game() {
    // The fake answers every position with `error`: it refuses the opening
    // it is given, so each game has no result and counts for nobody, and
    // the note says who refused what.
    let config = config("draughts", &fake("hub", "refuse", 0), depth(1), 2);
    let result = run_match(&config, |_, _| {}).unwrap();
    assert_eq!(result.records.len(), 2);
    assert!(failures(&result).is_empty(), "{:?}", failures(&result));
    for record in &result.records {
        assert!(!record.has_result(), "{record:?}");
        assert_eq!(record.outcome.reason, EndReason::PositionRefused);
        assert_eq!(record.result_text(), "*");
        let note = record.note.as_deref().unwrap_or("");
        assert!(
            note.contains("refused") && note.contains("out of ideas") && note.contains(':'),
            "{note}"
        );
    }
    assert_eq!(result.status.void, 2);
    assert_eq!(result.status.done, 2);
    assert_eq!(result.status.tally.games(), 0, "no score from void games");
    assert_eq!(result.status.penta.pairs(), 0);
    let spec = GameSpec::lookup("draughts", None).unwrap();
    let pdn =
        plateau_arena::record::write_records(&spec, &result.records, ["fake", "beginner"], "test")
            .unwrap();
    for game in plateau_draughts::pdn::read_games(&pdn).unwrap() {
        assert_eq!(game.result, plateau_draughts::pdn::PdnResult::Unknown);
        assert!(game.tag("Termination").unwrap().contains("out of ideas"));
    }
}

fn hub_refusal_later_in_a_game_loses() {
    // The fake plays two moves, then answers with `error`: refusing a
    // position it reached itself would let an engine escape a lost game, so
    // it loses that game, with the text in the note.
    let config = config("draughts", &fake("hub", "refuse", 2), depth(1), 2);
    let result = run_match(&config, |_, _| {}).unwrap();
    let first = result.records.iter().find(|r| r.number == 0).unwrap();
    assert_eq!(first.outcome.reason, EndReason::EngineFailure, "{first:?}");
    assert_eq!(first.score_of(0), 0.0);
    let note = first.note.as_deref().unwrap_or("");
    assert!(note.contains("out of ideas"), "{note}");
}
