use crate::progress::{Progress, clock};
use crate::setup::{GameArgs, move_limit_plies};
use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use plateau_games::{available_threads, parse_threads};
use plateau_learn::data::{Contents, VERSION_PACKED, scan};
use plateau_learn::datagen::has_gap_layouts;
use plateau_learn::{DataWriter, DatagenConfig, Header, Layout, datagen, merge};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const DATAGEN_HELP: &str =
    "One engine plays both sides at a fixed number of nodes per move, after a few
random opening plies. Every position it searched is kept when it is quiet (no
capture or ejection to make) and the search found no forced result, with the
search score and the game's result, both for the side to move.

The file is written one game at a time. When --out already exists (of the same
game), the run continues it until it holds --games games: rerun a stopped
command to resume it, or raise --games to add more. Game N depends only on the
seed and N, so a run gives the same file whatever --threads is. docs/learning.md
describes the format.

--minutes M sizes a run to the time there is: no game starts after M minutes,
those in progress finish and are written, and the same command run again
continues the file.

Examples:
  plateau datagen ataxx --games 2000 --nodes 5000 --out ataxx-1.data --seed 1
  plateau datagen ataxx --games 1000000 --nodes 2500 --minutes 70 --out g.data
  plateau datagen draughts --games 500 --nodes 20000 --threads 8 --out d.data
  plateau data merge --out all.data --shuffle ataxx-1.data ataxx-2.data";

/// Write training positions from self-play.
#[derive(Args)]
#[command(after_long_help = DATAGEN_HELP)]
pub struct DatagenArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Games the file holds when done (games already in --out count).
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000)]
    nodes: u64,
    /// Games played at once (default: one per core); each engine searches on one
    /// thread.
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
    /// The data file to write, or to continue.
    #[arg(long)]
    out: PathBuf,
    /// Seed of the openings and of the engine's randomness.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The engine that plays both sides (`master`, `expert,hash=16`, or
    /// `master,net=FILE` to play a network: its data trains the next one).
    #[arg(long, default_value = "master")]
    engine: String,
    /// Random legal plies that open each game (default: the game's match
    /// openings plus four).
    #[arg(long)]
    random_plies: Option<u32>,
    /// A game still going after this many plies is scored a draw.
    #[arg(long, default_value_t = 600)]
    max_plies: u32,
    /// Plays every game under the site's move limit of this many moves each
    /// (Abalone: the side that has pushed off more marbles wins there), so
    /// that games which would run to --max-plies teach a result instead of a
    /// draw. Off by default: the game's own rules.
    #[arg(long, value_name = "MOVES")]
    move_limit: Option<u32>,
    /// Share of the games (0 to 1) that start from a random layout of gaps
    /// (Ataxx only: 1 to 4 groups of blocked cells, mirrored as in
    /// tournament openings), so that networks learn positions with gaps.
    #[arg(long, default_value_t = 0.0)]
    gaps: f64,
    /// Start no game after this many minutes (those in progress finish and
    /// are written): size a run to the time there is, and continue it later
    /// by running the same command again.
    #[arg(long, allow_negative_numbers = true)]
    minutes: Option<f64>,
}

pub fn run(args: DatagenArgs) -> Result<()> {
    let spec = args.game.spec()?;
    let engine = spec
        .parse_engine(&args.engine)
        .map_err(|err| anyhow::anyhow!("bad --engine {:?}: {err}", args.engine))?;
    if args.nodes == 0 {
        bail!("--nodes must be at least 1");
    }
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    if !(0.0..=1.0).contains(&args.gaps) {
        bail!(
            "--gaps is a share of the games, from 0 to 1, not {}",
            args.gaps
        );
    }
    if args.gaps > 0.0 && !has_gap_layouts(&spec) {
        bail!(
            "--gaps: {} has no gap layouts (only ataxx has blocked cells)",
            spec.full_name()
        );
    }
    let time_limit = match args.minutes {
        None => None,
        Some(minutes) if minutes > 0.0 && minutes.is_finite() => {
            Some(Duration::from_secs_f64(minutes * 60.0))
        }
        Some(minutes) => bail!("--minutes must be a positive number of minutes, not {minutes}"),
    };
    let move_limit = move_limit_plies(&spec, args.move_limit, Some(args.max_plies))?;
    if move_limit.is_some() && args.gaps > 0.0 {
        bail!("--move-limit and --gaps do not go together");
    }
    let config = DatagenConfig {
        spec,
        engine,
        games: args.games,
        nodes: args.nodes,
        threads: args.threads.unwrap_or_else(available_threads),
        seed: args.seed,
        random_plies: args.random_plies.unwrap_or(spec.info.opening_plies + 4),
        max_plies: args.max_plies,
        move_limit,
        gaps: args.gaps,
        time_limit,
    };
    let game = spec.full_name();
    let mut writer = if args.out.exists() {
        let (writer, contents) = DataWriter::append(&args.out, &game)
            .with_context(|| format!("cannot continue {}", args.out.display()))?;
        if contents.header.layout != Layout::Games {
            bail!(
                "{} is a merged file; self-play continues only its own files",
                args.out.display()
            );
        }
        if contents.cut_short > 0 {
            eprintln!(
                "{}: dropped the last game, cut short ({} bytes)",
                args.out.display(),
                contents.cut_short
            );
        }
        eprintln!(
            "continuing {}: it holds {} games ({} positions)",
            args.out.display(),
            contents.blocks,
            contents.samples
        );
        writer
    } else {
        let header = Header::new(game.clone(), Layout::Games);
        DataWriter::create(&args.out, &header)
            .with_context(|| format!("cannot create {}", args.out.display()))?
    };
    let already = writer.blocks();
    if already >= config.games {
        println!(
            "{} already holds {already} games (--games {}): nothing to do",
            args.out.display(),
            config.games
        );
        return Ok(());
    }
    let gaps = if config.gaps > 0.0 {
        format!(", {:.0}% from random gap layouts", config.gaps * 100.0)
    } else {
        String::new()
    };
    let limit = config.move_limit.map_or(String::new(), |plies| {
        format!(", a move limit of {} moves each", plies / 2)
    });
    eprintln!(
        "{game}: {} games at {} nodes a move with {}, {} at a time, {} random plies{gaps}{limit}",
        config.games - already,
        config.nodes,
        config.engine.name(),
        config.threads,
        config.random_plies
    );
    let mut bar = Progress::new("datagen", (config.games - already) as usize);
    let mut last_line = Instant::now();
    let summary = datagen::run(&config, &mut writer, |p| {
        let rate = p.new_samples as f64 / p.elapsed.as_secs_f64().max(1e-3);
        bar.update(
            p.new_games as usize,
            format!("{} positions, {rate:.0}/s", p.samples),
        );
        if last_line.elapsed() >= Duration::from_secs(30) {
            last_line = Instant::now();
            bar.println(&format!(
                "{}/{} games, {} positions, {}",
                p.games,
                p.total,
                p.samples,
                clock(p.elapsed.as_secs_f64())
            ));
        }
    });
    bar.finish();
    let summary = summary?;
    if summary.games < config.games {
        eprintln!(
            "stopped after {}: {} of {} games; run the same command again to continue",
            clock(summary.elapsed.as_secs_f64()),
            summary.games,
            config.games
        );
    }
    let seconds = summary.elapsed.as_secs_f64().max(1e-3);
    println!(
        "{}: {} games, {} positions ({} new games, {} new positions in {}, {:.0} positions/s)",
        args.out.display(),
        summary.games,
        summary.samples,
        summary.new_games,
        summary.new_samples,
        clock(seconds),
        summary.new_samples as f64 / seconds
    );
    Ok(())
}

const DATA_HELP: &str =
    "Training-data files are written by `plateau datagen`. `info` counts what files
hold; `merge` joins several files of one game into one, optionally shuffled
(what a trainer should read) and with repeated positions dropped. Files of the
Ataxx family are written in format version 2 (packed positions, about 18 bytes
a position), those of the other games in version 1 (position text); both read
everywhere, and merge writes the newest version of the game.

Examples:
  plateau data info ataxx-1.data
  plateau data merge --out all.data --shuffle --dedup ataxx-1.data ataxx-2.data";

/// Inspect, merge and shuffle training-data files.
#[derive(Args)]
#[command(after_long_help = DATA_HELP)]
pub struct DataArgs {
    #[command(subcommand)]
    action: DataAction,
}

#[derive(Subcommand)]
enum DataAction {
    /// What files hold: game, games, positions, results.
    Info {
        /// Data files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Join files of one game into a new file.
    Merge {
        /// The new file.
        #[arg(long)]
        out: PathBuf,
        /// Shuffle the positions (with --seed).
        #[arg(long)]
        shuffle: bool,
        /// Seed of the shuffle.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Keep each position once (its first sample).
        #[arg(long)]
        dedup: bool,
        /// Data files to join.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

pub fn run_data(args: DataArgs) -> Result<()> {
    match args.action {
        DataAction::Info { files } => {
            for file in &files {
                let contents = scan(file)?;
                println!("{}", describe(file, &contents)?);
            }
            Ok(())
        }
        DataAction::Merge {
            out,
            shuffle,
            seed,
            dedup,
            files,
        } => {
            let started = Instant::now();
            let summary = merge(&files, &out, shuffle.then_some(seed), dedup)?;
            println!(
                "{}: {} positions of {} from {} files{}{} in {}",
                out.display(),
                summary.samples,
                summary.game,
                summary.files,
                if shuffle { ", shuffled" } else { "" },
                if dedup {
                    format!(", {} repeated positions dropped", summary.duplicates)
                } else {
                    String::new()
                },
                clock(started.elapsed().as_secs_f64())
            );
            Ok(())
        }
    }
}

fn describe(path: &Path, contents: &Contents) -> Result<String> {
    let size = std::fs::metadata(path)
        .with_context(|| path.display().to_string())?
        .len();
    let [losses, draws, wins] = contents.results;
    let blocks = match contents.header.layout {
        Layout::Games => format!("{} games", contents.blocks),
        Layout::Mixed => "merged".to_string(),
    };
    let per_position = if contents.samples > 0 {
        format!(
            ", {:.1} bytes a position",
            size as f64 / contents.samples as f64
        )
    } else {
        String::new()
    };
    let encoding = if contents.header.version == VERSION_PACKED {
        "packed"
    } else {
        "position text"
    };
    let mut line = format!(
        "{}: {}, {blocks}, {} positions (side to move: {wins} won, {draws} drawn, \
         {losses} lost), {size} bytes{per_position}, format version {} ({encoding})",
        path.display(),
        contents.header.game,
        contents.samples,
        contents.header.version,
    );
    if contents.cut_short > 0 {
        line += &format!(
            "; its last {} bytes are a game cut short (datagen drops them when it continues)",
            contents.cut_short
        );
    }
    Ok(line)
}
