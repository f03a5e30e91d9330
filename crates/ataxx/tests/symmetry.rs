//! The eight symmetries of the square board map positions and moves
//! consistently: a position and its image have the same number of legal
//! moves and the same perft, and playing a move then taking the image gives
//! the image with the move's image played. What training on a position's
//! images (eight samples for one search) relies on.

use plateau_ataxx::symmetry::{SYMMETRIES, move_image};
use plateau_ataxx::{Ataxx, Move, Virus};
use plateau_core::{Game, MoveList, Rng, perft};

/// Positions along random playouts from `start`.
fn positions<G: Game>(start: &G, games: usize, plies: usize, seed: u64) -> Vec<G> {
    let mut rng = Rng::new(seed);
    let mut moves = MoveList::new();
    let mut found = Vec::new();
    for _ in 0..games {
        let mut game = start.clone();
        for _ in 0..plies {
            if game.outcome().is_some() {
                break;
            }
            found.push(game.clone());
            game.legal_moves(&mut moves);
            let Some(&mv) = rng.choose(&moves) else {
                break;
            };
            game.play(mv);
        }
    }
    found
}

/// The board and side of a position text (the move counters are the same by
/// construction; the repetition history is not carried).
fn board_of(text: &str) -> String {
    text.split_whitespace()
        .take(2)
        .collect::<Vec<_>>()
        .join(" ")
}

/// For each position and symmetry: the same move count and perft, and
/// "play, then map" equal to "map, then play the mapped move".
fn check<G: Game<Move = Move>>(
    positions: &[G],
    n: usize,
    image: impl Fn(&G, usize) -> G,
    depth: u32,
) {
    let mut moves = MoveList::new();
    let mut image_moves = MoveList::new();
    for (i, position) in positions.iter().enumerate() {
        let text = position.to_text();
        assert_eq!(board_of(&image(position, 0).to_text()), board_of(&text));
        position.legal_moves(&mut moves);
        for symmetry in 0..SYMMETRIES {
            let mut mapped = image(position, symmetry);
            let shown = mapped.to_text();
            mapped.legal_moves(&mut image_moves);
            assert_eq!(moves.len(), image_moves.len(), "{text} / {shown}");
            if i % 8 == 0 {
                assert_eq!(
                    perft(&mut position.clone(), depth),
                    perft(&mut mapped, depth),
                    "perft {depth} of {text} and its image {symmetry} {shown}"
                );
            }
            for &mv in moves.iter() {
                let mapped_move = move_image(mv, n, symmetry);
                assert!(
                    image_moves.contains(&mapped_move),
                    "{text}: the image {symmetry} of {mv} is not legal in {shown}"
                );
                let mut after = position.clone();
                after.play(mv);
                let mut mapped_after = mapped.clone();
                mapped_after.play(mapped_move);
                assert_eq!(
                    board_of(&image(&after, symmetry).to_text()),
                    board_of(&mapped_after.to_text()),
                    "{text}, symmetry {symmetry}, move {mv}"
                );
            }
        }
    }
}

#[test]
fn ataxx_images_have_the_same_moves_and_perft() {
    for (start, seed) in [
        (Ataxx::new(), 1),
        (
            Ataxx::from_text("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1").unwrap(),
            2,
        ),
        (
            Ataxx::from_text("x4-o/7/1-5/7/5-1/7/o-4x x 0 1").unwrap(),
            3,
        ),
    ] {
        let found = positions(&start, 6, 60, seed);
        assert!(found.len() > 200);
        check(&found, 7, |game: &Ataxx, s| game.transformed(s), 2);
    }
}

#[test]
fn virus_images_have_the_same_moves_and_perft() {
    for n in [5, 7, 8] {
        let found = positions(&Virus::new(n).unwrap(), 6, 40, n as u64);
        assert!(found.len() > 100);
        check(&found, n, |game: &Virus, s| game.transformed(s), 3);
    }
}

#[test]
fn the_eight_images_of_an_asymmetric_position_differ() {
    let game = Ataxx::from_text("xx3oo/7/x2o3/7/7/7/o4x1 x 0 1").unwrap();
    let mut images: Vec<String> = (0..SYMMETRIES)
        .map(|s| board_of(&game.transformed(s).to_text()))
        .collect();
    images.sort();
    images.dedup();
    assert_eq!(images.len(), SYMMETRIES);
}
