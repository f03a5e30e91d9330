//! Match statistics as cutechess and fastchess compute them: score, Elo
//! difference with a 95% interval, likelihood of superiority, draw ratio, and
//! the pentanomial counts of colour-swapped game pairs.
//!
//! Two models of the same games:
//!
//! - the *trinomial* one (cutechess) treats every game as independent: win,
//!   draw or loss;
//! - the *pentanomial* one (fastchess, fishtest) counts game *pairs* (one
//!   opening, both colours) by their total, 0 to 2 points. Games sharing an
//!   opening are correlated, so this is the honest error bar when openings are
//!   unbalanced, and usually the tighter one.

/// 1.959964: the 97.5% quantile of the normal law (two-sided 95% interval).
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses from the first engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Tally {
    /// Adds one game scored `score` (1, 0.5 or 0) for the first engine.
    pub fn add(&mut self, score: f64) {
        match score {
            s if s > 0.75 => self.wins += 1,
            s if s < 0.25 => self.losses += 1,
            _ => self.draws += 1,
        }
    }

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

    /// Standard error of the score per game (trinomial model).
    pub fn score_stderr(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let score = self.score();
        let w = self.wins as f64 / n;
        let d = self.draws as f64 / n;
        let l = self.losses as f64 / n;
        let variance = w * (1.0 - score).powi(2) + d * (0.5 - score).powi(2) + l * score.powi(2);
        (variance / n).sqrt()
    }

    /// Elo difference and the half-width of its 95% interval (trinomial model,
    /// as cutechess prints it). Infinite when one side scored everything.
    pub fn elo(&self) -> (f64, f64) {
        if self.games() == 0 {
            return (0.0, 0.0);
        }
        elo_interval(self.score(), self.score_stderr())
    }

    /// Likelihood of superiority: the probability that the first engine is the
    /// stronger, from wins and losses alone (cutechess).
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
        elo_text(elo, margin)
    }

    /// The 95% interval of the score: Wilson's interval for a proportion,
    /// which stays inside 0..1 and does not collapse to a point after a clean
    /// sweep of a few games (the normal one does). Draws make the true
    /// variance smaller, so this errs on the wide side.
    pub fn score_interval(&self) -> (f64, f64) {
        let n = self.games() as f64;
        if n == 0.0 {
            return (0.0, 1.0);
        }
        let p = self.score();
        let z2 = Z95 * Z95;
        let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
        ((centre - half).max(0.0), (centre + half).min(1.0))
    }
}

/// The five possible totals of a colour-swapped game pair, from the first
/// engine's point of view: `LL` (0 points), `LD` (½), `WL` and `DD` (1; kept
/// apart because they say different things about the openings), `WD` (1½),
/// `WW` (2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    pub ll: u32,
    pub ld: u32,
    pub wl: u32,
    pub dd: u32,
    pub wd: u32,
    pub ww: u32,
}

impl Pentanomial {
    /// Adds a pair from the first engine's two game scores (each 1, ½ or 0).
    pub fn add_pair(&mut self, first: f64, second: f64) {
        let is_draw = |s: f64| (0.25..=0.75).contains(&s);
        let total = first + second;
        if total < 0.25 {
            self.ll += 1;
        } else if total < 0.75 {
            self.ld += 1;
        } else if total < 1.25 {
            if is_draw(first) && is_draw(second) {
                self.dd += 1;
            } else {
                self.wl += 1;
            }
        } else if total < 1.75 {
            self.wd += 1;
        } else {
            self.ww += 1;
        }
    }

    pub fn pairs(&self) -> u32 {
        self.ll + self.ld + self.wl + self.dd + self.wd + self.ww
    }

    /// The counts in fastchess's order: `[LL, LD, WL+DD, WD, WW]`.
    pub fn counts(&self) -> [u32; 5] {
        [self.ll, self.ld, self.wl + self.dd, self.wd, self.ww]
    }

    /// Mean score per game and the variance of a pair's mean score.
    fn moments(&self) -> (f64, f64) {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return (0.5, 0.0);
        }
        let probs = self.counts().map(|c| c as f64 / n);
        let score: f64 = probs.iter().zip(PAIR_SCORES).map(|(p, s)| p * s).sum();
        let variance = probs
            .iter()
            .zip(PAIR_SCORES)
            .map(|(p, s)| p * (s - score).powi(2))
            .sum();
        (score, variance)
    }

    /// Points per game, 0 to 1.
    pub fn score(&self) -> f64 {
        self.moments().0
    }

    /// Standard error of the score (pairs as the independent units).
    pub fn score_stderr(&self) -> f64 {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return 0.0;
        }
        (self.moments().1 / n).sqrt()
    }

    /// Elo difference and the half-width of its 95% interval (fastchess).
    pub fn elo(&self) -> (f64, f64) {
        if self.pairs() == 0 {
            return (0.0, 0.0);
        }
        elo_interval(self.score(), self.score_stderr())
    }

    /// Normalised Elo (fastchess's nElo): the score's distance from ½ in units
    /// of the per-pair standard deviation, so that equal nElo means equal
    /// effort to detect whatever the draw rate.
    pub fn nelo(&self) -> f64 {
        let (score, variance) = self.moments();
        if variance <= 0.0 {
            // Every pair scored alike: no spread to measure the distance in.
            return if score > 0.5 {
                f64::INFINITY
            } else if score < 0.5 {
                f64::NEG_INFINITY
            } else {
                0.0
            };
        }
        (score - 0.5) / (2.0 * variance).sqrt() * (800.0 / std::f64::consts::LN_10)
    }

    /// Likelihood of superiority from the pair totals (fastchess).
    pub fn los(&self) -> f64 {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return 0.5;
        }
        let (score, variance) = self.moments();
        let per_pair = variance / n;
        if per_pair <= 0.0 {
            return if score > 0.5 {
                1.0
            } else if score < 0.5 {
                0.0
            } else {
                0.5
            };
        }
        (1.0 - erf(-(score - 0.5) / (2.0 * per_pair).sqrt())) / 2.0
    }
}

/// Score per game of each pentanomial class, in [`Pentanomial::counts`] order.
pub(crate) const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Elo for `score` and half the width of the Elo interval of `score ± 1.96 se`.
fn elo_interval(score: f64, stderr: f64) -> (f64, f64) {
    let low = elo_of(score - Z95 * stderr);
    let high = elo_of(score + Z95 * stderr);
    (elo_of(score), (high - low) / 2.0)
}

/// A match's result block, as `plateau match` and `plateau dxp` print it:
/// W/D/L with the score and draw rate, Elo ± 95% over the pairs (the
/// trinomial alongside, and normalised Elo), the LOS, and the pair counts;
/// from the games alone when no pair is complete.
pub fn result_lines(t: &Tally, p: &Pentanomial) -> String {
    let mut text = format!(
        "  W/D/L   +{} ={} -{}   score {:.1}/{} = {:.1}%   draws {:.1}%\n",
        t.wins,
        t.draws,
        t.losses,
        t.points(),
        t.games(),
        100.0 * t.score(),
        100.0 * t.draw_ratio()
    );
    let (tri_elo, tri_margin) = t.elo();
    if p.pairs() > 0 {
        let (elo, margin) = p.elo();
        text += &format!(
            "  Elo     {}  (95%, over {} pair{}; trinomial {})   nElo {:+.1}\n",
            elo_text(elo, margin),
            p.pairs(),
            if p.pairs() == 1 { "" } else { "s" },
            elo_text(tri_elo, tri_margin),
            p.nelo()
        );
        text += &format!("  LOS     {:.1}%\n", 100.0 * p.los());
        text += &format!(
            "  pairs   LL {}  LD {}  WL {}  DD {}  WD {}  WW {}\n",
            p.ll, p.ld, p.wl, p.dd, p.wd, p.ww
        );
    } else {
        text += &format!(
            "  Elo     {}  (95%, trinomial)\n",
            elo_text(tri_elo, tri_margin)
        );
        text += &format!("  LOS     {:.1}%\n", 100.0 * t.los());
    }
    text
}

/// `+12.3 ± 25.0`, `+inf`, `+300.0 ± inf`.
pub fn elo_text(elo: f64, margin: f64) -> String {
    // -0.0 (an even score) prints as +0.0.
    let elo = if elo == 0.0 { 0.0 } else { elo };
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

/// Expected score for an Elo difference (the logistic curve).
pub fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
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

    fn tally(wins: u32, draws: u32, losses: u32) -> Tally {
        Tally {
            wins,
            draws,
            losses,
        }
    }

    #[test]
    fn sixty_twenty_twenty_is_a_seventy_percent_score() {
        let tally = tally(60, 20, 20);
        assert!((tally.score() - 0.7).abs() < 1e-12);
        let (elo, margin) = tally.elo();
        assert!((elo - 147.19).abs() < 0.05, "{elo}");
        // cutechess: stdev = sqrt(.6 × .09 + .2 × .04 + .2 × .49) / sqrt(100),
        // margin = (Elo(0.7 + 1.96 stdev) - Elo(0.7 - 1.96 stdev)) / 2.
        assert!((margin - 66.01).abs() < 0.01, "{margin}");
        assert!((tally.draw_ratio() - 0.2).abs() < 1e-12);
        // LOS = ½(1 + erf(40 / sqrt(160))).
        assert!((tally.los() - 0.999_996_1).abs() < 1e-6, "{}", tally.los());
    }

    #[test]
    fn even_results_are_zero_elo_and_half_los() {
        let tally = tally(10, 5, 10);
        assert_eq!(tally.elo().0, 0.0);
        assert!(
            tally.elo_text().starts_with("+0.0 ± "),
            "{}",
            tally.elo_text()
        );
        assert!((tally.los() - 0.5).abs() < 1e-9);
    }

    #[test]
    fn los_matches_cutechess_on_fixed_inputs() {
        // ½(1 + erf((w - l) / sqrt(2(w + l)))), computed independently.
        for (w, l, expected) in [
            (11, 9, 0.672_639_6),
            (30, 10, 0.999_217_3),
            (52, 48, 0.655_421_7),
        ] {
            let los = tally(w, 7, l).los();
            assert!((los - expected).abs() < 1e-6, "{w}/{l}: {los}");
        }
    }

    #[test]
    fn a_clean_sweep_is_infinite() {
        assert_eq!(tally(10, 0, 0).elo_text(), "+inf");
        let (low, high) = tally(8, 0, 0).score_interval();
        assert!(high == 1.0 && low > 0.6 && low < 0.7, "{low}");
    }

    #[test]
    fn wilson_interval_contains_the_score() {
        let t = tally(5, 2, 1);
        let (low, high) = t.score_interval();
        assert!(low < t.score() && t.score() < high);
    }

    #[test]
    fn a_clean_sweep_has_infinite_normalised_elo() {
        let mut sweep = Pentanomial::default();
        let mut even = Pentanomial::default();
        for _ in 0..10 {
            sweep.add_pair(1.0, 1.0);
            even.add_pair(1.0, 0.0);
        }
        assert_eq!(sweep.nelo(), f64::INFINITY);
        assert_eq!(even.nelo(), 0.0);
    }

    #[test]
    fn erf_matches_known_values() {
        assert!((erf(0.5) - 0.520_499_877_8).abs() < 1e-6);
        assert!((erf(-1.0) + 0.842_700_792_9).abs() < 1e-6);
    }

    #[test]
    fn pairs_are_classified_by_their_total() {
        let mut penta = Pentanomial::default();
        penta.add_pair(1.0, 1.0);
        penta.add_pair(1.0, 0.5);
        penta.add_pair(0.5, 0.5);
        penta.add_pair(1.0, 0.0);
        penta.add_pair(0.0, 0.5);
        penta.add_pair(0.0, 0.0);
        assert_eq!(
            penta,
            Pentanomial {
                ll: 1,
                ld: 1,
                wl: 1,
                dd: 1,
                wd: 1,
                ww: 1
            }
        );
        assert_eq!(penta.counts(), [1, 1, 2, 1, 1]);
        assert!((penta.score() - 0.5).abs() < 1e-12);
    }

    #[test]
    fn pentanomial_elo_matches_fastchess_on_fixed_counts() {
        // [LL, LD, WL+DD, WD, WW] = [5, 10, 40, 25, 20]: score 0.6125, variance
        // of a pair's mean 0.0717, computed independently from fastchess's formulas.
        let penta = Pentanomial {
            ll: 5,
            ld: 10,
            wl: 15,
            dd: 25,
            wd: 25,
            ww: 20,
        };
        assert!((penta.score() - 0.6125).abs() < 1e-12);
        let (elo, margin) = penta.elo();
        assert!((elo - 79.53).abs() < 0.01, "{elo}");
        assert!((margin - 38.60).abs() < 0.01, "{margin}");
        assert!((penta.nelo() - 103.20).abs() < 0.01, "{}", penta.nelo());
        assert!((penta.los() - 0.999_986_7).abs() < 1e-6, "{}", penta.los());
    }
}
