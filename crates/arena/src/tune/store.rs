//! A tuning run on disk: one directory holding the settings, every
//! generation's champion as a weight file (usable as `gen=RUN:N`), every
//! population with its scores, the curve as a table and a picture, and the
//! final verification. Files are rewritten as the run goes, so an interrupted
//! run keeps what it finished.

use super::{GenerationReport, TuneError};
use crate::stats::Tally;
use crate::tune::plot::{CurvePoint, curve_svg};
use crate::weights::{format_value, format_weights};
use plateau_games::GameSpec;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The final champion's weight file (`gen=RUN:last`).
pub const CHAMPION_FILE: &str = "champion.txt";
/// The settings of the run.
pub const SETTINGS_FILE: &str = "run.txt";
/// Generation, result against the start weights, interval, champion weights.
pub const CURVE_FILE: &str = "curve.tsv";
/// The curve as a picture.
pub const PLOT_FILE: &str = "curve.svg";
/// The final verification match.
pub const VERIFY_FILE: &str = "verify.txt";

/// `gen-007.txt`: the champion of generation 7 (0 is the start weights).
pub fn generation_file_name(number: u32) -> String {
    format!("gen-{number:03}.txt")
}

fn population_file_name(number: u32) -> String {
    format!("population-{number:03}.tsv")
}

/// Writes into a run directory; with no directory (an empty `--out`, the
/// browser build, which keeps generations itself from the run's events)
/// writes nothing.
pub(crate) struct Store {
    dir: Option<PathBuf>,
    spec: GameSpec,
}

impl Store {
    /// Creates the directory; refuses one that already holds a run, so that
    /// no result is overwritten by mistake.
    pub(crate) fn create(dir: &Path, spec: GameSpec) -> Result<Store, TuneError> {
        if dir.as_os_str().is_empty() {
            return Ok(Store { dir: None, spec });
        }
        if dir.join(SETTINGS_FILE).exists() {
            return Err(TuneError::Config(format!(
                "{} already holds a tuning run; choose another --out or remove it",
                dir.display()
            )));
        }
        std::fs::create_dir_all(dir).map_err(|source| TuneError::Io {
            path: dir.display().to_string(),
            source,
        })?;
        Ok(Store {
            dir: Some(dir.to_path_buf()),
            spec,
        })
    }

    pub(crate) fn write(&self, name: &str, text: &str) -> Result<(), TuneError> {
        let Some(dir) = &self.dir else {
            return Ok(());
        };
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|source| TuneError::Io {
            path: path.display().to_string(),
            source,
        })
    }

    pub(crate) fn weights(
        &self,
        name: &str,
        weights: &[f32],
        comments: &[String],
    ) -> Result<(), TuneError> {
        self.write(name, &format_weights(&self.spec, weights, comments))
    }

    /// A generation: its champion's weight file and its ranked population.
    pub(crate) fn generation(&self, report: &GenerationReport) -> Result<(), TuneError> {
        let comments = vec![
            format!("generation {} champion", report.number),
            format!(
                "selection: {} points in {} games",
                report.ranked[0].points, report.ranked[0].games
            ),
            format!("against the start weights: {}", tally_text(&report.measure)),
        ];
        self.weights(
            &generation_file_name(report.number),
            &report.ranked[0].weights,
            &comments,
        )?;
        let features = self.spec.info.tuning.features;
        let mut table = format!("rank\tpoints\tgames\t{}\n", features.join("\t"));
        for (rank, member) in report.ranked.iter().enumerate() {
            let values: Vec<String> = member.weights.iter().map(|w| format_value(*w)).collect();
            let _ = writeln!(
                table,
                "{}\t{}\t{}\t{}",
                rank + 1,
                member.points,
                member.games,
                values.join("\t")
            );
        }
        self.write(&population_file_name(report.number), &table)
    }

    /// The curve so far, as a table and a picture.
    pub(crate) fn curve(
        &self,
        title: &str,
        reports: &[GenerationReport],
        verification: Option<Tally>,
    ) -> Result<(), TuneError> {
        let features = self.spec.info.tuning.features;
        let mut table = format!(
            "generation\twins\tdraws\tlosses\tscore\tlow95\thigh95\t{}\n",
            features.join("\t")
        );
        for report in reports {
            let t = &report.measure;
            let (low, high) = t.score_interval();
            let values: Vec<String> = report.ranked[0]
                .weights
                .iter()
                .map(|w| format_value(*w))
                .collect();
            let _ = writeln!(
                table,
                "{}\t{}\t{}\t{}\t{:.4}\t{:.4}\t{:.4}\t{}",
                report.number,
                t.wins,
                t.draws,
                t.losses,
                t.score(),
                low,
                high,
                values.join("\t")
            );
        }
        self.write(CURVE_FILE, &table)?;
        let points: Vec<CurvePoint> = reports
            .iter()
            .map(|r| CurvePoint {
                generation: r.number,
                tally: r.measure,
            })
            .collect();
        self.write(PLOT_FILE, &curve_svg(title, &points, verification))
    }
}

/// `+5 =2 -1 (75.0%)`.
pub(crate) fn tally_text(tally: &Tally) -> String {
    format!(
        "+{} ={} -{} ({:.1}%)",
        tally.wins,
        tally.draws,
        tally.losses,
        100.0 * tally.score()
    )
}
