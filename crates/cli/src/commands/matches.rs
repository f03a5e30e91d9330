use crate::progress::Progress;
use crate::setup::{GameArgs, move_limit_plies};
use anyhow::{Context, Result, bail};
use clap::Args;
use plateau_arena::external::ExternalOptions;
use plateau_arena::journal::Journal;
use plateau_arena::openings::read_openings;
use plateau_arena::record::write_records;
use plateau_arena::stats::{elo_text, result_lines};
use plateau_arena::{
    ClockControl, EngineSpec, MatchConfig, MatchStatus, OpeningSource, Sprt, TimeControl,
    run_match_resuming,
};
use plateau_games::Limits;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The long help, after the options (the subcommand list shows the
/// one-line summary from `main.rs`).
const MATCH_HELP: &str =
    "Prints each game as it ends (with a progress bar on a terminal), then, from
the first engine's point of view: wins/draws/losses, the score, the Elo
difference with its 95% interval, the likelihood of superiority, the draw
ratio, the pentanomial counts of the game pairs and, with --sprt, the test's
verdict. docs/arena.md explains every number.

Games run in parallel (--concurrency), so every built-in engine searches on one
thread, whatever the machine, unless its text asks for more
(`master,threads=4`, no longer reproducible). External programs keep their own
defaults; plateau's front-ends use every core, so run them with --threads 1
(`uai:plateau uai --threads 1`).

A long match keeps every finished game in its --journal file: run the same
command again after a stop (Ctrl-C, a crash, a lost machine) and it plays only
the games missing, then prints the whole match's result. The journal names the
match's options and refuses another match's.

Examples:
  plateau match draughts --engine expert --engine seed --games 200 --depth 4
  plateau match draughts --engine weights=tuned.txt --engine expert --sprt 0,10,0.05,0.05
  plateau match ataxx --engine uai:./my-engine --engine master --clock 60 --increment 1
  plateau match draughts --engine master --engine master,book=off --movetime 1000 \
      --games 200 --journal book.journal";

/// Play a match between two engines: every opening twice, colours swapped.
#[derive(Args)]
#[command(after_long_help = MATCH_HELP)]
pub struct MatchArgs {
    #[command(flatten)]
    game: GameArgs,
    /// The two engines (give --engine twice). Built in: random, seed, or a level
    /// (beginner, medium, strong, expert, master), with options such as
    /// `master,time=seed` or `master,hash=128`; one thread per search unless
    /// `threads=N` is given. On weights: `weights=FILE`
    /// (a weight file, played by the expert engine; add `,profile=LEVEL` for
    /// another), `gen=RUN:N` (generation N of a `plateau tune` run in directory
    /// RUN, or `RUN:last`). Programs: `uai:COMMAND` (Ataxx engines),
    /// `hub:COMMAND` (draughts engines).
    #[arg(
        long = "engine",
        required = true,
        num_args = 1,
        allow_hyphen_values = true
    )]
    engines: Vec<String>,
    /// Number of games (rounded up to an even number); with --sprt, the most played.
    #[arg(long, default_value_t = 20)]
    games: u32,
    /// Milliseconds per move for both engines.
    #[arg(long, conflicts_with_all = ["depth", "nodes", "clock"])]
    movetime: Option<u64>,
    /// Fixed search depth for both engines.
    #[arg(long, conflicts_with_all = ["nodes", "clock"])]
    depth: Option<u32>,
    /// Nodes per move for both engines.
    #[arg(long, conflicts_with = "clock")]
    nodes: Option<u64>,
    /// A game clock: seconds per game for each engine (a loss on time ends the game).
    #[arg(long)]
    clock: Option<f64>,
    /// Seconds added to a clock after each move.
    #[arg(long, default_value_t = 0.0, requires = "clock")]
    increment: f64,
    /// Random legal plies before the engines take over (default: the game's own;
    /// Escampe: both placements).
    #[arg(long, conflicts_with = "openings")]
    opening_plies: Option<u32>,
    /// Openings from a file: one per line, a position text or moves from the
    /// start, `#` starting a comment; used in order (cycling), each played
    /// twice with colours swapped.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Adjudicate a draw when a game reaches this many plies (0: never).
    #[arg(long, default_value_t = 1000)]
    max_plies: u32,
    /// Play under the site's move limit of this many moves each (Abalone:
    /// the side that has pushed off more marbles wins there; rooms use 100).
    /// Openings must then be moves from the start. Off by default.
    #[arg(long, value_name = "MOVES")]
    move_limit: Option<u32>,
    /// Stop as soon as a sequential probability ratio test decides:
    /// `elo0,elo1,alpha,beta` (logistic Elo, pentanomial GSPRT as fastchess),
    /// e.g. `0,10,0.05,0.05`.
    #[arg(long)]
    sprt: Option<String>,
    /// Seed for the openings and the engines' randomness.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once (default: one per core).
    #[arg(long)]
    concurrency: Option<usize>,
    /// Write every game to this file: PDN for draughts, the game's own record
    /// format otherwise.
    #[arg(long)]
    record: Option<PathBuf>,
    /// Keep every finished game in this file, and resume from it: games
    /// already there are not played again (the same options are required).
    #[arg(long, value_name = "FILE")]
    journal: Option<PathBuf>,
    /// Seconds an engine program may take for a move searched to a depth or a
    /// node count before it loses (timed moves get their time plus 1 s).
    #[arg(long, default_value_t = 60.0)]
    timeout: f64,
    /// No line per game (the progress bar and the summary only).
    #[arg(long)]
    quiet: bool,
}

fn seconds(value: f64, what: &str) -> Result<Duration> {
    if !(value.is_finite() && (0.0..1e7).contains(&value)) {
        bail!("{what} must be a number of seconds, not {value}");
    }
    Ok(Duration::from_secs_f64(value))
}

pub fn run(args: MatchArgs) -> Result<()> {
    let spec = args.game.spec()?;
    if args.engines.len() != 2 {
        bail!("give exactly two engines: --engine A --engine B");
    }
    let engines = [
        EngineSpec::parse(&args.engines[0], &spec).map_err(anyhow::Error::msg)?,
        EngineSpec::parse(&args.engines[1], &spec).map_err(anyhow::Error::msg)?,
    ];
    let time = if let Some(clock) = args.clock {
        if clock <= 0.0 {
            bail!("--clock must be a positive number of seconds");
        }
        TimeControl::Clock(ClockControl {
            base: seconds(clock, "--clock")?,
            increment: seconds(args.increment, "--increment")?,
        })
    } else if args.movetime.is_some() || args.depth.is_some() || args.nodes.is_some() {
        TimeControl::PerMove(Limits {
            depth: args.depth,
            nodes: args.nodes,
            movetime: args.movetime.map(Duration::from_millis),
            clock: None,
        })
    } else {
        TimeControl::Default
    };
    let openings = match &args.openings {
        Some(path) => OpeningSource::List(read_openings(&spec, path).map_err(anyhow::Error::msg)?),
        None => OpeningSource::Random {
            plies: args.opening_plies.unwrap_or(spec.info.opening_plies),
        },
    };
    let sprt = args
        .sprt
        .as_deref()
        .map(Sprt::parse)
        .transpose()
        .map_err(anyhow::Error::msg)?;
    let concurrency = args
        .concurrency
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let move_limit = move_limit_plies(
        &spec,
        args.move_limit,
        (args.max_plies > 0).then_some(args.max_plies),
    )?;
    let config = MatchConfig {
        game: spec,
        engines: engines.clone(),
        games: args.games.max(1),
        time,
        openings,
        max_plies: (args.max_plies > 0).then_some(args.max_plies),
        move_limit,
        seed: args.seed,
        concurrency,
        sprt,
        external: ExternalOptions {
            move_timeout: seconds(args.timeout, "--timeout")?,
            ..ExternalOptions::default()
        },
    };
    let names = [engines[0].name(), engines[1].name()];
    let total = config.game_count();
    eprintln!(
        "{} vs {} in {}: {total} games{}, {} at a time",
        names[0],
        names[1],
        spec.full_name(),
        if sprt.is_some() { " at most" } else { "" },
        concurrency.min(total as usize)
    );
    let mut journal = args
        .journal
        .as_deref()
        .map(|path| Journal::open(path, &config))
        .transpose()
        .map_err(anyhow::Error::msg)?;
    let played = journal.as_ref().map_or(Vec::new(), |j| j.played().to_vec());
    if let Some(path) = &args.journal {
        eprintln!(
            "journal {}: {} of {total} games already played",
            path.display(),
            played.len()
        );
    }
    let mut journal_error = None;
    let started = Instant::now();
    let mut progress = Progress::new("match", total as usize);
    progress.update(played.len(), String::new());
    let result = run_match_resuming(&config, &played, |record, status| {
        if let Some(journal) = journal.as_mut()
            && journal_error.is_none()
            && let Err(err) = journal.append(record)
        {
            progress.println(&format!("warning: {err}; the match goes on without it"));
            journal_error = Some(err);
        }
        if !args.quiet {
            let (white, black) = (&names[record.white], &names[1 - record.white]);
            let note = record
                .note
                .as_deref()
                .map(|n| format!(" [{n}]"))
                .unwrap_or_default();
            progress.println(&format!(
                "game {:>4}/{total}: {white} (white) vs {black}: {} ({}, {} plies){note}",
                record.number + 1,
                record.result_text(),
                record.outcome.reason,
                record.moves.len(),
            ));
        }
        progress.update(status.done, short_status(status));
    })
    .map_err(anyhow::Error::msg)?;
    progress.finish();
    if let Some(path) = &args.record {
        let text = write_records(
            &spec,
            &result.records,
            [&names[0], &names[1]],
            &format!("plateau match: {} vs {}", names[0], names[1]),
        )
        .map_err(anyhow::Error::msg)?;
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    print!(
        "{}",
        summary(&names, &spec.full_name(), &result.status, sprt)
    );
    eprintln!(
        "{} games in {:.1} s{}",
        result.status.done - played.len(),
        started.elapsed().as_secs_f64(),
        if played.is_empty() {
            String::new()
        } else {
            format!(" ({} more from the journal)", played.len())
        }
    );
    if let Some(err) = journal_error {
        bail!("{err}: the games after that error are not in the journal");
    }
    Ok(())
}

/// `62.5% +88.7 ± 120.1 LLR 1.20`.
fn short_status(status: &MatchStatus) -> String {
    let (elo, margin) = status.penta.elo();
    let mut text = format!(
        "{:.1}%  Elo {}",
        100.0 * status.tally.score(),
        if status.penta.pairs() > 0 {
            elo_text(elo, margin)
        } else {
            status.tally.elo_text()
        }
    );
    if let Some((llr, _)) = status.sprt {
        text += &format!("  LLR {llr:.2}");
    }
    text
}

/// The result block printed at the end.
pub fn summary(
    names: &[String; 2],
    game: &str,
    status: &MatchStatus,
    sprt: Option<Sprt>,
) -> String {
    let (t, p) = (&status.tally, &status.penta);
    let mut text = format!(
        "{} vs {} ({game}), {} games\n",
        names[0], names[1], status.done
    );
    if status.void > 0 {
        text += &format!(
            "  void    {} game{} without result: an engine refused the position (see the games' notes)\n",
            status.void,
            if status.void == 1 { "" } else { "s" }
        );
    }
    text += &result_lines(t, p);
    if let (Some(sprt), Some((llr, verdict))) = (sprt, status.sprt) {
        let (lower, upper) = sprt.bounds();
        text += &format!("  SPRT    {sprt}: LLR {llr:.2} ({lower:.2}, {upper:.2}): {verdict}\n");
    }
    text
}
