//! The draughts engines with endgame databases: a database position is
//! scored as proven and only the moves that keep it are played; `egtb=off`
//! leaves the databases out. (Its own test binary: the databases an engine
//! finds are the process's.)

use plateau_core::{Erased, Game, Side};
use plateau_draughts::Draughts;
use plateau_egtb::index::{board_at, slice_len};
use plateau_egtb::{Material, Tablebase, Wdl, generate_all};
use plateau_games::{EngineChoice, GameSpec, Limits, use_egtb_dir};
use plateau_search::score::{TABLE_WIN, WIN_THRESHOLD};

/// Whether a search score is a database win (the proven band, evaluation
/// tiebreak included).
fn is_table_win(score: i32) -> bool {
    (TABLE_WIN - 2 * plateau_core::EVAL_LIMIT..=TABLE_WIN + plateau_core::EVAL_LIMIT)
        .contains(&score)
}

/// The won positions of a slice, White to move, every `step`-th index,
/// with the moves that keep the win.
fn won_positions<'a>(
    tables: &'a Tablebase,
    name: &str,
    step: usize,
) -> impl Iterator<Item = (Draughts, Vec<plateau_draughts::Move>)> + 'a {
    let material = Material::from_name(name).unwrap();
    (0..slice_len(material))
        .step_by(step)
        .filter_map(move |index| {
            let (pieces, kings) = board_at(index, material)?.to_dense();
            let mut position = Draughts::new();
            position.set_dense(pieces, kings, Side::White).unwrap();
            match tables.keeping_moves(&position)? {
                (Wdl::Win, keep) => Some((position, keep)),
                _ => None,
            }
        })
}

#[test]
fn engines_play_database_positions_by_the_databases() {
    let dir = tempfile::tempdir().unwrap();
    generate_all(dir.path(), 4, &|_| {}, &mut |_| {}).unwrap();
    assert_eq!(use_egtb_dir(dir.path()), Ok(4));
    let tables = Tablebase::open(dir.path()).unwrap();

    // Won positions (White to move) whose win a 3-ply search does not see:
    // with the databases the engine scores them as proven wins and keeps
    // the win; without, it cannot know.
    let spec = GameSpec::lookup("draughts", None).unwrap();
    let limits = Limits::depth(3);
    let mut with = spec.engine_with(&EngineChoice::parse("master").unwrap(), 1);
    let mut without = spec.engine_with(&EngineChoice::parse("master,egtb=off").unwrap(), 1);
    let mut tried = 0;
    let mut found = 0;
    'search: for name in ["0m2k-1m0k", "1m1k-0m1k", "0m2k-0m1k"] {
        for (position, keep) in won_positions(&tables, name, 53) {
            let game = Erased::new("draughts", position.clone());
            tried += 1;
            let off = without.think(&game, &limits, &mut |_| {}).unwrap();
            assert!(
                !is_table_win(off.score),
                "{}: {}",
                position.to_text(),
                off.score
            );
            if off.score >= WIN_THRESHOLD {
                continue;
            }
            let on = with.think(&game, &limits, &mut |_| {}).unwrap();
            assert!(
                is_table_win(on.score),
                "{}: {}",
                position.to_text(),
                on.score
            );
            let chosen = position.check_move(&on.best).unwrap();
            assert!(
                keep.contains(&chosen),
                "{}: {} gives the win away",
                position.to_text(),
                on.best
            );
            // The search looks past the moves' own database values (a root
            // the databases cover probes only positions with fewer pieces),
            // so that it can make progress and see repetitions.
            assert!(
                on.pv.len() > 1,
                "{}: the line stops at the first move: {:?}",
                position.to_text(),
                on.pv
            );
            found += 1;
            if found == 6 {
                break 'search;
            }
        }
    }
    assert!(found >= 6, "{found} deep wins among {tried} won positions");

    won_positions_are_not_given_away_by_repetition(&tables);
}

/// A won 4-piece position where both sides have a king, after the kings
/// went back and forth: P, then `a-b c-d b-a d-c` (P again), then `a-b c-d`
/// (4-piece slices: with 3 pieces a lone king's 5-move count draws first).
/// Playing `b-a` now keeps the databases' win, but lets Black play `d-c`
/// and draw by threefold repetition. Where another move keeps the win, the
/// engine plays it. (Run from `engines_play_database_positions_by_the_databases`: one
/// set of databases per process.)
fn won_positions_are_not_given_away_by_repetition(tables: &Tablebase) {
    let spec = GameSpec::lookup("draughts", None).unwrap();
    let mut engine = spec.engine_with(&EngineChoice::parse("master").unwrap(), 1);
    let king_step = |position: &Draughts, from, to| {
        let mut moves = plateau_core::MoveList::new();
        position.legal_moves(&mut moves);
        moves
            .iter()
            .copied()
            .find(|mv| !mv.is_capture() && mv.from() == from && mv.to() == to)
    };
    const TRAPS: usize = 20;
    let mut traps = 0;
    let materials = ["1m1k-1m1k", "0m2k-1m1k", "1m2k-0m1k", "2m1k-0m1k"];
    'positions: for (start, keep) in materials
        .into_iter()
        .flat_map(|name| won_positions(tables, name, 1))
    {
        // White's king step a-b that keeps the win, Black's king step c-d,
        // then both back.
        let outs = keep.iter().filter(|mv| {
            !mv.is_capture() && start.piece_at(mv.from()) == Some((Side::White, true))
        });
        for &out in outs {
            let mut after_out = start.clone();
            after_out.play(out);
            let mut replies = plateau_core::MoveList::new();
            after_out.legal_moves(&mut replies);
            for &reply in replies.iter().filter(|mv| !mv.is_capture()) {
                let mut position = after_out.clone();
                position.play(reply);
                let Some(back) = king_step(&position, out.to(), out.from()) else {
                    continue;
                };
                // The trap: `back` keeps the win as far as the databases
                // know, and another move keeps it too.
                let Some((Wdl::Win, keep_here)) = tables.keeping_moves(&position) else {
                    continue;
                };
                if !keep_here.contains(&back) || keep_here.len() < 2 {
                    continue;
                }
                let mut after_back = position.clone();
                after_back.play(back);
                let Some(return_reply) = king_step(&after_back, reply.to(), reply.from()) else {
                    continue;
                };
                for mv in [back, return_reply, out, reply] {
                    position.play(mv);
                }
                // White to move where `back` lets Black repeat the start a
                // third time.
                let mut check = position.clone();
                check.play(back);
                check.play(return_reply);
                assert!(
                    check.outcome().is_some(),
                    "{}: no repetition",
                    start.to_text()
                );
                // Each trap is a game of its own: the table's scores of the
                // same boards under another history (a repetition that was
                // a draw there) must not carry over.
                engine.new_game();
                let game = Erased::new("draughts", position.clone());
                let thought = engine.think(&game, &Limits::depth(4), &mut |_| {}).unwrap();
                let chosen = position.check_move(&thought.best).unwrap();
                assert_ne!(
                    chosen,
                    back,
                    "{}: {} lets Black draw by repetition",
                    start.to_text(),
                    thought.best
                );
                assert!(
                    keep_here.contains(&chosen),
                    "{}: {}",
                    start.to_text(),
                    thought.best
                );
                traps += 1;
                if traps == TRAPS {
                    break 'positions;
                }
                // One trap per start position.
                continue 'positions;
            }
        }
    }
    assert_eq!(traps, TRAPS, "only {traps} repetition traps found");
}
