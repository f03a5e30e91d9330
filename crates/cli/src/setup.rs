//! The options subcommands share: which game, from where, after which moves;
//! how many threads a search uses.

use anyhow::{Context, Result, bail};
use clap::Args;
use plateau_core::{AnyGame, PositionError, play_record};
use plateau_games::{EngineChoice, GameSpec, MAX_THREADS, available_threads, parse_threads};
use std::path::PathBuf;

/// Largest save file we agree to read.
const MAX_FILE_BYTES: u64 = 1 << 20;

#[derive(Args, Clone, Debug)]
pub struct GameArgs {
    /// The game: escampe, draughts, abalone, virus or ataxx (`plateau games`
    /// lists them with their variants). A variant may follow: `virus/5x5`.
    pub game: String,
    /// The game's variant, when it has several (`plateau games` lists them).
    #[arg(long)]
    pub variant: Option<String>,
}

impl GameArgs {
    pub fn spec(&self) -> Result<GameSpec> {
        Ok(GameSpec::lookup(&self.game, self.variant.as_deref())?)
    }

    /// The game in a position text (`file`: a save file) for `spec` (what
    /// [`GameArgs::spec`] found), and the spec of its variant. A text that
    /// fixes the board (a virus position of another size) chooses its variant
    /// when the user named none; a variant named explicitly (`virus/7x7`,
    /// `--variant 7x7`) is kept, and a text of another is refused, naming both.
    pub fn read(
        &self,
        spec: GameSpec,
        text: &str,
        file: bool,
    ) -> Result<(GameSpec, Box<dyn AnyGame>), PositionError> {
        if GameSpec::names_variant(&self.game, self.variant.as_deref()) {
            let game = if file {
                spec.from_file(text)
            } else {
                spec.from_text(text)
            };
            game.map(|game| (spec, game))
        } else if file {
            spec.from_file_any_variant(text)
        } else {
            spec.from_text_any_variant(text)
        }
    }
}

#[derive(Args, Clone, Debug)]
pub struct PositionArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Start from this position text instead of the initial position, e.g.
    /// "n1B2b/2b3/b1nn2/5b/2b3/nnN3 w 2" for Escampe. A text that fixes the
    /// board (a virus position of another size) chooses that variant unless
    /// one is named.
    #[arg(long, conflicts_with = "file")]
    pub position: Option<String>,
    /// Start from a saved game file: the course's board file for Escampe, PDN for
    /// draughts, `start:` + `moves:` for Abalone, the virus game and Ataxx.
    #[arg(long)]
    pub file: Option<PathBuf>,
    /// Moves to play first, separated by spaces, in the game's notation
    /// (e.g. "C6/A6/B5/D5/E6/F5 B2/A1/B1/C2/E2/F2 C2-C5").
    #[arg(long, allow_hyphen_values = true)]
    pub moves: Option<String>,
}

impl PositionArgs {
    /// The game in the position these options describe, and the spec of its
    /// variant (which the position may have chosen: see [`GameArgs::read`]).
    pub fn build(&self) -> Result<(GameSpec, Box<dyn AnyGame>)> {
        let spec = self.game.spec()?;
        let (spec, mut game) = if let Some(text) = &self.position {
            self.game
                .read(spec, text, false)
                .with_context(|| format!("bad --position {text:?}"))?
        } else if let Some(path) = &self.file {
            let text = read_limited(path)?;
            self.game
                .read(spec, &text, true)
                .with_context(|| format!("bad game file {}", path.display()))?
        } else {
            (spec, spec.new_game())
        };
        if let Some(moves) = &self.moves
            && let Err(reason) = play_record(game.as_mut(), moves)
        {
            bail!("--moves: {reason}");
        }
        Ok((spec, game))
    }
}

/// Reads a user-named file, refusing anything too large to be a game.
pub fn read_limited(path: &PathBuf) -> Result<String> {
    let size = std::fs::metadata(path)
        .with_context(|| format!("cannot read {}", path.display()))?
        .len();
    if size > MAX_FILE_BYTES {
        bail!(
            "{} is {size} bytes: too large for a game file",
            path.display()
        );
    }
    std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))
}

/// `--threads N`, for the commands that search one position at a time with
/// the whole machine: analyze, play and the protocol front-ends.
#[derive(Args, Clone, Copy, Debug)]
pub struct ThreadsArg {
    /// Threads per search (default: every core of this machine); fixed-depth
    /// results are reproducible only with 1. A `threads=` written in the
    /// engine (`master,threads=2`) wins over this.
    #[arg(long, value_name = "N", default_value_t = available_threads(), value_parser = threads_value)]
    pub threads: usize,
}

impl ThreadsArg {
    /// `choice` searching with these threads, unless it names its own.
    pub fn apply(&self, choice: EngineChoice) -> EngineChoice {
        choice.or_threads(self.threads)
    }
}

/// Reads `--threads`: 1 to [`MAX_THREADS`] (clap names the flag in its error).
pub fn threads_value(text: &str) -> Result<usize, String> {
    parse_threads(text).map_err(|_| format!("give a number of threads from 1 to {MAX_THREADS}"))
}

/// `--move-limit MOVES` (moves each) as the plies a game may last under the
/// site's rule, checked against `spec` and the run's ply cap (`None`: no cap).
pub fn move_limit_plies(
    spec: &GameSpec,
    moves: Option<u32>,
    max_plies: Option<u32>,
) -> Result<Option<u32>> {
    let Some(moves) = moves else {
        return Ok(None);
    };
    if !spec.has_move_limit() {
        bail!(
            "--move-limit: {} has no move limit (its own rules end every game)",
            spec.full_name()
        );
    }
    if moves == 0 {
        bail!("--move-limit must be at least 1 move each");
    }
    let plies = u64::from(moves) * 2;
    match max_plies {
        Some(cap) if plies > u64::from(cap) => {
            bail!("--move-limit {moves} moves each is {plies} plies, past --max-plies {cap}")
        }
        _ => u32::try_from(plies)
            .map(Some)
            .with_context(|| format!("--move-limit {moves} is too many moves")),
    }
}
