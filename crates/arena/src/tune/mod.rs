//! The evolutionary tuner of evaluation weights, after the draughts seed
//! (`dames-moteur.js`, section 06 of its write-up), for any game's features:
//!
//! 1. a population (12) of weight sets near the start weights;
//! 2. a tournament: each plays a few games (4: two with each colour) at a fixed
//!    depth (2) from random openings (2 plies), against opponents drawn at
//!    random from the population; a win is 1 point, a draw ½;
//! 3. selection: the best (3) survive unchanged, the other places go to
//!    children of two good parents (uniform crossover), lightly mutated;
//!    weights are rescaled so that the anchor (a man, a stone) keeps its value;
//! 4. measure: the generation's champion plays a few games (8) against the
//!    start weights: the curve.
//!
//! Every constant is a setting whose default is the seed's. Games run in
//! parallel; every generation is stored and playable (`gen=RUN:N`); a final,
//! longer match checks the champion against the start weights. Improvements
//! over the seed, chosen by measurement, are settings too: more games per
//! individual, and a common panel of opponents for the whole generation
//! ([`Fitness::Panel`]) instead of random ones.

mod evolve;
pub mod plot;
pub mod search_params;
mod spsa;
mod store;

pub use evolve::{Operators, gaussian, next_population};
pub use spsa::{Probe, SpsaSettings, SpsaState};
pub use store::{
    CHAMPION_FILE, CURVE_FILE, PLOT_FILE, SETTINGS_FILE, VERIFY_FILE, generation_file_name,
};

use crate::external::ExternalOptions;
use crate::game::{TimeControl, play_game};
use crate::openings::{Opening, OpeningSource, random_openings};
use crate::player::{EngineSpec, PlayerError};
use crate::pool::run_jobs;
use crate::runner::{MatchConfig, MatchStatus, run_match};
use crate::sprt::Sprt;
use crate::stats::Tally;
use crate::weights::format_value;
use plateau_core::time::Instant;
use plateau_core::{AnyGame, EndReason, Rng, splitmix64};
use plateau_games::{EngineChoice, GameSpec, Limits, Profile, Tweaks};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Duration;
use store::{Store, tally_text};
use thiserror::Error;

/// Why a tuning run stopped.
#[derive(Debug, Error)]
pub enum TuneError {
    #[error("{0}")]
    Config(String),
    #[error("cannot write {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{0}")]
    Game(String),
}

/// Who an individual plays in the selection tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fitness {
    /// The seed's: opponents drawn at random from the population, every game
    /// counting for both players (each plays `games`, half with each colour).
    Random,
    /// Everyone plays the same panel (the start weights and the last few
    /// champions) on the same colour-swapped openings: the differences between
    /// individuals are then differences of strength, not of luck in the draw.
    Panel,
}

impl Fitness {
    pub fn name(self) -> &'static str {
        match self {
            Fitness::Random => "random",
            Fitness::Panel => "panel",
        }
    }
}

/// How the weights are searched for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// The seed's evolutionary algorithm.
    Evolution,
    /// Simultaneous perturbation stochastic approximation ([`SpsaSettings`]).
    Spsa,
}

impl Method {
    pub fn name(self) -> &'static str {
        match self {
            Method::Evolution => "evolution",
            Method::Spsa => "spsa",
        }
    }
}

/// Everything a tuning run needs; [`TuneConfig::seed_defaults`] gives the
/// seed's constants.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    pub game: GameSpec,
    /// Where the weights start, and what to call them.
    pub start: Vec<f32>,
    pub start_label: String,
    /// Which weights move (one flag per feature).
    pub tuned: Vec<bool>,
    /// The feature whose weight is held at its start value by rescaling.
    pub anchor: Option<usize>,
    pub method: Method,
    pub generations: u32,
    pub population: usize,
    /// Games per individual per generation (even: half with each colour).
    pub games: u32,
    /// Search depth of every tuning game.
    pub depth: u32,
    /// Random plies opening each tuning game.
    pub opening_plies: u32,
    /// Distinct openings drawn once for the tuning games.
    pub opening_pool: usize,
    /// How many of the best survive unchanged.
    pub elite: usize,
    /// How many of the best may be parents.
    pub parents: usize,
    pub mutation_rate: f64,
    pub mutation_size: f64,
    pub initial_spread: f64,
    pub fitness: Fitness,
    /// With [`Method::Spsa`]: its gains and steps.
    pub spsa: SpsaSettings,
    /// With [`Fitness::Panel`]: how many recent champions join the start
    /// weights in the panel.
    pub panel_champions: usize,
    /// Games of each generation's champion against the start weights.
    pub measure_games: u32,
    /// Games of the final check of the champion against the start weights
    /// (0: none), from openings of `verify_plies` random plies.
    pub verify_games: u32,
    pub verify_plies: u32,
    /// Stops the final check early once decided.
    pub verify_sprt: Option<Sprt>,
    /// The search behind the weights (`expert`: the full engine, no noise).
    pub profile: Profile,
    /// Transposition table per engine, MB: small, shallow searches.
    pub hash_mb: usize,
    /// Adjudicate a draw when a game reaches this many plies.
    pub max_plies: Option<u32>,
    pub seed: u64,
    pub concurrency: usize,
    /// The run directory; empty keeps nothing on disk (the caller keeps
    /// what it needs from the events).
    pub out: PathBuf,
}

impl TuneConfig {
    /// The seed's constants for `game`, from its seed weights, tuning the
    /// weights those use.
    pub fn seed_defaults(game: GameSpec, out: PathBuf) -> TuneConfig {
        let start = game.info.tuning.seed_weights.to_vec();
        let tuned = used_features(&start, Some(0));
        TuneConfig {
            game,
            start,
            start_label: "seed weights".into(),
            tuned,
            anchor: Some(0),
            method: Method::Evolution,
            generations: 30,
            population: 12,
            games: 4,
            depth: 2,
            opening_plies: 2,
            opening_pool: 64,
            elite: 3,
            parents: 6,
            mutation_rate: 0.25,
            mutation_size: 0.2,
            initial_spread: 0.2,
            fitness: Fitness::Random,
            spsa: SpsaSettings::default(),
            panel_champions: 3,
            measure_games: 8,
            verify_games: 200,
            verify_plies: 4,
            verify_sprt: None,
            profile: crate::player::WEIGHTED_PROFILE,
            hash_mb: 1,
            max_plies: Some(1000),
            seed: 1,
            concurrency: 1,
            out,
        }
    }

    fn check(&self) -> Result<(), TuneError> {
        let n = self.game.info.tuning.features.len();
        let bad = |reason: String| Err(TuneError::Config(reason));
        if self.start.len() != n || self.tuned.len() != n {
            return bad(format!("{} has {n} features", self.game.full_name()));
        }
        if !self.tuned.iter().any(|&t| t) {
            return bad("no weight to tune".into());
        }
        if self.population < 2 {
            return bad("the population needs at least 2 members".into());
        }
        if self.games == 0 || !self.games.is_multiple_of(2) {
            return bad(format!(
                "--games {}: an even number (half with each colour)",
                self.games
            ));
        }
        if self.depth == 0 {
            return bad("--depth must be at least 1".into());
        }
        if self.elite >= self.population {
            return bad(format!(
                "--elite {} must be smaller than the population ({})",
                self.elite, self.population
            ));
        }
        if self.parents < 2 || self.parents > self.population {
            return bad(format!(
                "--parents {}: between 2 and the population ({})",
                self.parents, self.population
            ));
        }
        if !self.measure_games.is_multiple_of(2) || !self.verify_games.is_multiple_of(2) {
            return bad("measure and verification games come in pairs: even numbers".into());
        }
        if self.method == Method::Spsa {
            if self.spsa.steps_per_generation == 0 {
                return bad("SPSA needs at least one step per generation".into());
            }
            let c_ok = self.spsa.c_end > 0.0 && self.spsa.c_end <= 10.0;
            let r_ok = self.spsa.r_end > 0.0 && self.spsa.r_end <= 100.0;
            if !(c_ok && r_ok) {
                return bad("SPSA's c_end and r_end must be positive (c_end at most 10)".into());
            }
            if !spsa_tuned(self).iter().any(|&t| t) {
                return bad("SPSA keeps the anchor fixed: tune at least one other weight".into());
            }
        }
        if self.opening_pool == 0 {
            return bad("the opening pool needs at least one opening".into());
        }
        for (name, value) in [
            ("mutation rate", self.mutation_rate),
            ("mutation size", self.mutation_size),
            ("initial spread", self.initial_spread),
        ] {
            if !(0.0..=10.0).contains(&value) {
                return bad(format!("{name} {value}: between 0 and 10"));
            }
        }
        Ok(())
    }

    fn choice(&self) -> EngineChoice {
        EngineChoice {
            profile: self.profile,
            tweaks: Tweaks {
                table_mb: Some(self.hash_mb),
                ..Tweaks::default()
            },
        }
    }

    fn operators(&self) -> Operators {
        Operators {
            tuned: self.tuned.clone(),
            anchor: self.anchor,
            start: self.start.clone(),
            typical: self.game.info.tuning.default_weights.to_vec(),
            mutation_rate: self.mutation_rate,
            mutation_size: self.mutation_size,
            initial_spread: self.initial_spread,
        }
    }

    /// Games of a generation: the tournament (or SPSA's pairs), then the
    /// champion's measure.
    pub fn games_per_generation(&self) -> usize {
        let tuning = match (self.method, self.fitness) {
            (Method::Spsa, _) => 2 * self.spsa.steps_per_generation as usize,
            (Method::Evolution, Fitness::Random) => self.population * self.games as usize / 2,
            (Method::Evolution, Fitness::Panel) => self.population * self.games as usize,
        };
        tuning + self.measure_games as usize
    }

    /// `evolution, random fitness, 4 games each` or `spsa, 100 pairs per generation`.
    pub fn method_text(&self) -> String {
        match self.method {
            Method::Evolution => format!(
                "evolution, {} fitness, {} games each",
                self.fitness.name(),
                self.games
            ),
            Method::Spsa => format!(
                "spsa, {} pairs per generation, c_end {}, r_end {}",
                self.spsa.steps_per_generation, self.spsa.c_end, self.spsa.r_end
            ),
        }
    }
}

/// The weights a start evaluation uses (non-zero), or every weight when it
/// uses only the anchor (Ataxx's seed counts stones and nothing else).
pub fn used_features(start: &[f32], anchor: Option<usize>) -> Vec<bool> {
    let used: Vec<bool> = start.iter().map(|w| *w != 0.0).collect();
    let others = used
        .iter()
        .enumerate()
        .any(|(i, &u)| u && Some(i) != anchor);
    if others {
        used
    } else {
        vec![true; start.len()]
    }
}

/// One member of a ranked population.
#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    pub weights: Vec<f32>,
    pub points: f64,
    pub games: u32,
}

/// What a generation gave.
#[derive(Clone, Debug)]
pub struct GenerationReport {
    pub number: u32,
    /// Best first; `ranked[0]` is the champion.
    pub ranked: Vec<Member>,
    /// The champion against the start weights.
    pub measure: Tally,
    pub elapsed: Duration,
}

/// What the run reports as it goes.
pub enum TuneEvent<'a> {
    /// A new stage and the number of games in it (0 for the openings).
    Stage {
        name: String,
        games: usize,
    },
    /// A game of the stage finished.
    Game {
        done: usize,
    },
    Generation(&'a GenerationReport),
    /// A game of the final check finished.
    Verification(&'a MatchStatus),
}

/// A finished run.
#[derive(Clone, Debug)]
pub struct TuneResult {
    pub generations: Vec<GenerationReport>,
    pub champion: Vec<f32>,
    pub verification: Option<MatchStatus>,
    pub elapsed: Duration,
}

/// One scheduled tuning game: `a` plays `b`, `a` White or not.
#[derive(Clone, Copy, Debug)]
struct Pairing {
    a: Side2,
    b: Side2,
    a_white: bool,
    opening: usize,
}

/// Who sits in a game: a population member or a panel member.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side2 {
    Member(usize),
    Panel(usize),
}

/// Runs the tuner, reporting progress through `on_event`.
pub fn run_tune(
    config: &TuneConfig,
    mut on_event: impl FnMut(TuneEvent<'_>) + Send,
) -> Result<TuneResult, TuneError> {
    config.check()?;
    let began = Instant::now();
    let store = Store::create(&config.out, config.game)?;
    store.write(SETTINGS_FILE, &settings_text(config))?;
    store.weights(
        &generation_file_name(0),
        &config.start,
        &[format!(
            "generation 0: the start weights ({})",
            config.start_label
        )],
    )?;
    on_event(TuneEvent::Stage {
        name: "openings".into(),
        games: 0,
    });
    let starts = opening_starts(
        &config.game,
        config.opening_plies,
        config.opening_pool,
        config.seed,
    )?;
    let operators = config.operators();
    let mut evolution = Rng::new(splitmix64(config.seed ^ 0x6576_6f6c_7665).1);
    let mut state = match config.method {
        Method::Evolution => {
            State::Population(operators.initial(config.population, &mut evolution))
        }
        Method::Spsa => State::Spsa(SpsaState::new(
            &config.start,
            config.game.info.tuning.default_weights,
            &spsa_tuned(config),
            &config.spsa,
            config.generations as u64 * config.spsa.steps_per_generation as u64,
        )),
    };
    let mut reports: Vec<GenerationReport> = Vec::new();
    let title = format!(
        "{}: tuning from the {} ({}, depth {})",
        config.game.full_name(),
        config.start_label,
        config.method_text(),
        config.depth
    );
    for number in 1..=config.generations {
        let started = Instant::now();
        let mut schedule = Rng::new(splitmix64(config.seed ^ (number as u64) << 32).1);
        on_event(TuneEvent::Stage {
            name: format!("generation {number}/{}", config.generations),
            games: config.games_per_generation(),
        });
        let mut finished = 0;
        let ranked = match &mut state {
            State::Population(population) => {
                let panel: Vec<Vec<f32>> = std::iter::once(config.start.clone())
                    .chain(
                        reports
                            .iter()
                            .rev()
                            .take(config.panel_champions)
                            .map(|r| r.ranked[0].weights.clone()),
                    )
                    .collect();
                tournament(
                    config,
                    population,
                    &panel,
                    &starts,
                    number,
                    &mut schedule,
                    &mut finished,
                    &mut on_event,
                )?
            }
            State::Spsa(spsa) => spsa_block(
                config,
                spsa,
                &starts,
                number,
                &mut schedule,
                &mut finished,
                &mut on_event,
            )?,
        };
        let measure_openings: Vec<usize> = (0..config.measure_games / 2)
            .map(|_| schedule.below(starts.len() as u64) as usize)
            .collect();
        let measure = measure_champion(
            config,
            &ranked[0].weights,
            &measure_openings,
            &starts,
            number,
            finished,
            &mut on_event,
        )?;
        let report = GenerationReport {
            number,
            ranked,
            measure,
            elapsed: started.elapsed(),
        };
        store.generation(&report)?;
        on_event(TuneEvent::Generation(&report));
        let ranked_weights: Vec<Vec<f32>> =
            report.ranked.iter().map(|m| m.weights.clone()).collect();
        reports.push(report);
        store.curve(&title, &reports, None)?;
        if let State::Population(population) = &mut state
            && number < config.generations
        {
            *population = next_population(
                &ranked_weights,
                config.elite,
                config.parents,
                &operators,
                &mut evolution,
            );
        }
    }
    let champion = reports
        .last()
        .map(|r| r.ranked[0].weights.clone())
        .unwrap_or_else(|| config.start.clone());
    store.weights(
        CHAMPION_FILE,
        &champion,
        &[format!(
            "the champion of generation {} (the last)",
            config.generations
        )],
    )?;
    let verification = if config.verify_games > 0 {
        let status = verify(config, &champion, &mut on_event)?;
        store.write(VERIFY_FILE, &verification_text(config, &status))?;
        store.curve(&title, &reports, Some(status.tally))?;
        Some(status)
    } else {
        None
    };
    Ok(TuneResult {
        generations: reports,
        champion,
        verification,
        elapsed: began.elapsed(),
    })
}

/// What carries over from one generation to the next.
enum State {
    Population(Vec<Vec<f32>>),
    Spsa(SpsaState),
}

/// SPSA leaves the anchor alone: it needs no rescaling.
fn spsa_tuned(config: &TuneConfig) -> Vec<bool> {
    config
        .tuned
        .iter()
        .enumerate()
        .map(|(i, &t)| t && Some(i) != config.anchor)
        .collect()
}

/// The selection tournament of a population; the members ranked best first.
#[allow(clippy::too_many_arguments)]
fn tournament(
    config: &TuneConfig,
    population: &[Vec<f32>],
    panel: &[Vec<f32>],
    starts: &[Box<dyn AnyGame>],
    number: u32,
    schedule: &mut Rng,
    finished: &mut usize,
    on_event: &mut (impl FnMut(TuneEvent<'_>) + Send),
) -> Result<Vec<Member>, TuneError> {
    let pairings = match config.fitness {
        Fitness::Random => random_pairings(config, starts.len(), schedule),
        Fitness::Panel => panel_pairings(config, panel.len(), starts.len(), schedule),
    };
    let weights_of = |side: Side2| -> &[f32] {
        match side {
            Side2::Member(i) => &population[i],
            Side2::Panel(i) => &panel[i],
        }
    };
    let results = run_jobs(
        pairings.len(),
        config.concurrency,
        |index| {
            let p = pairings[index];
            let seed = game_seed(config.seed, number, index);
            play_weights(
                config,
                weights_of(p.a),
                weights_of(p.b),
                p.a_white,
                starts[p.opening].as_ref(),
                seed,
            )
        },
        |_, _| {
            *finished += 1;
            on_event(TuneEvent::Game { done: *finished });
            true
        },
    );
    let mut points = vec![0.0; population.len()];
    let mut games = vec![0u32; population.len()];
    for (pairing, result) in pairings.iter().zip(results) {
        let score = result.ok_or_else(|| TuneError::Game("a game was not played".into()))??;
        for (side, s) in [(pairing.a, score), (pairing.b, 1.0 - score)] {
            if let Side2::Member(i) = side {
                points[i] += s;
                games[i] += 1;
            }
        }
    }
    // Best first; ties keep the earlier member (the elite comes first).
    let mut order: Vec<usize> = (0..population.len()).collect();
    order.sort_by(|&a, &b| points[b].total_cmp(&points[a]));
    Ok(order
        .iter()
        .map(|&i| Member {
            weights: population[i].clone(),
            points: points[i],
            games: games[i],
        })
        .collect())
}

/// A generation's worth of SPSA steps, in batches played at once; the
/// weights after them are the generation's only member.
fn spsa_block(
    config: &TuneConfig,
    spsa: &mut SpsaState,
    starts: &[Box<dyn AnyGame>],
    number: u32,
    schedule: &mut Rng,
    finished: &mut usize,
    on_event: &mut (impl FnMut(TuneEvent<'_>) + Send),
) -> Result<Vec<Member>, TuneError> {
    let (points, games) = spsa_steps(
        spsa,
        &config.spsa,
        config.concurrency,
        starts.len(),
        schedule,
        |probe, a_white, opening, index| {
            play_weights(
                config,
                &probe.plus,
                &probe.minus,
                a_white,
                starts[opening].as_ref(),
                game_seed(config.seed, number, index),
            )
        },
        |_| {},
        || {
            *finished += 1;
            on_event(TuneEvent::Game { done: *finished });
        },
    )?;
    Ok(vec![Member {
        weights: spsa.weights.clone(),
        points,
        games,
    }])
}

/// `settings.steps_per_generation` SPSA steps, `settings.batch` played at
/// once on the same weights: `play(probe, plus_white, opening, index)` plays
/// one game of a step's pair (the plus side's score; `index` counts the
/// block's games), `after_update` may constrain the weights after each
/// step, `on_game` hears of each finished game. The plus sides' points and
/// games.
#[allow(clippy::too_many_arguments)]
fn spsa_steps(
    spsa: &mut SpsaState,
    settings: &SpsaSettings,
    concurrency: usize,
    openings: usize,
    schedule: &mut Rng,
    play: impl Fn(&Probe, bool, usize, usize) -> Result<f64, TuneError> + Sync,
    mut after_update: impl FnMut(&mut SpsaState),
    mut on_game: impl FnMut() + Send,
) -> Result<(f64, u32), TuneError> {
    let steps = settings.steps_per_generation as usize;
    let batch = settings.batch.max(1);
    let (mut points, mut games) = (0.0, 0);
    let mut done = 0;
    while done < steps {
        let size = batch.min(steps - done);
        let probes: Vec<Probe> = (0..size).map(|_| spsa.probe(schedule)).collect();
        let chosen: Vec<usize> = (0..size)
            .map(|_| schedule.below(openings as u64) as usize)
            .collect();
        let results = run_jobs(
            size * 2,
            concurrency,
            |index| {
                play(
                    &probes[index / 2],
                    index % 2 == 0,
                    chosen[index / 2],
                    done * 2 + index,
                )
            },
            |_, _| {
                on_game();
                true
            },
        );
        let mut scores = Vec::with_capacity(size * 2);
        for result in results {
            scores.push(result.ok_or_else(|| TuneError::Game("a game was not played".into()))??);
        }
        for (probe, pair) in probes.iter().zip(scores.chunks(2)) {
            let plus: f64 = pair.iter().sum();
            // Wins minus losses of the plus side over the pair.
            spsa.update(probe, 2.0 * plus - 2.0);
            after_update(spsa);
            points += plus;
            games += 2;
        }
        done += size;
    }
    Ok((points, games))
}

/// The tuning games' start positions: `pool` random openings of `plies`
/// plies, each once.
fn opening_starts(
    game: &GameSpec,
    plies: u32,
    pool: usize,
    seed: u64,
) -> Result<Vec<Box<dyn AnyGame>>, TuneError> {
    dedup(random_openings(game, plies, pool, seed).map_err(TuneError::Game)?)
        .iter()
        .map(|o| o.build(game))
        .collect::<Result<_, _>>()
        .map_err(TuneError::Game)
}

/// Drops repeated openings (a game with few short openings has fewer than asked).
fn dedup(pool: Vec<Opening>) -> Vec<Opening> {
    let mut seen = std::collections::HashSet::new();
    pool.into_iter()
        .filter(|o| seen.insert(o.clone()))
        .collect()
}

fn game_seed(seed: u64, generation: u32, index: usize) -> u64 {
    splitmix64(seed ^ (generation as u64) << 40 ^ index as u64).1
}

/// The seed's tournament: `games / 2` random cycles through the population;
/// in each, every member plays White against the next one, so everyone
/// plays `games` games, half with each colour, against random opponents.
fn random_pairings(config: &TuneConfig, openings: usize, rng: &mut Rng) -> Vec<Pairing> {
    let n = config.population;
    let mut pairings = Vec::new();
    for _ in 0..config.games / 2 {
        let mut cycle: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            cycle.swap(i, j);
        }
        for k in 0..n {
            pairings.push(Pairing {
                a: Side2::Member(cycle[k]),
                b: Side2::Member(cycle[(k + 1) % n]),
                a_white: true,
                opening: rng.below(openings as u64) as usize,
            });
        }
    }
    pairings
}

/// The common-opponent tournament: the same `games / 2` openings for every
/// member, each played with both colours against a panel member in turn.
fn panel_pairings(
    config: &TuneConfig,
    panel: usize,
    openings: usize,
    rng: &mut Rng,
) -> Vec<Pairing> {
    let chosen: Vec<usize> = (0..config.games / 2)
        .map(|_| rng.below(openings as u64) as usize)
        .collect();
    let mut pairings = Vec::new();
    for member in 0..config.population {
        for (j, &opening) in chosen.iter().enumerate() {
            for a_white in [true, false] {
                pairings.push(Pairing {
                    a: Side2::Member(member),
                    b: Side2::Panel(j % panel),
                    a_white,
                    opening,
                });
            }
        }
    }
    pairings
}

/// One tuning game; the score of `a`.
fn play_weights(
    config: &TuneConfig,
    a: &[f32],
    b: &[f32],
    a_white: bool,
    start: &dyn AnyGame,
    seed: u64,
) -> Result<f64, TuneError> {
    let choice = config.choice();
    let weighted = |weights: &[f32]| EngineSpec::Weighted {
        label: String::new(),
        weights: weights.to_vec(),
        choice,
    };
    play_one(
        &config.game,
        [&weighted(a), &weighted(b)],
        a_white,
        start,
        seed,
        Limits::depth(config.depth),
        config.max_plies,
    )
}

/// One tuning game between `engines[0]` (White when `a_white`) and
/// `engines[1]` from `start`: `engines[0]`'s score. An engine that fails or
/// refuses the position stops the run rather than losing a game.
fn play_one(
    game: &GameSpec,
    engines: [&EngineSpec; 2],
    a_white: bool,
    start: &dyn AnyGame,
    seed: u64,
    limits: Limits,
    max_plies: Option<u32>,
) -> Result<f64, TuneError> {
    let build = |engine: &EngineSpec, seed: u64| {
        engine
            .build(game, seed, &ExternalOptions::default())
            .map_err(|e: PlayerError| TuneError::Game(e.to_string()))
    };
    let mut players = [
        build(engines[0], seed)?,
        build(engines[1], seed.wrapping_add(1))?,
    ];
    let white = if a_white { 0 } else { 1 };
    let (outcome, _, note, _) = play_game(
        start,
        &mut players,
        ["a", "b"],
        white,
        &TimeControl::PerMove(limits),
        max_plies,
    );
    if let Some(note) = note.filter(|_| {
        matches!(
            outcome.reason,
            EndReason::EngineFailure | EndReason::PositionRefused
        )
    }) {
        return Err(TuneError::Game(note));
    }
    let side = if a_white {
        plateau_core::Side::White
    } else {
        plateau_core::Side::Black
    };
    Ok(outcome.score_for(side))
}

/// The champion against the start weights on colour-swapped openings.
fn measure_champion(
    config: &TuneConfig,
    champion: &[f32],
    openings: &[usize],
    starts: &[Box<dyn AnyGame>],
    generation: u32,
    already: usize,
    on_event: &mut (impl FnMut(TuneEvent<'_>) + Send),
) -> Result<Tally, TuneError> {
    let mut finished = already;
    let results = run_jobs(
        openings.len() * 2,
        config.concurrency,
        |index| {
            let seed = game_seed(config.seed ^ 0x6d65_6173, generation, index);
            play_weights(
                config,
                champion,
                &config.start,
                index % 2 == 0,
                starts[openings[index / 2]].as_ref(),
                seed,
            )
        },
        |_, _| {
            finished += 1;
            on_event(TuneEvent::Game { done: finished });
            true
        },
    );
    let mut tally = Tally::default();
    for result in results {
        tally.add(result.ok_or_else(|| TuneError::Game("a game was not played".into()))??);
    }
    Ok(tally)
}

/// The final check: a match of the champion against the start weights.
fn verify(
    config: &TuneConfig,
    champion: &[f32],
    on_event: &mut (impl FnMut(TuneEvent<'_>) + Send),
) -> Result<MatchStatus, TuneError> {
    let choice = config.choice();
    let weighted = |label: &str, weights: &[f32]| EngineSpec::Weighted {
        label: label.into(),
        weights: weights.to_vec(),
        choice,
    };
    let match_config = MatchConfig {
        game: config.game,
        engines: [
            weighted("champion", champion),
            weighted("start", &config.start),
        ],
        games: config.verify_games,
        time: TimeControl::PerMove(Limits::depth(config.depth)),
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
    on_event(TuneEvent::Stage {
        name: "final check".into(),
        games: config.verify_games as usize,
    });
    let result = run_match(&match_config, |_, status| {
        on_event(TuneEvent::Verification(status))
    })
    .map_err(TuneError::Game)?;
    Ok(result.status)
}

/// The run's settings, as `key = value` lines.
fn settings_text(config: &TuneConfig) -> String {
    let features = config.game.info.tuning.features;
    let tuned: Vec<&str> = features
        .iter()
        .zip(&config.tuned)
        .filter(|(_, t)| **t)
        .map(|(n, _)| *n)
        .collect();
    let mut text = String::from("# plateau tuning run\n");
    let mut line = |key: &str, value: String| {
        let _ = writeln!(text, "{key} = {value}");
    };
    line("game", config.game.full_name());
    line("start", config.start_label.clone());
    line(
        "start_weights",
        config
            .start
            .iter()
            .map(|w| format_value(*w))
            .collect::<Vec<_>>()
            .join(" "),
    );
    line("tuned", tuned.join(" "));
    line(
        "anchor",
        config
            .anchor
            .map_or("none".into(), |a| features[a].to_string()),
    );
    line("method", config.method.name().into());
    line("generations", config.generations.to_string());
    line("population", config.population.to_string());
    line("games", config.games.to_string());
    line("depth", config.depth.to_string());
    line("opening_plies", config.opening_plies.to_string());
    line("opening_pool", config.opening_pool.to_string());
    line("elite", config.elite.to_string());
    line("parents", config.parents.to_string());
    line("mutation_rate", config.mutation_rate.to_string());
    line("mutation_size", config.mutation_size.to_string());
    line("initial_spread", config.initial_spread.to_string());
    line("fitness", config.fitness.name().into());
    line("panel_champions", config.panel_champions.to_string());
    line(
        "spsa_steps_per_generation",
        config.spsa.steps_per_generation.to_string(),
    );
    line("spsa_c_end", config.spsa.c_end.to_string());
    line("spsa_r_end", config.spsa.r_end.to_string());
    line("spsa_batch", config.spsa.batch.to_string());
    line("measure_games", config.measure_games.to_string());
    line("verify_games", config.verify_games.to_string());
    line("verify_plies", config.verify_plies.to_string());
    line(
        "verify_sprt",
        config.verify_sprt.map_or("none".into(), |s| s.to_string()),
    );
    line("profile", config.profile.name().into());
    line("hash_mb", config.hash_mb.to_string());
    line(
        "max_plies",
        config.max_plies.map_or("none".into(), |p| p.to_string()),
    );
    line("seed", config.seed.to_string());
    text
}

fn verification_text(config: &TuneConfig, status: &MatchStatus) -> String {
    verification_text_with(
        &config.verify_sprt,
        status,
        &format!(
            "champion vs start weights ({}), {} games at depth {}, openings of {} random plies",
            config.start_label, status.done, config.depth, config.verify_plies
        ),
    )
}

/// A final check's result under its `title` line: the tally, Elo both ways,
/// the pairs and the SPRT's verdict.
fn verification_text_with(verify_sprt: &Option<Sprt>, status: &MatchStatus, title: &str) -> String {
    let (elo, margin) = status.penta.elo();
    let (tri_elo, tri_margin) = status.tally.elo();
    let mut text = format!("{title}\n");
    let _ = writeln!(text, "result: {}", tally_text(&status.tally));
    let _ = writeln!(
        text,
        "elo (pentanomial): {}",
        crate::stats::elo_text(elo, margin)
    );
    let _ = writeln!(
        text,
        "elo (trinomial): {}",
        crate::stats::elo_text(tri_elo, tri_margin)
    );
    let _ = writeln!(text, "los: {:.1}%", 100.0 * status.penta.los());
    let _ = writeln!(
        text,
        "pairs [LL LD WL+DD WD WW]: {:?}",
        status.penta.counts()
    );
    if let (Some(sprt), Some((llr, verdict))) = (*verify_sprt, status.sprt) {
        let (lower, upper) = sprt.bounds();
        let _ = writeln!(
            text,
            "sprt ({sprt}): llr {llr:.2} ({lower:.2}, {upper:.2}), {verdict}"
        );
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_tournament_gives_everyone_half_of_each_colour() {
        let spec = GameSpec::lookup("draughts", None).unwrap();
        let config = TuneConfig::seed_defaults(spec, PathBuf::from("unused"));
        let mut rng = Rng::new(3);
        let pairings = random_pairings(&config, 10, &mut rng);
        assert_eq!(pairings.len(), 24);
        for member in 0..12 {
            let white = pairings
                .iter()
                .filter(|p| p.a == Side2::Member(member))
                .count();
            let black = pairings
                .iter()
                .filter(|p| p.b == Side2::Member(member))
                .count();
            assert_eq!((white, black), (2, 2));
        }
        assert!(pairings.iter().all(|p| p.a != p.b));
    }

    #[test]
    fn the_seed_tunes_its_seven_draughts_weights() {
        let spec = GameSpec::lookup("draughts", None).unwrap();
        let config = TuneConfig::seed_defaults(spec, PathBuf::from("unused"));
        assert_eq!(config.tuned.iter().filter(|t| **t).count(), 7);
        let ataxx = GameSpec::lookup("ataxx", None).unwrap();
        let config = TuneConfig::seed_defaults(ataxx, PathBuf::from("unused"));
        assert!(
            config.tuned.iter().all(|t| *t),
            "stones only: tune everything"
        );
    }

    #[test]
    fn bad_settings_are_refused() {
        let spec = GameSpec::lookup("draughts", None).unwrap();
        let mut config = TuneConfig::seed_defaults(spec, PathBuf::from("unused"));
        config.games = 3;
        assert!(config.check().unwrap_err().to_string().contains("even"));
        config.games = 4;
        config.elite = 12;
        assert!(config.check().unwrap_err().to_string().contains("elite"));
    }
}
