use crate::progress::{Progress, clock};
use crate::setup::GameArgs;
use anyhow::{Context, Result, bail};
use clap::Args;
use plateau_games::{Book, BookConfig, Limits, draughts_book, parse_threads};
use std::path::PathBuf;
use std::time::{Duration, Instant};

const BOOK_HELP: &str = "Without --build, describes a book: the one plateau ships (draughts), or
--file. With --build, makes one: from the start position, each position of
the opening tree is searched for its best move, then for the next best with
the first excluded, and so on while the score stays within --margin of the
best (at most --width moves). Each kept move's position is searched in turn,
breadth first, until --plies plies from the start. The book is a text file:
one position per line, its moves and their scores.

The draughts engines (master and every level; the Hub and DXP engines and the
server's AI with them) play a book move at once where the book has the
position: the best one, or with `book-variety=N` in the engine's options any
within N of it. `book=off` leaves the book out.

The book plateau ships was built with the command in its first lines, and
replaced in crates/games/books/draughts.book.

Examples:
  plateau book draughts
  plateau book draughts --build --plies 10 --nodes 3000000 --out draughts.book";

/// Build or describe an opening book.
#[derive(Args)]
#[command(after_long_help = BOOK_HELP)]
pub struct BookArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Build a book (else describe one).
    #[arg(long)]
    build: bool,
    /// The book to describe (default: the one plateau ships).
    #[arg(long, conflicts_with = "build")]
    file: Option<PathBuf>,
    /// Where the built book goes.
    #[arg(long, default_value = "book.txt", requires = "build")]
    out: PathBuf,
    /// Positions this many plies from the start are not searched.
    #[arg(long, default_value_t = 10)]
    plies: u32,
    /// The most moves kept per position.
    #[arg(long, default_value_t = 3)]
    width: usize,
    /// Moves scoring more than this below the best are not kept.
    #[arg(long, default_value_t = 10)]
    margin: i32,
    /// Nodes per search (the default), or use --movetime or --depth.
    #[arg(long, default_value_t = 3_000_000, conflicts_with_all = ["movetime", "depth"])]
    nodes: u64,
    /// Milliseconds per search.
    #[arg(long)]
    movetime: Option<u64>,
    /// Plies per search.
    #[arg(long)]
    depth: Option<u32>,
    /// The engine that searches.
    #[arg(long, default_value = "master")]
    engine: String,
    /// Threads per search.
    #[arg(long, value_parser = parse_threads, default_value_t = 1)]
    threads: usize,
}

pub fn run(args: BookArgs) -> Result<()> {
    let spec = args.game.spec()?;
    if !args.build {
        return describe(spec.info.name, args.file);
    }
    if args.plies == 0 || args.plies > 40 {
        bail!("--plies {}: give 1 to 40", args.plies);
    }
    if args.width == 0 || args.width > 10 {
        bail!("--width {}: give 1 to 10", args.width);
    }
    if args.margin < 0 {
        bail!("--margin {}: give a score of 0 or more", args.margin);
    }
    let limits = match (args.movetime, args.depth) {
        (Some(ms), _) => Limits::movetime(Duration::from_millis(ms)),
        (None, Some(depth)) => Limits::depth(depth),
        (None, None) => Limits {
            nodes: Some(args.nodes),
            ..Limits::default()
        },
    };
    let engine_text = spec
        .parse_engine(&args.engine)
        .map_err(anyhow::Error::msg)?
        .or_threads(args.threads);
    let mut engine = spec
        .build_engine(&engine_text, 1)
        .map_err(anyhow::Error::msg)?;
    let config = BookConfig {
        plies: args.plies,
        width: args.width,
        margin: args.margin,
        limits,
    };
    let started = Instant::now();
    let mut progress = Progress::new("book", 1);
    let start = spec.new_game();
    let mut book = Book::build(engine.as_mut(), start.as_ref(), &config, &mut |p| {
        progress.restart_if(&format!("book, ply {}", p.ply), p.searched + p.waiting);
        progress.update(p.searched, format!("{} waiting", p.waiting));
    })
    .map_err(anyhow::Error::msg)?;
    progress.finish();
    let limit = match (args.movetime, args.depth) {
        (Some(ms), _) => format!("--movetime {ms}"),
        (None, Some(depth)) => format!("--depth {depth}"),
        (None, None) => format!("--nodes {}", args.nodes),
    };
    book.notes = vec![
        format!("plateau opening book: {}", spec.full_name()),
        format!(
            "built by: plateau book {} --build --plies {} --width {} --margin {} {limit} --engine {} --threads {}",
            spec.full_name(),
            args.plies,
            args.width,
            args.margin,
            args.engine,
            args.threads
        ),
        format!(
            "{} positions; each line: position, then moves with their scores (side to move), best first",
            book.len()
        ),
    ];
    std::fs::write(&args.out, book.write())
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    eprintln!(
        "{} positions in {} written to {}",
        book.len(),
        clock(started.elapsed().as_secs_f64()),
        args.out.display()
    );
    Ok(())
}

fn describe(game: &str, file: Option<PathBuf>) -> Result<()> {
    let book = match &file {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            Book::parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?
        }
        None if game == "draughts" => (*draughts_book()).clone(),
        None => bail!("plateau ships no {game} book: give --file, or --build one"),
    };
    for note in &book.notes {
        println!("# {note}");
    }
    println!("{} positions", book.len());
    let start = plateau_games::GameSpec::lookup(game, None)?.new_game();
    if let Some(moves) = book.moves(&start.to_text()) {
        let list: Vec<String> = moves.iter().map(|(m, s)| format!("{m} ({s:+})")).collect();
        println!("from the start: {}", list.join(", "));
    }
    Ok(())
}
