//! Files and option texts from outside: save files, network files, training
//! data, the arena's opening and weight files, engine and game names.

use crate::text;
use plateau_arena::Sprt;
use plateau_arena::openings::{Opening, parse_openings};
use plateau_arena::weights::{format_weights, parse_weights};
use plateau_core::net::Network;
use plateau_core::save::{read_count, read_save_file, write_save_file};
use plateau_core::{MAX_WEIGHT, parse_perft_file};
use plateau_games::{Encoding, EngineChoice, GAMES, GameSpec, Level, Profile, parse_threads};
use plateau_learn::Packer;
use plateau_learn::data::{DataReader, MAX_TEXT, VERSION_PACKED};
use std::io::Cursor;
use std::path::Path;

/// Fields a fuzzed save file may hold besides `start` and `moves`.
const FIELDS: [&str; 2] = ["ply", "draw_rules"];

/// The save-file reader of `core::save`: a file read writes back to the same
/// file contents.
pub fn save_file(data: &[u8]) {
    let text = text(data);
    let Ok(Some(file)) = read_save_file(&text, &FIELDS) else {
        return;
    };
    let fields: Vec<(&str, String)> = FIELDS
        .iter()
        .filter_map(|&name| file.field(name).map(|value| (name, value.to_string())))
        .collect();
    let moves: Vec<String> = file.moves.iter().map(|m| m.to_string()).collect();
    let written = write_save_file(file.start, &fields, &moves);
    let again = read_save_file(&written, &FIELDS)
        .unwrap_or_else(|err| panic!("{written:?} does not read back: {err}"));
    // A start written on its line reads back trimmed, like every value.
    if let Some(again) = again {
        assert_eq!(again.moves, file.moves, "save-file moves");
        for name in FIELDS {
            assert_eq!(
                again.field(name),
                file.field(name),
                "save-file field {name}"
            );
        }
        assert_eq!(again.start, file.start.trim(), "save-file start");
    } else {
        panic!("{written:?} reads as a bare position");
    }
    if let Ok(Some(count)) = read_count(&file, "ply", 1_000_000) {
        assert!(count <= 1_000_000);
    }
}

/// Network files: a file read writes back byte for byte, and its output
/// layer cannot overflow on any accumulator within the activation's range.
pub fn network(data: &[u8]) {
    let Ok(net) = Network::from_bytes(data) else {
        return;
    };
    assert_eq!(net.to_bytes(), data, "network file round trip");
    assert_eq!(net.input_weights.len(), net.inputs * net.hidden);
    assert_eq!(net.output_weights.len(), 2 * net.hidden);
    let saturated = vec![i16::MAX; net.hidden];
    let _ = net.output(&saturated, &saturated);
    let _ = net.output(&net.input_bias, &net.input_bias);
    let _ = net.content_hash();
}

/// Training-data files: every sample read is within the format's bounds,
/// and positions of a known game give network inputs within range.
pub fn training_data(data: &[u8]) {
    let Ok(mut reader) = DataReader::from_reader(Path::new("fuzz"), Cursor::new(data)) else {
        return;
    };
    let spec = GameSpec::lookup(&reader.header().game, None).ok();
    // A packed file's positions read as positions of its game.
    let packer = (reader.header().version == VERSION_PACKED)
        .then(|| Packer::for_game(&reader.header().game))
        .flatten();
    let (mut us, mut them) = (Vec::new(), Vec::new());
    let mut read = 0;
    while let Ok(Some(block)) = reader.next_block() {
        for sample in block {
            assert!(!sample.position.is_empty() && sample.position.len() <= MAX_TEXT);
            if let Some(packer) = &packer {
                let mut again = Vec::new();
                assert!(
                    packer.pack(&sample.position, &mut again).is_ok(),
                    "a packed position that does not pack again: {:?}",
                    sample.position
                );
            }
            read += 1;
            if read > 64 {
                continue;
            }
            let Some(spec) = &spec else { continue };
            let Some(support) = &spec.info.net else {
                continue;
            };
            for (set, inputs) in support.sets.iter().enumerate() {
                let encoding = Encoding {
                    set,
                    symmetry: read % support.symmetries,
                };
                if (support.features)(spec, encoding, &sample.position, &mut us, &mut them).is_ok()
                {
                    assert!(
                        us.iter()
                            .chain(&them)
                            .all(|&f| usize::from(f) < inputs.inputs),
                        "a network input of {} out of range for {:?}",
                        inputs.name,
                        sample.position
                    );
                }
            }
        }
        assert!(reader.offset() <= data.len() as u64, "read past the end");
    }
}

/// Every game with each of its variants, for targets that pick one by byte.
fn all_specs() -> Vec<GameSpec> {
    let mut specs = Vec::new();
    for info in GAMES {
        if info.variants.is_empty() {
            specs.extend(GameSpec::lookup(info.name, None));
        }
        for variant in info.variants {
            specs.extend(GameSpec::lookup(info.name, Some(variant.name)));
        }
    }
    specs
}

/// The arena's opening and weight files, for the game the first byte picks
/// (its low bit: openings or weights). Openings read are playable and read
/// back from their written form; weights read back from the weight file.
pub fn arena_files(data: &[u8]) {
    let Some((&choice, rest)) = data.split_first() else {
        return;
    };
    let specs = all_specs();
    let spec = specs[usize::from(choice >> 1) % specs.len()];
    let text = text(rest);
    if choice & 1 == 0 {
        let Ok(openings) = parse_openings(&spec, &text) else {
            return;
        };
        let start = spec.new_game().to_text();
        let lines: Vec<String> = openings.iter().map(|o| opening_line(o, &start)).collect();
        let again = parse_openings(&spec, &lines.join("\n"))
            .unwrap_or_else(|err| panic!("written openings {lines:?} do not read: {err}"));
        assert_eq!(again.len(), openings.len(), "openings read back");
        for (opening, reread) in openings.iter().zip(&again) {
            let game = opening
                .build(&spec)
                .unwrap_or_else(|err| panic!("{opening:?} does not build: {err}"));
            assert!(
                game.outcome().is_none(),
                "an opening where the game is over"
            );
            let same = reread
                .build(&spec)
                .unwrap_or_else(|err| panic!("{reread:?} does not build: {err}"));
            assert_eq!(
                same.to_text(),
                game.to_text(),
                "{opening:?} read back elsewhere"
            );
        }
    } else {
        let Ok(weights) = parse_weights(&spec, &text) else {
            return;
        };
        assert_eq!(weights.len(), spec.info.tuning.features.len());
        assert!(
            weights
                .iter()
                .all(|w| w.is_finite() && w.abs() <= MAX_WEIGHT)
        );
        let written = format_weights(&spec, &weights, &[]);
        let again = parse_weights(&spec, &written)
            .unwrap_or_else(|err| panic!("{written:?} does not read back: {err}"));
        assert_eq!(again, weights, "weight file round trip");
    }
}

/// An opening as one line of an opening file (a line of no moves, such as
/// `*`, is the start position: written as its text).
fn opening_line(opening: &Opening, start: &str) -> String {
    match &opening.position {
        Some(position) => position.clone(),
        None if opening.moves.is_empty() => start.to_string(),
        None => opening.moves.join(" "),
    }
}

/// Engine, level, game and SPRT texts from command lines and protocols,
/// one per line, and perft files: what reads normalises and reads again the
/// same.
pub fn engine_spec(data: &[u8]) {
    let text = text(data);
    for line in text.lines().take(16) {
        // `net=FILE` reads a file the user names: not for a fuzzer to open.
        if line.contains("net=") {
            continue;
        }
        if let Ok(choice) = EngineChoice::parse(line) {
            let name = choice.name();
            let again = EngineChoice::parse(&name)
                .unwrap_or_else(|err| panic!("{name:?} (from {line:?}) does not read: {err}"));
            assert_eq!(again, choice, "{line:?} normalised to {name:?}");
        }
        if let Ok(profile) = Profile::parse(line) {
            assert_eq!(Profile::parse(profile.name()), Ok(profile));
            let _ = profile.default_limits();
        }
        if let Some(level) = Level::parse(line) {
            assert_eq!(Level::parse(level.name()), Some(level));
        }
        if let Ok(spec) = GameSpec::lookup(line, None) {
            let again = GameSpec::lookup(&spec.full_name(), None)
                .unwrap_or_else(|err| panic!("{} does not look up: {err}", spec.full_name()));
            assert_eq!(again.full_name(), spec.full_name());
        }
        if let Ok(sprt) = Sprt::parse(line) {
            let (lower, upper) = sprt.bounds();
            assert!(lower.is_finite() && upper.is_finite() && lower < upper);
        }
        if let Ok(threads) = parse_threads(line) {
            assert!(threads >= 1);
        }
    }
    let _ = parse_perft_file(&text);
}
