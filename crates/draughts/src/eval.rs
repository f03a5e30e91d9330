//! Draughts evaluation: features of a position, the seed program's weights and
//! plateau's.
//!
//! Everything is seen from the side to move (each feature is "ours minus
//! theirs"). Scores are scaled so that a man is worth 100, like every plateau
//! evaluation.
//!
//! The seed program (`dames-moteur.js`) counts seven things per side, with start
//! weights 1, 3, 0.1, 0.1, 0.1, 0.05, 0.3 (a man = 1), here × 100:
//!
//! | feature | what is counted | seed weight |
//! |---|---|---|
//! | `men` | men | 100 |
//! | `kings` | kings | 300 |
//! | `advancement` | rows each man has advanced from its back row (0-8); the seed counts rows/9 per man, so its 0.1 becomes 10/9 per row | 10/9 |
//! | `centre` | pieces on the 10 central squares: the two middle rows, 21-30 | 10 |
//! | `back_row` | men still on their own back row (White 46-50, Black 1-5) | 10 |
//! | `protected` | men with an own piece or the board's edge on at least one of the two squares diagonally behind | 5 |
//! | `near_promotion` | men on the three far rows (White 1-15, Black 36-50) | 30 |
//!
//! plateau's `standard` evaluation adds cheap knowledge: the six inner centre
//! squares, left/right balance of the men, runaway men (nothing at all in the
//! cone in front of them), man and king mobility (few moves means a locked,
//! zugzwang-prone position), and supported outposts in the opponent's half.

use crate::square::{BOARD, bits, column_mask, free_run, row_mask, rows_mask, shift, squares_mask};
use crate::{Draughts, Square};
use plateau_core::{Evaluator, Features, FixedWeights, Game, Side, check_weights};

/// The feature names, in order: also the keys of weight files.
pub const FEATURE_NAMES: [&str; 13] = [
    // The seed's seven.
    "men",
    "kings",
    "advancement",
    "centre",
    "back_row",
    "protected",
    "near_promotion",
    // plateau's.
    "inner_centre",
    "balance",
    "runaway",
    "mobility",
    "king_mobility",
    "outposts",
];

/// Number of features.
pub const FEATURES: usize = FEATURE_NAMES.len();

/// The seed program's start weights, scaled so that a man is worth 100.
pub const SEED_WEIGHTS: [f32; FEATURES] = [
    100.0,
    300.0,
    10.0 / 9.0,
    10.0,
    10.0,
    5.0,
    30.0,
    0.0,
    0.0,
    0.0,
    0.0,
    0.0,
    0.0,
];

/// plateau's weights: tuned by SPSA from the earlier hand-set ones (`plateau
/// tune draughts --start default --features all --method spsa --depth 3`, 30
/// generations of 100 game pairs), adopted after an SPRT against them at the
/// `expert` level (depth 7): +57.8 ± 25.9 Elo over 388 games, H1 of [0, 10]
/// accepted (docs/arena.md). The earlier weights were 100, 320, 1.5, 3, 6,
/// 4, 8, 6, -4, 60, 3, 2, 8.
pub const DEFAULT_WEIGHTS: [f32; FEATURES] = [
    100.0,  // men
    287.95, // kings
    0.213,  // advancement (per row)
    4.08,   // centre
    5.02,   // back_row
    3.66,   // protected
    11.11,  // near_promotion
    -1.75,  // inner_centre
    -7.69,  // balance (per man of imbalance)
    72.315, // runaway
    3.58,   // mobility (per quiet man move)
    1.676,  // king_mobility (per square)
    3.42,   // outposts
];

/// Index of the first feature only plateau's evaluation uses.
const EXTRA: usize = 7;

/// The two middle rows (21-30): the seed's "10 central squares".
const CENTRE: u64 = rows_mask(4, 5);

/// The six inner centre squares.
const INNER_CENTRE: u64 = squares_mask(&[22, 23, 24, 27, 28, 29]);

/// Each side's back row.
const BACK_ROW: [u64; 2] = [row_mask(9), row_mask(0)];

/// The three far rows of each side.
const NEAR_PROMOTION: [u64; 2] = [rows_mask(0, 2), rows_mask(7, 9)];

/// Left and right halves (columns 0-4 and 5-9, seen from White).
const LEFT: u64 =
    column_mask(0) | column_mask(1) | column_mask(2) | column_mask(3) | column_mask(4);
const RIGHT: u64 = BOARD & !LEFT;

/// Where a supported man counts as an outpost: the opponent's half, not too deep
/// (White rows 3-4, squares 16-25; Black rows 5-6, 26-35).
const OUTPOST_ZONE: [u64; 2] = [rows_mask(3, 4), rows_mask(5, 6)];

/// Rows close enough to the far row for the runaway test (White rows 1-3).
const RUNAWAY_ZONE: [u64; 2] = [rows_mask(1, 3), rows_mask(6, 8)];

/// Squares off the board (ghosts and beyond): an edge protects like a piece.
const OFF_BOARD: u64 = !BOARD;

/// Bit planes of each side's advancement: a man on a square of `PLANES[s][k]`
/// has advanced a number of rows with bit `k` set.
const PLANES: [[u64; 4]; 2] = {
    let mut planes = [[0u64; 4]; 2];
    let mut i = 0;
    while i < 50 {
        let sq = Square::from_index(i);
        let advanced = [9 - sq.row(), sq.row()];
        let mut s = 0;
        while s < 2 {
            let mut k = 0;
            while k < 4 {
                if advanced[s] >> k & 1 != 0 {
                    planes[s][k] |= sq.bit();
                }
                k += 1;
            }
            s += 1;
        }
        i += 1;
    }
    planes
};

/// `CONES[side][bit]`: the squares in front of a man of `side` on that bit that
/// it may cross on its way to the far row (rows ahead, widening by one column
/// each row). A man whose cone is empty cannot be stopped by men.
static CONES: [[u64; 64]; 2] = {
    let mut cones = [[0u64; 64]; 2];
    let mut i = 0;
    while i < 50 {
        let sq = Square::from_index(i);
        let (row, column) = (sq.row() as i32, sq.column() as i32);
        let mut s = 0;
        while s < 2 {
            let step = if s == 0 { -1 } else { 1 };
            let mut mask = 0u64;
            let mut k = 1;
            while row + step * k >= 0 && row + step * k <= 9 {
                let r = row + step * k;
                let mut c = column - k;
                while c <= column + k {
                    if let Some(t) = Square::at(r, c) {
                        mask |= t.bit();
                    }
                    c += 1;
                }
                k += 1;
            }
            cones[s][sq.bit_index() as usize] = mask;
            s += 1;
        }
        i += 1;
    }
    cones
};

/// One side's feature values.
#[inline]
fn side_features(position: &Draughts, side: Side, extra: bool, out: &mut [i32; FEATURES]) {
    let s = side.index();
    let own = position.pieces(side);
    let men = own & !position.s.kings;
    let kings = own & position.s.kings;
    out[0] = men.count_ones() as i32;
    out[1] = kings.count_ones() as i32;
    out[2] = (0..4)
        .map(|k| ((men & PLANES[s][k]).count_ones() as i32) << k)
        .sum();
    out[3] = (own & CENTRE).count_ones() as i32;
    out[4] = (men & BACK_ROW[s]).count_ones() as i32;
    // The squares diagonally behind a man: down for White, up for Black.
    let cover = own | OFF_BOARD;
    let (behind_left, behind_right) = if side == Side::White {
        (cover >> 5, cover >> 6)
    } else {
        // Shifting up brings in zeros for the top row: those are off-board too.
        ((cover << 5) | 0x1F, (cover << 6) | 0x3F)
    };
    let protected = men & (behind_left | behind_right);
    out[5] = protected.count_ones() as i32;
    out[6] = (men & NEAR_PROMOTION[s]).count_ones() as i32;
    if !extra {
        return;
    }
    let occupied = position.occupied();
    let empty = BOARD & !occupied;
    out[7] = (own & INNER_CENTRE).count_ones() as i32;
    out[8] = ((men & LEFT).count_ones() as i32 - (men & RIGHT).count_ones() as i32).abs();
    out[9] = bits(men & RUNAWAY_ZONE[s])
        .filter(|&b| CONES[s][b as usize] & occupied == 0)
        .count() as i32;
    let forward = if side == Side::White { [0, 1] } else { [2, 3] };
    out[10] = forward
        .iter()
        .map(|&d| (shift(d, men) & empty).count_ones() as i32)
        .sum();
    out[11] = bits(kings)
        .map(|k| {
            (0..4)
                .map(|d| free_run(d, k, occupied).count_ones() as i32)
                .sum::<i32>()
        })
        .sum();
    let supported = men & behind_left & behind_right & !OFF_BOARD;
    let backed = if side == Side::White {
        supported & (own >> 5) & (own >> 6)
    } else {
        supported & (own << 5) & (own << 6)
    };
    out[12] = (backed & OUTPOST_ZONE[s]).count_ones() as i32;
}

/// The draughts feature set.
#[derive(Clone, Copy, Debug, Default)]
pub struct DraughtsFeatures;

impl DraughtsFeatures {
    /// Fills `out` with ours minus theirs; plateau's features only when `extra`.
    #[inline]
    fn fill(position: &Draughts, out: &mut [i32; FEATURES], extra: bool) {
        let us = position.side_to_move();
        let mut ours = [0; FEATURES];
        let mut theirs = [0; FEATURES];
        side_features(position, us, extra, &mut ours);
        side_features(position, !us, extra, &mut theirs);
        for i in 0..FEATURES {
            out[i] = ours[i] - theirs[i];
        }
    }
}

impl Features<Draughts> for DraughtsFeatures {
    fn names(&self) -> &'static [&'static str] {
        &FEATURE_NAMES
    }

    fn extract(&self, position: &Draughts, out: &mut [i32]) {
        let mut values = [0; FEATURES];
        DraughtsFeatures::fill(position, &mut values, true);
        let n = out.len().min(FEATURES);
        out[..n].copy_from_slice(&values[..n]);
    }
}

/// Weights x features.
#[derive(Clone, Debug)]
pub struct DraughtsEval {
    weights: [f32; FEATURES],
    /// The weights x 64, rounded: the evaluation sums integers.
    fixed: FixedWeights<FEATURES>,
    /// Whether any of plateau's features has a weight.
    extra: bool,
}

impl DraughtsEval {
    pub fn new(weights: [f32; FEATURES]) -> DraughtsEval {
        DraughtsEval {
            fixed: FixedWeights::new(&weights),
            extra: weights[EXTRA..].iter().any(|&w| w != 0.0),
            weights,
        }
    }

    /// The seed program's evaluation: its seven features, its start weights.
    pub fn seed() -> DraughtsEval {
        DraughtsEval::new(SEED_WEIGHTS)
    }

    /// plateau's evaluation.
    pub fn standard() -> DraughtsEval {
        DraughtsEval::new(DEFAULT_WEIGHTS)
    }

    /// Weights read from a list (for the tuner and weight files): `None`
    /// unless there is one per feature, each finite and within
    /// ±[`MAX_WEIGHT`](plateau_core::MAX_WEIGHT) (see [`check_weights`]).
    pub fn with_weights(weights: &[f32]) -> Option<DraughtsEval> {
        let weights: [f32; FEATURES] = weights.try_into().ok()?;
        check_weights(&FEATURE_NAMES, &weights).ok()?;
        Some(DraughtsEval::new(weights))
    }

    pub fn weights(&self) -> &[f32; FEATURES] {
        &self.weights
    }
}

impl Evaluator<Draughts> for DraughtsEval {
    #[inline]
    fn evaluate(&self, position: &Draughts) -> i32 {
        let mut values = [0i32; FEATURES];
        DraughtsFeatures::fill(position, &mut values, self.extra);
        self.fixed.score(&values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plateau_core::EVAL_LIMIT;

    fn features(text: &str) -> [i32; FEATURES] {
        let position = Draughts::from_text(text).unwrap();
        let mut values = [0; FEATURES];
        DraughtsFeatures.extract(&position, &mut values);
        values
    }

    #[test]
    fn the_start_is_balanced() {
        let start = Draughts::new();
        assert_eq!(features(&start.to_text()), [0; FEATURES]);
        assert_eq!(DraughtsEval::seed().evaluate(&start), 0);
        assert_eq!(DraughtsEval::standard().evaluate(&start), 0);
    }

    #[test]
    fn the_seed_features_count_what_the_write_up_says() {
        // White: men on 46 (back row, the edge behind it), 28 (middle rows,
        // 4 rows up, nothing behind), 12 (7 rows up, on the three far rows), a
        // king on 3. Black: a man on 20 (3 rows down). White to move.
        let position = Draughts::from_text("W:W46,28,12,K3:B20").unwrap();
        let mut ours = [0; FEATURES];
        side_features(&position, Side::White, true, &mut ours);
        assert_eq!(ours[..7], [3, 1, 4 + 7, 1, 1, 1, 1]);
        let mut theirs = [0; FEATURES];
        side_features(&position, Side::Black, true, &mut theirs);
        assert_eq!(theirs[..7], [1, 0, 3, 0, 0, 0, 0]);
        // 100·2 + 300 + (10/9)·8 + 10 + 10 + 5 + 30 = 563.9 (fixed point, rounded
        // towards zero: 563).
        assert_eq!(DraughtsEval::seed().evaluate(&position), 563);
        // Black's view is the opposite.
        let black = Draughts::from_text("B:W46,28,12,K3:B20").unwrap();
        assert_eq!(DraughtsEval::seed().evaluate(&black), -563);
    }

    #[test]
    fn a_runaway_man_is_seen() {
        let mut ours = [0; FEATURES];
        let free = Draughts::from_text("W:W13:B45").unwrap();
        side_features(&free, Side::White, true, &mut ours);
        assert_eq!(ours[9], 1);
        let blocked = Draughts::from_text("W:W13:B4").unwrap();
        side_features(&blocked, Side::White, true, &mut ours);
        assert_eq!(ours[9], 0);
    }

    #[test]
    fn weights_round_trip() {
        let eval = DraughtsEval::with_weights(&DEFAULT_WEIGHTS).unwrap();
        assert_eq!(eval.weights(), &DEFAULT_WEIGHTS);
        assert!(DraughtsEval::with_weights(&[1.0]).is_none());
    }

    #[test]
    fn weights_from_outside_must_be_finite_and_bounded() {
        plateau_core::invariants::check_weight_bounds(&DEFAULT_WEIGHTS, DraughtsEval::with_weights);
    }

    #[test]
    fn huge_weights_saturate_the_score_instead_of_overflowing() {
        // One feature (men: 3 against 1) weighted so that weight x value leaves 32
        // bits: the score is the limit, with the right sign on each side.
        let mut weights = [0.0; FEATURES];
        weights[0] = 3.0e7;
        let eval = DraughtsEval::new(weights);
        assert_eq!(
            eval.evaluate(&Draughts::from_text("W:W46,28,12,K3:B20").unwrap()),
            EVAL_LIMIT - 1
        );
        assert_eq!(
            eval.evaluate(&Draughts::from_text("B:W46,28,12,K3:B20").unwrap()),
            -(EVAL_LIMIT - 1)
        );
    }
}
