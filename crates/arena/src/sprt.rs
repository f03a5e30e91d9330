//! The sequential probability ratio test: play until the games say, with
//! chosen error rates, whether the Elo difference is nearer `elo0` or `elo1`.
//!
//! Three log-likelihood ratios:
//!
//! - [`llr_pentanomial`]: the generalised SPRT on pair totals with logistic
//!   Elo bounds, as fastchess (`model=logistic`) and fishtest compute it: the
//!   maximum-likelihood distributions of pair scores whose mean is the score
//!   of `elo0` and of `elo1` (Van den Bergh, "Comments on Normalized Elo",
//!   proposition 1.1), compared on the observed frequencies. What the match
//!   runner uses, since its games come in colour-swapped pairs;
//! - [`llr_trinomial`]: the same on single games;
//! - [`llr_cutechess`]: cutechess-cli's BayesElo test on wins, draws and
//!   losses, for comparison with its output.
//!
//! The bounds are Wald's: accept H1 when the LLR reaches `ln((1-β)/α)`, H0
//! when it falls to `ln(β/(1-α))`.

use crate::stats::{PAIR_SCORES, Pentanomial, Tally, score_of};
use std::fmt;

/// A test of `H0: Elo = elo0` against `H1: Elo = elo1` with error rates
/// `alpha` (accepting H1 when H0 holds) and `beta` (the reverse).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Where a test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtStatus {
    Continue,
    /// The difference is at most `elo0` (with error rate `beta`).
    AcceptH0,
    /// The difference is at least `elo1` (with error rate `alpha`).
    AcceptH1,
}

impl fmt::Display for SprtStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtStatus::Continue => "continue",
            SprtStatus::AcceptH0 => "H0 accepted",
            SprtStatus::AcceptH1 => "H1 accepted",
        })
    }
}

impl Sprt {
    /// Checks the parameters as fastchess does.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        if !(elo0.is_finite() && elo1.is_finite()) || elo0 >= elo1 {
            return Err(format!(
                "SPRT: elo0 ({elo0}) must be less than elo1 ({elo1})"
            ));
        }
        for (name, value) in [("alpha", alpha), ("beta", beta)] {
            if !(value > 0.0 && value < 1.0) {
                return Err(format!("SPRT: {name} ({value}) must lie between 0 and 1"));
            }
        }
        if alpha + beta >= 1.0 {
            return Err("SPRT: alpha + beta must be less than 1".into());
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// Reads `elo0,elo1,alpha,beta`, e.g. `0,10,0.05,0.05`.
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        if parts.len() != 4 {
            return Err(format!(
                "SPRT {text:?}: expected elo0,elo1,alpha,beta (e.g. 0,10,0.05,0.05)"
            ));
        }
        let mut values = [0.0; 4];
        for (value, part) in values.iter_mut().zip(&parts) {
            *value = part
                .parse()
                .map_err(|_| format!("SPRT {text:?}: {part:?} is not a number"))?;
        }
        Sprt::new(values[0], values[1], values[2], values[3])
    }

    /// `(lower, upper)`: accept H0 at or below the first, H1 at or above the second.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The LLR of a match: on pairs when there are any, else on games.
    pub fn llr(&self, tally: &Tally, penta: &Pentanomial) -> f64 {
        if penta.pairs() > 0 {
            llr_pentanomial(penta, self.elo0, self.elo1)
        } else {
            llr_trinomial(tally, self.elo0, self.elo1)
        }
    }

    pub fn status(&self, llr: f64) -> SprtStatus {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtStatus::AcceptH1
        } else if llr <= lower {
            SprtStatus::AcceptH0
        } else {
            SprtStatus::Continue
        }
    }
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0 {}, elo1 {}, alpha {}, beta {}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

/// An empty class counts as a thousandth of a game (fastchess), so that a
/// short match with no draws yet still has a finite likelihood.
fn regularize(count: u32) -> f64 {
    if count == 0 { 1e-3 } else { count as f64 }
}

/// Generalised SPRT on pair totals, logistic Elo bounds (fastchess, fishtest).
pub fn llr_pentanomial(penta: &Pentanomial, elo0: f64, elo1: f64) -> f64 {
    let counts = penta.counts().map(regularize);
    llr_logistic(&counts, &PAIR_SCORES, elo0, elo1)
}

/// Generalised SPRT on single games, logistic Elo bounds (fastchess).
pub fn llr_trinomial(tally: &Tally, elo0: f64, elo1: f64) -> f64 {
    let counts = [
        regularize(tally.losses),
        regularize(tally.draws),
        regularize(tally.wins),
    ];
    llr_logistic(&counts, &[0.0, 0.5, 1.0], elo0, elo1)
}

fn llr_logistic(counts: &[f64], scores: &[f64], elo0: f64, elo1: f64) -> f64 {
    let total: f64 = counts.iter().sum();
    let probs: Vec<f64> = counts.iter().map(|c| c / total).collect();
    let p0 = closest_with_mean(&probs, scores, score_of(elo0));
    let p1 = closest_with_mean(&probs, scores, score_of(elo1));
    total
        * probs
            .iter()
            .zip(p0.iter().zip(&p1))
            .map(|(p, (a, b))| p * (b.ln() - a.ln()))
            .sum::<f64>()
}

/// The distribution on `scores` of mean `target` that is most likely to have
/// produced the empirical frequencies `probs`: `p_i = q_i / (1 + θ (a_i - s))`
/// with θ the root of `Σ q_i (a_i - s) / (1 + θ (a_i - s)) = 0`, which is
/// decreasing in θ on the interval where every `p_i` stays positive, so
/// bisection finds it.
fn closest_with_mean(probs: &[f64], scores: &[f64], target: f64) -> Vec<f64> {
    let (first, last) = (scores[0], scores[scores.len() - 1]);
    let f = |theta: f64| -> f64 {
        probs
            .iter()
            .zip(scores)
            .map(|(q, a)| q * (a - target) / (1.0 + theta * (a - target)))
            .sum()
    };
    // f → +∞ at the lower end of the interval, −∞ at the upper.
    let mut low = -1.0 / (last - target);
    let mut high = -1.0 / (first - target);
    for _ in 0..200 {
        let mid = 0.5 * (low + high);
        if mid <= low || mid >= high {
            break;
        }
        if f(mid) > 0.0 {
            low = mid;
        } else {
            high = mid;
        }
    }
    let theta = 0.5 * (low + high);
    probs
        .iter()
        .zip(scores)
        .map(|(q, a)| q / (1.0 + theta * (a - target)))
        .collect()
}

/// cutechess-cli's SPRT: BayesElo model with the draw Elo estimated from the
/// games, bounds given in logistic Elo scaled to BayesElo. Zero until there is
/// at least one win, one draw and one loss (cutechess keeps playing).
pub fn llr_cutechess(tally: &Tally, elo0: f64, elo1: f64) -> f64 {
    if tally.wins == 0 || tally.losses == 0 || tally.draws == 0 {
        return 0.0;
    }
    let n = tally.games() as f64;
    let (p_win, p_loss) = (tally.wins as f64 / n, tally.losses as f64 / n);
    let draw_elo = 200.0 * ((1.0 - p_loss) / p_loss * (1.0 - p_win) / p_win).log10();
    let x = 10f64.powf(-draw_elo / 400.0);
    let scale = 4.0 * x / ((1.0 + x) * (1.0 + x));
    let law = |bayes_elo: f64| {
        let win = 1.0 / (1.0 + 10f64.powf((draw_elo - bayes_elo) / 400.0));
        let loss = 1.0 / (1.0 + 10f64.powf((draw_elo + bayes_elo) / 400.0));
        (win, loss, 1.0 - win - loss)
    };
    let (w0, l0, d0) = law(elo0 / scale);
    let (w1, l1, d1) = law(elo1 / scale);
    tally.wins as f64 * (w1 / w0).ln()
        + tally.losses as f64 * (l1 / l0).ln()
        + tally.draws as f64 * (d1 / d0).ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(wins: u32, draws: u32, losses: u32) -> Tally {
        Tally {
            wins,
            draws,
            losses,
        }
    }

    #[test]
    fn bounds_are_walds() {
        let sprt = Sprt::parse("0,10,0.05,0.05").unwrap();
        let (lower, upper) = sprt.bounds();
        assert!((lower + 2.944_438_979).abs() < 1e-9);
        assert!((upper - 2.944_438_979).abs() < 1e-9);
        assert_eq!(sprt.status(3.0), SprtStatus::AcceptH1);
        assert_eq!(sprt.status(-3.0), SprtStatus::AcceptH0);
        assert_eq!(sprt.status(0.5), SprtStatus::Continue);
    }

    #[test]
    fn bad_parameters_are_refused_with_a_reason() {
        assert!(
            Sprt::parse("10,0,0.05,0.05")
                .unwrap_err()
                .contains("less than")
        );
        assert!(Sprt::parse("0,10,1.5,0.05").unwrap_err().contains("alpha"));
        assert!(Sprt::parse("0,10,0.05").unwrap_err().contains("elo0,elo1"));
        assert!(Sprt::parse("0,x,0.05,0.05").unwrap_err().contains("\"x\""));
        assert!(Sprt::parse("0,10,0.6,0.5").is_err());
    }

    #[test]
    fn cutechess_llr_on_fixed_inputs() {
        // Values from cutechess's formulas (sprt.cpp), computed independently.
        let cases = [
            (tally(60, 20, 20), 0.0, 10.0, 1.462_839),
            (tally(120, 300, 100), 0.0, 5.0, 0.554_794),
            (tally(100, 300, 120), 0.0, 5.0, -0.809_913),
        ];
        for (t, elo0, elo1, expected) in cases {
            let llr = llr_cutechess(&t, elo0, elo1);
            assert!((llr - expected).abs() < 1e-5, "{t:?}: {llr}");
        }
        assert_eq!(llr_cutechess(&tally(5, 0, 3), 0.0, 10.0), 0.0);
    }

    #[test]
    fn logistic_llr_on_fixed_inputs() {
        // fastchess's GSPRT (model=logistic), computed independently.
        let t = tally(60, 20, 20);
        let llr = llr_trinomial(&t, 0.0, 10.0);
        assert!((llr - 1.389_822).abs() < 1e-5, "{llr}");
        let penta = Pentanomial {
            ll: 5,
            ld: 10,
            wl: 15,
            dd: 25,
            wd: 25,
            ww: 20,
        };
        let llr = llr_pentanomial(&penta, 0.0, 10.0);
        assert!((llr - 1.770_862).abs() < 1e-5, "{llr}");
        let llr = llr_pentanomial(&penta, 100.0, 150.0);
        assert!((llr + 5.426_038).abs() < 1e-5, "{llr}");
    }

    #[test]
    fn the_llr_grows_with_evidence_for_h1() {
        let sprt = Sprt::new(0.0, 20.0, 0.05, 0.05).unwrap();
        let weak = tally(30, 40, 30);
        let strong = tally(60, 40, 20);
        let none = Pentanomial::default();
        assert!(sprt.llr(&weak, &none) < 0.0);
        assert!(sprt.llr(&strong, &none) > sprt.bounds().1);
    }
}
