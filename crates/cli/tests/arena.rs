//! `plateau match` and `plateau tune` as users run them, and matches against
//! plateau's own protocol front-ends (`plateau uai`, `plateau hub`) run as
//! external engine programs.

use std::path::Path;
use std::process::{Command, Output};

fn plateau(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_plateau"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn a_draughts_match_writes_pdn_and_pentanomial_statistics() {
    let dir = tempfile::tempdir().unwrap();
    let pdn = dir.path().join("games.pdn");
    let out = plateau(&[
        "match",
        "draughts",
        "--engine",
        "expert",
        "--engine",
        "seed",
        "--games",
        "4",
        "--depth",
        "1",
        "--concurrency",
        "1",
        "--record",
        pdn.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("over 2 pairs"), "{text}");
    let games = std::fs::read_to_string(&pdn).unwrap();
    assert_eq!(games.matches("[Event ").count(), 4, "{games}");
    assert!(games.contains("[White \"expert\"]") && games.contains("[Black \"expert\"]"));
}

#[test]
fn a_journalled_match_run_again_plays_only_what_is_missing() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("match.journal");
    let pdn = dir.path().join("games.pdn");
    let run = |engine: &str| {
        plateau(&[
            "match",
            "draughts",
            "--engine",
            "expert",
            "--engine",
            engine,
            "--games",
            "4",
            "--depth",
            "1",
            "--concurrency",
            "1",
            "--journal",
            journal.to_str().unwrap(),
            "--record",
            pdn.to_str().unwrap(),
        ])
    };
    let first = run("seed");
    assert!(first.status.success(), "{}", stderr(&first));
    assert!(
        stderr(&first).contains("0 of 4 games already played"),
        "{}",
        stderr(&first)
    );
    // A stop after two games: the journal keeps its first two.
    let text = std::fs::read_to_string(&journal).unwrap();
    let two: Vec<&str> = text.lines().take(4).collect();
    std::fs::write(&journal, format!("{}\n", two.join("\n"))).unwrap();
    let resumed = run("seed");
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    let said = stderr(&resumed);
    assert!(said.contains("2 of 4 games already played"), "{said}");
    assert!(
        said.contains("2 games in") && said.contains("2 more from the journal"),
        "{said}"
    );
    // The same result block as the uninterrupted match, and every game recorded.
    assert_eq!(stdout(&resumed), stdout(&first));
    let games = std::fs::read_to_string(&pdn).unwrap();
    assert_eq!(games.matches("[Event ").count(), 4, "{games}");
    assert_eq!(
        std::fs::read_to_string(&journal).unwrap().lines().count(),
        6
    );

    // Another match on that journal is refused before any game.
    let other = run("medium");
    assert!(!other.status.success());
    let said = stderr(&other);
    assert!(
        said.contains("another match") && said.contains("engines"),
        "{said}"
    );
}

#[test]
fn an_sprt_match_prints_its_verdict() {
    let out = plateau(&[
        "match",
        "virus/5x5",
        "--engine",
        "strong",
        "--engine",
        "random",
        "--games",
        "200",
        "--depth",
        "2",
        "--sprt",
        "0,100,0.05,0.05",
        "--quiet",
        "--concurrency",
        "2",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("SPRT    elo0 0, elo1 100"), "{text}");
    assert!(text.contains("H1 accepted"), "{text}");
}

#[test]
fn bad_match_options_say_what_is_wrong() {
    let out = plateau(&[
        "match", "draughts", "--engine", "expert", "--engine", "uai:x",
    ]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("engines play ataxx"),
        "{}",
        stderr(&out)
    );
    let out = plateau(&[
        "match",
        "draughts",
        "--engine",
        "expert",
        "--engine",
        "seed",
        "--sprt",
        "10,0,0.05,0.05",
    ]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("elo0"), "{}", stderr(&out));
    let out = plateau(&[
        "match",
        "draughts",
        "--engine",
        "weights=/nonexistent",
        "--engine",
        "seed",
    ]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("cannot read"), "{}", stderr(&out));
}

#[test]
fn bad_move_limits_say_what_is_wrong_in_match_and_datagen() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("never.data");
    let data = data.to_str().unwrap();
    let cases: [(&[&str], &str); 5] = [
        (&["draughts", "--move-limit", "50"], "has no move limit"),
        (&["abalone", "--move-limit", "0"], "at least 1 move"),
        (
            &["abalone", "--move-limit", "300", "--max-plies", "400"],
            "past --max-plies 400",
        ),
        (&["abalone", "--move-limit", "4294967295"], "--move-limit"),
        (&["abalone", "--move-limit", "x"], "--move-limit"),
    ];
    for (options, expected) in cases {
        let mut matched = vec!["match"];
        matched.extend_from_slice(options);
        matched.extend_from_slice(&["--engine", "seed", "--engine", "seed", "--games", "2"]);
        let mut generated = vec!["datagen"];
        generated.extend_from_slice(options);
        generated.extend_from_slice(&["--games", "1", "--out", data]);
        for args in [matched, generated] {
            let out = plateau(&args);
            assert!(!out.status.success(), "{args:?}");
            assert!(
                stderr(&out).contains(expected),
                "{args:?}: {}",
                stderr(&out)
            );
        }
    }
    assert!(
        !Path::new(data).exists(),
        "a refused datagen wrote its file"
    );
}

#[test]
fn a_search_tuning_run_writes_an_engine_that_plays() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let run_text = run.to_str().unwrap();
    let out = plateau(&[
        "tune",
        "ataxx",
        "--search",
        "margins,lmr-base",
        "--nodes",
        "200",
        "--generations",
        "2",
        "--spsa-steps",
        "2",
        "--verify-games",
        "2",
        "--opening-pool",
        "4",
        "--max-plies",
        "60",
        "--seed",
        "3",
        "--concurrency",
        "2",
        "--out",
        run_text,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("start: margins 187, lmr-base 105"), "{text}");
    assert!(
        text.contains("final check against the start values: 2 games"),
        "{text}"
    );
    let engine = std::fs::read_to_string(run.join("engine.txt")).unwrap();
    let engine = engine.trim();
    assert!(
        engine.starts_with("master,lmr-base=") && engine.contains(",margins="),
        "{engine}"
    );
    let curve = std::fs::read_to_string(run.join("curve.tsv")).unwrap();
    assert_eq!(
        curve.lines().count(),
        4,
        "header, start, 2 generations: {curve}"
    );
    let out = plateau(&[
        "match",
        "ataxx",
        "--engine",
        engine,
        "--engine",
        "master",
        "--nodes",
        "200",
        "--games",
        "2",
        "--max-plies",
        "60",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    // The run directory is not overwritten, and bad requests say what is wrong.
    for (args, expected) in [
        (
            vec!["--search", "all", "--nodes", "200", "--out", run_text],
            "already holds",
        ),
        (
            vec!["--search", "depth", "--nodes", "200"],
            "not a search parameter",
        ),
        (vec!["--search", "all"], "--movetime MS or --nodes N"),
        (
            vec!["--search", "all", "--movetime", "50", "--nodes", "9"],
            "not both",
        ),
        (
            vec!["--search", "all", "--nodes", "9", "--method", "evolution"],
            "SPSA",
        ),
        (vec!["--movetime", "50"], "are for --search"),
    ] {
        let mut full = vec!["tune", "ataxx"];
        full.extend(&args);
        let other = dir.path().join("other");
        let other = other.to_str().unwrap();
        if !args.contains(&"--out") {
            full.extend(["--out", other]);
        }
        let out = plateau(&full);
        assert!(!out.status.success(), "{args:?}");
        assert!(
            stderr(&out).contains(expected),
            "{args:?}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn a_tiny_tuning_run_stores_generations_that_play() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let run_text = run.to_str().unwrap();
    let out = plateau(&[
        "tune",
        "virus/5x5",
        "--generations",
        "2",
        "--population",
        "4",
        "--elite",
        "1",
        "--parents",
        "2",
        "--games",
        "2",
        "--depth",
        "1",
        "--measure-games",
        "2",
        "--verify-games",
        "2",
        "--opening-pool",
        "4",
        "--seed",
        "7",
        "--concurrency",
        "1",
        "--out",
        run_text,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("final check against the start weights: 2 games"),
        "{text}"
    );
    for file in [
        "gen-000.txt",
        "gen-001.txt",
        "gen-002.txt",
        "curve.svg",
        "champion.txt",
    ] {
        assert!(Path::new(&run).join(file).exists(), "{file} missing");
    }
    assert_eq!(
        stderr(&out).matches("generation   ").count(),
        2,
        "{}",
        stderr(&out)
    );
    let engine = format!("gen={run_text}:2");
    let out = plateau(&[
        "match",
        "virus/5x5",
        "--engine",
        &engine,
        "--engine",
        "gen=",
        "--games",
        "2",
    ]);
    assert!(!out.status.success(), "gen= without a run is refused");
    let start = format!("gen={run_text}:0");
    let out = plateau(&[
        "match",
        "virus/5x5",
        "--engine",
        &engine,
        "--engine",
        &start,
        "--games",
        "2",
        "--depth",
        "1",
        "--concurrency",
        "1",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
}

/// A match against `plateau <protocol>` as an engine program: whole games,
/// no engine failure.
fn match_against_ourselves(game: &str, protocol: &str) {
    let exe = env!("CARGO_BIN_EXE_plateau");
    let engine = format!("{protocol}:\"{exe}\" {protocol}");
    let out = plateau(&[
        "match",
        game,
        "--engine",
        &engine,
        "--engine",
        "beginner",
        "--games",
        "2",
        "--depth",
        "2",
        "--concurrency",
        "1",
        "--timeout",
        "30",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let log = stderr(&out);
    assert_eq!(log.matches("game ").count(), 2, "{log}");
    assert!(!log.contains("engine failure"), "{log}");
    assert!(!log.contains("illegal move"), "{log}");
    assert!(stdout(&out).contains(", 2 games"), "{}", stdout(&out));
}

#[test]
fn a_match_against_plateau_uai_as_an_external_engine() {
    match_against_ourselves("ataxx", "uai");
}

#[test]
fn a_match_against_plateau_hub_as_an_external_engine() {
    match_against_ourselves("draughts", "hub");
}
