use crate::setup::{GameArgs, ThreadsArg, read_limited};
use anyhow::{Context, Result, bail};
use clap::Args;
use plateau_core::{AnyGame, Side};
use plateau_games::{AnyEngine, EngineChoice, GameSpec, describe_score};
use std::io::{BufRead, Write};
use std::path::PathBuf;

/// Play a game in the terminal. Each side is a human (moves typed at the prompt)
/// or an engine: random, seed, or a level (beginner, medium, strong, expert,
/// master). At the prompt: a move, `moves` to list the legal moves, `undo`,
/// `help`, `quit`.
#[derive(Args)]
pub struct PlayArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Who plays White: human, random, seed, or a level (beginner ... master).
    #[arg(long, default_value = "human")]
    white: String,
    /// Who plays Black: human, random, seed, or a level (beginner ... master).
    #[arg(long, default_value = "medium")]
    black: String,
    /// Continue a saved game (the game's save-file format).
    #[arg(long)]
    load: Option<PathBuf>,
    /// Save the position to this file after every move (reload it with --load).
    #[arg(long)]
    save: Option<PathBuf>,
    /// Seed for the engines' randomness (same seed, same game at fixed depth;
    /// with several threads, only at --threads 1).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    threads: ThreadsArg,
}

enum Player {
    Human,
    Engine(Box<dyn AnyEngine>),
}

impl Player {
    fn parse(spec: &GameSpec, text: &str, seed: u64, threads: ThreadsArg) -> Result<Player> {
        if text == "human" {
            return Ok(Player::Human);
        }
        match EngineChoice::parse(text) {
            Ok(choice) => Ok(Player::Engine(
                spec.engine_with(&threads.apply(choice), seed),
            )),
            Err(reason) => bail!("{reason}, or human"),
        }
    }
}

pub fn run(args: PlayArgs) -> Result<()> {
    let spec = args.game.spec()?;
    let (spec, mut game) = match &args.load {
        Some(path) => args
            .game
            .read(spec, &read_limited(path)?, true)
            .with_context(|| format!("bad game file {}", path.display()))?,
        None => (spec, spec.new_game()),
    };
    let mut players = [
        Player::parse(&spec, &args.white, args.seed, args.threads).context("--white")?,
        Player::parse(&spec, &args.black, args.seed.wrapping_add(1), args.threads)
            .context("--black")?,
    ];
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    loop {
        if let Some(path) = &args.save {
            std::fs::write(path, game.to_file())
                .with_context(|| format!("cannot save to {}", path.display()))?;
        }
        println!("\n{}", game.board());
        if let Some(outcome) = game.outcome() {
            println!(
                "\nGame over: {outcome}. Moves: {}",
                game.history().join(" ")
            );
            return Ok(());
        }
        let side = game.side_to_move();
        let mv = match &mut players[side.index()] {
            Player::Engine(engine) => {
                let limits = engine.default_limits();
                let thought = engine
                    .think(game.as_ref(), &limits, &mut |_| {})
                    .map_err(anyhow::Error::msg)?;
                let detail = if thought.depth > 0 {
                    format!(
                        " (depth {}, score {}, {} ms)",
                        thought.depth,
                        describe_score(thought.score),
                        thought.elapsed.as_millis()
                    )
                } else {
                    String::new()
                };
                println!("{side} ({}) plays {}{detail}", engine.name(), thought.best);
                thought.best
            }
            Player::Human => match ask_human(game.as_mut(), side, &mut lines)? {
                Answer::Move(mv) => mv,
                Answer::TookBack => continue,
                Answer::Quit => {
                    println!("\nStopped. Position: {}", game.to_text());
                    return Ok(());
                }
            },
        };
        game.play(&mv).context("a player chose an illegal move")?;
    }
}

/// What the human at the prompt decided.
enum Answer {
    Move(String),
    /// Moves were taken back: show the board again.
    TookBack,
    /// `quit`, or the input ended.
    Quit,
}

/// Prompts until the human gives a legal move, takes moves back, or quits.
fn ask_human(
    game: &mut dyn AnyGame,
    side: Side,
    lines: &mut impl Iterator<Item = std::io::Result<String>>,
) -> Result<Answer> {
    let moves = game.legal_moves();
    print_moves(&moves);
    loop {
        print!("{side}> ");
        std::io::stdout().flush()?;
        let Some(line) = lines.next() else {
            return Ok(Answer::Quit);
        };
        let line = line?;
        let input = line.trim();
        match input {
            "" => continue,
            "quit" | "exit" => return Ok(Answer::Quit),
            "help" | "?" => {
                println!("Type a move in the game's notation, or: moves, undo, quit.");
            }
            "moves" => print_all(&moves),
            "undo" => {
                // Take back to this side's previous turn (against a machine, its
                // reply goes too).
                if game.history().is_empty() {
                    println!("nothing to take back");
                    continue;
                }
                while game.undo().is_some() && game.side_to_move() != side {}
                return Ok(Answer::TookBack);
            }
            text => match game.clone_box().play(text) {
                Ok(_) => return Ok(Answer::Move(text.to_string())),
                Err(err) => println!("illegal: {err}"),
            },
        }
    }
}

fn print_moves(moves: &[String]) {
    if moves.len() <= 40 {
        print_all(moves);
    } else {
        println!(
            "{} legal moves, e.g. {} (type `moves` to list them all)",
            moves.len(),
            moves.iter().take(3).cloned().collect::<Vec<_>>().join(", ")
        );
    }
}

fn print_all(moves: &[String]) {
    println!("legal moves: {}", moves.join(" "));
}
