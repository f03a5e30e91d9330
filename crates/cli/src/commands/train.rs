use crate::progress::clock;
use crate::setup::GameArgs;
use anyhow::{Context, Result, bail};
use clap::Args;
use plateau_core::Rng;
use plateau_core::net::{Activation, InputSet, Network};
use plateau_games::{Encoding, available_threads, parse_threads};
use plateau_learn::train::{Encoded, FloatNet, HoldOut, TrainConfig, train};
use plateau_learn::{DataReader, Layout};
use std::path::{Path, PathBuf};
use std::time::Instant;

const TRAIN_HELP: &str =
    "Reads the positions of data files written by `plateau datagen` (of one game),
turns them into the game's network inputs, and trains a network with one
hidden layer on every core: Adam, a cosine learning-rate schedule, a
validation set held back (its loss is printed after each epoch). The target
blends the search score (through a sigmoid whose scale is fitted to the
results unless --scale is given) with the game's result (--lambda: the score's
share). The network is written quantised, ready for `--engine master,net=FILE`.
docs/learning.md has the details and the recipes of the shipped networks.

Where the board has symmetries that keep the rules (the eight turns and
reflections of Ataxx and virus boards; for Abalone, the one turn or
reflection of the hexagon that keeps the layout's start with its colours),
each position is also trained on in its images (--symmetries: how many, 1 for
none); the validation set holds whole positions with all their images.

A new generation need not keep the old data: --init NET starts from a
trained network's weights and scale (its inputs, size and activation too),
so that the new data refines what it knows; a lower --lr suits.

Example:
  plateau train ataxx --data ataxx-1.data --data ataxx-2.data --out ataxx.net
  plateau train ataxx --data ataxx-1.data --inputs blocks --activation screlu \
      --hidden 256 --symmetries 8 --out ataxx-blocks.net
  plateau train ataxx --data ataxx-3.data --init ataxx-blocks.net --lr 0.0003 \
      --out ataxx-blocks-2.net";

/// Train a network evaluation on self-play data.
#[derive(Args)]
#[command(after_long_help = TRAIN_HELP)]
pub struct TrainArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Data files (give --data several times).
    #[arg(long = "data", required = true)]
    data: Vec<PathBuf>,
    /// The network file to write.
    #[arg(long)]
    out: PathBuf,
    /// Hidden neurons per side [default: 128, or --init's].
    #[arg(long)]
    hidden: Option<usize>,
    /// The game's input set (default: its first, or --init's; `plateau train
    /// GAME --inputs help` lists them).
    #[arg(long)]
    inputs: Option<String>,
    /// The hidden layer's activation: crelu (clipped ReLU) or screlu
    /// (squared clipped ReLU) [default: crelu, or --init's].
    #[arg(long)]
    activation: Option<String>,
    /// Start from this network's weights (and scale) instead of random ones:
    /// a new generation's data refines what it learnt from the old, which
    /// need not be kept. Its game, inputs, size and activation are taken.
    #[arg(long, value_name = "NET")]
    init: Option<PathBuf>,
    /// Images of each position to train on, among the board's symmetries
    /// (default: all the game has; 1: the position alone). Memory and time
    /// per epoch grow with it.
    #[arg(long)]
    symmetries: Option<usize>,
    #[arg(long, default_value_t = 20)]
    epochs: usize,
    /// Positions per optimiser step.
    #[arg(long, default_value_t = 16_384)]
    batch: usize,
    /// Adam's learning rate at the start (the schedule lowers it to 5%).
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// The search score's share of the target, from 0 (results only) to 1.
    #[arg(long, default_value_t = 0.5)]
    lambda: f32,
    /// Share of the positions held back for validation.
    #[arg(long, default_value_t = 0.05)]
    validation: f32,
    /// What the validation set holds back: `positions` drawn from every
    /// game (the default, which the shipped networks' recipes were made
    /// with), or whole `games`, whose positions the network never saw: the
    /// honest figure to compare networks of different sizes or inputs by,
    /// since a larger network remembers the games it saw. `games` needs
    /// files of `plateau datagen` (a merged file no longer says where its
    /// games start).
    #[arg(long, default_value = "positions", value_parser = parse_hold_out)]
    hold_out: HoldOut,
    /// Evaluation units per unit of the network's output (default: fitted).
    #[arg(long)]
    scale: Option<f32>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A note put in front of the recipe stored in the network (say, the
    /// datagen commands that made the data).
    #[arg(long)]
    note: Option<String>,
    /// Threads (default: every core). The result depends on the number of
    /// threads (sums in another order), not on the machine.
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
}

fn parse_hold_out(text: &str) -> Result<HoldOut, String> {
    HoldOut::from_name(text)
        .ok_or_else(|| format!("{text:?}: hold out `positions` or whole `games`"))
}

pub fn run(args: TrainArgs) -> Result<()> {
    let spec = args.game.spec()?;
    let game = spec.full_name();
    let support = spec
        .info
        .net
        .as_ref()
        .with_context(|| format!("{game} has no network inputs yet"))?;
    if !(0.0..=1.0).contains(&args.lambda) {
        bail!("--lambda must be between 0 and 1, not {}", args.lambda);
    }
    if !(0.0..0.5).contains(&args.validation) {
        bail!(
            "--validation must be at least 0 and below 0.5, not {}",
            args.validation
        );
    }
    if !(args.lr.is_finite() && args.lr > 0.0 && args.lr < 1.0) {
        bail!("--lr must be a small positive number, not {}", args.lr);
    }
    if args.scale.is_some_and(|s| !(s.is_finite() && s > 0.0)) {
        bail!("--scale must be a positive number");
    }
    // The starting network, the input set it reads, and its path.
    let init = match &args.init {
        Some(path) => {
            let (net, set) = read_start(path, &game, support.sets)?;
            Some((net, set, path))
        }
        None => None,
    };
    let names: Vec<&str> = support.sets.iter().map(|set| set.name).collect();
    let set = match &args.inputs {
        None => init.as_ref().map_or(0, |&(_, set, _)| set),
        Some(name) => support
            .sets
            .iter()
            .position(|set| set.name == name)
            .with_context(|| {
                format!(
                    "{game} has no input set {name:?}; its sets are {}",
                    names.join(", ")
                )
            })?,
    };
    let inputs = support.sets[set].inputs;
    let activation = match (&args.activation, &init) {
        (Some(name), _) => Activation::from_name(name).with_context(|| {
            format!("--activation {name:?}: the activations are crelu and screlu")
        })?,
        (None, Some((net, _, _))) => net.activation,
        (None, None) => Activation::Clipped,
    };
    let hidden = args
        .hidden
        .or(init.as_ref().map(|(net, _, _)| net.hidden))
        .unwrap_or(128);
    if let Some((net, net_set, path)) = &init {
        if (*net_set, net.hidden, net.activation) != (set, hidden, activation) {
            bail!(
                "--init {}: that network is {} {}x{} {}; it cannot start a {} {inputs}x{hidden} {} one",
                path.display(),
                names[*net_set],
                net.inputs,
                net.hidden,
                net.activation.name(),
                names[set],
                activation.name()
            );
        }
        if args.scale.is_some() {
            bail!(
                "--scale: a network trained from --init keeps its scale ({})",
                net.scale
            );
        }
    }
    let images = args.symmetries.unwrap_or(support.symmetries);
    if !(1..=support.symmetries).contains(&images) {
        bail!(
            "--symmetries {images}: {game} has {} (1 trains on the positions alone)",
            support.symmetries
        );
    }
    let started = Instant::now();
    // Where the symmetries only rename inputs, each position is stored once
    // and its images are read through the maps (eight times less memory).
    let maps = match support.input_maps {
        Some(maps) if images > 1 => maps(&spec, set),
        _ => None,
    };
    let mapped = maps.is_some();
    let mut encoded = match maps {
        Some(maps) => Encoded::with_maps(maps, images)
            .map_err(|err| anyhow::anyhow!("{game}'s input maps: {err}"))?,
        None => Encoded::with_images(images),
    };
    let (mut us, mut them) = (Vec::new(), Vec::new());
    let (mut image_us, mut image_them) = (Vec::new(), Vec::new());
    let mut checked = 0;
    let mut rng = Rng::new(args.seed ^ 0x5359_4d4d);
    for path in &args.data {
        let mut reader = DataReader::open(path)?;
        if reader.header().game != game {
            bail!(
                "{} holds {} positions, not {game}",
                path.display(),
                reader.header().game
            );
        }
        if args.hold_out == HoldOut::Games && reader.header().layout != Layout::Games {
            bail!(
                "--hold-out games: {} is merged or shuffled data, whose blocks are not games; \
                 give the datagen files, or --hold-out positions",
                path.display()
            );
        }
        while let Some(block) = reader.next_block()? {
            encoded.start_game();
            for sample in block {
                let read = |symmetry: usize, us: &mut Vec<u16>, them: &mut Vec<u16>| {
                    let encoding = Encoding { set, symmetry };
                    (support.features)(&spec, encoding, &sample.position, us, them).map_err(|err| {
                        anyhow::anyhow!("{}: position {:?}: {err}", path.display(), sample.position)
                    })
                };
                let (score, result) = (f32::from(sample.score), sample.result.score());
                let symmetries = chosen_symmetries(support.symmetries, images, &mut rng);
                if !mapped {
                    for &symmetry in &symmetries {
                        read(symmetry, &mut us, &mut them)?;
                        encoded.push(&us, &them, score, result);
                    }
                    continue;
                }
                read(0, &mut us, &mut them)?;
                // The maps are the game's claim; the first positions check
                // it against the images encoded one by one.
                if checked < CHECKED_POSITIONS {
                    checked += 1;
                    for &symmetry in &symmetries {
                        read(symmetry, &mut image_us, &mut image_them)?;
                        if !encoded.maps_agree(symmetry, &us, &image_us)
                            || !encoded.maps_agree(symmetry, &them, &image_them)
                        {
                            bail!(
                                "{game}'s input map of symmetry {symmetry} disagrees with the \
                                 image of position {:?} (a bug: train with --symmetries 1)",
                                sample.position
                            );
                        }
                    }
                }
                encoded
                    .push_images(&us, &them, score, result, &symmetries)
                    .map_err(|err| {
                        anyhow::anyhow!("{}: position {:?}: {err}", path.display(), sample.position)
                    })?;
            }
        }
    }
    eprintln!(
        "{} positions of {game} read in {} ({} samples: {images} image{} each{}; inputs {}, {inputs})",
        encoded.len() / images,
        clock(started.elapsed().as_secs_f64()),
        encoded.len(),
        if images == 1 { "" } else { "s" },
        if mapped {
            ", read through the symmetries' input maps"
        } else {
            ""
        },
        names[set]
    );
    let config = TrainConfig {
        hidden,
        activation,
        epochs: args.epochs,
        batch: args.batch,
        learning_rate: args.lr,
        lambda: args.lambda,
        validation: args.validation,
        hold_out: args.hold_out,
        scale: args.scale,
        seed: args.seed,
        threads: args.threads.unwrap_or_else(available_threads),
        init: init.as_ref().map(|(net, _, _)| FloatNet::from_network(net)),
    };
    if let Some((net, _, path)) = &init {
        eprintln!(
            "starting from {} (hash {:016x}, scale {:.1})",
            path.display(),
            net.content_hash(),
            net.scale
        );
    }
    let training = Instant::now();
    let net = train(&encoded, inputs, &config, |report| {
        match report.train_loss {
            Some(train_loss) => eprintln!(
                "epoch {:>3}/{}: train loss {:.6}, validation loss {:.6}, lr {:.6}, {}",
                report.epoch,
                report.epochs,
                train_loss,
                report.validation_loss,
                report.learning_rate,
                clock(training.elapsed().as_secs_f64())
            ),
            None => eprintln!(
                "epoch {:>3}/{}: the starting network, validation loss {:.6}, {}",
                report.epoch,
                report.epochs,
                report.validation_loss,
                clock(training.elapsed().as_secs_f64())
            ),
        }
    })
    .map_err(anyhow::Error::msg)?;
    let data_names: Vec<String> = args.data.iter().map(|p| p.display().to_string()).collect();
    // With --init the scale is the starting network's, and its own recipe
    // says how it was made.
    let (scale_or_start, start) = match &init {
        Some((start, _, path)) => (
            format!("--init {}", path.display()),
            format!(
                "; the starting network, hash {:016x}: {}",
                start.content_hash(),
                start.recipe
            ),
        ),
        None => (format!("--scale {}", net.scale), String::new()),
    };
    let recipe = format!(
        "plateau train {game} --data {} --inputs {} --activation {} --symmetries {images} \
         --hidden {} --epochs {} --batch {} --lr {} --lambda {} --validation {}{} {scale_or_start} \
         --seed {} --threads {} ({} positions{start})",
        data_names.join(" --data "),
        names[set],
        activation.name(),
        hidden,
        args.epochs,
        args.batch,
        args.lr,
        args.lambda,
        args.validation,
        match args.hold_out {
            // Left out at the default, so that the recipes of networks
            // made before the option read as they did.
            HoldOut::Positions => String::new(),
            HoldOut::Games => format!(" --hold-out {}", args.hold_out.name()),
        },
        args.seed,
        config.threads,
        encoded.len() / images
    );
    let recipe = match &args.note {
        Some(note) => format!("{note}; {recipe}"),
        None => recipe,
    };
    let quantised = net.quantise(&game, names[set], &recipe);
    std::fs::write(&args.out, quantised.to_bytes())
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    println!(
        "{}: {game} network {} {}x{} {} (scale {:.1}), hash {:016x}, trained in {}",
        args.out.display(),
        names[set],
        inputs,
        hidden,
        activation.name(),
        net.scale,
        quantised.content_hash(),
        clock(training.elapsed().as_secs_f64())
    );
    Ok(())
}

/// Reads `--init`'s network, checks it is one of `game`'s, and says which
/// of `sets` it reads.
fn read_start(path: &Path, game: &str, sets: &[InputSet]) -> Result<(Network, usize)> {
    let bytes =
        std::fs::read(path).with_context(|| format!("--init: cannot read {}", path.display()))?;
    let net = Network::from_bytes(&bytes)
        .and_then(|net| net.check_for(game, sets).map(|set| (net, set)))
        .map_err(|err| anyhow::anyhow!("--init {}: {err}", path.display()))?;
    Ok(net)
}

/// Positions of a run whose images are encoded one by one as well, to check
/// the game's input maps.
const CHECKED_POSITIONS: usize = 1000;

/// The symmetries to train a position on: all of them when `images` is
/// their number; otherwise the position itself and `images - 1` others drawn
/// at random (different ones for each position).
fn chosen_symmetries(all: usize, images: usize, rng: &mut Rng) -> Vec<usize> {
    let mut chosen: Vec<usize> = (0..all).collect();
    if images >= all {
        return chosen;
    }
    for i in 1..images.min(all) {
        let j = i + rng.below((all - i) as u64) as usize;
        chosen.swap(i, j);
    }
    chosen.truncate(images.min(all));
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chosen_symmetries_start_with_the_position_and_never_repeat() {
        let mut rng = Rng::new(1);
        assert_eq!(
            chosen_symmetries(8, 8, &mut rng),
            (0..8).collect::<Vec<_>>()
        );
        assert_eq!(chosen_symmetries(1, 1, &mut rng), vec![0]);
        let mut seen = [0; 8];
        for _ in 0..400 {
            let mut chosen = chosen_symmetries(8, 3, &mut rng);
            assert_eq!(chosen.len(), 3);
            assert_eq!(chosen[0], 0);
            for &s in &chosen[1..] {
                seen[s] += 1;
            }
            chosen.sort_unstable();
            chosen.dedup();
            assert_eq!(chosen.len(), 3);
        }
        // Every other image is drawn.
        assert!(seen[1..].iter().all(|&n| n > 50), "{seen:?}");
    }
}
