//! International draughts in the registry.

use crate::knowledge::WithKnowledge;
use crate::{GameInfo, NetSupport, SideInfo, Tuning, engine, erase, erase_file};
use plateau_core::Game;
use plateau_draughts::{Draughts, DraughtsEval};
use plateau_search::Options;

/// What draughts keeps of the selective search (docs/engine.md has the
/// measurements): everything but null moves, which zugzwang and the
/// obligation to move make unreliable even in the middle game.
fn search(options: &mut Options) {
    options.null_move = false;
}

pub(crate) static INFO: GameInfo = GameInfo {
    name: "draughts",
    title: "International draughts",
    description: "10x10, FMJD rules: flying kings, compulsory majority capture",
    variants: &[],
    position_example: "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29",
    opening_plies: 2,
    draw_by_agreement: true,
    sides: [
        SideInfo {
            name: "White",
            note: "moves first",
        },
        SideInfo {
            name: "Black",
            note: "",
        },
    ],
    // Middle games from engine self-play (plies 24-42), each with no capture pending.
    bench_positions: &[
        "W:W26,27,33,34,35,36,39,40,42,43,44,46,47,48,49,50:B1,2,3,4,5,6,8,12,13,15,16,17,18,19,20,24",
        "W:W28,32,33,36,40,41,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,8,9,10,11,14,18,21,35",
        "W:W26,29,36,42,44,45,46,47,48,49,50:B1,2,3,4,5,6,10,11,14,16,20,35",
        "W:W26,27,28,31,32,33,34,35,38,40,42,43,45,46,47:B1,3,4,5,8,9,11,12,15,16,17,18,19,21,24",
        "B:W27,28,31,32,33,34,35,37,39,45,46,47,48,49,50:B1,2,3,4,5,7,9,10,11,13,15,16,17,18,19,21,24",
        "B:W22,28,29,33,36,39,40,42,44,45,46,47,48,49,50:B1,2,3,4,5,6,11,12,13,15,16,20,25,35",
        "B:W22,23,28,35,36,41,43,44,45,46,47,48,49,50:B1,2,3,5,6,7,9,14,15,16,19,21,25",
        "W:W26,27,35,37,39,41,43,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,11,12,16,19,23,24,28",
        "W:W25,28,34,36,37,38,40,43,44,46,47,48,49,50:B1,3,4,5,7,8,9,10,11,12,14,16,18,19,20,35",
        "B:W16,26,28,30,32,33,34,35,39,40,44,46,47,48,50:B1,2,4,5,6,7,8,9,10,11,14,17,19,23,24,25",
    ],
    bench_depth: 12,
    new_game: |spec| erase(spec, Draughts::new()),
    from_text: |spec, text| Ok(erase(spec, Draughts::from_text(text)?)),
    from_file: erase_file::<Draughts>,
    move_limit: None,
    engine: |_, profile, seed| {
        engine::build(
            profile,
            seed,
            || WithKnowledge::new(DraughtsEval::standard()),
            DraughtsEval::seed,
            search,
        )
    },
    tuning: Tuning {
        features: &plateau_draughts::eval::FEATURE_NAMES,
        seed_weights: &plateau_draughts::eval::SEED_WEIGHTS,
        default_weights: &plateau_draughts::eval::DEFAULT_WEIGHTS,
        engine: |_, weights, profile, seed| {
            engine::weighted::<Draughts, _>(
                profile,
                seed,
                DraughtsEval::with_weights(weights),
                search,
            )
        },
    },
    solve: None,
    net: Some(NetSupport {
        sets: <Draughts as plateau_core::net::NetInputs>::INPUT_SETS,
        symmetries: 1,
        features: |_, encoding, text, us, them| {
            crate::net_features::<Draughts>(encoding, text, us, them)
        },
        input_maps: None,
        engine: |_, net, profile, seed| {
            Ok(engine::with_network::<Draughts, _>(
                profile,
                seed,
                net,
                WithKnowledge::new(DraughtsEval::standard()),
                search,
            ))
        },
        defaults: &[network],
    }),
};

embedded_network! {
    /// The network `master` plays in draughts: 200 inputs, 128 hidden,
    /// trained on 3.8 M positions of the first network's self-play
    /// (docs/learning.md has the commands and the matches that made it the
    /// default).
    fn network = "draughts-200x128-c587ad52e75255f3.net"
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_embedded_network_is_the_named_one() {
        let net = super::network();
        let inputs = plateau_draughts::inputs::INPUTS;
        crate::tests::check_embedded_network(&net, "draughts", inputs, 128, "c587ad52e75255f3");
    }
}
