use crate::setup::threads_value;
use anyhow::{Context, Result, bail};
use clap::Args;
use plateau_games::{
    AnyEngine, EngineChoice, EngineText, GAMES, GameSpec, Limits, Profile, Thought, describe_score,
    parse_suite, run_entry,
};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Search a fixed set of positions and report nodes and speed. At the game's
/// fixed depth (the default) the total node count is the same on every run and
/// machine: it changes only when search behaviour changes, so it doubles as a
/// signature of the build. With --movetime, reports the depth reached instead.
///
/// With --suite FILE, searches the positions of a test suite instead (lines
/// `POSITION ; bm MOVE`, such as crates/games/suites/draughts-combinations.txt)
/// for --movetime each (default 1000 ms), to --depth or to --nodes, and reports which are
/// solved and how soon the solving move was found and kept.
///
/// With --threads N (N > 1), every position is searched twice, each time by a
/// fresh engine: with one thread, then with N. To a fixed depth this measures
/// the time to depth (per position on stderr: the depth, both times and their
/// ratio; per game on stdout: the total times, the ratio of the totals, the
/// median of the ratios and nodes/s at both counts); with --movetime, the
/// depth reached at both counts and their medians. Multi-threaded node counts
/// vary from run to run; the last line still starts with the one-thread total.
#[derive(Args)]
pub struct BenchArgs {
    /// The game (all games when omitted).
    game: Option<String>,
    /// Search each position to this depth instead of the game's bench depth.
    #[arg(long, conflicts_with = "movetime")]
    depth: Option<u32>,
    /// Search each position for this many milliseconds and report the depth reached.
    #[arg(long)]
    movetime: Option<u64>,
    /// With --suite: search each position to this many nodes, the same on
    /// every machine (the suite tests' limit), instead of for a time.
    #[arg(long, requires = "suite", conflicts_with_all = ["movetime", "depth"])]
    nodes: Option<u64>,
    /// The engine profile to measure, with options (`expert,lmr=off` measures
    /// what late-move reductions bring); default `expert`, and `master` with
    /// --suite.
    #[arg(long)]
    engine: Option<String>,
    /// Compare one thread with this many: each position is searched at both
    /// counts (1, the default, is the plain single-threaded bench).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = threads_value)]
    threads: usize,
    /// A suite of positions with their solving moves (`POSITION ; bm MOVE`
    /// a line) to search instead of the bench positions; needs the game.
    #[arg(
        long,
        value_name = "FILE",
        requires = "game",
        conflicts_with = "threads"
    )]
    suite: Option<PathBuf>,
}

pub fn run(args: BenchArgs) -> Result<()> {
    let specs: Vec<GameSpec> = match &args.game {
        Some(name) => vec![GameSpec::lookup(name, None)?],
        None => GAMES
            .iter()
            .filter_map(|g| GameSpec::lookup(g.name, None).ok())
            .collect(),
    };
    let default_engine = if args.suite.is_some() {
        "master"
    } else {
        "expert"
    };
    let engine = args.engine.as_deref().unwrap_or(default_engine);
    let choice = match specs.as_slice() {
        [spec] => spec.parse_engine(engine),
        _ => EngineChoice::parse(engine).map(|choice| EngineText { choice, net: None }),
    }
    .map_err(anyhow::Error::msg)?;
    let profile = choice.choice.profile;
    if profile == Profile::Random {
        bail!("the random player does not search");
    }
    if let (Some(path), [spec]) = (&args.suite, specs.as_slice()) {
        return run_suite(spec, &choice, path, &args);
    }
    if args.threads > 1 {
        if choice.choice.tweaks.threads.is_some() {
            bail!(
                "--threads {} compares 1 thread with {0}: leave threads= out of --engine",
                args.threads
            );
        }
        return compare(&specs, &choice, &args);
    }
    let (mut all_nodes, mut all_time) = (0u64, Duration::ZERO);
    for spec in specs {
        let info = spec.info;
        let limits = bench_limits(&spec, &args);
        let (mut nodes, mut time, mut depths) = (0u64, Duration::ZERO, Vec::new());
        for (i, text) in info.bench_positions.iter().enumerate() {
            let game = spec.from_text(text)?;
            let (thought, elapsed) =
                timed(build(&spec, &choice)?.as_mut(), game.as_ref(), &limits)?;
            nodes += thought.nodes;
            time += elapsed;
            depths.push(thought.depth);
            eprintln!(
                "{} {:>2}: depth {:>2} nodes {:>11} {:>7.3} s  bestmove {}",
                spec.full_name(),
                i + 1,
                thought.depth,
                thought.nodes,
                elapsed.as_secs_f64(),
                thought.best
            );
        }
        println!(
            "{}: {} positions, {} nodes, {:.3} s, {} nps, median depth {}",
            spec.full_name(),
            info.bench_positions.len(),
            nodes,
            time.as_secs_f64(),
            nps(nodes, time),
            median(&mut depths)
        );
        all_nodes += nodes;
        all_time += time;
    }
    println!("{all_nodes} nodes {} nps", nps(all_nodes, all_time));
    Ok(())
}

fn bench_limits(spec: &GameSpec, args: &BenchArgs) -> Limits {
    match args.movetime {
        Some(ms) => Limits::movetime(Duration::from_millis(ms)),
        None => Limits::depth(args.depth.unwrap_or(spec.info.bench_depth)),
    }
}

/// One search by `engine`, and the wall time it took.
fn timed(
    engine: &mut dyn AnyEngine,
    game: &dyn plateau_core::AnyGame,
    limits: &Limits,
) -> Result<(Thought, Duration)> {
    let started = Instant::now();
    let thought = engine
        .think(game, limits, &mut |_| {})
        .map_err(anyhow::Error::msg)?;
    Ok((thought, started.elapsed()))
}

/// What the searches at one thread count added up to.
#[derive(Default)]
struct Totals {
    nodes: u64,
    time: Duration,
    depths: Vec<u32>,
}

impl Totals {
    fn add(&mut self, thought: &Thought, elapsed: Duration) {
        self.nodes += thought.nodes;
        self.time += elapsed;
        self.depths.push(thought.depth);
    }

    fn nps(&self) -> u64 {
        nps(self.nodes, self.time)
    }
}

fn build(spec: &GameSpec, engine: &EngineText) -> Result<Box<dyn AnyEngine>> {
    spec.build_engine(engine, 0).map_err(anyhow::Error::msg)
}

/// `bench --threads N`: every position at 1 thread, then at N, fresh engines.
fn compare(specs: &[GameSpec], choice: &EngineText, args: &BenchArgs) -> Result<()> {
    let n = args.threads;
    let with_threads = |threads: usize| {
        let mut choice = choice.clone();
        choice.choice.tweaks.threads = Some(threads);
        choice
    };
    let (one, many) = (with_threads(1), with_threads(n));
    let (mut all_one, mut all_many) = (Totals::default(), Totals::default());
    for spec in specs {
        let limits = bench_limits(spec, args);
        let (mut at_one, mut at_many, mut ratios) =
            (Totals::default(), Totals::default(), Vec::new());
        for (i, text) in spec.info.bench_positions.iter().enumerate() {
            let game = spec.from_text(text)?;
            let (single, single_time) = timed(build(spec, &one)?.as_mut(), game.as_ref(), &limits)?;
            let (multi, multi_time) = timed(build(spec, &many)?.as_mut(), game.as_ref(), &limits)?;
            at_one.add(&single, single_time);
            at_many.add(&multi, multi_time);
            let label = format!("{} {:>2}", spec.full_name(), i + 1);
            if args.movetime.is_some() {
                eprintln!(
                    "{label}: 1T depth {:>2} nodes {:>11}  {n}T depth {:>2} nodes {:>11}",
                    single.depth, single.nodes, multi.depth, multi.nodes
                );
            } else {
                let ratio = ratio(multi_time, single_time);
                ratios.push(ratio);
                eprintln!(
                    "{label}: depth {:>2}  1T {:>7.3} s  {n}T {:>7.3} s  ratio {ratio:.2}",
                    single.depth,
                    single_time.as_secs_f64(),
                    multi_time.as_secs_f64(),
                );
            }
        }
        let count = spec.info.bench_positions.len();
        if args.movetime.is_some() {
            println!(
                "{}: {count} positions, median depth 1T {} {n}T {}, {} nps 1T, {} nps {n}T",
                spec.full_name(),
                median(&mut at_one.depths),
                median(&mut at_many.depths),
                at_one.nps(),
                at_many.nps()
            );
        } else {
            ratios.sort_unstable_by(f64::total_cmp);
            let median_ratio = ratios.get(ratios.len() / 2).copied().unwrap_or(0.0);
            println!(
                "{}: {count} positions, depth {}, 1T {:.3} s {n}T {:.3} s, ratio {:.2}, \
                 median ratio {median_ratio:.2}, {} nps 1T, {} nps {n}T",
                spec.full_name(),
                limits.depth.unwrap_or(0),
                at_one.time.as_secs_f64(),
                at_many.time.as_secs_f64(),
                ratio(at_many.time, at_one.time),
                at_one.nps(),
                at_many.nps()
            );
        }
        all_one.nodes += at_one.nodes;
        all_one.time += at_one.time;
        all_many.nodes += at_many.nodes;
        all_many.time += at_many.time;
    }
    println!(
        "{} nodes {} nps; {n} threads: {} nodes {} nps, time ratio {:.2}",
        all_one.nodes,
        all_one.nps(),
        all_many.nodes,
        all_many.nps(),
        ratio(all_many.time, all_one.time)
    );
    Ok(())
}

/// `bench --suite FILE`: each position searched by a fresh engine.
fn run_suite(spec: &GameSpec, choice: &EngineText, path: &Path, args: &BenchArgs) -> Result<()> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the suite {}", path.display()))?;
    let entries =
        parse_suite(spec, &text).map_err(|err| anyhow::anyhow!("{}: {err}", path.display()))?;
    let (limits, bound) = match (args.depth, args.nodes) {
        (Some(depth), _) => (Limits::depth(depth), format!("at depth {depth}")),
        (None, Some(nodes)) => (Limits::nodes(nodes), format!("within {nodes} nodes")),
        (None, None) => {
            let ms = args.movetime.unwrap_or(1000);
            (
                Limits::movetime(Duration::from_millis(ms)),
                format!("within {ms} ms"),
            )
        }
    };
    let (mut solved, mut times) = (0, Vec::new());
    for entry in &entries {
        let mut engine = build(spec, choice)?;
        let result =
            run_entry(spec, engine.as_mut(), entry, &limits).map_err(anyhow::Error::msg)?;
        let summary = format!(
            "depth {:>2} nodes {:>10} score {}",
            result.depth,
            result.nodes,
            describe_score(result.score)
        );
        match result.found_at {
            Some((time, nodes)) if result.solved => {
                solved += 1;
                times.push(time);
                println!(
                    "line {:>3}: solved   {:<8} found at {:>7.3} s ({nodes} nodes); {summary}",
                    entry.line,
                    result.chosen,
                    time.as_secs_f64()
                );
            }
            _ => println!(
                "line {:>3}: UNSOLVED {:<8} (bm {}); {summary}",
                entry.line,
                result.chosen,
                entry.best.join(" ")
            ),
        }
    }
    times.sort_unstable();
    let timing = match (times.get(times.len() / 2), times.last()) {
        (Some(median), Some(slowest)) => format!(
            "; time to the solving move: median {:.3} s, slowest {:.3} s",
            median.as_secs_f64(),
            slowest.as_secs_f64()
        ),
        _ => String::new(),
    };
    println!(
        "{}: {solved}/{} solved {bound} by {}{timing}",
        path.display(),
        entries.len(),
        choice.choice.name(),
    );
    Ok(())
}

/// `time` over `base` (below 1: faster than the base).
fn ratio(time: Duration, base: Duration) -> f64 {
    time.as_secs_f64() / base.as_secs_f64().max(1e-9)
}

/// The middle value (the upper one of an even count), 0 for none.
fn median(values: &mut [u32]) -> u32 {
    values.sort_unstable();
    values.get(values.len() / 2).copied().unwrap_or(0)
}

fn nps(nodes: u64, time: Duration) -> u64 {
    (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64
}
