//! The search itself: iterative deepening over a principal variation search,
//! generic over any [`Game`] and [`Evaluator`].

use crate::limits::{Budget, Limits};
use crate::options::Options;
use crate::score::{self, INFINITY, WIN, is_decisive};
use crate::table::{Bound, Table};
use plateau_core::{Evaluator, Game, MoveList, Rng, Side, splitmix64};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Deepest line the search follows (extensions and quiescence included).
pub const MAX_PLY: usize = 128;
/// Nodes between two looks at the clock and the stop flag.
const CHECK_INTERVAL: u64 = 1024;

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

/// One engine: its evaluator, options and memory (table, killers, history).
/// Reuse it across the moves of a game; it never allocates once warmed up.
pub struct Engine<G: Game, E: Evaluator<G>> {
    evaluator: E,
    options: Options,
    table: Option<Table<G::Move>>,
    killers: Vec<[Option<G::Move>; 2]>,
    history: Vec<i32>,
    lists: Vec<MoveList<G::Move>>,
    order: Vec<Vec<i32>>,
    pv: Vec<Vec<G::Move>>,
    root_moves: Vec<G::Move>,
    nodes: u64,
    seldepth: usize,
    stop: Arc<AtomicBool>,
    stopped: bool,
    started: Instant,
    hard_deadline: Option<Instant>,
    node_limit: u64,
    rng: Rng,
}

impl<G: Game, E: Evaluator<G>> Engine<G, E> {
    pub fn new(evaluator: E, options: Options) -> Engine<G, E> {
        Engine {
            evaluator,
            table: (options.table_mb > 0).then(|| Table::new(options.table_mb)),
            options,
            killers: vec![[None, None]; MAX_PLY + 1],
            history: vec![0; G::MOVE_KEYS.max(1)],
            lists: (0..=MAX_PLY).map(|_| MoveList::with_capacity(64)).collect(),
            order: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            pv: (0..=MAX_PLY + 1)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            root_moves: Vec::new(),
            nodes: 0,
            seldepth: 0,
            stop: Arc::new(AtomicBool::new(false)),
            stopped: false,
            started: Instant::now(),
            hard_deadline: None,
            node_limit: u64::MAX,
            rng: Rng::new(splitmix64(options.seed).1),
        }
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Changes the options between searches (a new table when its size changes).
    pub fn set_options(&mut self, options: Options) {
        if options.table_mb != self.options.table_mb {
            self.table = (options.table_mb > 0).then(|| Table::new(options.table_mb));
        }
        if options.seed != self.options.seed {
            self.rng = Rng::new(splitmix64(options.seed).1);
        }
        self.options = options;
    }

    pub fn evaluator(&self) -> &E {
        &self.evaluator
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
        self.history.iter_mut().for_each(|h| *h = 0);
        self.killers.iter_mut().for_each(|k| *k = [None, None]);
    }

    /// The evaluation the search uses, noise included.
    #[inline]
    fn evaluate(&self, game: &G) -> i32 {
        let score = self.evaluator.evaluate(game);
        if self.options.noise == 0 {
            return score;
        }
        let amplitude = self.options.noise as u64;
        let draw = splitmix64(game.hash() ^ self.options.seed).1 % (2 * amplitude + 1);
        score + draw as i32 - self.options.noise
    }

    /// Searches `game` within `limits`, calling `info` after each completed depth.
    pub fn search(
        &mut self,
        game: &G,
        limits: &Limits,
        mut info: impl FnMut(&Info<G::Move>),
    ) -> SearchResult<G::Move> {
        self.started = Instant::now();
        self.nodes = 0;
        self.seldepth = 0;
        self.stopped = false;
        self.stop.store(false, Ordering::Relaxed);
        let budget = Budget::for_limits(limits, self.options.time_policy);
        self.hard_deadline = budget.hard.map(|d| self.started + d);
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        if let Some(table) = &mut self.table {
            table.new_search();
        }
        let mut game = game.clone();
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
        if let Some(mv) = self.evaluator.book_move(&game, &mut self.rng) {
            result.best = Some(mv);
            result.pv.push(mv);
            return result;
        }
        let mut root = std::mem::take(&mut self.root_moves);
        let mut list = MoveList::new();
        self.evaluator.candidate_moves(&game, &mut list);
        root.clear();
        root.extend(list.iter().copied());
        if root.is_empty() {
            self.root_moves = root;
            return result;
        }
        // Previous best (from the table) first.
        if let Some(best) = self
            .table
            .as_ref()
            .and_then(|t| t.probe(game.hash()))
            .and_then(|e| e.best)
            && let Some(index) = root.iter().position(|&m| m == best)
        {
            root[..=index].rotate_right(1);
        }
        result.best = Some(root[0]);
        result.pv = vec![root[0]];
        if root.len() == 1 && limits.is_timed() {
            result.score = self.evaluate(&game);
            self.root_moves = root;
            return result;
        }
        self.root_moves = root;

        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .min(MAX_PLY as u32 - 1);
        let mut stable_iterations = 0;
        let mut previous_score = 0;
        for depth in 1..=max_depth {
            let iteration_best = self.root_moves[0];
            let score = self.aspiration(&mut game, depth as i32, previous_score);
            let completed = !self.stopped;
            // A stopped iteration still counts if its first (the previous best)
            // move was searched and another then beat it.
            if completed || self.root_moves[0] != iteration_best {
                result.best = Some(self.root_moves[0]);
                result.pv.clear();
                result.pv.extend_from_slice(&self.pv[0]);
                if result.pv.first() != result.best.as_ref() {
                    result.pv.clear();
                    result.pv.extend(result.best);
                }
                result.score = score;
            }
            if !completed {
                break;
            }
            result.depth = depth;
            result.seldepth = self.seldepth as u32;
            result.nodes = self.nodes;
            result.elapsed = self.started.elapsed();
            info(&Info {
                depth,
                seldepth: self.seldepth as u32,
                score,
                nodes: self.nodes,
                elapsed: result.elapsed,
                pv: result.pv.clone(),
            });
            if self.root_moves[0] == iteration_best {
                stable_iterations += 1;
            } else {
                stable_iterations = 0;
            }
            previous_score = score;
            if self.nodes >= self.node_limit {
                break;
            }
            // A forced result fully inside the horizon will not change.
            if self.options.early_stop
                && let Some(plies) = score::plies_to_end(score)
                && plies.unsigned_abs() <= depth
            {
                break;
            }
            if let Some(soft) = budget.soft {
                // Settled best moves need less time, changing ones more.
                let factor = match stable_iterations {
                    0 => 1.6,
                    1 => 1.0,
                    2 => 0.8,
                    _ => 0.6,
                };
                let elapsed = self.started.elapsed();
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
        result.nodes = self.nodes;
        result.elapsed = self.started.elapsed();
        result
    }

    /// One iteration, in a narrow window around the last score when enabled,
    /// widened until the score falls inside it.
    fn aspiration(&mut self, game: &mut G, depth: i32, previous: i32) -> i32 {
        if !self.options.aspiration || depth < 5 || is_decisive(previous) {
            return self.root(game, depth, -INFINITY, INFINITY);
        }
        let mut delta = 40;
        let (mut alpha, mut beta) = (previous - delta, previous + delta);
        loop {
            let score = self.root(game, depth, alpha, beta);
            if self.stopped {
                return score;
            }
            if score <= alpha {
                alpha = (alpha - delta).max(-INFINITY);
            } else if score >= beta {
                beta = (beta + delta).min(INFINITY);
            } else {
                return score;
            }
            delta *= 3;
            if delta > 2000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    fn root(&mut self, game: &mut G, depth: i32, mut alpha: i32, beta: i32) -> i32 {
        let mut best = -INFINITY;
        let mut best_index = 0;
        self.pv[0].clear();
        for i in 0..self.root_moves.len() {
            let mv = self.root_moves[i];
            let mover = game.side_to_move();
            self.nodes += 1;
            game.play(mv);
            let score = if i == 0 || !self.options.pvs {
                self.child(game, mover, depth - 1, 1, alpha, beta)
            } else {
                let probe = self.child(game, mover, depth - 1, 1, alpha, alpha + 1);
                if probe > alpha && probe < beta && !self.stopped {
                    self.child(game, mover, depth - 1, 1, alpha, beta)
                } else {
                    probe
                }
            };
            game.undo(mv);
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    // Only a move that beat the window is known to be best: when
                    // every move fails low, their bounds say nothing about which
                    // is better, and the previous best must stay first (it is
                    // what a stopped iteration plays).
                    best_index = i;
                    alpha = score;
                    self.update_pv(0, mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.root_moves[..=best_index].rotate_right(1);
        best
    }

    /// Searches the position just reached by a move of `mover`, returning its
    /// score for `mover` within the window `(alpha, beta)`. Usually the side
    /// changes and the child is searched negated; where the same side moves again
    /// (White's placement then first move in Escampe) it is not.
    #[inline]
    fn child(
        &mut self,
        game: &mut G,
        mover: Side,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if game.side_to_move() == mover {
            self.negamax(game, depth, ply, alpha, beta)
        } else {
            -self.negamax(game, depth, ply, -beta, -alpha)
        }
    }

    #[inline]
    fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }

    #[inline]
    fn out_of_budget(&mut self) -> bool {
        if self.nodes.is_multiple_of(CHECK_INTERVAL)
            && (self.stop.load(Ordering::Relaxed)
                || self.nodes >= self.node_limit
                || self.hard_deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.stopped = true;
        }
        self.stopped
    }

    fn negamax(
        &mut self,
        game: &mut G,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        self.pv[ply].clear();
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let side = game.side_to_move();
        if let Some(outcome) = game.outcome() {
            return score::terminal(outcome, side, ply);
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(game);
        }
        if depth <= 0 {
            return if self.options.quiescence {
                self.quiescence(game, ply, alpha, beta)
            } else {
                self.evaluate(game)
            };
        }
        // No line from here can beat a win already found closer to the root.
        alpha = alpha.max(-(WIN - ply as i32));
        beta = beta.min(WIN - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let pv_node = beta - alpha > 1;
        let key = game.hash();
        let mut table_move = None;
        if let Some(entry) = self.table.as_ref().and_then(|t| t.probe(key)) {
            table_move = entry.best;
            if !pv_node && entry.depth as i32 >= depth {
                let stored = score::from_table(entry.score, ply);
                match entry.bound {
                    Bound::Exact => return stored,
                    Bound::Lower if stored >= beta => return stored,
                    Bound::Upper if stored <= alpha => return stored,
                    _ => {}
                }
            }
        }

        let mut list = std::mem::take(&mut self.lists[ply]);
        let mut order = std::mem::take(&mut self.order[ply]);
        self.evaluator.candidate_moves(game, &mut list);
        if list.is_empty() {
            self.lists[ply] = list;
            self.order[ply] = order;
            return self.evaluate(game);
        }
        self.score_moves(game, &list, &mut order, ply, table_move);
        let extension = i32::from(self.options.single_reply_extension && list.len() == 1);

        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        for i in 0..list.len() {
            let mv = pick_next(&mut list, &mut order, i);
            let noisy = game.is_noisy(mv);
            let is_killer = self.killers[ply].contains(&Some(mv));
            let child_depth = depth - 1 + extension;
            let mover = game.side_to_move();
            game.play(mv);
            // Only a child that searches probes the table: quiescence never does.
            if child_depth > 0
                && let Some(table) = &self.table
            {
                table.prefetch(game.hash());
            }
            let score = if i == 0 || !self.options.pvs {
                self.child(game, mover, child_depth, ply + 1, alpha, beta)
            } else {
                let reduction = if self.options.reductions
                    && depth >= 3
                    && i >= 3
                    && !noisy
                    && !is_killer
                    && extension == 0
                {
                    1 + i32::from(i >= 8 && depth >= 6)
                } else {
                    0
                };
                let mut probe = self.child(
                    game,
                    mover,
                    child_depth - reduction,
                    ply + 1,
                    alpha,
                    alpha + 1,
                );
                if probe > alpha && reduction > 0 && !self.stopped {
                    probe = self.child(game, mover, child_depth, ply + 1, alpha, alpha + 1);
                }
                if probe > alpha && probe < beta && !self.stopped {
                    self.child(game, mover, child_depth, ply + 1, alpha, beta)
                } else {
                    probe
                }
            };
            game.undo(mv);
            if self.stopped {
                self.lists[ply] = list;
                self.order[ply] = order;
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                    if score >= beta {
                        if !noisy {
                            self.reward_quiet(game, mv, ply, depth, &list[..i]);
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if let Some(table) = &mut self.table {
            table.store(
                key,
                best_move,
                score::to_table(best, ply),
                depth as i16,
                bound,
            );
        }
        self.lists[ply] = list;
        self.order[ply] = order;
        best
    }

    fn quiescence(&mut self, game: &mut G, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.pv[ply].clear();
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let side = game.side_to_move();
        if let Some(outcome) = game.outcome() {
            return score::terminal(outcome, side, ply);
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(game);
        }
        // Where noisy moves are optional, a good enough static score ends the
        // line before any move is generated.
        let mut stand_pat = None;
        if G::NOISY_IS_OPTIONAL {
            let score = self.evaluate(game);
            if score >= beta {
                return score;
            }
            stand_pat = Some(score);
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        let can_decline = game.noisy_moves(&mut list);
        let mut best = -INFINITY;
        if can_decline || list.is_empty() {
            let stand_pat = stand_pat.unwrap_or_else(|| self.evaluate(game));
            if stand_pat >= beta || list.is_empty() {
                self.lists[ply] = list;
                return stand_pat;
            }
            best = stand_pat;
            alpha = alpha.max(stand_pat);
        }
        for i in 0..list.len() {
            let mv = list[i];
            let mover = game.side_to_move();
            game.play(mv);
            let score = if game.side_to_move() == mover {
                self.quiescence(game, ply + 1, alpha, beta)
            } else {
                -self.quiescence(game, ply + 1, -beta, -alpha)
            };
            game.undo(mv);
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.lists[ply] = list;
        best
    }

    /// Ordering scores: table move, noisy moves, killers, then history.
    fn score_moves(
        &self,
        game: &G,
        list: &MoveList<G::Move>,
        order: &mut Vec<i32>,
        ply: usize,
        table_move: Option<G::Move>,
    ) {
        order.clear();
        let killers = self.killers[ply];
        for &mv in list.iter() {
            let score = if Some(mv) == table_move {
                1 << 30
            } else if game.is_noisy(mv) {
                1 << 29
            } else if self.options.killers && Some(mv) == killers[0] {
                1 << 28
            } else if self.options.killers && Some(mv) == killers[1] {
                (1 << 28) - 1
            } else if G::HAS_ORDER_HINT {
                // The game's guess first; the history orders equal guesses.
                let history = if self.options.history {
                    self.history.get(game.move_key(mv)).copied().unwrap_or(0)
                } else {
                    0
                };
                game.order_hint(mv).clamp(-HINT_LIMIT, HINT_LIMIT) * HINT_SCALE
                    + history.clamp(-HINT_SCALE / 2, HINT_SCALE / 2 - 1)
            } else if self.options.history {
                self.history.get(game.move_key(mv)).copied().unwrap_or(0)
            } else {
                0
            };
            order.push(score);
        }
    }

    /// A quiet move caused a cutoff: remember it as a killer and credit its
    /// history; the quiet moves tried before it lose some.
    fn reward_quiet(&mut self, game: &G, mv: G::Move, ply: usize, depth: i32, tried: &[G::Move]) {
        if self.options.killers && self.killers[ply][0] != Some(mv) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(mv);
        }
        if self.options.history {
            let bonus = depth * depth;
            let key = game.move_key(mv);
            if let Some(entry) = self.history.get_mut(key) {
                *entry += bonus;
                if *entry > 1 << 24 {
                    self.history.iter_mut().for_each(|h| *h /= 2);
                }
            }
            for &other in tried {
                if !game.is_noisy(other)
                    && let Some(entry) = self.history.get_mut(game.move_key(other))
                {
                    *entry -= bonus;
                }
            }
        }
    }
}

/// Order hints weigh this much more than a step of history, and are kept
/// within ±`HINT_LIMIT` so that killers (`1 << 28`) still come first.
const HINT_SCALE: i32 = 1 << 16;
const HINT_LIMIT: i32 = 1000;

/// Picks before the rest is sorted: most cutoffs come from the first moves, so
/// they are found by selection; the rest is sorted once.
const SELECTED_FIRST: usize = 2;

/// Returns the move to search `i`-th: the best-scored remaining one (ties in
/// generation order, so searches are reproducible).
#[inline]
fn pick_next<M: Copy>(list: &mut MoveList<M>, order: &mut [i32], i: usize) -> M {
    if i < SELECTED_FIRST {
        let mut best = i;
        for j in i + 1..list.len() {
            if order[j] > order[best] {
                best = j;
            }
        }
        if best != i {
            // Shift rather than swap, to keep the others in generation order.
            list[i..=best].rotate_right(1);
            order[i..=best].rotate_right(1);
        }
    } else if i == SELECTED_FIRST {
        // Stable insertion sort of the remainder, best first; no allocation.
        for j in i + 1..list.len() {
            let (score, mv) = (order[j], list[j]);
            let mut k = j;
            while k > i && order[k - 1] < score {
                order[k] = order[k - 1];
                list[k] = list[k - 1];
                k -= 1;
            }
            order[k] = score;
            list[k] = mv;
        }
    }
    list[i]
}
