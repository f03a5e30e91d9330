//! The fast generators against the slow reference model (array board, loops over
//! every cell): same move sets, same ends and final scores, same positions after
//! every move, on random games of both variants and every board size.

use plateau_ataxx::reference::Reference;
use plateau_ataxx::{Ataxx, Bits, Virus, VirusGame, VirusWide};
use plateau_core::{EndReason, Game, MoveList, Rng};

/// What the two games share beyond [`Game`], for the driver below.
trait Scored: Game {
    fn final_score(&self) -> Option<i32>;
}

impl Scored for Ataxx {
    fn final_score(&self) -> Option<i32> {
        Ataxx::final_score(self)
    }
}

impl<B: Bits> Scored for VirusGame<B> {
    fn final_score(&self) -> Option<i32> {
        VirusGame::final_score(self)
    }
}

#[derive(Default, Debug)]
struct Coverage {
    positions: usize,
    moves: usize,
    finished: usize,
    passes: usize,
    rule_draws: usize,
}

/// Plays one random game from `start`, comparing both models at every position.
fn drive<G: Scored>(start: &G, full: bool, rng: &mut Rng, coverage: &mut Coverage) {
    let mut game = start.clone();
    let mut reference = Reference::from_text(&game.to_text(), full).expect("reference reads it");
    let mut earlier: Vec<String> = Vec::new();
    let mut list = MoveList::new();
    loop {
        let text = game.to_text();
        assert_eq!(reference.text(), text, "both models write the same text");
        game.legal_moves(&mut list);
        let mut fast: Vec<String> = list.iter().map(|&m| game.format_move(m)).collect();
        fast.sort();
        assert_eq!(
            fast,
            reference.moves(&earlier),
            "move sets differ in {text}"
        );
        assert_eq!(
            game.final_score(),
            reference.final_score(&earlier),
            "final scores differ in {text}"
        );
        coverage.positions += 1;
        if list.is_empty() {
            coverage.finished += 1;
            if game.outcome().is_some_and(|o| {
                o.winner.is_none()
                    && matches!(o.reason, EndReason::HalfmoveClock | EndReason::Repetition)
            }) {
                coverage.rule_draws += 1;
            }
            return;
        }
        for &mv in list.iter() {
            let notation = game.format_move(mv);
            let mut next = game.clone();
            next.play(mv);
            assert_eq!(
                next.to_text(),
                reference.after(&notation).text(),
                "{notation} from {text} leads to different positions"
            );
            coverage.moves += 1;
        }
        let &mv = rng.choose(&list).expect("a live game has a move");
        let notation = game.format_move(mv);
        if notation == "0000" {
            coverage.passes += 1;
        }
        earlier.push(reference.key());
        reference = reference.after(&notation);
        game.play(mv);
    }
}

/// A 7x7 layout with random blocked cells (never the corners), mirrored like the
/// usual Ataxx layouts, sometimes with a late halfmove clock.
fn random_ataxx(rng: &mut Rng) -> Ataxx {
    let mut rows = [['.'; 7]; 7];
    for rank in 0..7 {
        for file in 0..7 {
            if rng.below(10) == 0 {
                rows[rank][file] = '-';
                rows[6 - rank][6 - file] = '-';
            }
        }
    }
    rows[6][0] = 'x';
    rows[0][6] = 'x';
    rows[6][6] = 'o';
    rows[0][0] = 'o';
    let board: Vec<String> = (0..7)
        .rev()
        .map(|rank| {
            let mut out = String::new();
            let mut run = 0;
            for &c in &rows[rank] {
                if c == '.' {
                    run += 1;
                    continue;
                }
                if run > 0 {
                    out += &run.to_string();
                    run = 0;
                }
                out.push(c);
            }
            if run > 0 {
                out += &run.to_string();
            }
            out
        })
        .collect();
    let clock = if rng.below(4) == 0 { 97 } else { 0 };
    Ataxx::from_text(&format!("{} x {clock} 1", board.join("/"))).expect("a legal layout")
}

#[test]
fn ataxx_agrees_with_the_reference_on_60_000_positions() {
    let mut rng = Rng::new(7);
    let mut coverage = Coverage::default();
    let standard = Ataxx::new();
    let mut games = 0;
    while coverage.positions < 60_000 {
        let start = if games % 2 == 0 {
            standard.clone()
        } else {
            random_ataxx(&mut rng)
        };
        drive(&start, true, &mut rng, &mut coverage);
        games += 1;
    }
    assert!(coverage.finished == games);
    assert!(
        coverage.passes > 20,
        "forced passes were covered: {coverage:?}"
    );
    assert!(
        coverage.rule_draws > 5,
        "the halfmove rule was covered: {coverage:?}"
    );
}

#[test]
fn virus_agrees_with_the_reference_on_every_size() {
    let mut rng = Rng::new(11);
    let mut coverage = Coverage::default();
    let mut games = 0;
    while coverage.positions < 40_000 {
        for n in 4..=9 {
            if n <= 8 {
                drive(&Virus::new(n).unwrap(), false, &mut rng, &mut coverage);
                games += 1;
            }
            drive(&VirusWide::new(n).unwrap(), false, &mut rng, &mut coverage);
            games += 1;
        }
    }
    assert_eq!(coverage.finished, games);
}

#[test]
fn both_widths_count_the_same_trees() {
    for n in 4..=8 {
        let mut narrow = Virus::new(n).unwrap();
        let mut wide = VirusWide::new(n).unwrap();
        for depth in 1..=4 {
            assert_eq!(
                plateau_core::perft(&mut narrow, depth),
                plateau_core::perft(&mut wide, depth),
                "{n}x{n} depth {depth}"
            );
        }
    }
}
