use crate::progress::{Progress, clock};
use crate::setup::GameArgs;
use anyhow::{Result, bail};
use clap::{Args, ValueEnum};
use plateau_arena::stats::elo_text;
use plateau_arena::tune::search_params::{
    self, SearchParam, SearchTuneConfig, SearchTuneEvent, run_search_tune,
};
use plateau_arena::tune::{
    Fitness, Method, PLOT_FILE, SpsaSettings, TuneConfig, TuneEvent, generation_file_name,
    run_tune, used_features,
};
use plateau_arena::weights::{format_value, read_weights};
use plateau_arena::{MatchStatus, Sprt, WEIGHTED_PROFILE};
use plateau_games::{EngineChoice, GameSpec, Limits, Profile};
use std::path::PathBuf;
use std::time::Duration;

/// The long help, after the options (the subcommand list shows the
/// one-line summary from `main.rs`).
const TUNE_HELP: &str = "algorithm, in parallel, keeping every generation.

Each generation: every member of the population plays --games games (half
with each colour) at --depth from random openings; the --elite best survive
unchanged, the other places go to children of two of the --parents best
(each weight from one parent or the other, then lightly mutated); the
anchor weight (a man, a stone) is held at its value by rescaling. The
generation's champion then plays --measure-games games against the start
weights: the curve. At the end the last champion plays --verify-games games
against the start weights. The defaults are the seed's constants.

Everything goes to --out: run.txt (settings), gen-NNN.txt (each
generation's champion, a weight file; gen-000 is the start), champion.txt,
population-NNN.tsv, curve.tsv, curve.svg (the curve with 95% error bars),
verify.txt. Any generation plays as an engine: `--engine gen=DIR:N`.

With --search PARAMS the run tunes the search instead: SPSA moves the
late-move reduction table (lmr-base, lmr-div), the pruning margins
(margins, all together; razor-margin, rfp-margin, fp-margin,
probcut-margin, se-margin, nmp-margin, one rule's on top of them) and late
move pruning's counts (lmp-moves) of --profile's engine
(default master), from the values that engine plays the game with, every
game at --movetime or --nodes; each generation is --spsa-steps pairs. It
writes run.txt, curve.tsv (the values after each generation), engine.txt
(the tuned engine, e.g. `master,lmr-base=81,margins=470`, which match and
play accept) and verify.txt (--verify-games against the start values).

Examples:
  plateau tune draughts --out runs/draughts-seed
  plateau tune draughts --fitness panel --games 24 --out runs/draughts-panel
  plateau tune ataxx --start default --features all --depth 3 --out runs/ataxx
  plateau tune ataxx --search all --movetime 50 --generations 20 --spsa-steps 50 \\
      --verify-games 200 --verify-sprt 0,10,0.05,0.05 --out runs/ataxx-search
  plateau tune ataxx --search rfp-margin,fp-margin,probcut-margin,nmp-margin \
      --nodes 60000 --out runs/ataxx-margins";

/// Tune a game's evaluation weights with the draughts seed's evolutionary
#[derive(Args)]
#[command(after_long_help = TUNE_HELP)]
pub struct TuneArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Generations to run.
    #[arg(long, default_value_t = 30)]
    generations: u32,
    /// Members of each generation.
    #[arg(long, default_value_t = 12)]
    population: usize,
    /// Games per member per generation (even: half with each colour).
    #[arg(long, default_value_t = 4)]
    games: u32,
    /// Search depth of every game.
    #[arg(long, default_value_t = 2)]
    depth: u32,
    /// Seed of everything random (same seed, same run).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Directory for the run (default: tune-GAME-SEED); must not hold a run yet.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Where the weights start: `seed` (the seed program's), `default`
    /// (plateau's current ones) or a weight file.
    #[arg(long, default_value = "seed")]
    start: String,
    /// Which weights move: `used` (those the start weights use, or all when
    /// they use only the first), `all`, or names separated by commas.
    #[arg(long, default_value = "used")]
    features: String,
    /// The weight held at its start value by rescaling (default: the first
    /// feature, material), or `none`.
    #[arg(long)]
    anchor: Option<String>,
    /// How weights are searched for: `evolution` (the seed's algorithm) or
    /// `spsa` (small random perturbations judged by game pairs, as fishtest).
    /// (Default: evolution; --search always uses spsa.)
    #[arg(long, value_enum)]
    method: Option<MethodArg>,
    /// With --method spsa: game pairs per generation.
    #[arg(long, default_value_t = 100)]
    spsa_steps: u32,
    /// With --method spsa: final perturbation, as a fraction of each weight's
    /// typical size.
    #[arg(long, default_value_t = 0.1)]
    spsa_c: f64,
    /// With --method spsa: final learning rate (a_end / c_end²).
    #[arg(long, default_value_t = 0.05)]
    spsa_r: f64,
    /// With --method spsa: steps played at once on the same weights (results
    /// depend on this, not on --concurrency).
    #[arg(long, default_value_t = 8)]
    spsa_batch: usize,
    /// Who members play: `random` opponents from the population (the seed), or
    /// a common `panel` (the start weights and the last champions) on the same
    /// openings.
    #[arg(long, value_enum, default_value_t = FitnessArg::Random)]
    fitness: FitnessArg,
    /// With --fitness panel: how many recent champions join the start weights.
    #[arg(long, default_value_t = 3)]
    panel_champions: usize,
    /// How many of the best survive unchanged.
    #[arg(long, default_value_t = 3)]
    elite: usize,
    /// How many of the best may be parents.
    #[arg(long, default_value_t = 6)]
    parents: usize,
    /// Chance that a child's weight mutates.
    #[arg(long, default_value_t = 0.25)]
    mutation_rate: f64,
    /// Size of a mutation, relative to the weight.
    #[arg(long, default_value_t = 0.2)]
    mutation_size: f64,
    /// Relative spread of the first population around the start weights.
    #[arg(long, default_value_t = 0.2)]
    initial_spread: f64,
    /// Random plies opening each tuning game.
    #[arg(long, default_value_t = 2)]
    opening_plies: u32,
    /// Distinct openings drawn for the tuning games.
    #[arg(long, default_value_t = 64)]
    opening_pool: usize,
    /// Games of each generation's champion against the start weights (the curve).
    #[arg(long, default_value_t = 8)]
    measure_games: u32,
    /// Games of the final check of the champion against the start weights (0: none).
    #[arg(long, default_value_t = 200)]
    verify_games: u32,
    /// Random plies opening the final check's games (more than the tuning's, so
    /// that 200 games have distinct openings).
    #[arg(long, default_value_t = 4)]
    verify_plies: u32,
    /// Stop the final check once an SPRT decides: `elo0,elo1,alpha,beta`.
    #[arg(long)]
    verify_sprt: Option<String>,
    /// The engine behind the weights: a level or `seed` (default expert).
    /// With --search, the engine whose parameters move, with any tweaks:
    /// `master` (the default), `master,hash=16`.
    #[arg(long)]
    profile: Option<String>,
    /// Tune the search's parameters instead of evaluation weights: `all`, or
    /// some of lmr-base, lmr-div, margins, lmp-moves, razor-margin,
    /// rfp-margin, fp-margin, probcut-margin, se-margin, nmp-margin (the
    /// engine options of those names; a rule's own margin is a percentage on
    /// top of `margins`). SPSA, at --movetime or --nodes a move; the weight
    /// options (--start, --features, --population, --depth...) do not apply.
    #[arg(long, value_name = "PARAMS")]
    search: Option<String>,
    /// With --search: milliseconds a move in every game.
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// With --search: nodes a move in every game (instead of --movetime).
    #[arg(long)]
    nodes: Option<u64>,
    /// Transposition table per engine, in MB.
    #[arg(long, default_value_t = 1)]
    hash: usize,
    /// Adjudicate a draw when a game reaches this many plies (0: never).
    #[arg(long, default_value_t = 1000)]
    max_plies: u32,
    /// Games played at once (default: one per core).
    #[arg(long)]
    concurrency: Option<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum MethodArg {
    Evolution,
    Spsa,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum FitnessArg {
    Random,
    Panel,
}

/// The start weights and their label.
fn start_weights(spec: &GameSpec, start: &str) -> Result<(Vec<f32>, String)> {
    Ok(match start {
        "seed" => (
            spec.info.tuning.seed_weights.to_vec(),
            "seed weights".into(),
        ),
        "default" => (
            spec.info.tuning.default_weights.to_vec(),
            "default weights".into(),
        ),
        file => (
            read_weights(spec, &PathBuf::from(file))?,
            format!("weights of {file}"),
        ),
    })
}

fn feature_index(spec: &GameSpec, name: &str) -> Result<usize> {
    let features = spec.info.tuning.features;
    features.iter().position(|f| *f == name).ok_or_else(|| {
        anyhow::anyhow!(
            "{name:?} is not a feature of {}; its features are: {}",
            spec.full_name(),
            features.join(", ")
        )
    })
}

pub fn run(args: TuneArgs) -> Result<()> {
    let spec = args.game.spec()?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("tune-{}-{}", spec.info.name, args.seed)));
    if out.as_os_str().is_empty() {
        anyhow::bail!("--out needs a directory: the run's generations are written there");
    }
    if let Some(params) = args.search.as_deref() {
        return run_search(&args, spec, params, out);
    }
    if args.movetime.is_some() || args.nodes.is_some() {
        bail!("--movetime and --nodes are for --search: weights are tuned at a fixed --depth");
    }
    let mut config = TuneConfig::seed_defaults(spec, out.clone());
    let (start, label) = start_weights(&spec, &args.start)?;
    config.anchor = match args.anchor.as_deref() {
        None => Some(0),
        Some("none") => None,
        Some(name) => Some(feature_index(&spec, name)?),
    };
    config.tuned = match args.features.as_str() {
        "used" => used_features(&start, config.anchor),
        "all" => vec![true; start.len()],
        list => {
            let mut tuned = vec![false; start.len()];
            for name in list.split(',') {
                tuned[feature_index(&spec, name.trim())?] = true;
            }
            tuned
        }
    };
    config.start = start;
    config.start_label = label;
    config.generations = args.generations;
    config.population = args.population;
    config.games = args.games;
    config.depth = args.depth;
    config.seed = args.seed;
    config.fitness = match args.fitness {
        FitnessArg::Random => Fitness::Random,
        FitnessArg::Panel => Fitness::Panel,
    };
    config.panel_champions = args.panel_champions;
    config.method = match args.method.unwrap_or(MethodArg::Evolution) {
        MethodArg::Evolution => Method::Evolution,
        MethodArg::Spsa => Method::Spsa,
    };
    config.spsa = SpsaSettings {
        steps_per_generation: args.spsa_steps,
        c_end: args.spsa_c,
        r_end: args.spsa_r,
        batch: args.spsa_batch.clamp(1, 4096),
    };
    config.elite = args.elite;
    config.parents = args.parents;
    config.mutation_rate = args.mutation_rate;
    config.mutation_size = args.mutation_size;
    config.initial_spread = args.initial_spread;
    config.opening_plies = args.opening_plies;
    config.opening_pool = args.opening_pool;
    config.measure_games = args.measure_games;
    config.verify_games = args.verify_games;
    config.verify_plies = args.verify_plies;
    config.verify_sprt = args
        .verify_sprt
        .as_deref()
        .map(Sprt::parse)
        .transpose()
        .map_err(anyhow::Error::msg)?;
    config.profile =
        Profile::parse(args.profile.as_deref().unwrap_or("expert")).map_err(anyhow::Error::msg)?;
    if config.profile == Profile::Random {
        bail!("--profile random plays no evaluation: choose a level or seed");
    }
    config.hash_mb = args.hash.clamp(1, 4096);
    config.max_plies = (args.max_plies > 0).then_some(args.max_plies);
    config.concurrency = args
        .concurrency
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let tuned: Vec<&str> = spec
        .info
        .tuning
        .features
        .iter()
        .zip(&config.tuned)
        .filter(|(_, t)| **t)
        .map(|(n, _)| *n)
        .collect();
    eprintln!(
        "tuning {} from the {} ({}), {} generations ({}) at depth {}{}, into {}",
        spec.full_name(),
        config.start_label,
        tuned.join(", "),
        config.generations,
        config.method_text(),
        config.depth,
        if config.profile == WEIGHTED_PROFILE {
            String::new()
        } else {
            format!(" ({} engine)", config.profile)
        },
        out.display()
    );
    let mut progress = Progress::new("openings", 0);
    let features = spec.info.tuning.features;
    let result = run_tune(&config, |event| match event {
        TuneEvent::Stage { name, games } => progress.restart(name, games),
        TuneEvent::Game { done } => progress.update(done, ""),
        TuneEvent::Generation(report) => {
            let champion = &report.ranked[0];
            let weights: Vec<String> = features
                .iter()
                .zip(&champion.weights)
                .zip(&config.tuned)
                .filter(|(_, t)| **t)
                .map(|((n, w), _)| format!("{n} {}", format_value(*w)))
                .collect();
            let tuning = match config.method {
                Method::Evolution => format!(
                    "champion {}/{} in selection",
                    champion.points, champion.games
                ),
                Method::Spsa => format!("plus side {}/{}", champion.points, champion.games),
            };
            progress.println(&format!(
                "generation {:>3}: {tuning}, {} vs start ({}) | {}",
                report.number,
                tally_short(&report.measure),
                clock(report.elapsed.as_secs_f64()),
                weights.join(", ")
            ));
        }
        TuneEvent::Verification(status) => progress.update(status.done, check_progress(status)),
    })?;
    progress.finish();
    println!(
        "champion (generation {}): {}",
        config.generations,
        out.join(generation_file_name(config.generations)).display()
    );
    for ((name, weight), start) in features.iter().zip(&result.champion).zip(&config.start) {
        println!(
            "  {name:<16} {:>10}   (start {})",
            format_value(*weight),
            format_value(*start)
        );
    }
    if let Some(status) = &result.verification {
        print_final_check("weights", status, config.verify_sprt);
    }
    println!(
        "curve: {}   wall time {}",
        out.join(PLOT_FILE).display(),
        clock(result.elapsed.as_secs_f64())
    );
    Ok(())
}

fn tally_short(t: &plateau_arena::Tally) -> String {
    format!(
        "+{} ={} -{} {:.0}%",
        t.wins,
        t.draws,
        t.losses,
        100.0 * t.score()
    )
}

/// `plateau tune GAME --search PARAMS`: SPSA over search parameters at a
/// time or node budget.
fn run_search(args: &TuneArgs, spec: GameSpec, params: &str, out: PathBuf) -> Result<()> {
    if args.method == Some(MethodArg::Evolution) {
        bail!("--search tunes by SPSA: leave out --method evolution");
    }
    let params = SearchParam::parse_list(params).map_err(anyhow::Error::msg)?;
    let limits = match (args.movetime, args.nodes) {
        (Some(_), Some(_)) => bail!("--movetime or --nodes, not both"),
        (Some(0), _) | (_, Some(0)) => bail!("--movetime and --nodes must be positive"),
        (Some(ms), None) => Limits::movetime(Duration::from_millis(ms)),
        (None, Some(nodes)) => Limits::nodes(nodes),
        (None, None) => bail!(
            "--search needs --movetime MS or --nodes N: search parameters trade depth for \
             selectivity, which a fixed depth cannot judge"
        ),
    };
    let engine = EngineChoice::parse(args.profile.as_deref().unwrap_or("master"))
        .map_err(|e| anyhow::anyhow!("--profile: {e}"))?;
    if engine.profile == Profile::Random {
        bail!("--profile random has no search to tune: choose a level");
    }
    let config = SearchTuneConfig {
        game: spec,
        engine,
        params,
        limits,
        generations: args.generations,
        spsa: SpsaSettings {
            steps_per_generation: args.spsa_steps,
            c_end: args.spsa_c,
            r_end: args.spsa_r,
            batch: args.spsa_batch.clamp(1, 4096),
        },
        opening_plies: args.opening_plies,
        opening_pool: args.opening_pool,
        verify_games: args.verify_games,
        verify_plies: args.verify_plies,
        verify_sprt: args
            .verify_sprt
            .as_deref()
            .map(Sprt::parse)
            .transpose()
            .map_err(anyhow::Error::msg)?,
        max_plies: (args.max_plies > 0).then_some(args.max_plies),
        seed: args.seed,
        concurrency: args
            .concurrency
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .max(1),
        out: out.clone(),
    };
    let start = config.start_values()?;
    let keys: Vec<&str> = config.params.iter().map(|p| p.key()).collect();
    let values = |values: &[u16]| -> String {
        keys.iter()
            .zip(values)
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    eprintln!(
        "tuning the search of {} ({}) from {}: {} generations of {} pairs (spsa, c_end {}, r_end {}) at {}, into {}",
        spec.full_name(),
        search_params::engine_text(&config.engine),
        values(&start),
        config.generations,
        config.spsa.steps_per_generation,
        config.spsa.c_end,
        config.spsa.r_end,
        match (args.movetime, args.nodes) {
            (Some(ms), _) => format!("{ms} ms a move"),
            (_, nodes) => format!("{} nodes a move", nodes.unwrap_or(0)),
        },
        out.display()
    );
    let mut progress = Progress::new("openings", 0);
    let result = run_search_tune(&config, |event| match event {
        SearchTuneEvent::Stage { name, games } => progress.restart(name, games),
        SearchTuneEvent::Game { done } => progress.update(done, ""),
        SearchTuneEvent::Generation(generation) => progress.println(&format!(
            "generation {:>3}: plus side {}/{} ({}) | {}",
            generation.number,
            generation.plus_points,
            generation.games,
            clock(generation.elapsed.as_secs_f64()),
            values(&generation.values)
        )),
        SearchTuneEvent::Verification(status) => {
            progress.update(status.done, check_progress(status))
        }
    })?;
    progress.finish();
    println!("start: {}", values(&result.start));
    println!("tuned: {}", values(&result.tuned));
    println!(
        "engine: {}   ({})",
        search_params::engine_text(&result.engine),
        out.join(search_params::ENGINE_FILE).display()
    );
    if let Some(status) = &result.verification {
        print_final_check("values", status, config.verify_sprt);
    }
    println!("wall time {}", clock(result.elapsed.as_secs_f64()));
    Ok(())
}

/// The final check's running score, beside its progress bar.
fn check_progress(status: &MatchStatus) -> String {
    let (elo, margin) = status.penta.elo();
    format!(
        "{:.1}%  Elo {}",
        100.0 * status.tally.score(),
        elo_text(elo, margin)
    )
}

/// The final check against the start `what` (weights or values).
fn print_final_check(what: &str, status: &MatchStatus, sprt: Option<Sprt>) {
    let (elo, margin) = status.penta.elo();
    println!(
        "final check against the start {what}: {} games, +{} ={} -{}, score {:.1}%, Elo {} (95%), LOS {:.1}%",
        status.done,
        status.tally.wins,
        status.tally.draws,
        status.tally.losses,
        100.0 * status.tally.score(),
        elo_text(elo, margin),
        100.0 * status.penta.los()
    );
    if let (Some(sprt), Some((llr, verdict))) = (sprt, status.sprt) {
        let (lower, upper) = sprt.bounds();
        println!("  SPRT {sprt}: LLR {llr:.2} ({lower:.2}, {upper:.2}): {verdict}");
    }
}
