//! Abalone evaluation: features of a position, the seed program's weights and
//! plateau's.
//!
//! Everything is seen from the side to move. Scores are scaled so that one
//! marble is worth about 100, like every plateau evaluation.

use crate::board::{BOARD, Direction, RIM, RINGS, WIDTH, cells, hex_distance, shift};
use crate::conversion::{CONVERSION_WEIGHTS, ConversionWeights, conversion_bonus};
use crate::position::LOSING_COUNT;
use crate::{Abalone, movegen};
use plateau_core::{EVAL_LIMIT, Evaluator, Features, FixedWeights, Game, Side, check_weights};

/// The feature names, in order: also the keys of weight files.
pub const FEATURE_NAMES: [&str; 9] = [
    // The seed's two terms.
    "material",
    "centre",
    // plateau's.
    "cohesion",
    "rim",
    "eject_now",
    "exposed",
    "pushes",
    "formation",
    "mass_centre",
];

/// Number of features.
pub const FEATURES: usize = FEATURE_NAMES.len();

/// What losing k marbles costs: each one more than the one before, so that a
/// side behind avoids even trades as six approaches (the seed's idea). The
/// sixth ends the game and is scored by the search, not here.
pub const LOSS_COST: [i32; 7] = [0, 100, 210, 335, 480, 650, 850];

/// The seed program's evaluation: rising material cost and centre control.
pub const SEED_WEIGHTS: [f32; FEATURES] = [1.0, 3.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];

/// plateau's weights: tuned by SPSA from the earlier hand-set ones (`plateau
/// tune abalone --start default --features all --method spsa --depth 2`, 30
/// generations of 100 game pairs on the standard layout), adopted after an
/// SPRT against them at depth 3: +206 ± 49 Elo over 216 games, H1 of [0, 10]
/// accepted (docs/arena.md). The earlier weights were 1, 3, 2, -8, 30, -10,
/// 5, 3, 1.
pub const DEFAULT_WEIGHTS: [f32; FEATURES] =
    [1.0, 2.63, 0.567, -4.52, 10.46, -9.35, 6.476, 1.14, 1.11];

/// The three line axes as bit offsets.
const AXES: [i32; 3] = [
    Direction::DELTAS[0],
    Direction::DELTAS[1],
    Direction::DELTAS[2],
];

/// Σ (4 − distance to e5) over `marbles`.
#[inline(always)]
fn centrality(marbles: u128) -> i32 {
    (0..4)
        .map(|k| (4 - k as i32) * (marbles & RINGS[k]).count_ones() as i32)
        .sum()
}

/// Pairs of neighbouring marbles of one side.
#[inline(always)]
pub(crate) fn neighbour_pairs(marbles: u128) -> i32 {
    AXES.iter()
        .map(|&a| (marbles & shift(marbles, -a)).count_ones() as i32)
        .sum()
}

/// Lines of three marbles of one side (four in a line count twice).
#[inline(always)]
fn triples(marbles: u128) -> i32 {
    AXES.iter()
        .map(|&a| {
            let pairs = marbles & shift(marbles, -a);
            (pairs & shift(pairs, -a)).count_ones() as i32
        })
        .sum()
}

/// Σ over `marbles` of the distance to ABA-PRO's reference point: halfway
/// between the board's centre and the centre of mass of all marbles. Returned
/// together with the scale the distances are counted in.
#[inline(always)]
fn reference_distances(position: &Abalone) -> ([i32; 2], i32) {
    let all = position.marbles(Side::White) | position.marbles(Side::Black);
    let count = all.count_ones() as i32;
    if count == 0 {
        return ([0, 0], 1);
    }
    let (mut sum_row, mut sum_diagonal) = (0, 0);
    for cell in cells(all) {
        sum_row += cell.row();
        sum_diagonal += cell.diagonal();
    }
    // In units of 1/(2·count) cell: the reference point is (4·count + Σ)/(2·count).
    let scale = 2 * count;
    let reference_row = 4 * count + sum_row;
    let reference_diagonal = 4 * count + sum_diagonal;
    let mut sums = [0; 2];
    for side in Side::ALL {
        for cell in cells(position.marbles(side)) {
            sums[side.index()] += hex_distance(
                cell.row() * scale - reference_row,
                cell.diagonal() * scale - reference_diagonal,
            );
        }
    }
    (sums, scale)
}

/// The Abalone feature set.
#[derive(Clone, Copy, Debug, Default)]
pub struct AbaloneFeatures;

impl AbaloneFeatures {
    /// Fills `out` (`FEATURES` values); the plateau features only when `extra`
    /// is set (zeros otherwise).
    #[inline(always)]
    fn fill(position: &Abalone, out: &mut [i32; FEATURES], extra: bool) {
        let us = position.side_to_move();
        let them = !us;
        let own = position.marbles(us);
        let opp = position.marbles(them);
        let cost = |side: Side| LOSS_COST[position.lost(side).min(LOSING_COUNT) as usize];
        *out = [0; FEATURES];
        out[0] = cost(them) - cost(us);
        out[1] = centrality(own) - centrality(opp);
        if !extra {
            return;
        }
        out[2] = neighbour_pairs(own) - neighbour_pairs(opp);
        out[3] = (own & RIM).count_ones() as i32 - (opp & RIM).count_ones() as i32;
        let (our_targets, our_pushes) = movegen::attacks(own, opp);
        let (their_targets, their_pushes) = movegen::attacks(opp, own);
        out[4] = our_targets.count_ones() as i32;
        out[5] = their_targets.count_ones() as i32;
        out[6] = our_pushes as i32 - their_pushes as i32;
        out[7] = triples(own) - triples(opp);
        let (sums, scale) = reference_distances(position);
        // Tenths of a cell.
        out[8] = (sums[them.index()] - sums[us.index()]) * 10 / scale;
    }
}

impl Features<Abalone> for AbaloneFeatures {
    fn names(&self) -> &'static [&'static str] {
        &FEATURE_NAMES
    }

    fn extract(&self, position: &Abalone, out: &mut [i32]) {
        let mut values = [0; FEATURES];
        AbaloneFeatures::fill(position, &mut values, true);
        let n = out.len().min(FEATURES);
        out[..n].copy_from_slice(&values[..n]);
    }
}

/// Weights x features.
#[derive(Clone, Debug)]
pub struct AbaloneEval {
    weights: [f32; FEATURES],
    /// The weights x 64, rounded: the evaluation sums integers.
    fixed: FixedWeights<FEATURES>,
    /// Whether any feature beyond the seed's two has a weight.
    extra: bool,
    /// The conversion term's weights and share in percent (0: none); the
    /// seed's evaluation has none.
    conversion: ConversionWeights,
    conversion_percent: u16,
}

impl AbaloneEval {
    pub fn new(weights: [f32; FEATURES]) -> AbaloneEval {
        let extra = weights[2..].iter().any(|&w| w != 0.0);
        AbaloneEval {
            fixed: FixedWeights::new(&weights),
            extra,
            weights,
            conversion: CONVERSION_WEIGHTS,
            conversion_percent: if extra { 100 } else { 0 },
        }
    }

    /// The same evaluation with the conversion term at `percent` of its
    /// weights (`master,convert=0` leaves it out: the evaluation before it).
    pub fn with_conversion(mut self, weights: ConversionWeights, percent: u16) -> AbaloneEval {
        self.conversion = weights;
        self.conversion_percent = percent;
        self
    }

    /// The conversion term of `position`, as this evaluation adds it.
    #[inline]
    fn conversion(&self, position: &Abalone) -> i32 {
        conversion_bonus(position, &self.conversion, self.conversion_percent)
    }

    /// The seed program: rising material cost and centre control, nothing else.
    pub fn seed() -> AbaloneEval {
        AbaloneEval::new(SEED_WEIGHTS)
    }

    /// plateau's evaluation.
    pub fn standard() -> AbaloneEval {
        AbaloneEval::new(DEFAULT_WEIGHTS)
    }

    /// Weights read from a list (for the tuner and weight files): `None`
    /// unless there is one per feature, each finite and within
    /// ±[`MAX_WEIGHT`](plateau_core::MAX_WEIGHT) (see [`check_weights`]).
    pub fn with_weights(weights: &[f32]) -> Option<AbaloneEval> {
        let weights: [f32; FEATURES] = weights.try_into().ok()?;
        check_weights(&FEATURE_NAMES, &weights).ok()?;
        Some(AbaloneEval::new(weights))
    }

    pub fn weights(&self) -> &[f32; FEATURES] {
        &self.weights
    }
}

impl Evaluator<Abalone> for AbaloneEval {
    #[inline]
    fn evaluate(&self, position: &Abalone) -> i32 {
        let mut values = [0i32; FEATURES];
        movegen::with_popcnt!(AbaloneFeatures::fill(position, &mut values, self.extra));
        let limit = EVAL_LIMIT - 1;
        (self.fixed.score(&values) + self.conversion(position)).clamp(-limit, limit)
    }

    /// A network's score with the conversion term added: the networks were
    /// trained on self-play where a lead of three rarely lasts, and score
    /// every such position alike.
    #[inline]
    fn adjust_learned(&self, position: &Abalone, score: i32) -> i32 {
        let limit = EVAL_LIMIT - 1;
        (score + self.conversion(position)).clamp(-limit, limit)
    }
}

// The padded grid must keep every cell's bit inside the integer.
const _: () = assert!(BOARD >> (9 * WIDTH) == 0);

#[cfg(test)]
mod tests {
    use super::*;
    use plateau_core::EVAL_LIMIT;

    fn features(text: &str) -> [i32; FEATURES] {
        let position = Abalone::from_text(text).unwrap();
        let mut values = [0; FEATURES];
        AbaloneFeatures.extract(&position, &mut values);
        values
    }

    #[test]
    fn the_start_is_balanced() {
        let values = features("wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b b0 w0");
        assert_eq!(values, [0; FEATURES]);
        let start = Abalone::new();
        assert_eq!(AbaloneEval::seed().evaluate(&start), 0);
        assert_eq!(AbaloneEval::standard().evaluate(&start), 0);
    }

    #[test]
    fn lost_marbles_cost_more_and_more() {
        for k in 1..LOSS_COST.len() - 1 {
            assert!(LOSS_COST[k + 1] - LOSS_COST[k] > LOSS_COST[k] - LOSS_COST[k - 1]);
        }
        // White (to move) has lost 2, Black 1: White is 210 - 100 behind.
        let values = features("wwww1/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbb1 w b1 w1");
        assert_eq!(values[0], 0);
        let values = features("www2/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbb1 w b1 w2");
        assert_eq!(values[0], 100 - 210);
    }

    #[test]
    fn the_centre_and_the_rim_are_counted_by_ring() {
        // One black marble on e5 instead of c5: black gains centrality.
        let values = features("wwwww/wwwwww/2www2/8/4b4/8/2bb3/bbbbbb/bbbbb b b0 w0");
        // c5 is 2 from e5, e5 is the centre: +2.
        assert_eq!(values[1], 2);
        // Marbles on the rim: Black's a1-a5, b1 and b6 (7), White's i5-i9,
        // h4 and h9 (7): no difference.
        assert_eq!(values[3], 0);
    }

    #[test]
    fn ejection_threats_are_seen_from_both_sides() {
        // Black b1-c1 can push White's a1 off (south-east); nothing else is in reach.
        let text = "wwwww/www3/7/8/bbbbbbbbb/8/b6/b5/w4 b b3 w5";
        let values = features(text);
        assert_eq!((values[4], values[5]), (1, 0));
        // With White to move, the same threat counts against it.
        let values = features(&text.replace(" b b3", " w b3"));
        assert_eq!((values[4], values[5]), (0, 1));
    }

    #[test]
    fn weights_from_outside_must_be_finite_and_bounded() {
        plateau_core::invariants::check_weight_bounds(&DEFAULT_WEIGHTS, AbaloneEval::with_weights);
    }

    #[test]
    fn huge_weights_saturate_the_score_instead_of_overflowing() {
        // One feature (material: Black has lost one marble) weighted so that weight x value leaves 32
        // bits: the score is the limit, with the right sign on each side.
        let mut weights = [0.0; FEATURES];
        weights[0] = 3.0e7;
        let eval = AbaloneEval::new(weights);
        assert_eq!(
            eval.evaluate(
                &Abalone::from_text("wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbb1 w b1 w0").unwrap()
            ),
            EVAL_LIMIT - 1
        );
        assert_eq!(
            eval.evaluate(
                &Abalone::from_text("wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbb1 b b1 w0").unwrap()
            ),
            -(EVAL_LIMIT - 1)
        );
    }
}
