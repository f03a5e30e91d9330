//! Game records as each game's world reads them: a draughts game's PDN read
//! back by pydraughts and an Ataxx game's PGN by python-ataxx (both from
//! PyPI), replayed to the same final position; the other games' files read
//! back by plateau itself.
//!
//! The Python readers run in `$PLATEAU_PYTHON` (a Python with `pydraughts`
//! and `ataxx` installed; .ci/run makes one). Without one the read-back
//! tests say so loudly and pass, except under `CI=true`, where they fail.

#[macro_use]
mod support;

use serde_json::{Value, json};
use std::io::Write as _;
use std::path::PathBuf;
use support::*;

const BACKEND: Backend = Backend::Sqlite;

/// A Python that can import both readers, or `None` (after saying so).
fn python() -> Option<PathBuf> {
    let candidate = std::env::var_os("PLATEAU_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("python3"));
    let works = std::process::Command::new(&candidate)
        .args(["-c", "import draughts, ataxx"])
        .output()
        .is_ok_and(|out| out.status.success());
    if works {
        return Some(candidate);
    }
    let reason = format!("{} cannot import pydraughts and ataxx", candidate.display());
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("CI=true but {reason}; .ci/run makes a Python with them (PLATEAU_PYTHON)");
    }
    let bar = "!".repeat(78);
    let _ = writeln!(
        std::io::stderr(),
        "\n{bar}\n!!! RECORD READ-BACK SKIPPED: {reason}.\n!!! pip install pydraughts ataxx, \
         or set PLATEAU_PYTHON to a Python that has them.\n{bar}\n"
    );
    None
}

/// Plays `plies` moves of a friend room, each side its first legal move but
/// one further along (so that the game is not the same every time).
async fn play_out(server: &TestServer, game: &str, plies: usize) -> (String, Value) {
    let (code, white, black) = {
        let (code, seat, token) = create(
            server,
            json!({"game": game, "seat": "white", "opponent": "friend",
                   "clock": {"initial_s": 180, "increment_s": 2}}),
        )
        .await;
        assert_eq!(seat, "white");
        let other = join(server, &code).await;
        (code, token, other)
    };
    for ply in 0..plies {
        let now = state(server, &code).await;
        if now["status"] != "playing" {
            break;
        }
        let legal = now["legal_moves"].as_array().unwrap();
        let mv = legal[(ply * 7) % legal.len()].as_str().unwrap();
        let token = if now["side_to_move"] == "white" {
            &white
        } else {
            &black
        };
        let (status, body) = play(server, &code, token, now["version"].as_u64().unwrap(), mv).await;
        assert_eq!(status, 200, "{body}");
    }
    // White resigns: the record has a result.
    let now = state(server, &code).await;
    if now["status"] == "playing" {
        post(
            &server.url(&format!("/api/rooms/{code}/resign")),
            json!({"token": white}),
        )
        .await;
    }
    (code.clone(), state(server, &code).await)
}

async fn record(
    server: &TestServer,
    code: &str,
    query: &str,
) -> (String, reqwest::header::HeaderMap) {
    let response = client()
        .get(server.url(&format!("/api/rooms/{code}/record{query}")))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let headers = response.headers().clone();
    (response.text().await.unwrap(), headers)
}

/// Runs the reader on `text`; its four lines: moves, result, the final
/// position it reached, and the server's in the same form.
fn read_back(python: &PathBuf, game: &str, text: &str, expected: &str) -> Vec<String> {
    let path = temp_path(&format!("record-{game}"));
    std::fs::write(&path, text).unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/records/read_back.py");
    let out = std::process::Command::new(python)
        .arg(script)
        .arg(game)
        .arg(&path)
        .arg(expected)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "the reader failed on\n{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_draughts_record_is_pdn_that_pydraughts_reads_back() {
    let server = TestServer::start(&test_db!("record-draughts"), test_config()).await;
    let (code, end) = play_out(&server, "draughts", 40).await;
    let (text, headers) = record(&server, &code, "?download").await;
    assert_eq!(
        headers["content-disposition"],
        format!("attachment; filename=\"plateau-{code}.pdn\"").as_str()
    );
    for tag in ["Event", "Site", "Date", "White", "Black", "TimeControl"] {
        assert!(
            text.contains(&format!("[{tag} \"")),
            "no {tag} tag:\n{text}"
        );
    }
    assert!(text.contains("[TimeControl \"180+2\"]"), "{text}");
    assert!(text.contains("[Result \"0-2\"]"), "White resigned:\n{text}");
    assert!(
        !text.contains("[FEN"),
        "from the start, no FEN tag:\n{text}"
    );
    let (inline, headers) = record(&server, &code, "").await;
    assert_eq!(inline, text);
    assert!(
        headers["content-disposition"]
            .to_str()
            .unwrap()
            .starts_with("inline")
    );
    let Some(python) = python() else { return };
    let moves = end["moves"].as_array().unwrap().len();
    let lines = read_back(
        &python,
        "draughts",
        &text,
        end["position"].as_str().unwrap(),
    );
    assert_eq!(lines[0], moves.to_string(), "{lines:?}\n{text}");
    assert_eq!(lines[1], "0-2");
    assert_eq!(lines[2], lines[3], "the same final position:\n{text}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_ataxx_record_is_pgn_that_python_ataxx_reads_back() {
    let server = TestServer::start(&test_db!("record-ataxx"), test_config()).await;
    let (code, end) = play_out(&server, "ataxx", 30).await;
    let (text, _) = record(&server, &code, "").await;
    // Black (x) moves first; White resigned, so 1-0 for Black.
    assert!(text.contains("[Result \"1-0\"]"), "{text}");
    // From the standard start: no FEN tag.
    assert!(!text.contains("[FEN"), "{text}");
    assert!(text.contains("\n1. "), "{text}");
    let Some(python) = python() else { return };
    let moves = end["moves"].as_array().unwrap().len();
    let lines = read_back(&python, "ataxx", &text, end["position"].as_str().unwrap());
    assert_eq!(lines[0], moves.to_string(), "{lines:?}\n{text}");
    assert_eq!(lines[1], "1-0");
    assert_eq!(lines[2], lines[3], "the same final position:\n{text}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn escampe_abalone_and_virus_records_read_back_in_plateau() {
    let server = TestServer::start(&test_db!("record-others"), test_config()).await;
    // Escampe: the course's board file of the position reached.
    let (code, _, white) = create(
        &server,
        json!({"game": "escampe", "seat": "white", "opponent": "friend"}),
    )
    .await;
    let black = join(&server, &code).await;
    let now = state(&server, &code).await;
    let (first, second) = if now["side_to_move"] == "white" {
        (&white, &black)
    } else {
        (&black, &white)
    };
    let (status, body) = play(
        &server,
        &code,
        first,
        now["version"].as_u64().unwrap(),
        "C6/A6/B5/D5/E6/F5",
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let _ = second;
    let end = state(&server, &code).await;
    let placed = end["moves"][0].as_str().unwrap();
    let (text, headers) = record(&server, &code, "").await;
    assert!(
        headers["content-disposition"]
            .to_str()
            .unwrap()
            .ends_with(".txt\"")
    );
    assert!(
        text.contains("% white: Anonymous")
            && text.contains(&format!("% moves:\n% 1. {placed} *\n")),
        "{text}"
    );
    let spec = plateau_games::GameSpec::lookup("escampe", None).unwrap();
    let read = spec
        .from_file(&text)
        .unwrap_or_else(|e| panic!("{e}:\n{text}"));
    assert_eq!(read.to_text(), end["position"].as_str().unwrap());

    // Abalone and the virus game: numbered notation and PGN.
    for (game, extension) in [("abalone", "txt"), ("virus", "pgn")] {
        let (code, seat, token) = create(
            &server,
            json!({"game": game, "seat": "black", "opponent": "friend"}),
        )
        .await;
        assert_eq!(seat, "black");
        let white = join(&server, &code).await;
        for _ in 0..6 {
            let now = state(&server, &code).await;
            let mv = now["legal_moves"][0].as_str().unwrap().to_string();
            let token = if now["side_to_move"] == "white" {
                &white
            } else {
                &token
            };
            play(&server, &code, token, now["version"].as_u64().unwrap(), &mv).await;
        }
        let end = state(&server, &code).await;
        let (text, headers) = record(&server, &code, "?download=1").await;
        assert!(
            headers["content-disposition"]
                .to_str()
                .unwrap()
                .ends_with(&format!(".{extension}\"")),
            "{headers:?}"
        );
        let spec = plateau_games::GameSpec::lookup(game, None).unwrap();
        let mut replay = spec.new_game();
        let body: String = text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with('['))
            .collect::<Vec<_>>()
            .join(" ");
        plateau_core::play_record(replay.as_mut(), &body)
            .unwrap_or_else(|e| panic!("{e}:\n{text}"));
        assert_eq!(
            replay.to_text(),
            end["position"].as_str().unwrap(),
            "{text}"
        );
    }
    server.stop().await;
}
