//! The search itself: iterative deepening over a principal variation search,
//! generic over any [`Game`] and [`Evaluator`].

use crate::limits::{Budget, Limits, Progress, USUAL_BEST_MOVE_SHARE};
use crate::options::Options;
use crate::score;
use crate::table::Table;
use crate::worker::{Control, MAX_PLY, Memory, Reductions, Search};
use plateau_core::time::Instant;
use plateau_core::{Evaluator, Game, MoveList, Rng, splitmix64};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Progress after each completed depth.
#[derive(Clone, Debug)]
pub struct Info<M> {
    pub depth: u32,
    /// Deepest ply reached, quiescence and extensions included.
    pub seldepth: u32,
    /// From the side to move's point of view; see [`crate::score`].
    pub score: i32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<M>,
}

impl<M> Info<M> {
    pub fn nps(&self) -> u64 {
        let seconds = self.elapsed.as_secs_f64();
        if seconds > 0.0 {
            (self.nodes as f64 / seconds) as u64
        } else {
            0
        }
    }
}

/// What a search decided.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// `None` only when the game is already over.
    pub best: Option<M>,
    pub score: i32,
    /// Last depth completed (0 for a book move or a forced move answered at once).
    pub depth: u32,
    pub seldepth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<M>,
}

/// One engine: its evaluator, options and memory (table, and per thread the
/// killers and histories). Reuse it across the moves of a game; it never
/// allocates once warmed up, but for the threads a parallel search starts.
pub struct Engine<G: Game, E: Evaluator<G>> {
    evaluator: E,
    options: Options,
    table: Option<Table>,
    reductions: Reductions,
    /// One per thread; the first is the main thread's.
    memories: Vec<Memory<G>>,
    stop: Arc<AtomicBool>,
    rng: Rng,
}

impl<G: Game, E: Evaluator<G>> Engine<G, E> {
    pub fn new(evaluator: E, options: Options) -> Engine<G, E> {
        Engine {
            evaluator,
            table: (options.table_mb > 0).then(|| Table::new(options.table_mb)),
            reductions: Reductions::new(options.lmr_base, options.lmr_divisor),
            memories: (0..options.threads.max(1)).map(|_| Memory::new()).collect(),
            options,
            stop: Arc::new(AtomicBool::new(false)),
            rng: Rng::new(splitmix64(options.seed).1),
        }
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Changes the options between searches (a new table when its size
    /// changes, memory for new threads).
    pub fn set_options(&mut self, options: Options) {
        if options.table_mb != self.options.table_mb {
            self.table = None;
            self.table = (options.table_mb > 0).then(|| Table::new(options.table_mb));
        }
        if options.seed != self.options.seed {
            self.rng = Rng::new(splitmix64(options.seed).1);
        }
        if (options.lmr_base, options.lmr_divisor)
            != (self.options.lmr_base, self.options.lmr_divisor)
        {
            self.reductions = Reductions::new(options.lmr_base, options.lmr_divisor);
        }
        let threads = options.threads.max(1);
        self.memories.truncate(threads);
        while self.memories.len() < threads {
            self.memories.push(Memory::new());
        }
        self.options = options;
    }

    pub fn evaluator(&self) -> &E {
        &self.evaluator
    }

    /// How full the table is, per mille, counting this search's entries (UCI's
    /// `hashfull`); 0 without a table.
    pub fn table_fill(&self) -> u32 {
        self.table.as_ref().map_or(0, Table::fill_permille)
    }

    /// A flag that stops the current search from another thread (set it to
    /// `true`; the search answers with its best move so far).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Becomes what `Engine::new` with this seed would build, keeping the
    /// memory: lets a match reuse one engine for many games instead of
    /// allocating a table per game.
    pub fn restart(&mut self, seed: u64) {
        self.options.seed = seed;
        self.rng = Rng::new(splitmix64(seed).1);
        self.new_game();
    }

    /// Forgets what earlier searches learnt (start of a new game).
    pub fn new_game(&mut self) {
        if let Some(table) = &mut self.table {
            table.clear();
        }
        for memory in &mut self.memories {
            memory.clear();
        }
    }

    /// Searches `game` within `limits`, calling `info` after each completed
    /// depth. With several threads, helpers search the same position and share
    /// the table; the main thread keeps the clock, and the answer is the
    /// deepest iteration any thread completed (with a depth limit, the first
    /// thread to complete it ends the search).
    pub fn search(
        &mut self,
        game: &G,
        limits: &Limits,
        info: impl FnMut(&Info<G::Move>),
    ) -> SearchResult<G::Move> {
        self.search_excluding(game, limits, None, info)
    }

    /// [`Engine::search`] for the best move that is not in `excluded`, without
    /// the opening book: asked again with the answers so far excluded, it
    /// gives the second-best move, the third..., each with its own score (a
    /// tournament client uses this to vary its openings). `None` is a plain
    /// search; an empty list is a search without the book.
    pub fn search_excluding(
        &mut self,
        game: &G,
        limits: &Limits,
        excluded: Option<&[G::Move]>,
        mut info: impl FnMut(&Info<G::Move>),
    ) -> SearchResult<G::Move> {
        let started = Instant::now();
        self.stop.store(false, Ordering::Relaxed);
        let budget = Budget::for_limits(limits, self.options.time_policy);
        if let Some(table) = &self.table {
            table.new_search();
        }
        let mut result = SearchResult {
            best: None,
            score: 0,
            depth: 0,
            seldepth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: Vec::new(),
        };
        if game.outcome().is_some() {
            return result;
        }
        if excluded.is_none()
            && let Some(mv) = self.evaluator.book_move(game, &mut self.rng)
        {
            result.best = Some(mv);
            result.pv.push(mv);
            return result;
        }
        let (main_memory, helper_memories) = self
            .memories
            .split_first_mut()
            .expect("an engine has at least one thread");
        let mut list = MoveList::new();
        self.evaluator.candidate_moves(game, &mut list);
        let root = &mut main_memory.root_moves;
        root.clear();
        root.extend(list.iter().copied());
        // Alternatives were asked for: all of them, proven or not, each
        // scored by what the table says of it. Otherwise the table keeps
        // the root's value and the search makes progress within it.
        let alternatives = matches!(excluded, Some(excluded) if !excluded.is_empty());
        let proven_limit = if alternatives {
            u32::MAX
        } else {
            self.evaluator.proven_limit(game)
        };
        match excluded {
            Some(excluded) if alternatives => root.retain(|mv| !excluded.contains(mv)),
            _ => self.evaluator.filter_root(game, root),
        }
        if root.is_empty() {
            return result;
        }
        // Previous best (from the table) first.
        if let Some(code) = self
            .table
            .as_ref()
            .and_then(|t| t.probe(game.hash()))
            .and_then(|e| e.best)
            && let Some(index) = root.iter().position(|&m| game.move_code(m) == code)
        {
            root[..=index].rotate_right(1);
        }
        result.best = Some(root[0]);
        result.pv = vec![root[0]];
        // One move left is answered at once, unless others were excluded:
        // then its own score is what the caller compares.
        if root.len() == 1 && limits.is_timed() && excluded.is_none() {
            result.score = self.evaluator.evaluate(game);
            return result;
        }
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .min(MAX_PLY as u32 - 1);
        let control = Control::new(
            Arc::clone(&self.stop),
            budget.hard.map(|d| started + d),
            limits.nodes.unwrap_or(u64::MAX),
            max_depth,
            proven_limit,
        );
        let (evaluator, options, table, reductions) = (
            &self.evaluator,
            &self.options,
            self.table.as_ref(),
            &self.reductions,
        );
        let mut helper_nodes = 0;
        std::thread::scope(|scope| {
            let mut helpers = Vec::with_capacity(helper_memories.len());
            for (index, memory) in helper_memories.iter_mut().enumerate() {
                memory.root_moves.clear();
                memory.root_moves.extend_from_slice(&main_memory.root_moves);
                let control = &control;
                helpers.push(scope.spawn(move || {
                    let mut search = Search::new(
                        evaluator, options, table, control, reductions, memory, false,
                    );
                    let mut position = game.clone();
                    search.help(&mut position, index);
                    search.nodes
                }));
            }
            // The helpers stop when the main thread is done, even by a panic.
            let _finish = Finish(&control.finished);
            let mut search = Search::new(
                evaluator,
                options,
                table,
                &control,
                reductions,
                main_memory,
                true,
            );
            deepen(
                &mut search,
                game,
                max_depth,
                &budget,
                started,
                &mut result,
                &mut info,
            );
            control.finished.store(true, Ordering::Relaxed);
            for helper in helpers {
                // A helper that panicked leaves the main thread's answer intact.
                helper_nodes += helper.join().unwrap_or(0);
            }
        });
        result.nodes += helper_nodes;
        result.elapsed = started.elapsed();
        result
    }
}

/// Raises the flag that ends the helpers when dropped.
struct Finish<'a>(&'a AtomicBool);

impl Drop for Finish<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Iterations shallower than this do not count for the score's trend: their
/// scores swing with the horizon.
const TREND_DEPTH: u32 = 5;

/// The scores of the last few completed iterations, for the score's trend.
#[derive(Default)]
struct RecentScores {
    scores: [i32; 3],
    len: usize,
}

impl RecentScores {
    fn push(&mut self, score: i32) {
        self.scores.rotate_right(1);
        self.scores[0] = score;
        self.len = (self.len + 1).min(self.scores.len());
    }

    /// How far `score` lies below their mean (positive: falling); 0 before
    /// any, or where a score is a proven result, by search or by a table
    /// (its distance from an evaluation is not a trend).
    fn drop_to(&self, score: i32) -> i32 {
        let recent = &self.scores[..self.len];
        if recent.is_empty()
            || score::is_proven(score)
            || recent.iter().any(|&s| score::is_proven(s))
        {
            return 0;
        }
        let mean = recent.iter().map(|&s| i64::from(s)).sum::<i64>() / recent.len() as i64;
        (mean - i64::from(score)) as i32
    }
}

/// The main thread's iterative deepening: one iteration per depth until the
/// limits or the time policy say stop; fills `result` as iterations complete.
fn deepen<G: Game, E: Evaluator<G>>(
    search: &mut Search<'_, G, E>,
    game: &G,
    max_depth: u32,
    budget: &Budget,
    started: Instant,
    result: &mut SearchResult<G::Move>,
    info: &mut impl FnMut(&Info<G::Move>),
) {
    let mut game = game.clone();
    let mut stable_iterations = 0;
    let mut previous_score = 0;
    let mut recent_scores = RecentScores::default();
    for depth in 1..=max_depth {
        let iteration_best = search.mem.root_moves[0];
        search.root_best = None;
        let score = search.aspiration(&mut game, depth as i32, previous_score);
        let completed = !search.stopped;
        // A stopped iteration still counts if its first (the previous best)
        // move was searched and another then beat it: that move is played
        // with the score its own completed search gave, not what the
        // stopped iteration returned (an aspiration re-search stopped early
        // returns a bound of nothing).
        let changed = match search.root_best {
            Some((mv, proven)) if !completed && mv != iteration_best => Some((mv, proven)),
            _ => None,
        };
        if completed || changed.is_some() {
            let (best, score) = changed.unwrap_or((search.mem.root_moves[0], score));
            result.best = Some(best);
            result.pv.clear();
            result.pv.extend_from_slice(&search.mem.pv[0]);
            if result.pv.first() != Some(&best) {
                result.pv.clear();
                result.pv.push(best);
            }
            result.score = score;
        }
        if !completed {
            break;
        }
        result.depth = depth;
        result.seldepth = search.seldepth as u32;
        result.elapsed = started.elapsed();
        info(&Info {
            depth,
            seldepth: search.seldepth as u32,
            score,
            nodes: search.total_nodes(),
            elapsed: result.elapsed,
            pv: result.pv.clone(),
        });
        if search.mem.root_moves[0] == iteration_best {
            stable_iterations += 1;
        } else {
            stable_iterations = 0;
        }
        previous_score = score;
        let score_drop = recent_scores.drop_to(score);
        if depth >= TREND_DEPTH {
            recent_scores.push(score);
        }
        if search.total_nodes() >= search.control.node_limit {
            break;
        }
        // A forced result fully inside the horizon will not change.
        if search.options.early_stop
            && let Some(plies) = score::plies_to_end(score)
            && plies.unsigned_abs() <= depth
        {
            break;
        }
        if let Some(soft) = budget.soft {
            let progress = Progress {
                stable_iterations,
                score_drop,
                best_move_share: search.root_best_share.unwrap_or(USUAL_BEST_MOVE_SHARE),
            };
            let factor = progress.soft_scale(search.options.time_adapt);
            let elapsed = started.elapsed();
            if elapsed >= soft.mul_f64(factor) {
                break;
            }
            // The next depth costs a few times this one: do not start what
            // cannot finish.
            if let Some(hard) = budget.hard
                && elapsed * 2 >= hard
            {
                break;
            }
        }
    }
    search.flush_nodes();
    result.nodes = search.nodes;
    take_deeper_helper(search, started, result, info);
}

/// Answers with a helper's iteration where one completed a greater depth
/// than the main thread: with a depth limit, the first thread to complete it
/// ends the search; with a clock, a helper may be one iteration ahead.
fn take_deeper_helper<G: Game, E: Evaluator<G>>(
    search: &Search<'_, G, E>,
    started: Instant,
    result: &mut SearchResult<G::Move>,
    info: &mut impl FnMut(&Info<G::Move>),
) {
    let control = search.control;
    if control.helper_depth.load(Ordering::Acquire) <= result.depth {
        return;
    }
    {
        // Copied out, so that no helper waits on the lock during `info`.
        let helper = control
            .helper_best
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let Some(&best) = helper.pv.first() else {
            return;
        };
        result.best = Some(best);
        result.pv.clear();
        result.pv.extend_from_slice(&helper.pv);
        result.score = helper.score;
        result.depth = helper.depth;
        result.seldepth = result.seldepth.max(helper.seldepth);
    }
    result.elapsed = started.elapsed();
    info(&Info {
        depth: result.depth,
        seldepth: result.seldepth,
        score: result.score,
        nodes: search.total_nodes(),
        elapsed: result.elapsed,
        pv: result.pv.clone(),
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_trend_is_the_fall_below_the_last_three_iterations_mean() {
        let mut recent = RecentScores::default();
        assert_eq!(recent.drop_to(-500), 0, "no trend before any iteration");
        recent.push(40);
        assert_eq!(recent.drop_to(-20), 60);
        recent.push(20);
        recent.push(0);
        assert_eq!(recent.drop_to(-40), 60, "the mean of 40, 20 and 0 is 20");
        assert_eq!(recent.drop_to(50), -30, "a rise is a negative drop");
        recent.push(-100);
        assert_eq!(
            recent.drop_to(-40),
            14,
            "40 has left: the mean of 20, 0 and -100 is -26"
        );
    }

    #[test]
    fn proven_results_have_no_trend() {
        let mut recent = RecentScores::default();
        recent.push(30);
        assert_eq!(recent.drop_to(-score::WIN + 7), 0, "a loss found");
        recent.push(score::WIN - 9);
        assert_eq!(recent.drop_to(0), 0, "a win among the recent scores");
        let mut recent = RecentScores::default();
        recent.push(score::proven(plateau_core::Proven::Win, 4, 30));
        assert_eq!(recent.drop_to(20), 0, "an endgame table's win");
        recent.push(20);
        recent.push(10);
        assert_eq!(
            recent.drop_to(score::proven(plateau_core::Proven::Loss, 6, 0)),
            0,
            "an endgame table's loss"
        );
    }
}
