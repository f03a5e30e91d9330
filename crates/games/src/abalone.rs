//! Abalone in the registry.

use crate::{
    GameInfo, GameSpec, NetSupport, SideInfo, Tuning, VariantInfo, engine, erase, erase_file,
};
use plateau_abalone::conversion::CONVERSION_WEIGHTS;
use plateau_abalone::symmetry::LAYOUT_SYMMETRIES;
use plateau_abalone::{Abalone, AbaloneEval, AtTheLimit, Layout};
use plateau_core::Game;
use plateau_search::Options;

/// The layout a spec names (the default, `standard`, for anything unknown).
fn layout(spec: &GameSpec) -> Layout {
    Layout::from_name(spec.variant).unwrap_or(Layout::Standard)
}

/// What Abalone keeps of the selective search: everything, for now.
fn search(_options: &mut Options) {}

pub(crate) static INFO: GameInfo = GameInfo {
    name: "abalone",
    title: "Abalone",
    description: "61-cell hexagon, push lines of marbles; first to eject six wins",
    variants: &[
        VariantInfo {
            name: "standard",
            description: "the classic start: each side on its two back rows and three marbles in front",
        },
        VariantInfo {
            name: "belgian-daisy",
            description: "the tournament start: two hexagonal daisies per side",
        },
        VariantInfo {
            name: "german-daisy",
            description: "daisies one row further in",
        },
    ],
    position_example: "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b b0 w0",
    opening_plies: 4,
    draw_by_agreement: true,
    sides: [
        SideInfo {
            name: "White",
            note: "",
        },
        SideInfo {
            name: "Black",
            note: "moves first",
        },
    ],
    bench_positions: &[
        "5/1www2/2wwww1/3www2/2bbww3/2bwb1b1/1bwbbb1/1bbbb1/1b3 b b0 w0",
        "5/3w2/2w1ww1/3wbw2/2bbww3/1wbwww2/1bbbww1/1bbbbb/1b3 b b1 w0",
        "5/2w3/1wwwww1/2wwww2/3wwwwb1/2bbbb2/1bbbb2/1bbbb1/3b1 b b0 w0",
        "2bb1/3bb1/3ww2/1wbww1b1/1bbbww1b1/1bbww3/1bww3/2bw1w/5 b b0 w1",
        "5/2bbb1/1bb1bb1/2www1b1/bwbwbwb2/1wwwww2/2ww3/1bb3/5 b b0 w1",
        "2bw1/2bbb1/3bb2/2wwwb2/2wbbbw2/bbwww3/1bwww2/1bw3/5 b b0 w1",
        "3b1/3ww1/2w1b2/1bwbw3/2bbbbw2/1wbbbw2/2www2/1ww3/b4 b b2 w1",
        "5/1w4/2bbb2/1wwbwbb1/2w1bwb2/1bw1bb2/bwwbw2/www3/b4 b b0 w1",
        "5/6/2wwbb1/2bbwb2/1wwbbbw2/2wbbb2/1ww4/bww3/w4 b b2 w2",
        "1w3/4b1/3wb2/3bb1b1/1bwbwww2/3ww1w1/1wwwbb1/2bbwb/5 b b2 w1",
    ],
    bench_depth: 7,
    new_game: |spec| erase(spec, Abalone::start(layout(spec))),
    from_text: |spec, text| Ok(erase(spec, Abalone::from_text(text)?)),
    from_file: erase_file::<Abalone>,
    move_limit: Some(|spec, plies| {
        let start = Abalone::start(layout(spec))
            .with_max_plies(plies)
            .with_at_the_limit(AtTheLimit::MoreMarblesWin);
        erase(spec, start)
    }),
    engine: |_, profile, seed| {
        engine::build(profile, seed, standard_eval, AbaloneEval::seed, search)
    },
    tuning: Tuning {
        features: &plateau_abalone::eval::FEATURE_NAMES,
        seed_weights: &plateau_abalone::eval::SEED_WEIGHTS,
        default_weights: &plateau_abalone::eval::DEFAULT_WEIGHTS,
        engine: |_, weights, profile, seed| {
            engine::weighted::<Abalone, _>(
                profile,
                seed,
                AbaloneEval::with_weights(weights).map(with_conversion),
                search,
            )
        },
    },
    solve: None,
    net: Some(NetSupport {
        sets: <Abalone as plateau_core::net::NetInputs>::INPUT_SETS,
        symmetries: LAYOUT_SYMMETRIES,
        features: |spec, encoding, text, us, them| {
            let symmetries = layout(spec).symmetries();
            crate::net_features_with::<Abalone>(encoding, text, us, them, |game, s| {
                game.transformed(symmetries[s])
            })
        },
        input_maps: None,
        engine: |_, net, profile, seed| {
            Ok(engine::with_network::<Abalone, _>(
                profile,
                seed,
                net,
                standard_eval(),
                search,
            ))
        },
        defaults: &[
            belgian_daisy_network,
            german_daisy_network,
            standard_network,
        ],
    }),
};

/// `eval` with the conversion term at the share the engine is built with
/// (`convert=N`).
fn with_conversion(eval: AbaloneEval) -> AbaloneEval {
    eval.with_conversion(CONVERSION_WEIGHTS, crate::knowledge::conversion_percent())
}

/// plateau's evaluation, as [`with_conversion`] sets it.
fn standard_eval() -> AbaloneEval {
    with_conversion(AbaloneEval::standard())
}

embedded_network! {
    /// The network `master` plays in Abalone's Belgian daisy: 122 inputs,
    /// 128 hidden, trained on 0.94 M positions of self-play (docs/learning.md
    /// has the commands and the match that made it the default).
    fn belgian_daisy_network = "abalone-belgian-daisy-122x128-4ed2bafb4eb26bd0.net"
}

embedded_network! {
    /// The network `master` plays in the German daisy: the Belgian daisy's
    /// recipe on that layout's self-play, 0.92 M positions, each trained on
    /// with its half-turn image (docs/learning.md).
    fn german_daisy_network = "abalone-german-daisy-122x128-34f18b7182b2f896.net"
}

embedded_network! {
    /// The network `master` plays in the standard layout: 1.03 M positions
    /// of self-play under the site's move limit (so that a lasting lead
    /// teaches a win, not the ply cap's draw), each trained on with its
    /// mirror image (docs/learning.md).
    fn standard_network = "abalone-standard-122x128-9e46118c96cf39a7.net"
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_embedded_networks_are_the_named_ones() {
        let inputs = plateau_abalone::inputs::INPUTS;
        for (net, game, hash) in [
            (
                super::belgian_daisy_network(),
                "abalone/belgian-daisy",
                "4ed2bafb4eb26bd0",
            ),
            (
                super::german_daisy_network(),
                "abalone/german-daisy",
                "34f18b7182b2f896",
            ),
            (
                super::standard_network(),
                "abalone/standard",
                "9e46118c96cf39a7",
            ),
        ] {
            crate::tests::check_embedded_network(&net, game, inputs, 128, hash);
        }
    }

    /// `convert=0` plays the evaluation without the conversion term, with
    /// the network and without: a lead of three scores differently, an
    /// even position the same.
    #[test]
    fn the_conversion_term_is_played_unless_switched_off() {
        use crate::Limits;
        let score = |variant: &str, engine: &str, position: &str| {
            let spec = crate::GameSpec::lookup("abalone", Some(variant)).unwrap();
            let choice = spec.parse_engine(engine).unwrap();
            let mut engine = spec.build_engine(&choice, 1).unwrap();
            let game = spec.from_text(position).unwrap();
            engine
                .think(game.as_ref(), &Limits::depth(1), &mut |_| {})
                .unwrap()
                .score
        };
        let ahead = "5/1wb3/wwwbbb1/1wbbww2/1bwwbw3/1bwbb3/2bb3/2b3/5 b b0 w3";
        for variant in ["belgian-daisy", "standard"] {
            let even = crate::GameSpec::lookup("abalone", Some(variant))
                .unwrap()
                .new_game()
                .to_text();
            let even = even.as_str();
            for eval in ["", ",eval=classic"] {
                let on = score(variant, &format!("master{eval}"), ahead);
                let off = score(variant, &format!("master{eval},convert=0"), ahead);
                assert!(on > off, "{variant}{eval}: {on} against {off}");
                let on = score(variant, &format!("master{eval}"), even);
                let off = score(variant, &format!("master{eval},convert=0"), even);
                assert_eq!(on, off, "{variant}{eval}");
            }
        }
    }

    /// The engine plays the room's rule: one ply before the move limit, a
    /// marble ahead, every move wins; under the plain ply limit it is a draw.
    /// And a room's game under the limit starts as the plain one.
    #[test]
    fn the_search_sees_the_win_at_the_move_limit() {
        use plateau_abalone::{Abalone, AtTheLimit};
        use plateau_core::Game;
        use plateau_search::score::is_decisive;
        let spec = crate::GameSpec::lookup("abalone", None).unwrap();
        let ahead = "wwww1/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b b0 w1";
        let position = Abalone::from_text(ahead).unwrap().with_max_plies(1);
        for (rule, wins) in [
            (AtTheLimit::MoreMarblesWin, true),
            (AtTheLimit::Draw, false),
        ] {
            for level in [crate::Level::Expert, crate::Level::Master] {
                let profile = crate::Profile::Level(level);
                let game = crate::erase(&spec, position.clone().with_at_the_limit(rule));
                let mut engine = spec.engine(profile, 1);
                let thought = engine
                    .think(game.as_ref(), &crate::Limits::depth(3), &mut |_| {})
                    .unwrap();
                assert_eq!(
                    is_decisive(thought.score) && thought.score > 0,
                    wins,
                    "{rule:?}, {profile:?}: {}",
                    thought.score
                );
            }
        }
        let limited = spec.new_game_with_move_limit(200).expect("Abalone has one");
        assert_eq!(limited.to_text(), spec.new_game().to_text());
        assert!(limited.to_file().contains("max plies: 200"));
        assert!(limited.to_file().contains("at the limit: marbles"));
    }

    #[test]
    fn each_layout_plays_its_own_network() {
        for variant in ["belgian-daisy", "standard", "german-daisy"] {
            let spec = crate::GameSpec::lookup("abalone", Some(variant)).unwrap();
            let net = spec.default_network().expect(variant);
            assert_eq!(net.game, spec.full_name());
        }
    }
}
