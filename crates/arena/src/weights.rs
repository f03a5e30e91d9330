//! Weight files: one evaluation as text, `name = value` per feature.
//!
//! ```text
//! # plateau weights for draughts
//! men = 100
//! kings = 300
//! advancement = 1.111
//! ...
//! ```
//!
//! Blank lines and `#` comments are ignored; every feature of the game must
//! appear exactly once, under the names `plateau games` and the tuner use (a
//! game's [`Tuning::features`](plateau_games::Tuning)). The values are the
//! evaluation's own units (a man, a stone, a marble is 100).

use plateau_games::GameSpec;
use std::fmt::Write as _;
use std::path::Path;
use thiserror::Error;

/// Largest weight file read.
const MAX_BYTES: u64 = 64 * 1024;

/// Largest absolute weight accepted: far beyond any sensible evaluation, small
/// enough that a weighted sum of features cannot overflow the search's scores.
pub const MAX_WEIGHT: f32 = 1.0e5;

/// Why a weight file was refused.
#[derive(Debug, Error)]
pub enum WeightsError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path} is {size} bytes: too large for a weight file (at most {MAX_BYTES})")]
    TooLarge { path: String, size: u64 },
    #[error("line {line}: {reason}")]
    Line { line: usize, reason: String },
    #[error("{0}")]
    Incomplete(String),
}

/// Reads weights for `spec`'s features from a file.
pub fn read_weights(spec: &GameSpec, path: &Path) -> Result<Vec<f32>, WeightsError> {
    let name = path.display().to_string();
    let io = |source| WeightsError::Io {
        path: name.clone(),
        source,
    };
    let size = std::fs::metadata(path).map_err(io)?.len();
    if size > MAX_BYTES {
        return Err(WeightsError::TooLarge { path: name, size });
    }
    let text = std::fs::read_to_string(path).map_err(io)?;
    parse_weights(spec, &text)
}

/// Reads weights for `spec`'s features from a text.
pub fn parse_weights(spec: &GameSpec, text: &str) -> Result<Vec<f32>, WeightsError> {
    let names = spec.info.tuning.features;
    let mut weights: Vec<Option<f32>> = vec![None; names.len()];
    for (number, raw) in text.lines().enumerate() {
        let line_error = |reason: String| WeightsError::Line {
            line: number + 1,
            reason,
        };
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (key, value) = line
            .split_once('=')
            .ok_or_else(|| line_error(format!("expected `name = value`, found {line:?}")))?;
        let key = key.trim();
        let index = names.iter().position(|n| *n == key).ok_or_else(|| {
            line_error(format!(
                "{key:?} is not a feature of {}; its features are: {}",
                spec.full_name(),
                names.join(", ")
            ))
        })?;
        let value: f32 = value
            .trim()
            .parse()
            .map_err(|_| line_error(format!("{key}: {:?} is not a number", value.trim())))?;
        if !value.is_finite() || value.abs() > MAX_WEIGHT {
            return Err(line_error(format!(
                "{key}: {value} is out of range (at most {MAX_WEIGHT} in size)"
            )));
        }
        if weights[index].replace(value).is_some() {
            return Err(line_error(format!("{key} is given twice")));
        }
    }
    let missing: Vec<&str> = names
        .iter()
        .zip(&weights)
        .filter(|(_, w)| w.is_none())
        .map(|(n, _)| *n)
        .collect();
    if !missing.is_empty() {
        return Err(WeightsError::Incomplete(format!(
            "the weights of {} are missing (every feature must be given)",
            missing.join(", ")
        )));
    }
    Ok(weights.into_iter().flatten().collect())
}

/// Writes weights in the file format, after `comments` (one `#` line each).
pub fn format_weights(spec: &GameSpec, weights: &[f32], comments: &[String]) -> String {
    let mut text = format!("# plateau weights for {}\n", spec.full_name());
    for comment in comments {
        let _ = writeln!(text, "# {comment}");
    }
    let width = spec
        .info
        .tuning
        .features
        .iter()
        .map(|n| n.len())
        .max()
        .unwrap_or(0);
    for (name, value) in spec.info.tuning.features.iter().zip(weights) {
        let _ = writeln!(text, "{name:<width$} = {}", format_value(*value));
    }
    text
}

/// A weight in the fewest digits that read back to exactly the same number
/// (`100`, `1.1111112`), so that a stored generation plays exactly as it did.
pub fn format_value(value: f32) -> String {
    if value == 0.0 {
        "0".into()
    } else {
        format!("{value}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draughts() -> GameSpec {
        GameSpec::lookup("draughts", None).unwrap()
    }

    #[test]
    fn weights_round_trip_through_the_file_format() {
        let spec = draughts();
        let start = spec.info.tuning.default_weights;
        let text = format_weights(&spec, start, &["a comment".into()]);
        assert!(text.contains("# a comment"));
        assert!(text.contains("men"));
        let back = parse_weights(&spec, &text).unwrap();
        assert_eq!(back, start);
    }

    #[test]
    fn bad_files_say_what_is_wrong() {
        let spec = draughts();
        let good = format_weights(&spec, spec.info.tuning.seed_weights, &[]);
        let cases = [
            (
                good.replace("kings", "queens"),
                "\"queens\" is not a feature",
            ),
            (good.clone() + "just words\n", "expected `name = value`"),
            (good.replace("= 300", "= lots"), "not a number"),
            (good.replace("= 300", "= 1e9"), "out of range"),
            (good.replace("= 300", "= NaN"), "out of range"),
            (good.clone() + "kings = 2\n", "given twice"),
            (good.replace("kings", "# kings"), "kings are missing"),
        ];
        for (text, expected) in cases {
            let err = parse_weights(&spec, &text).unwrap_err().to_string();
            assert!(err.contains(expected), "{err} (wanted {expected})");
        }
    }

    #[test]
    fn values_are_written_briefly() {
        assert_eq!(format_value(100.0), "100");
        assert_eq!(format_value(10.0 / 9.0), "1.1111112");
        assert_eq!(format_value(-0.0), "0");
        assert_eq!(format_value(-4.5), "-4.5");
    }
}
