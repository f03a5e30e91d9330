//! The evolutionary algorithm's operators on weight vectors: a first
//! population near the start weights, uniform crossover of two good parents,
//! light mutation, and rescaling to the anchor (the seed keeps a man at 1).

use plateau_core::Rng;

/// How weights move.
#[derive(Clone, Debug, PartialEq)]
pub struct Operators {
    /// Which weights may change.
    pub tuned: Vec<bool>,
    /// The weight rescaled back to its start value after every change (a man
    /// is worth 100); `None` leaves the scale free.
    pub anchor: Option<usize>,
    /// The start weights: the anchor's value, and the scale of each step.
    pub start: Vec<f32>,
    /// A typical size for each weight, used where the start weight is zero
    /// (plateau's default weights), so that unused features can come alive.
    pub typical: Vec<f32>,
    /// Chance that a child's weight mutates.
    pub mutation_rate: f64,
    /// Relative size of a mutation (standard deviation, as a fraction of the
    /// weight, or of its typical size when the weight is small).
    pub mutation_size: f64,
    /// Relative spread of the first population around the start weights.
    pub initial_spread: f64,
}

impl Operators {
    /// The smallest magnitude a step of weight `i` is scaled by: a tenth of its
    /// typical size, so that a zero weight can grow.
    fn floor(&self, i: usize) -> f64 {
        let typical = (self.start[i].abs()).max(self.typical[i].abs()) as f64;
        if typical > 0.0 { 0.1 * typical } else { 0.1 }
    }

    /// Moves every tuned weight of `weights` with probability `rate` by a
    /// Gaussian step of relative size `size`.
    fn perturb(&self, weights: &mut [f32], rate: f64, size: f64, rng: &mut Rng) {
        for (i, w) in weights.iter_mut().enumerate() {
            if !self.tuned[i] || rng.unit() >= rate {
                continue;
            }
            let scale = (w.abs() as f64).max(self.floor(i));
            *w = (*w as f64 + gaussian(rng) * size * scale) as f32;
        }
        self.rescale(weights);
        self.tidy(weights);
    }

    /// Brings the anchor back to its start value, scaling the tuned weights
    /// alike (an evaluation's moves do not change when all its weights are
    /// scaled; the untuned ones never left their start values).
    pub fn rescale(&self, weights: &mut [f32]) {
        let Some(anchor) = self.anchor else { return };
        let (target, value) = (self.start[anchor], weights[anchor]);
        // A mutation never flips or kills the anchor: keep its sign and at
        // least a tenth of its size.
        let value = if target != 0.0 && (value / target) < 0.1 {
            target * 0.1
        } else {
            value
        };
        if value == 0.0 {
            return;
        }
        let factor = target / value;
        for (i, w) in weights.iter_mut().enumerate() {
            if self.tuned[i] {
                *w = (*w * factor).clamp(-crate::weights::MAX_WEIGHT, crate::weights::MAX_WEIGHT);
            }
        }
        weights[anchor] = target;
    }

    /// Rounds the tuned weights to thousandths: far below what the evaluation
    /// can tell apart (a man is 100), and weight files stay readable.
    fn tidy(&self, weights: &mut [f32]) {
        for (i, w) in weights.iter_mut().enumerate() {
            if self.tuned[i] {
                *w = ((*w as f64 * 1000.0).round() / 1000.0) as f32;
            }
        }
    }

    /// The first population: the start weights themselves, then `size - 1`
    /// variations of them.
    pub fn initial(&self, size: usize, rng: &mut Rng) -> Vec<Vec<f32>> {
        let mut population = vec![self.start.clone()];
        while population.len() < size {
            let mut weights = self.start.clone();
            self.perturb(&mut weights, 1.0, self.initial_spread, rng);
            population.push(weights);
        }
        population.truncate(size);
        population
    }

    /// A child of two parents: each weight from one or the other (uniform
    /// crossover), then lightly mutated.
    pub fn child(&self, a: &[f32], b: &[f32], rng: &mut Rng) -> Vec<f32> {
        let mut weights: Vec<f32> = a
            .iter()
            .zip(b)
            .map(|(&x, &y)| if rng.unit() < 0.5 { x } else { y })
            .collect();
        self.perturb(&mut weights, self.mutation_rate, self.mutation_size, rng);
        weights
    }
}

/// A standard normal draw (Box-Muller).
pub fn gaussian(rng: &mut Rng) -> f64 {
    let u = rng.unit().max(f64::MIN_POSITIVE);
    let v = rng.unit();
    (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
}

/// The next population from one ranked best first: the `elite` best survive
/// unchanged, the other places go to children of two different parents drawn
/// among the `parents` best.
pub fn next_population(
    ranked: &[Vec<f32>],
    elite: usize,
    parents: usize,
    operators: &Operators,
    rng: &mut Rng,
) -> Vec<Vec<f32>> {
    let size = ranked.len();
    let elite = elite.min(size);
    let parents = parents.clamp(1, size);
    let mut next: Vec<Vec<f32>> = ranked[..elite].to_vec();
    while next.len() < size {
        let a = rng.below(parents as u64) as usize;
        let mut b = rng.below(parents as u64) as usize;
        if parents > 1 {
            while b == a {
                b = rng.below(parents as u64) as usize;
            }
        }
        next.push(operators.child(&ranked[a], &ranked[b], rng));
    }
    next
}

#[cfg(test)]
mod tests {
    use super::*;

    fn operators() -> Operators {
        Operators {
            tuned: vec![true, true, true, false],
            anchor: Some(0),
            start: vec![100.0, 300.0, 0.0, 7.0],
            typical: vec![100.0, 320.0, 5.0, 7.0],
            mutation_rate: 1.0,
            mutation_size: 0.2,
            initial_spread: 0.2,
        }
    }

    #[test]
    fn the_anchor_stays_and_untuned_weights_never_move() {
        let ops = operators();
        let mut rng = Rng::new(5);
        let population = ops.initial(12, &mut rng);
        assert_eq!(population[0], ops.start);
        for weights in &population {
            assert_eq!(weights[0], 100.0);
            assert_eq!(weights[3], 7.0);
            assert!(weights.iter().all(|w| w.is_finite()));
        }
        let moved = population.iter().filter(|w| w[2] != 0.0).count();
        assert!(moved >= 10, "zero weights come alive: {moved}");
        let child = ops.child(&population[1], &population[2], &mut rng);
        assert_eq!(child[0], 100.0);
        assert_eq!(child[3], 7.0);
    }

    #[test]
    fn rescaling_keeps_the_ratios() {
        let ops = operators();
        let mut weights = vec![50.0, 150.0, 2.0, 7.0];
        ops.rescale(&mut weights);
        assert_eq!(weights, vec![100.0, 300.0, 4.0, 7.0]);
        let mut flipped = vec![-50.0, 150.0, 2.0, 7.0];
        ops.rescale(&mut flipped);
        assert_eq!(flipped[0], 100.0);
        assert!(flipped[1] > 0.0);
    }

    #[test]
    fn the_elite_survives_and_children_fill_the_rest() {
        let ops = operators();
        let mut rng = Rng::new(9);
        let ranked = ops.initial(12, &mut rng);
        let next = next_population(&ranked, 3, 6, &ops, &mut rng);
        assert_eq!(next.len(), 12);
        assert_eq!(next[..3], ranked[..3]);
    }

    #[test]
    fn gaussian_draws_have_unit_spread() {
        let mut rng = Rng::new(1);
        let draws: Vec<f64> = (0..20_000).map(|_| gaussian(&mut rng)).collect();
        let mean = draws.iter().sum::<f64>() / draws.len() as f64;
        let var = draws.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / draws.len() as f64;
        assert!(
            mean.abs() < 0.03 && (var - 1.0).abs() < 0.05,
            "{mean} {var}"
        );
    }
}
