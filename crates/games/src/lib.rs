//! plateau-games: the one list that maps game names to rules (and, later, engines).
//!
//! Front-ends (the CLI, the server, the protocols) look games up here by name and
//! get an [`AnyGame`]; nothing outside this crate names a concrete game type. Adding
//! a game means adding one entry to [`GAMES`].

/// Defines `fn $name() -> Arc<Network>`: the network file `$file` of
/// `crates/games/nets/`, embedded in the binary and read once.
macro_rules! embedded_network {
    ($(#[$doc:meta])* fn $name:ident = $file:literal) => {
        $(#[$doc])*
        fn $name() -> std::sync::Arc<plateau_core::net::Network> {
            static CELL: std::sync::OnceLock<std::sync::Arc<plateau_core::net::Network>> =
                std::sync::OnceLock::new();
            crate::embedded_network(&CELL, include_bytes!(concat!("../nets/", $file)))
        }
    };
}

mod abalone;
mod ataxx;
mod book;
mod draughts;
mod engine;
mod escampe;
mod knowledge;
mod solve;
mod suite;
mod virus_endgame;

pub use ataxx::verify_virus_certificate;
pub use book::{Book, BookConfig, BookMoves, BookProgress};
pub use engine::{
    AnyEngine, EngineChoice, InfoLine, MAX_TABLE_MB, MAX_THREADS, Profile, Switch, SwitchRow,
    Thought, Tweaks, available_threads, parse_threads,
};
pub use knowledge::{default_egtb_dir, draughts_book, draughts_tables, use_egtb_dir};
pub use plateau_search::score::describe as describe_score;
/// Plies to the end of a forced win (positive) or loss (negative) a score says, if any.
pub use plateau_search::score::plies_to_end;
pub use plateau_search::{Clock, Level, Limits, MASTER_MOVETIME, TimePolicy};
pub use solve::{CertificateCheck, SolveOptions, SolveReport, Solver};
pub use suite::{SuiteEntry, SuiteResult, parse_suite, run_entry};

use plateau_core::net::{InputSet, NetInputs, Network};
use plateau_core::{
    AnyGame, Erased, Game, PositionError, PositionErrorKind, play_record, read_numbered_record,
};
use std::fmt;
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// A variant of a game (a layout, a board size, a rule set).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantInfo {
    pub name: &'static str,
    pub description: &'static str,
}

/// How people call a side of a game, for pages and messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideInfo {
    /// `White`, `Black (x)`.
    pub name: &'static str,
    /// What is special about playing it: `moves first`, `places first`, or empty.
    pub note: &'static str,
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
    /// Whether players may agree a draw: only games whose rules know draws
    /// (Escampe and the virus game always have a winner).
    pub draw_by_agreement: bool,
    /// White's and Black's names, in that order.
    pub sides: [SideInfo; 2],
    /// Positions searched by `plateau bench`, and to which depth.
    pub bench_positions: &'static [&'static str],
    pub bench_depth: u32,
    pub(crate) new_game: fn(&GameSpec) -> Box<dyn AnyGame>,
    pub(crate) from_text: Reader,
    pub(crate) from_file: Reader,
    /// The start under a move limit of this many plies, where the side ahead
    /// in material wins (Abalone's rule in the site's rooms, which keeps an
    /// unconvertible lead from running forever); `None` for the games whose
    /// own rules end every game.
    pub(crate) move_limit: Option<LimitedStart>,
    pub(crate) engine: fn(&GameSpec, Profile, u64) -> Box<dyn AnyEngine>,
    /// What the tuner and weight files need.
    pub tuning: Tuning,
    /// The exact solver, for games small enough to have one.
    pub solve: Option<Solver>,
    /// Learned evaluations, for games whose inputs are defined.
    pub net: Option<NetSupport>,
}

/// The start under a move limit of so many plies.
type LimitedStart = fn(&GameSpec, u32) -> Box<dyn AnyGame>;

/// Builds an engine of a profile that evaluates with a network.
type NetEngine = fn(&GameSpec, Arc<Network>, Profile, u64) -> Result<Box<dyn AnyEngine>, String>;

/// Reads a position text into its network inputs (see [`NetSupport::features`]).
type NetFeatures =
    fn(&GameSpec, Encoding, &str, &mut Vec<u16>, &mut Vec<u16>) -> Result<(), String>;

/// The input maps of an input set's symmetries (see [`NetSupport::input_maps`]).
type InputMaps = fn(&GameSpec, usize) -> Option<Vec<Vec<u16>>>;

/// Which inputs to read a position into, and under which symmetry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Encoding {
    /// Index into [`NetSupport::sets`].
    pub set: usize,
    /// Below [`NetSupport::symmetries`]; 0 reads the position as it is.
    pub symmetry: usize,
}

/// What training and playing a network need from a game.
pub struct NetSupport {
    /// The input sets the game offers (a network names the one it reads);
    /// the first is the default.
    pub sets: &'static [InputSet],
    /// How many symmetries of the board keep the rules (the eight turns and
    /// reflections of a square Ataxx board; 1 where the board has none that
    /// keep the start): each is another training sample of a position.
    pub symmetries: usize,
    /// The inputs of a position text: the side to move's view into the first
    /// list, the other side's into the second (both cleared first).
    pub features: NetFeatures,
    /// Where a symmetry only renames the inputs of a set: one map per
    /// symmetry (`maps[s][f]`: what input `f` becomes in the image under
    /// `s`), so that a trainer stores each position once and reads its
    /// images through the maps. `None`, or `None` for a set or variant:
    /// images are encoded one by one through [`NetSupport::features`].
    pub input_maps: Option<InputMaps>,
    pub(crate) engine: NetEngine,
    /// The networks the game ships (embedded in the binary), one per variant
    /// that has one: `master` plays the one trained for its variant unless
    /// told `eval=classic`.
    pub defaults: &'static [fn() -> Arc<Network>],
}

/// The profiles that play a game's default network.
pub const NETWORK_PROFILES: [Profile; 1] = [Profile::Level(Level::Master)];

/// An engine as a command line gives it: `master,threads=2,net=FILE`.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineText {
    pub choice: EngineChoice,
    pub net: Option<NetFile>,
}

impl EngineText {
    /// The text it was read from, normalised.
    pub fn name(&self) -> String {
        match &self.net {
            None => self.choice.name(),
            Some(net) => format!("{},net={}", self.choice.name(), net.path),
        }
    }

    /// This engine with `threads` threads unless its text names its own.
    pub fn or_threads(mut self, threads: usize) -> EngineText {
        self.choice = self.choice.or_threads(threads);
        self
    }
}

/// A network read from a file.
#[derive(Clone, Debug, PartialEq)]
pub struct NetFile {
    pub path: String,
    pub net: Arc<Network>,
}

/// Largest network file read.
const MAX_NETWORK_BYTES: u64 = 64 << 20;

/// Reads a network file, with an error that names it.
pub fn read_network(path: &Path) -> Result<Network, String> {
    let size = std::fs::metadata(path)
        .map_err(|err| format!("{}: {err}", path.display()))?
        .len();
    if size > MAX_NETWORK_BYTES {
        return Err(format!(
            "{}: {size} bytes is too large for a network (at most {MAX_NETWORK_BYTES})",
            path.display()
        ));
    }
    let bytes = std::fs::read(path).map_err(|err| format!("{}: {err}", path.display()))?;
    Network::from_bytes(&bytes).map_err(|err| format!("{}: {err}", path.display()))
}

/// A network embedded in the binary, read once.
pub(crate) fn embedded_network(
    cell: &'static OnceLock<Arc<Network>>,
    bytes: &'static [u8],
) -> Arc<Network> {
    Arc::clone(cell.get_or_init(|| {
        // Embedded at build time and checked by the tests: never bad input.
        Arc::new(Network::from_bytes(bytes).expect("an embedded network reads"))
    }))
}

/// [`NetSupport::features`] for a typed game without symmetries.
pub(crate) fn net_features<G: NetInputs>(
    encoding: Encoding,
    text: &str,
    us: &mut Vec<u16>,
    them: &mut Vec<u16>,
) -> Result<(), String> {
    net_features_with::<G>(encoding, text, us, them, |game, _| game)
}

/// [`NetSupport::features`] for a typed game, its position mapped by
/// `image(game, symmetry)` first.
pub(crate) fn net_features_with<G: NetInputs>(
    encoding: Encoding,
    text: &str,
    us: &mut Vec<u16>,
    them: &mut Vec<u16>,
    image: impl Fn(G, usize) -> G,
) -> Result<(), String> {
    if encoding.set >= G::INPUT_SETS.len() {
        return Err(format!("there is no input set {}", encoding.set));
    }
    let game = image(
        G::from_text(text).map_err(|err| err.to_string())?,
        encoding.symmetry,
    );
    let side = game.side_to_move();
    us.clear();
    them.clear();
    game.active_features(encoding.set, side, &mut |f| us.push(f as u16));
    game.active_features(encoding.set, !side, &mut |f| them.push(f as u16));
    Ok(())
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

impl GameInfo {
    /// Whether the game takes a move limit (see [`GameSpec::new_game_with_move_limit`]).
    pub fn has_move_limit(&self) -> bool {
        self.move_limit.is_some()
    }
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

/// A game from its save file, with the moves the file holds played from its
/// start (see [`Game::from_file_with_moves`]), so that they can be taken back
/// or annotated.
pub(crate) fn erase_file<G: Game>(
    spec: &GameSpec,
    text: &str,
) -> Result<Box<dyn AnyGame>, PositionError> {
    let (start, moves) = G::from_file_with_moves(text)?;
    let mut game = Erased::new(spec.full_name(), start);
    for mv in moves {
        game.play_typed(mv);
    }
    Ok(Box::new(game))
}

/// Reads a game file: a record as `plateau match --record` writes it (a
/// `# start:` line, then numbered moves), or the game's own save file.
fn read_game_file(spec: &GameSpec, text: &str) -> Result<Box<dyn AnyGame>, PositionError> {
    if let Some((start, movetext)) = read_numbered_record(text) {
        let mut game = spec
            .from_text(start)
            .map_err(|e| e.context("the record's start"))?;
        play_record(game.as_mut(), &movetext)
            .map_err(|reason| PositionError::illegal(format!("the record's moves: {reason}")))?;
        return Ok(game);
    }
    (spec.info.from_file)(spec, text)
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

    /// Whether `name` and `variant`, as [`GameSpec::lookup`] reads them, name a
    /// variant (`virus/5x5`, `--variant 5x5`) rather than leave the default:
    /// front-ends then refuse a position of another variant instead of
    /// following it.
    pub fn names_variant(name: &str, variant: Option<&str>) -> bool {
        variant.is_some() || name.contains('/')
    }

    /// A game from a position text, on the variant the text itself fixes when
    /// that is not this one (a virus board of another size): for a game whose
    /// variant nobody named, so that the position decides the board. Returns
    /// the spec of the variant read, which engines for the game must use.
    pub fn from_text_any_variant(
        &self,
        text: &str,
    ) -> Result<(GameSpec, Box<dyn AnyGame>), PositionError> {
        self.read_any_variant(text, self.info.from_text)
    }

    /// [`GameSpec::from_text_any_variant`] for the game's save-file format.
    pub fn from_file_any_variant(
        &self,
        text: &str,
    ) -> Result<(GameSpec, Box<dyn AnyGame>), PositionError> {
        self.read_any_variant(text, read_game_file)
    }

    fn read_any_variant(
        &self,
        text: &str,
        read: Reader,
    ) -> Result<(GameSpec, Box<dyn AnyGame>), PositionError> {
        match read(self, text) {
            Ok(game) => Ok((*self, game)),
            // The reader said the text is good on another variant: find it.
            Err(err) if err.kind == PositionErrorKind::OtherVariant => self
                .info
                .variants
                .iter()
                .map(|v| GameSpec {
                    info: self.info,
                    variant: v.name,
                })
                .filter(|spec| spec.variant != self.variant)
                .find_map(|spec| read(&spec, text).ok().map(|game| (spec, game)))
                .ok_or(err),
            Err(err) => Err(err),
        }
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

    /// Whether the game takes a move limit (see [`GameSpec::new_game_with_move_limit`]).
    pub fn has_move_limit(&self) -> bool {
        self.info.has_move_limit()
    }

    /// The starting position under a move limit: after `plies` plies the side
    /// ahead in material wins, a draw when even. `None` for a game without
    /// such a rule.
    pub fn new_game_with_move_limit(&self, plies: u32) -> Option<Box<dyn AnyGame>> {
        self.info.move_limit.map(|start| start(self, plies))
    }

    /// A game from a position text.
    pub fn from_text(&self, text: &str) -> Result<Box<dyn AnyGame>, PositionError> {
        (self.info.from_text)(self, text)
    }

    /// A game from the game's save-file format.
    pub fn from_file(&self, text: &str) -> Result<Box<dyn AnyGame>, PositionError> {
        read_game_file(self, text)
    }

    /// An engine of the given profile for this game; `seed` fixes its randomness
    /// (same seed, same moves at fixed depth). `master` evaluates with the
    /// game's default network where it ships one.
    pub fn engine(&self, profile: Profile, seed: u64) -> Box<dyn AnyEngine> {
        if NETWORK_PROFILES.contains(&profile)
            && let Some(net) = self.default_network()
            && let Some(support) = &self.info.net
            && let Ok(engine) = (support.engine)(self, net, profile, seed)
        {
            return engine;
        }
        self.classic_engine(profile, seed)
    }

    /// An engine of `profile` on the hand-written evaluation (`eval=classic`).
    pub fn classic_engine(&self, profile: Profile, seed: u64) -> Box<dyn AnyEngine> {
        (self.info.engine)(self, profile, seed)
    }

    /// The network this game ships for this variant, if any.
    pub fn default_network(&self) -> Option<Arc<Network>> {
        let name = self.full_name();
        let defaults = self.info.net.as_ref()?.defaults;
        defaults
            .iter()
            .map(|network| network())
            .find(|net| net.game == name)
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

    /// An engine of `profile` evaluating with `net`, which must be this
    /// game's (same game and variant, same inputs).
    pub fn engine_with_network(
        &self,
        net: Arc<Network>,
        profile: Profile,
        seed: u64,
    ) -> Result<Box<dyn AnyEngine>, String> {
        let support = self.check_network(&net)?;
        (support.engine)(self, net, profile, seed)
    }

    /// What this game needs of a network, once `net` is known to be one of
    /// its own (same game and variant, same inputs).
    fn check_network(&self, net: &Network) -> Result<&'static NetSupport, String> {
        let support = self
            .info
            .net
            .as_ref()
            .ok_or_else(|| format!("{} has no network inputs yet", self.full_name()))?;
        net.check_for(&self.full_name(), support.sets)
            .map_err(|err| err.to_string())?;
        Ok(support)
    }

    /// Reads an engine as a command line writes it: a profile with tweaks
    /// (`master,hash=128`), perhaps evaluating with a network file
    /// (`master,net=FILE`; `net=FILE` alone plays `master`).
    pub fn parse_engine(&self, text: &str) -> Result<EngineText, String> {
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        let Some(file) = parts.iter().find_map(|part| part.strip_prefix("net=")) else {
            return Ok(EngineText {
                choice: EngineChoice::parse(text)?,
                net: None,
            });
        };
        if self.info.net.is_none() {
            return Err(format!("{} has no network inputs yet", self.full_name()));
        }
        let net = read_network(Path::new(file))?;
        self.check_network(&net)
            .map_err(|err| format!("{file}: {err}"))?;
        let rest: Vec<&str> = parts
            .iter()
            .copied()
            .filter(|part| !part.starts_with("net="))
            .collect();
        let choice = if rest.is_empty() {
            EngineChoice::parse("master")?
        } else {
            EngineChoice::parse(&rest.join(","))?
        };
        Ok(EngineText {
            choice,
            net: Some(NetFile {
                path: file.to_string(),
                net: Arc::new(net),
            }),
        })
    }

    /// The engine `text` describes (from [`GameSpec::parse_engine`]).
    pub fn build_engine(&self, text: &EngineText, seed: u64) -> Result<Box<dyn AnyEngine>, String> {
        let Some(net) = &text.net else {
            return Ok(self.engine_with(&text.choice, seed));
        };
        let mut engine = knowledge::building_with(text.choice.tweaks.build_with(), || {
            self.engine_with_network(Arc::clone(&net.net), text.choice.profile, seed)
        })?;
        if text.choice.tweaks != Tweaks::default() {
            engine.tweak(&text.choice.tweaks);
        }
        Ok(engine)
    }

    /// An engine of a profile with its tweaks (`master,time=seed`).
    pub fn engine_with(&self, choice: &EngineChoice, seed: u64) -> Box<dyn AnyEngine> {
        let build = || {
            if choice.tweaks.classic {
                self.classic_engine(choice.profile, seed)
            } else {
                self.engine(choice.profile, seed)
            }
        };
        let mut engine = knowledge::building_with(choice.tweaks.build_with(), build);
        if choice.tweaks != Tweaks::default() {
            engine.tweak(&choice.tweaks);
        }
        engine
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plateau_core::net::Activation;

    /// Checks a network embedded in the binary: the game, the shape, the
    /// content hash its file is named after, and a recipe that gives the
    /// commands that made it.
    pub(crate) fn check_embedded_network(
        net: &Network,
        game: &str,
        inputs: usize,
        hidden: usize,
        hash: &str,
    ) {
        assert_eq!(net.game, game);
        assert_eq!((net.inputs, net.hidden), (inputs, hidden), "{game}");
        assert_eq!(format!("{:016x}", net.content_hash()), hash, "{game}");
        let base = game.split('/').next().unwrap_or(game);
        for command in [
            format!("plateau datagen {base}"),
            format!("plateau train {game}"),
        ] {
            assert!(net.recipe.contains(&command), "{game}: {}", net.recipe);
        }
    }

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

    /// A network of the right shape with small made-up weights.
    fn made_up_network(game: &str, set: &InputSet, activation: Activation) -> Network {
        let hidden = 8;
        let inputs = set.inputs;
        let weight = |i: usize| ((i * 37 % 41) as i16) - 20;
        Network {
            game: game.into(),
            recipe: "made up".into(),
            input_set: set.name.into(),
            activation,
            inputs,
            hidden,
            scale: 400.0,
            input_weights: (0..inputs * hidden).map(weight).collect(),
            input_bias: vec![60; hidden],
            output_weights: (0..2 * hidden).map(weight).collect(),
            output_bias: 0,
        }
    }

    #[test]
    fn every_game_plays_on_a_network_and_refuses_others() {
        for &info in GAMES {
            let spec = GameSpec::lookup(info.name, None).unwrap();
            // Every game has network inputs.
            let support = info.net.as_ref().unwrap();
            for (set, inputs) in support.sets.iter().enumerate() {
                for activation in [Activation::Clipped, Activation::SquaredClipped] {
                    let net = Arc::new(made_up_network(&spec.full_name(), inputs, activation));
                    let mut engine = spec
                        .engine_with_network(Arc::clone(&net), Profile::Level(Level::Master), 1)
                        .unwrap();
                    let mut game = spec.new_game();
                    for _ in 0..6 {
                        let thought = engine
                            .think(game.as_ref(), &Limits::nodes(2000), &mut |_| {})
                            .unwrap();
                        game.play(&thought.best).unwrap();
                    }
                    let (mut us, mut them) = (Vec::new(), Vec::new());
                    for symmetry in 0..support.symmetries {
                        let encoding = Encoding { set, symmetry };
                        (support.features)(&spec, encoding, &game.to_text(), &mut us, &mut them)
                            .unwrap();
                        assert!(!us.is_empty() && us.len() == them.len());
                        assert!(us.iter().all(|&f| usize::from(f) < inputs.inputs));
                        assert!(
                            (support.features)(&spec, encoding, "nonsense", &mut us, &mut them)
                                .is_err()
                        );
                    }
                }
                let other = Arc::new(made_up_network("go", inputs, Activation::Clipped));
                let err = spec
                    .engine_with_network(other, Profile::Level(Level::Master), 1)
                    .err()
                    .unwrap();
                assert!(err.contains("evaluates go"), "{err}");
                let bigger = InputSet {
                    name: inputs.name,
                    inputs: inputs.inputs + 1,
                };
                let wrong = Arc::new(made_up_network(
                    &spec.full_name(),
                    &bigger,
                    Activation::Clipped,
                ));
                let err = spec
                    .engine_with_network(wrong, Profile::Level(Level::Master), 1)
                    .err()
                    .unwrap();
                assert!(err.contains("inputs"), "{err}");
            }
            let unknown = InputSet {
                name: "pictures",
                inputs: support.sets[0].inputs,
            };
            let net = Arc::new(made_up_network(
                &spec.full_name(),
                &unknown,
                Activation::Clipped,
            ));
            let err = spec
                .engine_with_network(net, Profile::Level(Level::Master), 1)
                .err()
                .unwrap();
            assert!(err.contains("'pictures'"), "{err}");
        }
        // Networks read boards up to 8x8: the 9x9 virus game has none.
        let wide = GameSpec::lookup("virus/9x9", None).unwrap();
        let set = wide.info.net.as_ref().unwrap().sets[0];
        let net = Arc::new(made_up_network("virus/9x9", &set, Activation::Clipped));
        let err = wide
            .engine_with_network(net, Profile::Level(Level::Master), 1)
            .err()
            .unwrap();
        assert!(err.contains("up to 8x8"), "{err}");
    }

    #[test]
    fn master_plays_the_default_network_unless_told_classic() {
        let score = |game: &str, engine: &str| {
            let spec = GameSpec::lookup(game, None).unwrap();
            let choice = EngineChoice::parse(engine).unwrap();
            let mut engine = spec.engine_with(&choice, 1);
            let start = spec.new_game();
            // A search, not the opening book's move.
            engine
                .think_excluding(start.as_ref(), &Limits::depth(3), &[], &mut |_| {})
                .unwrap()
                .score
        };
        let choice = EngineChoice::parse("master,eval=classic").unwrap();
        assert!(choice.tweaks.classic);
        assert_eq!(choice.name(), "master,eval=classic");
        assert!(EngineChoice::parse("master,eval=magic").is_err());
        // Ataxx and draughts ship networks: the two evaluations score the
        // start apart.
        for game in ["ataxx", "draughts"] {
            let spec = GameSpec::lookup(game, None).unwrap();
            assert!(spec.default_network().is_some(), "{game}");
            assert_ne!(score(game, "master"), score(game, "master,eval=classic"));
        }
        // A game without one plays the hand-written evaluation either way.
        for &info in GAMES {
            let spec = GameSpec::lookup(info.name, None).unwrap();
            if spec.default_network().is_none() {
                let name = info.name;
                assert_eq!(score(name, "master"), score(name, "master,eval=classic"));
            }
        }
    }

    /// Every game and variant, after some random moves: its record (what
    /// `plateau match --record` writes) and its save file read back as the
    /// same position, the record with every move and the save file with the
    /// moves it keeps, so that a loaded game can be taken back and annotated.
    #[test]
    fn records_and_save_files_read_back_with_their_moves() {
        let mut state = 7_u64;
        for &info in GAMES {
            let variants: Vec<Option<&str>> = if info.variants.is_empty() {
                vec![None]
            } else {
                info.variants.iter().map(|v| Some(v.name)).collect()
            };
            for variant in variants {
                let spec = GameSpec::lookup(info.name, variant).unwrap();
                for plies in [0, 1, 9, 40] {
                    let mut game = spec.new_game();
                    for _ in 0..plies {
                        let moves = game.legal_moves();
                        if game.outcome().is_some() || moves.is_empty() {
                            break;
                        }
                        let (next, random) = plateau_core::splitmix64(state);
                        state = next;
                        game.play(&moves[(random % moves.len() as u64) as usize])
                            .unwrap();
                    }
                    let name = spec.full_name();
                    let record = game.record(None);
                    let read = spec
                        .from_file(&record)
                        .unwrap_or_else(|e| panic!("{name}: {e}\n{record}"));
                    assert_eq!(read.history(), game.history(), "{name}: {record}");
                    assert_eq!(read.to_text(), game.to_text(), "{name}");
                    assert_eq!(read.start_text(), game.start_text(), "{name}");
                    // Two records in a row: the first is read.
                    let mut two = record.clone();
                    two += "\n";
                    two += &spec.new_game().record(None);
                    assert_eq!(spec.from_file(&two).unwrap().history(), game.history());
                    let file = game.to_file();
                    let read = spec
                        .from_file(&file)
                        .unwrap_or_else(|e| panic!("{name}: {e}\n{file}"));
                    assert_eq!(read.to_text(), game.to_text(), "{name}: {file}");
                    assert!(
                        game.history().ends_with(read.history()),
                        "{name}: the save file's moves are the game's last ones"
                    );
                    let mut taken_back = read.clone_box();
                    while taken_back.undo().is_some() {}
                    assert_eq!(taken_back.to_text(), read.start_text(), "{name}");
                }
            }
        }
        // A record whose moves go wrong names the ply.
        let spec = GameSpec::lookup("ataxx", None).unwrap();
        let err = spec
            .from_file("# start: x5o/7/7/7/7/7/o5x x 0 1\n1. f2 b2 2. f2 *\n")
            .err()
            .unwrap();
        assert!(err.to_string().contains("ply 3"), "{err}");
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
    fn a_position_of_another_variant_chooses_it_unless_one_was_named() {
        let default = GameSpec::lookup("virus", None).unwrap();
        let (spec, game) = default.from_text_any_variant("xx2o/5/5/o4/o3x x").unwrap();
        assert_eq!(spec.variant, "5x5");
        assert_eq!(game.name(), "virus/5x5");
        assert_eq!(game.to_text(), "xx2o/5/5/o4/o3x x");
        let (spec, _) = default
            .from_file_any_variant("x7o/9/9/9/9/9/9/9/o7x o\n")
            .unwrap();
        assert_eq!(spec.variant, "9x9");
        // A text of the default's own size, or none of any: as before.
        let (spec, _) = default
            .from_text_any_variant("x5o/7/7/7/7/7/o5x x")
            .unwrap();
        assert_eq!(spec.variant, "7x7");
        let err = default.from_text_any_variant("xx2o/5/5 x").err().unwrap();
        assert_eq!(err.kind, PositionErrorKind::Malformed, "{err}");
        let err = default.from_text_any_variant("x2o/3/3 x").err().unwrap();
        assert_ne!(err.kind, PositionErrorKind::OtherVariant, "{err}");
        // A variant named explicitly keeps its board.
        let seven = GameSpec::lookup("virus/7x7", None).unwrap();
        let err = seven.from_text("xx2o/5/5/o4/o3x x").err().unwrap();
        assert_eq!(err.kind, PositionErrorKind::OtherVariant);
        assert!(GameSpec::names_variant("virus/7x7", None));
        assert!(GameSpec::names_variant("virus", Some("7x7")));
        assert!(!GameSpec::names_variant("virus", None));
        // Games whose variants are not boards read every position on the one named.
        let abalone = GameSpec::lookup("abalone", None).unwrap();
        let (spec, _) = abalone
            .from_text_any_variant(&abalone.new_game().to_text())
            .unwrap();
        assert_eq!(spec.variant, abalone.variant);
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
