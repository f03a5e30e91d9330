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

#[test]
fn engines_play_database_positions_by_the_databases() {
    let dir = tempfile::tempdir().unwrap();
    generate_all(dir.path(), 3, &|_| {}, &mut |_| {}).unwrap();
    assert_eq!(use_egtb_dir(dir.path()), Ok(3));
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
        let material = Material::from_name(name).unwrap();
        for index in (0..slice_len(material)).step_by(53) {
            let Some(board) = board_at(index, material) else {
                continue;
            };
            let (pieces, kings) = board.to_dense();
            let mut position = Draughts::new();
            position.set_dense(pieces, kings, Side::White).unwrap();
            let Some((Wdl::Win, keep)) = tables.keeping_moves(&position) else {
                continue;
            };
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
            found += 1;
            if found == 6 {
                break 'search;
            }
        }
    }
    assert!(found >= 6, "{found} deep wins among {tried} won positions");
}
