//! `plateau egtb`: generating, checking and using the draughts endgame
//! databases from the command line, and clear refusals.

use std::process::{Command, Output};

fn plateau(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_plateau"))
        .args(args)
        .env_remove("PLATEAU_EGTB_DIR")
        .output()
        .expect("the binary runs")
}

/// `plateau egtb draughts --pieces 3` into (or `--check` of) `dir`.
fn egtb(dir: &str, check: bool) -> Output {
    let mut args = vec!["egtb", "draughts", "--pieces", "3", "--egtb-dir", dir];
    if check {
        args.push("--check");
    }
    plateau(&args)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn databases_are_generated_checked_and_used() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().to_str().unwrap();
    let out = egtb(path, false);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("0m2k-1m0k"), "{stderr}");
    let stdout = text(&out.stdout);
    assert!(stdout.contains("pieces  materials"), "{stdout}");
    assert!(
        stdout
            .lines()
            .any(|l| l.trim_start().starts_with("3 ") && l.contains("12")),
        "{stdout}"
    );

    let out = egtb(path, true);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("is good"));

    // An engine finds them: a database win is searched as one.
    let out = plateau(&[
        "analyze",
        "draughts",
        "--position",
        "W:WK46,K50:B15",
        "--depth",
        "2",
        "--egtb-dir",
        path,
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));

    // A damaged file is named, and a run that finds it regenerates nothing
    // silently: the check fails.
    let file = dir.path().join("0m2k-1m0k.wdl");
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0xff;
    std::fs::write(&file, bytes).unwrap();
    let out = egtb(path, true);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("0m2k-1m0k.wdl"),
        "{}",
        text(&out.stderr)
    );
    // Generating again replaces the damaged file.
    let out = egtb(path, false);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = egtb(path, true);
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn bad_requests_are_refused_clearly() {
    let out = plateau(&["egtb", "ataxx"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("only draughts"),
        "{}",
        text(&out.stderr)
    );
    let out = plateau(&[
        "egtb",
        "draughts",
        "--pieces",
        "9",
        "--egtb-dir",
        "/nonexistent",
    ]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("--pieces 9"),
        "{}",
        text(&out.stderr)
    );
    let empty = tempfile::tempdir().unwrap();
    let out = plateau(&[
        "analyze",
        "draughts",
        "--depth",
        "1",
        "--egtb-dir",
        empty.path().to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("no complete set"),
        "{}",
        text(&out.stderr)
    );
}
