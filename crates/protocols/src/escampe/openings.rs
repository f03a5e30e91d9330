//! Set openings for an Escampe tournament: placements the arbiter imposes, so
//! that two deterministic programs do not replay one game over and over.
//!
//! A file has one opening per line: Noir's placement, then Blanc's, either of
//! them `-` when that side places freely. `#` starts a comment.
//!
//! ```text
//! # Noir's placement, Blanc's placement
//! C6/A6/B5/D5/E6/F5 B2/A1/B1/C2/E2/F2
//! A5/B6/C5/D6/E5/F6                      # Noir's imposed, Blanc free
//! - C1/A2/B1/D2/E1/F2                    # Noir free, Blanc's imposed
//! ```
//!
//! An imposed placement is played by the arbiter and announced to *both*
//! clients as `MOUVEMENT <placement>`; the side it was imposed on is not asked
//! (no `JOUEUR` line). When Noir places freely on the edge that Blanc's
//! imposed placement uses, Blanc's placement is mirrored onto the other edge.

use plateau_core::AnyGame;
use plateau_games::GameSpec;
use std::path::Path;

/// One opening: the placements imposed on Noir and on Blanc.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub noir: Option<String>,
    pub blanc: Option<String>,
}

/// Why an openings file was refused.
#[derive(Debug, thiserror::Error)]
pub enum OpeningsError {
    #[error("cannot read {path}: {reason}")]
    Read { path: String, reason: String },
    #[error("{path} line {line}: {reason}")]
    Line {
        path: String,
        line: usize,
        reason: String,
    },
    #[error("{path} has no opening (only blank lines and comments)")]
    Empty { path: String },
}

impl Opening {
    /// The line as a file states it.
    pub fn text(&self) -> String {
        format!(
            "{} {}",
            self.noir.as_deref().unwrap_or("-"),
            self.blanc.as_deref().unwrap_or("-")
        )
    }

    /// Reads one line (without its comment). `Ok(None)` for a blank line.
    pub fn parse(line: &str) -> Result<Option<Opening>, String> {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            return Ok(None);
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() > 2 {
            return Err(format!(
                "expected Noir's placement and Blanc's (or -), found {} fields",
                fields.len()
            ));
        }
        let imposed = |field: Option<&&str>| match field {
            None | Some(&"-") => None,
            Some(text) => Some(text.to_string()),
        };
        let opening = Opening {
            noir: imposed(fields.first()),
            blanc: imposed(fields.get(1)),
        };
        if opening.noir.is_none() && opening.blanc.is_none() {
            return Err("both placements are free (-): nothing to impose".into());
        }
        opening.check()?;
        Ok(Some(opening))
    }

    /// Checks the placements with the rules: Noir's from the start, Blanc's
    /// after Noir's (or after a Noir placement on either edge).
    fn check(&self) -> Result<(), String> {
        let spec = escampe();
        let mut game = spec.new_game();
        if let Some(noir) = &self.noir {
            game.play(noir)
                .map_err(|e| format!("Noir's placement {e}"))?;
            if !is_placement(noir) {
                return Err(format!("Noir's {noir:?} is not a placement"));
            }
        }
        if let Some(blanc) = &self.blanc {
            if !is_placement(blanc) {
                return Err(format!("Blanc's {blanc:?} is not a placement"));
            }
            if self.noir.is_some() {
                game.play(blanc)
                    .map_err(|e| format!("Blanc's placement {e}"))?;
            } else {
                let fits = EDGE_PLACEMENTS.iter().any(|noir| {
                    let mut game = spec.new_game();
                    game.play(noir).is_ok() && game.play(blanc).is_ok()
                });
                if !fits {
                    return Err(format!(
                        "Blanc's placement {blanc:?} is not legal on either edge"
                    ));
                }
            }
        }
        Ok(())
    }

    /// The placement to impose on Blanc in `game` (where Noir has placed):
    /// the opening's, or its mirror image when Noir took that edge. `None`
    /// when Blanc places freely or neither fits.
    pub fn blanc_in(&self, game: &dyn AnyGame) -> Option<String> {
        let blanc = self.blanc.as_ref()?;
        [blanc.clone(), mirror(blanc)]
            .into_iter()
            .find(|candidate| {
                let mut trial = game.clone_box();
                trial.play(candidate).is_ok()
            })
    }
}

/// Noir placements filling one edge each, used to check a Blanc-only opening.
const EDGE_PLACEMENTS: [&str; 2] = ["A6/B6/C6/D6/E6/F6", "A1/B1/C1/D1/E1/F1"];

fn escampe() -> GameSpec {
    match GameSpec::lookup("escampe", None) {
        Ok(spec) => spec,
        Err(err) => unreachable!("escampe is registered: {err}"),
    }
}

/// Six squares separated by `/`: a placement rather than a move.
fn is_placement(text: &str) -> bool {
    text.split('/').count() == 6
}

/// The placement on the other edge: row r becomes row 7 - r.
fn mirror(placement: &str) -> String {
    placement
        .split('/')
        .map(|square| {
            let mut chars = square.chars();
            match (chars.next(), chars.next(), chars.next()) {
                (Some(file), Some(row @ '1'..='6'), None) => {
                    let row = b'1' + (b'6' - row as u8);
                    format!("{file}{}", row as char)
                }
                _ => square.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Reads an openings file; every line is checked with the rules.
pub fn read_openings(path: &Path) -> Result<Vec<Opening>, OpeningsError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| OpeningsError::Read {
        path: shown.clone(),
        reason: e.to_string(),
    })?;
    let mut openings = Vec::new();
    for (index, line) in text.lines().enumerate() {
        match Opening::parse(line) {
            Ok(Some(opening)) => openings.push(opening),
            Ok(None) => {}
            Err(reason) => {
                return Err(OpeningsError::Line {
                    path: shown,
                    line: index + 1,
                    reason,
                });
            }
        }
    }
    if openings.is_empty() {
        return Err(OpeningsError::Empty { path: shown });
    }
    Ok(openings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_parse_with_free_sides_and_comments() {
        let both = Opening::parse("C6/A6/B5/D5/E6/F5 B2/A1/B1/C2/E2/F2 # the brief")
            .unwrap()
            .unwrap();
        assert_eq!(both.noir.as_deref(), Some("C6/A6/B5/D5/E6/F5"));
        assert_eq!(both.blanc.as_deref(), Some("B2/A1/B1/C2/E2/F2"));
        let noir = Opening::parse("C6/A6/B5/D5/E6/F5").unwrap().unwrap();
        assert_eq!(noir.blanc, None);
        let blanc = Opening::parse("- B2/A1/B1/C2/E2/F2").unwrap().unwrap();
        assert_eq!(blanc.noir, None);
        assert_eq!(blanc.text(), "- B2/A1/B1/C2/E2/F2");
        assert_eq!(Opening::parse("   # only a comment").unwrap(), None);
    }

    #[test]
    fn bad_lines_are_refused_with_the_reason() {
        let cases = [
            ("- -", "nothing to impose"),
            ("C6/A6/B5/D5/E6/F5 B2/A1/B1/C2/E2/F2 extra", "3 fields"),
            ("C6/A6/B5/D5/E6/F2", "Noir's placement"),
            ("C6/A6/B5/D5/E6/F5 C6/A6/B5/D5/E6/F4", "Blanc's placement"),
            ("B1-D1", "Noir's placement"),
            ("- A3/B3/C3/D3/E3/F3", "not legal on either edge"),
        ];
        for (line, expected) in cases {
            let err = Opening::parse(line).unwrap_err();
            assert!(err.contains(expected), "{line:?}: {err}");
        }
    }

    #[test]
    fn blancs_placement_follows_noirs_edge() {
        let opening = Opening::parse("- B2/A1/B1/C2/E2/F2").unwrap().unwrap();
        let spec = escampe();
        let mut top = spec.new_game();
        top.play("C6/A6/B5/D5/E6/F5").unwrap();
        assert_eq!(opening.blanc_in(top.as_ref()).unwrap(), "B2/A1/B1/C2/E2/F2");
        let mut bottom = spec.new_game();
        bottom.play("C1/A1/B2/D2/E1/F2").unwrap();
        assert_eq!(
            opening.blanc_in(bottom.as_ref()).unwrap(),
            "B5/A6/B6/C5/E5/F5"
        );
    }

    #[test]
    fn a_file_names_the_bad_line() {
        let dir = std::env::temp_dir().join(format!("plateau-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.txt");
        std::fs::write(
            &good,
            "# set openings\nC6/A6/B5/D5/E6/F5 -\n\n- B2/A1/B1/C2/E2/F2\n",
        )
        .unwrap();
        assert_eq!(read_openings(&good).unwrap().len(), 2);
        let bad = dir.join("bad.txt");
        std::fs::write(&bad, "C6/A6/B5/D5/E6/F5\nnonsense\n").unwrap();
        let err = read_openings(&bad).unwrap_err().to_string();
        assert!(err.contains("line 2"), "{err}");
        let empty = dir.join("empty.txt");
        std::fs::write(&empty, "# nothing\n").unwrap();
        assert!(matches!(
            read_openings(&empty),
            Err(OpeningsError::Empty { .. })
        ));
        assert!(matches!(
            read_openings(&dir.join("missing.txt")),
            Err(OpeningsError::Read { .. })
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
