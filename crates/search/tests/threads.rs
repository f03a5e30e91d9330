//! Lazy SMP: a depth limit is met by whichever thread completes it first, and
//! that thread's line is the answer.

use plateau_core::{Evaluator, Game, MoveList};
use plateau_escampe::{Escampe, EscampeEval};
use plateau_search::{Engine, Limits, Options};
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread::{self, ThreadId};
use std::time::Duration;

/// A middle-game position with a few dozen moves.
const POSITION: &str = "nn4/1N1nb1/2n3/2b1n1/b2b1B/1b4 w 3";
const DEPTH: u32 = 9;

/// Escampe's evaluation, slowed down on one thread, counting that thread's
/// calls: with the main thread slowed, only a helper can finish in time.
struct SlowOnOneThread {
    inner: EscampeEval,
    slow: ThreadId,
    delay: Duration,
    slow_calls: AtomicU64,
}

impl SlowOnOneThread {
    fn new(slow: ThreadId, delay: Duration) -> SlowOnOneThread {
        SlowOnOneThread {
            inner: EscampeEval::standard(),
            slow,
            delay,
            slow_calls: AtomicU64::new(0),
        }
    }
}

impl Evaluator<Escampe> for SlowOnOneThread {
    fn evaluate(&self, game: &Escampe) -> i32 {
        if thread::current().id() == self.slow {
            self.slow_calls.fetch_add(1, Ordering::Relaxed);
            thread::sleep(self.delay);
        }
        self.inner.evaluate(game)
    }
}

fn options(threads: usize) -> Options {
    Options {
        threads,
        ..Options::full()
    }
}

#[test]
fn a_helper_that_completes_the_depth_first_gives_the_answer() {
    let game = Escampe::from_text(POSITION).unwrap();
    // How many evaluations one thread needs for the depth.
    let counted = SlowOnOneThread::new(thread::current().id(), Duration::ZERO);
    let mut alone = Engine::new(counted, options(1));
    let single = alone.search(&game, &Limits::depth(DEPTH), |_| {});
    assert_eq!(single.depth, DEPTH);
    let needed = alone.evaluator().slow_calls.load(Ordering::Relaxed);
    assert!(needed > 1000, "only {needed} evaluations at depth {DEPTH}");

    // The main thread (this one) now takes 1 ms an evaluation: alone, it
    // would need seconds for the depth; the helper runs at full speed.
    let slowed = SlowOnOneThread::new(thread::current().id(), Duration::from_millis(1));
    let mut pair = Engine::new(slowed, options(2));
    let mut reported = Vec::new();
    let result = pair.search(&game, &Limits::depth(DEPTH), |info| {
        reported.push(info.depth)
    });
    let main_calls = pair.evaluator().slow_calls.load(Ordering::Relaxed);
    // The main thread stopped short: it never completed the depth before.
    assert!(
        !reported.contains(&(DEPTH - 1)),
        "the main thread went on to depth {} after {main_calls} evaluations \
         (depths reported: {reported:?}): the search did not end when the \
         helper completed depth {DEPTH}",
        DEPTH - 1
    );
    assert!(main_calls < needed, "{main_calls} evaluations of {needed}");
    assert_eq!(result.depth, DEPTH);
    assert_eq!(
        reported.last(),
        Some(&DEPTH),
        "depths reported: {reported:?}"
    );
    // The answer is the helper's line, and a legal one.
    assert_eq!(result.pv.first(), result.best.as_ref());
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
