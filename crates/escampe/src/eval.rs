//! Escampe evaluation: features of a position, the seed player's weights and
//! plateau's, and how the engine places its pieces.
//!
//! Everything is seen from the side to move. Scores are scaled so that 100 is a
//! clear advantage, like every plateau evaluation.

use crate::position::Phase;
use crate::square::{BOTTOM_EDGE, LISERE_MASK, NEIGHBOURS, TOP_EDGE, squares};
use crate::{Escampe, Move, Square};
use plateau_core::{Evaluator, Features, FixedWeights, Game, MoveList, Rng, Side, check_weights};

/// The feature names, in order: also the keys of weight files.
pub const FEATURE_NAMES: [&str; 8] = [
    // The seed's two terms.
    "attack_sum",
    "attack_min",
    // plateau's.
    "threat_liseres",
    "liberties",
    "coverage",
    "unicorn_guard",
    "unicorn_exposure",
    "mobility",
];

/// Number of features.
pub const FEATURES: usize = FEATURE_NAMES.len();

/// Index of the one feature that needs every piece's destinations (costly: it
/// is computed only when its weight is not zero).
const MOBILITY: usize = 7;

/// The seed player's evaluation: `2·Σ(10−d_attack) − 2·Σ(10−d_defence) +
/// 8·(10−min d_attack) − 8·(10−min d_defence)`, nothing else.
pub const SEED_WEIGHTS: [f32; FEATURES] = [2.0, 8.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];

/// plateau's weights (hand-set, then checked by matches against the seed's).
pub const DEFAULT_WEIGHTS: [f32; FEATURES] = [2.0, 8.0, 25.0, 2.0, 10.0, 4.0, -3.0, 0.0];

const COLUMN_A: u64 = 0x0000_4104_1041;
const COLUMN_F: u64 = COLUMN_A << 5;
const BOARD: u64 = (1u64 << 36) - 1;

/// The squares next to any square of `set`.
#[inline]
fn around(set: u64) -> u64 {
    (((set & !COLUMN_F) << 1) | ((set & !COLUMN_A) >> 1) | (set << 6) | (set >> 6)) & BOARD
}

/// Manhattan distance between every two squares.
static DISTANCE: [[u8; 36]; 36] = {
    let mut table = [[0u8; 36]; 36];
    let mut a = 0;
    while a < 36 {
        let mut b = 0;
        while b < 36 {
            let dc = (a % 6) as i32 - (b % 6) as i32;
            let dr = (a / 6) as i32 - (b / 6) as i32;
            table[a][b] = (dc.abs() + dr.abs()) as u8;
            b += 1;
        }
        a += 1;
    }
    table
};

#[inline]
fn manhattan(a: Square, b: Square) -> i32 {
    DISTANCE[a.index()][b.index()] as i32
}

/// `(Σ(10 − d), 10 − min d)` over `paladins` towards `target`.
#[inline]
fn pressure(paladins: u64, target: Option<Square>) -> (i32, i32) {
    let Some(target) = target else {
        return (0, 0);
    };
    let mut sum = 0;
    let mut min = 10;
    for sq in squares(paladins) {
        let d = manhattan(sq, target);
        sum += 10 - d;
        min = min.min(d);
    }
    (sum, 10 - min)
}

/// For each target square, the squares from which a piece could ever reach it:
/// within `lisere` steps, with the parity a path of exactly `lisere` steps needs.
static ATTACKERS: [u64; 36] = {
    let mut table = [0u64; 36];
    let mut target = 0;
    while target < 36 {
        let mut from = 0;
        while from < 36 {
            let d = DISTANCE[from][target] as i32;
            let steps = LISERE_OF[from] as i32;
            if from != target && d <= steps && (steps - d) % 2 == 0 {
                table[target] |= 1 << from;
            }
            from += 1;
        }
        target += 1;
    }
    table
};

/// The liseré of each square, for the tables built at compile time.
const LISERE_OF: [u8; 36] = {
    let mut table = [0u8; 36];
    let mut i = 0;
    while i < 36 {
        table[i] = Square::from_index(i as u8).lisere();
        i += 1;
    }
    table
};

/// The liserés from which `side`'s paladins could take the enemy unicorn now
/// (as a bit set). Only paladins at the right distance and parity are tried.
#[inline]
fn threats(position: &Escampe, side: Side, empty: u64) -> u8 {
    let Some(target) = position.unicorn_square(!side) else {
        return 0;
    };
    let paladins = position.pieces(side) & !position.unicorn(side);
    let mut liseres = 0;
    for sq in squares(paladins & ATTACKERS[target.index()]) {
        if Escampe::reachable(sq, empty) & target.bit() != 0 {
            liseres |= 1 << sq.lisere();
        }
    }
    liseres
}

/// The liserés on which `side` has a piece with an empty square next to it (a
/// piece boxed in on every side certainly cannot move).
#[inline]
fn coverage(position: &Escampe, side: Side, empty: u64) -> u8 {
    let free = position.pieces(side) & around(empty);
    let mut liseres = 0;
    for k in 1..=3u8 {
        if free & LISERE_MASK[k as usize] != 0 {
            liseres |= 1 << k;
        }
    }
    liseres
}

/// How many destinations `side`'s pieces have (ignoring the constraint).
fn mobility(position: &Escampe, side: Side, empty: u64) -> i32 {
    let own_unicorn = position.unicorn(side);
    let target = position.unicorn(!side);
    squares(position.pieces(side))
        .map(|sq| {
            let enterable = if own_unicorn & sq.bit() == 0 {
                empty | target
            } else {
                empty
            };
            (Escampe::reachable(sq, empty) & enterable).count_ones() as i32
        })
        .sum()
}

/// `(own paladins next to the unicorn, empty squares next to it)`.
#[inline]
fn guard(position: &Escampe, side: Side, empty: u64) -> (i32, i32) {
    let Some(unicorn) = position.unicorn_square(side) else {
        return (0, 0);
    };
    let around = NEIGHBOURS[unicorn.index()];
    let paladins = position.pieces(side) & !position.unicorn(side);
    (
        (around & paladins).count_ones() as i32,
        (around & empty).count_ones() as i32,
    )
}

/// The Escampe feature set.
#[derive(Clone, Copy, Debug, Default)]
pub struct EscampeFeatures;

impl EscampeFeatures {
    /// Fills `out` (`FEATURES` values); the plateau features only when `extra`
    /// is set, mobility only when `mobility` is (zeros otherwise).
    #[inline]
    fn fill(position: &Escampe, out: &mut [i32; FEATURES], extra: bool, with_mobility: bool) {
        let us = position.side_to_move();
        let them = !us;
        let paladins = |side: Side| position.pieces(side) & !position.unicorn(side);
        let (our_sum, our_min) = pressure(paladins(us), position.unicorn_square(them));
        let (their_sum, their_min) = pressure(paladins(them), position.unicorn_square(us));
        *out = [0; FEATURES];
        out[0] = our_sum - their_sum;
        out[1] = our_min - their_min;
        if !extra {
            return;
        }
        let empty = position.empty();
        let bits = |set: u8| set.count_ones() as i32;
        out[2] = bits(threats(position, us, empty)) - bits(threats(position, them, empty));
        out[3] = (around(position.pieces(us)) & empty).count_ones() as i32
            - (around(position.pieces(them)) & empty).count_ones() as i32;
        out[4] = bits(coverage(position, us, empty)) - bits(coverage(position, them, empty));
        let (our_guard, our_exposure) = guard(position, us, empty);
        let (their_guard, their_exposure) = guard(position, them, empty);
        out[5] = our_guard - their_guard;
        out[6] = our_exposure - their_exposure;
        if with_mobility {
            out[MOBILITY] = mobility(position, us, empty) - mobility(position, them, empty);
        }
    }
}

impl Features<Escampe> for EscampeFeatures {
    fn names(&self) -> &'static [&'static str] {
        &FEATURE_NAMES
    }

    fn extract(&self, position: &Escampe, out: &mut [i32]) {
        let mut values = [0; FEATURES];
        if position.phase() == Phase::Play {
            EscampeFeatures::fill(position, &mut values, true, true);
        }
        let n = out.len().min(FEATURES);
        out[..n].copy_from_slice(&values[..n]);
    }
}

/// How the engine chooses its placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlacementStyle {
    /// The seed player's fixed book: unicorn in a corner behind two walls, the
    /// other paladins on liserés 1, 2 and 3.
    Book,
    /// Black takes one of the placements of plateau's book (computed by
    /// searching every White reply to each candidate, see
    /// `placement_book.txt`); White searches all its placements.
    Searched,
}

/// How many Black placements a search considers when it has no book (the best
/// by [`placement_score`]); White's placements are all searched.
pub const PLACEMENT_CANDIDATES: usize = 12;

/// Black placements that no White reply could beat by force in plateau's
/// analysis, safest first (one per line: placement, White's best score).
const PLACEMENT_BOOK: &str = include_str!("placement_book.txt");

/// How many of the book's best placements the engine chooses among.
const BOOK_CHOICES: usize = 3;

/// The placements of plateau's book, safest first.
pub fn placement_book() -> Vec<Move> {
    let start = Escampe::new();
    PLACEMENT_BOOK
        .lines()
        .filter(|line| !line.starts_with('#'))
        .filter_map(|line| line.split_whitespace().next())
        .filter_map(|text| start.check_move(text).ok())
        .collect()
}

/// Weights x features, with a placement style.
#[derive(Clone, Debug)]
pub struct EscampeEval {
    weights: [f32; FEATURES],
    /// The weights x 64, rounded: the evaluation sums integers.
    fixed: FixedWeights<FEATURES>,
    /// Whether any feature beyond the seed's two has a weight.
    extra: bool,
    /// Whether mobility (the costly one) has a weight.
    mobility: bool,
    placement: PlacementStyle,
}

impl EscampeEval {
    pub fn new(weights: [f32; FEATURES], placement: PlacementStyle) -> EscampeEval {
        EscampeEval {
            fixed: FixedWeights::new(&weights),
            extra: weights[2..].iter().any(|&w| w != 0.0),
            mobility: weights[MOBILITY] != 0.0,
            weights,
            placement,
        }
    }

    /// The seed player: its two distance terms, its weights, its book.
    pub fn seed() -> EscampeEval {
        EscampeEval::new(SEED_WEIGHTS, PlacementStyle::Book)
    }

    /// plateau's evaluation and searched placement.
    pub fn standard() -> EscampeEval {
        EscampeEval::new(DEFAULT_WEIGHTS, PlacementStyle::Searched)
    }

    /// Weights read from a list (for the tuner and weight files): `None`
    /// unless there is one per feature, each finite and within
    /// ±[`MAX_WEIGHT`](plateau_core::MAX_WEIGHT) (see [`check_weights`]).
    pub fn with_weights(weights: &[f32]) -> Option<EscampeEval> {
        let weights: [f32; FEATURES] = weights.try_into().ok()?;
        check_weights(&FEATURE_NAMES, &weights).ok()?;
        Some(EscampeEval::new(weights, PlacementStyle::Searched))
    }

    pub fn weights(&self) -> &[f32; FEATURES] {
        &self.weights
    }
}

impl Evaluator<Escampe> for EscampeEval {
    #[inline]
    fn evaluate(&self, position: &Escampe) -> i32 {
        if position.phase() != Phase::Play {
            return placement_balance(position);
        }
        let mut values = [0i32; FEATURES];
        EscampeFeatures::fill(position, &mut values, self.extra, self.mobility);
        self.fixed.score(&values)
    }

    fn book_move(&self, position: &Escampe, rng: &mut Rng) -> Option<Move> {
        match (self.placement, position.phase()) {
            (PlacementStyle::Book, _) => book_placement(position),
            (PlacementStyle::Searched, Phase::BlackPlaces) => {
                let book = placement_book();
                let choices = book.len().min(BOOK_CHOICES) as u64;
                (choices > 0).then(|| book[rng.below(choices) as usize])
            }
            (PlacementStyle::Searched, _) => None,
        }
    }

    fn candidate_moves(&self, position: &Escampe, out: &mut MoveList<Move>) {
        position.legal_moves(out);
        match position.phase() {
            Phase::Play => {}
            // White's placement decides the opening: search them all, the most
            // promising first.
            Phase::WhitePlaces => best_placements(position, out, usize::MAX),
            Phase::BlackPlaces => best_placements(position, out, PLACEMENT_CANDIDATES),
        }
    }
}

/// The seed player's book placement for the side to place, if it is placing.
pub fn book_placement(position: &Escampe) -> Option<Move> {
    let text = match position.phase() {
        // Black takes the top edge, as in the brief's examples.
        Phase::BlackPlaces => "A6/A5/B6/C5/F5/E6",
        Phase::WhitePlaces if position.placement_edge(Side::White) == Some(BOTTOM_EDGE) => {
            "A1/A2/B1/E1/F1/C2"
        }
        Phase::WhitePlaces => "A6/A5/B6/C5/F5/E6",
        Phase::Play => return None,
    };
    position.check_move(text).ok()
}

/// Keeps the `keep` best placements of `list` by [`placement_score`], best first
/// (ties in generation order, so the choice is deterministic).
fn best_placements(position: &Escampe, list: &mut MoveList<Move>, keep: usize) {
    let mut scored: Vec<(i32, usize, Move)> = list
        .iter()
        .enumerate()
        .map(|(i, &mv)| (placement_score(position, mv), i, mv))
        .collect();
    scored.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    list.clear();
    for &(_, _, mv) in scored.iter().take(keep) {
        list.push(mv);
    }
}

/// How good a placement is for the side placing, before any search:
///
/// - every liseré must have a piece that can move (or the side may be forced to
///   pass again and again): a heavy penalty per liseré without one;
/// - the unicorn should sit behind walls (own paladins next to it), away from
///   the front row, and never where the opponent's first move could take it;
/// - White, who moves right after placing, takes any unicorn left in reach;
/// - then general mobility.
pub fn placement_score(position: &Escampe, mv: Move) -> i32 {
    let Move::Place { unicorn, paladins } = mv else {
        return 0;
    };
    let side = position.side_to_move();
    let mut after = position.clone();
    after.play(mv);
    let empty = after.empty();
    let mut score = 0;

    // Liseré coverage and mobility, with the pieces as they now stand.
    let mut covered = 0u8;
    let mut mobility = 0;
    for sq in squares(paladins | unicorn.bit()) {
        let reach = Escampe::reachable(sq, empty) & empty;
        if reach != 0 {
            covered |= 1 << sq.lisere();
        }
        mobility += reach.count_ones() as i32;
    }
    score -= 1000 * (3 - covered.count_ones() as i32);
    score += mobility;

    // The unicorn: walls around it, open sides, distance from the front.
    let around = NEIGHBOURS[unicorn.index()];
    score += 30 * (around & paladins).count_ones() as i32;
    score -= 20 * (around & empty).count_ones() as i32;
    let edge = if paladins & BOTTOM_EDGE != 0 {
        BOTTOM_EDGE
    } else {
        TOP_EDGE
    };
    let back_row = if edge == BOTTOM_EDGE { 0 } else { 5 };
    if unicorn.row() == back_row {
        score += 20;
    }

    match side {
        Side::Black => {
            // Any White placement whose first move could take the unicorn?
            let white_edge = edge ^ BOTTOM_EDGE ^ TOP_EDGE;
            let black_only_empty = !(paladins | unicorn.bit()) & ((1u64 << 36) - 1);
            if squares(white_edge)
                .any(|sq| Escampe::reachable(sq, black_only_empty) & unicorn.bit() != 0)
            {
                score -= 5000;
            }
        }
        Side::White => {
            // White moves next, free: can it take Black's unicorn at once?
            let target = after.unicorn(Side::Black);
            if squares(paladins).any(|sq| Escampe::reachable(sq, empty) & target != 0) {
                score += 10_000;
            }
        }
    }
    score
}

/// A rough score for positions still in the placement phase (search leaves
/// there only at very shallow depths).
fn placement_balance(position: &Escampe) -> i32 {
    let empty = position.empty();
    let side = position.side_to_move();
    mobility(position, side, empty) - mobility(position, !side, empty)
}

#[cfg(test)]
mod tests {
    use super::*;
    use plateau_core::EVAL_LIMIT;

    #[test]
    fn the_seed_formula_is_reproduced() {
        // White to move: white paladins b at F6, C5, A4, F3, C2; black unicorn at C1.
        let position = Escampe::from_text("n1B2b/2b3/b1nn2/5b/2b3/nnN3 w 2").unwrap();
        let mut values = [0; FEATURES];
        EscampeFeatures.extract(&position, &mut values);
        // Distances to C1: F6 8, C5 4, A4 5, F3 5, C2 1 -> Σ(10-d) = 27, min 1.
        // Black paladins to C6: A6 2, C4 2, D4 3, A1 7, B1 6 -> Σ(10-d) = 30, min 2.
        assert_eq!(values[0], 27 - 30);
        assert_eq!(values[1], (10 - 1) - (10 - 2));
        assert_eq!(EscampeEval::seed().evaluate(&position), 2 * -3 + 8);
    }

    #[test]
    fn the_book_places_on_the_right_edges() {
        let mut position = Escampe::new();
        let black = book_placement(&position).unwrap();
        assert_eq!(black.to_string(), "A6/A5/C5/F5/B6/E6");
        position.play(black);
        let white = book_placement(&position).unwrap();
        assert_eq!(white.to_string(), "A1/B1/E1/F1/A2/C2");
        position.play(white);
        assert_eq!(position.to_text(), "Nn2n1/n1n2n/6/6/b1b3/Bb2bb w -");
        assert_eq!(book_placement(&position), None);
    }

    #[test]
    fn searched_placements_keep_every_lisere_playable_and_the_unicorn_safe() {
        let position = Escampe::new();
        let mut list = MoveList::new();
        EscampeEval::standard().candidate_moves(&position, &mut list);
        assert_eq!(list.len(), PLACEMENT_CANDIDATES);
        for &mv in list.iter() {
            assert!(placement_score(&position, mv) > 0, "{mv}");
        }
        // The first-move capture squares are never chosen for Black's unicorn.
        for &mv in list.iter() {
            let Move::Place { unicorn, .. } = mv else {
                unreachable!()
            };
            assert!(
                !["A5", "C5", "E5", "B2", "D2"].contains(&unicorn.to_string().as_str()),
                "{mv}"
            );
        }
    }

    #[test]
    fn every_book_line_is_a_legal_black_placement() {
        let lines = PLACEMENT_BOOK
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .count();
        let book = placement_book();
        assert!(book.len() >= BOOK_CHOICES);
        assert_eq!(book.len(), lines, "no line of the book is dropped");
    }

    #[test]
    fn white_placement_takes_an_exposed_unicorn() {
        // Black's unicorn on C5 can be taken by a white paladin on C2 (liseré 3).
        let mut position = Escampe::new();
        position.play(position.check_move("C5/A6/B6/C6/D6/E6").unwrap());
        let mut list = MoveList::new();
        EscampeEval::standard().candidate_moves(&position, &mut list);
        let best = list[0];
        assert!(placement_score(&position, best) >= 10_000, "{best}");
    }

    #[test]
    fn weights_from_outside_must_be_finite_and_bounded() {
        plateau_core::invariants::check_weight_bounds(&DEFAULT_WEIGHTS, EscampeEval::with_weights);
    }

    #[test]
    fn huge_weights_saturate_the_score_instead_of_overflowing() {
        // One feature (attack_sum: 30 against 27) weighted so that weight x value leaves 32
        // bits: the score is the limit, with the right sign on each side.
        let mut weights = [0.0; FEATURES];
        weights[0] = 3.0e7;
        let eval = EscampeEval::new(weights, PlacementStyle::Searched);
        assert_eq!(
            eval.evaluate(&Escampe::from_text("n1B2b/2b3/b1nn2/5b/2b3/nnN3 b 2").unwrap()),
            EVAL_LIMIT - 1
        );
        assert_eq!(
            eval.evaluate(&Escampe::from_text("n1B2b/2b3/b1nn2/5b/2b3/nnN3 w 2").unwrap()),
            -(EVAL_LIMIT - 1)
        );
    }
}
