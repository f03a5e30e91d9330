//! Learned evaluations: a small network over sparse inputs, updated as moves
//! are played (the NNUE design of chess and Ataxx engines).
//!
//! A game says which inputs are on from each side's point of view
//! ([`NetInputs`]), and, for speed, which a move switches on and off. The
//! network has one hidden layer, computed once per side (the accumulator) and
//! kept up to date by [`NetGame`] in `play`/`undo`; the output reads the side
//! to move's accumulator, then the other side's, through a clipped ReLU.
//! Weights are integers ([`Network`]): the trainer (`plateau-learn`) learns in
//! floating point and quantises.

use crate::{
    EVAL_LIMIT, Evaluator, Game, MoveError, MoveList, Outcome, PositionError, Rng, Side, Verdict,
};
use std::fmt;
use std::sync::Arc;

/// Most inputs one move may switch on (or off) from one side's view.
pub const MAX_CHANGES: usize = 48;

/// Activations are clipped to `0..=QA` (1.0 in the float network).
pub const QA: i32 = 255;
/// The output weights' fixed-point scale.
pub const QB: i32 = 64;
/// Float weights are kept within ±`WEIGHT_CLIP` so that they fit the integers
/// (and an accumulator of 64 inputs stays inside `i16`).
pub const WEIGHT_CLIP: f32 = 1.98;

/// One way a game offers to describe a position to a network. A game may
/// offer several (single cells, patterns of neighbouring cells); a network
/// file names the one it reads, so older networks keep playing when a game
/// gains a richer set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputSet {
    /// What a network file names it by.
    pub name: &'static str,
    /// How many distinct inputs it has.
    pub inputs: usize,
}

/// A game's inputs to a network: small integers below the input set's size,
/// seen from one side (the side's own pieces and the opponent's are different
/// inputs, so one set of weights serves both sides). `set` indexes
/// [`NetInputs::INPUT_SETS`].
pub trait NetInputs: Game {
    /// The input sets the game offers; the first is the one networks of file
    /// version 1 read.
    const INPUT_SETS: &'static [InputSet];

    /// Calls `add` with each input of `set` that is on here, from
    /// `perspective`'s view.
    fn active_features(&self, set: usize, perspective: Side, add: &mut impl FnMut(usize));

    /// Writes what `mv` (legal here, not yet played) switches on and off in
    /// `set`, from both sides' views, and returns `true`; or returns `false`
    /// to have the accumulators computed afresh after the move (the default:
    /// always correct, slower).
    fn feature_changes(&self, _set: usize, _mv: Self::Move, _changes: &mut FeatureChanges) -> bool {
        false
    }

    /// Writes what the null move ([`Game::play_null`], not yet played)
    /// switches on and off, from both sides' views. The default writes
    /// nothing: the pieces stay where they are. A game whose inputs hold
    /// more than the pieces (a move constraint that a pass clears) says
    /// what changes.
    fn null_feature_changes(&self, _set: usize, _changes: &mut FeatureChanges) {}
}

/// How a hidden neuron's sum becomes its activation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activation {
    /// Clipped ReLU: the sum clipped to `0..=1`.
    Clipped,
    /// Squared clipped ReLU (SCReLU): the clipped sum, squared. Lets one
    /// layer express products of features at no extra cost per node
    /// (what the strongest small NNUE engines use).
    SquaredClipped,
}

impl Activation {
    /// The name used on command lines and in recipes.
    pub fn name(self) -> &'static str {
        match self {
            Activation::Clipped => "crelu",
            Activation::SquaredClipped => "screlu",
        }
    }

    /// Reads [`Activation::name`].
    pub fn from_name(name: &str) -> Option<Activation> {
        match name {
            "crelu" => Some(Activation::Clipped),
            "screlu" => Some(Activation::SquaredClipped),
            _ => None,
        }
    }

    fn code(self) -> u8 {
        match self {
            Activation::Clipped => 0,
            Activation::SquaredClipped => 1,
        }
    }
}

/// The inputs a move switches on and off, per point of view.
#[derive(Clone, Debug)]
pub struct FeatureChanges {
    added: [[u16; MAX_CHANGES]; 2],
    removed: [[u16; MAX_CHANGES]; 2],
    counts: [[usize; 2]; 2],
}

impl Default for FeatureChanges {
    fn default() -> FeatureChanges {
        FeatureChanges {
            added: [[0; MAX_CHANGES]; 2],
            removed: [[0; MAX_CHANGES]; 2],
            counts: [[0; 2]; 2],
        }
    }
}

impl FeatureChanges {
    pub fn clear(&mut self) {
        self.counts = [[0; 2]; 2];
    }

    /// Input `feature` goes on from `perspective`'s view.
    #[inline]
    pub fn add(&mut self, perspective: Side, feature: usize) {
        let p = perspective.index();
        let n = self.counts[p][0];
        self.added[p][n] = feature as u16;
        self.counts[p][0] = n + 1;
    }

    /// Input `feature` goes off from `perspective`'s view.
    #[inline]
    pub fn remove(&mut self, perspective: Side, feature: usize) {
        let p = perspective.index();
        let n = self.counts[p][1];
        self.removed[p][n] = feature as u16;
        self.counts[p][1] = n + 1;
    }

    pub fn added(&self, perspective: Side) -> &[u16] {
        let p = perspective.index();
        &self.added[p][..self.counts[p][0]]
    }

    pub fn removed(&self, perspective: Side) -> &[u16] {
        let p = perspective.index();
        &self.removed[p][..self.counts[p][1]]
    }
}

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetError(pub String);

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NetError {}

/// The first bytes of a network file of version 1 (one input set per game,
/// clipped ReLU), still read.
pub const NET_MAGIC_V1: &[u8; 8] = b"PLATNET1";
/// The first bytes of a network file as written now: version 2 adds the input
/// set's name and the activation.
pub const NET_MAGIC: &[u8; 8] = b"PLATNET2";

/// A quantised network: `inputs -> hidden` (shared by both sides) `-> 1`.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// The game (with its variant) it evaluates.
    pub game: String,
    /// How it was made (the data and training commands), for people.
    pub recipe: String,
    /// The name of the input set it reads ([`InputSet::name`]); empty for a
    /// version 1 file, which reads the game's first set.
    pub input_set: String,
    pub activation: Activation,
    pub inputs: usize,
    pub hidden: usize,
    /// Evaluation units per unit of the float network's output (its logit).
    pub scale: f32,
    /// `inputs × hidden`, row per input, scaled by [`QA`].
    pub input_weights: Vec<i16>,
    /// `hidden`, scaled by [`QA`].
    pub input_bias: Vec<i16>,
    /// `2 × hidden` (the side to move's half first), scaled by [`QB`].
    pub output_weights: Vec<i16>,
    /// Scaled by `QA × QB`.
    pub output_bias: i32,
}

/// Largest sizes a network file may declare.
const MAX_INPUTS: usize = 1 << 16;
pub const MAX_HIDDEN: usize = 4096;

struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], NetError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&end| end <= self.bytes.len());
        let end =
            end.ok_or_else(|| NetError(format!("the network file ends inside its {what}")))?;
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }

    fn u32(&mut self, what: &str) -> Result<u32, NetError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn text(&mut self, what: &str) -> Result<String, NetError> {
        let len = self.u32(what)? as usize;
        let bytes = self.take(len, what)?;
        String::from_utf8(bytes.to_vec()).map_err(|_| NetError(format!("its {what} is not UTF-8")))
    }

    fn i16s(&mut self, n: usize, what: &str) -> Result<Vec<i16>, NetError> {
        let bytes = self.take(n * 2, what)?;
        Ok(bytes
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]))
            .collect())
    }
}

impl Network {
    /// Reads a network file (as [`Network::to_bytes`] writes it).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let mut cursor = Cursor { bytes, at: 0 };
        let magic = cursor.take(8, "header").ok();
        let version2 = magic == Some(&NET_MAGIC[..]);
        if !version2 && magic != Some(&NET_MAGIC_V1[..]) {
            return Err(NetError(
                "not a plateau network file (it does not start with PLATNET1 or PLATNET2)".into(),
            ));
        }
        let game = cursor.text("game name")?;
        let recipe = cursor.text("recipe")?;
        let (input_set, activation) = if version2 {
            let input_set = cursor.text("input set name")?;
            // An empty name is version 1's "the first set": written back as
            // version 1, the file would change under its hash.
            if input_set.is_empty() {
                return Err(NetError(
                    "a version 2 network must name its input set".into(),
                ));
            }
            let code = cursor.u32("activation")?;
            let activation = [Activation::Clipped, Activation::SquaredClipped]
                .into_iter()
                .find(|a| u32::from(a.code()) == code)
                .ok_or_else(|| NetError(format!("activation {code} is unknown")))?;
            (input_set, activation)
        } else {
            (String::new(), Activation::Clipped)
        };
        let inputs = cursor.u32("sizes")? as usize;
        let hidden = cursor.u32("sizes")? as usize;
        if !(1..=MAX_INPUTS).contains(&inputs) || !(1..=MAX_HIDDEN).contains(&hidden) {
            return Err(NetError(format!(
                "sizes {inputs} x {hidden} are out of range (at most {MAX_INPUTS} x {MAX_HIDDEN})"
            )));
        }
        let scale = f32::from_bits(cursor.u32("scale")?);
        if !(scale.is_finite() && scale > 0.0 && scale < 1e6) {
            return Err(NetError(format!("scale {scale} is not a positive number")));
        }
        let input_weights = cursor.i16s(inputs * hidden, "input weights")?;
        let input_bias = cursor.i16s(hidden, "input biases")?;
        let output_weights = cursor.i16s(2 * hidden, "output weights")?;
        let output_bias = cursor.u32("output bias")? as i32;
        // The output sums products of an activation (at most QA, or QA² when
        // squared, over OUTPUT_CHUNK neurons at a time) and a weight in 32
        // bits: refuse weights that could overflow them.
        let largest = output_weights
            .iter()
            .map(|w| i64::from(w.unsigned_abs()))
            .max();
        let (terms, top) = match activation {
            Activation::Clipped => (hidden as i64, i64::from(QA)),
            Activation::SquaredClipped => (
                hidden.min(OUTPUT_CHUNK) as i64,
                i64::from(QA) * i64::from(QA),
            ),
        };
        if activation == Activation::SquaredClipped
            && largest.unwrap_or(0) > i64::from(SQUARED_WEIGHT_LIMIT)
        {
            return Err(NetError(format!(
                "output weights up to {} exceed {SQUARED_WEIGHT_LIMIT}, the most the squared \
                 activation's output takes",
                largest.unwrap_or(0)
            )));
        }
        if terms * top * largest.unwrap_or(0) > i64::from(i32::MAX / 2) {
            return Err(NetError(format!(
                "output weights up to {} are too large for {hidden} hidden neurons",
                largest.unwrap_or(0)
            )));
        }
        if cursor.at != bytes.len() {
            return Err(NetError(format!(
                "{} bytes follow the network",
                bytes.len() - cursor.at
            )));
        }
        Ok(Network {
            game,
            recipe,
            input_set,
            activation,
            inputs,
            hidden,
            scale,
            input_weights,
            input_bias,
            output_weights,
            output_bias,
        })
    }

    /// The file's bytes: version 1 for a network that version 1 describes
    /// (the game's first input set, clipped ReLU), so that such a file reads
    /// and writes back byte for byte and keeps its hash; version 2 otherwise.
    pub fn to_bytes(&self) -> Vec<u8> {
        let version1 = self.input_set.is_empty() && self.activation == Activation::Clipped;
        let mut out = Vec::new();
        out.extend_from_slice(if version1 { NET_MAGIC_V1 } else { NET_MAGIC });
        for text in [&self.game, &self.recipe] {
            out.extend_from_slice(&(text.len() as u32).to_le_bytes());
            out.extend_from_slice(text.as_bytes());
        }
        if !version1 {
            out.extend_from_slice(&(self.input_set.len() as u32).to_le_bytes());
            out.extend_from_slice(self.input_set.as_bytes());
            out.extend_from_slice(&u32::from(self.activation.code()).to_le_bytes());
        }
        out.extend_from_slice(&(self.inputs as u32).to_le_bytes());
        out.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        out.extend_from_slice(&self.scale.to_bits().to_le_bytes());
        for values in [&self.input_weights, &self.input_bias, &self.output_weights] {
            for value in values.iter() {
                out.extend_from_slice(&value.to_le_bytes());
            }
        }
        out.extend_from_slice(&self.output_bias.to_le_bytes());
        out
    }

    /// A hash of the whole file (FNV-1a, 64 bits): names a network exactly.
    pub fn content_hash(&self) -> u64 {
        self.to_bytes()
            .iter()
            .fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
                (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
            })
    }

    /// Checks that the network is for `game`, reads one of `sets` and has
    /// its number of inputs; returns that set's index.
    pub fn check_for(&self, game: &str, sets: &[InputSet]) -> Result<usize, NetError> {
        if self.game != game {
            return Err(NetError(format!(
                "this network evaluates {}, not {game}",
                self.game
            )));
        }
        let index = self.input_set_index(sets).ok_or_else(|| {
            let names: Vec<&str> = sets.iter().map(|set| set.name).collect();
            NetError(format!(
                "this network reads inputs '{}'; {game} has {}",
                self.input_set,
                names.join(", ")
            ))
        })?;
        let inputs = sets[index].inputs;
        if self.inputs != inputs {
            return Err(NetError(format!(
                "this network has {} inputs; {game}'s '{}' inputs are {inputs}",
                self.inputs, sets[index].name
            )));
        }
        Ok(index)
    }

    /// Which of `sets` the network reads (a version 1 file: the first).
    pub fn input_set_index(&self, sets: &[InputSet]) -> Option<usize> {
        if self.input_set.is_empty() {
            return (!sets.is_empty()).then_some(0);
        }
        sets.iter().position(|set| set.name == self.input_set)
    }

    /// Sets `acc` to the hidden layer's sums for `perspective`, from scratch,
    /// reading input set `set`.
    pub fn refresh<G: NetInputs>(&self, game: &G, set: usize, perspective: Side, acc: &mut [i16]) {
        with_avx2!({
            acc.copy_from_slice(&self.input_bias);
            game.active_features(set, perspective, &mut |feature| {
                add_rows(
                    acc,
                    &self.input_weights,
                    self.hidden,
                    &[feature as u16],
                    &[],
                );
            });
        })
    }

    /// `to = from` with the rows of `removed` taken off and `added` put on.
    #[inline]
    pub fn update(&self, from: &[i16], to: &mut [i16], added: &[u16], removed: &[u16]) {
        with_avx2!(update_rows(
            from,
            to,
            &self.input_weights,
            self.hidden,
            added,
            removed
        ))
    }

    /// The evaluation from the two accumulators (the side to move's first),
    /// in evaluation units, inside ±[`EVAL_LIMIT`].
    #[inline]
    pub fn output(&self, us: &[i16], them: &[i16]) -> i32 {
        let (w_us, w_them) = self.output_weights.split_at(self.hidden);
        let hidden_sum = match self.activation {
            Activation::Clipped => {
                with_avx2!(i64::from(dot_clipped(us, w_us)) + i64::from(dot_clipped(them, w_them)))
            }
            // Activations in QA² units: back to QA units, as the bias reads.
            Activation::SquaredClipped => {
                with_avx2!(dot_squared(us, w_us) + dot_squared(them, w_them)) / i64::from(QA)
            }
        };
        let sum = hidden_sum + i64::from(self.output_bias);
        let score = sum as f64 * f64::from(self.scale) / f64::from(QA * QB);
        let limit = f64::from(EVAL_LIMIT - 1);
        score.clamp(-limit, limit) as i32
    }

    /// The evaluation of `game` computed from scratch (what the accumulators
    /// kept by [`NetGame`] must agree with).
    pub fn evaluate<G: NetInputs>(&self, game: &G) -> i32 {
        let set = self.input_set_index(G::INPUT_SETS).unwrap_or(0);
        let mut us = vec![0; self.hidden];
        let mut them = vec![0; self.hidden];
        let side = game.side_to_move();
        self.refresh(game, set, side, &mut us);
        self.refresh(game, set, !side, &mut them);
        self.output(&us, &them)
    }
}

/// Neurons summed in 32 bits at a time by the squared activation's output
/// (QA² × a weight × this many stays inside `i32`).
const OUTPUT_CHUNK: usize = 128;

/// The largest output weight of a network with the squared activation:
/// `activation × weight` must fit an `i16` (255 × 128 does), which lets the
/// output multiply pairs of 16-bit numbers (one instruction for 8 or 16).
const SQUARED_WEIGHT_LIMIT: u16 = 128;

/// Evaluates `$body` in a copy of the code compiled for AVX2 where the
/// processor has it (16 lanes of `i16` instead of SSE2's 8), portably
/// otherwise: the default x86-64 target stops at SSE2, and the network's
/// loops are most of the search's time.
macro_rules! with_avx2 {
    ($body:expr) => {{
        #[cfg(target_arch = "x86_64")]
        {
            #[target_feature(enable = "avx2")]
            #[inline]
            fn fast<T>(f: impl FnOnce() -> T) -> T {
                f()
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the processor has AVX2, checked just above.
                unsafe { fast(|| $body) }
            } else {
                $body
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            $body
        }
    }};
}
use with_avx2;

/// Adds the rows of `added` to `acc` and takes those of `removed` off.
#[inline(always)]
fn add_rows(acc: &mut [i16], weights: &[i16], hidden: usize, added: &[u16], removed: &[u16]) {
    for &feature in added {
        let row = &weights[usize::from(feature) * hidden..(usize::from(feature) + 1) * hidden];
        for (a, &w) in acc.iter_mut().zip(row) {
            *a = a.wrapping_add(w);
        }
    }
    for &feature in removed {
        let row = &weights[usize::from(feature) * hidden..(usize::from(feature) + 1) * hidden];
        for (a, &w) in acc.iter_mut().zip(row) {
            *a = a.wrapping_sub(w);
        }
    }
}

/// Neurons updated together by [`update_rows`]: 128 `i16`s are eight AVX2
/// registers, so a whole block stays in registers while every row is added.
const UPDATE_BLOCK: usize = 128;

/// `to = from + Σ added rows − Σ removed rows`, a block of neurons at a time:
/// each block is read once, changed in registers by every row, and written
/// once, where copying then adding row by row reads and writes the
/// accumulator once per row (a move in Ataxx changes up to 20 blocks' rows
/// for each view).
#[inline(always)]
fn update_rows(
    from: &[i16],
    to: &mut [i16],
    weights: &[i16],
    hidden: usize,
    added: &[u16],
    removed: &[u16],
) {
    let mut start = 0;
    while start + UPDATE_BLOCK <= hidden {
        let mut block = [0i16; UPDATE_BLOCK];
        block.copy_from_slice(&from[start..start + UPDATE_BLOCK]);
        let row = |feature: u16| {
            let offset = usize::from(feature) * hidden + start;
            &weights[offset..offset + UPDATE_BLOCK]
        };
        for &feature in added {
            for (a, &w) in block.iter_mut().zip(row(feature)) {
                *a = a.wrapping_add(w);
            }
        }
        for &feature in removed {
            for (a, &w) in block.iter_mut().zip(row(feature)) {
                *a = a.wrapping_sub(w);
            }
        }
        to[start..start + UPDATE_BLOCK].copy_from_slice(&block);
        start += UPDATE_BLOCK;
    }
    // Sizes that are not a multiple of the block: the rest row by row.
    if start < hidden {
        let rest = &mut to[start..hidden];
        rest.copy_from_slice(&from[start..hidden]);
        for &feature in added {
            let offset = usize::from(feature) * hidden;
            for (a, &w) in rest
                .iter_mut()
                .zip(&weights[offset + start..offset + hidden])
            {
                *a = a.wrapping_add(w);
            }
        }
        for &feature in removed {
            let offset = usize::from(feature) * hidden;
            for (a, &w) in rest
                .iter_mut()
                .zip(&weights[offset + start..offset + hidden])
            {
                *a = a.wrapping_sub(w);
            }
        }
    }
}

/// `Σ clamp(a, 0, QA) · w`, in QA × QB units: products of 16-bit numbers
/// summed in 32 bits, which the compiler turns into multiply-and-add pairs.
#[inline(always)]
fn dot_clipped(acc: &[i16], weights: &[i16]) -> i32 {
    acc.iter()
        .zip(weights)
        .map(|(&a, &w)| i32::from(a.clamp(0, QA as i16)) * i32::from(w))
        .sum()
}

/// `Σ clamp(a, 0, QA)² · w`, in QA² × QB units: `c · (c·w)`, where `c·w`
/// fits 16 bits (see [`SQUARED_WEIGHT_LIMIT`]), summed in 32 bits a chunk at
/// a time.
#[inline(always)]
fn dot_squared(acc: &[i16], weights: &[i16]) -> i64 {
    acc.chunks(OUTPUT_CHUNK)
        .zip(weights.chunks(OUTPUT_CHUNK))
        .map(|(acc, weights)| {
            let sum: i32 = acc
                .iter()
                .zip(weights)
                .map(|(&a, &w)| {
                    let c = a.clamp(0, QA as i16);
                    i32::from(c) * i32::from(c.wrapping_mul(w))
                })
                .sum();
            i64::from(sum)
        })
        .sum()
}

/// Plies of accumulators a [`NetGame`] reserves (it grows beyond if needed).
const RESERVED_PLIES: usize = 256;

/// A game with its network's accumulators, kept up to date in `play` and
/// `undo`: what the search plays on when it evaluates with a network. One
/// slot of `2 × hidden` sums per ply (White's view, then Black's), so undo
/// is a step back and a move writes only the next slot.
#[derive(Clone)]
pub struct NetGame<G: NetInputs> {
    game: G,
    net: Arc<Network>,
    /// The input set the network reads.
    set: usize,
    sums: Vec<i16>,
    ply: usize,
    changes: FeatureChanges,
}

impl<G: NetInputs> NetGame<G> {
    /// `game` with its accumulators computed; `net` must be for this game
    /// ([`Network::check_for`]).
    pub fn new(game: G, net: Arc<Network>) -> NetGame<G> {
        let set = net.input_set_index(G::INPUT_SETS).unwrap_or(0);
        let mut sums = vec![0; RESERVED_PLIES * 2 * net.hidden];
        let h = net.hidden;
        net.refresh(&game, set, Side::White, &mut sums[..h]);
        net.refresh(&game, set, Side::Black, &mut sums[h..2 * h]);
        NetGame {
            game,
            net,
            set,
            sums,
            ply: 0,
            changes: FeatureChanges::default(),
        }
    }

    pub fn inner(&self) -> &G {
        &self.game
    }

    pub fn network(&self) -> &Network {
        &self.net
    }

    /// The network's evaluation, from the kept accumulators.
    #[inline]
    pub fn evaluate(&self) -> i32 {
        let h = self.net.hidden;
        let slot = &self.sums[self.ply * 2 * h..(self.ply + 1) * 2 * h];
        let (white, black) = slot.split_at(h);
        match self.game.side_to_move() {
            Side::White => self.net.output(white, black),
            Side::Black => self.net.output(black, white),
        }
    }

    /// Writes the next ply's slot: this ply's sums with `self.changes`
    /// applied, for both views.
    #[inline]
    fn write_next_from_changes(&mut self) {
        let h = self.net.hidden;
        let (done, next) = self.sums.split_at_mut((self.ply + 1) * 2 * h);
        let from = &done[self.ply * 2 * h..];
        let to = &mut next[..2 * h];
        for (side, range) in [(Side::White, 0..h), (Side::Black, h..2 * h)] {
            self.net.update(
                &from[range.clone()],
                &mut to[range],
                self.changes.added(side),
                self.changes.removed(side),
            );
        }
    }

    /// Makes room for the next ply's slot.
    #[inline]
    fn reserve_next(&mut self) {
        let needed = (self.ply + 2) * 2 * self.net.hidden;
        if self.sums.len() < needed {
            self.sums.resize(needed * 2, 0);
        }
    }
}

impl<G: NetInputs> fmt::Debug for NetGame<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NetGame")
            .field("game", &self.game)
            .field("ply", &self.ply)
            .finish()
    }
}

impl<G: NetInputs> fmt::Display for NetGame<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.game, f)
    }
}

impl<G: NetInputs> Game for NetGame<G> {
    type Move = G::Move;

    fn side_to_move(&self) -> Side {
        self.game.side_to_move()
    }

    fn legal_moves(&self, out: &mut MoveList<Self::Move>) {
        self.game.legal_moves(out);
    }

    fn count_legal_moves(&self, scratch: &mut MoveList<Self::Move>) -> u64 {
        self.game.count_legal_moves(scratch)
    }

    #[inline]
    fn play(&mut self, mv: Self::Move) {
        self.reserve_next();
        self.changes.clear();
        if self.game.feature_changes(self.set, mv, &mut self.changes) {
            self.write_next_from_changes();
            self.game.play(mv);
        } else {
            self.game.play(mv);
            let h = self.net.hidden;
            let next = &mut self.sums[(self.ply + 1) * 2 * h..(self.ply + 2) * 2 * h];
            let (white, black) = next.split_at_mut(h);
            self.net.refresh(&self.game, self.set, Side::White, white);
            self.net.refresh(&self.game, self.set, Side::Black, black);
        }
        self.ply += 1;
    }

    #[inline]
    fn undo(&mut self, mv: Self::Move) {
        self.game.undo(mv);
        self.ply -= 1;
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.game.hash()
    }

    fn compute_hash(&self) -> u64 {
        self.game.compute_hash()
    }

    #[inline]
    fn is_noisy(&self, mv: Self::Move) -> bool {
        self.game.is_noisy(mv)
    }

    const NOISY_IS_OPTIONAL: bool = G::NOISY_IS_OPTIONAL;

    fn noisy_moves(&self, out: &mut MoveList<Self::Move>) -> bool {
        self.game.noisy_moves(out)
    }

    const MOVE_KEYS: usize = G::MOVE_KEYS;

    #[inline]
    fn move_key(&self, mv: Self::Move) -> usize {
        self.game.move_key(mv)
    }

    const HAS_ORDER_HINT: bool = G::HAS_ORDER_HINT;

    #[inline]
    fn is_hopeless(&self, mv: Self::Move) -> bool {
        self.game.is_hopeless(mv)
    }

    fn order_hint(&self, mv: Self::Move) -> i32 {
        self.game.order_hint(mv)
    }

    const HAS_NULL_MOVE: bool = G::HAS_NULL_MOVE;

    fn play_null(&mut self) {
        self.reserve_next();
        self.changes.clear();
        self.game.null_feature_changes(self.set, &mut self.changes);
        self.write_next_from_changes();
        self.game.play_null();
        self.ply += 1;
    }

    fn undo_null(&mut self) {
        self.game.undo_null();
        self.ply -= 1;
    }

    fn null_move_is_safe(&self) -> bool {
        self.game.null_move_is_safe()
    }

    fn noisy_is_forced(&self) -> bool {
        self.game.noisy_is_forced()
    }

    #[inline]
    fn move_code(&self, mv: Self::Move) -> u32 {
        self.game.move_code(mv)
    }

    const HAS_STRUCTURE_KEY: bool = G::HAS_STRUCTURE_KEY;

    fn structure_key(&self) -> u64 {
        self.game.structure_key()
    }

    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError> {
        self.game.parse_move(text)
    }

    fn format_move(&self, mv: Self::Move) -> String {
        self.game.format_move(mv)
    }

    /// A network game needs its network: build it with [`NetGame::new`].
    fn from_text(_text: &str) -> Result<Self, PositionError> {
        Err(PositionError::new(
            "a position with a network is built from the game and the network",
        ))
    }

    fn to_text(&self) -> String {
        self.game.to_text()
    }

    fn to_file(&self) -> String {
        self.game.to_file()
    }

    fn from_file(text: &str) -> Result<Self, PositionError> {
        Self::from_text(text)
    }

    fn write_record(start: &Self, moves: &[String], result: Option<Verdict<'_>>) -> String {
        G::write_record(&start.game, moves, result)
    }
}

/// Evaluates with the network kept by [`NetGame`]; the game's own evaluator
/// still gives the book and the candidate moves.
#[derive(Clone, Debug)]
pub struct NetEval<E> {
    pub net: Arc<Network>,
    pub classic: E,
}

impl<G: NetInputs, E: Evaluator<G>> Evaluator<NetGame<G>> for NetEval<E> {
    #[inline]
    fn evaluate(&self, game: &NetGame<G>) -> i32 {
        self.classic.adjust_learned(&game.game, game.evaluate())
    }

    fn book_move(&self, game: &NetGame<G>, rng: &mut Rng) -> Option<G::Move> {
        self.classic.book_move(&game.game, rng)
    }

    fn candidate_moves(&self, game: &NetGame<G>, out: &mut MoveList<G::Move>) {
        self.classic.candidate_moves(&game.game, out);
    }

    #[inline]
    fn proven(&self, game: &NetGame<G>, limit: u32) -> Option<crate::Proven> {
        self.classic.proven(&game.game, limit)
    }

    fn proven_limit(&self, root: &NetGame<G>) -> u32 {
        self.classic.proven_limit(&root.game)
    }

    fn filter_root(&self, game: &NetGame<G>, moves: &mut Vec<G::Move>) {
        self.classic.filter_root(&game.game, moves);
    }
}
