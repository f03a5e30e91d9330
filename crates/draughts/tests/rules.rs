//! One test per rule of international draughts (FMJD), as plateau applies them.

use plateau_core::{EndReason, Game, MoveList, Side};
use plateau_draughts::{Draughts, DrawRule, Move, Square};
use std::collections::HashSet;

fn pos(text: &str) -> Draughts {
    Draughts::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn legal(game: &Draughts) -> Vec<Move> {
    let mut list = MoveList::new();
    game.legal_moves(&mut list);
    list.to_vec()
}

/// The legal moves in notation, sorted.
fn moves_of(game: &Draughts) -> Vec<String> {
    let mut out: Vec<String> = legal(game).iter().map(|&m| game.format_move(m)).collect();
    out.sort();
    out
}

fn play(game: &mut Draughts, text: &str) {
    let mv = game
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{text} in {}: {e}", game.to_text()));
    game.play(mv);
}

fn refusal(game: &Draughts, text: &str) -> String {
    match game.parse_move(text) {
        Ok(mv) => panic!("{text} was accepted as {mv} in {}", game.to_text()),
        Err(err) => err.to_string(),
    }
}

fn sq(n: u32) -> Square {
    Square::from_number(n).unwrap()
}

/// Plays `plies` king moves, each leading to a position never seen before and
/// leaving the opponent no capture, checking that the game goes on until the
/// last one.
fn shuffle_kings(game: &mut Draughts, plies: usize) {
    let mut seen = HashSet::from([game.hash()]);
    for ply in 0..plies {
        assert!(game.outcome().is_none(), "over before ply {ply}: {game}");
        let mv = legal(game)
            .into_iter()
            .find(|&mv| {
                let mut next = game.clone();
                next.play(mv);
                game.kings(game.side_to_move()) & mv.from().bit() != 0
                    && !seen.contains(&next.hash())
                    && legal(&next).iter().all(|m| !m.is_capture())
            })
            .unwrap_or_else(|| {
                panic!(
                    "no fresh quiet king move at ply {ply} in {}",
                    game.to_text()
                )
            });
        game.play(mv);
        seen.insert(game.hash());
    }
}

#[test]
fn white_starts_with_men_on_31_to_50_and_moves_first() {
    let game = Draughts::new();
    assert_eq!(
        game.to_text(),
        "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50\
         :B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"
    );
    assert_eq!(game.side_to_move(), Side::White);
    let moves = moves_of(&game);
    assert_eq!(moves.len(), 9);
    assert!(
        moves
            .iter()
            .all(|m| (31..=35).contains(&m[..2].parse::<u32>().unwrap()))
    );
}

#[test]
fn a_man_steps_one_square_diagonally_forward() {
    assert_eq!(moves_of(&pos("W:W28:B1")), ["28-22", "28-23"]);
    assert_eq!(moves_of(&pos("B:W50:B23")), ["23-28", "23-29"]);
    let game = pos("W:W28:B1");
    assert!(refusal(&game, "28-33").contains("forward only"));
    assert!(refusal(&game, "28-17").contains("one square at a time"));
    // On the edge a man has a single step.
    assert_eq!(moves_of(&pos("W:W36:B1")), ["36-31"]);
}

#[test]
fn a_king_flies_over_free_squares_in_all_four_directions() {
    assert_eq!(moves_of(&pos("W:WK28:B1")).len(), 4 + 5 + 4 + 4);
    // Its own man on 19 stops it on the way to 5.
    let game = pos("W:WK28,19:B1");
    assert_eq!(moves_of(&game).len(), 4 + 1 + 4 + 4 + 2);
    assert!(refusal(&game, "28-14").contains("blocked on 19"));
}

#[test]
fn capturing_is_compulsory() {
    let game = pos("W:W32,38:B27");
    assert_eq!(moves_of(&game), ["32x21"]);
    assert!(refusal(&game, "38-33").contains("compulsory"));
    let mv = game.parse_move("32x21").unwrap();
    assert!(game.is_noisy(mv));
    let mut noisy = MoveList::new();
    assert!(!game.noisy_moves(&mut noisy), "captures cannot be declined");
    assert_eq!(&noisy[..], [mv]);
}

#[test]
fn men_capture_backwards_too() {
    assert_eq!(moves_of(&pos("W:W23:B28")), ["23x32"]);
    assert_eq!(moves_of(&pos("B:W23:B18")), ["18x29"]);
}

#[test]
fn a_king_captures_from_afar_and_lands_on_any_free_square_beyond() {
    assert_eq!(
        moves_of(&pos("W:WK46:B28")),
        ["46x10", "46x14", "46x19", "46x23", "46x5"]
    );
}

#[test]
fn a_king_never_jumps_two_pieces_in_a_row_nor_its_own() {
    assert_eq!(moves_of(&pos("W:WK46:B28,23")), ["46-32", "46-37", "46-41"]);
    assert_eq!(moves_of(&pos("W:WK46,28:B19")).len(), 3 + 2);
}

#[test]
fn the_majority_rule_counts_pieces_and_a_king_counts_as_one() {
    // Taking the king on 28 is one piece; the men on 29 and 19 are two.
    let game = pos("W:W33:BK28,29,19");
    assert_eq!(moves_of(&game), ["33x13"]);
    let reason = refusal(&game, "33x22");
    assert!(
        reason.contains("majority rule requires taking 2 pieces"),
        "{reason}"
    );
    // Two men and one king against three men: the same size, both legal.
    let both = legal(&pos("W:W26:B12,K21,31,32"));
    assert_eq!(both.len(), 2);
}

#[test]
fn captured_pieces_stay_until_the_end_turkish_strike() {
    // The king may not jump 38 twice; 10 stays out of reach behind it.
    let game = pos("W:WK41,49:B9,10,12,19,38");
    let moves = legal(&game);
    assert_eq!(moves.len(), 1);
    let taken: Vec<u8> = moves[0].captured().map(|s| s.number()).collect();
    assert_eq!(taken, [9, 12, 19, 38]);
    // A captured piece blocks a king's flight.
    assert_eq!(moves_of(&pos("B:W27,28,38,39,42:BK25")), ["25x33"]);
}

#[test]
fn the_moving_pieces_start_square_counts_as_empty() {
    // Round the ring of four and back to 32, either way: one move.
    let game = pos("W:W32:B28,29,38,39");
    let moves = legal(&game);
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0].from(), moves[0].to());
    assert_eq!(moves[0].capture_count(), 4);
    assert_eq!(game.format_move(moves[0]), "32x32");
    let mut after = game.clone();
    after.play(moves[0]);
    assert_eq!(after.to_text(), "B:W32:B");
}

#[test]
fn same_start_end_and_captured_set_is_one_move_different_sets_are_two() {
    let game = pos("B:W18,30,33,34,44:BK47");
    let moves = legal(&game);
    assert_eq!(moves.len(), 2);
    assert_eq!(
        (moves[0].from(), moves[0].to()),
        (moves[1].from(), moves[1].to())
    );
    // Same start and end: PDN gives every landing square.
    assert_eq!(moves_of(&game), ["47x24x35x49", "47x29x40x49"]);
    assert!(refusal(&game, "47x49").contains("ambiguous"));
    // The Hub form (start, end, captured squares) tells them apart too.
    assert_eq!(
        game.parse_move("47x49x30x33x44").unwrap(),
        game.parse_move("47x24x35x49").unwrap()
    );
    assert_eq!(
        game.parse_move("47x49x44x34x33").unwrap(),
        game.parse_move("47x29x40x49").unwrap()
    );
}

#[test]
fn a_man_passing_over_the_far_row_is_not_crowned() {
    let mut game = pos("W:W15:B9,10");
    assert_eq!(moves_of(&game), ["15x13"]);
    play(&mut game, "15x13");
    assert_eq!(game.piece_at(sq(13)), Some((Side::White, false)));
}

#[test]
fn a_man_ending_its_move_on_the_far_row_is_crowned() {
    let mut game = pos("W:W6:B20");
    play(&mut game, "6-1");
    assert_eq!(game.piece_at(sq(1)), Some((Side::White, true)));
    let mut capture = pos("W:W12:B7,45");
    play(&mut capture, "12x1");
    assert_eq!(capture.piece_at(sq(1)), Some((Side::White, true)));
    let mut black = pos("B:W41,45:B37");
    play(&mut black, "37x46");
    assert_eq!(black.to_text(), "W:W45:BK46");
}

#[test]
fn a_side_without_a_legal_move_loses() {
    let blocked = pos("W:W46:B41,37");
    assert!(legal(&blocked).is_empty());
    let outcome = blocked.outcome().expect("blocked");
    assert_eq!(outcome.winner, Some(Side::Black));
    assert_eq!(outcome.reason, EndReason::NoLegalMove);
    let mut wiped = pos("W:W28:B23");
    play(&mut wiped, "28x19");
    let outcome = wiped.outcome().expect("nothing left");
    assert_eq!(outcome.winner, Some(Side::White));
    assert_eq!(outcome.reason, EndReason::AllPiecesCaptured);
    assert!(refusal(&wiped, "1-6").contains("over"));
}

#[test]
fn twenty_five_king_moves_each_without_capture_or_man_move_draw() {
    // Men on the edges (they can never be taken) keep the lone-king limits away.
    let mut game = pos("W:WK47,K48,35,45:BK3,K4,6,16");
    shuffle_kings(&mut game, 49);
    assert_eq!(game.king_move_plies(), 49);
    assert!(game.outcome().is_none());
    shuffle_kings(&mut game, 1);
    let outcome = game.outcome().expect("50 plies of king moves");
    assert_eq!(outcome.winner, None);
    assert_eq!(game.draw_rule(), Some(DrawRule::KingMoves));
    assert_eq!(outcome.reason, DrawRule::KingMoves.reason());
    assert!(legal(&game).is_empty());
    // A man move resets the count.
    let mut reset = pos("W:WK47,K48,35,45:BK3,K4,6,16");
    shuffle_kings(&mut reset, 48);
    play(&mut reset, "45-40");
    assert_eq!(reset.king_move_plies(), 0);
}

#[test]
fn the_third_occurrence_of_a_position_draws() {
    let mut game = pos("W:WK47,45:BK4,6");
    for round in 0..2 {
        for text in ["47-42", "4-9", "42-47", "9-4"] {
            assert!(game.outcome().is_none(), "round {round}, {text}");
            play(&mut game, text);
        }
    }
    assert_eq!(game.repetitions(), 3);
    let outcome = game.outcome().expect("threefold repetition");
    assert_eq!(outcome.winner, None);
    assert_eq!(outcome.reason, EndReason::Repetition);
}

#[test]
fn three_pieces_against_a_lone_king_draw_after_16_moves_each() {
    let mut game = pos("W:WK46,K47,K48:BK3");
    assert_eq!(game.endgame_plies(), (0, 32));
    shuffle_kings(&mut game, 31);
    assert!(game.outcome().is_none());
    shuffle_kings(&mut game, 1);
    assert_eq!(game.draw_rule(), Some(DrawRule::ThreeAgainstKing));
    // A king and two men count the same.
    assert_eq!(pos("B:WK46,31,32:BK3").endgame_plies(), (0, 32));
}

#[test]
fn two_pieces_or_one_against_a_lone_king_draw_after_5_moves_each() {
    let mut game = pos("W:WK46,K47:BK3");
    assert_eq!(game.endgame_plies(), (0, 10));
    shuffle_kings(&mut game, 9);
    assert!(game.outcome().is_none());
    shuffle_kings(&mut game, 1);
    assert_eq!(game.draw_rule(), Some(DrawRule::SmallAgainstKing));
    assert_eq!(pos("W:WK46:BK3").endgame_plies(), (0, 10));
    assert_eq!(pos("W:WK46,31:BK3").endgame_plies(), (0, 10));
    // Men alone against a king, or two pieces each: no limit.
    assert_eq!(pos("W:W46,31:BK3").endgame_plies(), (0, 0));
    assert_eq!(pos("W:WK46,K31:BK3,K4").endgame_plies(), (0, 0));
}

#[test]
fn entering_a_smaller_ending_starts_its_own_count() {
    // Three kings against one: the lone king takes one, the 5-move count starts.
    let mut game = pos("B:WK46,K47,K14:BK3");
    assert_eq!(game.endgame_plies(), (0, 32));
    play(&mut game, "3x25");
    assert_eq!(game.endgame_plies(), (0, 10));
    play(&mut game, "46-41");
    assert_eq!(game.endgame_plies(), (1, 10));
    // Its own 5 moves end first (32 plies of the 16-move limit are far off).
    shuffle_kings(&mut game, 8);
    assert!(game.outcome().is_none());
    shuffle_kings(&mut game, 1);
    assert_eq!(game.draw_rule(), Some(DrawRule::SmallAgainstKing));
    assert_eq!(
        game.outcome().map(|o| o.reason),
        Some(DrawRule::SmallAgainstKing.reason())
    );
}

#[test]
fn a_capture_late_in_the_16_moves_keeps_their_limit() {
    // 12 moves each of three kings against one, then White offers a king and the
    // lone king takes it (plies 25 and 26). Of the 16-move limit's 32 plies, 6
    // remain: fewer than the 5-move ending's 10, so its count starts at 4.
    let mut game = pos("W:WK46,K47,K48:BK3");
    shuffle_kings(&mut game, 24);
    assert_eq!(game.endgame_plies(), (24, 32));
    let offer = legal(&game)
        .into_iter()
        .find(|&mv| {
            let mut next = game.clone();
            next.play(mv);
            legal(&next).iter().any(|m| m.is_capture())
        })
        .expect("some king move hangs a king");
    game.play(offer);
    let take = legal(&game)[0];
    assert!(take.is_capture());
    game.play(take);
    assert_eq!(game.endgame_plies(), (4, 10));
    // The save file goes back far enough to rebuild that count.
    let reread = Draughts::from_file(&game.to_file()).unwrap();
    assert_eq!(reread.endgame_plies(), (4, 10));
    assert_eq!(reread.to_text(), game.to_text());
    shuffle_kings(&mut game, 5);
    assert!(game.outcome().is_none());
    shuffle_kings(&mut game, 1);
    // 32 plies since three against one began: the 16-move limit ran out, and
    // the draw says so.
    assert_eq!(game.draw_rule(), Some(DrawRule::ThreeAgainstKing));
    assert_eq!(
        game.outcome().map(|o| o.reason),
        Some(DrawRule::ThreeAgainstKing.reason())
    );
    // The save file keeps that too.
    let reread = Draughts::from_file(&game.to_file()).unwrap();
    assert_eq!(reread.draw_rule(), Some(DrawRule::ThreeAgainstKing));
}

/// Plays a king move of the side to move that lets the opponent capture, then
/// that capture, choosing them so that no capture back is possible.
fn offer_and_take(game: &mut Draughts) {
    for offer in legal(game) {
        let mut next = game.clone();
        next.play(offer);
        for take in legal(&next).into_iter().filter(|m| m.is_capture()) {
            let mut after = next.clone();
            after.play(take);
            if after.outcome().is_none() && legal(&after).iter().all(|m| !m.is_capture()) {
                *game = after;
                return;
            }
        }
    }
    panic!("no king move hangs a piece safely in {}", game.to_text());
}

#[test]
fn one_small_ending_leading_to_another_keeps_the_running_count() {
    // Two kings against one, then one against one after the lone king takes:
    // FMJD 6.5 does not say whether the 5 moves start again; plateau keeps
    // counting (see the crate documentation).
    let mut game = pos("W:WK46,K47:BK3");
    shuffle_kings(&mut game, 4);
    offer_and_take(&mut game);
    assert_eq!(game.endgame_plies(), (6, 10));
    assert_eq!(pos(&game.to_text()).endgame_plies(), (0, 10));
    shuffle_kings(&mut game, 3);
    assert!(game.outcome().is_none());
    shuffle_kings(&mut game, 1);
    assert_eq!(game.draw_rule(), Some(DrawRule::SmallAgainstKing));
}

#[test]
fn undo_restores_captures_crowning_and_counters() {
    let mut game = pos("B:W41,45:B37");
    let before = game.clone();
    let mv = game.parse_move("37x46").unwrap();
    game.play(mv);
    game.undo(mv);
    assert_eq!(game, before);
    assert_eq!(game.hash(), game.compute_hash());

    let mut kings = pos("W:WK47,45:BK4,6");
    let start = kings.clone();
    let mut played = Vec::new();
    for text in [
        "47-42", "4-9", "42-47", "9-4", "47-42", "4-9", "42-47", "9-4",
    ] {
        let mv = kings.parse_move(text).unwrap();
        kings.play(mv);
        played.push(mv);
    }
    assert!(kings.outcome().is_some());
    kings.undo(*played.last().unwrap());
    assert!(kings.outcome().is_none(), "undo takes the repetition back");
    for &mv in played.iter().rev().skip(1) {
        kings.undo(mv);
    }
    assert_eq!(kings, start);
}

/// Plays the first legal move `plies` times (kings shuffling: repetitions
/// come soon).
fn first_moves(game: &mut Draughts, plies: usize) {
    for ply in 0..plies {
        let mv = *legal(game)
            .first()
            .unwrap_or_else(|| panic!("no move at ply {ply} in {}", game.to_text()));
        game.play(mv);
    }
}

#[test]
fn draw_rules_can_be_switched_off_for_pure_counts() {
    // With the rules on, two kings against one draw after 10 plies.
    let mut on = pos("W:WK46,K47:BK3");
    first_moves(&mut on, 10);
    assert_eq!(on.draw_rule(), Some(DrawRule::SmallAgainstKing));
    assert!(legal(&on).is_empty());
    // Off, the same moves go on past every limit: the ending's, and the
    // third (and later) occurrences of a position.
    let mut off = pos("W:WK46,K47:BK3").with_draw_rules(false);
    assert!(!off.draw_rules());
    first_moves(&mut off, 60);
    assert!(off.outcome().is_none());
    assert_eq!(off.draw_rule(), None);
    assert!(!legal(&off).is_empty());
    assert!(off.repetitions() >= 3, "{}", off.repetitions());
    assert_eq!(off.king_move_plies(), 60);
    assert_eq!(off.endgame_plies(), (60, 10));
    // And perft counts every leaf.
    let mut list = MoveList::new();
    assert_eq!(off.count_legal_moves(&mut list), legal(&off).len() as u64);
}

#[test]
fn switching_the_draw_rules_on_judges_the_position_at_once() {
    let mut game = pos("W:WK46,K47:BK3").with_draw_rules(false);
    first_moves(&mut game, 30);
    let judged = game.clone().with_draw_rules(true);
    assert_eq!(judged.draw_rule(), Some(DrawRule::SmallAgainstKing));
    assert!(legal(&judged).is_empty());
    assert!(judged.outcome().is_some_and(|o| o.winner.is_none()));
    // Repetition alone (no ending limit: two kings each, men on the edges).
    let mut kings = pos("W:WK47,K48,35,45:BK3,K4,6,16").with_draw_rules(false);
    for _ in 0..2 {
        for text in ["47-42", "4-9", "42-47", "9-4"] {
            play(&mut kings, text);
        }
    }
    assert_eq!(kings.draw_rule(), None);
    let judged = kings.clone().with_draw_rules(true);
    assert_eq!(judged.draw_rule(), Some(DrawRule::Repetition));
    // Off again: the game goes on.
    assert_eq!(judged.with_draw_rules(false).draw_rule(), None);
}

#[test]
fn the_save_file_keeps_the_draw_rules_switch() {
    let mut game = pos("W:WK46,K47:BK3").with_draw_rules(false);
    first_moves(&mut game, 30);
    let file = game.to_file();
    assert!(file.contains("[DrawRules \"off\"]"), "{file}");
    let reread = Draughts::from_file(&file).unwrap();
    assert!(!reread.draw_rules());
    assert_eq!(reread.outcome(), None);
    assert_eq!(reread.to_text(), game.to_text());
    assert_eq!(reread.endgame_plies(), game.endgame_plies());
    assert_eq!(reread.king_move_plies(), game.king_move_plies());
    // With the rules on (always, in games) the tag is not written.
    let mut on = pos("W:WK46,K47:BK3");
    first_moves(&mut on, 4);
    let file = on.to_file();
    assert!(!file.contains("DrawRules"), "{file}");
    assert!(Draughts::from_file(&file).unwrap().draw_rules());
    // Anything but on or off is refused.
    let err = Draughts::from_file("[DrawRules \"maybe\"]\n*").unwrap_err();
    assert!(err.to_string().contains("on or off"), "{err}");
}

#[test]
fn the_hash_tells_side_kings_and_men_apart() {
    let texts = ["W:W28:B1", "B:W28:B1", "W:WK28:B1", "W:W28:BK1", "W:W29:B1"];
    let hashes: HashSet<u64> = texts.iter().map(|t| pos(t).hash()).collect();
    assert_eq!(hashes.len(), texts.len());
}
