//! Engines behind one object type: what the CLI, the server and the protocols
//! ask for a move, whatever the game.

use plateau_core::{AnyGame, Erased, Evaluator, Game, Rng};
use plateau_search::{Engine, Info, Level, Limits, Options, TimePolicy, score};
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Which player to build: the same names for every game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// A uniformly random legal move.
    Random,
    /// One of the levels (`beginner` ... `master`).
    Level(Level),
    /// The seed program's engine: plain alpha-beta, its evaluation, its book and
    /// its clock policy. The floor every change is measured against.
    Seed,
}

impl Profile {
    pub fn parse(text: &str) -> Result<Profile, String> {
        match text.to_ascii_lowercase().as_str() {
            "random" => Ok(Profile::Random),
            "seed" => Ok(Profile::Seed),
            other => Level::parse(other).map(Profile::Level).ok_or_else(|| {
                format!(
                    "unknown engine {text:?}: choose random, seed, or a level ({})",
                    Level::ALL.map(|l| l.name()).join(", ")
                )
            }),
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Profile::Random => "random",
            Profile::Seed => "seed",
            Profile::Level(level) => level.name(),
        }
    }

    /// The limits this profile plays with when nobody imposes others.
    pub fn default_limits(&self) -> Limits {
        match self {
            Profile::Random => Limits::depth(1),
            Profile::Level(level) => level.limits(),
            Profile::Seed => Limits::movetime(plateau_search::MASTER_MOVETIME),
        }
    }

    /// Every profile name, for help texts.
    pub fn names() -> Vec<&'static str> {
        let mut names = vec!["random", "seed"];
        names.extend(Level::ALL.map(|l| l.name()));
        names
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Adjustments to a profile's engine options, written after the profile name:
/// `master,time=seed,hash=128` (the seed's clock policy and a 128 MB table).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tweaks {
    pub time_policy: Option<TimePolicy>,
    pub table_mb: Option<usize>,
    /// Search parts switched on or off (`lmr=off`), in [`SWITCHES`] order:
    /// for measuring what each part brings to a game.
    pub switches: [Option<bool>; SWITCHES.len()],
}

impl Tweaks {
    /// One search part switched on or off (`name` from [`SWITCHES`]).
    pub fn switched(name: &str, on: bool) -> Tweaks {
        let mut tweaks = Tweaks::default();
        let index = SWITCHES.iter().position(|&s| s == name);
        debug_assert!(index.is_some(), "no search part is called {name:?}");
        if let Some(index) = index {
            tweaks.switches[index] = Some(on);
        }
        tweaks
    }
}

/// The search parts a tweak can switch: `name=on|off`.
pub const SWITCHES: [&str; 8] = [
    "pvs",
    "killers",
    "history",
    "quiescence",
    "lmr",
    "aspiration",
    "extension",
    "early-stop",
];

/// The engine option a switch sets.
fn switch(options: &mut Options, index: usize) -> &mut bool {
    match index {
        0 => &mut options.pvs,
        1 => &mut options.killers,
        2 => &mut options.history,
        3 => &mut options.quiescence,
        4 => &mut options.reductions,
        5 => &mut options.aspiration,
        6 => &mut options.single_reply_extension,
        _ => &mut options.early_stop,
    }
}

/// A profile and its tweaks: `expert`, `master,time=seed`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineChoice {
    pub profile: Profile,
    pub tweaks: Tweaks,
}

impl EngineChoice {
    pub fn parse(text: &str) -> Result<EngineChoice, String> {
        let mut parts = text.split(',');
        let profile = Profile::parse(parts.next().unwrap_or("").trim())?;
        let mut tweaks = Tweaks::default();
        for part in parts {
            let (key, value) = part.split_once('=').ok_or_else(|| {
                format!("{part:?}: expected key=value (time=seed|adaptive, hash=MB, lmr=off...)")
            })?;
            match key.trim() {
                "time" => {
                    tweaks.time_policy = Some(match value.trim() {
                        "seed" => TimePolicy::Seed,
                        "adaptive" => TimePolicy::Adaptive,
                        other => return Err(format!("time={other}: choose seed or adaptive")),
                    })
                }
                "hash" => {
                    let mb: usize = value
                        .trim()
                        .parse()
                        .map_err(|_| format!("hash={value}: a size in MB"))?;
                    if mb > 65_536 {
                        return Err(format!("hash={mb}: at most 65536 MB"));
                    }
                    tweaks.table_mb = Some(mb);
                }
                name => {
                    let Some(index) = SWITCHES.iter().position(|&s| s == name) else {
                        return Err(format!(
                            "unknown engine option {name:?} (time, hash, or one of {} =on|off)",
                            SWITCHES.join(", ")
                        ));
                    };
                    tweaks.switches[index] = Some(match value.trim() {
                        "on" => true,
                        "off" => false,
                        other => return Err(format!("{name}={other}: choose on or off")),
                    });
                }
            }
        }
        Ok(EngineChoice { profile, tweaks })
    }

    /// `master,time=seed`: the text it was parsed from, normalised.
    pub fn name(&self) -> String {
        let mut name = self.profile.name().to_string();
        if let Some(policy) = self.tweaks.time_policy {
            name += match policy {
                TimePolicy::Seed => ",time=seed",
                TimePolicy::Adaptive => ",time=adaptive",
            };
        }
        if let Some(mb) = self.tweaks.table_mb {
            name += &format!(",hash={mb}");
        }
        for (switch, value) in SWITCHES.iter().zip(self.tweaks.switches) {
            if let Some(on) = value {
                name += &format!(",{switch}={}", if on { "on" } else { "off" });
            }
        }
        name
    }
}

/// Progress of a search, with moves in notation.
#[derive(Clone, Debug)]
pub struct InfoLine {
    pub depth: u32,
    pub seldepth: u32,
    pub score: i32,
    pub nodes: u64,
    pub nps: u64,
    pub elapsed: Duration,
    pub pv: Vec<String>,
}

impl InfoLine {
    /// `info depth 7 seldepth 12 score +35 nodes 12345 nps 2000000 time 6 pv ...`
    pub fn to_line(&self) -> String {
        format!(
            "info depth {} seldepth {} score {} nodes {} nps {} time {} pv {}",
            self.depth,
            self.seldepth,
            score::describe(self.score).replace(' ', "-"),
            self.nodes,
            self.nps,
            self.elapsed.as_millis(),
            self.pv.join(" ")
        )
    }
}

/// An engine's decision, in notation.
#[derive(Clone, Debug)]
pub struct Thought {
    pub best: String,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<String>,
}

/// An engine for one game, whatever the game.
pub trait AnyEngine: Send {
    /// The profile name (`expert`, `seed`...).
    fn name(&self) -> &str;

    /// Chooses a move for the position `game` is in. Errors when the game is
    /// over, or is not the game this engine was built for.
    fn think(
        &mut self,
        game: &dyn AnyGame,
        limits: &Limits,
        info: &mut dyn FnMut(&InfoLine),
    ) -> Result<Thought, String>;

    /// The limits of the profile, used when nobody imposes others.
    fn default_limits(&self) -> Limits;

    /// Forgets what earlier searches learnt.
    fn new_game(&mut self);

    /// Becomes the engine a fresh build with randomness `seed` would be,
    /// keeping its memory (a match reuses engines from game to game). Returns
    /// `false` when the engine cannot, and must be built anew.
    fn restart(&mut self, _seed: u64) -> bool {
        false
    }

    /// Set to `true` to stop a search in progress from another thread.
    fn stop_flag(&self) -> Arc<AtomicBool>;

    /// Applies tweaks to the engine's options (no effect on the random player).
    fn tweak(&mut self, tweaks: &Tweaks);
}

/// The generic engine on a typed game.
pub(crate) struct TypedEngine<G: Game, E: Evaluator<G>> {
    name: &'static str,
    engine: Engine<G, E>,
    limits: Limits,
}

impl<G: Game, E: Evaluator<G> + 'static> TypedEngine<G, E> {
    pub(crate) fn boxed(profile: Profile, evaluator: E, options: Options) -> Box<dyn AnyEngine> {
        Box::new(TypedEngine {
            name: profile.name(),
            engine: Engine::new(evaluator, options),
            limits: profile.default_limits(),
        })
    }
}

impl<G: Game, E: Evaluator<G> + 'static> AnyEngine for TypedEngine<G, E> {
    fn name(&self) -> &str {
        self.name
    }

    fn think(
        &mut self,
        game: &dyn AnyGame,
        limits: &Limits,
        info: &mut dyn FnMut(&InfoLine),
    ) -> Result<Thought, String> {
        let typed = game
            .as_any()
            .downcast_ref::<Erased<G>>()
            .ok_or_else(|| format!("this engine does not play {}", game.name()))?
            .game();
        if let Some(outcome) = typed.outcome() {
            return Err(format!("the game is over: {outcome}"));
        }
        let notation = |moves: &[G::Move]| -> Vec<String> {
            let mut position = typed.clone();
            moves
                .iter()
                .map(|&mv| {
                    let text = position.format_move(mv);
                    position.play(mv);
                    text
                })
                .collect()
        };
        let result = self
            .engine
            .search(typed, limits, |progress: &Info<G::Move>| {
                info(&InfoLine {
                    depth: progress.depth,
                    seldepth: progress.seldepth,
                    score: progress.score,
                    nodes: progress.nodes,
                    nps: progress.nps(),
                    elapsed: progress.elapsed,
                    pv: notation(&progress.pv),
                });
            });
        let best = result
            .best
            .ok_or_else(|| "no legal move in this position".to_string())?;
        Ok(Thought {
            best: typed.format_move(best),
            score: result.score,
            depth: result.depth,
            nodes: result.nodes,
            elapsed: result.elapsed,
            pv: notation(&result.pv),
        })
    }

    fn default_limits(&self) -> Limits {
        self.limits
    }

    fn new_game(&mut self) {
        self.engine.new_game();
    }

    fn restart(&mut self, seed: u64) -> bool {
        self.engine.restart(seed);
        true
    }

    fn stop_flag(&self) -> Arc<AtomicBool> {
        self.engine.stop_flag()
    }

    fn tweak(&mut self, tweaks: &Tweaks) {
        let mut options = *self.engine.options();
        if let Some(policy) = tweaks.time_policy {
            options.time_policy = policy;
        }
        if let Some(mb) = tweaks.table_mb {
            options.table_mb = mb;
        }
        for (index, value) in tweaks.switches.iter().enumerate() {
            if let Some(on) = *value {
                *switch(&mut options, index) = on;
            }
        }
        self.engine.set_options(options);
    }
}

/// Plays uniformly random legal moves (for tests and as the weakest opponent).
pub(crate) struct RandomEngine {
    rng: Rng,
    stop: Arc<AtomicBool>,
}

impl RandomEngine {
    pub(crate) fn boxed(seed: u64) -> Box<dyn AnyEngine> {
        Box::new(RandomEngine {
            rng: Rng::new(seed),
            stop: Arc::new(AtomicBool::new(false)),
        })
    }
}

impl AnyEngine for RandomEngine {
    fn name(&self) -> &str {
        "random"
    }

    fn think(
        &mut self,
        game: &dyn AnyGame,
        _limits: &Limits,
        _info: &mut dyn FnMut(&InfoLine),
    ) -> Result<Thought, String> {
        let moves = game.legal_moves();
        let best = self
            .rng
            .choose(&moves)
            .cloned()
            .ok_or_else(|| "no legal move in this position".to_string())?;
        Ok(Thought {
            pv: vec![best.clone()],
            best,
            score: 0,
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
        })
    }

    fn default_limits(&self) -> Limits {
        Limits::depth(1)
    }

    fn new_game(&mut self) {}

    fn restart(&mut self, seed: u64) -> bool {
        self.rng = Rng::new(seed);
        true
    }

    fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    fn tweak(&mut self, _tweaks: &Tweaks) {}
}

/// Builds an engine for a game from its evaluators: `standard` for the levels,
/// `seed` for the seed profile.
pub(crate) fn build<G: Game, S: Evaluator<G> + 'static, D: Evaluator<G> + 'static>(
    profile: Profile,
    seed: u64,
    standard: impl FnOnce() -> D,
    seed_evaluator: impl FnOnce() -> S,
) -> Box<dyn AnyEngine> {
    match profile {
        Profile::Random => RandomEngine::boxed(seed),
        Profile::Level(level) => TypedEngine::boxed(profile, standard(), level.options(seed)),
        Profile::Seed => TypedEngine::boxed(
            profile,
            seed_evaluator(),
            Options {
                seed,
                ..Options::seed_baseline()
            },
        ),
    }
}

/// Builds an engine of `profile` on an evaluator with given weights (the tuner's
/// candidates, weight files): the profile's options, this evaluator.
pub(crate) fn weighted<G: Game, E: Evaluator<G> + 'static>(
    profile: Profile,
    seed: u64,
    evaluator: Option<E>,
) -> Option<Box<dyn AnyEngine>> {
    let evaluator = evaluator?;
    Some(match profile {
        Profile::Random => RandomEngine::boxed(seed),
        Profile::Level(level) => TypedEngine::boxed(profile, evaluator, level.options(seed)),
        Profile::Seed => TypedEngine::boxed(
            profile,
            evaluator,
            Options {
                seed,
                ..Options::seed_baseline()
            },
        ),
    })
}
