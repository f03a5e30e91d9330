//! `plateau solve`: exact values of small virus boards, and a clear refusal
//! for games without a solver.

use std::process::{Command, Output};

fn plateau(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_plateau"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn the_small_virus_boards_have_their_values() {
    let out = plateau(&["solve", "virus", "--size", "4", "--hash", "16"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("value      -8 for black (to move): white wins by 8"),
        "{stdout}"
    );
    assert!(stdout.contains("best move  "), "{stdout}");
    let stderr = text(&out.stderr);
    assert!(stderr.contains("probe value >= "), "{stderr}");
    assert!(stderr.contains("12 empty cells"), "{stderr}");

    let out = plateau(&["solve", "virus", "--size", "5", "--hash", "64"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("value      +7 for black (to move): black wins by 7"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn positions_and_moves_are_solved_from_the_side_to_move() {
    let out = plateau(&[
        "solve",
        "virus",
        "--variant",
        "4x4",
        "--position",
        "xxo1/xxox/xxox/1xox x",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("value      +12 for black"), "{stdout}");
    assert!(stdout.contains("best move  d4"), "{stdout}");

    let out = plateau(&["solve", "virus", "--size", "4", "--moves", "b3"]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("for white (to move), ") && stdout.contains(" for black: "),
        "{stdout}"
    );
}

#[test]
fn limits_and_refusals_are_plain() {
    let out = plateau(&["solve", "virus", "--size", "6", "--time-limit", "0.3"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("value      unknown (limit reached)"),
        "{stdout}"
    );
    assert!(text(&out.stderr).contains("stopped at the limit"));

    let out = plateau(&["solve", "draughts"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("draughts has no exact solver"));

    let out = plateau(&["solve", "virus", "--size", "9"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("too large"));

    for bad in [
        &[
            "solve",
            "virus",
            "--size",
            "5",
            "--position",
            "x2o/4/4/o2x x",
        ][..],
        &["solve", "virus", "--size", "5", "--time-limit", "-1"][..],
        &["solve", "virus", "--size", "5", "--hash", "0"][..],
        &["solve", "virus", "--size", "5", "--variant", "4x4"][..],
    ] {
        let out = plateau(bad);
        assert!(!out.status.success(), "{bad:?}");
        assert!(!text(&out.stderr).is_empty());
    }
}

/// A file name in the temporary directory, unique to this test process.
fn temp_file(name: &str) -> String {
    std::env::temp_dir()
        .join(format!("plateau-cli-solve-{}-{name}", std::process::id()))
        .display()
        .to_string()
}

#[test]
fn a_solve_resumes_from_its_checkpoint_and_its_certificate_checks() {
    let position = "xx2oo/1x1o2/1xo3/6/3oo1/ooooox x";
    let checkpoint = temp_file("run.ckpt");
    let certificate = temp_file("run.cert");
    let _ = std::fs::remove_file(&checkpoint);
    let run = |extra: &[&str]| {
        let mut args = vec![
            "solve",
            "virus",
            "--position",
            position,
            "--hash",
            "16",
            "--threads",
            "2",
            "--checkpoint",
            &checkpoint,
        ];
        args.extend_from_slice(extra);
        plateau(&args)
    };
    // A first piece too short to finish, then the same command carries on.
    let first = run(&["--time-limit", "0.001"]);
    assert!(first.status.success(), "{}", text(&first.stderr));
    assert!(
        text(&first.stderr).contains("entries written"),
        "{}",
        text(&first.stderr)
    );
    let second = run(&["--certificate", &certificate, "--certificate-leaf", "10"]);
    assert!(second.status.success(), "{}", text(&second.stderr));
    let stderr = text(&second.stderr);
    assert!(stderr.contains("table entries read"), "{stderr}");
    assert!(stderr.contains("resuming: bounds"), "{stderr}");
    let stdout = text(&second.stdout);
    assert!(stdout.contains("in all "), "{stdout}");
    let value_line = stdout.lines().find(|l| l.starts_with("value")).unwrap();
    let value = value_line.split_whitespace().nth(1).unwrap().to_string();
    assert!(stdout.contains("certificate "), "{stdout}");

    let check = plateau(&["solve", "--verify", &certificate]);
    assert!(check.status.success(), "{}", text(&check.stderr));
    let stdout = text(&check.stdout);
    assert!(stdout.contains("game       virus/6x6"), "{stdout}");
    assert!(
        stdout.contains(&format!("value      {value} for black (to move): proven")),
        "{value}: {stdout}"
    );

    // A damaged certificate is refused, naming why.
    let mut bytes = std::fs::read(&certificate).unwrap();
    bytes.pop();
    std::fs::write(&certificate, &bytes).unwrap();
    let check = plateau(&["solve", "--verify", &certificate]);
    assert!(!check.status.success());
    assert!(
        text(&check.stderr).contains("rejected"),
        "{}",
        text(&check.stderr)
    );

    // A checkpoint of another position is refused.
    let other = plateau(&[
        "solve",
        "virus",
        "--position",
        "x4o/6/6/4xx/oo3x/ooo1xx x",
        "--hash",
        "16",
        "--checkpoint",
        &checkpoint,
    ]);
    assert!(!other.status.success());
    assert!(
        text(&other.stderr).contains("is for the position"),
        "{}",
        text(&other.stderr)
    );

    for path in [&checkpoint, &certificate] {
        std::fs::remove_file(path).unwrap();
    }
    let missing = plateau(&["solve", "--verify", &certificate]);
    assert!(!missing.status.success());
    assert!(
        text(&missing.stderr).contains("cannot read"),
        "{}",
        text(&missing.stderr)
    );
}
