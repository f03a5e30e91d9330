//! The erased, friendly face of a game: moves as strings, one object type for every
//! game, so the CLI, the server and the protocols never name a concrete game.

use crate::{Game, MoveError, MoveList, Outcome, Side, Verdict, perft};
use std::any::Any;

/// A game in progress, whatever the game: what front-ends hold.
///
/// Every method speaks notation strings. Moves are validated by the game's own
/// rules; a refused move leaves the game exactly as it was.
pub trait AnyGame: Send + Sync {
    /// The registry name, with the variant when there is one (`virus/5x5`).
    fn name(&self) -> &str;
    fn side_to_move(&self) -> Side;
    /// Every legal move in notation; empty when the game is over.
    fn legal_moves(&self) -> Vec<String>;
    /// How many legal moves there are, without writing them out.
    fn legal_move_count(&self) -> usize;
    /// Plays a move given in notation and returns it as the game writes it.
    fn play(&mut self, mv: &str) -> Result<String, MoveError>;
    /// Takes back the last move and returns it, or `None` at the start.
    fn undo(&mut self) -> Option<String>;
    /// The moves played since [`AnyGame::start_text`], in notation.
    fn history(&self) -> &[String];
    /// The position the history starts from.
    fn start_text(&self) -> String;
    /// The current position text.
    fn to_text(&self) -> String;
    /// The game's save-file format.
    fn to_file(&self) -> String;
    /// A picture of the board for a terminal.
    fn board(&self) -> String;
    fn outcome(&self) -> Option<Outcome>;
    /// Whether the side to move has no noisy move (capture, ejection) to
    /// make: the positions whose static score a learned evaluation can be
    /// taught from, with nothing about to change hands.
    fn is_quiet(&self) -> bool;
    /// The game's record in its standard format, ending with `result` (which
    /// may differ from the rules' outcome: a resignation, a timeout).
    fn record(&self, result: Option<Verdict<'_>>) -> String;
    fn perft(&mut self, depth: u32) -> u64;
    fn divide(&mut self, depth: u32) -> Vec<(String, u64)>;
    fn clone_box(&self) -> Box<dyn AnyGame>;
    /// For layers that know the concrete type (the engine glue) to get it back.
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl Clone for Box<dyn AnyGame> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// A typed game behind the [`AnyGame`] face, with its move history.
#[derive(Clone, Debug)]
pub struct Erased<G: Game> {
    name: String,
    start: G,
    game: G,
    moves: Vec<G::Move>,
    notation: Vec<String>,
}

impl<G: Game> Erased<G> {
    pub fn new(name: impl Into<String>, start: G) -> Erased<G> {
        Erased {
            name: name.into(),
            game: start.clone(),
            start,
            moves: Vec::new(),
            notation: Vec::new(),
        }
    }

    /// The current typed position.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The typed moves played so far.
    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    /// Plays a typed move that is legal here (the engine's answer).
    pub fn play_typed(&mut self, mv: G::Move) {
        self.notation.push(self.game.format_move(mv));
        self.game.play(mv);
        self.moves.push(mv);
    }
}

impl<G: Game> AnyGame for Erased<G> {
    fn name(&self) -> &str {
        &self.name
    }

    fn side_to_move(&self) -> Side {
        self.game.side_to_move()
    }

    fn legal_moves(&self) -> Vec<String> {
        let mut list = MoveList::new();
        self.game.legal_moves(&mut list);
        list.iter().map(|&mv| self.game.format_move(mv)).collect()
    }

    fn legal_move_count(&self) -> usize {
        self.game.count_legal_moves(&mut MoveList::new()) as usize
    }

    fn play(&mut self, mv: &str) -> Result<String, MoveError> {
        if let Some(outcome) = self.game.outcome() {
            return Err(MoveError::game_over(
                mv,
                format!("the game is already over: {outcome}"),
            ));
        }
        let typed = self.game.parse_move(mv)?;
        self.play_typed(typed);
        Ok(self.notation.last().cloned().unwrap_or_default())
    }

    fn undo(&mut self) -> Option<String> {
        let mv = self.moves.pop()?;
        self.game.undo(mv);
        self.notation.pop()
    }

    fn history(&self) -> &[String] {
        &self.notation
    }

    fn start_text(&self) -> String {
        self.start.to_text()
    }

    fn to_text(&self) -> String {
        self.game.to_text()
    }

    fn to_file(&self) -> String {
        self.game.to_file()
    }

    fn board(&self) -> String {
        self.game.to_string()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    fn is_quiet(&self) -> bool {
        let mut noisy = MoveList::new();
        self.game.noisy_moves(&mut noisy);
        noisy.is_empty()
    }

    fn record(&self, result: Option<Verdict<'_>>) -> String {
        G::write_record(&self.start, &self.notation, result)
    }

    fn perft(&mut self, depth: u32) -> u64 {
        perft::perft(&mut self.game, depth)
    }

    fn divide(&mut self, depth: u32) -> Vec<(String, u64)> {
        perft::divide(&mut self.game, depth)
            .into_iter()
            .map(|(mv, count)| (self.game.format_move(mv), count))
            .collect()
    }

    fn clone_box(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// Plays a whitespace-separated move record on `game`: bare moves (`B1-D1 A6-A5`)
/// or numbered records (`1.a1b2 i5h5 2.a2b3`, `1. 32-28 19-23`); results at the
/// end (`1-0`, `2-0`, `*`...) are ignored. Stops at the first bad move with the ply
/// (1 = first move of the record), the move and the reason; the moves before it
/// stay played.
pub fn play_record(game: &mut dyn AnyGame, record: &str) -> Result<usize, String> {
    let mut ply = 0;
    for token in record.split_whitespace() {
        let mv = strip_move_number(token);
        if mv.is_empty() || is_result(mv) {
            continue;
        }
        ply += 1;
        game.play(mv).map_err(|err| format!("ply {ply}: {err}"))?;
    }
    Ok(ply)
}

/// `12.a1b2` -> `a1b2`, `12...` -> ``, `12.` -> ``.
fn strip_move_number(token: &str) -> &str {
    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && token[digits..].starts_with('.') {
        token[digits..].trim_start_matches('.')
    } else {
        token
    }
}

fn is_result(token: &str) -> bool {
    matches!(
        token,
        "1-0" | "0-1" | "1/2-1/2" | "2-0" | "0-2" | "1-1" | "*"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_numbers_are_stripped_but_moves_are_not() {
        assert_eq!(strip_move_number("1.a1b2"), "a1b2");
        assert_eq!(strip_move_number("12..."), "");
        assert_eq!(strip_move_number("3."), "");
        assert_eq!(strip_move_number("32-28"), "32-28");
        assert_eq!(strip_move_number("B1-D1"), "B1-D1");
        assert!(is_result("2-0"));
        assert!(!is_result("32-28"));
    }
}
