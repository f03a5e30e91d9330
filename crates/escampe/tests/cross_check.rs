//! The fast generator against the slow reference model (array board, recursive
//! path search), as the seed's VerifMoves did: same move sets, same positions.

use plateau_core::{Game, MoveList, Rng};
use plateau_escampe::reference::Reference;
use plateau_escampe::{Escampe, Move, Phase};

fn random_placement(game: &Escampe, rng: &mut Rng) -> Move {
    let mut list = MoveList::new();
    game.legal_moves(&mut list);
    *rng.choose(&list).expect("placements exist")
}

#[test]
fn fast_and_slow_generators_agree_on_100_000_positions() {
    let mut rng = Rng::new(2024);
    let mut positions = 0;
    let mut passes = 0;
    let mut captures = 0;
    let mut list = MoveList::new();
    while positions < 100_000 {
        let mut game = Escampe::new();
        while game.phase() != Phase::Play {
            let mv = random_placement(&game, &mut rng);
            game.play(mv);
        }
        while game.outcome().is_none() && game.ply() < 300 {
            let text = game.to_text();
            let reference = Reference::from_text(&text).expect("reference reads it");
            assert_eq!(reference.text(), text, "both models write the same text");
            game.legal_moves(&mut list);
            let fast: Vec<(usize, usize)> = {
                let mut steps: Vec<_> = list
                    .iter()
                    .filter_map(|m| match *m {
                        Move::Step { from, to } => Some((from.index(), to.index())),
                        _ => None,
                    })
                    .collect();
                steps.sort_unstable();
                steps
            };
            let slow = reference.steps();
            assert_eq!(fast, slow, "move sets differ in {text}");
            if slow.is_empty() {
                assert_eq!(
                    &list[..],
                    [Move::Pass],
                    "a side without moves passes in {text}"
                );
                passes += 1;
            }
            for &mv in list.iter() {
                let step = match mv {
                    Move::Step { from, to } => Some((from.index(), to.index())),
                    _ => None,
                };
                let mut next = game.clone();
                next.play(mv);
                if next.outcome().is_some() {
                    captures += 1;
                }
                assert_eq!(
                    next.to_text(),
                    reference.after(step).text(),
                    "{mv} from {text} leads to different positions"
                );
            }
            positions += 1;
            let mv = *rng.choose(&list).expect("a live game has a move");
            game.play(mv);
        }
    }
    assert!(
        passes > 100,
        "the random games covered forced passes ({passes})"
    );
    assert!(captures > 1000, "and captures ({captures})");
}
