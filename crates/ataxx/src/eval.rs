//! Evaluation for both games: features of a position, the seed's weights (stone
//! count only, as the course leaves the evaluation as an exercise) and plateau's.
//!
//! Everything is seen from the side to move, scaled so that one stone is worth
//! about 100. "Targets" are the empty cells a side could move into now (next to
//! its stones in the virus game, within two cells in Ataxx).

use crate::bits::{Bits, max_count};
use crate::board::Board;
use crate::{Ataxx, VirusGame};
use plateau_core::{Evaluator, Features, FixedWeights, check_weights};

/// The feature names, in order: also the keys of weight files.
pub const FEATURE_NAMES: [&str; 10] = [
    // The seed's only term.
    "stones",
    // plateau's.
    "frontier",
    "stable",
    "mobility",
    "corners",
    "edges",
    "parity",
    "territory",
    "threat",
    // Always 1: the side to move's edge. Ataxx scores swing by several stones
    // from one ply to the next (the mover is about to capture); without this
    // term searches that end after our move and after theirs disagree, which
    // misleads reduced searches and aspiration windows.
    "tempo",
];

/// Number of features.
pub const FEATURES: usize = FEATURE_NAMES.len();

/// The seed evaluation: the stone difference, nothing else.
pub const SEED_WEIGHTS: [f32; FEATURES] = [100.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];

/// plateau's weights for full Ataxx, chosen by matches against the seed's
/// (one feature at a time, then together, at depths 2-4): the capture in hand
/// (`threat`) matters most, then few exposed stones and many safe ones. The
/// remaining features showed no gain at those depths and wait for the tuner.
///
/// `tempo` (two stones for the side to move) came with the selective search:
/// without it, static scores after our move and after theirs differ by the
/// capture the mover has in hand, and pruning that compares a static score
/// with a searched bound misjudges every other ply (docs/engine.md: +56 ± 64
/// Elo on its own at 50 ms a move, and what made null moves, reductions and
/// futility pay).
pub const DEFAULT_WEIGHTS: [f32; FEATURES] =
    [100.0, -10.0, 10.0, 0.0, 0.0, 0.0, 0.0, 0.0, 80.0, 200.0];

/// plateau's weights for the virus game, chosen the same way: there mobility
/// matters most (a side without drops loses the empty cells), then safe stones
/// and the capture in hand; edge stones are slightly weak.
pub const VIRUS_WEIGHTS: [f32; FEATURES] = [100.0, 0.0, 10.0, 8.0, 0.0, -4.0, 0.0, 0.0, 40.0, 0.0];

/// Index of the first feature that needs the empty regions (costly: computed only
/// when a weight asks for it).
const PARITY: usize = 6;
const TERRITORY: usize = 7;
const TEMPO: usize = 9;

/// The features of `board` from the side to move's view. `jumps` says whether
/// stones reach two cells (Ataxx) or one (virus). Features `1..` are computed
/// only when `extra` is set, the regions only when `regions` is.
#[inline]
fn fill<B: Bits>(
    board: &Board<B>,
    jumps: bool,
    out: &mut [i32; FEATURES],
    extra: bool,
    regions: bool,
) {
    let g = board.geo;
    let us = board.us();
    let them = board.them();
    *out = [0; FEATURES];
    out[0] = us.count() as i32 - them.count() as i32;
    if !extra {
        return;
    }
    let empty = board.empty();
    let reach = |set: B| {
        if jumps { g.dilate2(set) } else { g.dilate(set) }
    };
    let our_targets = reach(us) & empty;
    let their_targets = reach(them) & empty;
    let diff = |a: B, b: B| a.count() as i32 - b.count() as i32;

    // Stones next to an empty cell can be turned; stones next to no cell the
    // opponent can enter cannot be, on the next move.
    let exposed = g.dilate(empty);
    out[1] = diff(us & exposed, them & exposed);
    out[2] = diff(us & !g.dilate(their_targets), them & !g.dilate(our_targets));
    out[3] = diff(our_targets, their_targets);
    out[4] = diff(us & g.corners, them & g.corners);
    out[5] = diff(us & g.edges, them & g.edges);

    if regions {
        let (parity, territory) = regions_of(board, empty, our_targets, their_targets);
        out[PARITY] = parity;
        out[TERRITORY] = territory;
    }

    // The largest number of stones the side to move could turn now, against the
    // largest the opponent could turn if it were to move.
    let our_best = max_count(&g.neighbour_counts(them), our_targets);
    let their_best = max_count(&g.neighbour_counts(us), their_targets);
    out[8] = our_best as i32 - their_best as i32;
    out[TEMPO] = 1;
}

/// `(parity, territory)` over the regions of empty cells (8-connected): a region
/// only one side can enter is that side's territory (its cells count for it); in
/// a region both can enter, an odd size lets the side to move fill it last (+1),
/// an even size the opponent (−1).
fn regions_of<B: Bits>(board: &Board<B>, empty: B, ours: B, theirs: B) -> (i32, i32) {
    let g = board.geo;
    let mut rest = empty;
    let (mut parity, mut territory) = (0, 0);
    while !rest.is_zero() {
        let mut region = B::bit(rest.lowest());
        loop {
            let grown = g.dilate(region) & empty;
            if grown == region {
                break;
            }
            region = grown;
        }
        rest &= !region;
        let size = region.count() as i32;
        match (!(region & ours).is_zero(), !(region & theirs).is_zero()) {
            (true, false) => territory += size,
            (false, true) => territory -= size,
            (true, true) => parity += if size % 2 == 1 { 1 } else { -1 },
            (false, false) => {}
        }
    }
    (parity, territory)
}

/// The feature set of both games.
#[derive(Clone, Copy, Debug, Default)]
pub struct AtaxxFeatures;

impl Features<Ataxx> for AtaxxFeatures {
    fn names(&self) -> &'static [&'static str] {
        &FEATURE_NAMES
    }

    fn extract(&self, game: &Ataxx, out: &mut [i32]) {
        let mut values = [0; FEATURES];
        fill(game.board(), true, &mut values, true, true);
        let n = out.len().min(FEATURES);
        out[..n].copy_from_slice(&values[..n]);
    }
}

impl<B: Bits> Features<VirusGame<B>> for AtaxxFeatures {
    fn names(&self) -> &'static [&'static str] {
        &FEATURE_NAMES
    }

    fn extract(&self, game: &VirusGame<B>, out: &mut [i32]) {
        let mut values = [0; FEATURES];
        fill(game.board(), false, &mut values, true, true);
        let n = out.len().min(FEATURES);
        out[..n].copy_from_slice(&values[..n]);
    }
}

/// Weights x features, for either game.
#[derive(Clone, Debug)]
pub struct AtaxxEval {
    weights: [f32; FEATURES],
    /// The weights x 64, rounded: the evaluation sums integers.
    fixed: FixedWeights<FEATURES>,
    /// Whether any feature beyond the stone count has a weight.
    extra: bool,
    /// Whether the region features (the costly ones) have a weight.
    regions: bool,
}

impl AtaxxEval {
    pub fn new(weights: [f32; FEATURES]) -> AtaxxEval {
        AtaxxEval {
            fixed: FixedWeights::new(&weights),
            extra: weights[1..].iter().any(|&w| w != 0.0),
            regions: weights[PARITY] != 0.0 || weights[TERRITORY] != 0.0,
            weights,
        }
    }

    /// The seed player: the stone difference only.
    pub fn seed() -> AtaxxEval {
        AtaxxEval::new(SEED_WEIGHTS)
    }

    /// plateau's evaluation for full Ataxx.
    pub fn standard() -> AtaxxEval {
        AtaxxEval::new(DEFAULT_WEIGHTS)
    }

    /// plateau's evaluation for the virus game.
    pub fn standard_virus() -> AtaxxEval {
        AtaxxEval::new(VIRUS_WEIGHTS)
    }

    /// Weights read from a list (for the tuner and weight files): `None`
    /// unless there is one per feature, each finite and within
    /// ±[`MAX_WEIGHT`](plateau_core::MAX_WEIGHT) (see [`check_weights`]).
    pub fn with_weights(weights: &[f32]) -> Option<AtaxxEval> {
        let weights: [f32; FEATURES] = weights.try_into().ok()?;
        check_weights(&FEATURE_NAMES, &weights).ok()?;
        Some(AtaxxEval::new(weights))
    }

    pub fn weights(&self) -> &[f32; FEATURES] {
        &self.weights
    }

    #[inline]
    fn score<B: Bits>(&self, board: &Board<B>, jumps: bool) -> i32 {
        let mut values = [0i32; FEATURES];
        fill(board, jumps, &mut values, self.extra, self.regions);
        self.fixed.score(&values)
    }
}

impl Evaluator<Ataxx> for AtaxxEval {
    #[inline]
    fn evaluate(&self, game: &Ataxx) -> i32 {
        self.score(game.board(), true)
    }
}

impl<B: Bits> Evaluator<VirusGame<B>> for AtaxxEval {
    #[inline]
    fn evaluate(&self, game: &VirusGame<B>) -> i32 {
        self.score(game.board(), false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plateau_core::EVAL_LIMIT;
    use plateau_core::Game;

    fn features_of(text: &str) -> [i32; FEATURES] {
        let game = Ataxx::from_text(text).unwrap();
        let mut out = [0; FEATURES];
        AtaxxFeatures.extract(&game, &mut out);
        out
    }

    #[test]
    fn the_start_is_balanced() {
        // Only the parity leans: 45 empty cells, one odd region, and the side to
        // move would fill it last.
        let mut expected = [0; FEATURES];
        expected[PARITY] = 1;
        expected[TEMPO] = 1;
        assert_eq!(features_of("x5o/7/7/7/7/7/o5x x 0 1"), expected);
        let virus = crate::Virus::standard();
        assert_eq!(AtaxxEval::standard_virus().evaluate(&virus), 0);
        // Ataxx's weights give the side to move its tempo and nothing else.
        let start = crate::Ataxx::new();
        assert_eq!(
            AtaxxEval::standard().evaluate(&start),
            DEFAULT_WEIGHTS[TEMPO] as i32
        );
        let white_to_move = crate::Ataxx::from_text("x5o/7/7/7/7/7/o5x o 0 1").unwrap();
        assert_eq!(
            AtaxxEval::standard().evaluate(&white_to_move),
            AtaxxEval::standard().evaluate(&start)
        );
        assert_eq!(AtaxxEval::seed().evaluate(&virus), 0);
        let parity = AtaxxEval::with_weights(&[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 10.0, 0.0, 0.0, 0.0]);
        assert_eq!(parity.unwrap().evaluate(&virus), 10);
    }

    #[test]
    fn features_are_seen_from_the_side_to_move() {
        let black = features_of("xx4o/7/7/7/7/7/o5x x 0 1");
        let white = features_of("xx4o/7/7/7/7/7/o5x o 0 1");
        assert_eq!(black[0], 1);
        assert_eq!(black.map(|v| -v)[..6], white[..6]);
        assert_eq!(black[7], -white[7]);
        assert_eq!(black[8], -white[8]);
    }

    #[test]
    fn territory_and_threat_see_what_they_should() {
        // Black walls in a7's corner region: a7 is empty and only Black reaches it.
        let f = features_of("1x5/xx5/7/7/7/7/o6 x 0 1");
        assert!(f[0] > 0);
        assert_eq!(f[7], 1);
        // White threatens nothing; Black's best capture is 0 (no white stone near).
        assert_eq!(f[8], 0);
        let f = features_of("7/7/7/7/7/1o5/o1x4 x 0 1");
        // Black can drop on b1 or a2, touching both white stones.
        assert_eq!(f[8], 2 - 1);
    }

    #[test]
    fn weights_round_trip() {
        let eval = AtaxxEval::with_weights(&DEFAULT_WEIGHTS).unwrap();
        assert_eq!(eval.weights(), &DEFAULT_WEIGHTS);
        assert!(AtaxxEval::with_weights(&[1.0]).is_none());
    }

    #[test]
    fn weights_from_outside_must_be_finite_and_bounded() {
        plateau_core::invariants::check_weight_bounds(&DEFAULT_WEIGHTS, AtaxxEval::with_weights);
    }

    #[test]
    fn huge_weights_saturate_the_score_instead_of_overflowing() {
        // One feature (stones: 4 against 2) weighted so that weight x value leaves 32
        // bits: the score is the limit, with the right sign on each side.
        let mut weights = [0.0; FEATURES];
        weights[0] = 3.0e7;
        let eval = AtaxxEval::new(weights);
        assert_eq!(
            eval.evaluate(&Ataxx::from_text("xxx3o/7/7/7/7/7/o5x x 0 1").unwrap()),
            EVAL_LIMIT - 1
        );
        assert_eq!(
            eval.evaluate(&Ataxx::from_text("xxx3o/7/7/7/7/7/o5x o 0 1").unwrap()),
            -(EVAL_LIMIT - 1)
        );
    }
}
