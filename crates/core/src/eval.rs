//! Evaluation: what the search asks a game-specific brain.
//!
//! Rules crates expose *features* (numbers computed from a position) and weights;
//! an evaluator is weights x features, so one shape serves the hand-written
//! evaluation, the seed baselines (same features, the seed's weights) and the
//! tuner, which only moves weights.

use crate::{Game, MoveList, Rng};

/// Scores positions for the search, from the side to move's point of view.
pub trait Evaluator<G: Game>: Send + Sync {
    /// A static score: positive is good for the side to move. Must stay well
    /// inside ±[`EVAL_LIMIT`] (wins are scored far beyond it).
    fn evaluate(&self, game: &G) -> i32;

    /// A learned evaluation's `score` of `game`, corrected by what this
    /// evaluator knows that the network does not (Abalone: pressing a won
    /// position); unchanged by default.
    #[inline]
    fn adjust_learned(&self, _game: &G, score: i32) -> i32 {
        score
    }

    /// A move to play without searching (an opening book), if this evaluator has
    /// one for the position.
    fn book_move(&self, _game: &G, _rng: &mut Rng) -> Option<G::Move> {
        None
    }

    /// The moves the search considers here: all legal moves by default. An
    /// evaluator may keep only the promising ones where the full set is too large
    /// to search (Escampe's 11 088 placements); the list must be non-empty
    /// whenever legal moves exist.
    fn candidate_moves(&self, game: &G, out: &mut MoveList<G::Move>) {
        game.legal_moves(out);
    }

    /// The position's value proven by a table (endgame databases), if this
    /// evaluator has one that covers it and `limit` lets it answer: the
    /// search takes it for the position's value instead of searching on.
    /// The game's own outcome (its draw rules) is judged before this is
    /// asked. `limit` is [`Evaluator::proven_limit`] of the search's root
    /// before the horizon, and `u32::MAX` (whatever the table knows) at it.
    fn proven(&self, _game: &G, _limit: u32) -> Option<Proven> {
        None
    }

    /// What [`Evaluator::proven`] may answer before the horizon of a search
    /// from `root`, computed once per search. Answering for positions of the
    /// root's own size would end every line at the first ply: each move
    /// keeps the win, so the search could neither make progress nor see a
    /// repetition coming. So draughts answers before the horizon only for
    /// fewer pieces than a root its databases cover (the root's moves are
    /// filtered by [`Evaluator::filter_root`], so the value is kept). At the
    /// horizon the search asks again with `u32::MAX` and scores such a win
    /// below the wins a capture reaches, but above every draw.
    fn proven_limit(&self, _root: &G) -> u32 {
        u32::MAX
    }

    /// Keeps, of the root's `moves`, those a table proves best (the moves
    /// that keep a won or drawn database position so), or leaves them all.
    /// The search then chooses among what is left.
    fn filter_root(&self, _game: &G, _moves: &mut Vec<G::Move>) {}
}

/// A value a table proves, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Proven {
    Win,
    Draw,
    Loss,
}

/// Static evaluations stay strictly inside ±EVAL_LIMIT.
pub const EVAL_LIMIT: i32 = 100_000;

/// Largest weight magnitude a weighted evaluator takes. One unit of a feature
/// with a larger weight would reach the evaluation limit on its own, so such a
/// weight can only be a mistake; the bound also keeps fixed-point weights far
/// from integer overflow.
pub const MAX_WEIGHT: f32 = EVAL_LIMIT as f32;

/// Checks weights given from outside (a weight file, the tuner): each must be
/// a finite number within ±[`MAX_WEIGHT`]. The error names the first bad one
/// (`names` are the features', in order).
pub fn check_weights(names: &[&str], weights: &[f32]) -> Result<(), String> {
    for (i, &weight) in weights.iter().enumerate() {
        if !weight.is_finite() || weight.abs() > MAX_WEIGHT {
            let name = names.get(i).copied().unwrap_or("unnamed");
            return Err(format!(
                "weight {} ({name}) is {weight}: weights are finite numbers from \
                 -{MAX_WEIGHT} to {MAX_WEIGHT}",
                i + 1
            ));
        }
    }
    Ok(())
}

/// Named numbers computed from a position, from the side to move's view.
pub trait Features<G: Game>: Send + Sync {
    /// One name per feature, in order; also the keys of weight files.
    fn names(&self) -> &'static [&'static str];

    /// Writes one value per feature into `out` (`out.len() == names().len()`).
    fn extract(&self, game: &G, out: &mut [i32]);
}

/// Weights in fixed point (×64, rounded), for evaluations in the search's hot
/// path: one integer dot product per position, summed in 64 bits (weights near
/// their bound times large feature values overflow 32), then kept strictly
/// inside ±[`EVAL_LIMIT`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FixedWeights<const N: usize>([i32; N]);

impl<const N: usize> FixedWeights<N> {
    const SCALE: i32 = 64;

    pub fn new(weights: &[f32; N]) -> FixedWeights<N> {
        FixedWeights(weights.map(|w| (w * Self::SCALE as f32).round() as i32))
    }

    /// Σ weight × value, in evaluation units, saturated at the limit.
    #[inline]
    pub fn score(&self, values: &[i32; N]) -> i32 {
        let sum: i64 = values
            .iter()
            .zip(&self.0)
            .map(|(&v, &w)| i64::from(v) * i64::from(w))
            .sum();
        let limit = i64::from(EVAL_LIMIT - 1);
        (sum / i64::from(Self::SCALE)).clamp(-limit, limit) as i32
    }
}

/// Weights x features, plus an optional book and candidate filter.
#[derive(Clone, Debug)]
pub struct Linear<F> {
    pub features: F,
    pub weights: Vec<f32>,
}

impl<F> Linear<F> {
    pub fn new(features: F, weights: Vec<f32>) -> Linear<F> {
        Linear { features, weights }
    }
}

/// Most features a linear evaluator may have (they live on the stack).
pub const MAX_FEATURES: usize = 64;

impl<F> Linear<F> {
    /// The weighted sum for `game`, rounded and kept inside the evaluation limit.
    #[inline]
    pub fn score<G: Game>(&self, game: &G) -> i32
    where
        F: Features<G>,
    {
        let mut values = [0i32; MAX_FEATURES];
        let n = self.weights.len().min(MAX_FEATURES);
        self.features.extract(game, &mut values[..n]);
        let sum: f32 = values[..n]
            .iter()
            .zip(&self.weights)
            .map(|(&v, &w)| v as f32 * w)
            .sum();
        (sum.round() as i32).clamp(-EVAL_LIMIT + 1, EVAL_LIMIT - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_must_be_finite_and_within_bounds() {
        let names = ["men", "kings"];
        assert_eq!(check_weights(&names, &[100.0, -MAX_WEIGHT]), Ok(()));
        let err = check_weights(&names, &[100.0, f32::NAN]).unwrap_err();
        assert!(err.contains("weight 2 (kings) is NaN"), "{err}");
        let err = check_weights(&names, &[f32::INFINITY, 1.0]).unwrap_err();
        assert!(err.contains("weight 1 (men) is inf"), "{err}");
        let err = check_weights(&names, &[1.0e9, 1.0]).unwrap_err();
        assert!(
            err.contains("finite numbers from -100000 to 100000"),
            "{err}"
        );
    }
}
