//! Lazy SMP: a depth limit is met by whichever thread completes it first, and
//! that thread's line is the answer.

use plateau_core::{Evaluator, Game, MoveList};
use plateau_escampe::{Escampe, EscampeEval};
use plateau_search::{Engine, Limits, Options};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::{self, ThreadId};
use std::time::{Duration, Instant};

/// A middle-game position with a few dozen moves.
const POSITION: &str = "nn4/1N1nb1/2n3/2b1n1/b2b1B/1b4 w 3";
const DEPTH: u32 = 9;

/// Escampe's evaluation, except that the main thread's first call waits until
/// the helpers have stopped evaluating (done with the depth, or never to
/// finish it alone): whatever the machine's load, only a helper can complete
/// an iteration before that.
struct HeldMainThread {
    inner: EscampeEval,
    main: ThreadId,
    released: AtomicBool,
    helper_calls: AtomicU64,
}

impl Evaluator<Escampe> for HeldMainThread {
    fn evaluate(&self, game: &Escampe) -> i32 {
        if thread::current().id() != self.main {
            self.helper_calls.fetch_add(1, Ordering::Relaxed);
        } else if !self.released.swap(true, Ordering::Relaxed) {
            // Held until the helpers' count has not moved for 200 ms, at
            // most 60 s.
            let started = Instant::now();
            let (mut last, mut still_since) = (u64::MAX, Instant::now());
            while started.elapsed() < Duration::from_secs(60) {
                let calls = self.helper_calls.load(Ordering::Relaxed);
                if calls != last {
                    (last, still_since) = (calls, Instant::now());
                } else if calls > 0 && still_since.elapsed() > Duration::from_millis(200) {
                    break;
                }
                thread::sleep(Duration::from_millis(5));
            }
        }
        self.inner.evaluate(game)
    }
}

#[test]
fn a_helper_that_completes_the_depth_first_gives_the_answer() {
    let game = Escampe::from_text(POSITION).unwrap();
    let evaluator = HeldMainThread {
        inner: EscampeEval::standard(),
        main: thread::current().id(),
        released: AtomicBool::new(false),
        helper_calls: AtomicU64::new(0),
    };
    let options = Options {
        threads: 2,
        ..Options::full()
    };
    let mut engine = Engine::new(evaluator, options);
    let mut reported = Vec::new();
    let result = engine.search(&game, &Limits::depth(DEPTH), |info| {
        reported.push(info.depth)
    });
    // The main thread, held in its first evaluation until the helper was
    // done, completed no iteration of its own: the one depth reported is the
    // helper's.
    assert_eq!(
        reported,
        vec![DEPTH],
        "the main thread went on searching after the helper completed depth {DEPTH}"
    );
    assert_eq!(result.depth, DEPTH);
    // The answer is the helper's line, and a legal one.
    assert_eq!(result.pv.first(), result.best.as_ref());
    assert!(result.pv.len() > 1, "a line of {} move", result.pv.len());
    let mut line = game.clone();
    for &mv in &result.pv {
        let mut legal = MoveList::new();
        line.legal_moves(&mut legal);
        assert!(
            legal.contains(&mv),
            "{} is not legal in {}",
            line.format_move(mv),
            line.to_text()
        );
        line.play(mv);
    }
}
