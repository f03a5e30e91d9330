//! The fast generator against the slow reference model (array board, every group
//! tried in every direction): same move sets, same resulting positions.

use plateau_abalone::reference::{Content, RefMove, Reference};
use plateau_abalone::{Abalone, Layout, Move};
use plateau_core::{Game, MoveList, Rng, Side};

/// The fast position as the reference model sees it.
fn as_reference(game: &Abalone) -> Reference {
    let mut cells = [Content::Empty; 81];
    for (side, content) in [(Side::Black, Content::Black), (Side::White, Content::White)] {
        for cell in plateau_abalone::Cell::all() {
            if game.marbles(side) & cell.bit() != 0 {
                cells[(cell.row() * 9 + cell.diagonal()) as usize] = content;
            }
        }
    }
    Reference {
        cells,
        black_to_move: game.side_to_move() == Side::Black,
        lost: [game.lost(Side::Black), game.lost(Side::White)],
    }
}

fn as_ref_move(mv: Move) -> RefMove {
    let mut group: Vec<(i32, i32)> = mv.marbles().map(|c| (c.row(), c.diagonal())).collect();
    group.sort_unstable();
    (group, mv.direction().offsets())
}

#[test]
fn fast_and_slow_generators_agree_on_100_000_positions() {
    let mut rng = Rng::new(2024);
    let mut positions = 0;
    let (mut pushes, mut ejections, mut broadsides) = (0, 0, 0);
    let mut list = MoveList::new();
    let mut game_index = 0;
    while positions < 100_000 {
        let layout = Layout::ALL[game_index % 3];
        game_index += 1;
        let mut game = Abalone::start(layout);
        while game.outcome().is_none() && game.ply() < 300 {
            let text = game.to_text();
            let reference = Reference::from_text(&text).expect("reference reads it");
            assert_eq!(reference.text(), text, "both models write the same text");
            assert_eq!(
                as_reference(&game),
                reference,
                "both models read {text} alike"
            );
            game.legal_moves(&mut list);
            let mut fast: Vec<RefMove> = list.iter().map(|&m| as_ref_move(m)).collect();
            fast.sort_unstable();
            let slow = reference.moves();
            assert_eq!(fast, slow, "move sets differ in {text}");
            for &mv in list.iter() {
                pushes += usize::from(mv.pushed() > 0);
                ejections += usize::from(mv.ejects());
                broadsides += usize::from(!mv.is_inline());
                game.play(mv);
                let expected = reference.after(&as_ref_move(mv));
                if as_reference(&game) != expected {
                    panic!(
                        "{mv} from {text} gives {} instead of {}",
                        game.to_text(),
                        expected.text()
                    );
                }
                game.undo(mv);
            }
            positions += 1;
            // Prefer pushes now and then, so that games reach contact and
            // ejections rather than wandering.
            let pushing: Vec<Move> = list.iter().copied().filter(|m| m.pushed() > 0).collect();
            let mv = if !pushing.is_empty() && rng.below(2) == 0 {
                *rng.choose(&pushing).expect("not empty")
            } else {
                *rng.choose(&list).expect("a live game has a move")
            };
            game.play(mv);
        }
    }
    assert!(pushes > 50_000, "the games covered pushes ({pushes})");
    assert!(ejections > 5_000, "and ejections ({ejections})");
    assert!(broadsides > 1_000_000, "and broadsides ({broadsides})");
}
