//! The exact solver against plain minimax, hand-checked positions, and the
//! values of the small boards.

use plateau_ataxx::Virus;
use plateau_ataxx::solve::{Solution, SolveOptions, solve};
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
    let mut list = MoveList::new();
    let mut checked = 0;
    for (size, plies, games) in [(4, 2, 40), (5, 12, 40), (6, 24, 15)] {
        for _ in 0..games {
            let mut game = Virus::new(size).unwrap();
            for _ in 0..plies {
                game.legal_moves(&mut list);
                match rng.choose(&list[..]) {
                    Some(&mv) => game.play(mv),
                    None => break,
                }
            }
            let game = Virus::from_text(&game.to_text()).unwrap();
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
