//! The checks every game must pass (random playouts, evaluation weights from
//! outside, network accumulators), shared so that each game's test suite runs exactly the same ones.

use crate::net::{Activation, NetGame, NetInputs, Network};
use crate::{Game, MoveList, Rng, Side};
use std::collections::HashSet;
use std::sync::Arc;

/// What a run of [`check_random_playouts`] went through, so tests can also assert
/// that the games reached the situations they meant to cover.
#[derive(Clone, Debug, Default)]
pub struct PlayoutReport {
    pub games: usize,
    pub positions: usize,
    pub moves_checked: usize,
    pub finished_games: usize,
}

/// Plays `games` random games from `start` (at most `max_plies` each) and checks,
/// at every position reached:
///
/// - the incremental hash equals a freshly computed one;
/// - the position text and the save file read back to the same position and hash;
/// - legal moves are distinct, their count agrees with `count_legal_moves`, and
///   the list is empty exactly when the game is over;
/// - every move's notation parses back to the same move;
/// - play then undo restores the position (equality and hash);
/// - the move codes are below 2^24 and distinct;
/// - where the search may pass ([`Game::HAS_NULL_MOVE`], game on,
///   [`Game::null_move_is_safe`]): the null move hands the turn over with a
///   consistent hash and a usable position, and `undo_null` restores it.
///
/// Panics with a description of the first violation.
pub fn check_random_playouts<G: Game + PartialEq>(
    start: &G,
    games: usize,
    max_plies: usize,
    seed: u64,
) -> PlayoutReport {
    let mut rng = Rng::new(seed);
    let mut report = PlayoutReport::default();
    let mut list = MoveList::new();
    let mut scratch = MoveList::new();
    for _ in 0..games {
        let mut game = start.clone();
        report.games += 1;
        for _ in 0..max_plies {
            check_position(&game, &mut list, &mut scratch, &mut report);
            let Some(&mv) = rng.choose(&list) else {
                report.finished_games += 1;
                break;
            };
            game.play(mv);
        }
    }
    report
}

/// The per-position checks of [`check_random_playouts`]; leaves the legal moves of
/// `game` in `list`.
pub fn check_position<G: Game + PartialEq>(
    game: &G,
    list: &mut MoveList<G::Move>,
    scratch: &mut MoveList<G::Move>,
    report: &mut PlayoutReport,
) {
    report.positions += 1;
    let text = game.to_text();
    assert_eq!(
        game.hash(),
        game.compute_hash(),
        "incremental hash differs from a fresh one in {text}"
    );

    let reread = G::from_text(&text)
        .unwrap_or_else(|err| panic!("position text {text:?} does not read back: {err}"));
    assert_eq!(reread.to_text(), text, "position text round-trip");
    assert_eq!(
        reread.hash(),
        game.hash(),
        "hash after text round-trip of {text}"
    );

    let file = game.to_file();
    let from_file = G::from_file(&file)
        .unwrap_or_else(|err| panic!("save file of {text} does not read back: {err}\n{file}"));
    assert_eq!(from_file.to_text(), text, "save-file round-trip");

    game.legal_moves(list);
    let distinct: HashSet<_> = list.iter().collect();
    assert_eq!(
        distinct.len(),
        list.len(),
        "duplicate legal moves in {text}"
    );
    assert_eq!(
        game.count_legal_moves(scratch),
        list.len() as u64,
        "count_legal_moves disagrees with legal_moves in {text}"
    );
    assert_eq!(
        list.is_empty(),
        game.outcome().is_some(),
        "legal moves must be empty exactly when the game is over ({text}, outcome {:?})",
        game.outcome()
    );

    let mut noisy = MoveList::new();
    let can_decline = game.noisy_moves(&mut noisy);
    let expected: HashSet<_> = list.iter().filter(|&&m| game.is_noisy(m)).collect();
    let found: HashSet<_> = noisy.iter().collect();
    assert!(
        found == expected,
        "noisy_moves gives {} moves where is_noisy accepts {} in {text}",
        found.len(),
        expected.len()
    );
    assert_eq!(
        noisy.len(),
        expected.len(),
        "duplicate noisy moves in {text}"
    );
    if !list.is_empty() {
        assert_eq!(
            can_decline,
            list.iter().any(|&m| !game.is_noisy(m)),
            "noisy_moves says wrongly whether quiet moves exist in {text}"
        );
    }

    let mut probe = game.clone();
    for &mv in list.iter() {
        check_move(game, &mut probe, mv, &text);
        report.moves_checked += 1;
    }

    let mut codes = HashSet::new();
    for &mv in list.iter() {
        let code = game.move_code(mv);
        assert!(code < 1 << 24, "move code {code:#x} of {mv:?} in {text}");
        assert!(
            codes.insert(code),
            "two moves share code {code:#x} in {text}"
        );
    }

    if G::HAS_NULL_MOVE && !list.is_empty() && game.null_move_is_safe() {
        check_null_move(game, &text, &mut probe, list, scratch);
    }
}

/// The null-move checks of [`check_position`]: `probe` equals `game` (whose
/// text is `text` and legal moves `list`), and equals it again afterwards.
/// One legal move of `game` (whose text is `text`): its notation parses back
/// to it, playing it on `probe` (a copy of `game`) keeps the incremental hash
/// right, and undoing it restores `game` exactly.
pub fn check_move<G: Game + PartialEq>(game: &G, probe: &mut G, mv: G::Move, text: &str) {
    let notation = game.format_move(mv);
    let parsed = game
        .parse_move(&notation)
        .unwrap_or_else(|err| panic!("{notation:?} from {text} does not parse back: {err}"));
    assert_eq!(parsed, mv, "{notation:?} parses to another move in {text}");
    probe.play(mv);
    assert_eq!(
        probe.hash(),
        probe.compute_hash(),
        "hash after {notation} from {text}"
    );
    probe.undo(mv);
    assert!(
        *probe == *game,
        "undo of {notation} does not restore {text}"
    );
    assert_eq!(probe.hash(), game.hash(), "hash after undo of {notation}");
}

fn check_null_move<G: Game + PartialEq>(
    game: &G,
    text: &str,
    probe: &mut G,
    list: &MoveList<G::Move>,
    scratch: &mut MoveList<G::Move>,
) {
    probe.play_null();
    let passed = probe.hash();
    assert_eq!(
        passed,
        probe.compute_hash(),
        "hash after the null move from {text}"
    );
    assert_eq!(
        probe.side_to_move(),
        !game.side_to_move(),
        "the null move from {text} keeps the side to move"
    );
    probe.legal_moves(scratch);
    assert_eq!(
        scratch.is_empty(),
        probe.outcome().is_some(),
        "after the null move from {text}, legal moves must be empty exactly when the game is over"
    );
    for &mv in scratch.iter() {
        probe.play(mv);
        assert_eq!(
            probe.hash(),
            probe.compute_hash(),
            "hash after the null move then {mv:?} from {text}"
        );
        probe.undo(mv);
        assert_eq!(probe.hash(), passed, "undo of {mv:?} after the null move");
    }
    probe.undo_null();
    assert_eq!(probe.to_text(), text, "undo_null does not restore {text}");
    assert_eq!(
        probe.hash(),
        game.hash(),
        "hash after undo_null from {text}"
    );
    assert!(*probe == *game, "undo_null does not restore {text} exactly");
    probe.legal_moves(scratch);
    assert!(
        *scratch == *list,
        "legal moves after undo_null differ in {text}"
    );
}

/// Checks that an evaluation built from outside weights (`build`, e.g. a
/// game's `with_weights`) refuses a non-finite or out-of-bound weight and
/// accepts one at the bound, starting from the valid `weights`.
pub fn check_weight_bounds<E>(weights: &[f32], build: impl Fn(&[f32]) -> Option<E>) {
    let mut weights = weights.to_vec();
    assert!(weights.len() > 1, "at least two weights");
    for bad in [
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        2.0 * crate::MAX_WEIGHT,
    ] {
        weights[1] = bad;
        assert!(build(&weights).is_none(), "{bad} accepted");
    }
    weights[1] = -crate::MAX_WEIGHT;
    assert!(build(&weights).is_some(), "a weight at the bound refused");
}

/// A network for `G`'s input set `set` with random weights, large enough to
/// make every input matter: what [`check_accumulators`] plays with.
pub fn random_network<G: NetInputs>(
    set: usize,
    activation: Activation,
    hidden: usize,
    seed: u64,
) -> Network {
    let mut rng = Rng::new(seed);
    let mut value = |range: i64| (rng.below((2 * range + 1) as u64) as i64 - range) as i16;
    let inputs = G::INPUT_SETS[set].inputs;
    Network {
        game: "test".into(),
        recipe: String::new(),
        input_set: G::INPUT_SETS[set].name.into(),
        activation,
        inputs,
        hidden,
        scale: 300.0,
        input_weights: (0..inputs * hidden).map(|_| value(120)).collect(),
        input_bias: (0..hidden).map(|_| value(100)).collect(),
        output_weights: (0..2 * hidden).map(|_| value(100)).collect(),
        output_bias: 1234,
    }
}

/// Plays `games` random games of at most `max_plies` from `start` on a
/// [`NetGame`] with a random network, for each of the game's input sets
/// (with both activations), with null moves (where the game has them) and
/// takebacks mixed in, and checks at every position that the accumulators
/// kept move by move give the evaluation computed afresh, that every input
/// is below the set's size, and that undoing everything gives the start
/// back. Returns the number of positions checked.
///
/// Panics with the position's text at the first difference.
pub fn check_accumulators<G: NetInputs>(
    start: &G,
    games: usize,
    max_plies: usize,
    seed: u64,
) -> usize {
    let mut checked = 0;
    for set in 0..G::INPUT_SETS.len() {
        for activation in [Activation::Clipped, Activation::SquaredClipped] {
            checked += check_set(start, set, activation, games, max_plies, seed);
        }
    }
    checked
}

fn check_set<G: NetInputs>(
    start: &G,
    set: usize,
    activation: Activation,
    games: usize,
    max_plies: usize,
    seed: u64,
) -> usize {
    // 136 hidden: one whole block of the accumulator update and a rest (see
    // `update_rows` in net.rs), so that both paths are checked.
    let net = Arc::new(random_network::<G>(set, activation, 136, seed));
    let inputs = G::INPUT_SETS[set].inputs;
    let name = G::INPUT_SETS[set].name;
    let mut rng = Rng::new(seed);
    let mut moves = MoveList::new();
    let mut checked = 0;
    let in_range = |game: &G, side: Side| {
        let mut ok = true;
        game.active_features(set, side, &mut |f| ok &= f < inputs);
        ok
    };
    for _game in 0..games {
        let mut game = NetGame::new(start.clone(), Arc::clone(&net));
        let mut played = Vec::new();
        for _ply in 0..max_plies {
            let text = game.to_text();
            assert_eq!(
                game.evaluate(),
                net.evaluate(game.inner()),
                "inputs {name}: {text}"
            );
            checked += 1;
            for side in [Side::White, Side::Black] {
                assert!(
                    in_range(game.inner(), side),
                    "an input of {name} out of range in {text}"
                );
            }
            if game.outcome().is_some() {
                break;
            }
            if G::HAS_NULL_MOVE && game.null_move_is_safe() && rng.below(10) == 0 {
                game.play_null();
                assert_eq!(
                    game.evaluate(),
                    net.evaluate(game.inner()),
                    "inputs {name}: {text}, null move"
                );
                game.undo_null();
            }
            if !played.is_empty() && rng.below(8) == 0 {
                if let Some(mv) = played.pop() {
                    game.undo(mv);
                }
                continue;
            }
            game.legal_moves(&mut moves);
            let Some(&mv) = rng.choose(&moves) else {
                break;
            };
            game.play(mv);
            played.push(mv);
        }
        while let Some(mv) = played.pop() {
            game.undo(mv);
            let text = game.to_text();
            assert_eq!(
                game.evaluate(),
                net.evaluate(game.inner()),
                "inputs {name}: {text}, undone"
            );
        }
        assert_eq!(game.to_text(), start.to_text(), "undoing every move");
    }
    checked
}
