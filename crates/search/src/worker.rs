//! One search thread: principal variation search with the selective parts
//! switched by [`Options`], over its own memory (killers, histories, move
//! lists) and the table every thread shares.

use crate::history::{self, Histories};
use crate::margin::Margin;
use crate::options::Options;
use crate::score::{self, INFINITY, PROVEN_THRESHOLD, WIN, is_decisive, is_proven};
use crate::table::{Bound, Table};
use plateau_core::time::Instant;
use plateau_core::{EVAL_LIMIT, Evaluator, Game, MoveList, Side, splitmix64};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};

/// Deepest line the search follows (extensions and quiescence included).
pub const MAX_PLY: usize = 128;
/// Nodes between two looks at the clock and the stop flags.
const CHECK_INTERVAL: u64 = 1024;
/// A static evaluation not computed (a compulsory capture pending).
const NO_EVAL: i32 = i32::MIN;

/// Order hints weigh this much more than a step of history, and are kept
/// within ±`HINT_LIMIT` so that counter-moves and killers (`1 << 28`) still
/// come first.
const HINT_SCALE: i32 = 1 << 17;
const HINT_LIMIT: i32 = 1000;

// Margins of the selective parts, in evaluation units (100: a clear
// advantage, a man in draughts, in every game).
const RAZOR_MARGIN: i32 = 200;
const RAZOR_DEPTH: i32 = 3;
const REVERSE_FUTILITY_MARGIN: i32 = 75;
const REVERSE_FUTILITY_DEPTH: i32 = 8;
const FUTILITY_BASE: i32 = 100;
const FUTILITY_MARGIN: i32 = 80;
const FUTILITY_DEPTH: i32 = 8;
const LATE_MOVE_DEPTH: i32 = 8;
const PROBCUT_MARGIN: i32 = 90;
const PROBCUT_DEPTH: i32 = 3;
const SINGULAR_DEPTH: i32 = 8;
/// Internal iterative reduction starts at this depth.
const IIR_DEPTH: i32 = 4;
const SINGULAR_MARGIN: i32 = 2;
const NULL_MOVE_DEPTH: i32 = 3;
/// The null move's reduction grows by a ply per this much static score above beta.
const NULL_MOVE_STEP: i32 = 200;
/// From this depth a null-move cutoff is confirmed by a search without null
/// moves for the side to move, so that a zugzwang the null move hid shows.
const NULL_VERIFY_DEPTH: i32 = 10;

/// Late move reductions, in 1/1024 plies, by depth and move number.
pub(crate) struct Reductions([[i32; 64]; 64]);

impl Reductions {
    pub(crate) fn new(base: u16, divisor: u16) -> Reductions {
        let mut table = [[0; 64]; 64];
        let (base, divisor) = (f64::from(base) / 100.0, f64::from(divisor.max(1)) / 100.0);
        for (depth, row) in table.iter_mut().enumerate().skip(1) {
            for (moves, cell) in row.iter_mut().enumerate().skip(1) {
                let plies = base + (depth as f64).ln() * (moves as f64).ln() / divisor;
                *cell = (plies.max(0.0) * 1024.0) as i32;
            }
        }
        Reductions(table)
    }

    #[inline]
    fn get(&self, depth: i32, moves: usize) -> i32 {
        self.0[(depth.max(0) as usize).min(63)][moves.min(63)]
    }
}

/// What the search knows of one ply of the current line.
#[derive(Clone, Copy)]
struct Frame<M> {
    /// The static evaluation here, corrected; [`NO_EVAL`] where none was made.
    static_eval: i32,
    /// The key of the move being searched from here (`None`: a null move).
    move_key: Option<usize>,
    null_move: bool,
    /// A singular-extension search skips the move with this code here.
    excluded: Option<u32>,
    killers: [Option<M>; 2],
}

impl<M> Frame<M> {
    const EMPTY: Frame<M> = Frame {
        static_eval: NO_EVAL,
        move_key: None,
        null_move: false,
        excluded: None,
        killers: [None, None],
    };
}

/// One thread's memory, kept from search to search; allocated once.
pub(crate) struct Memory<G: Game> {
    frames: Vec<Frame<G::Move>>,
    histories: Histories,
    /// The quiet move that refuted a move (by the refuted move's key).
    counters: Vec<Option<G::Move>>,
    lists: Vec<MoveList<G::Move>>,
    order: Vec<Vec<i32>>,
    tried: Vec<Vec<G::Move>>,
    /// Scratch of [`pick_next`]'s sort, shared by every ply (a sort ends
    /// before the search goes down).
    sorter: Sorter<G::Move>,
    pub(crate) pv: Vec<Vec<G::Move>>,
    pub(crate) root_moves: Vec<G::Move>,
}

impl<G: Game> Memory<G> {
    pub(crate) fn new() -> Memory<G> {
        Memory {
            frames: vec![Frame::EMPTY; MAX_PLY + 2],
            histories: Histories::new(G::MOVE_KEYS),
            counters: vec![None; G::MOVE_KEYS.max(1)],
            lists: (0..=MAX_PLY).map(|_| MoveList::with_capacity(64)).collect(),
            order: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            tried: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            sorter: Sorter {
                keys: Vec::with_capacity(256),
                moves: Vec::with_capacity(256),
            },
            pv: (0..=MAX_PLY + 1)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            root_moves: Vec::new(),
        }
    }

    /// Forgets what earlier searches learnt (a new game).
    pub(crate) fn clear(&mut self) {
        self.histories.clear();
        self.counters.iter_mut().for_each(|c| *c = None);
        self.frames.iter_mut().for_each(|f| *f = Frame::EMPTY);
    }
}

/// What every thread of one search shares besides the table.
pub(crate) struct Control<M> {
    /// Set from outside to stop the search.
    pub(crate) stop: std::sync::Arc<AtomicBool>,
    /// Set by the main thread when it has its answer: the helpers stop.
    pub(crate) finished: AtomicBool,
    /// Only the main thread reads the clock.
    pub(crate) hard_deadline: Option<Instant>,
    pub(crate) node_limit: u64,
    /// The evaluator's [`Evaluator::proven_limit`] for the root: what a
    /// table may answer before the horizon (`u32::MAX`: everything).
    pub(crate) proven_limit: u32,
    /// Nodes of every thread, added in steps of [`CHECK_INTERVAL`].
    pub(crate) nodes: AtomicU64,
    /// The depth the search was asked for: once any thread has completed it,
    /// the search is done.
    pub(crate) max_depth: u32,
    /// The deepest iteration a helper completed (0: none), readable without
    /// taking [`Control::helper_best`]'s lock.
    pub(crate) helper_depth: AtomicU32,
    /// That iteration's result, for the main thread to answer with when it is
    /// deeper than its own.
    pub(crate) helper_best: Mutex<Completed<M>>,
}

impl<M> Control<M> {
    pub(crate) fn new(
        stop: std::sync::Arc<AtomicBool>,
        hard_deadline: Option<Instant>,
        node_limit: u64,
        max_depth: u32,
        proven_limit: u32,
    ) -> Control<M> {
        Control {
            stop,
            finished: AtomicBool::new(false),
            hard_deadline,
            node_limit,
            proven_limit,
            nodes: AtomicU64::new(0),
            max_depth,
            helper_depth: AtomicU32::new(0),
            helper_best: Mutex::new(Completed {
                depth: 0,
                score: 0,
                seldepth: 0,
                pv: Vec::new(),
            }),
        }
    }

    /// Whether a helper has completed the depth asked for: the main thread
    /// then stops and answers with it.
    #[inline]
    pub(crate) fn helper_reached_max_depth(&self) -> bool {
        self.helper_depth.load(Ordering::Relaxed) >= self.max_depth
    }
}

/// One completed iteration of a helper: its depth, score and line (the line
/// starts with the best move).
pub(crate) struct Completed<M> {
    pub(crate) depth: u32,
    pub(crate) score: i32,
    pub(crate) seldepth: u32,
    pub(crate) pv: Vec<M>,
}

/// Lazy SMP's helpers skip some depths, so that threads spread over several
/// iterations instead of all searching the same one (the scheme of Stockfish 9).
const SKIP_SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/// One thread's search of one position.
pub(crate) struct Search<'a, G: Game, E: Evaluator<G>> {
    pub(crate) evaluator: &'a E,
    pub(crate) options: &'a Options,
    pub(crate) table: Option<&'a Table>,
    pub(crate) control: &'a Control<G::Move>,
    pub(crate) reductions: &'a Reductions,
    pub(crate) mem: &'a mut Memory<G>,
    /// The main thread reads the clock; helpers stop when it finishes.
    pub(crate) main: bool,
    pub(crate) nodes: u64,
    flushed: u64,
    pub(crate) seldepth: usize,
    pub(crate) stopped: bool,
    /// The last root move of this iteration whose search completed above
    /// alpha, with its score: what a stopped iteration may still play. The
    /// score an aborted re-search returns says nothing.
    pub(crate) root_best: Option<(G::Move, i32)>,
    /// The best move's share of the nodes of the last root search; `None`
    /// when no move beat the window.
    pub(crate) root_best_share: Option<f64>,
    root_depth: i32,
    /// No null move for the side being verified above this ply.
    null_move_min_ply: usize,
    margins: Margins,
}

/// The pruning margins, scaled for the game (see [`Options::margin_percent`]
/// and [`Options::margin_scales`]).
#[derive(Clone, Copy)]
struct Margins {
    razor: i32,
    reverse_futility: i32,
    futility_base: i32,
    futility: i32,
    probcut: i32,
    singular: i32,
    null_move_step: i32,
}

impl Margins {
    fn new(options: &Options) -> Margins {
        let scale = |margin: Margin, value: i32| {
            let each = i64::from(options.margin_scales[margin.index()]);
            let scaled = i64::from(value) * i64::from(options.margin_percent) * each / 10_000;
            (scaled.min(i64::from(i32::MAX / 64)) as i32).max(1)
        };
        Margins {
            razor: scale(Margin::Razor, RAZOR_MARGIN),
            reverse_futility: scale(Margin::ReverseFutility, REVERSE_FUTILITY_MARGIN),
            futility_base: scale(Margin::Futility, FUTILITY_BASE),
            futility: scale(Margin::Futility, FUTILITY_MARGIN),
            probcut: scale(Margin::Probcut, PROBCUT_MARGIN),
            singular: scale(Margin::Singular, SINGULAR_MARGIN),
            null_move_step: scale(Margin::NullMove, NULL_MOVE_STEP),
        }
    }
}

impl<'a, G: Game, E: Evaluator<G>> Search<'a, G, E> {
    pub(crate) fn new(
        evaluator: &'a E,
        options: &'a Options,
        table: Option<&'a Table>,
        control: &'a Control<G::Move>,
        reductions: &'a Reductions,
        mem: &'a mut Memory<G>,
        main: bool,
    ) -> Search<'a, G, E> {
        Search {
            evaluator,
            options,
            table,
            control,
            reductions,
            mem,
            main,
            nodes: 0,
            flushed: 0,
            seldepth: 0,
            stopped: false,
            root_best: None,
            root_best_share: None,
            root_depth: 0,
            null_move_min_ply: 0,
            margins: Margins::new(options),
        }
    }

    /// Nodes of every thread so far, as far as this one knows.
    pub(crate) fn total_nodes(&self) -> u64 {
        self.control.nodes.load(Ordering::Relaxed) + self.nodes - self.flushed
    }

    /// Adds this thread's last nodes to the shared count.
    pub(crate) fn flush_nodes(&mut self) {
        let delta = self.nodes - self.flushed;
        self.flushed = self.nodes;
        self.control.nodes.fetch_add(delta, Ordering::Relaxed);
    }

    /// A helper's iterative deepening: it searches until the main thread
    /// finishes, skipping depths by its number so that helpers spread out.
    /// Each iteration it completes deeper than every other helper's is
    /// published; completing the depth asked for ends the search.
    pub(crate) fn help(&mut self, game: &mut G, helper: usize) {
        let (size, phase) = (SKIP_SIZE[helper % 20], SKIP_PHASE[helper % 20]);
        let max_depth = self.control.max_depth;
        let mut previous = 0;
        for depth in 1..=max_depth {
            // The last depth is never skipped: a helper that stopped short of
            // it would sit idle while the main thread works.
            if depth < max_depth && ((depth + phase) / size) % 2 == 1 {
                continue;
            }
            let score = self.aspiration(game, depth as i32, previous);
            if self.stopped {
                break;
            }
            self.publish(depth, score);
            previous = score;
        }
        self.flush_nodes();
    }

    /// Offers a completed iteration to the main thread.
    fn publish(&mut self, depth: u32, score: i32) {
        let control = self.control;
        if control.helper_depth.load(Ordering::Acquire) >= depth {
            return;
        }
        // A poisoned lock means another helper panicked while publishing:
        // this helper's result is as good as any.
        let mut best = control
            .helper_best
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if best.depth >= depth {
            return;
        }
        best.pv.clear();
        let best_move = self.mem.root_moves[0];
        if self.mem.pv[0].first() == Some(&best_move) {
            best.pv.extend_from_slice(&self.mem.pv[0]);
        } else {
            best.pv.push(best_move);
        }
        best.score = score;
        best.seldepth = self.seldepth as u32;
        // Last, so that a slot is never deeper than the line it holds.
        best.depth = depth;
        control.helper_depth.store(depth, Ordering::Release);
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

    /// The score a table gives the position, if it covers it. Before the
    /// horizon, only within the root's limit (see
    /// [`Evaluator::proven_limit`]). At the horizon, a position beyond the
    /// limit (as many pieces as a covered root: no capture on the way) is
    /// scored by the table too, but below any win a capture reaches, so
    /// that the search heads for captures, and above any draw, so that it
    /// never prefers a repetition to a win the evaluation happens to
    /// underrate.
    #[inline]
    fn table_score(&self, game: &G, ply: usize, horizon: bool) -> Option<i32> {
        let limit = self.control.proven_limit;
        if let Some(value) = self.evaluator.proven(game, limit) {
            return Some(score::proven(value, ply, self.evaluate(game)));
        }
        // A compulsory capture is searched first (by quiescence): the
        // position after it has fewer pieces, and its own score.
        if horizon && limit != u32::MAX && !game.noisy_is_forced() {
            let value = self.evaluator.proven(game, u32::MAX)?;
            return Some(score::proven_without_progress(
                value,
                ply,
                self.evaluate(game),
            ));
        }
        None
    }

    /// The evaluation corrected by the correction history, where enabled.
    #[inline]
    fn static_eval(&self, game: &G) -> i32 {
        let raw = self.evaluate(game);
        if self.options.correction_history && G::HAS_STRUCTURE_KEY {
            let correction = self
                .mem
                .histories
                .correction(game.side_to_move(), game.structure_key());
            (raw + correction).clamp(-(EVAL_LIMIT - 1), EVAL_LIMIT - 1)
        } else {
            raw
        }
    }

    /// One iteration, in a narrow window around the last score when enabled,
    /// widened until the score falls inside it.
    pub(crate) fn aspiration(&mut self, game: &mut G, depth: i32, previous: i32) -> i32 {
        self.root_depth = depth;
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
        let (root_nodes, mut best_nodes) = (self.nodes, None);
        self.mem.pv[0].clear();
        self.mem.frames[0] = Frame {
            static_eval: if game.noisy_is_forced() {
                NO_EVAL
            } else {
                self.static_eval(game)
            },
            ..Frame::EMPTY
        };
        for i in 0..self.mem.root_moves.len() {
            // Between root moves too, not only every CHECK_INTERVAL nodes: a
            // helper's table entries make the main thread's next iterations
            // quick, and they would be wasted work.
            if self.main && self.control.helper_reached_max_depth() {
                self.stopped = true;
                break;
            }
            let mv = self.mem.root_moves[i];
            let mover = game.side_to_move();
            self.mem.frames[0].move_key = Some(game.move_key(mv));
            let move_nodes = self.nodes;
            self.nodes += 1;
            game.play(mv);
            let score = if i == 0 || !self.options.pvs {
                self.child(game, mover, depth - 1, 1, alpha, beta, false)
            } else {
                let probe = self.child(game, mover, depth - 1, 1, alpha, alpha + 1, true);
                if probe > alpha && probe < beta && !self.stopped {
                    self.child(game, mover, depth - 1, 1, alpha, beta, false)
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
                    best_nodes = Some(self.nodes - move_nodes);
                    self.root_best = Some((mv, score));
                    self.update_pv(0, mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.mem.root_moves[..=best_index].rotate_right(1);
        self.root_best_share =
            best_nodes.map(|nodes: u64| nodes as f64 / (self.nodes - root_nodes).max(1) as f64);
        best
    }

    /// Searches the position just reached by a move of `mover`, returning its
    /// score for `mover` within the window `(alpha, beta)`. Usually the side
    /// changes and the child is searched negated; where the same side moves again
    /// (White's placement then first move in Escampe) it is not.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn child(
        &mut self,
        game: &mut G,
        mover: Side,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        cut_node: bool,
    ) -> i32 {
        if game.side_to_move() == mover {
            self.negamax(game, depth, ply, alpha, beta, cut_node)
        } else {
            -self.negamax(game, depth, ply, -beta, -alpha, cut_node)
        }
    }

    /// [`Search::child`] for quiescence.
    #[inline]
    fn quiet_child(&mut self, game: &mut G, mover: Side, ply: usize, alpha: i32, beta: i32) -> i32 {
        if game.side_to_move() == mover {
            self.quiescence(game, ply, alpha, beta)
        } else {
            -self.quiescence(game, ply, -beta, -alpha)
        }
    }

    #[inline]
    fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.mem.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }

    #[inline]
    fn out_of_budget(&mut self) -> bool {
        if self.nodes.is_multiple_of(CHECK_INTERVAL) {
            self.flush_nodes();
            let control = self.control;
            if control.stop.load(Ordering::Relaxed)
                || control.nodes.load(Ordering::Relaxed) >= control.node_limit
                || (self.main && control.hard_deadline.is_some_and(|d| Instant::now() >= d))
                || (!self.main && control.finished.load(Ordering::Relaxed))
                || (self.main && control.helper_reached_max_depth())
            {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// The continuation-history rows of the moves one and two plies before
    /// `ply` (none for a null move).
    #[inline]
    fn previous_keys(&self, ply: usize) -> [Option<usize>; 2] {
        if !self.options.continuation_history {
            return [None, None];
        }
        let back = |n: usize| {
            ply.checked_sub(n)
                .and_then(|p| self.mem.frames[p].move_key)
                .map(|key| self.mem.histories.row_of(key))
        };
        [back(1), back(2)]
    }

    /// The counter-move to the move before `ply`.
    #[inline]
    fn counter_move(&self, ply: usize) -> Option<G::Move> {
        if !self.options.continuation_history || ply == 0 {
            return None;
        }
        let key = self.mem.frames[ply - 1].move_key?;
        self.mem.counters.get(key).copied().flatten()
    }

    fn negamax(
        &mut self,
        game: &mut G,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        cut_node: bool,
    ) -> i32 {
        self.mem.pv[ply].clear();
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let side = game.side_to_move();
        if let Some(outcome) = game.outcome() {
            return score::terminal(outcome, side, ply);
        }
        if let Some(score) = self.table_score(game, ply, depth <= 0) {
            return score;
        }
        if ply >= MAX_PLY - 1 {
            return self.static_eval(game);
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
        let options = self.options;
        let pv_node = beta - alpha > 1;
        let excluded = self.mem.frames[ply].excluded;
        let key = game.hash();
        let entry = self.table.and_then(|t| t.probe(key));
        let table_score = entry.map(|e| score::from_table(e.score, ply));
        if let (Some(entry), Some(stored)) = (entry, table_score)
            && excluded.is_none()
            && !pv_node
            && i32::from(entry.depth) >= depth
        {
            match entry.bound {
                Bound::Exact => return stored,
                Bound::Lower if stored >= beta => return stored,
                Bound::Upper if stored <= alpha => return stored,
                _ => {}
            }
        }

        // The static evaluation, and a better guess from the table for pruning.
        let forced = game.noisy_is_forced();
        let static_eval = if excluded.is_some() {
            self.mem.frames[ply].static_eval
        } else if forced || !options.uses_static_eval() {
            NO_EVAL
        } else {
            self.static_eval(game)
        };
        self.mem.frames[ply].static_eval = static_eval;
        let mut eval = static_eval;
        if let (Some(entry), Some(stored)) = (entry, table_score)
            && static_eval != NO_EVAL
            && !is_proven(stored)
            && match entry.bound {
                Bound::Exact => true,
                Bound::Lower => stored > eval,
                Bound::Upper => stored < eval,
            }
        {
            eval = stored;
        }
        let improving = options.improving
            && static_eval != NO_EVAL
            && ply >= 2
            && self.mem.frames[ply - 2].static_eval != NO_EVAL
            && static_eval > self.mem.frames[ply - 2].static_eval;

        if !pv_node && static_eval != NO_EVAL && excluded.is_none() && !is_proven(beta) {
            if let Some(score) =
                self.prune_statically(game, depth, ply, alpha, beta, eval, improving, cut_node)
            {
                return score;
            }
            if self.stopped {
                return 0;
            }
            if let Some(score) = self.probcut(game, depth, ply, beta, entry, table_score, cut_node)
            {
                return score;
            }
            if self.stopped {
                return 0;
            }
        }

        // Singular extension: is the table move much better than all others?
        let mut singular_extension = 0;
        if options.singular
            && excluded.is_none()
            && depth >= SINGULAR_DEPTH
            && ply > 0
            && let (Some(entry), Some(stored)) = (entry, table_score)
            && let Some(code) = entry.best
            && i32::from(entry.depth) >= depth - 3
            && entry.bound != Bound::Upper
            && !is_proven(stored)
        {
            let singular_beta = stored - self.margins.singular * depth;
            self.mem.frames[ply].excluded = Some(code);
            let score = self.negamax(
                game,
                (depth - 1) / 2,
                ply,
                singular_beta - 1,
                singular_beta,
                cut_node,
            );
            self.mem.frames[ply].excluded = None;
            if self.stopped {
                return 0;
            }
            if score < singular_beta {
                singular_extension = 1;
            } else if singular_beta >= beta {
                // Several moves beat beta: this node fails high anyway.
                return singular_beta;
            } else if stored >= beta {
                singular_extension = -1;
            }
        }

        // Internal iterative reduction: where the table has no move for an
        // expected PV or cut node, its ordering is a guess, and a ply less
        // both costs less and stores a move for the next iteration.
        let depth = if options.internal_reduction
            && excluded.is_none()
            && depth >= IIR_DEPTH
            && (pv_node || cut_node)
            && entry.and_then(|e| e.best).is_none()
        {
            depth - 1
        } else {
            depth
        };

        let mut list = std::mem::take(&mut self.mem.lists[ply]);
        let mut order = std::mem::take(&mut self.mem.order[ply]);
        let mut tried = std::mem::take(&mut self.mem.tried[ply]);
        tried.clear();
        self.evaluator.candidate_moves(game, &mut list);
        let result = if list.is_empty() {
            self.static_eval(game)
        } else {
            let table_move = entry
                .and_then(|e| e.best)
                .and_then(|code| list.iter().copied().find(|&mv| game.move_code(mv) == code));
            self.search_moves(
                game,
                &mut list,
                &mut order,
                &mut tried,
                Node {
                    depth,
                    ply,
                    alpha,
                    beta,
                    cut_node,
                    pv_node,
                    forced,
                    static_eval,
                    improving,
                    excluded,
                    table_move,
                    singular_extension,
                },
            )
        };
        self.mem.lists[ply] = list;
        self.mem.order[ply] = order;
        self.mem.tried[ply] = tried;
        result
    }

    /// Razoring, reverse futility and null-move pruning, which decide a node
    /// from its static score before any move is generated. `Some` is the
    /// node's score.
    #[allow(clippy::too_many_arguments)]
    fn prune_statically(
        &mut self,
        game: &mut G,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        eval: i32,
        improving: bool,
        cut_node: bool,
    ) -> Option<i32> {
        let options = self.options;
        if options.razoring
            && depth <= RAZOR_DEPTH
            && !is_proven(alpha)
            && eval + self.margins.razor * depth < alpha
        {
            let score = if options.quiescence {
                self.quiescence(game, ply, alpha, alpha + 1)
            } else {
                eval
            };
            if score <= alpha || self.stopped {
                return Some(score);
            }
        }
        if options.reverse_futility
            && depth <= REVERSE_FUTILITY_DEPTH
            && eval - self.margins.reverse_futility * (depth - i32::from(improving)) >= beta
        {
            return Some(eval);
        }
        if options.null_move
            && G::HAS_NULL_MOVE
            && depth >= NULL_MOVE_DEPTH
            && eval >= beta
            && ply >= self.null_move_min_ply
            && !(ply >= 1 && self.mem.frames[ply - 1].null_move)
            && game.null_move_is_safe()
        {
            let reduction = 3 + depth / 4 + ((eval - beta) / self.margins.null_move_step).min(3);
            self.mem.frames[ply].move_key = None;
            self.mem.frames[ply].null_move = true;
            game.play_null();
            let score = -self.negamax(
                game,
                depth - reduction,
                ply + 1,
                -beta,
                -beta + 1,
                !cut_node,
            );
            game.undo_null();
            self.mem.frames[ply].null_move = false;
            if self.stopped {
                return Some(0);
            }
            if score >= beta {
                let score = if is_proven(score) { beta } else { score };
                if self.null_move_min_ply > 0 || depth < NULL_VERIFY_DEPTH {
                    return Some(score);
                }
                // Verification: the same search without null moves for this
                // side for a while.
                self.null_move_min_ply = ply + 3 * (depth - reduction) as usize / 4;
                let verified = self.negamax(game, depth - reduction, ply, beta - 1, beta, false);
                self.null_move_min_ply = 0;
                if verified >= beta || self.stopped {
                    return Some(score);
                }
            }
        }
        None
    }

    /// ProbCut, in the style of Scan and Moby Dam: when the node searched to
    /// half its depth beats beta by a margin, the full search very likely
    /// beats beta too. Works the same whether or not the game has noisy moves.
    #[allow(clippy::too_many_arguments)]
    fn probcut(
        &mut self,
        game: &mut G,
        depth: i32,
        ply: usize,
        beta: i32,
        entry: Option<crate::table::Entry>,
        table_score: Option<i32>,
        cut_node: bool,
    ) -> Option<i32> {
        if !self.options.probcut || depth < PROBCUT_DEPTH {
            return None;
        }
        let raised = beta + self.margins.probcut;
        if is_proven(raised) {
            return None;
        }
        // The table already says a search this shallow stays below the raised beta.
        if let (Some(entry), Some(stored)) = (entry, table_score)
            && i32::from(entry.depth) >= depth / 2
            && entry.bound != Bound::Lower
            && stored < raised
        {
            return None;
        }
        let score = self.negamax(game, depth / 2, ply, raised - 1, raised, cut_node);
        if self.stopped {
            return Some(0);
        }
        (score >= raised).then_some(beta)
    }

    /// The move loop of an interior node whose moves are in `list`.
    fn search_moves(
        &mut self,
        game: &mut G,
        list: &mut MoveList<G::Move>,
        order: &mut Vec<i32>,
        tried: &mut Vec<G::Move>,
        node: Node<G::Move>,
    ) -> i32 {
        let options = self.options;
        let Node {
            depth,
            ply,
            mut alpha,
            beta,
            cut_node,
            pv_node,
            forced,
            static_eval,
            improving,
            excluded,
            table_move,
            singular_extension,
        } = node;
        let side = game.side_to_move();
        let previous = self.previous_keys(ply);
        let counter = self.counter_move(ply);
        self.score_moves(game, list, order, ply, table_move, counter, previous);
        let single_reply = i32::from(options.single_reply_extension && list.len() == 1);
        let late_move_limit = (3 + depth * depth) * i32::from(options.late_move_percent)
            / 100
            / (2 - i32::from(improving));

        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut searched = 0usize;
        let mut skip_quiets = false;
        for i in 0..list.len() {
            let mv = pick_next(list, order, i, &mut self.mem.sorter);
            if let Some(code) = excluded
                && game.move_code(mv) == code
            {
                continue;
            }
            let noisy = game.is_noisy(mv);
            let is_table = Some(mv) == table_move;
            let is_killer = self.mem.frames[ply].killers.contains(&Some(mv));
            let is_counter = counter == Some(mv);
            let move_key = game.move_key(mv);
            let history = if noisy {
                0
            } else {
                self.mem.histories.quiet(side, move_key)
                    + self.mem.histories.continuation(previous, move_key)
            };

            // Shallow pruning of quiet moves, once a move has been searched.
            if ply > 0 && !forced && !noisy && !is_table && best > -PROVEN_THRESHOLD {
                if options.hopeless_pruning && searched >= 2 && game.is_hopeless(mv) {
                    continue;
                }
                if skip_quiets && !is_killer && !is_counter {
                    continue;
                }
                if options.late_move_pruning
                    && depth <= LATE_MOVE_DEPTH
                    && searched as i32 >= late_move_limit
                    && !pv_node
                {
                    skip_quiets = true;
                    if !is_killer && !is_counter {
                        continue;
                    }
                }
                let reduced = depth - 1 - self.reductions.get(depth, searched + 1) / 1024;
                // Against a table's score the evaluation says nothing: the
                // leaves below are scored by the table.
                if options.futility
                    && reduced <= FUTILITY_DEPTH
                    && static_eval != NO_EVAL
                    && !score::is_table(alpha)
                    && static_eval
                        + self.margins.futility_base
                        + self.margins.futility * reduced.max(0)
                        <= alpha
                {
                    continue;
                }
            }

            let mut extension = single_reply;
            if is_table {
                extension = extension.max(singular_extension).min(1);
                if singular_extension < 0 {
                    extension = -1;
                }
            }
            if extension > 0 && ply as i32 >= 2 * self.root_depth {
                extension = 0;
            }
            let child_depth = depth - 1 + extension;
            let mover = side;
            self.mem.frames[ply].move_key = Some(move_key);
            game.play(mv);
            // Only a child that searches probes the table: quiescence never does.
            if child_depth > 0
                && let Some(table) = self.table
            {
                table.prefetch(game.hash());
            }
            searched += 1;
            let score = if searched == 1 || !options.pvs {
                let child_cut = !pv_node && !cut_node;
                self.child(game, mover, child_depth, ply + 1, alpha, beta, child_cut)
            } else {
                let reduction = self.reduction(
                    depth,
                    searched,
                    child_depth,
                    noisy,
                    pv_node,
                    cut_node,
                    improving,
                    is_killer || is_counter,
                    history,
                    extension,
                );
                let mut probe = self.child(
                    game,
                    mover,
                    child_depth - reduction,
                    ply + 1,
                    alpha,
                    alpha + 1,
                    true,
                );
                if probe > alpha && reduction > 0 && !self.stopped {
                    probe = self.child(
                        game,
                        mover,
                        child_depth,
                        ply + 1,
                        alpha,
                        alpha + 1,
                        !cut_node,
                    );
                }
                if probe > alpha && probe < beta && !self.stopped {
                    self.child(game, mover, child_depth, ply + 1, alpha, beta, false)
                } else {
                    probe
                }
            };
            game.undo(mv);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                    if score >= beta {
                        self.reward(game, mv, noisy, ply, depth, tried, previous);
                        break;
                    }
                }
            }
            tried.push(mv);
        }
        if searched == 0 {
            // Only the excluded move (a singular search), or nothing left.
            return alpha;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if excluded.is_none() {
            if let Some(table) = self.table {
                table.store(
                    game.hash(),
                    best_move.map(|mv| game.move_code(mv)),
                    score::to_table(best, ply),
                    depth as i16,
                    bound,
                );
            }
            if options.correction_history
                && G::HAS_STRUCTURE_KEY
                && static_eval != NO_EVAL
                && !is_proven(best)
                && !best_move.is_some_and(|mv| game.is_noisy(mv))
                && !(bound == Bound::Lower && best <= static_eval)
                && !(bound == Bound::Upper && best >= static_eval)
            {
                let structure = game.structure_key();
                self.mem
                    .histories
                    .update_correction(side, structure, best - static_eval, depth);
            }
        }
        best
    }

    /// How many plies less a late move is searched first.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn reduction(
        &self,
        depth: i32,
        searched: usize,
        child_depth: i32,
        noisy: bool,
        pv_node: bool,
        cut_node: bool,
        improving: bool,
        refutation: bool,
        history: i32,
        extension: i32,
    ) -> i32 {
        let options = self.options;
        if !options.reductions || depth < 3 || noisy {
            return 0;
        }
        if !options.reduction_table {
            // The classic rule: the fourth quiet move on, one ply; two for very
            // late moves of deep nodes.
            return if searched >= 4 && !refutation && extension == 0 {
                1 + i32::from(searched >= 9 && depth >= 6)
            } else {
                0
            };
        }
        if searched <= 1 + usize::from(pv_node) {
            return 0;
        }
        let mut r = self.reductions.get(depth, searched);
        if pv_node {
            r -= 1024;
        }
        if cut_node {
            r += 1024;
        }
        if options.improving && !improving {
            r += 512;
        }
        if refutation {
            r -= 1024;
        }
        r -= history * 1024 / 8192;
        (r / 1024).clamp(0, (child_depth - 1).max(0))
    }

    fn quiescence(&mut self, game: &mut G, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.mem.pv[ply].clear();
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let side = game.side_to_move();
        if let Some(outcome) = game.outcome() {
            return score::terminal(outcome, side, ply);
        }
        if let Some(score) = self.table_score(game, ply, true) {
            return score;
        }
        if ply >= MAX_PLY - 1 {
            return self.static_eval(game);
        }
        // Where noisy moves are optional, a good enough static score ends the
        // line before any move is generated.
        let mut stand_pat = None;
        if G::NOISY_IS_OPTIONAL {
            let score = self.static_eval(game);
            if score >= beta {
                return score;
            }
            stand_pat = Some(score);
        }
        let mut list = std::mem::take(&mut self.mem.lists[ply]);
        let can_decline = game.noisy_moves(&mut list);
        let mut best = -INFINITY;
        if can_decline || list.is_empty() {
            let stand_pat = stand_pat.unwrap_or_else(|| self.static_eval(game));
            if stand_pat >= beta || list.is_empty() {
                self.mem.lists[ply] = list;
                return stand_pat;
            }
            best = stand_pat;
            alpha = alpha.max(stand_pat);
        }
        for i in 0..list.len() {
            let mv = list[i];
            let mover = game.side_to_move();
            game.play(mv);
            let score = self.quiet_child(game, mover, ply + 1, alpha, beta);
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
        self.mem.lists[ply] = list;
        best
    }

    /// Ordering scores: table move, noisy moves (by their history), killers,
    /// the counter-move, then quiet moves by the game's hint and their histories.
    #[allow(clippy::too_many_arguments)]
    fn score_moves(
        &self,
        game: &G,
        list: &MoveList<G::Move>,
        order: &mut Vec<i32>,
        ply: usize,
        table_move: Option<G::Move>,
        counter: Option<G::Move>,
        previous: [Option<usize>; 2],
    ) {
        let options = self.options;
        let side = game.side_to_move();
        order.clear();
        let killers = self.mem.frames[ply].killers;
        let histories = &self.mem.histories;
        for &mv in list.iter() {
            let score = if Some(mv) == table_move {
                1 << 30
            } else if game.is_noisy(mv) {
                let history = if options.capture_history {
                    histories.noisy(side, game.move_key(mv))
                } else {
                    0
                };
                (1 << 29) + history
            } else if options.killers && Some(mv) == killers[0] {
                1 << 28
            } else if options.killers && Some(mv) == killers[1] {
                (1 << 28) - 1
            } else if Some(mv) == counter {
                (1 << 28) - 2
            } else {
                let key = game.move_key(mv);
                let mut history = 0;
                if options.history {
                    history += histories.quiet(side, key);
                }
                history += histories.continuation(previous, key);
                if G::HAS_ORDER_HINT {
                    // The game's guess first; the histories order equal guesses.
                    game.order_hint(mv).clamp(-HINT_LIMIT, HINT_LIMIT) * HINT_SCALE
                        + history.clamp(-HINT_SCALE / 2, HINT_SCALE / 2 - 1)
                } else {
                    history
                }
            };
            order.push(score);
        }
    }

    /// A move caused a cutoff: a quiet one becomes a killer and counter-move
    /// and gains history, the quiet moves tried before it lose some; a noisy
    /// one gains noisy history. Noisy moves tried before it lose some.
    #[allow(clippy::too_many_arguments)]
    fn reward(
        &mut self,
        game: &G,
        mv: G::Move,
        noisy: bool,
        ply: usize,
        depth: i32,
        tried: &[G::Move],
        previous: [Option<usize>; 2],
    ) {
        let options = self.options;
        let side = game.side_to_move();
        let bonus = history::bonus(depth);
        if !noisy {
            let frame = &mut self.mem.frames[ply];
            if options.killers && frame.killers[0] != Some(mv) {
                frame.killers[1] = frame.killers[0];
                frame.killers[0] = Some(mv);
            }
            if options.continuation_history
                && ply > 0
                && let Some(key) = self.mem.frames[ply - 1].move_key
                && let Some(slot) = self.mem.counters.get_mut(key)
            {
                *slot = Some(mv);
            }
            let key = game.move_key(mv);
            if options.history {
                self.mem.histories.update_quiet(side, key, bonus);
            }
            self.mem.histories.update_continuation(previous, key, bonus);
            for &other in tried {
                if !game.is_noisy(other) {
                    let key = game.move_key(other);
                    if options.history {
                        self.mem.histories.update_quiet(side, key, -bonus);
                    }
                    self.mem
                        .histories
                        .update_continuation(previous, key, -bonus);
                }
            }
        } else if options.capture_history {
            self.mem
                .histories
                .update_noisy(side, game.move_key(mv), bonus);
        }
        if options.capture_history {
            for &other in tried {
                if game.is_noisy(other) {
                    self.mem
                        .histories
                        .update_noisy(side, game.move_key(other), -bonus);
                }
            }
        }
    }
}

/// What the move loop needs to know of its node.
#[derive(Clone, Copy)]
struct Node<M> {
    depth: i32,
    ply: usize,
    alpha: i32,
    beta: i32,
    cut_node: bool,
    pv_node: bool,
    forced: bool,
    static_eval: i32,
    improving: bool,
    excluded: Option<u32>,
    table_move: Option<M>,
    singular_extension: i32,
}

/// Picks before the rest is sorted: most cutoffs come from the first moves, so
/// they are found by selection; the rest is sorted once.
const SELECTED_FIRST: usize = 2;

/// Buffers for sorting a node's moves without allocating once warm.
struct Sorter<M> {
    keys: Vec<u64>,
    moves: Vec<M>,
}

/// Below this many moves left, the remainder is sorted by insertion.
const INSERTION_SORT_MAX: usize = 16;

/// Returns the move to search `i`-th: the best-scored remaining one (ties in
/// generation order, so searches are reproducible).
#[inline]
fn pick_next<M: Copy>(
    list: &mut MoveList<M>,
    order: &mut [i32],
    i: usize,
    sorter: &mut Sorter<M>,
) -> M {
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
        sort_rest(list, order, i, sorter);
    }
    list[i]
}

/// Sorts `list[from..]` best first, ties in their present order (a stable
/// sort). Ataxx nodes have 60 to 100 moves, where insertion sort's quadratic
/// cost was a sixth of the search's time: longer lists sort keys that hold
/// the score above the position (which makes every key distinct and the
/// unstable sort stable), then move the moves to match.
fn sort_rest<M: Copy>(
    list: &mut MoveList<M>,
    order: &mut [i32],
    from: usize,
    sorter: &mut Sorter<M>,
) {
    let rest = list.len() - from;
    if rest <= INSERTION_SORT_MAX {
        for j in from + 1..list.len() {
            let (score, mv) = (order[j], list[j]);
            let mut k = j;
            while k > from && order[k - 1] < score {
                order[k] = order[k - 1];
                list[k] = list[k - 1];
                k -= 1;
            }
            order[k] = score;
            list[k] = mv;
        }
        return;
    }
    // Descending keys: the score's bits made unsigned-ordered, then the
    // complement of the position (earlier first among equal scores).
    let Sorter { keys, moves } = sorter;
    keys.clear();
    keys.extend((0..rest).map(|k| {
        let score = (order[from + k] as u32 ^ 0x8000_0000) as u64;
        score << 32 | u64::from(u32::MAX - k as u32)
    }));
    keys.sort_unstable_by(|a, b| b.cmp(a));
    moves.clear();
    moves.extend_from_slice(&list[from..]);
    for (k, &key) in keys.iter().enumerate() {
        let source = (u32::MAX - key as u32) as usize;
        list[from + k] = moves[source];
        order[from + k] = ((key >> 32) as u32 ^ 0x8000_0000) as i32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plateau_core::Rng;

    /// The key sort of long lists orders moves exactly as a stable sort does
    /// (and as the insertion sort of short ones): the searches, and so the
    /// bench node counts, do not depend on which sort ran.
    #[test]
    fn sorting_the_rest_is_a_stable_sort_best_first() {
        let mut rng = Rng::new(7);
        let mut sorter = Sorter {
            keys: Vec::new(),
            moves: Vec::new(),
        };
        for length in 0..140usize {
            for spread in [3u64, 1000, 1 << 40] {
                let scores: Vec<i32> = (0..length)
                    .map(|_| (rng.below(spread) as i64 - spread as i64 / 2) as i32)
                    .collect();
                let mut list = MoveList::new();
                for mv in 0..length as u32 {
                    list.push(mv);
                }
                let mut order = scores.clone();
                let from = SELECTED_FIRST.min(length);
                sort_rest(&mut list, &mut order, from, &mut sorter);
                let mut expected: Vec<(i32, u32)> =
                    scores[from..].iter().copied().zip(from as u32..).collect();
                expected.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
                let got: Vec<(i32, u32)> = order[from..]
                    .iter()
                    .copied()
                    .zip(list[from..].iter().copied())
                    .collect();
                assert_eq!(got, expected, "length {length}, spread {spread}");
                assert_eq!(&list[..from], &(0..from as u32).collect::<Vec<_>>()[..]);
            }
        }
    }
}
