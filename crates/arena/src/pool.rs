//! Runs independent jobs (games) on a few threads and hands back their results
//! in job order, so that a run with a fixed seed gives the same results
//! whatever the number of threads and whichever game finishes first.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Runs jobs `0..count` on `workers` threads. `done(index, &result)` is called
/// (one call at a time) as each job finishes; when it returns `false` no new
/// job starts, the running ones finish, and the jobs never started stay `None`.
pub fn run_jobs<T: Send>(
    count: usize,
    workers: usize,
    job: impl Fn(usize) -> T + Sync,
    done: impl FnMut(usize, &T) -> bool + Send,
) -> Vec<Option<T>> {
    run_jobs_with(count, workers, || (), |_, index| job(index), done)
}

/// [`run_jobs`] where each worker keeps a state of its own from job to job
/// (`init` makes it): engines reused from game to game.
pub fn run_jobs_with<S, T: Send>(
    count: usize,
    workers: usize,
    init: impl Fn() -> S + Sync,
    job: impl Fn(&mut S, usize) -> T + Sync,
    done: impl FnMut(usize, &T) -> bool + Send,
) -> Vec<Option<T>> {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let results: Mutex<Vec<Option<T>>> = Mutex::new((0..count).map(|_| None).collect());
    let done = Mutex::new(done);
    let workers = workers.clamp(1, count.max(1));
    let work = || {
        let mut state = init();
        loop {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let index = next.fetch_add(1, Ordering::Relaxed);
            if index >= count {
                break;
            }
            let result = job(&mut state, index);
            // The callback is called with the results lock released, so
            // that it may take its time without blocking other workers.
            let keep_going = {
                let mut callback = done.lock().unwrap_or_else(|e| e.into_inner());
                (*callback)(index, &result)
            };
            if !keep_going {
                stop.store(true, Ordering::Relaxed);
            }
            let mut slots = results.lock().unwrap_or_else(|e| e.into_inner());
            slots[index] = Some(result);
        }
    };
    if workers == 1 {
        // On the calling thread: no thread to start (a browser's WebAssembly
        // build has none to start).
        work();
    } else {
        std::thread::scope(|scope| {
            for _ in 0..workers {
                scope.spawn(work);
            }
        });
    }
    results.into_inner().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_job_order() {
        let results = run_jobs(50, 3, |i| i * i, |_, _| true);
        let values: Vec<usize> = results.into_iter().map(Option::unwrap).collect();
        assert_eq!(values, (0..50).map(|i| i * i).collect::<Vec<_>>());
    }

    #[test]
    fn a_stop_leaves_later_jobs_unstarted() {
        let mut seen = 0;
        let results = run_jobs(
            100,
            1,
            |i| i,
            |_, _| {
                seen += 1;
                seen < 10
            },
        );
        assert_eq!(results.iter().filter(|r| r.is_some()).count(), 10);
        assert!(results[..10].iter().all(Option::is_some));
    }

    #[test]
    fn no_jobs_is_fine() {
        assert!(run_jobs(0, 4, |i| i, |_, _| true).is_empty());
    }
}
