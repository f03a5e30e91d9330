//! Players in a match: built-in engines (a profile, or a profile on weights
//! from a file or a tuning run) and engine programs over a protocol, all asked
//! for moves the same way.

use crate::external::{ExternalError, ExternalOptions, HubEngine, Protocol, UaiEngine};
use crate::weights::read_weights;
use plateau_core::AnyGame;
use plateau_games::{AnyEngine, EngineChoice, EngineText, GameSpec, Level, Limits, Profile};
use std::path::{Path, PathBuf};
use std::time::Duration;
use thiserror::Error;

/// Both sides' clocks, for protocols that tell an engine both (UAI).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clocks {
    /// Time left, indexed by [`plateau_core::Side::index`].
    pub remaining: [Duration; 2],
    pub increment: Duration,
}

/// What a player is asked: a move in `game`'s current position, within `limits`.
pub struct MoveRequest<'a> {
    pub game: &'a dyn AnyGame,
    pub limits: Limits,
    pub clocks: Option<Clocks>,
}

/// Why a player produced no move.
#[derive(Debug, Error)]
pub enum PlayerError {
    #[error("{0}")]
    Engine(String),
    #[error(transparent)]
    External(#[from] ExternalError),
}

impl PlayerError {
    /// The player refused the position rather than failed at it (a Hub
    /// engine's `error` line): the game is void, not lost.
    pub fn is_refusal(&self) -> bool {
        matches!(self, PlayerError::External(ExternalError::Refused(_)))
    }
}

/// Anything that chooses moves.
pub trait Player: Send {
    /// The limits it plays with when the match imposes none.
    fn default_limits(&self) -> Limits;
    /// A move, in the game's notation (or one the game reads).
    fn choose(&mut self, request: &MoveRequest<'_>) -> Result<String, PlayerError>;
    /// Readies the player for a new game as if it were built anew with
    /// `seed`; `false` when it cannot (then a new one is built).
    fn restart(&mut self, _seed: u64) -> bool {
        false
    }
}

/// A built-in engine as a player.
struct Builtin(Box<dyn AnyEngine>);

impl Player for Builtin {
    fn default_limits(&self) -> Limits {
        self.0.default_limits()
    }

    fn choose(&mut self, request: &MoveRequest<'_>) -> Result<String, PlayerError> {
        self.0
            .think(request.game, &request.limits, &mut |_| {})
            .map(|thought| thought.best)
            .map_err(PlayerError::Engine)
    }

    fn restart(&mut self, seed: u64) -> bool {
        self.0.restart(seed)
    }
}

/// How long an engine program thinks when the match sets no limit.
pub const EXTERNAL_DEFAULT_MOVETIME: Duration = Duration::from_secs(1);

/// A player in a match, as given on the command line.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineSpec {
    /// A built-in profile with its tweaks: `expert`, `master,time=seed`.
    Builtin(EngineChoice),
    /// A profile evaluating with given weights: `weights=FILE`, `gen=RUN:N`.
    Weighted {
        label: String,
        weights: Vec<f32>,
        choice: EngineChoice,
    },
    /// A profile evaluating with a network: `master,net=FILE`.
    Network(EngineText),
    /// An engine program: `uai:CMD`, `hub:CMD`.
    External {
        protocol: Protocol,
        command: Vec<String>,
        label: String,
    },
}

/// The profile of weighted engines unless `profile=` says otherwise: the full
/// engine without noise, so that weights are all that differs.
pub const WEIGHTED_PROFILE: Profile = Profile::Level(Level::Expert);

impl EngineSpec {
    /// Reads an engine for `spec`:
    ///
    /// - a profile and tweaks: `expert`, `seed`, `master,hash=128`;
    /// - `weights=FILE[,profile=P][,hash=MB]`: profile `P` (default `expert`)
    ///   on the weights of a weight file;
    /// - `gen=RUN:N[,...]`: the champion of generation `N` (or `last`) of the
    ///   tuning run in directory `RUN`;
    /// - `PROFILE,net=FILE[,...]`: the profile (default `master`) evaluating
    ///   with the network in FILE (`plateau train` writes them);
    /// - `uai:CMD` (Ataxx), `hub:CMD` (draughts): an engine program.
    pub fn parse(text: &str, spec: &GameSpec) -> Result<EngineSpec, String> {
        let text = text.trim();
        for protocol in [Protocol::Uai, Protocol::Hub] {
            if let Some(command) = text.strip_prefix(&format!("{}:", protocol.name())) {
                if spec.info.name != protocol.game() {
                    return Err(format!(
                        "{}: engines play {}, not {}",
                        protocol.name(),
                        protocol.game(),
                        spec.full_name()
                    ));
                }
                return Ok(EngineSpec::External {
                    protocol,
                    command: crate::external::split_command(command)?,
                    label: text.to_string(),
                });
            }
        }
        if text.split(',').any(|part| part.trim().starts_with("net=")) {
            return spec.parse_engine(text).map(EngineSpec::Network);
        }
        let mut parts = text.split(',');
        let head = parts.next().unwrap_or("").trim();
        let rest: Vec<&str> = parts.collect();
        if let Some(file) = head.strip_prefix("weights=") {
            let weights =
                read_weights(spec, Path::new(file)).map_err(|e| format!("{file}: {e}"))?;
            return Ok(EngineSpec::Weighted {
                label: head.to_string(),
                weights,
                choice: weighted_choice(&rest)?,
            });
        }
        if let Some(reference) = head.strip_prefix("gen=") {
            let path = generation_file(reference)?;
            let weights = read_weights(spec, &path).map_err(|e| format!("{head}: {e}"))?;
            return Ok(EngineSpec::Weighted {
                label: head.to_string(),
                weights,
                choice: weighted_choice(&rest)?,
            });
        }
        EngineChoice::parse(text).map(EngineSpec::Builtin)
    }

    /// The name printed in results.
    pub fn name(&self) -> String {
        match self {
            EngineSpec::Builtin(choice) => choice.name(),
            EngineSpec::Weighted { label, choice, .. } => {
                if choice.profile == WEIGHTED_PROFILE && choice.tweaks == Default::default() {
                    label.clone()
                } else {
                    format!("{label}({})", choice.name())
                }
            }
            EngineSpec::Network(engine) => match &engine.net {
                Some(file) => format!("{}(net={})", engine.choice.name(), file.path),
                None => engine.choice.name(),
            },
            EngineSpec::External { label, .. } => label.clone(),
        }
    }

    pub fn is_external(&self) -> bool {
        matches!(self, EngineSpec::External { .. })
    }

    /// A fresh player for one game; `seed` fixes a built-in engine's randomness.
    pub fn build(
        &self,
        spec: &GameSpec,
        seed: u64,
        options: &ExternalOptions,
    ) -> Result<Box<dyn Player>, PlayerError> {
        Ok(match self {
            EngineSpec::Builtin(choice) => Box::new(Builtin(spec.engine_with(choice, seed))),
            EngineSpec::Weighted {
                weights, choice, ..
            } => {
                let mut engine = spec
                    .engine_with_weights(weights, choice.profile, seed)
                    .map_err(PlayerError::Engine)?;
                if choice.tweaks != Default::default() {
                    engine.tweak(&choice.tweaks);
                }
                Box::new(Builtin(engine))
            }
            EngineSpec::Network(engine) => Box::new(Builtin(
                spec.build_engine(engine, seed)
                    .map_err(PlayerError::Engine)?,
            )),
            EngineSpec::External {
                protocol, command, ..
            } => match protocol {
                Protocol::Uai => Box::new(UaiEngine::start(command, spec, options)?),
                Protocol::Hub => Box::new(HubEngine::start(command, options)?),
            },
        })
    }
}

/// The profile and tweaks after `weights=FILE`: `profile=strong`, `hash=64`.
fn weighted_choice(options: &[&str]) -> Result<EngineChoice, String> {
    let mut profile = WEIGHTED_PROFILE.name().to_string();
    let mut tweaks = Vec::new();
    for option in options {
        match option.trim().split_once('=') {
            Some(("profile", value)) => profile = value.trim().to_string(),
            _ => tweaks.push(option.trim()),
        }
    }
    let mut text = profile;
    for tweak in tweaks {
        text.push(',');
        text.push_str(tweak);
    }
    EngineChoice::parse(&text)
}

/// `RUN:N` -> the weight file of generation N of the run in directory RUN
/// (`RUN:last`: the final champion).
pub fn generation_file(reference: &str) -> Result<PathBuf, String> {
    let (run, generation) = reference.rsplit_once(':').ok_or_else(|| {
        format!("gen={reference}: expected gen=RUN:N (a tuning directory and a generation)")
    })?;
    let run = Path::new(run);
    if generation == "last" {
        return Ok(run.join(crate::tune::CHAMPION_FILE));
    }
    let number: u32 = generation.parse().map_err(|_| {
        format!("gen={reference}: {generation:?} is not a generation number (or `last`)")
    })?;
    Ok(run.join(crate::tune::generation_file_name(number)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(name: &str) -> GameSpec {
        GameSpec::lookup(name, None).unwrap()
    }

    #[test]
    fn builtin_names_parse_as_before() {
        let engine = EngineSpec::parse("master,time=seed", &spec("draughts")).unwrap();
        assert_eq!(engine.name(), "master,time=seed");
        assert!(!engine.is_external());
    }

    #[test]
    fn protocols_belong_to_their_game() {
        let err = EngineSpec::parse("uai:plateau uai", &spec("draughts")).unwrap_err();
        assert!(err.contains("ataxx"), "{err}");
        let hub = EngineSpec::parse("hub:\"my engine\" hub", &spec("draughts")).unwrap();
        assert_eq!(
            hub,
            EngineSpec::External {
                protocol: Protocol::Hub,
                command: vec!["my engine".into(), "hub".into()],
                label: "hub:\"my engine\" hub".into()
            }
        );
        assert!(EngineSpec::parse("uai:", &spec("ataxx")).is_err());
    }

    #[test]
    fn weights_files_make_weighted_engines() {
        let dir = tempfile::tempdir().unwrap();
        let game = spec("draughts");
        let path = dir.path().join("w.txt");
        let text = crate::weights::format_weights(&game, game.info.tuning.default_weights, &[]);
        std::fs::write(&path, text).unwrap();
        let engine =
            EngineSpec::parse(&format!("weights={},profile=strong", path.display()), &game)
                .unwrap();
        let EngineSpec::Weighted {
            weights, choice, ..
        } = &engine
        else {
            panic!("{engine:?}");
        };
        assert_eq!(weights.len(), game.info.tuning.features.len());
        assert_eq!(choice.profile, Profile::Level(Level::Strong));
        assert!(engine.name().contains("strong"));
        let missing = EngineSpec::parse("weights=/nonexistent/w.txt", &game).unwrap_err();
        assert!(missing.contains("cannot read"), "{missing}");
        let err = EngineSpec::parse("gen=run", &game).unwrap_err();
        assert!(err.contains("RUN:N"), "{err}");
        let err = EngineSpec::parse("gen=run:x", &game).unwrap_err();
        assert!(err.contains("not a generation"), "{err}");
    }
}
