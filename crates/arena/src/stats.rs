//! Match statistics as cutechess and fastchess compute them: score, Elo
//! difference with a 95% interval, likelihood of superiority.

/// Wins, draws and losses from the first engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points per game, 0 to 1.
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
    }

    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    pub fn draw_ratio(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            0.0
        } else {
            self.draws as f64 / n as f64
        }
    }

    /// Elo difference and the half-width of its 95% interval (trinomial model,
    /// as cutechess prints it). Infinite when one side scored everything.
    pub fn elo(&self) -> (f64, f64) {
        let n = self.games() as f64;
        if n == 0.0 {
            return (0.0, 0.0);
        }
        let score = self.score();
        let w = self.wins as f64 / n;
        let d = self.draws as f64 / n;
        let l = self.losses as f64 / n;
        let variance = w * (1.0 - score).powi(2) + d * (0.5 - score).powi(2) + l * score.powi(2);
        let stderr = (variance / n).sqrt();
        let low = elo_of(score - 1.959_964 * stderr);
        let high = elo_of(score + 1.959_964 * stderr);
        (elo_of(score), (high - low) / 2.0)
    }

    /// Likelihood of superiority: the probability that the first engine is the
    /// stronger, from wins and losses alone.
    pub fn los(&self) -> f64 {
        let (w, l) = (self.wins as f64, self.losses as f64);
        if w + l == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
    }

    /// `+12.3 ± 25.0` style.
    pub fn elo_text(&self) -> String {
        let (elo, margin) = self.elo();
        if elo.is_infinite() {
            return if elo > 0.0 {
                "+inf".into()
            } else {
                "-inf".into()
            };
        }
        if margin.is_nan() || margin.is_infinite() {
            format!("{elo:+.1} ± inf")
        } else {
            format!("{elo:+.1} ± {margin:.1}")
        }
    }
}

/// Elo difference for an expected score.
pub fn elo_of(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The error function (Abramowitz-Stegun 7.1.26, |error| < 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let sign = x.signum();
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t
            + 0.254_829_592)
            * t
            * (-x * x).exp();
    sign * y
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sixty_twenty_twenty_is_a_seventy_percent_score() {
        let tally = Tally {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        assert!((tally.score() - 0.7).abs() < 1e-12);
        let (elo, margin) = tally.elo();
        assert!((elo - 147.19).abs() < 0.05, "{elo}");
        assert!(margin > 50.0 && margin < 90.0, "{margin}");
    }

    #[test]
    fn even_results_are_zero_elo_and_half_los() {
        let tally = Tally {
            wins: 10,
            draws: 5,
            losses: 10,
        };
        assert_eq!(tally.elo().0, 0.0);
        assert!((tally.los() - 0.5).abs() < 1e-9);
    }

    #[test]
    fn los_grows_with_the_margin() {
        let close = Tally {
            wins: 11,
            draws: 0,
            losses: 9,
        };
        let clear = Tally {
            wins: 30,
            draws: 0,
            losses: 10,
        };
        assert!(close.los() > 0.5 && close.los() < clear.los());
        assert!(clear.los() > 0.99);
    }

    #[test]
    fn a_clean_sweep_is_infinite() {
        let tally = Tally {
            wins: 10,
            draws: 0,
            losses: 0,
        };
        assert_eq!(tally.elo_text(), "+inf");
    }

    #[test]
    fn erf_matches_known_values() {
        assert!((erf(0.5) - 0.520_499_877_8).abs() < 1e-6);
        assert!((erf(-1.0) + 0.842_700_792_9).abs() < 1e-6);
    }
}
