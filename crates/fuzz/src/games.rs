//! The five games: position texts, save files and moves, typed and erased;
//! and draughts' PDN.
//!
//! A game target reads its input as: one byte choosing the variant, then a
//! text whose first line is a position (blank: the start position) and whose
//! other lines are moves, played one by one. The whole text is also read as a
//! save file.

use crate::text;
use plateau_abalone::Abalone;
use plateau_ataxx::{Ataxx, Virus, VirusWide};
use plateau_core::{AnyGame, Erased, Game, MoveList, play_record};
use plateau_draughts::Draughts;
use plateau_draughts::pdn::{read_game, read_games, write_game};
use plateau_escampe::Escampe;
use plateau_games::GameSpec;

/// Moves read from one input: enough to reach any situation of a short game,
/// few enough to keep every input fast.
const MAX_MOVES: usize = 64;

/// Escampe: position text, save file, moves.
pub fn escampe(data: &[u8]) {
    game_target("escampe", data, &[typed::<Escampe>], &[erased::<Escampe>]);
}

/// International draughts: FEN-style position text, PDN save file, moves.
pub fn draughts(data: &[u8]) {
    game_target(
        "draughts",
        data,
        &[typed::<Draughts>],
        &[erased::<Draughts>],
    );
}

/// Abalone, every layout: position text, save file, moves.
pub fn abalone(data: &[u8]) {
    game_target("abalone", data, &[typed::<Abalone>], &[erased::<Abalone>]);
}

/// The virus game, every board size (64-bit and wide boards).
pub fn virus(data: &[u8]) {
    game_target(
        "virus",
        data,
        &[typed::<Virus>, typed::<VirusWide>],
        &[erased::<Virus>, erased::<VirusWide>],
    );
}

/// Ataxx: FEN-style position text, save file, moves.
pub fn ataxx(data: &[u8]) {
    game_target("ataxx", data, &[typed::<Ataxx>], &[erased::<Ataxx>]);
}

/// Checks, through the typed face, everything a position read from `text`
/// (as a position text, then as a save file) must satisfy.
fn typed<G: Game + PartialEq>(text: &str) {
    if let Ok(game) = G::from_text(text) {
        check_game(&game);
    }
    if let Ok(game) = G::from_file(text) {
        check_game(&game);
        let file = game.to_file();
        let again = G::from_file(&file)
            .unwrap_or_else(|err| panic!("save file {file:?} does not read back: {err}"));
        assert_eq!(again.to_file(), file, "save-file round trip");
    }
}

/// The invariants of `core::invariants`, sampled so that one input costs
/// microseconds, not milliseconds: the hash equals a fresh one, the text and
/// the save file read back, the legal moves agree with their count and with
/// the outcome, and a few of them (spread over the list) parse back from
/// their notation and undo exactly. (`check_position` itself tries every
/// move and the null move: the playout tests of each game run it.)
fn check_game<G: Game + PartialEq>(game: &G) {
    let text = game.to_text();
    assert_eq!(game.hash(), game.compute_hash(), "hash of {text}");
    let reread = G::from_text(&text)
        .unwrap_or_else(|err| panic!("position text {text:?} does not read back: {err}"));
    assert_eq!(reread.to_text(), text, "position text round trip");
    assert_eq!(
        reread.hash(),
        game.hash(),
        "hash after the text round trip of {text}"
    );
    let file = game.to_file();
    let from_file = G::from_file(&file)
        .unwrap_or_else(|err| panic!("save file of {text} does not read back: {err}\n{file}"));
    assert_eq!(from_file.to_text(), text, "save-file round trip");

    let (mut list, mut scratch) = (MoveList::new(), MoveList::new());
    game.legal_moves(&mut list);
    assert_eq!(
        game.count_legal_moves(&mut scratch),
        list.len() as u64,
        "count in {text}"
    );
    assert_eq!(
        list.is_empty(),
        game.outcome().is_some(),
        "legal moves must be empty exactly when the game is over ({text})"
    );
    let step = list.len().div_ceil(SAMPLED_MOVES).max(1);
    let mut probe = game.clone();
    for &mv in list.iter().step_by(step) {
        plateau_core::invariants::check_move(game, &mut probe, mv, &text);
    }
}

/// Legal moves [`check_game`] plays and parses per position.
const SAMPLED_MOVES: usize = 6;

/// The invariants of a draughts position reached by a protocol.
pub(crate) fn check_draughts(position: &Draughts) {
    check_game(position);
}

/// The typed invariants of an erased game, when it is a `G`.
fn erased<G: Game + PartialEq>(game: &dyn AnyGame) {
    if let Some(typed) = game.as_any().downcast_ref::<Erased<G>>() {
        check_game(typed.game());
    }
}

fn game_target(
    name: &str,
    data: &[u8],
    typed_checks: &[fn(&str)],
    erased_checks: &[fn(&dyn AnyGame)],
) {
    let Some((&choice, rest)) = data.split_first() else {
        return;
    };
    let text = text(rest);
    let Ok(base) = GameSpec::lookup(name, None) else {
        panic!("{name} is not registered");
    };
    let variants = base.info.variants;
    let spec = if variants.is_empty() {
        base
    } else {
        let variant = variants[usize::from(choice) % variants.len()].name;
        GameSpec::lookup(name, Some(variant)).unwrap_or(base)
    };
    let (first, moves) = text.split_once('\n').unwrap_or((&text, ""));

    for check in typed_checks {
        check(first);
        check(&text);
    }

    let mut game = if first.trim().is_empty() {
        spec.new_game()
    } else {
        match spec.from_text(first) {
            Ok(game) => {
                let written = game.to_text();
                let again = spec
                    .from_text(&written)
                    .unwrap_or_else(|err| panic!("{written:?} does not read back: {err}"));
                assert_eq!(again.to_text(), written, "erased text round trip");
                game
            }
            Err(_) => spec.new_game(),
        }
    };
    let start = game.clone();
    for token in moves.split_whitespace().take(MAX_MOVES) {
        play_checked(game.as_mut(), token);
    }
    for check in erased_checks {
        check(game.as_ref());
    }
    let file = game.to_file();
    let reread = spec
        .from_file(&file)
        .unwrap_or_else(|err| panic!("the save file {file:?} does not read back: {err}"));
    assert_eq!(
        reread.to_text(),
        game.to_text(),
        "erased save-file round trip"
    );

    // The same moves as a record (numbered, with a result): what opening
    // files and `plateau play` read. The moves before a bad one stay played.
    let mut replay = start;
    let record: Vec<&str> = moves.split_whitespace().take(MAX_MOVES).collect();
    let before = replay.history().len();
    if let Ok(plies) = play_record(replay.as_mut(), &record.join(" ")) {
        assert_eq!(replay.history().len(), before + plies, "plies played");
    }

    if let Ok(from_file) = spec.from_file(&text) {
        let file = from_file.to_file();
        let again = spec
            .from_file(&file)
            .unwrap_or_else(|err| panic!("the save file {file:?} does not read back: {err}"));
        assert_eq!(again.to_text(), from_file.to_text(), "save file round trip");
        for check in erased_checks {
            check(from_file.as_ref());
        }
    }
}

/// Plays one move given as text: a refused move changes nothing; an accepted
/// one is written as the game writes it, undoes exactly, and replays from its
/// written form.
fn play_checked(game: &mut dyn AnyGame, token: &str) {
    let before = game.to_text();
    let plies = game.history().len();
    match game.play(token) {
        Err(_) => {
            assert_eq!(
                game.to_text(),
                before,
                "a refused move {token:?} changed the game"
            );
            assert_eq!(game.history().len(), plies, "a refused move was recorded");
        }
        Ok(played) => {
            assert_eq!(game.history().len(), plies + 1);
            assert_eq!(game.history().last(), Some(&played));
            let after = game.to_text();
            assert_eq!(game.undo().as_deref(), Some(played.as_str()));
            assert_eq!(
                game.to_text(),
                before,
                "undo of {played:?} does not restore"
            );
            let again = game
                .play(&played)
                .unwrap_or_else(|err| panic!("{played:?} as written is refused: {err}"));
            assert_eq!(again, played, "the written move reads as another");
            assert_eq!(game.to_text(), after, "{played:?} replays elsewhere");
        }
    }
}

/// Draughts PDN: every game read writes back to the same game, and each
/// game's moves leave a sound position.
pub fn pdn(data: &[u8]) {
    let text = text(data);
    let first = read_game(&text);
    let Ok(games) = read_games(&text) else {
        return;
    };
    if let (Ok(game), Some(same)) = (&first, games.first()) {
        assert_eq!(game, same, "read_game and read_games disagree");
    }
    for game in &games {
        let written = write_game(game);
        let back = read_game(&written)
            .unwrap_or_else(|err| panic!("written PDN {written:?} does not read back: {err}"));
        assert_eq!(back.start.to_text(), game.start.to_text(), "PDN start");
        assert_eq!(back.moves, game.moves, "PDN moves");
        assert_eq!(back.result, game.result, "PDN result");
        assert_eq!(back.tags, game.tags, "PDN tags");
        check_game(&game.final_position());
    }
}
