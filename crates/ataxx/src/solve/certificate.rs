//! Proof certificates: a solved value, written so that anyone can check it
//! without trusting the solver.
//!
//! A claim "the value is at least `b`" is proven by a strategy tree: where the
//! side that claims it is to move, one move (written in the certificate);
//! where its opponent is, every move (implied: the checker enumerates them in
//! board order). "At most `b`" is the same with the roles swapped. Once a
//! position has `leaf` empty cells or fewer, the certificate stops and the
//! checker finds the position's value itself by plain alpha-beta to the end of
//! the game, with no table, no ordering and no pruning beyond alpha-beta.
//!
//! The file is a few text lines (the position, the bounds claimed, the leaf
//! size, the number of moves), a blank line, then one byte per written move
//! (its cell, bit `rank * 8 + file`): first the proof of the lower bound, then
//! that of the upper bound. Nothing else is needed, so a corrupted byte can
//! only make the proof fail, or still prove what the header claims.

use super::search::Search;
use crate::bits::Bits;
use crate::board::Board;
use crate::{Virus, VirusGame};
use plateau_core::time::Instant;
use plateau_core::{Game, Side};
use std::time::Duration;

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
    let mut checker = Checker {
        geo: board.geo,
        leaf: certificate.leaf,
        moves: &certificate.moves,
        at: 0,
        tree_nodes: 0,
        leaves: 0,
        leaf_nodes: 0,
    };
    let (me, opp) = (board.us(), board.them());
    if certificate.lower > -cells {
        checker
            .at_least(me, opp, certificate.lower)
            .map_err(|e| format!("the proof of value >= {:+} fails: {e}", certificate.lower))?;
    }
    if certificate.upper < cells {
        checker
            .at_most(me, opp, certificate.upper)
            .map_err(|e| format!("the proof of value <= {:+} fails: {e}", certificate.upper))?;
    }
    if checker.at != certificate.moves.len() {
        return Err(format!(
            "the proofs end after {} of the certificate's {} moves",
            checker.at,
            certificate.moves.len()
        ));
    }
    Ok(Checked {
        position: certificate.position,
        lower: certificate.lower,
        upper: certificate.upper,
        tree_nodes: checker.tree_nodes,
        leaves: checker.leaves,
        leaf_nodes: checker.leaf_nodes,
        elapsed: started.elapsed(),
    })
}

struct Checker<'c> {
    geo: &'static crate::bits::Geometry<u64>,
    leaf: u32,
    moves: &'c [u8],
    at: usize,
    tree_nodes: u64,
    leaves: u64,
    leaf_nodes: u64,
}

impl Checker<'_> {
    fn describe(&self, me: u64, opp: u64) -> String {
        position_text(self.geo.n, me, opp)
    }

    /// The exact value of a position by plain alpha-beta (fail-hard window
    /// `(alpha, beta)`): the end of the game as the rules define it, the
    /// side to move's stones minus the opponent's, empty cells to the side
    /// that still has a drop.
    fn value(&mut self, me: u64, opp: u64, mut alpha: i32, beta: i32) -> i32 {
        self.leaf_nodes += 1;
        let g = self.geo;
        let empty = g.cells & !(me | opp);
        let drops = g.dilate(me) & empty;
        if drops == 0 {
            return me.count_ones() as i32 - opp.count_ones() as i32 - empty.count_ones() as i32;
        }
        let mut rest = drops;
        while rest != 0 {
            let to = rest.trailing_zeros();
            rest &= rest - 1;
            let flips = g.ring1[to as usize] & opp;
            let v = -self.value(opp ^ flips, me | 1 << to | flips, -beta, -alpha);
            if v >= beta {
                return beta;
            }
            alpha = alpha.max(v);
        }
        alpha
    }

    fn at_least(&mut self, me: u64, opp: u64, b: i32) -> Result<(), String> {
        self.tree_nodes += 1;
        let g = self.geo;
        let empty = g.cells & !(me | opp);
        let drops = g.dilate(me) & empty;
        if drops == 0 || empty.count_ones() <= self.leaf {
            self.leaves += 1;
            if self.value(me, opp, b - 1, b) < b {
                return Err(format!(
                    "{} (to move) is worth less than {b:+}",
                    self.describe(me, opp)
                ));
            }
            return Ok(());
        }
        let Some(&to) = self.moves.get(self.at) else {
            return Err(format!(
                "the certificate ends before a move for {}",
                self.describe(me, opp)
            ));
        };
        self.at += 1;
        if to >= 64 || drops >> to & 1 == 0 {
            return Err(format!(
                "move {} of the certificate (cell {to}) is not a legal drop in {}",
                self.at,
                self.describe(me, opp)
            ));
        }
        let flips = g.ring1[to as usize] & opp;
        self.at_most(opp ^ flips, me | 1 << to | flips, -b)
    }

    fn at_most(&mut self, me: u64, opp: u64, b: i32) -> Result<(), String> {
        self.tree_nodes += 1;
        let g = self.geo;
        let empty = g.cells & !(me | opp);
        let drops = g.dilate(me) & empty;
        if drops == 0 || empty.count_ones() <= self.leaf {
            self.leaves += 1;
            if self.value(me, opp, b, b + 1) > b {
                return Err(format!(
                    "{} (to move) is worth more than {b:+}",
                    self.describe(me, opp)
                ));
            }
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
