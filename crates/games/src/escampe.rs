//! Escampe in the registry.

use crate::{GameInfo, NetSupport, SideInfo, Tuning, engine, erase};
use plateau_core::Game;
use plateau_escampe::{Escampe, EscampeEval};
use plateau_search::Options;

/// What Escampe keeps of the selective search (docs/engine.md has the
/// measurements): the logarithmic reduction table and singular extensions.
/// Every pruning rule that trusts the static score lost there (null moves
/// most of all: a pass frees the opponent from the liseré constraint, which
/// is worth more than any tempo), as did the extra ordering tables, whose
/// static evaluations at every node cost more than they saved.
fn search(options: &mut Options) {
    *options = Options {
        reduction_table: true,
        singular: true,
        ..options.without_selectivity()
    };
}

pub(crate) static INFO: GameInfo = GameInfo {
    name: "escampe",
    title: "Escampe",
    description: "6x6, unicorns and paladins; move from the liseré your opponent arrived on",
    variants: &[],
    position_example: "n1B2b/2b3/b1nn2/5b/2b3/nnN3 w 2",
    opening_plies: 2,
    draw_by_agreement: false,
    sides: [
        SideInfo {
            name: "White",
            note: "moves first",
        },
        SideInfo {
            name: "Black",
            note: "places first",
        },
    ],
    bench_positions: &[
        "nn4/1N1nb1/2n3/2b1n1/b2b1B/1b4 w 3",
        "n2N2/2nn1b/2n3/b1b1n1/4bB/1b4 w -",
        "1bB3/5b/3b2/bnb3/n1nn2/N3n1 w -",
        "1bB3/6/2nbb1/b3n1/nbnn2/N5 w 3",
        "2B2b/2bb2/2b2b/3n1N/2n3/nn2n1 w 3",
        "1n2Bb/b1b3/3b1b/3n2/2n1n1/n3N1 w 1",
        "n3N1/4n1/3b2/bn1b1n/3n1b/b4B w -",
        "1B4/2b2b/1n4/bbb3/n1n1n1/3nN1 w 1",
        "3bnN/5n/n3b1/1nb3/2b1n1/1b2B1 w 3",
        "4n1/bnNn2/6/b1nb1n/6/1bBb2 w -",
    ],
    bench_depth: 14,
    new_game: |spec| erase(spec, Escampe::new()),
    from_text: |spec, text| Ok(erase(spec, Escampe::from_text(text)?)),
    from_file: |spec, text| Ok(erase(spec, Escampe::from_file(text)?)),
    move_limit: None,
    engine: |_, profile, seed| {
        engine::build(
            profile,
            seed,
            EscampeEval::standard,
            EscampeEval::seed,
            search,
        )
    },
    tuning: Tuning {
        features: &plateau_escampe::eval::FEATURE_NAMES,
        seed_weights: &plateau_escampe::eval::SEED_WEIGHTS,
        default_weights: &plateau_escampe::eval::DEFAULT_WEIGHTS,
        engine: |_, weights, profile, seed| {
            engine::weighted::<Escampe, _>(
                profile,
                seed,
                EscampeEval::with_weights(weights),
                search,
            )
        },
    },
    solve: None,
    net: Some(NetSupport {
        sets: <Escampe as plateau_core::net::NetInputs>::INPUT_SETS,
        symmetries: 1,
        features: |_, encoding, text, us, them| {
            crate::net_features::<Escampe>(encoding, text, us, them)
        },
        input_maps: None,
        engine: |_, net, profile, seed| {
            Ok(engine::with_network::<Escampe, _>(
                profile,
                seed,
                net,
                EscampeEval::standard(),
                search,
            ))
        },
        defaults: &[network],
    }),
};

embedded_network! {
    /// The network `master` plays in Escampe: 148 inputs, 128 hidden,
    /// trained on 1.1 M positions of self-play (docs/learning.md has the
    /// commands and the match that made it the default).
    fn network = "escampe-148x128-23beef57c191b81a.net"
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_embedded_network_is_the_named_one() {
        let net = super::network();
        let inputs = plateau_escampe::inputs::INPUTS;
        crate::tests::check_embedded_network(&net, "escampe", inputs, 128, "23beef57c191b81a");
    }
}
