//! Engines behind one object type: what the CLI, the server and the protocols
//! ask for a move, whatever the game.

use plateau_core::net::{NetEval, NetGame, NetInputs, Network};
use plateau_core::{AnyGame, Erased, Evaluator, Game, Rng};
use plateau_search::{Engine, Info, Level, Limits, Margin, Options, TimePolicy, score};
use std::borrow::Cow;
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
/// `master,time=seed,hash=128,threads=2` (the seed's clock policy, a 128 MB
/// table, two threads), or a search part switched on or off (`nmp=off`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tweaks {
    pub time_policy: Option<TimePolicy>,
    pub table_mb: Option<usize>,
    pub threads: Option<usize>,
    /// Late move reduction table: `lmr-base` and `lmr-div`, in hundredths.
    pub lmr_base: Option<u16>,
    pub lmr_divisor: Option<u16>,
    /// Pruning margins in percent of the defaults: `margins`.
    pub margin_percent: Option<u16>,
    /// Late move pruning's move counts in percent of the defaults: `lmp-moves`.
    pub late_move_percent: Option<u16>,
    /// One rule's margin in percent on top of `margins`, indexed by
    /// [`Margin::index`]: `rfp-margin=80`.
    pub margin_scales: [Option<u16>; Margin::COUNT],
    /// Search parts switched on or off (`lmr=off`), indexed by [`Switch`]:
    /// for measuring what each part brings to a game.
    pub switches: [Option<bool>; Switch::ALL.len()],
    /// `eval=classic`: the hand-written evaluation where the profile would
    /// otherwise play the game's default network.
    pub classic: bool,
    /// `egtb=off`: no endgame databases even where they are installed.
    pub no_tables: bool,
    /// `book=off`: no opening book.
    pub no_book: bool,
    /// `book-variety=N`: book moves scoring within N of the best are played
    /// too (chosen at random); 0 plays the best.
    pub book_variety: Option<u16>,
    /// `convert=N`: Abalone's conversion term at N percent of its weights
    /// (0 leaves it out).
    pub conversion_percent: Option<u16>,
}

impl Tweaks {
    /// One search part switched on or off.
    pub fn switched(switch: Switch, on: bool) -> Tweaks {
        Tweaks::default().with_switch(switch, on)
    }

    /// These tweaks and one search part switched on or off.
    pub fn with_switch(mut self, switch: Switch, on: bool) -> Tweaks {
        self.switches[switch.index()] = Some(on);
        self
    }

    /// Whether `switch` is set on (`Some(true)`), off, or left to the profile.
    pub fn switch(&self, switch: Switch) -> Option<bool> {
        self.switches[switch.index()]
    }

    /// Parses `threads=2,nmp=off` (what follows a profile name), on top of `self`.
    pub fn parse_onto(mut self, text: &str) -> Result<Tweaks, String> {
        for part in text.split(',').filter(|p| !p.trim().is_empty()) {
            let (key, value) = part.split_once('=').ok_or_else(|| {
                format!(
                    "{part:?}: expected key=value (time=seed|adaptive, hash=MB, threads=N, nmp=off...)"
                )
            })?;
            let value = value.trim();
            match key.trim() {
                "time" => {
                    self.time_policy = Some(match value {
                        "seed" => TimePolicy::Seed,
                        "adaptive" => TimePolicy::Adaptive,
                        other => return Err(format!("time={other}: choose seed or adaptive")),
                    })
                }
                "hash" => {
                    let mb: usize = value
                        .parse()
                        .map_err(|_| format!("hash={value}: a size in MB"))?;
                    if mb > MAX_TABLE_MB {
                        return Err(format!("hash={mb}: at most {MAX_TABLE_MB} MB"));
                    }
                    self.table_mb = Some(mb);
                }
                "threads" => self.threads = Some(parse_threads(value)?),
                "selective" => {
                    let on = parse_on_off("selective", value)?;
                    for switch in Switch::ALL.into_iter().filter(|s| s.is_selective()) {
                        self = self.with_switch(switch, on);
                    }
                }
                "margins" => {
                    self.margin_percent =
                        Some(parse_u16_in("margins", value, 1..=10_000, "a percentage")?)
                }
                "lmp-moves" => {
                    self.late_move_percent = Some(parse_u16_in(
                        "lmp-moves",
                        value,
                        1..=10_000,
                        "a percentage",
                    )?)
                }
                "eval" => {
                    self.classic = match value {
                        "classic" => true,
                        "net" => false,
                        other => {
                            return Err(format!(
                                "eval={other}: choose classic (the hand-written evaluation) or \
                                 net (the game's default network, where it has one)"
                            ));
                        }
                    }
                }
                "egtb" => self.no_tables = !parse_on_off("egtb", value)?,
                "book" => self.no_book = !parse_on_off("book", value)?,
                "book-variety" => {
                    self.book_variety = Some(parse_u16_in(
                        "book-variety",
                        value,
                        0..=1000,
                        "a score margin",
                    )?)
                }
                "convert" => {
                    self.conversion_percent = Some(parse_u16_in(
                        "convert",
                        value,
                        0..=400,
                        "a percentage of the conversion term's weights",
                    )?)
                }
                "lmr-base" => self.lmr_base = Some(parse_hundredths("lmr-base", value)?),
                "lmr-div" => {
                    let divisor = parse_hundredths("lmr-div", value)?;
                    if divisor == 0 {
                        return Err("lmr-div=0: the divisor must be positive".to_string());
                    }
                    self.lmr_divisor = Some(divisor);
                }
                name => {
                    if let Some(margin) = Margin::ALL.into_iter().find(|m| m.key() == name) {
                        self.margin_scales[margin.index()] =
                            Some(parse_u16_in(name, value, 1..=10_000, "a percentage")?);
                        continue;
                    }
                    let Ok(switch) = name.parse::<Switch>() else {
                        return Err(format!(
                            "unknown engine option {name:?}: time, hash, threads, eval, egtb, book, book-variety, convert, lmr-base, \
                             lmr-div, margins, {}, lmp-moves, selective, or one of {} =on|off",
                            Margin::ALL.map(Margin::key).join(", "),
                            Switch::names()
                        ));
                    };
                    self = self.with_switch(switch, parse_on_off(name, value)?);
                }
            }
        }
        Ok(self)
    }

    /// What the engine is built with beyond its options: databases, book.
    pub(crate) fn build_with(&self) -> crate::knowledge::BuildWith {
        crate::knowledge::BuildWith {
            no_tables: self.no_tables,
            no_book: self.no_book,
            variety: self.book_variety.unwrap_or(0),
            conversion_percent: self.conversion_percent.unwrap_or(100),
        }
    }

    /// Applies the tweaks to engine options.
    pub fn apply(&self, options: &mut Options) {
        if let Some(policy) = self.time_policy {
            options.time_policy = policy;
        }
        if let Some(mb) = self.table_mb {
            options.table_mb = mb;
        }
        if let Some(threads) = self.threads {
            options.threads = threads;
        }
        if let Some(base) = self.lmr_base {
            options.lmr_base = base;
        }
        if let Some(divisor) = self.lmr_divisor {
            options.lmr_divisor = divisor;
        }
        if let Some(percent) = self.margin_percent {
            options.margin_percent = percent;
        }
        if let Some(percent) = self.late_move_percent {
            options.late_move_percent = percent;
        }
        for margin in Margin::ALL {
            if let Some(percent) = self.margin_scales[margin.index()] {
                options.margin_scales[margin.index()] = percent;
            }
        }
        for switch in Switch::ALL {
            if let Some(on) = self.switch(switch) {
                *switch.field(options) = on;
            }
        }
    }

    /// `,time=seed,hash=128,nmp=off`: the tweaks as written after a profile name.
    pub fn suffix(&self) -> String {
        let mut text = String::new();
        if let Some(policy) = self.time_policy {
            text += match policy {
                TimePolicy::Seed => ",time=seed",
                TimePolicy::Adaptive => ",time=adaptive",
            };
        }
        if self.classic {
            text += ",eval=classic";
        }
        if self.no_tables {
            text += ",egtb=off";
        }
        if self.no_book {
            text += ",book=off";
        }
        if let Some(variety) = self.book_variety {
            text += &format!(",book-variety={variety}");
        }
        if let Some(percent) = self.conversion_percent {
            text += &format!(",convert={percent}");
        }
        if let Some(mb) = self.table_mb {
            text += &format!(",hash={mb}");
        }
        if let Some(threads) = self.threads {
            text += &format!(",threads={threads}");
        }
        if let Some(base) = self.lmr_base {
            text += &format!(",lmr-base={base}");
        }
        if let Some(divisor) = self.lmr_divisor {
            text += &format!(",lmr-div={divisor}");
        }
        if let Some(percent) = self.margin_percent {
            text += &format!(",margins={percent}");
        }
        if let Some(percent) = self.late_move_percent {
            text += &format!(",lmp-moves={percent}");
        }
        for margin in Margin::ALL {
            if let Some(percent) = self.margin_scales[margin.index()] {
                text += &format!(",{}={percent}", margin.key());
            }
        }
        // All the selective parts switched alike read as one `selective=`.
        let together = Switch::ALL
            .into_iter()
            .filter(|s| s.is_selective())
            .map(|s| self.switch(s))
            .reduce(|a, b| if a == b { a } else { None })
            .flatten();
        if let Some(on) = together {
            text += if on {
                ",selective=on"
            } else {
                ",selective=off"
            };
        }
        for switch in Switch::ALL {
            if let Some(on) = self.switch(switch)
                && !(together.is_some() && switch.is_selective())
            {
                text += &format!(",{switch}={}", if on { "on" } else { "off" });
            }
        }
        text
    }
}

/// The largest table an engine option may ask for.
pub const MAX_TABLE_MB: usize = 65_536;
/// The most threads an engine option may ask for.
pub const MAX_THREADS: usize = 256;

/// Reads a thread count: 1 to [`MAX_THREADS`].
pub fn parse_threads(value: &str) -> Result<usize, String> {
    match value.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
        _ => Err(format!(
            "threads={value}: a number of threads from 1 to {MAX_THREADS}"
        )),
    }
}

fn parse_hundredths(name: &str, value: &str) -> Result<u16, String> {
    parse_u16_in(name, value, 0..=1000, "a number of hundredths")
}

/// Reads `name=value` as a number in `range`; the error says it is `what`.
fn parse_u16_in(
    name: &str,
    value: &str,
    range: std::ops::RangeInclusive<u16>,
    what: &str,
) -> Result<u16, String> {
    value
        .parse::<u16>()
        .ok()
        .filter(|v| range.contains(v))
        .ok_or_else(|| {
            format!(
                "{name}={value}: {what} from {} to {}",
                range.start(),
                range.end()
            )
        })
}

/// Reads `name=on` or `name=off`.
fn parse_on_off(name: &str, value: &str) -> Result<bool, String> {
    match value {
        "on" => Ok(true),
        "off" => Ok(false),
        other => Err(format!("{name}={other}: choose on or off")),
    }
}

/// The cores of this machine: the thread count of interactive analysis and
/// protocol engines unless told otherwise.
pub fn available_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A search part a tweak switches on or off (`nmp=off`), to measure what each
/// brings to a game. [`Switch::row`] is the one table from a switch to its
/// name, its description and the [`Options`] field it sets: an exhaustive
/// `match`, so a new switch cannot compile without its own row, and no name can
/// fall through to another switch's field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Switch {
    Pvs,
    Killers,
    History,
    Quiescence,
    Reductions,
    Aspiration,
    Extension,
    EarlyStop,
    TimeAdapt,
    NullMove,
    ReverseFutility,
    Futility,
    LateMovePruning,
    Probcut,
    Razoring,
    Singular,
    Improving,
    ContinuationHistory,
    CaptureHistory,
    CorrectionHistory,
    ReductionTable,
    InternalReduction,
    HopelessPruning,
}

/// What [`Switch::row`] says of a switch.
#[derive(Clone, Copy, Debug)]
pub struct SwitchRow {
    /// Its name in engine texts: `nmp`.
    pub name: &'static str,
    /// What it is, for help texts.
    pub description: &'static str,
    /// One of the selective parts, switched together by `selective=on|off`:
    /// off gives the engine as it was before them (PVS with one- or two-ply
    /// reductions).
    pub selective: bool,
    /// The engine option it sets.
    field: fn(&mut Options) -> &mut bool,
}

impl Switch {
    /// Every switch, in the order engine texts print them (and the index of
    /// [`Tweaks::switches`]).
    pub const ALL: [Switch; 23] = [
        Switch::Pvs,
        Switch::Killers,
        Switch::History,
        Switch::Quiescence,
        Switch::Reductions,
        Switch::Aspiration,
        Switch::Extension,
        Switch::EarlyStop,
        Switch::TimeAdapt,
        Switch::NullMove,
        Switch::ReverseFutility,
        Switch::Futility,
        Switch::LateMovePruning,
        Switch::Probcut,
        Switch::Razoring,
        Switch::Singular,
        Switch::Improving,
        Switch::ContinuationHistory,
        Switch::CaptureHistory,
        Switch::CorrectionHistory,
        Switch::ReductionTable,
        Switch::InternalReduction,
        Switch::HopelessPruning,
    ];

    /// The switch's name, description, group and field: the one table.
    pub fn row(self) -> SwitchRow {
        let row = |name, description, selective, field| SwitchRow {
            name,
            description,
            selective,
            field,
        };
        match self {
            Switch::Pvs => row("pvs", "principal variation search", false, |o| &mut o.pvs),
            Switch::Killers => row("killers", "killer moves", false, |o| &mut o.killers),
            Switch::History => row("history", "history heuristic", false, |o| &mut o.history),
            Switch::Quiescence => row("quiescence", "quiescence search", false, |o| {
                &mut o.quiescence
            }),
            Switch::Reductions => row("lmr", "late move reductions", false, |o| &mut o.reductions),
            Switch::Aspiration => row("aspiration", "aspiration windows", false, |o| {
                &mut o.aspiration
            }),
            Switch::Extension => row("extension", "single-reply extension", false, |o| {
                &mut o.single_reply_extension
            }),
            Switch::EarlyStop => row(
                "early-stop",
                "stop deepening on settled or forced results",
                false,
                |o| &mut o.early_stop,
            ),
            Switch::TimeAdapt => row(
                "time-adapt",
                "on a clock, more time while the score falls or the choice is close, less when one move stands out",
                false,
                |o| &mut o.time_adapt,
            ),
            Switch::NullMove => row("nmp", "null-move pruning", true, |o| &mut o.null_move),
            Switch::ReverseFutility => row("rfp", "reverse futility pruning", true, |o| {
                &mut o.reverse_futility
            }),
            Switch::Futility => row("futility", "futility pruning", true, |o| &mut o.futility),
            Switch::LateMovePruning => row("lmp", "late move pruning", true, |o| {
                &mut o.late_move_pruning
            }),
            Switch::Probcut => row("probcut", "ProbCut", true, |o| &mut o.probcut),
            Switch::Razoring => row("razoring", "razoring", true, |o| &mut o.razoring),
            Switch::Singular => row("singular", "singular extensions", true, |o| &mut o.singular),
            Switch::Improving => row("improving", "the improving flag", true, |o| {
                &mut o.improving
            }),
            Switch::ContinuationHistory => row(
                "conthist",
                "counter-moves and continuation history",
                true,
                |o| &mut o.continuation_history,
            ),
            Switch::CaptureHistory => row("caphist", "history of noisy moves", true, |o| {
                &mut o.capture_history
            }),
            Switch::CorrectionHistory => row(
                "corrhist",
                "correction history of the static evaluation",
                true,
                |o| &mut o.correction_history,
            ),
            Switch::ReductionTable => row(
                "lmr-table",
                "logarithmic reduction table (off: one or two plies)",
                true,
                |o| &mut o.reduction_table,
            ),
            Switch::InternalReduction => row(
                "iir",
                "internal iterative reduction (PV and cut nodes without a table move)",
                true,
                |o| &mut o.internal_reduction,
            ),
            Switch::HopelessPruning => row(
                "hopeless",
                "moves the game calls hopeless (Ataxx: jumps capturing nothing) skipped after two",
                true,
                |o| &mut o.hopeless_pruning,
            ),
        }
    }

    /// Its name in engine texts: `nmp`.
    pub fn name(self) -> &'static str {
        self.row().name
    }

    /// What it is: `null-move pruning`.
    pub fn description(self) -> &'static str {
        self.row().description
    }

    /// Whether `selective=on|off` switches it.
    pub fn is_selective(self) -> bool {
        self.row().selective
    }

    /// The engine option it sets.
    pub fn field(self, options: &mut Options) -> &mut bool {
        (self.row().field)(options)
    }

    /// Every name, comma-separated, for messages.
    pub fn names() -> String {
        Switch::ALL.map(Switch::name).join(", ")
    }

    /// Its place in [`Tweaks::switches`].
    fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Switch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Switch {
    type Err = String;

    /// Reads a switch by its exact name; anything else is refused with the list.
    fn from_str(name: &str) -> Result<Switch, String> {
        Switch::ALL
            .into_iter()
            .find(|s| s.name() == name)
            .ok_or_else(|| {
                format!(
                    "no search part is called {name:?}; choose one of {}",
                    Switch::names()
                )
            })
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
        let (profile, rest) = text.split_once(',').unwrap_or((text, ""));
        let profile = Profile::parse(profile.trim())?;
        let tweaks = Tweaks::default().parse_onto(rest)?;
        Ok(EngineChoice { profile, tweaks })
    }

    /// `master,time=seed`: the text it was parsed from, normalised.
    pub fn name(&self) -> String {
        self.profile.name().to_string() + &self.tweaks.suffix()
    }

    /// This choice searching with `threads` threads, unless it names its own:
    /// a `threads=` written in the engine text wins over a front-end's default.
    pub fn or_threads(mut self, threads: usize) -> EngineChoice {
        self.tweaks.threads.get_or_insert(threads);
        self
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

    /// Chooses the best move that is not in `excluded` (the game's notation),
    /// searching without an opening book: asked again with its answers
    /// excluded, it gives the second-best move, the third..., each with a
    /// score (a tournament client varies its openings with it). Engines that
    /// cannot search for alternatives refuse when their choice is excluded.
    fn think_excluding(
        &mut self,
        game: &dyn AnyGame,
        limits: &Limits,
        excluded: &[String],
        info: &mut dyn FnMut(&InfoLine),
    ) -> Result<Thought, String> {
        let thought = self.think(game, limits, info)?;
        if excluded.contains(&thought.best) {
            return Err(format!("{} cannot look for alternatives", self.name()));
        }
        Ok(thought)
    }

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

    /// Threads the engine searches with.
    fn threads(&self) -> usize {
        1
    }

    /// The options it searches with after its game's and level's choices
    /// (`None` for the random player): where tuning search parameters starts.
    fn search_options(&self) -> Option<Options> {
        None
    }

    /// How full its transposition table is, per mille (UCI's `hashfull`).
    fn table_fill(&self) -> u32 {
        0
    }

    /// The size of its transposition table in MB (0: it searches without one).
    fn table_mb(&self) -> usize {
        0
    }
}

/// Makes the position a [`TypedEngine`] searches from the game's: the game
/// itself (borrowed), or the game with a network's accumulators.
type Lift<G, S, E> = for<'a> fn(&'a G, &E) -> Cow<'a, S>;

/// The generic engine on a typed game. It searches `S`, made from the game
/// by `lift`.
pub(crate) struct TypedEngine<G: Game, S: Game<Move = G::Move>, E: Evaluator<S>> {
    name: &'static str,
    engine: Engine<S, E>,
    limits: Limits,
    lift: Lift<G, S, E>,
}

impl<G: Game, E: Evaluator<G> + 'static> TypedEngine<G, G, E> {
    pub(crate) fn boxed(profile: Profile, evaluator: E, options: Options) -> Box<dyn AnyEngine> {
        TypedEngine::boxed_lifted(profile, evaluator, options, |game, _| Cow::Borrowed(game))
    }
}

impl<G: Game, S: Game<Move = G::Move>, E: Evaluator<S> + 'static> TypedEngine<G, S, E> {
    pub(crate) fn boxed_lifted(
        profile: Profile,
        evaluator: E,
        options: Options,
        lift: Lift<G, S, E>,
    ) -> Box<dyn AnyEngine> {
        Box::new(TypedEngine {
            name: profile.name(),
            engine: Engine::new(evaluator, options),
            limits: profile.default_limits(),
            lift,
        })
    }
}

impl<G: Game, S: Game<Move = G::Move>, E: Evaluator<S> + 'static> AnyEngine
    for TypedEngine<G, S, E>
{
    fn name(&self) -> &str {
        self.name
    }

    fn think(
        &mut self,
        game: &dyn AnyGame,
        limits: &Limits,
        info: &mut dyn FnMut(&InfoLine),
    ) -> Result<Thought, String> {
        self.think_among(game, limits, None, info)
    }

    fn think_excluding(
        &mut self,
        game: &dyn AnyGame,
        limits: &Limits,
        excluded: &[String],
        info: &mut dyn FnMut(&InfoLine),
    ) -> Result<Thought, String> {
        self.think_among(game, limits, Some(excluded), info)
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
        tweaks.apply(&mut options);
        self.engine.set_options(options);
    }

    fn threads(&self) -> usize {
        self.engine.options().threads
    }

    fn search_options(&self) -> Option<Options> {
        Some(*self.engine.options())
    }

    fn table_fill(&self) -> u32 {
        self.engine.table_fill()
    }

    fn table_mb(&self) -> usize {
        self.engine.options().table_mb
    }
}

impl<G: Game, S: Game<Move = G::Move>, E: Evaluator<S> + 'static> TypedEngine<G, S, E> {
    /// A search, or with `excluded` one without the book for the best move
    /// not excluded.
    fn think_among(
        &mut self,
        game: &dyn AnyGame,
        limits: &Limits,
        excluded: Option<&[String]>,
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
        let excluded: Option<Vec<G::Move>> = excluded.map(|texts| {
            // A text that is not a legal move here excludes nothing.
            texts
                .iter()
                .filter_map(|text| typed.parse_move(text).ok())
                .collect()
        });
        let searched = (self.lift)(typed, self.engine.evaluator());
        let result = self.engine.search_excluding(
            searched.as_ref(),
            limits,
            excluded.as_deref(),
            |progress: &Info<G::Move>| {
                info(&InfoLine {
                    depth: progress.depth,
                    seldepth: progress.seldepth,
                    score: progress.score,
                    nodes: progress.nodes,
                    nps: progress.nps(),
                    elapsed: progress.elapsed,
                    pv: notation(&progress.pv),
                });
            },
        );
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
        limits: &Limits,
        info: &mut dyn FnMut(&InfoLine),
    ) -> Result<Thought, String> {
        self.think_excluding(game, limits, &[], info)
    }

    fn think_excluding(
        &mut self,
        game: &dyn AnyGame,
        _limits: &Limits,
        excluded: &[String],
        _info: &mut dyn FnMut(&InfoLine),
    ) -> Result<Thought, String> {
        let moves: Vec<String> = game
            .legal_moves()
            .into_iter()
            .filter(|mv| !excluded.contains(mv))
            .collect();
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

/// What a game keeps of the search's selective parts: it adjusts the options
/// of every level (docs/engine.md records the measurements behind each).
pub(crate) type SearchDefaults = fn(&mut Options);

/// The options of a level in a game.
fn level_options(level: Level, seed: u64, search: SearchDefaults) -> Options {
    let mut options = level.options(seed);
    search(&mut options);
    options
}

/// The search options of `profile` in a game (`None` for the random player,
/// which does not search).
fn profile_options(profile: Profile, seed: u64, search: SearchDefaults) -> Option<Options> {
    match profile {
        Profile::Random => None,
        Profile::Level(level) => Some(level_options(level, seed, search)),
        Profile::Seed => Some(Options {
            seed,
            ..Options::seed_baseline()
        }),
    }
}

/// Builds an engine for a game from its evaluators: `standard` for the levels,
/// `seed` for the seed profile.
pub(crate) fn build<G: Game, S: Evaluator<G> + 'static, D: Evaluator<G> + 'static>(
    profile: Profile,
    seed: u64,
    standard: impl FnOnce() -> D,
    seed_evaluator: impl FnOnce() -> S,
    search: SearchDefaults,
) -> Box<dyn AnyEngine> {
    match profile_options(profile, seed, search) {
        None => RandomEngine::boxed(seed),
        Some(options) if profile == Profile::Seed => {
            TypedEngine::boxed(profile, seed_evaluator(), options)
        }
        Some(options) => TypedEngine::boxed(profile, standard(), options),
    }
}

/// Builds an engine of `profile` on an evaluator with given weights (the tuner's
/// candidates, weight files): the profile's options, this evaluator.
pub(crate) fn weighted<G: Game, E: Evaluator<G> + 'static>(
    profile: Profile,
    seed: u64,
    evaluator: Option<E>,
    search: SearchDefaults,
) -> Option<Box<dyn AnyEngine>> {
    let evaluator = evaluator?;
    Some(match profile_options(profile, seed, search) {
        None => RandomEngine::boxed(seed),
        Some(options) => TypedEngine::boxed(profile, evaluator, options),
    })
}

/// Builds an engine of `profile` that evaluates with a network (the
/// `classic` evaluator still gives the book and the candidate moves).
pub(crate) fn with_network<G: NetInputs, E: Evaluator<G> + 'static>(
    profile: Profile,
    seed: u64,
    net: Arc<Network>,
    classic: E,
    search: SearchDefaults,
) -> Box<dyn AnyEngine> {
    let Some(options) = profile_options(profile, seed, search) else {
        return RandomEngine::boxed(seed);
    };
    TypedEngine::boxed_lifted(
        profile,
        NetEval { net, classic },
        options,
        |game: &G, eval: &NetEval<E>| Cow::Owned(NetGame::new(game.clone(), Arc::clone(&eval.net))),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_switch_name_reads_back_and_indexes_its_own_slot() {
        for (index, switch) in Switch::ALL.into_iter().enumerate() {
            assert_eq!(switch.index(), index, "{switch:?} is out of order in ALL");
            assert_eq!(switch.name().parse::<Switch>(), Ok(switch));
            assert_eq!(switch.to_string(), switch.name());
            for on in [true, false] {
                let tweaks = Tweaks::switched(switch, on);
                let text = format!("expert{}", tweaks.suffix());
                assert_eq!(EngineChoice::parse(&text).unwrap().tweaks, tweaks, "{text}");
            }
        }
        let mut names: Vec<_> = Switch::ALL.map(Switch::name).to_vec();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Switch::ALL.len(), "two switches share a name");
    }

    #[test]
    fn the_conversion_share_reads_back_and_refuses_nonsense() {
        let choice = EngineChoice::parse("master,convert=0").unwrap();
        assert_eq!(choice.tweaks.conversion_percent, Some(0));
        assert_eq!(choice.name(), "master,convert=0");
        assert_eq!(choice.tweaks.build_with().conversion_percent, 0);
        let plain = EngineChoice::parse("master").unwrap();
        assert_eq!(plain.tweaks.build_with().conversion_percent, 100);
        for bad in [
            "master,convert=401",
            "master,convert=-1",
            "master,convert=x",
        ] {
            let error = EngineChoice::parse(bad).unwrap_err();
            assert!(error.contains("convert"), "{bad}: {error}");
        }
    }

    #[test]
    fn the_database_switch_reads_back_and_refuses_nonsense() {
        let choice = EngineChoice::parse("master,egtb=off").unwrap();
        assert!(choice.tweaks.no_tables);
        assert_eq!(choice.name(), "master,egtb=off");
        assert!(
            !EngineChoice::parse("master,egtb=on")
                .unwrap()
                .tweaks
                .no_tables
        );
        let error = EngineChoice::parse("master,egtb=maybe").unwrap_err();
        assert!(error.contains("egtb=maybe"), "{error}");
        let choice = EngineChoice::parse("master,book=off,book-variety=15").unwrap();
        assert!(choice.tweaks.no_book);
        assert_eq!(choice.tweaks.book_variety, Some(15));
        assert_eq!(EngineChoice::parse(&choice.name()).unwrap(), choice);
        assert!(EngineChoice::parse("master,book-variety=-1").is_err());
    }

    /// The fields of `options` that differ from `base`, by their Debug text.
    fn changed_fields(base: &Options, options: &Options) -> Vec<String> {
        let before = format!("{base:?}");
        let after = format!("{options:?}");
        before
            .split(", ")
            .zip(after.split(", "))
            .filter(|(a, b)| a != b)
            .map(|(_, b)| b.to_string())
            .collect()
    }

    #[test]
    fn each_switch_sets_exactly_its_own_field() {
        // Written out independently of `Switch::row`, so that a row pointing at
        // another switch's field fails here.
        let expected = [
            ("pvs", "pvs"),
            ("killers", "killers"),
            ("history", "history"),
            ("quiescence", "quiescence"),
            ("lmr", "reductions"),
            ("aspiration", "aspiration"),
            ("extension", "single_reply_extension"),
            ("early-stop", "early_stop"),
            ("time-adapt", "time_adapt"),
            ("nmp", "null_move"),
            ("rfp", "reverse_futility"),
            ("futility", "futility"),
            ("lmp", "late_move_pruning"),
            ("probcut", "probcut"),
            ("razoring", "razoring"),
            ("singular", "singular"),
            ("improving", "improving"),
            ("conthist", "continuation_history"),
            ("caphist", "capture_history"),
            ("corrhist", "correction_history"),
            ("lmr-table", "reduction_table"),
            ("iir", "internal_reduction"),
            ("hopeless", "hopeless_pruning"),
        ];
        assert_eq!(expected.len(), Switch::ALL.len());
        for (name, field) in expected {
            let switch: Switch = name.parse().unwrap();
            for on in [true, false] {
                let mut base = Options::default();
                for other in Switch::ALL {
                    *other.field(&mut base) = !on;
                }
                let mut options = base;
                Tweaks::switched(switch, on).apply(&mut options);
                assert_eq!(
                    changed_fields(&base, &options),
                    [format!("{field}: {on}")],
                    "{name}={on}"
                );
            }
        }
    }

    #[test]
    fn selective_switches_exactly_the_selective_parts() {
        let off = Tweaks::default().parse_onto("selective=off").unwrap();
        for switch in Switch::ALL {
            let expected = switch.is_selective().then_some(false);
            assert_eq!(off.switch(switch), expected, "{switch}");
        }
        assert_eq!(off.suffix(), ",selective=off");
    }

    #[test]
    fn a_misspelt_switch_is_refused_with_the_valid_names() {
        for typo in ["nmpp", "NMP", "null-move", "lmr_table", ""] {
            let err = typo.parse::<Switch>().unwrap_err();
            assert!(err.contains(&format!("{typo:?}")), "{err}");
            assert!(err.contains("lmr-table") && err.contains("pvs"), "{err}");
        }
        let err = EngineChoice::parse("master,nmpp=off").unwrap_err();
        assert!(err.contains("unknown engine option \"nmpp\""), "{err}");
        for switch in Switch::ALL {
            assert!(err.contains(switch.name()), "{err} lacks {switch}");
        }
    }
}
