//! The Ataxx family in the registry: the virus game (clone-only, one variant per
//! board size) and full Ataxx.

use crate::engine::{AnyEngine, Profile};
use crate::virus_endgame::VirusEndgame;
use crate::{
    CertificateCheck, GameInfo, GameSpec, NetSupport, SideInfo, SolveOptions, SolveReport, Tuning,
    VariantInfo, engine, erase, erase_file,
};
use plateau_ataxx::solve as exact;
use plateau_ataxx::symmetry::SYMMETRIES;
use plateau_ataxx::{Ataxx, AtaxxEval, Virus, VirusWide};
use plateau_core::{AnyGame, Erased, Game, PositionError};
use plateau_search::{Level, Margin, Options};

/// The board side a virus variant names (`"5x5"` -> 5).
fn virus_size(spec: &GameSpec) -> usize {
    spec.variant
        .split('x')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(plateau_ataxx::DEFAULT_SIZE)
}

/// The input maps of the eight symmetries of an `n x n` board.
fn symmetry_maps(set: usize, n: usize) -> Vec<Vec<u16>> {
    (0..SYMMETRIES)
        .map(|symmetry| plateau_ataxx::inputs::input_map(set, n, symmetry))
        .collect()
}

/// Boards up to 8x8 run on 64-bit boards; 9x9 needs the wide type.
fn is_wide(spec: &GameSpec) -> bool {
    virus_size(spec) > 8
}

fn virus_start(spec: &GameSpec) -> Box<dyn AnyGame> {
    let n = virus_size(spec);
    let game = if is_wide(spec) {
        VirusWide::new(n).map(|g| erase(spec, g))
    } else {
        Virus::new(n).map(|g| erase(spec, g))
    };
    // Variant names come from the list below, so every size exists.
    game.unwrap_or_else(|_| erase(spec, Virus::standard()))
}

/// Reads a virus position and checks that its size is the variant's.
fn virus_from_text(spec: &GameSpec, text: &str) -> Result<Box<dyn AnyGame>, PositionError> {
    let wide = VirusWide::from_text(text)?;
    let (size, wanted) = (wide.size(), virus_size(spec));
    if size != wanted {
        return Err(PositionError::other_variant(format!(
            "the position is on a {size}x{size} board but the variant is {wanted}x{wanted}; \
             choose the variant {size}x{size} (virus/{size}x{size})"
        )));
    }
    if is_wide(spec) {
        Ok(erase(spec, wide))
    } else {
        Ok(erase(spec, Virus::from_text(text)?))
    }
}

/// What full Ataxx keeps of the selective search (docs/engine.md has the
/// measurements). One move there turns several stones, so the pruning
/// margins are larger than the defaults; killer moves are off, as they put a
/// sibling's refutation ahead of the moves that turn the most stones. The
/// reduction table, margins and late move counts are SPSA's (`plateau tune
/// ataxx --search all`): reduce more, prune more, let more moves through.
/// Each rule's margin on top is from a second run (`--search rfp-margin,...`):
/// trust the network's static score far more in reverse futility than the
/// shared scale does.
fn ataxx_search(options: &mut Options) {
    options.lmr_base = 105;
    options.lmr_divisor = 149;
    options.margin_percent = 187;
    options.late_move_percent = 153;
    for (margin, percent) in [
        (Margin::Razor, 105),
        (Margin::ReverseFutility, 25),
        (Margin::Futility, 99),
        (Margin::Probcut, 134),
        (Margin::Singular, 117),
        (Margin::NullMove, 81),
    ] {
        options.margin_scales[margin.index()] = percent;
    }
    options.killers = false;
}

/// What the virus game keeps: the search as it was before selective search,
/// without late-move reductions, until its own measurements are made. Nearly
/// every move turns stones, so none is "quiet", and reducing the late ones
/// hid winning moves (at 100 ms a move against the seed profile, 60 games
/// each: 57% with them, 72% without).
fn virus_search(options: &mut Options) {
    *options = Options {
        reductions: false,
        ..options.without_selectivity()
    };
}

/// For the two strongest levels of the virus game, the exact solver once few
/// cells are empty (boards up to 8x8; not for engines on weight files).
fn family_engine(
    profile: Profile,
    engine: Box<dyn AnyEngine>,
    with_solver: bool,
) -> Box<dyn AnyEngine> {
    let Profile::Level(level) = profile else {
        return engine;
    };
    if with_solver && matches!(level, Level::Expert | Level::Master) {
        VirusEndgame::boxed(engine)
    } else {
        engine
    }
}

/// Solves a virus position exactly (boards up to 8x8; beyond 5x5 it takes long:
/// give a time limit).
fn virus_solve(
    spec: &GameSpec,
    position: Option<&str>,
    options: &SolveOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<SolveReport, String> {
    if is_wide(spec) {
        return Err(format!(
            "{} is far too large to solve exactly; the solver takes 4x4 to 8x8 boards \
             (5x5 takes a fraction of a second, 6x6 a quarter of an hour)",
            spec.full_name()
        ));
    }
    let game = match position {
        Some(text) => virus_from_text(spec, text).map_err(|e| e.to_string())?,
        None => virus_start(spec),
    };
    let virus = game
        .as_any()
        .downcast_ref::<Erased<Virus>>()
        .ok_or_else(|| format!("{} is not on a 64-bit virus board", spec.full_name()))?
        .game();
    let settings = exact::SolveOptions {
        table_mb: options.table_mb,
        time_limit: options.time_limit,
        threads: options.threads.max(1),
        checkpoint: options.checkpoint.clone(),
        checkpoint_every: options.checkpoint_every,
        ..exact::SolveOptions::default()
    };
    let mut solver = exact::Solver::new(settings);
    if let Some(path) = &options.checkpoint
        && path.exists()
    {
        let entries = solver.resume(virus, path)?;
        progress(&format!(
            "checkpoint {}: {entries} table entries read",
            path.display()
        ));
    }
    let solution = solver.solve(virus, &mut |p| progress(&p.to_string()));
    let certificate = match &options.certificate {
        Some(path) => {
            let started = plateau_core::time::Instant::now();
            progress(&format!(
                "certificate: writing the proof of [{:+}, {:+}], leaves at {} empty cells",
                solution.lower, solution.upper, options.certificate_leaf
            ));
            let certificate = solver.certificate(virus, &solution, options.certificate_leaf)?;
            let bytes = certificate.to_bytes();
            std::fs::write(path, &bytes)
                .map_err(|e| format!("cannot write the certificate {}: {e}", path.display()))?;
            Some((bytes.len() as u64, started.elapsed()))
        }
        None => None,
    };
    Ok(SolveReport {
        position: virus.to_text(),
        side_to_move: solution.side_to_move,
        measure: "final stone difference",
        lower: solution.lower,
        upper: solution.upper,
        best: solution.best.map(|mv| mv.to_string()),
        pv: solution.pv.iter().map(|mv| mv.to_string()).collect(),
        depth: solution.empties,
        nodes: solution.nodes,
        elapsed: solution.elapsed,
        earlier_nodes: solution.earlier_nodes,
        earlier_elapsed: solution.earlier_elapsed,
        certificate,
    })
}

/// Checks a virus proof certificate (see `plateau_ataxx::solve::certificate`),
/// `threads` threads searching its leaves.
pub fn verify_virus_certificate(
    bytes: &[u8],
    threads: usize,
    progress: &mut dyn FnMut(&str),
) -> Result<CertificateCheck, String> {
    let checked = exact::certificate::verify_with_threads(bytes, threads, &mut |p| {
        progress(&format!(
            "  ... {:.1}% of the moves walked, {} leaves searched, {:.0} s",
            100.0 * p.walked as f64 / p.total.max(1) as f64,
            p.leaves,
            p.elapsed.as_secs_f64()
        ))
    })?;
    let game = Virus::from_text(&checked.position).map_err(|e| e.to_string())?;
    Ok(CertificateCheck {
        game: format!("virus/{0}x{0}", game.size()),
        position: checked.position,
        side_to_move: game.side_to_move(),
        lower: checked.lower,
        upper: checked.upper,
        tree_nodes: checked.tree_nodes,
        leaves: checked.leaves,
        leaf_nodes: checked.leaf_nodes,
        elapsed: checked.elapsed,
    })
}

pub(crate) static VIRUS_INFO: GameInfo = GameInfo {
    name: "virus",
    title: "The virus game",
    description: "Ataxx with clone moves only: drop next to your stones, turn the neighbours",
    variants: &[
        VariantInfo {
            name: "7x7",
            description: "the usual 7x7 board",
        },
        VariantInfo {
            name: "4x4",
            description: "4x4 board (the course's figure)",
        },
        VariantInfo {
            name: "5x5",
            description: "5x5 board",
        },
        VariantInfo {
            name: "6x6",
            description: "6x6 board",
        },
        VariantInfo {
            name: "8x8",
            description: "8x8 board",
        },
        VariantInfo {
            name: "9x9",
            description: "9x9 board (128-bit boards)",
        },
    ],
    position_example: "x5o/7/7/7/7/7/o5x x",
    opening_plies: 4,
    draw_by_agreement: false,
    sides: STONE_SIDES,
    bench_positions: &[
        "x4xx/x4xx/3xxxo/2oo1xx/1ooo1x1/1oo2xx/o5x x",
        "x4oo/1x3oo/2x1xoo/3x1oo/4xxo/1o2xxo/o3ooo x",
        "xx4o/7/7/oox4/ooxxx2/ooox1x1/o1o1x1x x",
        "x5o/5oo/4xoo/3xxoo/4xxx/5x1/o4xx x",
        "x5o/x4o1/4ooo/2ooooo/2ooxxx/3xxx1/o3xxx x",
        "x1x3o/1x5/1x5/5oo/3oooo/oooooxx/o2ooxx o",
        "xx4o/2x4/1o1x3/ooxx3/1oo4/oo5/o5x x",
        "xxx1xxo/3xxoo/4oxx/3oox1/3oox1/1ooo3/o5x x",
        "x3xxo/4xxo/4xxo/4xxx/5x1/1oooo1x/o2o2x x",
        "x5o/x6/7/4x2/3xxx1/1o1oooo/o1ooooo x",
    ],
    bench_depth: 11,
    new_game: virus_start,
    from_text: virus_from_text,
    from_file: |spec, text| virus_from_text(spec, text.trim()),
    move_limit: None,
    engine: |spec, profile, seed| {
        if is_wide(spec) {
            let engine = engine::build::<VirusWide, AtaxxEval, AtaxxEval>(
                profile,
                seed,
                AtaxxEval::standard_virus,
                AtaxxEval::seed,
                virus_search,
            );
            family_engine(profile, engine, false)
        } else {
            let engine = engine::build::<Virus, AtaxxEval, AtaxxEval>(
                profile,
                seed,
                AtaxxEval::standard_virus,
                AtaxxEval::seed,
                virus_search,
            );
            family_engine(profile, engine, true)
        }
    },
    tuning: Tuning {
        features: &plateau_ataxx::eval::FEATURE_NAMES,
        seed_weights: &plateau_ataxx::eval::SEED_WEIGHTS,
        default_weights: &plateau_ataxx::eval::VIRUS_WEIGHTS,
        engine: |spec, weights, profile, seed| {
            let evaluator = AtaxxEval::with_weights(weights);
            if is_wide(spec) {
                engine::weighted::<VirusWide, _>(profile, seed, evaluator, virus_search)
                    .map(|engine| family_engine(profile, engine, false))
            } else {
                // No solver: weight files are compared on what the evaluation
                // decides, and the tuner's games must not be settled by it.
                engine::weighted::<Virus, _>(profile, seed, evaluator, virus_search)
                    .map(|engine| family_engine(profile, engine, false))
            }
        },
    },
    solve: Some(virus_solve),
    net: Some(NetSupport {
        sets: plateau_ataxx::inputs::SETS,
        symmetries: SYMMETRIES,
        features: |_, encoding, text, us, them| {
            crate::net_features_with::<Virus>(encoding, text, us, them, |game, s| {
                game.transformed(s)
            })
        },
        input_maps: Some(|spec, set| {
            (!is_wide(spec)).then(|| symmetry_maps(set, virus_size(spec)))
        }),
        engine: |spec, net, profile, seed| {
            if is_wide(spec) {
                return Err(format!(
                    "{} has no network inputs: networks read boards up to 8x8",
                    spec.full_name()
                ));
            }
            let engine = engine::with_network::<Virus, _>(
                profile,
                seed,
                net,
                AtaxxEval::standard_virus(),
                virus_search,
            );
            Ok(family_engine(profile, engine, true))
        },
        defaults: &[virus_network],
    }),
};

/// Ataxx and the virus game name their sides by their stones; Black starts.
const STONE_SIDES: [SideInfo; 2] = [
    SideInfo {
        name: "White (o)",
        note: "",
    },
    SideInfo {
        name: "Black (x)",
        note: "moves first",
    },
];

pub(crate) static ATAXX_INFO: GameInfo = GameInfo {
    name: "ataxx",
    title: "Ataxx",
    description: "7x7, clone next to your stones or jump two cells; turn the neighbours",
    variants: &[],
    position_example: "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
    opening_plies: 4,
    draw_by_agreement: true,
    sides: STONE_SIDES,
    bench_positions: &[
        "x6/1o1x3/ooxxo2/1oxxo2/4x2/5o1/o6 x 3 14",
        "x3o1o/5o1/4ox1/3oox1/7/1x2x2/x6 x 1 8",
        "o5o/oo5/2oxx2/2oxx2/2xxoo1/2ooo2/3o3 x 0 12",
        "o5o/oox2o1/1ox1o2/4x2/3xx2/5x1/6x x 3 13",
        "7/7/1x3xx/xxx2x1/xoo4/ooo4/oxx3x o 0 12",
        "x6/7/2xx3/1xxo3/1xooo2/1xxo3/1oox2x x 0 14",
        "6o/6o/x1ooxo1/3ox2/x6/7/6x x 2 8",
        "x6/x6/2x4/2xoo2/2oooox/o6/o6 x 0 8",
        "1xxx3/1xxx3/1xoo1o1/7/7/7/o4x1 o 0 8",
        "5oo/5xx/3x2x/3o3/2xxx2/1o1xx2/oo5 o 3 14",
    ],
    bench_depth: 6,
    new_game: |spec| erase(spec, Ataxx::new()),
    from_text: |spec, text| Ok(erase(spec, Ataxx::from_text(text)?)),
    from_file: erase_file::<Ataxx>,
    move_limit: None,
    engine: |_, profile, seed| {
        let engine = engine::build::<Ataxx, AtaxxEval, AtaxxEval>(
            profile,
            seed,
            AtaxxEval::standard,
            AtaxxEval::seed,
            ataxx_search,
        );
        family_engine(profile, engine, false)
    },
    tuning: Tuning {
        features: &plateau_ataxx::eval::FEATURE_NAMES,
        seed_weights: &plateau_ataxx::eval::SEED_WEIGHTS,
        default_weights: &plateau_ataxx::eval::DEFAULT_WEIGHTS,
        engine: |_, weights, profile, seed| {
            engine::weighted::<Ataxx, _>(
                profile,
                seed,
                AtaxxEval::with_weights(weights),
                ataxx_search,
            )
            .map(|engine| family_engine(profile, engine, false))
        },
    },
    solve: None,
    net: Some(NetSupport {
        sets: plateau_ataxx::inputs::SETS,
        symmetries: SYMMETRIES,
        features: |_, encoding, text, us, them| {
            crate::net_features_with::<Ataxx>(encoding, text, us, them, |game, s| {
                game.transformed(s)
            })
        },
        // Ataxx is played on 7x7 only.
        input_maps: Some(|_, set| Some(symmetry_maps(set, plateau_ataxx::DEFAULT_SIZE))),
        engine: |_, net, profile, seed| {
            Ok(engine::with_network::<Ataxx, _>(
                profile,
                seed,
                net,
                AtaxxEval::standard(),
                ataxx_search,
            ))
        },
        defaults: &[ataxx_network],
    }),
};

embedded_network! {
    /// The network `master` plays in Ataxx: the `blocks` inputs (2x2
    /// patterns), 128 hidden per side, SCReLU, the eighth generation: the
    /// sixth (10.7 M positions of the fourth network's self-play) trained
    /// further on 9.8 M positions of its own, in their eight images
    /// (docs/learning.md has the commands and the matches that made it the
    /// default).
    fn ataxx_network = "ataxx-blocks-4033x128-fc4b8a94b4d91965.net"
}

embedded_network! {
    /// The network `master` plays in the 7x7 virus game: the `blocks` inputs
    /// (2x2 patterns), 128 hidden per side, SCReLU, the third generation:
    /// trained on 3.0 M positions of the second network's self-play in their
    /// eight images (+151 Elo over it at 100 ms; docs/learning.md).
    fn virus_network = "virus-7x7-blocks-4033x128-3303f4d7d30de7fc.net"
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_embedded_networks_are_the_named_ones() {
        let ataxx = super::ataxx_network();
        let blocks = plateau_ataxx::inputs::BLOCK_INPUTS;
        crate::tests::check_embedded_network(&ataxx, "ataxx", blocks, 128, "fc4b8a94b4d91965");
        assert_eq!(ataxx.input_set, "blocks");
        assert_eq!(
            ataxx.activation,
            plateau_core::net::Activation::SquaredClipped
        );
        let virus = super::virus_network();
        crate::tests::check_embedded_network(&virus, "virus/7x7", blocks, 128, "3303f4d7d30de7fc");
        assert_eq!(virus.input_set, "blocks");
        assert_eq!(
            virus.activation,
            plateau_core::net::Activation::SquaredClipped
        );
    }

    use crate::{GameSpec, Limits, Profile, SolveOptions};

    #[test]
    fn every_virus_variant_starts_on_its_size_and_plays() {
        for (variant, start) in [
            ("4x4", "x2o/4/4/o2x x"),
            ("7x7", "x5o/7/7/7/7/7/o5x x"),
            ("8x8", "x6o/8/8/8/8/8/8/o6x x"),
            ("9x9", "x7o/9/9/9/9/9/9/9/o7x x"),
        ] {
            let spec = GameSpec::lookup("virus", Some(variant)).unwrap();
            let game = spec.new_game();
            assert_eq!(game.to_text(), start);
            assert_eq!(game.name(), format!("virus/{variant}"));
            let mut engine = spec.engine(Profile::parse("expert").unwrap(), 1);
            let thought = engine.think(game.as_ref(), &Limits::depth(2), &mut |_| {});
            assert!(game.legal_moves().contains(&thought.unwrap().best));
        }
        assert_eq!(GameSpec::lookup("virus", None).unwrap().variant, "7x7");
    }

    #[test]
    fn a_virus_position_of_another_size_names_the_variant_to_choose() {
        let spec = GameSpec::lookup("virus", None).unwrap();
        let err = spec.from_text("x2o/4/4/o2x x").err().unwrap().to_string();
        assert!(err.contains("virus/4x4"), "{err}");
        let nine = GameSpec::lookup("virus/9x9", None).unwrap();
        assert!(nine.from_text("x7o/9/9/9/9/9/9/9/o7x o").is_ok());
        let ataxx = GameSpec::lookup("ataxx", None).unwrap();
        let err = ataxx.from_text("x2o/4/4/o2x x").err().unwrap().to_string();
        assert!(err.contains("7x7"), "{err}");
        assert!(ataxx.from_text("x5o/7/7/7/7/7/o5x x 0 1").is_ok());
    }

    #[test]
    fn the_virus_game_solves_through_the_registry_and_the_others_say_they_cannot() {
        let spec = GameSpec::lookup("virus", Some("4x4")).unwrap();
        assert!(spec.info.has_solver());
        let mut lines = Vec::new();
        let report = spec
            .solve(None, &SolveOptions::default(), &mut |l| {
                lines.push(l.to_string())
            })
            .unwrap();
        assert_eq!(report.value(), Some(-8));
        assert_eq!(report.position, "x2o/4/4/o2x x");
        assert_eq!(report.depth, 12);
        assert!(report.best.is_some());
        assert!(!lines.is_empty());
        // A position from the side of White, after one drop.
        let report = spec
            .solve(
                Some("x2o/4/1x2/o2x o"),
                &SolveOptions::default(),
                &mut |_| {},
            )
            .unwrap();
        assert_eq!(report.side_to_move, plateau_core::Side::White);
        assert!(report.value().is_some());
        let err = spec
            .solve(
                Some("x3o/5/5/5/o3x x"),
                &SolveOptions::default(),
                &mut |_| {},
            )
            .unwrap_err();
        assert!(err.contains("virus/5x5"), "{err}");
        let wide = GameSpec::lookup("virus", Some("9x9")).unwrap();
        assert!(
            wide.solve(None, &SolveOptions::default(), &mut |_| {})
                .is_err()
        );
        for name in ["ataxx", "escampe", "draughts", "abalone"] {
            let spec = GameSpec::lookup(name, None).unwrap();
            let err = spec
                .solve(None, &SolveOptions::default(), &mut |_| {})
                .unwrap_err();
            assert_eq!(err, format!("{name} has no exact solver"));
        }
    }

    #[test]
    fn the_bench_positions_are_live_games() {
        for name in ["virus", "ataxx"] {
            let spec = GameSpec::lookup(name, None).unwrap();
            assert_eq!(spec.info.bench_positions.len(), 10);
            for text in spec.info.bench_positions {
                let game = spec.from_text(text).unwrap();
                assert!(game.outcome().is_none(), "{text}");
            }
        }
    }
}
