//! The fast generator against the slow reference model (an array board, every
//! capture path tried square by square): same move sets, same positions after
//! each move, on more than 100 000 positions from random games.

use plateau_core::{Game, MoveList, Rng};
use plateau_draughts::reference::{RefMove, Reference};
use plateau_draughts::{Draughts, Move};

fn as_reference(mv: Move) -> RefMove {
    RefMove {
        from: mv.from().index(),
        to: mv.to().index(),
        captured: mv.captured().map(|s| s.index()).collect(),
    }
}

/// Plays random games from `start` until `positions` positions were compared.
fn cross_check(start: &Draughts, positions: usize, seed: u64) -> (usize, usize) {
    let mut rng = Rng::new(seed);
    let mut list = MoveList::new();
    let mut seen = 0;
    let mut multi = 0;
    let mut king_captures = 0;
    while seen < positions {
        // The draw rules would stop king endings early; the reference has none.
        let mut game = start.clone().with_draw_rules(false);
        for _ in 0..300 {
            let text = game.to_text();
            let reference = Reference::from_text(&text).expect("reference reads it");
            assert_eq!(reference.text(), text, "both models write the same text");
            game.legal_moves(&mut list);
            let mut fast: Vec<RefMove> = list.iter().map(|&m| as_reference(m)).collect();
            fast.sort();
            let slow = reference.moves();
            assert_eq!(fast, slow, "move sets differ in {text}");
            for &mv in list.iter() {
                if mv.capture_count() >= 2 {
                    multi += 1;
                }
                if mv.is_capture() && game.kings(game.side_to_move()) & mv.from().bit() != 0 {
                    king_captures += 1;
                }
                let mut next = game.clone();
                next.play(mv);
                assert_eq!(
                    next.to_text(),
                    reference.after(&as_reference(mv)).text(),
                    "{} from {text} leads to different positions",
                    mv.hub()
                );
            }
            seen += 1;
            let Some(&mv) = rng.choose(&list) else {
                break;
            };
            game.play(mv);
        }
    }
    (multi, king_captures)
}

#[test]
fn fast_and_slow_generators_agree_on_100_000_positions() {
    let (multi, kings) = cross_check(&Draughts::new(), 80_000, 2024);
    assert!(multi > 1000, "multiple captures were covered ({multi})");
    assert!(kings > 1000, "and king captures ({kings})");
    // Positions rich in kings, where flying captures branch most.
    let crowded =
        Draughts::from_text("W:WK46,K47,K48,31,32,33,34,35,K42:BK1,K2,K3,16,17,18,19,20,K9")
            .unwrap();
    let (multi, kings) = cross_check(&crowded, 30_000, 7);
    assert!(multi > 1000 && kings > 5000, "{multi} {kings}");
}
