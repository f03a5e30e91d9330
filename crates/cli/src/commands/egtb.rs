use crate::progress::{Progress, clock};
use anyhow::{Context, Result, bail};
use clap::Args;
use plateau_egtb::{Material, SliceReport, check_all, generate_all};
use plateau_games::{available_threads, default_egtb_dir, parse_threads};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

const EGTB_HELP: &str = "For every position of up to --pieces pieces (men and kings, either side
to move), whether the side to move wins, draws or loses with perfect play,
under the FMJD rules as plateau plays them. Like every draughts database, the
values ignore the rules that count moves (25 king moves, the 16- and 5-move
endgame limits); the engine applies those itself.

One file per material (`2m1k-1m0k.wdl`: the side to move has 2 men and a king,
the other side a man), LZ4-compressed in blocks and checksummed. A position
with Black to move is read turned half a turn with the colours swapped, so
each file serves both colours. Files already there are checked and kept, so
an interrupted run resumes where it stopped.

Once generated, every engine finds them (master, the Hub and DXP engines, the
server's AI): in the search's tree a database position is scored as proven,
and at the root only the moves that keep a won or drawn position so are
searched. `egtb=off` in an engine's options leaves them out.

Sizes and times on a 2-core machine are in docs/engine.md.

Examples:
  plateau egtb draughts --pieces 4
  plateau egtb draughts --pieces 5 --egtb-dir /data/egtb --threads 16
  plateau egtb draughts --check";

/// Generate or check the draughts endgame databases.
#[derive(Args)]
#[command(after_long_help = EGTB_HELP)]
pub struct EgtbArgs {
    /// The game: draughts (the only one with databases).
    game: String,
    /// The most pieces on the board (2 to 6; 5 takes a quarter of an hour on 2
    /// cores and 170 MB; 6 would take hours and about 22 GB of memory).
    #[arg(long, default_value_t = 4)]
    pieces: u32,
    /// Check the databases already there instead of generating: every file
    /// read and every position's value compared with its moves'.
    #[arg(long)]
    check: bool,
    /// Threads (default: one per core).
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
}

/// The directory: `--egtb-dir`, else the default one.
pub fn egtb_dir(explicit: Option<PathBuf>) -> Result<PathBuf> {
    explicit.or_else(default_egtb_dir).context(
        "no directory for the databases: give --egtb-dir DIR (or set PLATEAU_EGTB_DIR or HOME)",
    )
}

pub fn run(args: EgtbArgs, dir: Option<PathBuf>) -> Result<()> {
    if args.game != "draughts" {
        bail!(
            "{}: only draughts has endgame databases (plateau egtb draughts)",
            args.game
        );
    }
    if !(2..=6).contains(&args.pieces) {
        bail!("--pieces {}: give 2 to 6", args.pieces);
    }
    let dir = egtb_dir(dir)?;
    let threads = args.threads.unwrap_or_else(available_threads);
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
        .context("cannot start the worker threads")?;
    if args.check {
        return check(&dir, args.pieces);
    }
    let materials = Material::all(args.pieces);
    eprintln!(
        "draughts endgame databases up to {} pieces: {} materials into {} ({threads} threads)",
        args.pieces,
        materials.len(),
        dir.display()
    );
    let started = Instant::now();
    let progress = Mutex::new(Progress::new("egtb", 1));
    let result = generate_all(
        &dir,
        args.pieces,
        &|p| {
            let mut bar = progress.lock().unwrap_or_else(|e| e.into_inner());
            let stage = if p.pass == 0 {
                format!("{} forward", p.material)
            } else {
                format!("{} back {}", p.material, p.pass)
            };
            bar.restart_if(&stage, p.total as usize);
            bar.update(p.done as usize, String::new());
        },
        &mut |report| {
            let mut bar = progress.lock().unwrap_or_else(|e| e.into_inner());
            bar.println(&report_line(report));
        },
    );
    progress.lock().unwrap_or_else(|e| e.into_inner()).finish();
    let reports = result.context("generation stopped")?;
    println!("{}", summary(&reports));
    eprintln!("done in {}", clock(started.elapsed().as_secs_f64()));
    Ok(())
}

/// `2m1k-1m0k     1 234 567 positions  45.1% won  50.2% drawn  4.7% lost  123.4 KB  1.2 s`
fn report_line(r: &SliceReport) -> String {
    let positions = r.wins + r.draws + r.losses;
    let share = |n: u64| 100.0 * n as f64 / positions.max(1) as f64;
    format!(
        "{:<11} {:>13} positions  {:>5.1}% won  {:>5.1}% drawn  {:>5.1}% lost  {:>10}  {}",
        r.material.name(),
        positions,
        share(r.wins),
        share(r.draws),
        share(r.losses),
        size(r.bytes),
        if r.reused {
            "kept".to_string()
        } else {
            format!("{:.1} s", r.time.as_secs_f64())
        }
    )
}

/// Totals per number of pieces.
fn summary(reports: &[SliceReport]) -> String {
    let mut text = String::from("pieces  materials      positions        size    time\n");
    for pieces in 2..=6 {
        let of: Vec<&SliceReport> = reports
            .iter()
            .filter(|r| r.material.pieces() == pieces)
            .collect();
        if of.is_empty() {
            continue;
        }
        let positions: u64 = of.iter().map(|r| r.wins + r.draws + r.losses).sum();
        let bytes: u64 = of.iter().map(|r| r.bytes).sum();
        let time: f64 = of.iter().map(|r| r.time.as_secs_f64()).sum();
        text += &format!(
            "{pieces:>6}  {:>9}  {positions:>13}  {:>10}  {}\n",
            of.len(),
            size(bytes),
            clock(time)
        );
    }
    text
}

fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 30 => format!("{:.2} GB", b as f64 / (1u64 << 30) as f64),
        b if b >= 1 << 20 => format!("{:.1} MB", b as f64 / (1u64 << 20) as f64),
        b => format!("{:.1} KB", b as f64 / 1024.0),
    }
}

fn check(dir: &std::path::Path, pieces: u32) -> Result<()> {
    eprintln!(
        "checking the draughts databases up to {pieces} pieces in {}",
        dir.display()
    );
    let progress = Mutex::new(Progress::new("check", 1));
    let mut failed = Vec::new();
    let good = check_all(
        dir,
        pieces,
        &|material, done, total| {
            let mut bar = progress.lock().unwrap_or_else(|e| e.into_inner());
            bar.restart_if(&material.name(), total as usize);
            bar.update(done as usize, String::new());
        },
        &mut |material, result| {
            let mut bar = progress.lock().unwrap_or_else(|e| e.into_inner());
            match result {
                Ok(count) => bar.println(&format!(
                    "{:<11} {count:>13} positions: good",
                    material.name()
                )),
                Err(mismatches) => {
                    for m in mismatches {
                        bar.println(&format!(
                            "{:<11} {}: stored {}, its moves give {}",
                            material.name(),
                            m.position,
                            m.stored,
                            m.derived
                        ));
                    }
                    failed.push(material);
                }
            }
        },
    )
    .with_context(|| format!("cannot check {}", dir.display()))?;
    progress.lock().unwrap_or_else(|e| e.into_inner()).finish();
    if !good {
        bail!(
            "{} of the databases disagree with their positions' moves: {}; delete those files and generate them again",
            failed.len(),
            failed
                .iter()
                .map(|m| m.name())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    println!("every database up to {pieces} pieces is good");
    Ok(())
}
