//! SPSA (simultaneous perturbation stochastic approximation), the method
//! fishtest tunes Stockfish's parameters with: at each step every tuned
//! weight is pushed up or down at random by `c_k`, the two resulting weight
//! sets play a colour-swapped game pair, and the weights move toward the
//! winner by `a_k / c_k` times the result. Noise averages out over many small
//! steps instead of being selected for, which is the evolutionary
//! algorithm's weakness with few games per member.
//!
//! Weights are handled in units of their typical size (the larger of the start
//! and default weight), so one step size suits features of every scale. The
//! gains follow Spall's schedules, `c_k = c / (k+1)^0.101` and
//! `a_k = a / (A+k+1)^0.602` with `A` a tenth of the run, parameterised as
//! fishtest does by their final values: `c_end`, and `r_end = a_end / c_end²`.

use plateau_core::Rng;

/// SPSA's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaSettings {
    /// Steps (one game pair each) per stored generation.
    pub steps_per_generation: u32,
    /// Final perturbation, in units of each weight's typical size.
    pub c_end: f64,
    /// Final learning rate (`a_end / c_end²`).
    pub r_end: f64,
    /// Steps played at once on the same weights: the results do not depend on
    /// the number of threads, only on this.
    pub batch: usize,
}

impl Default for SpsaSettings {
    fn default() -> SpsaSettings {
        SpsaSettings {
            steps_per_generation: 100,
            c_end: 0.1,
            r_end: 0.05,
            batch: 8,
        }
    }
}

const ALPHA: f64 = 0.602;
const GAMMA: f64 = 0.101;

/// Where a run stands.
#[derive(Clone, Debug)]
pub struct SpsaState {
    /// Current weights.
    pub weights: Vec<f32>,
    /// Typical size of each weight (the unit steps are measured in).
    scale: Vec<f64>,
    tuned: Vec<bool>,
    /// Steps done and planned.
    step: u64,
    total: u64,
    c: f64,
    a: f64,
    big_a: f64,
}

/// One step's two weight sets and its perturbation signs.
#[derive(Clone, Debug)]
pub struct Probe {
    pub plus: Vec<f32>,
    pub minus: Vec<f32>,
    signs: Vec<f64>,
    /// `a_k / c_k` of this step.
    gain: f64,
}

impl SpsaState {
    pub fn new(
        start: &[f32],
        typical: &[f32],
        tuned: &[bool],
        settings: &SpsaSettings,
        total: u64,
    ) -> SpsaState {
        let scale = start
            .iter()
            .zip(typical)
            .map(|(s, t)| (s.abs().max(t.abs()) as f64).max(1.0))
            .collect();
        let n = total.max(1) as f64;
        let big_a = 0.1 * n;
        let a_end = settings.r_end * settings.c_end * settings.c_end;
        SpsaState {
            weights: start.to_vec(),
            scale,
            tuned: tuned.to_vec(),
            step: 0,
            total: total.max(1),
            c: settings.c_end * n.powf(GAMMA),
            a: a_end * (big_a + n).powf(ALPHA),
            big_a,
        }
    }

    /// The next step's perturbation (from the current weights).
    pub fn probe(&mut self, rng: &mut Rng) -> Probe {
        let k = self.step as f64;
        self.step += 1;
        let c_k = self.c / (k + 1.0).powf(GAMMA);
        let a_k = self.a / (self.big_a + k + 1.0).powf(ALPHA);
        let signs: Vec<f64> = self
            .tuned
            .iter()
            .map(|&t| {
                if !t {
                    0.0
                } else if rng.below(2) == 0 {
                    -1.0
                } else {
                    1.0
                }
            })
            .collect();
        let shifted = |direction: f64| -> Vec<f32> {
            self.weights
                .iter()
                .zip(&signs)
                .zip(&self.scale)
                .map(|((&w, &s), &scale)| (w as f64 + direction * c_k * s * scale) as f32)
                .collect()
        };
        Probe {
            plus: shifted(1.0),
            minus: shifted(-1.0),
            signs,
            gain: a_k / c_k,
        }
    }

    /// Moves the weights after a probe: `result` is the `plus` side's wins
    /// minus losses over its games.
    pub fn update(&mut self, probe: &Probe, result: f64) {
        for ((w, &sign), &scale) in self.weights.iter_mut().zip(&probe.signs).zip(&self.scale) {
            let moved = *w as f64 + probe.gain * result * sign * scale;
            let limit = crate::weights::MAX_WEIGHT as f64;
            *w = moved.clamp(-limit, limit) as f32;
        }
    }

    pub fn steps_done(&self) -> u64 {
        self.step
    }

    pub fn steps_planned(&self) -> u64 {
        self.total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_follow_the_results_and_untuned_weights_stay() {
        let settings = SpsaSettings::default();
        let mut state = SpsaState::new(
            &[100.0, 10.0, 0.0],
            &[100.0, 8.0, 5.0],
            &[false, true, true],
            &settings,
            1000,
        );
        let mut rng = Rng::new(4);
        let probe = state.probe(&mut rng);
        assert_eq!(probe.plus[0], 100.0);
        assert_eq!(probe.minus[0], 100.0);
        assert!(probe.plus[1] != probe.minus[1]);
        // The plus side won the pair: every weight moves toward it.
        let before = state.weights.clone();
        state.update(&probe, 2.0);
        for (i, old) in before.iter().enumerate().skip(1) {
            let toward = (probe.plus[i] - old).signum();
            assert_eq!((state.weights[i] - old).signum(), toward, "{i}");
        }
        assert_eq!(state.weights[0], 100.0);
    }

    #[test]
    fn the_final_gains_are_the_settings() {
        let settings = SpsaSettings {
            c_end: 0.2,
            r_end: 0.01,
            ..SpsaSettings::default()
        };
        let mut state = SpsaState::new(&[1.0], &[1.0], &[true], &settings, 100);
        let mut rng = Rng::new(1);
        let mut last = None;
        for _ in 0..100 {
            last = Some(state.probe(&mut rng));
        }
        let probe = last.unwrap();
        let c_k = (probe.plus[0] - probe.minus[0]).abs() as f64 / 2.0;
        assert!((c_k - 0.2).abs() < 1e-4, "{c_k}");
        // a_end / c_end = r_end × c_end.
        assert!((probe.gain - 0.01 * 0.2).abs() < 1e-9, "{}", probe.gain);
    }
}
