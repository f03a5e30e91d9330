//! The generator against the rules: a plain fixed-point computation over
//! every position of up to three pieces (both colours to move, no index, no
//! moves taken back), taken-back moves against forward moves, and endgame
//! facts from the literature.

use plateau_core::{Game, MoveList, Side};
use plateau_draughts::Draughts;
use plateau_egtb::generate::{Solved, solve_pair};
use plateau_egtb::index::{Board, board_at, index_of, slice_len};
use plateau_egtb::unmove::predecessors;
use plateau_egtb::{Material, Tablebase, Wdl, generate_all};
use std::collections::HashMap;

type Key = ([u64; 2], u64, Side);

/// Every legal position of 2 or 3 pieces, both sides to move, each side with
/// a piece at least.
fn every_small_position() -> Vec<Key> {
    let mut out = Vec::new();
    let mut position = Draughts::new().with_draw_rules(false);
    // Piece kinds: 0 white man, 1 white king, 2 black man, 3 black king.
    let mut place = |squares: &[u32], kinds: &[u8]| {
        let mut pieces = [0u64; 2];
        let mut kings = 0u64;
        for (&s, &k) in squares.iter().zip(kinds) {
            pieces[usize::from(k / 2)] |= 1 << s;
            if k % 2 == 1 {
                kings |= 1 << s;
            }
        }
        if pieces[0] == 0 || pieces[1] == 0 {
            return;
        }
        for side in Side::ALL {
            if position.set_dense(pieces, kings, side).is_ok() {
                out.push((pieces, kings, side));
            }
        }
    };
    for a in 0..50 {
        for b in a + 1..50 {
            for ka in 0..4 {
                for kb in 0..4 {
                    place(&[a, b], &[ka, kb]);
                }
            }
            for c in b + 1..50 {
                for ka in 0..4 {
                    for kb in 0..4 {
                        for kc in 0..4 {
                            place(&[a, b, c], &[ka, kb, kc]);
                        }
                    }
                }
            }
        }
    }
    out
}

/// Value iteration to the fixed point: a position is won when a move leads
/// to a lost one, lost when every move leads to a won one (or there is
/// none); whatever never settles is drawn.
fn brute_force() -> HashMap<Key, Wdl> {
    let all = every_small_position();
    let number: HashMap<Key, u32> = all
        .iter()
        .enumerate()
        .map(|(i, &k)| (k, i as u32))
        .collect();
    let mut position = Draughts::new().with_draw_rules(false);
    let mut moves = MoveList::new();
    // Each position's successors, once, by number; `NO_PIECES` for a
    // successor without pieces for its side to move (lost for it).
    const NO_PIECES: u32 = u32::MAX;
    let successors: Vec<Vec<u32>> = all
        .iter()
        .map(|&(pieces, kings, side)| {
            position.set_dense(pieces, kings, side).unwrap();
            position.legal_moves(&mut moves);
            moves
                .iter()
                .map(|&mv| {
                    let mut after = position.clone();
                    after.play(mv);
                    let (p, k) = after.dense();
                    if p[0] == 0 || p[1] == 0 {
                        NO_PIECES
                    } else {
                        number[&(p, k, after.side_to_move())]
                    }
                })
                .collect()
        })
        .collect();
    let mut value: Vec<Option<Wdl>> = vec![None; all.len()];
    loop {
        let mut changed = false;
        for (i, next) in successors.iter().enumerate() {
            if value[i].is_some() {
                continue;
            }
            let mut all_won = true;
            let mut wins = false;
            for &succ in next {
                let v = if succ == NO_PIECES {
                    Some(Wdl::Loss)
                } else {
                    value[succ as usize]
                };
                match v {
                    Some(Wdl::Loss) => wins = true,
                    Some(Wdl::Win) => {}
                    _ => all_won = false,
                }
            }
            if wins {
                value[i] = Some(Wdl::Win);
                changed = true;
            } else if all_won {
                value[i] = Some(Wdl::Loss);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    all.into_iter()
        .zip(value)
        .map(|(k, v)| (k, v.unwrap_or(Wdl::Draw)))
        .collect()
}

fn solve_up_to(pieces: u32) -> Solved {
    let mut solved = Solved::new();
    for material in Material::all(pieces) {
        if solved.get(material).is_some() {
            continue;
        }
        for (m, values) in solve_pair(material, &solved, &|_| {}).unwrap() {
            solved.insert(m, values);
        }
    }
    solved
}

#[test]
fn the_generator_agrees_with_brute_force_up_to_three_pieces() {
    let expected = brute_force();
    let solved = solve_up_to(3);
    let mut counts = [0usize; 3];
    for (&(pieces, kings, side), &want) in &expected {
        let board = Board::from_dense(pieces, kings, side);
        let got = solved.value(&board).unwrap();
        assert_eq!(
            got,
            want,
            "{}",
            Draughts::from_text(&format!(
                "{}:W{}:B{}",
                if side == Side::White { 'W' } else { 'B' },
                squares(pieces[0], kings),
                squares(pieces[1], kings)
            ))
            .map(|p| p.to_text())
            .unwrap_or_default()
        );
        counts[match want {
            Wdl::Win => 0,
            Wdl::Draw => 1,
            Wdl::Loss => 2,
        }] += 1;
    }
    // Every kind of result occurs: the comparison is not between two blanks.
    assert!(counts.iter().all(|&c| c > 1000), "{counts:?}");
}

fn squares(mask: u64, kings: u64) -> String {
    (0..50)
        .filter(|i| mask >> i & 1 != 0)
        .map(|i| {
            if kings >> i & 1 != 0 {
                format!("K{}", i + 1)
            } else {
                (i + 1).to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

#[test]
fn moves_taken_back_are_exactly_the_quiet_moves_played() {
    let mut position = Draughts::new().with_draw_rules(false);
    let mut moves = MoveList::new();
    let mut checked = 0;
    for material in Material::all(4) {
        let len = slice_len(material);
        // Every entry of small slices, a spread of the larger ones.
        let step = (len / 20_000).max(1);
        for index in (0..len).step_by(step as usize) {
            let Some(board) = board_at(index, material) else {
                continue;
            };
            let (pieces, kings) = board.to_dense();
            position.set_dense(pieces, kings, Side::White).unwrap();
            position.legal_moves(&mut moves);
            // Forward: each quiet move that crowns nothing is taken back to here.
            for &mv in moves.iter() {
                let mut after = position.clone();
                after.play(mv);
                let (p, k) = after.dense();
                let next = Board::from_dense(p, k, Side::Black);
                if mv.is_capture() || next.material() != material.swapped() {
                    continue;
                }
                let mut found = false;
                predecessors(&next, |before| found |= before == board);
                assert!(found, "{} {mv:?} is not taken back", position.to_text());
                checked += 1;
            }
            // Backward: each position taken back to moves here, unless a
            // capture was pending there.
            predecessors(&board, |before| {
                assert_eq!(before.material(), material.swapped());
                let (p, k) = before.to_dense();
                let mut there = Draughts::new().with_draw_rules(false);
                there.set_dense(p, k, Side::White).unwrap();
                let mut replies = MoveList::new();
                there.legal_moves(&mut replies);
                if replies.iter().any(|m| m.is_capture()) {
                    return;
                }
                let reached = replies.iter().any(|&m| {
                    let mut after = there.clone();
                    after.play(m);
                    let (p, k) = after.dense();
                    Board::from_dense(p, k, Side::Black) == board
                });
                assert!(
                    reached,
                    "{} does not move to {}",
                    there.to_text(),
                    position.to_text()
                );
            });
        }
    }
    assert!(checked > 100_000, "{checked}");
}

#[test]
fn endgame_facts_hold_and_the_files_serve_them() {
    let dir = tempfile::tempdir().unwrap();
    let reports = generate_all(dir.path(), 3, &|_| {}, &mut |_| {}).unwrap();
    assert_eq!(reports.len(), Material::all(3).len());
    // A second run finds every file and keeps it.
    let again = generate_all(dir.path(), 3, &|_| {}, &mut |_| {}).unwrap();
    assert!(again.iter().all(|r| r.reused));
    let base = Tablebase::open(dir.path()).unwrap();
    assert_eq!(base.pieces(), 3);
    let probe = |fen: &str| base.probe(&Draughts::from_text(fen).unwrap());

    // King against king, neither able to take the other: a draw, whoever
    // moves. On one diagonal, the king to move must step along it and is
    // taken.
    assert_eq!(probe("W:WK1:BK50"), Some(Wdl::Draw));
    assert_eq!(probe("B:WK1:BK50"), Some(Wdl::Draw));
    assert_eq!(probe("W:WK46:BK4"), Some(Wdl::Draw));
    assert_eq!(probe("W:WK46:BK5"), Some(Wdl::Loss));
    // A king that can be taken at once is lost (a man's capture: 28x17).
    assert_eq!(probe("W:W28:BK22"), Some(Wdl::Win));
    // Two kings against one cannot win (see the next test).
    assert_eq!(probe("W:WK1,K2:BK46"), Some(Wdl::Draw));
    // Too many pieces: not in a 3-piece base.
    assert_eq!(probe("W:WK1,K2,K3:BK46"), None);
    // The side to move is what counts, and the files agree with the values
    // generated in memory.
    let solved = solve_up_to(3);
    for material in Material::all(3) {
        let len = slice_len(material);
        for index in (0..len).step_by(97) {
            if let Some(board) = board_at(index, material) {
                let (pieces, kings) = board.to_dense();
                let mut position = Draughts::new();
                position.set_dense(pieces, kings, Side::White).unwrap();
                assert_eq!(base.probe(&position), solved.value(&board));
                assert_eq!(index_of(&board, material), index);
            }
        }
    }
    // Moves that keep a win: the won side has one, and each wins.
    let won = Draughts::from_text("W:W28:BK22").unwrap();
    let (value, moves) = base.keeping_moves(&won).unwrap();
    assert_eq!(value, Wdl::Win);
    assert_eq!(moves.len(), 1);
}

/// The squares of the long diagonal, 46 to 5.
const LONG_DIAGONAL: [u32; 10] = [46, 41, 37, 32, 28, 23, 19, 14, 10, 5];

/// Of the positions of `material` (the strong side to move) and its twin
/// (the lone side to move) whose lone king is on the long diagonal or off it
/// as `on_diagonal` says, the share the strong side does not win, by side to
/// move: the strong side's turn, then the lone side's.
fn share_not_won(solved: &Solved, material: Material, on_diagonal: bool) -> [f64; 2] {
    let mut shares = [0.0; 2];
    for (turn, m) in [material, material.swapped()].into_iter().enumerate() {
        let (mut held, mut all) = (0u64, 0u64);
        for index in 0..slice_len(m) {
            let Some(board) = board_at(index, m) else {
                continue;
            };
            let lone = board.kings[1 - turn];
            if LONG_DIAGONAL.contains(&(lone.trailing_zeros() + 1)) != on_diagonal {
                continue;
            }
            let strong = if turn == 0 {
                solved.value(&board).unwrap()
            } else {
                solved.value(&board).unwrap().flipped()
            };
            all += 1;
            held += u64::from(strong != Wdl::Win);
        }
        shares[turn] = held as f64 / all as f64;
    }
    shares
}

#[test]
fn a_king_on_the_long_diagonal_holds_against_two_and_three_kings() {
    // Endgame theory: two kings cannot beat a king, and three cannot beat
    // one that holds the long diagonal (46-5), short of a shot on the first
    // moves.
    let mut solved = solve_up_to(3);
    let three = Material::from_name("0m3k-0m1k").unwrap();
    for (m, values) in solve_pair(three, &solved, &|_| {}).unwrap() {
        solved.insert(m, values);
    }
    let two = Material::from_name("0m2k-0m1k").unwrap();
    // With the move, the strong side often has a shot at once (a king on a
    // line with the lone one and room behind), so the count is of the lone
    // side's turns.
    for on_diagonal in [true, false] {
        let [_, lone_turn] = share_not_won(&solved, two, on_diagonal);
        assert!(lone_turn > 0.9, "{lone_turn}");
    }
    let [_, lone_turn] = share_not_won(&solved, three, true);
    assert!(lone_turn > 0.9, "{lone_turn}");
    let value = |fen: &str| {
        let position = Draughts::from_text(fen).unwrap();
        let (pieces, kings) = position.dense();
        solved
            .value(&Board::from_dense(pieces, kings, position.side_to_move()))
            .unwrap()
    };
    assert_eq!(value("W:WK1,K2,K3:BK46"), Wdl::Draw);
    assert_eq!(value("B:WK1,K2,K3:BK46"), Wdl::Draw);
    // A shot: 3-14 gives a king, the lone king must take it, and the rest
    // catch it (found by the generator, every line verified by
    // `check_slice` below).
    assert_eq!(value("W:WK1,K2,K3:BK23"), Wdl::Win);
    for m in [three, three.swapped()] {
        assert!(plateau_egtb::check::check_slice(m, &solved, &|_, _| {}).is_ok());
    }
}
