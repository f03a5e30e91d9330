//! plateau-games: the one list that maps game names to rules (and, later, engines).
//!
//! Front-ends (the CLI, the server, the protocols) look games up here by name and
//! get an [`AnyGame`]; nothing outside this crate names a concrete game type. Adding
//! a game means adding one entry to [`GAMES`].

mod abalone;
mod ataxx;
mod draughts;
mod engine;
mod escampe;
mod solve;
mod virus_endgame;

pub use engine::{
    AnyEngine, EngineChoice, InfoLine, MAX_TABLE_MB, MAX_THREADS, Profile, SWITCHES, Thought,
    Tweaks, available_threads, parse_threads,
};
pub use plateau_search::score::describe as describe_score;
pub use plateau_search::{Clock, Level, Limits, MASTER_MOVETIME, TimePolicy};
pub use solve::{SolveOptions, SolveReport, Solver};

use plateau_core::{AnyGame, Erased, Game, PositionError};
use std::fmt;

/// A variant of a game (a layout, a board size, a rule set).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantInfo {
    pub name: &'static str,
    pub description: &'static str,
}

/// Builds a game of a variant from a text (position text or save file).
type Reader = fn(&GameSpec, &str) -> Result<Box<dyn AnyGame>, PositionError>;

/// One registered game. Its constructors take the [`GameSpec`] so that they can
/// read the chosen variant.
pub struct GameInfo {
    /// The name used on the command line and in the API: `escampe`.
    pub name: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    /// Variants, the default first; a game without variants has an empty list.
    pub variants: &'static [VariantInfo],
    /// An example of the position text, for help messages.
    pub position_example: &'static str,
    /// Random plies that open a match game (Escampe: both placements).
    pub opening_plies: u32,
    /// Positions searched by `plateau bench`, and to which depth.
    pub bench_positions: &'static [&'static str],
    pub bench_depth: u32,
    pub(crate) new_game: fn(&GameSpec) -> Box<dyn AnyGame>,
    pub(crate) from_text: Reader,
    pub(crate) from_file: Reader,
    pub(crate) engine: fn(&GameSpec, Profile, u64) -> Box<dyn AnyEngine>,
    /// What the tuner and weight files need.
    pub tuning: Tuning,
    /// The exact solver, for games small enough to have one.
    pub solve: Option<Solver>,
}

/// Builds an engine of a profile on given weights (`None`: wrong number of them).
type WeightedEngine = fn(&GameSpec, &[f32], Profile, u64) -> Option<Box<dyn AnyEngine>>;

/// A game's evaluation as numbers: what the tuner moves and weight files hold.
pub struct Tuning {
    /// Feature names, in order (the keys of weight files).
    pub features: &'static [&'static str],
    /// The seed program's weights (zero where it had no such feature).
    pub seed_weights: &'static [f32],
    /// plateau's current default weights.
    pub default_weights: &'static [f32],
    /// An engine of a profile on these weights; `None` when their number is wrong.
    pub(crate) engine: WeightedEngine,
}

impl fmt::Debug for GameInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GameInfo")
            .field("name", &self.name)
            .finish()
    }
}

/// Puts a typed game behind the erased face, named after its variant.
pub(crate) fn erase<G: Game>(spec: &GameSpec, game: G) -> Box<dyn AnyGame> {
    Box::new(Erased::new(spec.full_name(), game))
}

/// Every game plateau plays: the one list (each entry lives in its own module).
pub static GAMES: &[&GameInfo] = &[
    &escampe::INFO,
    &draughts::INFO,
    &abalone::INFO,
    &ataxx::VIRUS_INFO,
    &ataxx::ATAXX_INFO,
];

/// A game with its variant chosen: what front-ends construct games from.
#[derive(Clone, Copy, Debug)]
pub struct GameSpec {
    pub info: &'static GameInfo,
    /// The chosen variant, or `""` for a game without variants.
    pub variant: &'static str,
}

/// Why a game name or variant was not understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownGame(pub String);

impl fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UnknownGame {}

impl GameSpec {
    /// Finds `name` (which may carry its variant: `abalone/belgian-daisy`), with
    /// `variant` as an alternative way to give the variant.
    pub fn lookup(name: &str, variant: Option<&str>) -> Result<GameSpec, UnknownGame> {
        let (base, inline_variant) = match name.split_once('/') {
            Some((base, v)) => (base, Some(v)),
            None => (name, None),
        };
        let info = *GAMES
            .iter()
            .find(|g| g.name.eq_ignore_ascii_case(base))
            .ok_or_else(|| {
                UnknownGame(format!(
                    "unknown game {name:?}; plateau plays: {}",
                    GAMES.iter().map(|g| g.name).collect::<Vec<_>>().join(", ")
                ))
            })?;
        let chosen = match (inline_variant, variant) {
            (Some(a), Some(b)) if !a.eq_ignore_ascii_case(b) => {
                return Err(UnknownGame(format!(
                    "two different variants given: {a:?} and {b:?}"
                )));
            }
            (Some(v), _) | (None, Some(v)) => Some(v),
            (None, None) => None,
        };
        let variant = match chosen {
            None => info.variants.first().map_or("", |v| v.name),
            Some(v) => {
                info.variants
                    .iter()
                    .find(|known| known.name.eq_ignore_ascii_case(v))
                    .ok_or_else(|| {
                        if info.variants.is_empty() {
                            UnknownGame(format!("{} has no variants", info.name))
                        } else {
                            UnknownGame(format!(
                                "{} has no variant {v:?}; choose one of: {}",
                                info.name,
                                info.variants
                                    .iter()
                                    .map(|v| v.name)
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            ))
                        }
                    })?
                    .name
            }
        };
        Ok(GameSpec { info, variant })
    }

    /// `escampe`, or `abalone/belgian-daisy` with a variant.
    pub fn full_name(&self) -> String {
        if self.variant.is_empty() {
            self.info.name.to_string()
        } else {
            format!("{}/{}", self.info.name, self.variant)
        }
    }

    /// The starting position.
    pub fn new_game(&self) -> Box<dyn AnyGame> {
        (self.info.new_game)(self)
    }

    /// A game from a position text.
    pub fn from_text(&self, text: &str) -> Result<Box<dyn AnyGame>, PositionError> {
        (self.info.from_text)(self, text)
    }

    /// A game from the game's save-file format.
    pub fn from_file(&self, text: &str) -> Result<Box<dyn AnyGame>, PositionError> {
        (self.info.from_file)(self, text)
    }

    /// An engine of the given profile for this game; `seed` fixes its randomness
    /// (same seed, same moves at fixed depth).
    pub fn engine(&self, profile: Profile, seed: u64) -> Box<dyn AnyEngine> {
        (self.info.engine)(self, profile, seed)
    }

    /// An engine of `profile` evaluating with `weights` (one per feature of
    /// [`GameInfo::tuning`], each finite and within ±[`plateau_core::MAX_WEIGHT`]).
    pub fn engine_with_weights(
        &self,
        weights: &[f32],
        profile: Profile,
        seed: u64,
    ) -> Result<Box<dyn AnyEngine>, String> {
        let tuning = &self.info.tuning;
        if weights.len() == tuning.features.len() {
            plateau_core::check_weights(tuning.features, weights)
                .map_err(|problem| format!("{}: {problem}", self.info.name))?;
        }
        (tuning.engine)(self, weights, profile, seed).ok_or_else(|| {
            format!(
                "{} has {} evaluation features ({}), {} weights were given",
                self.info.name,
                tuning.features.len(),
                tuning.features.join(", "),
                weights.len()
            )
        })
    }

    /// An engine of a profile with its tweaks (`master,time=seed`).
    pub fn engine_with(&self, choice: &EngineChoice, seed: u64) -> Box<dyn AnyEngine> {
        let mut engine = self.engine(choice.profile, seed);
        if choice.tweaks != Tweaks::default() {
            engine.tweak(&choice.tweaks);
        }
        engine
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_starts_and_round_trips_its_text() {
        for &info in GAMES {
            let spec = GameSpec::lookup(info.name, None).unwrap();
            let game = spec.new_game();
            assert_eq!(game.name(), spec.full_name());
            assert!(!game.legal_moves().is_empty());
            let again = spec.from_text(&game.to_text()).unwrap();
            assert_eq!(again.to_text(), game.to_text());
            assert!(spec.from_text(info.position_example).is_ok());
        }
    }

    #[test]
    fn every_game_builds_engines_on_its_weights() {
        for &info in GAMES {
            let spec = GameSpec::lookup(info.name, None).unwrap();
            let tuning = &info.tuning;
            assert_eq!(
                tuning.features.len(),
                tuning.seed_weights.len(),
                "{}",
                info.name
            );
            assert_eq!(
                tuning.features.len(),
                tuning.default_weights.len(),
                "{}",
                info.name
            );
            let game = spec.new_game();
            for weights in [tuning.seed_weights, tuning.default_weights] {
                let mut engine = spec
                    .engine_with_weights(weights, Profile::Level(Level::Beginner), 1)
                    .unwrap();
                let thought = engine
                    .think(game.as_ref(), &Limits::depth(1), &mut |_| {})
                    .unwrap();
                assert!(game.legal_moves().contains(&thought.best));
            }
            let err = spec
                .engine_with_weights(&[1.0], Profile::Level(Level::Beginner), 1)
                .err()
                .unwrap();
            assert!(err.contains("weights were given"), "{err}");
        }
    }

    #[test]
    fn weights_that_are_not_finite_or_absurd_are_refused_by_name() {
        for &info in GAMES {
            let spec = GameSpec::lookup(info.name, None).unwrap();
            let mut weights = info.tuning.default_weights.to_vec();
            for bad in [f32::NAN, f32::INFINITY, -1.0e9] {
                weights[0] = bad;
                let err = spec
                    .engine_with_weights(&weights, Profile::Level(Level::Beginner), 1)
                    .err()
                    .unwrap_or_else(|| panic!("{}: weight {bad} accepted", info.name));
                assert!(
                    err.contains(&format!("weight 1 ({})", info.tuning.features[0])),
                    "{err}"
                );
            }
        }
    }

    #[test]
    fn unknown_names_and_variants_say_what_exists() {
        let err = GameSpec::lookup("chess", None).unwrap_err();
        assert!(err.0.contains("escampe"), "{err}");
        let err = GameSpec::lookup("escampe", Some("big")).unwrap_err();
        assert!(err.0.contains("no variants"), "{err}");
        assert!(GameSpec::lookup("ESCAMPE", None).is_ok());
    }

    #[test]
    fn a_refused_move_leaves_the_erased_game_unchanged() {
        let spec = GameSpec::lookup("escampe", None).unwrap();
        let mut game = spec.new_game();
        let before = game.to_text();
        let err = game.play("Z9").unwrap_err();
        assert!(err.to_string().contains("Z9"));
        assert_eq!(game.to_text(), before);
        assert!(game.history().is_empty());
        let played = game.play("C6/F5/E6/D5/B5/A6").unwrap();
        assert_eq!(played, "C6/B5/D5/F5/A6/E6");
        assert_eq!(game.history(), std::slice::from_ref(&played));
        assert_eq!(game.undo(), Some(played));
        assert_eq!(game.to_text(), before);
    }
}
