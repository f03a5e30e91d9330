//! Ranks Black's Escampe placements by how well they resist White's best reply.
//!
//! White places second and moves first, free: most Black placements lose by
//! force to some White placement. Two stages:
//!
//! 1. screening: each Black candidate (the best by `placement_score`, plus the
//!    seed's book) against every one of White's 5 544 replies, each searched
//!    shallowly; a candidate is dropped as soon as one reply wins by force;
//! 2. ranking: the survivors (the best `KEEP` of them) get a full search of
//!    White's placement at `DEEP_DEPTH`, as plateau's White plays it in a game,
//!    and are ranked by White's score, lowest first.
//!
//! The output is `crates/escampe/src/placement_book.txt`.
//!
//! cargo run --release -p plateau-games --example escampe_placements -- [CANDIDATES] [DEPTH] [KEEP] [DEEP_DEPTH]

use plateau_core::{Game, MoveList};
use plateau_escampe::eval::{book_placement, placement_score};
use plateau_escampe::{Escampe, EscampeEval, Move};
use plateau_search::{Engine, Limits, Options, score};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

fn main() {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<u32>().ok());
    let candidates = args.next().flatten().unwrap_or(300) as usize;
    let depth = args.next().flatten().unwrap_or(7);
    let keep = args.next().flatten().unwrap_or(40) as usize;
    let deep_depth = args.next().flatten().unwrap_or(11);
    let start = Escampe::new();
    let mut placements = MoveList::new();
    start.legal_moves(&mut placements);
    let mut ranked: Vec<(i32, Move)> = placements
        .iter()
        .map(|&mv| (placement_score(&start, mv), mv))
        .collect();
    ranked.sort_by_key(|r| std::cmp::Reverse(r.0));
    let mut chosen: Vec<Move> = ranked.iter().take(candidates).map(|&(_, mv)| mv).collect();
    let seed_book = book_placement(&start);
    if let Some(book) = seed_book
        && !chosen.contains(&book)
    {
        chosen.push(book);
    }

    // Stage 1: screening against every reply, each searched shallowly.
    let screened = parallel(&chosen, |engine, black| {
        let mut position = start.clone();
        position.play(black);
        let mut replies = MoveList::new();
        position.legal_moves(&mut replies);
        let mut white_best = i32::MIN;
        for &white in replies.iter() {
            let mut after = position.clone();
            after.play(white);
            let limits = Limits {
                depth: Some(depth),
                nodes: Some(50_000),
                ..Limits::default()
            };
            let result = engine.search(&after, &limits, |_| {});
            white_best = white_best.max(result.score);
            if score::is_decisive(result.score) && result.score > 0 {
                return None;
            }
        }
        Some(white_best)
    });
    let mut survivors: Vec<(i32, Move)> = screened
        .into_iter()
        .filter_map(|(mv, s)| s.map(|s| (s, mv)))
        .collect();
    survivors.sort_by_key(|&(s, _)| s);
    eprintln!(
        "stage 1: {} of {} candidates survive",
        survivors.len(),
        chosen.len()
    );
    let mut finalists: Vec<Move> = survivors.iter().take(keep).map(|&(_, mv)| mv).collect();
    if let Some(book) = seed_book
        && !finalists.contains(&book)
    {
        finalists.push(book);
    }

    // Stage 2: White's full placement search, as in a game.
    let deep = parallel(&finalists, |engine, black| {
        let mut position = start.clone();
        position.play(black);
        let result = engine.search(&position, &Limits::depth(deep_depth), |_| {});
        Some(result.score)
    });
    let mut deep: Vec<(i32, String)> = deep
        .into_iter()
        .filter_map(|(mv, s)| s.map(|s| (s, mv.to_string())))
        .collect();
    deep.sort();
    println!(
        "# Black placements ranked by White's best placement (full search, depth {deep_depth}),"
    );
    println!("# safest first; screened at depth {depth} against every White reply.");
    for (white_score, placement) in deep.iter().filter(|(s, _)| !score::is_decisive(*s)) {
        println!("{placement} {white_score}");
    }
}

/// Runs `job` on every placement on all cores, printing progress.
fn parallel(
    placements: &[Move],
    job: impl Fn(&mut Engine<Escampe, EscampeEval>, Move) -> Option<i32> + Sync,
) -> Vec<(Move, Option<i32>)> {
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let options = Options {
                    table_mb: 64,
                    ..Options::full()
                };
                let mut engine = Engine::new(EscampeEval::standard(), options);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&black) = placements.get(i) else {
                        break;
                    };
                    engine.new_game();
                    let result = job(&mut engine, black);
                    let shown = result.map_or("lost".to_string(), score::describe);
                    eprintln!("{:>4}/{}: {black} white {shown}", i + 1, placements.len());
                    results
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push((black, result));
                }
            });
        }
    });
    results.into_inner().unwrap_or_else(|e| e.into_inner())
}
