//! Proof certificates: a solved value, written so that anyone can check it
//! without trusting the solver.
//!
//! A claim "the value is at least `b`" is proven by a strategy tree: where the
//! side that claims it is to move, one move (written in the certificate);
//! where its opponent is, every move (implied: the checker enumerates them in
//! board order). "At most `b`" is the same with the roles swapped. Once a
//! position has `leaf` empty cells or fewer, the certificate stops and the
//! checker finds the position's value itself by plain alpha-beta to the end of
//! the game, with no table and no pruning beyond alpha-beta.
//!
//! The file is a few text lines (the position, the bounds claimed, the leaf
//! size, the number of moves), a blank line, then one byte per written move
//! (its cell, bit `rank * 8 + file`): first the proof of the lower bound, then
//! that of the upper bound. Nothing else is needed, so a corrupted byte can
//! only make the proof fail, or still prove what the header claims.

use super::search::Search;
use crate::bits::{Bits, Geometry};
use crate::board::Board;
use crate::{Virus, VirusGame};
use plateau_core::time::Instant;
use plateau_core::{Game, Side};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::Duration;

/// The checker's leaf searches order moves at nodes with this many empty cells
/// or more.
const CHECK_ORDER_MIN_EMPTIES: u32 = 6;

const MAGIC: &str = "plateau virus certificate 1";

/// The certificate of a virus position's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    /// The position, in the game's text.
    pub position: String,
    /// The bounds proven on the value for the side to move (from `-cells` to
    /// `cells` when one side is not claimed).
    pub lower: i32,
    pub upper: i32,
    /// Positions with this many empty cells or fewer are searched by the checker.
    pub leaf: u32,
    /// The proving side's moves, in the order the checker meets them.
    pub moves: Vec<u8>,
}

/// What checking a certificate found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    pub position: String,
    pub lower: i32,
    pub upper: i32,
    /// Positions of the strategy trees checked, and leaves searched.
    pub tree_nodes: u64,
    pub leaves: u64,
    /// Nodes of the leaf searches.
    pub leaf_nodes: u64,
    pub elapsed: Duration,
}

impl Certificate {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = format!(
            "{MAGIC}\nposition {}\nlower {}\nupper {}\nleaf {}\nmoves {}\n\n",
            self.position,
            self.lower,
            self.upper,
            self.leaf,
            self.moves.len()
        )
        .into_bytes();
        out.extend_from_slice(&self.moves);
        out
    }

    /// Reads a certificate file, checking its form (not yet its proof).
    pub fn parse(bytes: &[u8]) -> Result<Certificate, String> {
        let not_one = || format!("not a plateau certificate (its first line should be {MAGIC:?})");
        let split = bytes
            .windows(2)
            .position(|w| w == b"\n\n")
            .filter(|&at| at < 4096)
            .ok_or_else(not_one)?;
        let header = std::str::from_utf8(&bytes[..split]).map_err(|_| not_one())?;
        let mut lines = header.lines();
        if lines.next() != Some(MAGIC) {
            return Err(not_one());
        }
        let mut fields = std::collections::HashMap::new();
        for line in lines {
            let (key, value) = line
                .split_once(' ')
                .ok_or_else(|| format!("certificate header line {line:?} has no value"))?;
            fields.insert(key, value);
        }
        let field = |key: &str| {
            fields
                .get(key)
                .copied()
                .ok_or_else(|| format!("the certificate has no {key} line"))
        };
        let number = |key: &str| -> Result<i64, String> {
            field(key)?
                .parse::<i64>()
                .map_err(|_| format!("the certificate's {key} line is not a number"))
        };
        let (lower, upper, leaf, count) = (
            number("lower")?,
            number("upper")?,
            number("leaf")?,
            number("moves")?,
        );
        if !(-100..=100).contains(&lower) || !(-100..=100).contains(&upper) || lower > upper {
            return Err(format!("the certificate claims bounds [{lower}, {upper}]"));
        }
        if !(0..=64).contains(&leaf) {
            return Err(format!("the certificate's leaf size {leaf} is not 0 to 64"));
        }
        let moves = &bytes[split + 2..];
        if count < 0 || moves.len() as i64 != count {
            return Err(format!(
                "the certificate says {count} moves but holds {} bytes after its header",
                moves.len()
            ));
        }
        Ok(Certificate {
            position: field("position")?.to_string(),
            lower: lower as i32,
            upper: upper as i32,
            leaf: leaf as u32,
            moves: moves.to_vec(),
        })
    }
}

/// Builds the certificate of `lower <= value <= upper` for `game` with the
/// solver's warm table (`search`): at each position where the proving side is
/// to move, the first move that the solver shows keeps the bound.
pub(crate) fn build(
    search: &mut Search<'_>,
    game: &Virus,
    lower: i32,
    upper: i32,
    leaf: u32,
) -> Result<Certificate, String> {
    let board = game.board();
    let (me, opp) = (board.us(), board.them());
    let cells = search.cells;
    // Bounds are stored for the side to move; a game already over is its score.
    let mut moves = Vec::new();
    let mut builder = Builder {
        search,
        leaf,
        moves: &mut moves,
    };
    if lower > -cells {
        builder.at_least(me, opp, lower)?;
    }
    if upper < cells {
        builder.at_most(me, opp, upper)?;
    }
    Ok(Certificate {
        position: game.to_text(),
        lower,
        upper,
        leaf,
        moves,
    })
}

struct Builder<'s, 'a> {
    search: &'s mut Search<'a>,
    leaf: u32,
    moves: &'s mut Vec<u8>,
}

impl Builder<'_, '_> {
    /// Proves "value(me, opp) >= b": one move whose reply position is worth at
    /// most `-b`.
    fn at_least(&mut self, me: u64, opp: u64, b: i32) -> Result<(), String> {
        let g = self.search.geo;
        let empty = g.cells & !(me | opp);
        let drops = g.dilate(me) & empty;
        let empties = empty.count_ones();
        if drops == 0 || empties <= self.leaf {
            return Ok(());
        }
        let first = self.search.lookup(me, opp, drops, empties).first;
        let mut order = [0u8; 64];
        let count = self
            .search
            .order(me, opp, empty, drops, empties, first, &mut order);
        for &to in &order[..count] {
            let flips = g.ring1[to as usize] & opp;
            let (next_me, next_opp) = (opp ^ flips, me | 1 << to | flips);
            if self.search.probe(next_me, next_opp, -b + 1) <= -b {
                self.moves.push(to);
                return self.at_most(next_me, next_opp, -b);
            }
        }
        Err(format!(
            "the solver found no move keeping {b:+} (a solver fault): {}",
            position_text(g.n, me, opp)
        ))
    }

    /// Proves "value(me, opp) <= b": every move leads to a position worth at
    /// least `-b`.
    fn at_most(&mut self, me: u64, opp: u64, b: i32) -> Result<(), String> {
        let g = self.search.geo;
        let empty = g.cells & !(me | opp);
        let drops = g.dilate(me) & empty;
        if drops == 0 || empty.count_ones() <= self.leaf {
            return Ok(());
        }
        let mut rest = drops;
        while rest != 0 {
            let to = rest.trailing_zeros();
            rest &= rest - 1;
            let flips = g.ring1[to as usize] & opp;
            self.at_least(opp ^ flips, me | 1 << to | flips, -b)?;
        }
        Ok(())
    }
}

/// A position from bitboards, in the game's text, Black to move (for messages).
fn position_text(n: usize, me: u64, opp: u64) -> String {
    match u64::geometry(n) {
        Some(geo) => VirusGame::from_board(Board::new(geo, [me, opp], 0, Side::Black)).to_text(),
        None => format!("{me:#x} {opp:#x}"),
    }
}

/// Checks a certificate: reads the position with the game's own parser, then
/// walks the strategy trees, playing each written move only if it is a legal
/// drop, enumerating every move of the other side, and searching each leaf to
/// the end with plain alpha-beta. Uses nothing of the solver but the board's
/// neighbour tables (the rules' own).
pub fn verify(bytes: &[u8]) -> Result<Checked, String> {
    verify_with_threads(bytes, 1, &mut |_| {})
}

/// How far a check has gone: moves of the certificate walked (of `total`),
/// leaves searched, time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheckProgress {
    pub walked: usize,
    pub total: usize,
    pub leaves: u64,
    pub elapsed: Duration,
}

/// Time between two progress reports of a long check.
const REPORT_EVERY: Duration = Duration::from_secs(10);

/// [`verify`] with `threads` threads searching the leaves (the walk through
/// the strategy trees stays on one; its path never depends on a leaf's result,
/// so the leaves can be searched in any order).
pub fn verify_with_threads(
    bytes: &[u8],
    threads: usize,
    progress: &mut dyn FnMut(CheckProgress),
) -> Result<Checked, String> {
    let started = Instant::now();
    let certificate = Certificate::parse(bytes)?;
    let game = Virus::from_text(&certificate.position)
        .map_err(|e| format!("the certificate's position: {e}"))?;
    let board = game.board();
    let cells = (board.n() * board.n()) as i32;
    if certificate.lower < -cells || certificate.upper > cells {
        return Err(format!(
            "the certificate claims bounds [{}, {}] on a board of {cells} cells",
            certificate.lower, certificate.upper
        ));
    }
    let geo = board.geo;
    let (me, opp) = (board.us(), board.them());
    let mut walk = Walk {
        geo,
        leaf: certificate.leaf,
        moves: &certificate.moves,
        at: 0,
        tree_nodes: 0,
        batch: Vec::with_capacity(LEAF_BATCH),
    };
    let leaf_nodes = AtomicU64::new(0);
    let leaves = AtomicU64::new(0);
    let total = certificate.moves.len();
    let mut next_report = started + REPORT_EVERY;
    let mut report = |walked: usize| {
        let now = Instant::now();
        if now >= next_report {
            next_report = now + REPORT_EVERY;
            progress(CheckProgress {
                walked,
                total,
                leaves: leaves.load(Ordering::Relaxed),
                elapsed: now - started,
            });
        }
    };
    let claims = [
        (
            certificate.lower > -cells,
            Claim::AtLeast,
            certificate.lower,
        ),
        (certificate.upper < cells, Claim::AtMost, certificate.upper),
    ];
    for (claimed, claim, b) in claims {
        if !claimed {
            continue;
        }
        let what = match claim {
            Claim::AtLeast => format!("the proof of value >= {b:+} fails"),
            Claim::AtMost => format!("the proof of value <= {b:+} fails"),
        };
        let failure = Mutex::new(None::<String>);
        let failed = AtomicBool::new(false);
        let check_batch = |batch: &[Leaf]| {
            let mut nodes = 0;
            for leaf in batch {
                if failed.load(Ordering::Relaxed) {
                    return;
                }
                if let Err(e) = leaf.check(geo, &mut nodes) {
                    failed.store(true, Ordering::Relaxed);
                    let mut first = failure.lock().unwrap_or_else(|e| e.into_inner());
                    first.get_or_insert(e);
                }
            }
            leaf_nodes.fetch_add(nodes, Ordering::Relaxed);
            leaves.fetch_add(batch.len() as u64, Ordering::Relaxed);
        };
        let walked = if threads <= 1 {
            walk.prove(claim, me, opp, b, &mut |batch, walked| {
                check_batch(batch);
                report(walked);
                !failed.load(Ordering::Relaxed)
            })
        } else {
            let (send, receive) = mpsc::sync_channel::<Vec<Leaf>>(2 * threads);
            let receive = Mutex::new(receive);
            std::thread::scope(|scope| {
                // Dropped when the walk ends, which lets the searchers finish.
                let send = send;
                for _ in 0..threads {
                    let (receive, check_batch) = (&receive, &check_batch);
                    scope.spawn(move || {
                        loop {
                            let next = receive.lock().unwrap_or_else(|e| e.into_inner()).recv();
                            match next {
                                Ok(batch) => check_batch(&batch),
                                Err(_) => return,
                            }
                        }
                    });
                }
                walk.prove(claim, me, opp, b, &mut |batch, walked| {
                    report(walked);
                    send.send(batch.to_vec()).is_ok() && !failed.load(Ordering::Relaxed)
                })
            })
        };
        if let Some(reason) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
            return Err(format!("{what}: {reason}"));
        }
        walked.map_err(|e| format!("{what}: {e}"))?;
    }
    if walk.at != certificate.moves.len() {
        return Err(format!(
            "the proofs end after {} of the certificate's {} moves",
            walk.at,
            certificate.moves.len()
        ));
    }
    Ok(Checked {
        position: certificate.position,
        lower: certificate.lower,
        upper: certificate.upper,
        tree_nodes: walk.tree_nodes,
        leaves: leaves.into_inner(),
        leaf_nodes: leaf_nodes.into_inner(),
        elapsed: started.elapsed(),
    })
}

/// Leaves handed to the searching threads at a time.
const LEAF_BATCH: usize = 4096;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Claim {
    AtLeast,
    AtMost,
}

/// A position the checker searches itself: is its value at least (at most) `b`?
#[derive(Clone, Copy, Debug)]
struct Leaf {
    me: u64,
    opp: u64,
    claim: Claim,
    b: i32,
}

impl Leaf {
    fn check(&self, geo: &'static Geometry<u64>, nodes: &mut u64) -> Result<(), String> {
        let b = self.b;
        let holds = match self.claim {
            Claim::AtLeast => leaf_value(geo, self.me, self.opp, b - 1, b, nodes) >= b,
            Claim::AtMost => leaf_value(geo, self.me, self.opp, b, b + 1, nodes) <= b,
        };
        if holds {
            return Ok(());
        }
        let relation = match self.claim {
            Claim::AtLeast => "less than",
            Claim::AtMost => "more than",
        };
        Err(format!(
            "{} (to move) is worth {relation} {b:+}",
            position_text(geo.n, self.me, self.opp)
        ))
    }
}

/// The exact value of a position by plain alpha-beta (fail-hard window
/// `(alpha, beta)`): the end of the game as the rules define it, the side to
/// move's stones minus the opponent's, empty cells to the side that still has
/// a drop. Far enough from the end, moves leaving the opponent fewest replies
/// go first (ordering changes the work, never the value).
fn leaf_value(
    g: &'static Geometry<u64>,
    me: u64,
    opp: u64,
    mut alpha: i32,
    beta: i32,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    let empty = g.cells & !(me | opp);
    let drops = g.dilate(me) & empty;
    if drops == 0 {
        return me.count_ones() as i32 - opp.count_ones() as i32 - empty.count_ones() as i32;
    }
    let mut moves = [0u8; 64];
    let mut count = 0;
    let mut rest = drops;
    if empty.count_ones() >= CHECK_ORDER_MIN_EMPTIES {
        let mut replies = [0u32; 64];
        while rest != 0 {
            let to = rest.trailing_zeros();
            rest &= rest - 1;
            let flips = g.ring1[to as usize] & opp;
            let key = (g.dilate(opp ^ flips) & empty & !(1 << to)).count_ones();
            let mut i = count;
            while i > 0 && replies[i - 1] > key {
                replies[i] = replies[i - 1];
                moves[i] = moves[i - 1];
                i -= 1;
            }
            replies[i] = key;
            moves[i] = to as u8;
            count += 1;
        }
    } else {
        while rest != 0 {
            moves[count] = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            count += 1;
        }
    }
    for &to in &moves[..count] {
        let flips = g.ring1[to as usize] & opp;
        let v = -leaf_value(g, opp ^ flips, me | 1 << to | flips, -beta, -alpha, nodes);
        if v >= beta {
            return beta;
        }
        alpha = alpha.max(v);
    }
    alpha
}

/// The walk through the strategy trees: reads the written moves, checks they
/// are legal, enumerates the other side's, and hands the leaves on in batches.
struct Walk<'c> {
    geo: &'static Geometry<u64>,
    leaf: u32,
    moves: &'c [u8],
    at: usize,
    tree_nodes: u64,
    batch: Vec<Leaf>,
}

/// Takes a batch of leaves; `false` stops the walk (a leaf failed).
type Sink<'s> = dyn FnMut(&[Leaf], usize) -> bool + 's;

impl Walk<'_> {
    /// Walks the proof of `claim` about `(me, opp)` and `b`, handing every
    /// leaf to `sink`.
    fn prove(
        &mut self,
        claim: Claim,
        me: u64,
        opp: u64,
        b: i32,
        sink: &mut Sink<'_>,
    ) -> Result<(), String> {
        let walked = match claim {
            Claim::AtLeast => self.at_least(me, opp, b, sink),
            Claim::AtMost => self.at_most(me, opp, b, sink),
        };
        if walked.is_ok() && !self.batch.is_empty() {
            sink(&self.batch, self.at);
        }
        self.batch.clear();
        walked
    }

    fn push(&mut self, leaf: Leaf, sink: &mut Sink<'_>) -> Result<(), String> {
        self.batch.push(leaf);
        if self.batch.len() == LEAF_BATCH {
            let go_on = sink(&self.batch, self.at);
            self.batch.clear();
            if !go_on {
                return Err("a leaf failed".into());
            }
        }
        Ok(())
    }

    fn at_least(&mut self, me: u64, opp: u64, b: i32, sink: &mut Sink<'_>) -> Result<(), String> {
        self.tree_nodes += 1;
        let g = self.geo;
        let empty = g.cells & !(me | opp);
        let drops = g.dilate(me) & empty;
        if drops == 0 || empty.count_ones() <= self.leaf {
            let claim = Claim::AtLeast;
            return self.push(Leaf { me, opp, claim, b }, sink);
        }
        let Some(&to) = self.moves.get(self.at) else {
            return Err(format!(
                "the certificate ends before a move for {}",
                position_text(g.n, me, opp)
            ));
        };
        self.at += 1;
        if to >= 64 || drops >> to & 1 == 0 {
            return Err(format!(
                "move {} of the certificate (cell {to}) is not a legal drop in {}",
                self.at,
                position_text(g.n, me, opp)
            ));
        }
        let flips = g.ring1[to as usize] & opp;
        self.at_most(opp ^ flips, me | 1 << to | flips, -b, sink)
    }

    fn at_most(&mut self, me: u64, opp: u64, b: i32, sink: &mut Sink<'_>) -> Result<(), String> {
        self.tree_nodes += 1;
        let g = self.geo;
        let empty = g.cells & !(me | opp);
        let drops = g.dilate(me) & empty;
        if drops == 0 || empty.count_ones() <= self.leaf {
            let claim = Claim::AtMost;
            return self.push(Leaf { me, opp, claim, b }, sink);
        }
        let mut rest = drops;
        while rest != 0 {
            let to = rest.trailing_zeros();
            rest &= rest - 1;
            let flips = g.ring1[to as usize] & opp;
            self.at_least(opp ^ flips, me | 1 << to | flips, -b, sink)?;
        }
        Ok(())
    }
}
