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
