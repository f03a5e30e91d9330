//! Test helpers: an independent brute-force solver for short forced wins.

use plateau_core::{Game, MoveList};

/// Whether the side to move can force a win (the game ending in its favour)
/// within `plies` plies (a win in n moves takes 2n - 1 plies). Plain minimax over
/// every legal move, no pruning tricks: slow and obviously right.
pub fn wins_within<G: Game>(game: &mut G, plies: u32) -> bool {
    if plies == 0 {
        return false;
    }
    let mover = game.side_to_move();
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    for &mv in moves.iter() {
        game.play(mv);
        let won = match game.outcome() {
            Some(outcome) => outcome.winner == Some(mover),
            None => plies >= 3 && !defender_escapes(game, plies - 1),
        };
        game.undo(mv);
        if won {
            return true;
        }
    }
    false
}

/// Whether the side to move has a reply after which the opponent cannot force a
/// win within `plies - 1` plies.
pub fn defender_escapes<G: Game>(game: &mut G, plies: u32) -> bool {
    let defender = game.side_to_move();
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    for &mv in moves.iter() {
        game.play(mv);
        let escapes = match game.outcome() {
            Some(outcome) => outcome.winner != Some(!defender),
            None => !wins_within(game, plies - 1),
        };
        game.undo(mv);
        if escapes {
            return true;
        }
    }
    false
}

/// The exact number of moves (of the side to move) of its fastest forced win,
/// if there is one within `max_moves`.
#[allow(dead_code)]
pub fn forced_win_in<G: Game>(game: &mut G, max_moves: u32) -> Option<u32> {
    (1..=max_moves).find(|&n| wins_within(game, 2 * n - 1))
}
