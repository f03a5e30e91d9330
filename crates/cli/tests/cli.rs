//! The binary as users run it: outputs, exit codes and messages.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn plateau(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_plateau"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn plateau_with_input(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_plateau"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("input written");
    child.wait_with_output().expect("the binary ends")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn last_line(text: &str) -> &str {
    text.lines().last().unwrap_or("")
}

#[test]
fn perft_prints_the_bare_count_last() {
    let out = plateau(&[
        "perft",
        "escampe",
        "--position",
        "n1N1n1/1n1n1n/6/6/1Bb1bb/bb4 w -",
        "--depth",
        "4",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(last_line(&stdout(&out)), "4140");
}

#[test]
fn perft_divide_lists_every_move_then_the_total() {
    let out = plateau(&[
        "perft",
        "escampe",
        "--position",
        "n1N1n1/1n1n1n/6/6/1Bb1bb/bb4 w -",
        "--depth",
        "2",
        "--divide",
    ]);
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 25, "24 moves and the total");
    assert_eq!(*lines.last().unwrap(), "109");
    let sum: u64 = lines[..24]
        .iter()
        .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 109);
}

#[test]
fn perft_after_moves_from_the_start() {
    let out = plateau(&[
        "perft",
        "escampe",
        "--moves",
        "C6/A6/B5/D5/E6/F5 B2/A1/B1/C2/E2/F2",
        "--depth",
        "3",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(last_line(&stdout(&out)), "588");
}

#[test]
fn show_ends_with_the_position_text_and_draws_the_liseres() {
    let out = plateau(&[
        "show",
        "escampe",
        "--position",
        "n1B2b/2b3/b1nn2/5b/2b3/nnN3 w 2",
        "--moves",
        "F6-E5",
    ]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert_eq!(last_line(&text), "n1B3/2b1b1/b1nn2/5b/2b3/nnN3 b 1");
    assert!(
        text.contains(" n1  n2  N2 "),
        "row 1 with its liserés:\n{text}"
    );
    assert!(text.contains("1 legal move"));
}

#[test]
fn an_illegal_move_names_the_ply_the_move_and_the_reason() {
    let out = plateau(&[
        "show",
        "escampe",
        "--position",
        "n1N1n1/1n1n1n/6/6/1Bb1bb/bb4 w 3",
        "--moves",
        "A2-A5 A1-A2",
    ]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("ply 1: A2-A5: there is no piece on A2"),
        "{err}"
    );
    let out = plateau(&[
        "show",
        "escampe",
        "--position",
        "n1N1n1/1n1n1n/6/6/1Bb1bb/bb4 w -",
        "--moves",
        "A1-A2 B5-C3 A2-A3",
    ]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("ply 3: A2-A3: A2 has liseré 3, the constraint is 1"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn bad_positions_files_and_games_are_clear_errors() {
    let out = plateau(&["show", "escampe", "--position", "nonsense"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("bad --position"), "{}", stderr(&out));

    let out = plateau(&["show", "chess"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("unknown game"));

    let out = plateau(&["show", "escampe", "--file", "/nonexistent/file"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("cannot read"));
}

/// A 5x5 virus position, x to move (7 drops; 49 leaves at depth 2).
const VIRUS_5X5: &str = "xx2o/5/5/o4/o3x x";

#[test]
fn a_position_of_another_board_size_chooses_the_virus_variant() {
    let out = plateau(&["perft", "virus", "--position", VIRUS_5X5, "--depth", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(last_line(&stdout(&out)), "49");
    // The same count as on the 5x5 variant named outright.
    let named = plateau(&["perft", "virus/5x5", "--position", VIRUS_5X5, "-d", "2"]);
    assert!(named.status.success(), "{}", stderr(&named));
    assert_eq!(last_line(&stdout(&named)), "49");

    let out = plateau(&["show", "virus", "--position", VIRUS_5X5]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("    a b c d e\n"), "{}", stdout(&out));
    assert!(stdout(&out).contains("7 legal moves"), "{}", stdout(&out));

    // Engines are built for the board the position chose (a 9x9 board needs
    // the wide one).
    let nine = "x7o/9/9/9/9/9/9/9/o7x x";
    let out = plateau(&[
        "analyze",
        "virus",
        "--position",
        nine,
        "--depth",
        "2",
        "--threads",
        "1",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        last_line(&stdout(&out)).starts_with("bestmove "),
        "{}",
        stdout(&out)
    );
}

#[test]
fn an_explicit_variant_refuses_a_position_of_another_size() {
    for args in [
        &[
            "perft",
            "virus/7x7",
            "--position",
            VIRUS_5X5,
            "--depth",
            "1",
        ][..],
        &[
            "perft",
            "virus",
            "--variant",
            "7x7",
            "--position",
            VIRUS_5X5,
            "--depth",
            "1",
        ],
    ] {
        let out = plateau(args);
        assert!(!out.status.success(), "{args:?}");
        let err = stderr(&out);
        assert!(
            err.contains("the position is on a 5x5 board but the variant is 7x7"),
            "{err}"
        );
    }
}

#[test]
fn a_virus_game_without_a_position_keeps_the_default_board() {
    let out = plateau(&["show", "virus"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(last_line(&stdout(&out)), "x5o/7/7/7/7/7/o5x x");
    // A position of the default's own size stays on it.
    let out = plateau(&[
        "perft",
        "virus",
        "--position",
        "x5o/7/7/7/7/7/o5x x",
        "-d",
        "1",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(last_line(&stdout(&out)), "6");
}

#[test]
fn a_saved_virus_file_chooses_its_board_too() {
    let dir = std::env::temp_dir().join(format!("plateau-cli-virus-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("virus.txt");
    std::fs::write(&path, format!("{VIRUS_5X5}\n")).unwrap();
    let path_text = path.to_str().unwrap();
    let out = plateau(&["show", "virus", "--file", path_text]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(last_line(&stdout(&out)), VIRUS_5X5);
    let out = plateau_with_input(
        &[
            "play", "virus", "--load", path_text, "--white", "human", "--black", "human",
        ],
        "moves\nquit\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("    a b c d e\n"), "{}", stdout(&out));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_saved_game_reloads_exactly() {
    let dir = std::env::temp_dir().join(format!("plateau-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.txt");
    let path_text = path.to_str().unwrap();
    let out = plateau_with_input(
        &[
            "play", "escampe", "--white", "human", "--black", "human", "--save", path_text,
        ],
        "C6/A6/B5/D5/E6/F5\nB2/A1/B1/C2/E2/F2\nnot-a-move\nA1-A2\nquit\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("illegal: not-a-move"));
    let out = plateau(&["show", "escampe", "--file", path_text]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(last_line(&stdout(&out)), "n1N1n1/1n1n1n/6/6/bBb1bb/1b4 b 3");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn random_players_finish_a_game() {
    let out = plateau_with_input(
        &[
            "play", "escampe", "--white", "random", "--black", "random", "--seed", "7",
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("Game over:"));
}

#[test]
fn help_explains_the_subcommands() {
    let out = plateau(&["--help"]);
    let text = stdout(&out);
    for word in ["perft", "show", "play", "games"] {
        assert!(text.contains(word), "--help mentions {word}");
    }
    let out = plateau(&["games"]);
    assert!(stdout(&out).contains("escampe"));
}

/// `plateau analyze` at depth 3 of an Escampe position White wins in two
/// (the third move takes the unicorn), with `extra` options: its output.
fn analyze_escampe_win_in_two(extra: &[&str]) -> String {
    let mut args = vec![
        "analyze",
        "escampe",
        "--position",
        "n1B2b/2b3/b1nn2/5b/2b3/nnN3 w 2",
        "--depth",
        "3",
        "--engine",
        "expert",
    ];
    args.extend_from_slice(extra);
    let out = plateau(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    stdout(&out)
}

#[test]
fn analyze_prints_info_per_depth_then_bestmove() {
    let text = analyze_escampe_win_in_two(&[]);
    let lines: Vec<&str> = text.lines().collect();
    let best = lines
        .last()
        .unwrap()
        .strip_prefix("bestmove ")
        .expect("bestmove last");
    assert!(["F6-E5", "F6-F4", "F6-D6"].contains(&best), "{best}");
    assert!(
        lines[..lines.len() - 1]
            .iter()
            .all(|l| l.starts_with("info depth "))
    );
    assert!(text.contains("score win-in-2"), "{text}");
}

#[test]
fn analyze_refuses_a_finished_game_and_unknown_engines() {
    let out = plateau(&[
        "analyze",
        "escampe",
        "--position",
        "n1B2b/2b3/b1nn2/5b/2b3/nnN3 w 2",
        "--moves",
        "F6-E5 A1-A2 C2-C1",
    ]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("game is over"), "{}", stderr(&out));
    let out = plateau(&["analyze", "escampe", "--engine", "grandmaster"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("unknown engine"), "{}", stderr(&out));
}

#[test]
fn annotate_goes_through_a_game_move_by_move() {
    let text = analyze_escampe_win_in_two(&["--moves", "F6-E5 A1-A2 C2-C1", "--annotate"]);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].contains("played") && lines[0].contains("cost"),
        "{text}"
    );
    let moves: Vec<Vec<&str>> = lines[1..4]
        .iter()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(
        moves.iter().map(|m| (m[0], m[1], m[2])).collect::<Vec<_>>(),
        [
            ("1", "white", "F6-E5"),
            ("2", "black", "A1-A2"),
            ("3", "white", "C2-C1")
        ],
        "{text}"
    );
    // The move that ends the game is scored by the result, and the winning
    // line costs White nothing.
    assert_eq!(moves[2].iter().rev().nth(1), Some(&"won"), "{text}");
    assert_eq!(moves[0].last(), Some(&"0"), "{text}");
    assert!(lines[4].starts_with("result: white wins"), "{text}");
    assert!(lines[5].starts_with("costliest moves"), "{text}");
}

/// `plateau analyze GAME --file FILE --annotate` at depth 2: its output.
fn annotate_file(game: &str, file: &str) -> String {
    let out = plateau(&[
        "analyze",
        game,
        "--file",
        file,
        "--annotate",
        "--depth",
        "2",
        "--threads",
        "1",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    stdout(&out)
}

#[test]
fn annotate_reads_pdn_and_match_records_and_names_bad_moves() {
    let dir = tempfile::tempdir().unwrap();
    let pdn = dir.path().join("game.pdn");
    std::fs::write(
        &pdn,
        "[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n1. 32-28 19-23 2. 28x19 14x23 *\n",
    )
    .unwrap();
    let pdn = pdn.to_str().unwrap();
    let text = annotate_file("draughts", pdn);
    let played: Vec<&str> = text
        .lines()
        .skip(1)
        .take(4)
        .map(|l| l.split_whitespace().nth(2).unwrap_or(""))
        .collect();
    assert_eq!(played, ["32-28", "19-23", "28x19", "14x23"], "{text}");
    assert!(text.contains("costliest moves"), "{text}");
    // Without --annotate the same file is its last position.
    let out = plateau(&["analyze", "draughts", "--file", pdn, "--depth", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));

    // A record as `plateau match --record` writes it, two games in the file:
    // the first is read.
    let record = dir.path().join("games.txt");
    std::fs::write(
        &record,
        "# event: a match, game 1\n# start: x5o/7/7/7/7/7/o5x x 0 1\n1. f2 b2 2. g1e3 *\n\n\
         # event: a match, game 2\n# start: x5o/7/7/7/7/7/o5x x 0 1\n1. f1 *\n",
    )
    .unwrap();
    let text = annotate_file("ataxx", record.to_str().unwrap());
    let plies: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|word| word.parse::<u32>().is_ok())
        .collect();
    assert_eq!(plies, ["1", "2", "3"], "{text}");

    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "# start: x5o/7/7/7/7/7/o5x x 0 1\n1. f2 b2 2. f2 *\n").unwrap();
    let out = plateau(&[
        "analyze",
        "ataxx",
        "--file",
        bad.to_str().unwrap(),
        "--annotate",
    ]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("ply 3: f2"), "{}", stderr(&out));
    let out = plateau(&["analyze", "ataxx", "--annotate", "--depth", "2"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("--annotate needs a game"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn bench_node_counts_repeat_exactly() {
    let run = || {
        let out = plateau(&["bench", "escampe", "--depth", "6"]);
        assert!(out.status.success(), "{}", stderr(&out));
        let last = last_line(&stdout(&out)).to_string();
        last.split_whitespace()
            .next()
            .unwrap()
            .parse::<u64>()
            .unwrap()
    };
    let first = run();
    assert!(first > 1000);
    assert_eq!(first, run());
}

/// `bench --suite` searches a suite's positions and says which are solved;
/// a bad suite file is refused naming its line.
#[test]
fn bench_runs_a_suite_and_refuses_a_bad_one() {
    let dir = tempfile::tempdir().unwrap();
    let suite = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../games/suites/draughts-combinations.txt")
        .display()
        .to_string();
    let out = plateau(&["bench", "draughts", "--suite", &suite, "--depth", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines = text
        .lines()
        .filter(|line| line.starts_with("line "))
        .count();
    assert_eq!(lines, 40, "{text}");
    assert!(
        last_line(&text).contains("solved at depth 1 by master"),
        "{text}"
    );
    // A node limit is the same search on every machine: two runs agree.
    let by_nodes = || {
        let out = plateau(&["bench", "draughts", "--suite", &suite, "--nodes", "3000"]);
        assert!(out.status.success(), "{}", stderr(&out));
        let text = stdout(&out);
        assert!(
            last_line(&text).contains("solved within 3000 nodes by master"),
            "{text}"
        );
        text.lines()
            .filter(|line| line.starts_with("line "))
            .map(|line| {
                // Everything but the wall time of "found at 0.012 s".
                let (head, rest) = line.split_once(" found at").unwrap_or((line, ""));
                format!(
                    "{head} {}",
                    rest.split_once(" s ").map_or(rest, |(_, tail)| tail)
                )
            })
            .collect::<Vec<_>>()
    };
    let first = by_nodes();
    assert_eq!(first.len(), 40);
    assert_eq!(first, by_nodes());
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "# a shot\nW:W32:B19 ; bm 32-37\n").unwrap();
    let bad = bad.display().to_string();
    let out = plateau(&["bench", "draughts", "--suite", &bad]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("line 2: bad move 32-37"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_small_match_reports_wins_draws_losses_and_elo() {
    let out = plateau(&[
        "match",
        "escampe",
        "--engine",
        "strong",
        "--engine",
        "random",
        "--games",
        "4",
        "--depth",
        "3",
        "--concurrency",
        "2",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("strong vs random (escampe), 4 games\n"),
        "{text}"
    );
    for label in ["W/D/L   +", "Elo     ", "LOS     ", "pairs   LL "] {
        assert!(text.contains(label), "{label} missing: {text}");
    }
    assert_eq!(stderr(&out).matches("game ").count(), 4, "{}", stderr(&out));
    let out = plateau(&["match", "escampe", "--engine", "strong"]);
    assert!(!out.status.success());
}

#[test]
fn play_with_engines_on_both_sides() {
    let out = plateau_with_input(
        &[
            "play", "escampe", "--white", "medium", "--black", "beginner", "--seed", "3",
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("white (medium) plays"), "{text}");
    assert!(text.contains("Game over:"), "{text}");
}

#[test]
fn thread_counts_out_of_range_are_refused_naming_the_flag() {
    for command in [
        &["analyze", "ataxx"][..],
        &["play", "ataxx"],
        &["hub"],
        &["uai"],
        &["dxp", "--listen", "0"],
        &["escampe-client", "--port", "1"],
        &["bench", "ataxx"],
    ] {
        for bad in ["0", "abc", "100000"] {
            let mut args = command.to_vec();
            args.extend(["--threads", bad]);
            let out = plateau(&args);
            assert!(!out.status.success(), "{args:?} was accepted");
            let text = stderr(&out);
            assert!(text.contains("--threads"), "{args:?}: {text}");
            assert!(
                text.contains("number of threads from 1 to"),
                "{args:?}: {text}"
            );
        }
    }
}

#[test]
fn analyze_with_two_threads_prints_a_legal_bestmove() {
    let out = plateau(&["analyze", "ataxx", "--depth", "5", "--threads", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let best = last_line(&text)
        .strip_prefix("bestmove ")
        .unwrap_or_else(|| panic!("bestmove last: {text}"));
    let legal = plateau_games::GameSpec::lookup("ataxx", None)
        .unwrap()
        .new_game()
        .legal_moves();
    assert!(legal.contains(&best.to_string()), "{best}");
    assert!(text.contains("info depth 5 "), "{text}");
}

#[test]
fn bench_with_threads_compares_one_thread_with_n() {
    let out = plateau(&["bench", "ataxx", "--depth", "4", "--threads", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let summary = text
        .lines()
        .find(|l| l.starts_with("ataxx: "))
        .unwrap_or_else(|| panic!("a summary line for ataxx: {text}"));
    for part in [
        "depth 4",
        " 1T ",
        " 2T ",
        "ratio",
        "median ratio",
        "nps 1T",
        "nps 2T",
    ] {
        assert!(summary.contains(part), "{part:?} missing: {summary}");
    }
    let positions = stderr(&out)
        .lines()
        .filter(|l| l.starts_with("ataxx ") && l.contains(" ratio "))
        .count();
    assert!(positions > 0, "{}", stderr(&out));
    // The one-thread half is the plain bench: its node total is the signature.
    let plain = plateau(&["bench", "ataxx", "--depth", "4"]);
    assert!(plain.status.success(), "{}", stderr(&plain));
    let first_word = |text: &str| last_line(text).split(' ').next().unwrap().to_string();
    assert_eq!(first_word(&text), first_word(&stdout(&plain)));
    assert!(last_line(&text).contains("2 threads: "), "{text}");

    // The comparison sets both counts itself.
    let out = plateau(&[
        "bench",
        "ataxx",
        "--depth",
        "2",
        "--threads",
        "2",
        "--engine",
        "expert,threads=4",
    ]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("threads="), "{}", stderr(&out));
}

#[test]
fn datagen_stops_at_its_time_limit_and_the_same_command_continues() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("virus.data");
    let out_text = out.to_str().unwrap();
    let run = |minutes: &str| {
        plateau(&[
            "datagen",
            "virus/5x5",
            "--games",
            "1000000",
            "--nodes",
            "200",
            "--threads",
            "2",
            "--out",
            out_text,
            "--minutes",
            minutes,
        ])
    };
    let games_in = |text: &str| -> u64 {
        let (_, rest) = text.split_once(": ").unwrap_or_else(|| panic!("{text}"));
        rest.split(' ').next().unwrap().parse().unwrap()
    };
    // 0.6 s: far fewer games than asked, every one of them written.
    let first = run("0.01");
    assert!(first.status.success(), "{}", stderr(&first));
    assert!(
        stderr(&first).contains("of 1000000 games; run the same command again to continue"),
        "{}",
        stderr(&first)
    );
    let played = games_in(&stdout(&first));
    assert!((1..1_000_000).contains(&played), "{}", stdout(&first));
    let again = run("0.01");
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(
        stderr(&again).contains(&format!("holds {played} games")),
        "{}",
        stderr(&again)
    );
    assert!(games_in(&stdout(&again)) > played, "{}", stdout(&again));
    for bad in ["0", "-1", "nan"] {
        let refused = run(bad);
        assert!(!refused.status.success(), "--minutes {bad}");
        assert!(
            stderr(&refused).contains("--minutes"),
            "{}",
            stderr(&refused)
        );
    }
}

#[test]
fn datagen_writes_continues_and_describes_its_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("virus.data");
    let out_text = out.to_str().unwrap();
    let run = |games: &str| {
        plateau(&[
            "datagen",
            "virus/5x5",
            "--games",
            games,
            "--nodes",
            "200",
            "--threads",
            "2",
            "--out",
            out_text,
            "--seed",
            "4",
        ])
    };
    let first = run("2");
    assert!(first.status.success(), "{}", stderr(&first));
    assert!(stdout(&first).contains(": 2 games,"), "{}", stdout(&first));
    let second = run("4");
    assert!(second.status.success(), "{}", stderr(&second));
    assert!(
        stderr(&second).contains("continuing") && stderr(&second).contains("holds 2 games"),
        "{}",
        stderr(&second)
    );
    assert!(
        stdout(&second).contains(": 4 games,"),
        "{}",
        stdout(&second)
    );
    let again = run("4");
    assert!(
        stdout(&again).contains("nothing to do"),
        "{}",
        stdout(&again)
    );

    let info = plateau(&["data", "info", out_text]);
    assert!(info.status.success(), "{}", stderr(&info));
    assert!(
        stdout(&info).contains("virus/5x5, 4 games"),
        "{}",
        stdout(&info)
    );
    assert!(
        stdout(&info).contains("format version 2 (packed)"),
        "{}",
        stdout(&info)
    );

    // Another game's file is not continued, and says why.
    let wrong = plateau(&[
        "datagen", "ataxx", "--games", "1", "--nodes", "100", "--out", out_text,
    ]);
    assert!(!wrong.status.success());
    assert!(
        stderr(&wrong).contains("holds virus/5x5 positions, not ataxx"),
        "{}",
        stderr(&wrong)
    );

    let merged = dir.path().join("merged.data");
    let merge = plateau(&[
        "data",
        "merge",
        "--out",
        merged.to_str().unwrap(),
        "--shuffle",
        out_text,
    ]);
    assert!(merge.status.success(), "{}", stderr(&merge));
    assert!(stdout(&merge).contains("shuffled"), "{}", stdout(&merge));

    // Whole games can be held back from the datagen file, not from the
    // merged one, whose blocks are not games.
    let train = |data: &str, net: &str| {
        plateau(&[
            "train",
            "virus/5x5",
            "--data",
            data,
            "--out",
            net,
            "--hold-out",
            "games",
            "--validation",
            "0.25",
            "--hidden",
            "8",
            "--epochs",
            "1",
            "--threads",
            "1",
        ])
    };
    let net = dir.path().join("held.net");
    let held = train(out_text, net.to_str().unwrap());
    assert!(held.status.success(), "{}", stderr(&held));
    let refused = train(merged.to_str().unwrap(), net.to_str().unwrap());
    assert!(!refused.status.success());
    assert!(
        stderr(&refused).contains("merged or shuffled data, whose blocks are not games"),
        "{}",
        stderr(&refused)
    );

    let text = dir.path().join("not-data.txt");
    std::fs::write(&text, "hello").unwrap();
    let bad = plateau(&["data", "info", text.to_str().unwrap()]);
    assert!(!bad.status.success());
    assert!(
        stderr(&bad).contains("not a plateau training-data file"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn train_reads_an_input_set_with_symmetries_and_the_network_plays() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("ataxx.data");
    let data_text = data.to_str().unwrap();
    let generated = plateau(&[
        "datagen",
        "ataxx",
        "--games",
        "6",
        "--nodes",
        "200",
        "--threads",
        "1",
        "--gaps",
        "0.5",
        "--out",
        data_text,
    ]);
    assert!(generated.status.success(), "{}", stderr(&generated));
    assert!(
        stderr(&generated).contains("50% from random gap layouts"),
        "{}",
        stderr(&generated)
    );

    let net = dir.path().join("blocks.net");
    let net_text = net.to_str().unwrap();
    let train = plateau(&[
        "train",
        "ataxx",
        "--data",
        data_text,
        "--out",
        net_text,
        "--inputs",
        "blocks",
        "--activation",
        "screlu",
        "--symmetries",
        "8",
        "--hidden",
        "16",
        "--epochs",
        "1",
        "--threads",
        "1",
    ]);
    assert!(train.status.success(), "{}", stderr(&train));
    assert!(
        stderr(&train).contains(
            "8 images each, read through the symmetries' input maps; inputs blocks, 4033"
        ),
        "{}",
        stderr(&train)
    );
    assert!(
        stdout(&train).contains("blocks 4033x16 screlu"),
        "{}",
        stdout(&train)
    );

    // A second run starts from the first network and takes its shape.
    let further = dir.path().join("further.net");
    let further_text = further.to_str().unwrap();
    let more = plateau(&[
        "train",
        "ataxx",
        "--data",
        data_text,
        "--out",
        further_text,
        "--init",
        net_text,
        "--epochs",
        "1",
        "--threads",
        "1",
        "--lr",
        "0.0003",
    ]);
    assert!(more.status.success(), "{}", stderr(&more));
    assert!(
        stderr(&more).contains(&format!("starting from {net_text}")),
        "{}",
        stderr(&more)
    );
    // The starting network's loss on the new data comes before the epochs.
    let events = stderr(&more);
    let start_line = events
        .find("epoch   0/1: the starting network, validation loss ")
        .unwrap_or_else(|| panic!("{events}"));
    assert!(
        events.find("epoch   1/1: train loss ") > Some(start_line),
        "{events}"
    );
    assert!(
        stdout(&more).contains("blocks 4033x16 screlu"),
        "{}",
        stdout(&more)
    );
    // Its stored recipe reruns as written: --init in place of --scale, and
    // the starting network's own recipe after it.
    let stored = String::from_utf8_lossy(&std::fs::read(&further).unwrap()).into_owned();
    assert!(
        stored.contains(&format!("--init {net_text} --seed")),
        "{stored}"
    );
    assert!(stored.contains("; the starting network, hash "), "{stored}");
    assert_eq!(
        stored.matches("--scale").count(),
        1,
        "the first run's only: {stored}"
    );
    let virus_net = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../games/nets/virus-7x7-blocks-4033x128-3303f4d7d30de7fc.net"
    );
    for (extra, says) in [
        (
            vec!["--init", net_text, "--hidden", "32"],
            "that network is blocks 4033x16 screlu; it cannot start a blocks 4033x32 screlu one",
        ),
        (
            vec!["--init", net_text, "--inputs", "cells"],
            "it cannot start a cells 192x16 screlu one",
        ),
        (
            vec!["--init", net_text, "--scale", "300"],
            "keeps its scale",
        ),
        (
            vec!["--init", virus_net],
            "this network evaluates virus/7x7, not ataxx",
        ),
        (vec!["--init", data_text], "--init"),
    ] {
        let mut args = vec!["train", "ataxx", "--data", data_text, "--out", further_text];
        args.extend(extra.iter().copied());
        let bad = plateau(&args);
        assert!(!bad.status.success(), "{extra:?}");
        assert!(stderr(&bad).contains(says), "{extra:?}: {}", stderr(&bad));
    }

    let engine = format!("master,net={net_text}");
    let analyze = plateau(&["analyze", "ataxx", "--depth", "3", "--engine", &engine]);
    assert!(analyze.status.success(), "{}", stderr(&analyze));
    assert!(
        stdout(&analyze).contains("bestmove "),
        "{}",
        stdout(&analyze)
    );

    // Bad choices are named.
    for (flag, value, says) in [
        (
            "--inputs",
            "pictures",
            "has no input set \"pictures\"; its sets are cells, blocks",
        ),
        (
            "--activation",
            "tanh",
            "the activations are crelu and screlu",
        ),
        ("--symmetries", "9", "--symmetries 9: ataxx has 8"),
    ] {
        let bad = plateau(&[
            "train", "ataxx", "--data", data_text, "--out", net_text, flag, value,
        ]);
        assert!(!bad.status.success());
        assert!(
            stderr(&bad).contains(says),
            "{flag} {value}: {}",
            stderr(&bad)
        );
    }
    let virus_gaps = plateau(&[
        "datagen", "virus", "--games", "1", "--gaps", "0.5", "--out", data_text,
    ]);
    assert!(!virus_gaps.status.success());
    assert!(
        stderr(&virus_gaps).contains("has no gap layouts"),
        "{}",
        stderr(&virus_gaps)
    );
}
