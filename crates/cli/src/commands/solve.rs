use crate::setup::{GameArgs, PositionArgs, threads_value};
use anyhow::{Result, bail};
use clap::Args;
use plateau_games::{SolveOptions, SolveReport, available_threads, verify_virus_certificate};
use std::path::PathBuf;
use std::time::Duration;

/// Solve a position exactly: its value under perfect play from both sides and
/// a move that keeps it, with progress on standard error.
///
/// Only games small enough have a solver: the virus game on 4x4 to 8x8 boards
/// (`plateau solve virus --size 5`: a second; `--size 6 --hash 2048`: about a
/// quarter of an hour, a draw; larger boards far longer, so give them a
/// `--time-limit`, after which the bounds proven so far are printed).
///
/// A long solve runs in pieces: with `--checkpoint FILE` it resumes from FILE
/// when it exists and saves to it as it goes and when it stops, so the same
/// command run again carries on. `--certificate FILE` writes a proof of the
/// result that `plateau solve --verify FILE` checks without the solver.
#[derive(Args)]
pub struct SolveArgs {
    /// The game: virus (`virus/6x6`, or `--size 6`). Not needed with --verify.
    #[arg(required_unless_present = "verify")]
    game: Option<String>,
    /// The game's variant, when it has several (`plateau games` lists them).
    #[arg(long)]
    variant: Option<String>,
    /// Solve this position text instead of the initial position, e.g.
    /// "x4o/6/6/4xx/oo3x/ooo1xx x".
    #[arg(long, conflicts_with = "file")]
    position: Option<String>,
    /// Solve the position of a saved game file.
    #[arg(long)]
    file: Option<PathBuf>,
    /// Moves to play first, separated by spaces, in the game's notation.
    #[arg(long, allow_hyphen_values = true)]
    moves: Option<String>,
    /// The board side, for games whose variants are board sizes: `--size 5`
    /// is `--variant 5x5`.
    #[arg(long, conflicts_with = "variant")]
    size: Option<u32>,
    /// Stop after this many seconds and print the bounds proven so far.
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
    /// Size of the solver's table in MB.
    #[arg(long, default_value_t = 256, value_name = "MB")]
    hash: usize,
    /// Threads sharing the table, or searching the certificate's leaves with
    /// --verify (default: every core of this machine).
    #[arg(long, value_name = "N", default_value_t = available_threads(), value_parser = threads_value)]
    threads: usize,
    /// Resume from FILE if it exists (it must be a checkpoint of the same
    /// position), save the proven bounds and the table to it every
    /// --checkpoint-every minutes and when the solve ends or stops.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Minutes between two checkpoints of a running solve.
    #[arg(
        long,
        default_value_t = 10.0,
        value_name = "MINUTES",
        requires = "checkpoint"
    )]
    checkpoint_every: f64,
    /// Write a proof certificate of the value (or of the bounds proven when a
    /// limit stops the solve) to FILE.
    #[arg(long, value_name = "FILE")]
    certificate: Option<PathBuf>,
    /// Positions with this many empty cells or fewer are left out of the
    /// certificate, for the checker to search: smaller leaves make a larger
    /// file and a faster check.
    #[arg(
        long,
        default_value_t = 12,
        value_name = "EMPTIES",
        requires = "certificate"
    )]
    certificate_leaf: u32,
    /// Check the proof certificate FILE, independently of the solver, and
    /// print what it proves.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["game", "position", "file", "moves", "size", "certificate", "checkpoint"])]
    verify: Option<PathBuf>,
}

/// Largest table accepted, in MB.
const MAX_HASH_MB: usize = 32_768;

/// Largest certificate read, in bytes.
const MAX_CERTIFICATE_BYTES: u64 = 1 << 32;

pub fn run(args: SolveArgs) -> Result<()> {
    if let Some(path) = &args.verify {
        return verify(path, args.threads);
    }
    let mut position = PositionArgs {
        game: GameArgs {
            game: args.game.clone().unwrap_or_default(),
            variant: args.variant.clone(),
        },
        position: args.position.clone(),
        file: args.file.clone(),
        moves: args.moves.clone(),
    };
    if let Some(size) = args.size {
        if !(2..=30).contains(&size) {
            bail!("--size {size}: give the side of the board, like 5 for 5x5");
        }
        position.game.variant = Some(format!("{size}x{size}"));
    }
    let (spec, game) = position.build()?;
    if !spec.info.has_solver() {
        bail!("{} has no exact solver", spec.info.name);
    }
    if !(1..=MAX_HASH_MB).contains(&args.hash) {
        bail!("--hash {}: give 1 to {MAX_HASH_MB} MB", args.hash);
    }
    let time_limit = match args.time_limit {
        Some(s) if s > 0.0 && s.is_finite() && s < 1e9 => Some(Duration::from_secs_f64(s)),
        Some(s) => bail!("--time-limit {s}: give a positive number of seconds"),
        None => None,
    };
    let every = args.checkpoint_every;
    if !(every > 0.0 && every.is_finite() && every < 1e7) {
        bail!("--checkpoint-every {every}: give a positive number of minutes");
    }
    if args.certificate_leaf > 64 {
        bail!(
            "--certificate-leaf {}: give 0 to 64 empty cells",
            args.certificate_leaf
        );
    }
    let options = SolveOptions {
        table_mb: args.hash,
        time_limit,
        threads: args.threads,
        checkpoint: args.checkpoint.clone(),
        checkpoint_every: Duration::from_secs_f64(every * 60.0),
        certificate: args.certificate.clone(),
        certificate_leaf: args.certificate_leaf,
    };
    eprintln!("{}: {}", spec.full_name(), game.to_text());
    let report = spec
        .solve(Some(&game.to_text()), &options, &mut |line| {
            eprintln!("{line}")
        })
        .map_err(anyhow::Error::msg)?;
    print_report(&report, &options);
    Ok(())
}

/// `--verify FILE`: checks a certificate and prints what it proves.
fn verify(path: &PathBuf, threads: usize) -> Result<()> {
    let size = std::fs::metadata(path)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?
        .len();
    if size > MAX_CERTIFICATE_BYTES {
        bail!(
            "{} is {size} bytes: too large for a certificate",
            path.display()
        );
    }
    let bytes =
        std::fs::read(path).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
    eprintln!("checking {} ({} bytes)", path.display(), bytes.len());
    let checked = verify_virus_certificate(&bytes, threads, &mut |line| eprintln!("{line}"))
        .map_err(|e| anyhow::anyhow!("{}: rejected: {e}", path.display()))?;
    let mover = checked.side_to_move;
    println!("certificate {}", path.display());
    println!("game       {}", checked.game);
    println!("position   {}", checked.position);
    println!("to move    {}", mover.name());
    let claim = if checked.lower == checked.upper {
        format!(
            "value      {:+} for {} (to move): proven",
            checked.lower,
            mover.name()
        )
    } else {
        format!(
            "value      between {:+} and {:+} for {} (to move): proven",
            checked.lower,
            checked.upper,
            mover.name()
        )
    };
    println!("{claim}");
    println!(
        "checked    {} bytes: {} tree positions, {} leaves searched ({} nodes) in {:.2} s",
        bytes.len(),
        checked.tree_nodes,
        checked.leaves,
        checked.leaf_nodes,
        checked.elapsed.as_secs_f64()
    );
    Ok(())
}

fn print_report(report: &SolveReport, options: &SolveOptions) {
    let mover = report.side_to_move;
    let other = mover.opponent();
    let first = plateau_core::Side::Black;
    println!("position   {}", report.position);
    println!("to move    {}", mover.name());
    match report.value() {
        Some(value) => {
            let verdict = match report.for_side(first, value) {
                0 => "a draw".to_string(),
                v if v > 0 => format!("{} wins by {v}", first.name()),
                v => format!("{} wins by {}", first.opponent().name(), -v),
            };
            let both = if mover == first {
                String::new()
            } else {
                format!(", {:+} for {}", report.for_side(other, value), other.name())
            };
            println!(
                "value      {value:+} for {} (to move){both}: {verdict} ({} under perfect play)",
                mover.name(),
                report.measure
            );
        }
        None => println!(
            "value      unknown (limit reached): between {:+} and {:+} for {} (to move), \
             between {:+} and {:+} for {}",
            report.lower,
            report.upper,
            mover.name(),
            -report.upper,
            -report.lower,
            other.name()
        ),
    }
    match &report.best {
        Some(mv) if report.value().is_some() => println!("best move  {mv}"),
        Some(mv) => println!("best move  {mv} (proves the lower bound)"),
        None if report.value().is_some() => {
            println!("best move  none: the game is over")
        }
        None => println!("best move  unknown"),
    }
    if !report.pv.is_empty() {
        println!("line       {}", report.pv.join(" "));
    }
    let seconds = report.elapsed.as_secs_f64();
    println!(
        "nodes      {} in {seconds:.2} s ({:.1} M nodes/s)",
        report.nodes,
        report.nodes as f64 / seconds.max(1e-6) / 1e6
    );
    if report.earlier_nodes > 0 || !report.earlier_elapsed.is_zero() {
        let nodes = report.earlier_nodes + report.nodes;
        let seconds = (report.earlier_elapsed + report.elapsed).as_secs_f64();
        println!("in all     {nodes} nodes in {seconds:.2} s over the resumed runs");
    }
    if let (Some(path), Some((bytes, took))) = (&options.certificate, report.certificate) {
        println!(
            "certificate {} ({bytes} bytes, written in {:.2} s)",
            path.display(),
            took.as_secs_f64()
        );
    }
}
