//! The exact solver against plain minimax, hand-checked positions, and the
//! values of the small boards.

use plateau_ataxx::Virus;
use plateau_ataxx::solve::certificate::{Certificate, verify, verify_with_threads};
use plateau_ataxx::solve::{Solution, SolveOptions, Solver, solve};
use plateau_core::{Game, MoveList, Rng, Side};

fn virus(text: &str) -> Virus {
    Virus::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The final stone difference for the side to move under perfect play, by
/// plain minimax over the rules' own moves: no pruning, no table, nothing to
/// get wrong but the rules.
fn minimax(game: &mut Virus) -> i32 {
    if let Some(black) = game.final_score() {
        return match game.side_to_move() {
            Side::Black => black,
            Side::White => -black,
        };
    }
    let mut list = MoveList::new();
    game.legal_moves(&mut list);
    let mut best = i32::MIN;
    for &mv in list.iter() {
        game.play(mv);
        best = best.max(-minimax(game));
        game.undo(mv);
    }
    best
}

fn solved(game: &Virus) -> Solution {
    let options = SolveOptions {
        table_mb: 16,
        ..SolveOptions::default()
    };
    solve(game, &options, &mut |_| {})
}

/// Plays the solution's line and checks that it ends on the value it claims.
fn check_line(game: &Virus, solution: &Solution) {
    let value = solution.value().expect("solved");
    let mut line = game.clone();
    for &mv in &solution.pv {
        let mut list = MoveList::new();
        line.legal_moves(&mut list);
        assert!(list.contains(&mv), "{mv} is illegal in {}", line.to_text());
        line.play(mv);
    }
    let black = line
        .final_score()
        .unwrap_or_else(|| panic!("the line stops before the end: {}", line.to_text()));
    assert_eq!(solution.for_black(value), black, "line {:?}", solution.pv);
    assert_eq!(solution.pv.first(), solution.best.as_ref());
}

#[test]
fn the_4x4_game_is_a_white_win_by_8_by_two_methods() {
    let start = Virus::new(4).unwrap();
    let exact = minimax(&mut start.clone());
    assert_eq!(exact, -8);
    for symmetry in [true, false] {
        let options = SolveOptions {
            table_mb: 16,
            symmetry,
            ..SolveOptions::default()
        };
        let solution = solve(&start, &options, &mut |_| {});
        assert_eq!(solution.value(), Some(-8), "symmetry {symmetry}");
        check_line(&start, &solution);
        // Every move loses by 8 at best: the one chosen keeps exactly that.
        let mut after = start.clone();
        after.play(solution.best.unwrap());
        assert_eq!(minimax(&mut after), 8);
    }
}

#[test]
fn walling_the_opponent_in_beats_the_quiet_drop() {
    // x x o .      Black to move; the empty cells are a1 and d4.
    // x x o x      - a1 turns nothing (no white stone next to it); White
    // x x o x        answers d4, turning d3: 10 black, 6 white, +4.
    // . x o x      - d4 turns c4 and c3: 13 black, 2 white; White's stones
    //                (c2, c1) touch no empty cell, so White has no drop, the
    //                game ends and a1 counts for Black: 14 - 2 = +12.
    let game = virus("xxo1/xxox/xxox/1xox x");
    let solution = solved(&game);
    assert_eq!(solution.value(), Some(12));
    assert_eq!(solution.best.map(|m| m.to_string()).as_deref(), Some("d4"));
    assert_eq!(solution.pv.len(), 1);
    check_line(&game, &solution);

    // The same position with the colours swapped, White to move: +12 for
    // White, -12 seen from Black.
    let game = virus("oox1/ooxo/ooxo/1oxo o");
    let solution = solved(&game);
    assert_eq!(solution.value(), Some(12));
    assert_eq!(solution.for_black(12), -12);
}

#[test]
fn the_solver_agrees_with_minimax_on_random_positions() {
    let mut rng = Rng::new(7);
    let mut checked = 0;
    for (size, plies, games) in [(4, 2, 40), (5, 12, 40), (6, 24, 15)] {
        for _ in 0..games {
            let game = random_position(&mut rng, size, plies);
            let solution = solved(&game);
            assert_eq!(
                solution.value(),
                Some(minimax(&mut game.clone())),
                "{}",
                game.to_text()
            );
            if game.final_score().is_none() {
                check_line(&game, &solution);
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 95);
}

#[test]
fn the_5x5_game_is_a_black_win_by_7() {
    let start = Virus::new(5).unwrap();
    let solution = solved(&start);
    assert_eq!(solution.value(), Some(7));
    check_line(&start, &solution);
    let mirrored = SolveOptions {
        table_mb: 16,
        symmetry: false,
        ..SolveOptions::default()
    };
    assert_eq!(solve(&start, &mirrored, &mut |_| {}).value(), Some(7));
}

#[test]
fn a_time_limit_reports_bounds_and_never_a_wrong_value() {
    let start = Virus::new(6).unwrap();
    let options = SolveOptions {
        table_mb: 16,
        time_limit: Some(std::time::Duration::from_millis(200)),
        ..SolveOptions::default()
    };
    let mut lines = Vec::new();
    let solution = solve(&start, &options, &mut |p| lines.push(p.to_string()));
    assert!(solution.lower <= solution.upper);
    assert!(solution.lower >= -36 && solution.upper <= 36);
    assert!(solution.pv.is_empty() || solution.value().is_some());
    assert!(lines[0].contains("32 empty cells"), "{lines:?}");
}

/// A random position of an `size x size` board after `plies` random drops.
fn random_position(rng: &mut Rng, size: usize, plies: usize) -> Virus {
    let mut list = MoveList::new();
    let mut game = Virus::new(size).unwrap();
    for _ in 0..plies {
        game.legal_moves(&mut list);
        match rng.choose(&list[..]) {
            Some(&mv) => game.play(mv),
            None => break,
        }
    }
    Virus::from_text(&game.to_text()).unwrap()
}

/// A file name in the temporary directory, unique to this test process.
fn temp_file(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("plateau-solve-{}-{name}", std::process::id()))
}

#[test]
fn threads_sharing_the_table_find_the_same_values() {
    let mut rng = Rng::new(11);
    for _ in 0..12 {
        let game = random_position(&mut rng, 6, 14);
        let alone = solved(&game);
        let options = SolveOptions {
            table_mb: 16,
            threads: 3,
            ..SolveOptions::default()
        };
        let together = solve(&game, &options, &mut |_| {});
        assert_eq!(together.value(), alone.value(), "{}", game.to_text());
        check_line(&game, &together);
    }
}

#[test]
fn a_resumed_solve_finds_what_an_uninterrupted_one_does() {
    let game = virus("xx2oo/1x1o2/1xo3/6/3oo1/ooooox x");
    let whole = solved(&game);
    let value = whole.value().expect("solved");
    assert!(
        whole.nodes > 200_000,
        "too small to interrupt: {}",
        whole.nodes
    );

    let path = temp_file("resume.ckpt");
    let _ = std::fs::remove_file(&path);
    // Three pieces: two stopped by a node limit, the last to the end, each
    // resuming from the checkpoint the one before left.
    let mut pieces = Vec::new();
    for limit in [Some(whole.nodes / 4), Some(whole.nodes / 4), None] {
        let options = SolveOptions {
            table_mb: 16,
            node_limit: limit,
            checkpoint: Some(path.clone()),
            ..SolveOptions::default()
        };
        let mut solver = Solver::new(options);
        if path.exists() {
            let entries = solver.resume(&game, &path).expect("the checkpoint reads");
            assert!(entries > 0);
        }
        pieces.push(solver.solve(&game, &mut |_| {}));
    }
    assert_eq!(
        pieces[0].value(),
        None,
        "the first piece should have been stopped"
    );
    assert!(pieces[1].lower >= pieces[0].lower && pieces[1].upper <= pieces[0].upper);
    let last = pieces.last().unwrap();
    assert_eq!(last.value(), Some(value));
    check_line(&game, last);
    // The earlier runs' work is carried in the checkpoint, not lost.
    assert_eq!(
        last.earlier_nodes,
        pieces[0].nodes + pieces[1].nodes,
        "nodes of the earlier pieces"
    );
    // Resuming a finished solve probes nothing and still names a move that
    // keeps the value, with its line.
    let mut again = Solver::new(SolveOptions {
        table_mb: 16,
        ..SolveOptions::default()
    });
    again.resume(&game, &path).unwrap();
    let done = again.solve(&game, &mut |_| {});
    assert_eq!(done.value(), Some(value));
    assert!(done.best.is_some());
    check_line(&game, &done);
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn a_damaged_or_foreign_checkpoint_is_refused_and_changes_nothing() {
    let game = virus("xx2oo/1x1o2/1xo3/6/3oo1/ooooox x");
    let path = temp_file("damaged.ckpt");
    let options = SolveOptions {
        table_mb: 16,
        node_limit: Some(300_000),
        checkpoint: Some(path.clone()),
        ..SolveOptions::default()
    };
    Solver::new(options).solve(&game, &mut |_| {});
    let good = std::fs::read(&path).unwrap();

    let fresh = || {
        Solver::new(SolveOptions {
            table_mb: 16,
            ..SolveOptions::default()
        })
    };
    // Another position.
    let other = virus("x4o/6/6/4xx/oo3x/ooo1xx x");
    let mut solver = fresh();
    let err = solver.resume(&other, &path).unwrap_err();
    assert!(err.contains("is for the position"), "{err}");
    // Refused before any entry was read: the solve of the other position
    // starts from nothing and is right.
    let solution = solver.solve(&other, &mut |_| {});
    assert_eq!(solution.earlier_nodes, 0);
    assert_eq!(solution.nodes, solved(&other).nodes);
    assert_eq!(solution.value(), solved(&other).value());

    let cases: [(&str, Vec<u8>); 4] = [
        ("damaged", {
            let mut bytes = good.clone();
            let at = bytes.len() - 30;
            bytes[at] ^= 0x10;
            bytes
        }),
        ("truncated", good[..good.len() - 5].to_vec()),
        ("not a plateau checkpoint", b"hello\n\n".to_vec()),
        ("bounds", {
            let text = String::from_utf8_lossy(&good[..200]).to_string();
            let line = text
                .lines()
                .find(|l| l.starts_with("lower "))
                .unwrap()
                .to_string();
            let mut bytes = good.clone();
            let at = good
                .windows(line.len())
                .position(|w| w == line.as_bytes())
                .unwrap();
            bytes.splice(at..at + line.len(), b"lower 99".iter().copied());
            bytes
        }),
    ];
    for (expected, bytes) in cases {
        std::fs::write(&path, &bytes).unwrap();
        let mut solver = fresh();
        let err = solver.resume(&game, &path).unwrap_err();
        assert!(err.contains(expected), "{expected}: {err}");
        // Nothing of the refused file was used: the solve is still right.
        let solution = solver.solve(&game, &mut |_| {});
        assert_eq!(solution.earlier_nodes, 0);
        assert_eq!(solution.value(), solved(&game).value());
    }
    std::fs::remove_file(&path).unwrap();
}

/// Solves `game`, writes its certificate with leaves at `leaf` empty cells,
/// and returns the certificate's bytes.
fn certified(game: &Virus, leaf: u32) -> (Solution, Vec<u8>) {
    let mut solver = Solver::new(SolveOptions {
        table_mb: 16,
        ..SolveOptions::default()
    });
    let solution = solver.solve(game, &mut |_| {});
    let certificate = solver.certificate(game, &solution, leaf).unwrap();
    (solution, certificate.to_bytes())
}

#[test]
fn certificates_of_solved_positions_check_independently() {
    let mut rng = Rng::new(5);
    for (size, plies, leaf) in [(5, 6, 6), (6, 16, 8), (6, 18, 10), (6, 14, 12)] {
        for _ in 0..3 {
            let game = random_position(&mut rng, size, plies);
            let (solution, bytes) = certified(&game, leaf);
            let value = solution.value().unwrap();
            let checked = verify(&bytes).unwrap_or_else(|e| panic!("{}: {e}", game.to_text()));
            assert_eq!((checked.lower, checked.upper), (value, value));
            assert_eq!(checked.position, game.to_text());
            // Threads searching the leaves check the same trees.
            let together = verify_with_threads(&bytes, 3, &mut |_| {}).unwrap();
            assert_eq!(
                (together.tree_nodes, together.leaves, together.leaf_nodes),
                (checked.tree_nodes, checked.leaves, checked.leaf_nodes)
            );
            if game.final_score().is_none() {
                assert!(checked.leaves > 0);
            }
        }
    }
}

#[test]
fn a_corrupted_certificate_is_rejected() {
    let game = virus("xx2oo/1x1o2/1xo3/6/3oo1/ooooox x");
    let (solution, bytes) = certified(&game, 10);
    let value = solution.value().unwrap();
    let certificate = Certificate::parse(&bytes).unwrap();
    assert!(certificate.moves.len() > 20, "{}", certificate.moves.len());
    assert!(verify(&bytes).is_ok());

    let header_len = bytes.len() - certificate.moves.len();
    let with = |f: &dyn Fn(&mut Certificate)| {
        let mut c = certificate.clone();
        f(&mut c);
        c.to_bytes()
    };
    // A value two better or worse than the truth has no proof.
    let higher = with(&|c| {
        c.lower = value + 2;
        c.upper = value + 2;
    });
    assert!(verify(&higher).is_err());
    let err = verify_with_threads(&higher, 2, &mut |_| {}).unwrap_err();
    assert!(err.contains("is worth less than"), "{err}");
    let lower = with(&|c| {
        c.lower = value - 2;
        c.upper = value - 2;
    });
    assert!(verify(&lower).is_err());
    // The first move made illegal (a cell taken at the start).
    let taken = game.stones(Side::Black).trailing_zeros() as u8;
    let illegal = with(&|c| c.moves[0] = taken);
    let err = verify(&illegal).unwrap_err();
    assert!(err.contains("not a legal drop"), "{err}");
    // A move missing, or one too many.
    let short = with(&|c| {
        c.moves.pop();
    });
    assert!(verify(&short).is_err());
    let long = with(&|c| c.moves.push(0));
    let err = verify(&long).unwrap_err();
    assert!(err.contains("end after"), "{err}");
    // The byte count in the header disagreeing with the file.
    assert!(verify(&bytes[..bytes.len() - 1]).is_err());
    assert!(verify(&bytes[..header_len - 3]).is_err());
    assert!(verify(b"plateau virus certificate 1\n\n").is_err());

    // Any single move byte changed: either refused, or still a proof of
    // exactly what the header claims (then it proves the truth); never a panic.
    let mut rng = Rng::new(3);
    for _ in 0..200 {
        let mut damaged = bytes.clone();
        let at = header_len + rng.below(certificate.moves.len() as u64) as usize;
        damaged[at] = rng.below(256) as u8;
        if let Ok(checked) = verify(&damaged) {
            assert!(
                checked.lower <= value && value <= checked.upper,
                "byte {at}"
            );
        }
    }
}
