//! Seed inputs per target: small valid examples from which mutations reach
//! the deep paths (a fuzzer starting from nothing takes long to write a legal
//! draughts position). Generated, so the repository holds no corpus files.

use plateau_core::net::{Activation, Network};
use plateau_core::{AnyGame, Rng};
use plateau_draughts::pdn::write_game;
use plateau_games::{GAMES, GameSpec};
use plateau_learn::Packer;
use plateau_learn::data::{MAGIC, VERSION_PACKED, VERSION_TEXT};
use plateau_protocols::dxp::wire::{GameRequest, Message, MoveMessage, StartPosition};

/// The seed inputs of a target (empty for an unknown name), with the inputs
/// that once failed it (see [`FOUND`]).
pub fn seeds(target: &str) -> Vec<Vec<u8>> {
    let mut seeds = generated(target);
    seeds.extend(
        FOUND
            .iter()
            .filter(|(name, _)| *name == target)
            .map(|(_, input)| input.to_vec()),
    );
    seeds
}

/// Inputs the fuzzers found failing, kept so that the smoke test replays
/// them: a DXP name starting with a control character (fixed in
/// `pad_name`), a PDN tag value continued past an escaped line break (fixed
/// in the PDN reader), and two that showed the targets too strict (a Hub
/// value holding a carriage return, an opening line `*`).
const FOUND: &[(&str, &[u8])] = &[
    ("dxp", b"A  \x19             -               0"),
    ("pdn", b"[Event \"a \\\nb\"]\n1. 31-26 *\n"),
    (
        "hub",
        b"pos pos=Wbcbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwww%wwwwwwswwwwww moves=\"32\r28 09-23\"\n",
    ),
    ("arena_files", b"b*"),
];

fn generated(target: &str) -> Vec<Vec<u8>> {
    let texts = |lines: &[&str]| lines.iter().map(|l| l.as_bytes().to_vec()).collect();
    match target {
        "escampe" | "draughts" | "abalone" | "virus" | "ataxx" => game_seeds(target),
        "pdn" => pdn_seeds(),
        "save_file" => texts(&[
            "# plateau save file\nstart: x5o/7/7/7/7/7/o5x x 0 1\nmoves: a7c5 g1e3\nply: 7\n",
            "start: a b\nmoves: m1\nmoves: m2 m3\ndraw_rules: off\n",
            "x5o/7 x 0 1\n",
        ]),
        "escampe_wire" => texts(&[
            "Blanc\0\nJOUEUR Noir\0\nMOUVEMENT B1-D1\nFIN! Egalit\u{e9}\0\n",
            "Noir\0\r\nJOUEUR Blanc\0\nFIN! Blanc\0\n",
            "C6/A6/B5/D5/E6/F5 B2/A1/B1/C2/E2/F2\nA5/B6/C5/D6/E5/F6 - # Noir only\n- C1/A2/B1/D2/E1/F2\n",
        ]),
        "hub" => texts(&[
            "hub\ninit\nset-param name=threads value=2\nlevel depth=3\nping\n",
            "pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww moves=\"32-28 19-23\"\n",
            "level time=60 inc=1 moves=40\ngo think\nlevel move-time=\"0.5\"\n",
        ]),
        "dxp" => dxp_seeds(),
        "uai" => texts(&[
            "uai\nisready\nuainewgame\nposition startpos moves g2 a7c5\n",
            "setoption name UAI_Variant value virus/5x5\nposition fen x3o/5/5/5/o3x x 0 1 moves a5b4\n",
            "position fen x5o/7/7/7/7/7/o5x x 0 1\ngo depth 2\nstop\nquit\n",
        ]),
        "api_json" => texts(&[
            "\0{\"game\":\"abalone\",\"variant\":\"belgian-daisy\",\"seat\":\"white\",\"opponent\":\"ai\",\"level\":\"easy\"}",
            "\u{1}{\"version\":0,\"move\":\"C6/F5/E6/D5/B5/A6\",\"token\":\"abc\"}",
            "\u{4}{\"version\":3,\"move\":\"32-28\"}",
            "\u{2}{\"token\":null}",
        ]),
        "network" => vec![small_network().to_bytes()],
        "training_data" => vec![training_file(), packed_training_file()],
        "arena_files" => arena_seeds(),
        "engine_spec" => texts(&[
            "master,threads=2,hash=64\nbeginner\nrandom\nseed,time=seed\n",
            "escampe\nabalone/belgian-daisy\nvirus/5x5\n0,10,0.05,0.05\n4\n",
            "expert,eval=classic,depth=3\n# perft\nposition: x5o/7 x 0 1\n1 16\n",
        ]),
        _ => Vec::new(),
    }
}

/// A game's variant index byte, its position text and moves, positions
/// reached by random play, and save files.
fn game_seeds(name: &str) -> Vec<Vec<u8>> {
    let Ok(base) = GameSpec::lookup(name, None) else {
        return Vec::new();
    };
    let count = base.info.variants.len().max(1);
    let mut rng = Rng::new(7);
    let mut seeds = Vec::new();
    for index in 0..count {
        let spec = match base.info.variants.get(index) {
            Some(variant) => GameSpec::lookup(name, Some(variant.name)).unwrap_or(base),
            None => base,
        };
        let mut game = spec.new_game();
        let start = game.to_text();
        let mut moves = Vec::new();
        for _ in 0..12 {
            let legal = game.legal_moves();
            let Some(mv) = rng.choose(&legal).cloned() else {
                break;
            };
            if game.play(&mv).is_err() {
                break;
            }
            moves.push(mv);
        }
        let seed = |text: String| [&[index as u8][..], text.as_bytes()].concat();
        seeds.push(seed(format!("{start}\n{}\n", moves.join(" "))));
        seeds.push(seed(format!("\n{}", numbered(&moves))));
        seeds.push(seed(format!("{}\n", game.to_text())));
        seeds.push(seed(game.to_file()));
        if let Some(mv) = game.legal_moves().first() {
            seeds.push(seed(format!("{}\n{mv}\n", game.to_text())));
        }
    }
    seeds
}

/// `1. a b 2. c`: a numbered record.
fn numbered(moves: &[String]) -> String {
    moves
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| format!("{}. {}", i + 1, pair.join(" ")))
        .collect::<Vec<_>>()
        .join(" ")
}

fn pdn_seeds() -> Vec<Vec<u8>> {
    let mut seeds = vec![
        b"[White \"A\"]\n[Black \"B\"]\n[Result \"1-1\"]\n\n1. 32-28 19-23 {a comment} 2. 28x19 14x23 (2... 13x24) $1 1-1\n"
            .to_vec(),
        b"[FEN \"W:W31-50:B1-20\"]\n[DrawRules \"off\"]\n1. 31-26 ; rest\n% escape\n*\n".to_vec(),
    ];
    if let Ok(spec) = GameSpec::lookup("draughts", None) {
        let mut game = spec.new_game();
        let mut rng = Rng::new(3);
        for _ in 0..20 {
            let legal = game.legal_moves();
            let Some(mv) = rng.choose(&legal).cloned() else {
                break;
            };
            let _ = game.play(&mv);
        }
        seeds.push(game.record(None).into_bytes());
        if let Some(draughts) = game
            .as_any()
            .downcast_ref::<plateau_core::Erased<plateau_draughts::Draughts>>()
        {
            let mut pdn = plateau_draughts::pdn::PdnGame::new(draughts.game().clone());
            pdn.tags
                .push(("Event".into(), "a \"quoted\" \\ name".into()));
            seeds.push(write_game(&pdn).into_bytes());
        }
    }
    seeds
}

fn dxp_seeds() -> Vec<Vec<u8>> {
    let messages = [
        Message::GameRequest(GameRequest {
            version: 1,
            name: "other".into(),
            follower: plateau_core::Side::Black,
            minutes: 10,
            moves: 50,
            start: StartPosition::Setup {
                to_move: plateau_core::Side::White,
                squares: "zzzzzzzzzzzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwww".into(),
            },
        }),
        Message::Move(MoveMessage {
            seconds: 3,
            from: 32,
            to: 28,
            captured: Vec::new(),
        }),
        Message::Move(MoveMessage {
            seconds: 3,
            from: 19,
            to: 23,
            captured: Vec::new(),
        }),
        Message::Move(MoveMessage {
            seconds: 1,
            from: 28,
            to: 19,
            captured: vec![23],
        }),
        Message::Chat("hello".into()),
        Message::BackRequest {
            move_number: 3,
            to_move: plateau_core::Side::White,
        },
    ];
    let all: Vec<u8> = messages.iter().flat_map(Message::encode).collect();
    let mut seeds = vec![all];
    seeds.extend(
        [
            "A".to_string() + &" ".repeat(32) + "0",
            "E10".into(),
            "K2".into(),
        ]
        .iter()
        .map(|m| m.as_bytes().to_vec()),
    );
    seeds
}

/// A network of the right shape for nothing, with small weights.
fn small_network() -> Network {
    let (inputs, hidden) = (6, 4);
    let weight = |i: usize| ((i * 37 % 41) as i16) - 20;
    Network {
        game: "ataxx".into(),
        recipe: "fuzz seed".into(),
        input_set: "blocks".into(),
        activation: Activation::SquaredClipped,
        inputs,
        hidden,
        scale: 400.0,
        input_weights: (0..inputs * hidden).map(weight).collect(),
        input_bias: vec![60; hidden],
        output_weights: (0..2 * hidden).map(weight).collect(),
        output_bias: 5,
    }
}

/// A training-data file of two samples of the virus game, in version 1
/// (position texts; see `learn::data` for the layout).
fn training_file() -> Vec<u8> {
    let mut bytes = MAGIC.to_vec();
    bytes.extend_from_slice(&VERSION_TEXT.to_le_bytes());
    let game = b"virus/7x7";
    bytes.extend_from_slice(&[0, game.len() as u8]);
    bytes.extend_from_slice(game);
    bytes.extend_from_slice(&2u32.to_le_bytes());
    for (position, result) in [("x5o/7/7/7/7/7/o5x x", 1i8), ("x5o/7/7/7/7/7/o5x o", -1)] {
        bytes.extend_from_slice(&(position.len() as u16).to_le_bytes());
        bytes.extend_from_slice(position.as_bytes());
        bytes.extend_from_slice(&(-25i16).to_le_bytes());
        bytes.push(result as u8);
        bytes.extend_from_slice(&4u16.to_le_bytes());
    }
    bytes
}

/// A training-data file of two Ataxx samples in version 2 (packed), one
/// with blocked cells.
fn packed_training_file() -> Vec<u8> {
    let mut bytes = MAGIC.to_vec();
    bytes.extend_from_slice(&VERSION_PACKED.to_le_bytes());
    let game = b"ataxx";
    bytes.extend_from_slice(&[0, game.len() as u8]);
    bytes.extend_from_slice(game);
    bytes.extend_from_slice(&2u32.to_le_bytes());
    let Some(packer) = Packer::for_game("ataxx") else {
        return bytes;
    };
    for (position, ply, result) in [
        ("x5o/7/7/7/7/7/o5x x 0 1", 0u16, 2u16),
        ("x5o/7/2-1-2/7/2-1-2/7/o5x o 1 1", 1, 0),
    ] {
        if packer.pack(position, &mut bytes).is_err() {
            return bytes;
        }
        bytes.extend_from_slice(&(-25i16).to_le_bytes());
        bytes.extend_from_slice(&((ply << 2) | result).to_le_bytes());
    }
    bytes
}

fn arena_seeds() -> Vec<Vec<u8>> {
    let mut seeds = Vec::new();
    for (index, info) in GAMES.iter().enumerate() {
        let Ok(spec) = GameSpec::lookup(info.name, None) else {
            continue;
        };
        // The byte's index counts every variant: only the first of each
        // game is seeded here, mutation finds the others.
        let byte = (spec_index(index) as u8) << 1;
        let game: Box<dyn AnyGame> = spec.new_game();
        let first = game.legal_moves().first().cloned().unwrap_or_default();
        let openings = format!("# openings\n{}\n{first}\n\n", game.to_text());
        seeds.push([&[byte][..], openings.as_bytes()].concat());
        let weights =
            plateau_arena::weights::format_weights(&spec, info.tuning.default_weights, &[]);
        seeds.push([&[byte | 1][..], weights.as_bytes()].concat());
    }
    seeds
}

/// Where the first variant of the `game`-th game sits in the list of every
/// variant of every game (see `files::all_specs`).
fn spec_index(game: usize) -> usize {
    GAMES[..game]
        .iter()
        .map(|info| info.variants.len().max(1))
        .sum()
}
