//! SPSA over the search's own parameters, at the time control the engine
//! plays: the late-move reduction table, the pruning margins (all together,
//! or each rule's on top) and late move pruning's move counts. Weights are tuned at a fixed depth, where a deeper
//! or shallower search costs nothing; a search parameter trades depth for
//! selectivity, which only a clock or a node budget can judge, so every
//! game here is played at `--movetime` or `--nodes`.
//!
//! Each step pushes every tuned parameter up or down at random by `c_k` of
//! its start value, the two engines play a colour-swapped pair, and the
//! parameters move toward the winner (the same [`SpsaState`] as the weight
//! tuner's). The result is an engine text (`master,lmr-base=81,...`) that
//! `play`, `match` and the protocols accept as it is.

use super::{
    SpsaSettings, SpsaState, TuneError, game_seed, opening_starts, play_one, spsa_steps,
    store::Store,
};
use crate::external::ExternalOptions;
use crate::game::TimeControl;
use crate::openings::OpeningSource;
use crate::player::EngineSpec;
use crate::runner::{MatchConfig, MatchStatus, run_match};
use crate::sprt::Sprt;
use plateau_core::time::Instant;
use plateau_core::{Rng, splitmix64};
use plateau_games::{EngineChoice, GameSpec, Limits, Tweaks};
use plateau_search::{Margin, Options};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

/// The settings of the run, the start and final values (`key = value`).
pub const SEARCH_SETTINGS_FILE: &str = "run.txt";
/// Generation, the plus side's score, the parameters after it.
pub const SEARCH_CURVE_FILE: &str = "curve.tsv";
/// The tuned engine, as an engine text.
pub const ENGINE_FILE: &str = "engine.txt";
/// The final check against the start values.
pub const SEARCH_VERIFY_FILE: &str = "verify.txt";

/// A search parameter SPSA can move; each is an engine option of the same
/// name (`master,lmr-base=80`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchParam {
    /// Late move reductions' base, in hundredths of a ply.
    LmrBase,
    /// Late move reductions' divisor, in hundredths.
    LmrDivisor,
    /// The pruning margins, in percent of the search's defaults.
    Margins,
    /// Late move pruning's move counts, in percent of `(3 + depth²) / 2`.
    LateMoves,
    /// One rule's margin, in percent of what `Margins` makes it.
    Margin(Margin),
}

impl SearchParam {
    pub const ALL: [SearchParam; 4 + Margin::COUNT] = [
        SearchParam::LmrBase,
        SearchParam::LmrDivisor,
        SearchParam::Margins,
        SearchParam::LateMoves,
        SearchParam::Margin(Margin::Razor),
        SearchParam::Margin(Margin::ReverseFutility),
        SearchParam::Margin(Margin::Futility),
        SearchParam::Margin(Margin::Probcut),
        SearchParam::Margin(Margin::Singular),
        SearchParam::Margin(Margin::NullMove),
    ];

    /// The engine option's name.
    pub fn key(self) -> &'static str {
        match self {
            SearchParam::LmrBase => "lmr-base",
            SearchParam::LmrDivisor => "lmr-div",
            SearchParam::Margins => "margins",
            SearchParam::LateMoves => "lmp-moves",
            SearchParam::Margin(margin) => margin.key(),
        }
    }

    /// The values SPSA may try: wide enough for any game, narrow enough that
    /// no step switches a part off by the back door.
    pub fn range(self) -> (u16, u16) {
        match self {
            SearchParam::LmrBase => (0, 400),
            SearchParam::LmrDivisor => (50, 1000),
            SearchParam::Margins => (10, 2000),
            SearchParam::LateMoves => (20, 1000),
            SearchParam::Margin(_) => (10, 1000),
        }
    }

    /// Its value in `options`.
    pub fn read(self, options: &Options) -> u16 {
        match self {
            SearchParam::LmrBase => options.lmr_base,
            SearchParam::LmrDivisor => options.lmr_divisor,
            SearchParam::Margins => options.margin_percent,
            SearchParam::LateMoves => options.late_move_percent,
            SearchParam::Margin(margin) => options.margin_scales[margin.index()],
        }
    }

    /// Sets it in `tweaks`.
    pub fn set(self, tweaks: &mut Tweaks, value: u16) {
        let field = match self {
            SearchParam::LmrBase => &mut tweaks.lmr_base,
            SearchParam::LmrDivisor => &mut tweaks.lmr_divisor,
            SearchParam::Margins => &mut tweaks.margin_percent,
            SearchParam::LateMoves => &mut tweaks.late_move_percent,
            SearchParam::Margin(margin) => &mut tweaks.margin_scales[margin.index()],
        };
        *field = Some(value);
    }

    /// `all`, or names separated by commas (each once).
    pub fn parse_list(text: &str) -> Result<Vec<SearchParam>, String> {
        if text.trim() == "all" {
            return Ok(SearchParam::ALL.to_vec());
        }
        let mut params = Vec::new();
        for name in text.split(',').map(str::trim) {
            let param = name.parse::<SearchParam>()?;
            if params.contains(&param) {
                return Err(format!("search parameter {name:?} is named twice"));
            }
            params.push(param);
        }
        Ok(params)
    }

    fn names() -> String {
        SearchParam::ALL.map(SearchParam::key).join(", ")
    }
}

impl FromStr for SearchParam {
    type Err = String;

    fn from_str(name: &str) -> Result<SearchParam, String> {
        SearchParam::ALL
            .into_iter()
            .find(|p| p.key() == name)
            .ok_or_else(|| {
                format!(
                    "{name:?} is not a search parameter; choose all or some of: {}",
                    SearchParam::names()
                )
            })
    }
}

/// Everything a search-parameter run needs.
#[derive(Clone, Debug)]
pub struct SearchTuneConfig {
    pub game: GameSpec,
    /// The engine whose parameters move (a built-in profile and tweaks).
    pub engine: EngineChoice,
    pub params: Vec<SearchParam>,
    /// The limits of every move: a time or a node budget (not a depth).
    pub limits: Limits,
    pub generations: u32,
    /// Steps (game pairs) per generation, gains and batch.
    pub spsa: SpsaSettings,
    pub opening_plies: u32,
    pub opening_pool: usize,
    /// Games of the final check of the tuned values against the start (0: none).
    pub verify_games: u32,
    pub verify_plies: u32,
    pub verify_sprt: Option<Sprt>,
    pub max_plies: Option<u32>,
    pub seed: u64,
    pub concurrency: usize,
    /// The run directory; empty keeps nothing on disk.
    pub out: PathBuf,
}

impl SearchTuneConfig {
    fn check(&self) -> Result<(), TuneError> {
        let bad = |reason: String| Err(TuneError::Config(reason));
        if self.params.is_empty() {
            return bad("no search parameter to tune".into());
        }
        if self.limits.movetime.is_none() && self.limits.nodes.is_none() {
            return bad(
                "search parameters trade depth for selectivity: tune them at a --movetime or \
                 --nodes, not at a fixed depth"
                    .into(),
            );
        }
        if self.generations == 0 || self.spsa.steps_per_generation == 0 {
            return bad("at least one generation of at least one step".into());
        }
        let c_ok = self.spsa.c_end > 0.0 && self.spsa.c_end <= 1.0;
        let r_ok = self.spsa.r_end > 0.0 && self.spsa.r_end <= 100.0;
        if !(c_ok && r_ok) {
            return bad(
                "SPSA's c_end (a fraction of each start value, at most 1) and r_end must be positive"
                    .into(),
            );
        }
        if self.opening_pool == 0 {
            return bad("the opening pool needs at least one opening".into());
        }
        if !self.verify_games.is_multiple_of(2) {
            return bad("verification games come in pairs: an even number".into());
        }
        Ok(())
    }

    /// The start values: the engine's own, after its game's and level's
    /// choices and the tweaks given.
    pub fn start_values(&self) -> Result<Vec<u16>, TuneError> {
        let engine = self.game.engine_with(&self.engine, 0);
        let options = engine.search_options().ok_or_else(|| {
            TuneError::Config(format!(
                "{} has no search parameters to tune",
                self.engine.profile
            ))
        })?;
        Ok(self.params.iter().map(|p| p.read(&options)).collect())
    }

    /// The engine with `values` for the tuned parameters.
    pub fn engine_with(&self, values: &[u16]) -> EngineChoice {
        let mut choice = self.engine;
        for (param, &value) in self.params.iter().zip(values) {
            param.set(&mut choice.tweaks, value);
        }
        choice
    }

    fn limits_text(&self) -> String {
        match (self.limits.movetime, self.limits.nodes) {
            (Some(time), _) => format!("{} ms a move", time.as_millis()),
            (None, Some(nodes)) => format!("{nodes} nodes a move"),
            (None, None) => "no limit".into(),
        }
    }
}

/// `master,lmr-base=80,...`: an engine text `match` and `play` read.
pub fn engine_text(choice: &EngineChoice) -> String {
    format!("{}{}", choice.profile, choice.tweaks.suffix())
}

/// What one generation gave.
#[derive(Clone, Debug)]
pub struct SearchGeneration {
    pub number: u32,
    /// The parameters after it, rounded as the engine plays them.
    pub values: Vec<u16>,
    /// Points of the plus side over its games: how often the perturbation
    /// toward larger steps paid, a sanity check (about half).
    pub plus_points: f64,
    pub games: u32,
    pub elapsed: Duration,
}

/// What the run reports as it goes.
pub enum SearchTuneEvent<'a> {
    Stage { name: String, games: usize },
    Game { done: usize },
    Generation(&'a SearchGeneration),
    Verification(&'a MatchStatus),
}

/// A finished run.
#[derive(Clone, Debug)]
pub struct SearchTuneResult {
    pub start: Vec<u16>,
    pub generations: Vec<SearchGeneration>,
    /// The last generation's values and the engine playing them.
    pub tuned: Vec<u16>,
    pub engine: EngineChoice,
    pub verification: Option<MatchStatus>,
    pub elapsed: Duration,
}

/// Runs SPSA over the search parameters, reporting through `on_event`.
pub fn run_search_tune(
    config: &SearchTuneConfig,
    mut on_event: impl FnMut(SearchTuneEvent<'_>) + Send,
) -> Result<SearchTuneResult, TuneError> {
    config.check()?;
    let began = Instant::now();
    let start = config.start_values()?;
    let store = Store::create(&config.out, config.game)?;
    store.write(SEARCH_SETTINGS_FILE, &settings_text(config, &start, None))?;
    on_event(SearchTuneEvent::Stage {
        name: "openings".into(),
        games: 0,
    });
    let starts = opening_starts(
        &config.game,
        config.opening_plies,
        config.opening_pool,
        config.seed,
    )?;
    let as_f32: Vec<f32> = start.iter().map(|&v| v as f32).collect();
    let mut spsa = SpsaState::new(
        &as_f32,
        &as_f32,
        &vec![true; start.len()],
        &config.spsa,
        config.generations as u64 * config.spsa.steps_per_generation as u64,
    );
    let mut generations: Vec<SearchGeneration> = Vec::new();
    let mut finished = 0;
    for number in 1..=config.generations {
        let started = Instant::now();
        let mut schedule = Rng::new(splitmix64(config.seed ^ (number as u64) << 32).1);
        let steps = config.spsa.steps_per_generation as usize;
        on_event(SearchTuneEvent::Stage {
            name: format!("generation {number}/{}", config.generations),
            games: finished + steps * 2,
        });
        let (plus_points, games) = spsa_steps(
            &mut spsa,
            &config.spsa,
            config.concurrency,
            starts.len(),
            &mut schedule,
            |probe, plus_white, opening, index| {
                let [plus, minus] = [&probe.plus, &probe.minus].map(|values| {
                    EngineSpec::Builtin(config.engine_with(&rounded(config, values)))
                });
                play_one(
                    &config.game,
                    [&plus, &minus],
                    plus_white,
                    starts[opening].as_ref(),
                    game_seed(config.seed, number, index),
                    config.limits,
                    config.max_plies,
                )
            },
            |spsa| clamp_to_ranges(config, &mut spsa.weights),
            || {
                finished += 1;
                on_event(SearchTuneEvent::Game { done: finished });
            },
        )?;
        let generation = SearchGeneration {
            number,
            values: rounded(config, &spsa.weights),
            plus_points,
            games,
            elapsed: started.elapsed(),
        };
        on_event(SearchTuneEvent::Generation(&generation));
        generations.push(generation);
        store.write(SEARCH_CURVE_FILE, &curve_text(config, &start, &generations))?;
    }
    let tuned = rounded(config, &spsa.weights);
    let engine = config.engine_with(&tuned);
    store.write(ENGINE_FILE, &format!("{}\n", engine_text(&engine)))?;
    let verification = if config.verify_games > 0 {
        let status = verify(config, &engine, &start, &mut on_event)?;
        store.write(
            SEARCH_VERIFY_FILE,
            &super::verification_text_with(
                &config.verify_sprt,
                &status,
                &format!(
                    "{} against {} at {}, {} games, openings of {} random plies",
                    engine_text(&engine),
                    engine_text(&config.engine_with(&start)),
                    config.limits_text(),
                    status.done,
                    config.verify_plies
                ),
            ),
        )?;
        Some(status)
    } else {
        None
    };
    store.write(
        SEARCH_SETTINGS_FILE,
        &settings_text(config, &start, Some(&tuned)),
    )?;
    Ok(SearchTuneResult {
        start,
        generations,
        tuned,
        engine,
        verification,
        elapsed: began.elapsed(),
    })
}

/// SPSA's values as the engine plays them: rounded into each range.
fn rounded(config: &SearchTuneConfig, values: &[f32]) -> Vec<u16> {
    config
        .params
        .iter()
        .zip(values)
        .map(|(param, &value)| {
            let (low, high) = param.range();
            (value.round().max(0.0) as u32).clamp(low as u32, high as u32) as u16
        })
        .collect()
}

fn clamp_to_ranges(config: &SearchTuneConfig, values: &mut [f32]) {
    for (param, value) in config.params.iter().zip(values) {
        let (low, high) = param.range();
        *value = value.clamp(low as f32, high as f32);
    }
}

/// The tuned engine against the start on colour-swapped random openings.
fn verify(
    config: &SearchTuneConfig,
    tuned: &EngineChoice,
    start: &[u16],
    on_event: &mut (impl FnMut(SearchTuneEvent<'_>) + Send),
) -> Result<MatchStatus, TuneError> {
    let match_config = MatchConfig {
        game: config.game,
        engines: [
            EngineSpec::Builtin(*tuned),
            EngineSpec::Builtin(config.engine_with(start)),
        ],
        games: config.verify_games,
        time: TimeControl::PerMove(config.limits),
        openings: OpeningSource::Random {
            plies: config.verify_plies,
        },
        max_plies: config.max_plies,
        move_limit: None,
        seed: config.seed ^ 0x7665_7269_6679,
        concurrency: config.concurrency,
        sprt: config.verify_sprt,
        external: ExternalOptions::default(),
    };
    on_event(SearchTuneEvent::Stage {
        name: "final check".into(),
        games: config.verify_games as usize,
    });
    let result = run_match(&match_config, |_, status| {
        on_event(SearchTuneEvent::Verification(status))
    })
    .map_err(TuneError::Game)?;
    Ok(result.status)
}

fn settings_text(config: &SearchTuneConfig, start: &[u16], tuned: Option<&[u16]>) -> String {
    let mut text = String::from("# plateau search-parameter tuning run\n");
    let mut line = |key: &str, value: String| {
        let _ = writeln!(text, "{key} = {value}");
    };
    line("game", config.game.full_name());
    line("engine", engine_text(&config.engine));
    line("limits", config.limits_text());
    line("method", "spsa".into());
    line("generations", config.generations.to_string());
    line(
        "steps_per_generation",
        config.spsa.steps_per_generation.to_string(),
    );
    line("c_end", config.spsa.c_end.to_string());
    line("r_end", config.spsa.r_end.to_string());
    line("batch", config.spsa.batch.to_string());
    line("opening_plies", config.opening_plies.to_string());
    line("opening_pool", config.opening_pool.to_string());
    line("seed", config.seed.to_string());
    let values = |values: &[u16]| {
        config
            .params
            .iter()
            .zip(values)
            .map(|(p, v)| format!("{}={v}", p.key()))
            .collect::<Vec<_>>()
            .join(",")
    };
    line("start", values(start));
    if let Some(tuned) = tuned {
        line("tuned", values(tuned));
        line("tuned_engine", engine_text(&config.engine_with(tuned)));
    }
    text
}

fn curve_text(
    config: &SearchTuneConfig,
    start: &[u16],
    generations: &[SearchGeneration],
) -> String {
    let keys: Vec<&str> = config.params.iter().map(|p| p.key()).collect();
    let mut table = format!("generation\tplus_points\tgames\t{}\n", keys.join("\t"));
    let row = |table: &mut String, number: u32, points: f64, games: u32, values: &[u16]| {
        let values: Vec<String> = values.iter().map(u16::to_string).collect();
        let _ = writeln!(table, "{number}\t{points}\t{games}\t{}", values.join("\t"));
    };
    row(&mut table, 0, 0.0, 0, start);
    for g in generations {
        row(&mut table, g.number, g.plus_points, g.games, &g.values);
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use plateau_games::Profile;

    fn config(game: &str) -> SearchTuneConfig {
        SearchTuneConfig {
            game: GameSpec::lookup(game, None).unwrap(),
            engine: EngineChoice::parse("master,hash=1").unwrap(),
            params: SearchParam::ALL.to_vec(),
            limits: Limits::nodes(300),
            generations: 2,
            spsa: SpsaSettings {
                steps_per_generation: 2,
                batch: 2,
                ..SpsaSettings::default()
            },
            opening_plies: 4,
            opening_pool: 8,
            verify_games: 2,
            verify_plies: 4,
            verify_sprt: None,
            max_plies: Some(80),
            seed: 5,
            concurrency: 2,
            out: PathBuf::new(),
        }
    }

    #[test]
    fn parameters_parse_by_their_engine_option_names() {
        assert_eq!(SearchParam::parse_list("all").unwrap(), SearchParam::ALL);
        assert_eq!(
            SearchParam::parse_list("margins, lmr-div").unwrap(),
            [SearchParam::Margins, SearchParam::LmrDivisor]
        );
        let error = SearchParam::parse_list("margins,depth").unwrap_err();
        assert!(
            error.contains("\"depth\"") && error.contains("lmp-moves"),
            "{error}"
        );
        assert!(
            SearchParam::parse_list("margins,margins")
                .unwrap_err()
                .contains("twice")
        );
        // Every key is an engine option, and set values read back.
        for param in SearchParam::ALL {
            let mut tweaks = Tweaks::default();
            param.set(&mut tweaks, 123);
            let text = format!("master{}", tweaks.suffix());
            let choice = EngineChoice::parse(&text).unwrap();
            let mut options = Options::full();
            choice.tweaks.apply(&mut options);
            assert_eq!(param.read(&options), 123, "{text}");
        }
    }

    #[test]
    fn start_values_are_the_games_own() {
        let ataxx = config("ataxx");
        let start = ataxx.start_values().unwrap();
        // Ataxx plays the values an earlier run of this tuner found
        // (plateau-games' `ataxx_search`), not the search's defaults.
        assert_eq!(start[..4], [105, 149, 187, 153]);
        assert_eq!(
            start[4..],
            [105, 25, 99, 134, 117, 81],
            "each rule's own margin"
        );
        let draughts_rules = config("draughts").start_values().unwrap();
        assert_eq!(
            draughts_rules[4..],
            [100; Margin::COUNT],
            "as margins scales it"
        );
        let defaults = Options::full();
        assert_ne!(start[0], defaults.lmr_base);
        let draughts = config("draughts");
        let start = draughts.start_values().unwrap();
        assert_eq!((start[0], start[2]), (defaults.lmr_base, 100));
        let mut random = config("ataxx");
        random.engine = EngineChoice {
            profile: Profile::Random,
            tweaks: Tweaks::default(),
        };
        assert!(random.start_values().is_err());
    }

    #[test]
    fn a_depth_limit_and_empty_lists_are_refused() {
        let mut c = config("ataxx");
        c.limits = Limits::depth(3);
        assert!(c.check().unwrap_err().to_string().contains("--movetime"));
        let mut c = config("ataxx");
        c.params.clear();
        assert!(c.check().is_err());
        let mut c = config("ataxx");
        c.spsa.c_end = 2.0;
        assert!(c.check().is_err());
    }

    #[test]
    fn values_stay_in_their_ranges() {
        let c = config("ataxx");
        assert_eq!(
            rounded(&c, &[-30.0, 5000.0, 499.6, 20.2]),
            vec![0, 1000, 500, 20]
        );
        let mut values = [-30.0, 5000.0, 499.6, 1.0];
        clamp_to_ranges(&c, &mut values);
        assert_eq!(values, [0.0, 1000.0, 499.6, 20.0]);
    }

    #[test]
    fn a_short_run_moves_the_parameters_and_writes_its_files() {
        let dir = tempfile::tempdir().unwrap();
        let mut c = config("ataxx");
        c.out = dir.path().join("run");
        // Played to the end at a budget where the parameters change the
        // moves: at 300 nodes and 80 plies nearly every game was an
        // adjudicated draw, each pair split, and nothing could move.
        c.limits = Limits::nodes(1000);
        c.max_plies = None;
        let mut games = 0;
        let result = run_search_tune(&c, |event| {
            if let SearchTuneEvent::Game { done } = event {
                games = done;
            }
        })
        .unwrap();
        assert_eq!(games, 8, "2 generations of 2 pairs");
        assert_eq!(result.generations.len(), 2);
        assert_eq!(result.start[2], 187);
        assert_ne!(result.tuned, result.start, "four steps move something");
        assert_eq!(result.verification.unwrap().done, 2);
        let engine = std::fs::read_to_string(c.out.join(ENGINE_FILE)).unwrap();
        assert_eq!(engine.trim(), engine_text(&result.engine));
        let parsed = EngineChoice::parse(engine.trim()).unwrap();
        assert_eq!(parsed, result.engine, "the engine text reads back");
        let curve = std::fs::read_to_string(c.out.join(SEARCH_CURVE_FILE)).unwrap();
        assert_eq!(curve.lines().count(), 4, "{curve}");
        assert!(curve.starts_with("generation\tplus_points\tgames\tlmr-base"));
        let settings = std::fs::read_to_string(c.out.join(SEARCH_SETTINGS_FILE)).unwrap();
        assert!(settings.contains("tuned_engine = master,"), "{settings}");
        // Same seed, same run.
        let mut again = c.clone();
        again.out = PathBuf::new();
        let repeated = run_search_tune(&again, |_| {}).unwrap();
        assert_eq!(repeated.tuned, result.tuned);
    }
}
