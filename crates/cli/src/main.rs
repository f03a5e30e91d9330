//! The `plateau` binary: wires subcommands to the library crates, nothing clever.

mod commands;
mod progress;
mod setup;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// plateau — exact rules, a strong AI and play for abstract board games.
///
/// Games: escampe, draughts, abalone, virus, ataxx (`plateau games` lists their
/// variants and position texts). Positions are given with --position
/// (the game's one-line text), --file (a saved game) and --moves (moves played
/// from there, in the game's notation).
#[derive(Parser)]
#[command(name = "plateau", version, about, long_about, max_term_width = 100)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Where the draughts endgame databases are (default: $PLATEAU_EGTB_DIR,
    /// else the user's data directory, ~/.local/share/plateau/egtb/draughts).
    /// Draughts engines use them whenever that directory holds a set.
    #[arg(long, global = true, value_name = "DIR")]
    egtb_dir: Option<std::path::PathBuf>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the game server (web page and JSON API) for every game.
    Serve(commands::serve::ServeArgs),
    /// Copy every room of one server database into another (SQLite to PostgreSQL).
    CopyRooms(commands::serve::CopyRoomsArgs),
    /// List the games, their variants and an example position text.
    Games,
    /// Count the leaves of the move tree (checks the rules against reference counts).
    Perft(commands::perft::PerftArgs),
    /// Show a position: the board for people, then the position text as the last line.
    Show(commands::show::ShowArgs),
    /// Play in the terminal: a human or an engine on each side.
    Play(commands::play::PlayArgs),
    /// Search a position: one info line per depth, then `bestmove <move>`.
    Analyze(commands::analyze::AnalyzeArgs),
    /// Match two engines over colour-swapped pairs of games.
    Match(commands::matches::MatchArgs),
    /// Tune a game's evaluation weights (the seed's evolutionary algorithm, or
    /// SPSA), or its search parameters at a time control (SPSA).
    Tune(commands::tune::TuneArgs),
    /// Write training positions from self-play (for learned evaluations).
    Datagen(commands::datagen::DatagenArgs),
    /// Inspect, merge and shuffle training-data files.
    Data(commands::datagen::DataArgs),
    /// Train a network evaluation on self-play data.
    Train(commands::train::TrainArgs),
    /// Solve a small position exactly: its value under perfect play and a best move.
    ///
    /// Prints the value from both sides, a move that keeps it and a line of
    /// best play; progress goes to standard error. Only games small enough have
    /// a solver: the virus game on 4x4 to 8x8 boards (`plateau solve virus
    /// --size 5` takes a fraction of a second; 6x6, a draw, about a quarter
    /// of an hour with `--hash 2048`; larger boards take far longer, so give
    /// them a `--time-limit` and a `--checkpoint` to resume from).
    Solve(commands::solve::SolveArgs),
    /// Build or describe an opening book (draughts ships one).
    Book(commands::book::BookArgs),
    /// Generate (or check) the draughts endgame databases.
    ///
    /// Win, draw or loss for every position of up to --pieces pieces, by
    /// retrograde analysis on every core, into --egtb-dir (default: the user's
    /// data directory), where every draughts engine then finds them.
    Egtb(commands::egtb::EgtbArgs),
    /// Search fixed positions: total nodes (a signature of the search) and nodes/s.
    Bench(commands::bench::BenchArgs),
    /// Play in an Escampe tournament as a client of the course's arbiter.
    EscampeClient(commands::escampe_client::EscampeClientArgs),
    /// Run an Escampe tournament arbiter for two clients.
    EscampeArbiter(commands::escampe_arbiter::EscampeArbiterArgs),
    /// Play draughts as a Hub engine on stdin/stdout (for Hub GUIs and match tools).
    Hub(commands::hub::HubArgs),
    /// Play draughts against another program over DamExchange (DXP, TCP).
    Dxp(commands::dxp::DxpArgs),
    /// Be an Ataxx / virus engine for GUIs: the Universal Ataxx Interface on stdin/stdout.
    ///
    /// For Ataxx GUIs and match runners (cutechess-style tools with a UAI mode).
    /// Commands: uai, isready, uainewgame, setoption name <Hash|Threads|Variant|Level>
    /// value <v>, position startpos|fen <fen> [moves ...], go [btime/wtime/binc/winc
    /// ms, movestogo n | movetime ms | depth n | nodes n | infinite], stop, quit.
    /// `setoption name Variant value virus5x5` switches to the virus game (any size
    /// from virus4x4 to virus9x9; `virus` is 7x7); the default is ataxx. Lines that
    /// cannot be obeyed get `info string error: ...` and change nothing.
    Uai(commands::uai::UaiArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(dir) = &cli.egtb_dir
        && !matches!(cli.command, Command::Egtb(_))
        && let Err(err) = plateau_games::use_egtb_dir(dir)
    {
        eprintln!("error: --egtb-dir {}: {err}", dir.display());
        return ExitCode::FAILURE;
    }
    let result = match cli.command {
        Command::Egtb(args) => commands::egtb::run(args, cli.egtb_dir),
        Command::Book(args) => commands::book::run(args),
        Command::Serve(args) => commands::serve::run_serve(args),
        Command::CopyRooms(args) => commands::serve::run_copy_rooms(args),
        Command::Games => commands::games::run(),
        Command::Perft(args) => commands::perft::run(args),
        Command::Show(args) => commands::show::run(args),
        Command::Play(args) => commands::play::run(args),
        Command::Analyze(args) => commands::analyze::run(args),
        Command::Match(args) => commands::matches::run(args),
        Command::Tune(args) => commands::tune::run(args),
        Command::Bench(args) => commands::bench::run(args),
        Command::EscampeClient(args) => commands::escampe_client::run(args),
        Command::EscampeArbiter(args) => commands::escampe_arbiter::run(args),
        Command::Hub(args) => commands::hub::run(args),
        Command::Dxp(args) => commands::dxp::run(args),
        Command::Datagen(args) => commands::datagen::run(args),
        Command::Data(args) => commands::datagen::run_data(args),
        Command::Train(args) => commands::train::run(args),
        Command::Solve(args) => commands::solve::run(args),
        Command::Uai(args) => commands::uai::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}
