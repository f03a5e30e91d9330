//! Ranks Black's Escampe placements by how well they resist White's best reply.
//!
//! White places second and moves first, free: most Black placements lose by
//! force to some White placement. For each Black candidate (the best by
//! `placement_score`, plus the seed's book), this searches every one of White's
//! 5 544 replies and keeps White's best score; Black's placements are ranked by
//! the worst case. The result is `crates/escampe/src/placement_book.txt`.
//!
//! cargo run --release -p plateau-games --example escampe_placements -- [CANDIDATES] [DEPTH]

use plateau_core::{Game, MoveList};
use plateau_escampe::eval::{book_placement, placement_score};
use plateau_escampe::{Escampe, EscampeEval, Move};
use plateau_search::{Engine, Limits, Options, score};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

fn main() {
    let mut args = std::env::args().skip(1);
    let candidates: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(150);
    let depth: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(6);
    let start = Escampe::new();
    let mut placements = MoveList::new();
    start.legal_moves(&mut placements);
    let mut ranked: Vec<(i32, Move)> = placements
        .iter()
        .map(|&mv| (placement_score(&start, mv), mv))
        .collect();
    ranked.sort_by_key(|r| std::cmp::Reverse(r.0));
    let mut chosen: Vec<Move> = ranked.iter().take(candidates).map(|&(_, mv)| mv).collect();
    if let Some(book) = book_placement(&start)
        && !chosen.contains(&book)
    {
        chosen.push(book);
    }
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut engine = Engine::new(
                    EscampeEval::standard(),
                    Options {
                        table_mb: 16,
                        ..Options::full()
                    },
                );
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&black) = chosen.get(i) else { break };
                    let mut position = start.clone();
                    position.play(black);
                    let mut replies = MoveList::new();
                    position.legal_moves(&mut replies);
                    let mut white_best = i32::MIN;
                    let mut white_wins = 0;
                    for &white in replies.iter() {
                        let mut after = position.clone();
                        after.play(white);
                        let limits = Limits {
                            depth: Some(depth),
                            nodes: Some(50_000),
                            ..Limits::default()
                        };
                        let result = engine.search(&after, &limits, |_| {});
                        if score::is_decisive(result.score) && result.score > 0 {
                            white_wins += 1;
                        }
                        white_best = white_best.max(result.score);
                        // A forced White win already rules this placement out.
                        if white_wins > 0 {
                            break;
                        }
                    }
                    let line = (white_best, white_wins, black.to_string());
                    eprintln!(
                        "{:>4}/{}: {} white best {} ({} wins)",
                        i + 1,
                        chosen.len(),
                        line.2,
                        score::describe(line.0),
                        line.1
                    );
                    results.lock().unwrap().push(line);
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort();
    println!("# Black placements ranked by White's best reply (depth {depth}), safest first.");
    for (white_best, wins, placement) in results.iter().filter(|r| r.1 == 0).take(20) {
        println!("{placement} {white_best} {wins}");
    }
}
