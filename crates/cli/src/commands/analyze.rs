use crate::setup::{PositionArgs, ThreadsArg};
use anyhow::{Result, bail};
use clap::Args;
use plateau_core::{AnyGame, Outcome};
use plateau_games::{AnyEngine, Limits, describe_score};
use std::time::Duration;

/// Search a position and print one info line per completed depth, then
/// `bestmove <move>` as the last line; or, with `--annotate`, go through a
/// whole game and say what each move cost.
#[derive(Args)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Search this many plies deep.
    #[arg(long, conflicts_with_all = ["movetime", "nodes"])]
    depth: Option<u32>,
    /// Search for this many milliseconds.
    #[arg(long)]
    movetime: Option<u64>,
    /// Search this many nodes.
    #[arg(long)]
    nodes: Option<u64>,
    /// The engine: a level (beginner, medium, strong, expert, master), seed or
    /// random; options may follow: `master,hash=256`.
    #[arg(long, default_value = "master")]
    engine: String,
    #[command(flatten)]
    threads: ThreadsArg,
    /// Seed for the engine's randomness.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Go through the game of --file (or --moves) move by move instead of
    /// searching its last position: before each move, the engine's choice and
    /// score; after it, the score of the move played and what it cost the
    /// side that played it (both from that side's view, in the game's units:
    /// a man, a stone, a marble is 100). Ends with the costliest moves: where
    /// a lost game went wrong. Each position gets the search limit given.
    #[arg(long)]
    annotate: bool,
}

/// Scores past this size (forced and table results) count as this much in a
/// move's cost, so that throwing away a win reads as a large cost, not as a
/// million.
const DECISIVE_COST: i32 = 10_000;

/// The costliest moves listed at the end of an annotation.
const WORST_SHOWN: usize = 5;

pub fn run(args: AnalyzeArgs) -> Result<()> {
    // The position first: it may choose the variant the engine is for.
    let (spec, game) = args.position.build()?;
    let engine_text = spec
        .parse_engine(&args.engine)
        .map_err(anyhow::Error::msg)?
        .or_threads(args.threads.threads);
    if args.annotate && game.history().is_empty() {
        bail!("--annotate needs a game: give its moves with --file or --moves");
    }
    if !args.annotate
        && let Some(outcome) = game.outcome()
    {
        bail!("nothing to analyze: the game is over ({outcome})");
    }
    let mut engine = spec
        .build_engine(&engine_text, args.seed)
        .map_err(anyhow::Error::msg)?;
    let limits = if args.depth.is_some() || args.movetime.is_some() || args.nodes.is_some() {
        Limits {
            depth: args.depth,
            nodes: args.nodes,
            movetime: args.movetime.map(Duration::from_millis),
            clock: None,
        }
    } else {
        engine.default_limits()
    };
    if args.annotate {
        return annotate(game, engine.as_mut(), &limits);
    }
    // Analysis searches, even where an opening book has a move.
    let thought = engine
        .think_excluding(game.as_ref(), &limits, &[], &mut |info| {
            println!("{}", info.to_line())
        })
        .map_err(anyhow::Error::msg)?;
    println!("bestmove {}", thought.best);
    Ok(())
}

/// One move of an annotated game.
struct Annotated {
    ply: usize,
    played: String,
    side: String,
    best: String,
    /// The engine's score before the move, for the side to move.
    best_score: i32,
    /// The score after the move played, for the side that played it, in
    /// words: `-35`, `win in 3`, `won` when the move ends the game.
    played_text: String,
    cost: i32,
}

/// What a finished game is worth to the side that made its last move, and
/// in words.
fn final_score(outcome: Outcome, mover: plateau_core::Side) -> (i32, String) {
    match outcome.winner {
        None => (0, "drawn".into()),
        Some(winner) if winner == mover => (DECISIVE_COST, "won".into()),
        Some(_) => (-DECISIVE_COST, "lost".into()),
    }
}

fn clamp_decisive(score: i32) -> i32 {
    score.clamp(-DECISIVE_COST, DECISIVE_COST)
}

/// Searches every position of `game` from its start, one move after the
/// other, and prints a line per move as it goes, then the costliest moves.
fn annotate(mut game: Box<dyn AnyGame>, engine: &mut dyn AnyEngine, limits: &Limits) -> Result<()> {
    let moves = game.history().to_vec();
    while game.undo().is_some() {}
    println!(
        "{:>4}  {:<6} {:<12} {:<12} {:>12} {:>12} {:>6}",
        "ply", "side", "played", "best", "best score", "played score", "cost"
    );
    let search = |engine: &mut dyn AnyEngine, game: &dyn AnyGame| {
        engine
            .think_excluding(game, limits, &[], &mut |_| {})
            .map_err(anyhow::Error::msg)
    };
    let mut annotated = Vec::with_capacity(moves.len());
    let mut before = if game.outcome().is_none() {
        Some(search(engine, game.as_ref())?)
    } else {
        None
    };
    for (index, played) in moves.iter().enumerate() {
        let Some(thought) = before.take() else {
            bail!(
                "the game is over after ply {index} ({}), yet it goes on with {played}",
                game.outcome().map_or_else(String::new, |o| o.to_string())
            );
        };
        let mover = game.side_to_move();
        let side = mover.to_string();
        game.play(played)
            .map_err(|e| anyhow::anyhow!("ply {}: {played}: {e}", index + 1))?;
        let (played_score, played_text) = match game.outcome() {
            Some(outcome) => final_score(outcome, mover),
            None => {
                let reply = search(engine, game.as_ref())?;
                let score = -reply.score;
                before = Some(reply);
                (score, describe_score(score))
            }
        };
        // The engine's own move costs nothing: a different score after it is
        // the noise of two searches, not a mistake.
        let cost = if thought.best == *played {
            0
        } else {
            (clamp_decisive(thought.score) - clamp_decisive(played_score)).max(0)
        };
        let line = Annotated {
            ply: index + 1,
            played: played.clone(),
            side,
            best: thought.best,
            best_score: thought.score,
            played_text,
            cost,
        };
        println!(
            "{:>4}  {:<6} {:<12} {:<12} {:>12} {:>12} {:>6}",
            line.ply,
            line.side,
            line.played,
            line.best,
            describe_score(line.best_score),
            line.played_text,
            line.cost
        );
        annotated.push(line);
    }
    if let Some(outcome) = game.outcome() {
        println!("result: {outcome}");
    }
    let mut worst: Vec<&Annotated> = annotated.iter().filter(|a| a.cost > 0).collect();
    worst.sort_by_key(|a| std::cmp::Reverse(a.cost));
    if worst.is_empty() {
        println!("costliest moves: none (every move kept the engine's score)");
    } else {
        println!("costliest moves:");
        for a in worst.iter().take(WORST_SHOWN) {
            println!(
                "  ply {} ({}): {} cost {} (best {}: {} against {})",
                a.ply,
                a.side,
                a.played,
                a.cost,
                a.best,
                describe_score(a.best_score),
                a.played_text
            );
        }
    }
    Ok(())
}
