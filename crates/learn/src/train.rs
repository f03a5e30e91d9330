//! The trainer: a network with one hidden layer over sparse inputs, learnt
//! on the CPU with every core, then quantised for the search.
//!
//! The float network computes, for each side, `a = b1 + Σ W1[input]` over the
//! inputs on from that side's view, clips it to `0..=1` (and squares it, with
//! the squared activation), and outputs `y = w2 · [act(a_us), act(a_them)] + b2`; `sigmoid(y)` is the side to move's expected
//! score. The target blends the search score, read through the same sigmoid
//! (`sigmoid(score / scale)`), with the game's result:
//! `λ·sigmoid(score/scale) + (1 − λ)·result`; the loss is the squared error.
//! Adam, mini-batches, a cosine learning-rate schedule, a held-back
//! validation set. Hand-written: at this size (a few hundred inputs, a
//! hidden layer of 64 to 512) a tensor library would be heavier than the
//! problem, and the sparse first layer is where all the time goes.

use plateau_core::Rng;
use plateau_core::net::{Activation, MAX_HIDDEN, Network, QA, QB, WEIGHT_CLIP};

/// Training positions as network inputs, with their targets' parts.
///
/// Two ways to hold a position's images under the board's symmetries:
/// each image pushed as its own sample ([`Encoded::with_images`], for any
/// inputs), or the position stored once and each image read through an
/// input map ([`Encoded::with_maps`], where a symmetry only renames
/// inputs): eight times less memory for eight images, so a session's data
/// and the last one's fit in one training run.
#[derive(Clone, Debug, Default)]
pub struct Encoded {
    /// The inputs of every stored sample: the side to move's, then the
    /// other side's.
    features: Vec<u16>,
    /// Where each stored sample's two lists start and end in `features`:
    /// sample `i`'s are `bounds[2i]..bounds[2i+1]` and
    /// `bounds[2i+1]..bounds[2i+2]`. 64-bit: ten million Ataxx positions in
    /// their eight images hold six billion inputs, past what 32 bits count.
    bounds: Vec<u64>,
    /// Search scores, evaluation units, one per stored sample.
    scores: Vec<f32>,
    /// Results: 0, ½, 1, one per stored sample.
    results: Vec<f32>,
    /// Consecutive samples that are images of one position (its symmetries):
    /// the validation split keeps them together.
    images: usize,
    /// With maps: `maps[s][f]` is the input that input `f` of a stored
    /// position becomes in its image under symmetry `s`. Empty: samples are
    /// stored as they are trained on.
    maps: Vec<Vec<u16>>,
    /// With maps: the symmetry of each sample, `images` of them per stored
    /// position.
    symmetries: Vec<u8>,
    /// The position (group of images) each game starts at, in order, where
    /// the reader said where games start ([`Encoded::start_game`]): what
    /// [`HoldOut::Games`] holds back whole.
    game_starts: Vec<usize>,
}

/// One sample's inputs: two stored lists, read through a map for an image.
#[derive(Clone, Copy)]
struct Sides<'a> {
    us: &'a [u16],
    them: &'a [u16],
    map: Option<&'a [u16]>,
}

impl Sides<'_> {
    /// The inputs of one side (0: the side to move), mapped.
    #[inline]
    fn inputs(&self, side: usize) -> impl Iterator<Item = usize> + '_ {
        let list = if side == 0 { self.us } else { self.them };
        let map = self.map;
        list.iter().map(move |&f| match map {
            Some(map) => usize::from(map[usize::from(f)]),
            None => usize::from(f),
        })
    }
}

impl Encoded {
    pub fn new() -> Encoded {
        Encoded::with_images(1)
    }

    /// Samples pushed `images` at a time, each group the images of one
    /// position under the board's symmetries.
    pub fn with_images(images: usize) -> Encoded {
        Encoded {
            bounds: vec![0],
            images: images.max(1),
            ..Encoded::default()
        }
    }

    /// Positions pushed once each ([`Encoded::push_images`]) and trained on
    /// in `images` of their images, read through `maps` (one per symmetry,
    /// the identity first; each a permutation of the inputs).
    pub fn with_maps(maps: Vec<Vec<u16>>, images: usize) -> Result<Encoded, String> {
        if maps.is_empty() || maps.len() > 256 {
            return Err(format!("{} input maps: 1 to 256 are kept", maps.len()));
        }
        if !(1..=maps.len()).contains(&images) {
            return Err(format!("{images} images of {} symmetries", maps.len()));
        }
        let inputs = maps[0].len();
        for (s, map) in maps.iter().enumerate() {
            if map.len() != inputs {
                return Err(format!(
                    "input map {s} has {} inputs, not {inputs}",
                    map.len()
                ));
            }
            let mut seen = vec![false; inputs];
            for &f in map {
                match seen.get_mut(usize::from(f)) {
                    Some(slot) if !*slot => *slot = true,
                    _ => {
                        return Err(format!(
                            "input map {s} is not a permutation of {inputs} inputs"
                        ));
                    }
                }
            }
        }
        Ok(Encoded {
            bounds: vec![0],
            images,
            maps,
            ..Encoded::default()
        })
    }

    /// Marks that the positions pushed next are a new game's, so that a
    /// validation set of whole games can be held back.
    pub fn start_game(&mut self) {
        let position = self.len() / self.images;
        if self.game_starts.last() != Some(&position) {
            self.game_starts.push(position);
        }
    }

    /// Adds a sample: the inputs from the side to move's view, from the
    /// other's, its search score and its result. Data made with maps takes
    /// positions through [`Encoded::push_images`] instead.
    pub fn push(&mut self, us: &[u16], them: &[u16], score: f32, result: f32) {
        assert!(
            self.maps.is_empty(),
            "data with input maps takes positions through push_images"
        );
        self.store(us, them, score, result);
    }

    fn store(&mut self, us: &[u16], them: &[u16], score: f32, result: f32) {
        self.features.extend_from_slice(us);
        self.bounds.push(self.features.len() as u64);
        self.features.extend_from_slice(them);
        self.bounds.push(self.features.len() as u64);
        self.scores.push(score);
        self.results.push(result);
    }

    /// Adds a position to data made [`Encoded::with_maps`], trained on in
    /// its images under `symmetries` (as many as the data's images).
    pub fn push_images(
        &mut self,
        us: &[u16],
        them: &[u16],
        score: f32,
        result: f32,
        symmetries: &[usize],
    ) -> Result<(), String> {
        if self.maps.is_empty() {
            return Err("positions with images need data made with input maps".into());
        }
        if symmetries.len() != self.images {
            return Err(format!(
                "{} images given where each position has {}",
                symmetries.len(),
                self.images
            ));
        }
        if let Some(&s) = symmetries.iter().find(|&&s| s >= self.maps.len()) {
            return Err(format!("symmetry {s} of {}", self.maps.len()));
        }
        let inputs = self.maps[0].len();
        if let Some(&f) = us.iter().chain(them).find(|&&f| usize::from(f) >= inputs) {
            return Err(format!("input {f} is past the maps' {inputs}"));
        }
        self.store(us, them, score, result);
        self.symmetries.extend(symmetries.iter().map(|&s| s as u8));
        Ok(())
    }

    /// Whether `image`, a position's inputs (from one view) encoded under
    /// `symmetry`, is what this data's map of that symmetry makes of
    /// `inputs`, the position's own: the check of a game's maps.
    pub fn maps_agree(&self, symmetry: usize, inputs: &[u16], image: &[u16]) -> bool {
        let Some(map) = self.maps.get(symmetry) else {
            return false;
        };
        let mut mapped = Vec::with_capacity(inputs.len());
        for &f in inputs {
            match map.get(usize::from(f)) {
                Some(&g) => mapped.push(g),
                None => return false,
            }
        }
        let mut image = image.to_vec();
        mapped.sort_unstable();
        image.sort_unstable();
        mapped == image
    }

    /// Samples to train on (each image counts).
    pub fn len(&self) -> usize {
        if self.maps.is_empty() {
            self.scores.len()
        } else {
            self.symmetries.len()
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The stored sample that sample `i` reads.
    #[inline]
    fn stored(&self, i: usize) -> usize {
        if self.maps.is_empty() {
            i
        } else {
            i / self.images
        }
    }

    #[inline]
    fn sides(&self, i: usize) -> Sides<'_> {
        let b = |k: usize| self.bounds[k] as usize;
        let j = self.stored(i);
        Sides {
            us: &self.features[b(2 * j)..b(2 * j + 1)],
            them: &self.features[b(2 * j + 1)..b(2 * j + 2)],
            map: (!self.maps.is_empty())
                .then(|| self.maps[usize::from(self.symmetries[i])].as_slice()),
        }
    }

    /// The largest input index used, plus one. With maps, the largest
    /// image of an input used: each stored input is looked up once, not
    /// once per map and per occurrence.
    pub fn inputs_used(&self) -> usize {
        let stored = self
            .features
            .iter()
            .map(|&f| usize::from(f) + 1)
            .max()
            .unwrap_or(0);
        if self.maps.is_empty() {
            return stored;
        }
        let mut used = vec![false; stored];
        for &f in &self.features {
            used[usize::from(f)] = true;
        }
        (0..stored)
            .filter(|&f| used[f])
            .flat_map(|f| self.maps.iter().map(move |map| usize::from(map[f]) + 1))
            .max()
            .unwrap_or(0)
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The scale that best predicts results from search scores:
/// `sigmoid(score / scale) ≈ result` in least squares (golden-section search
/// over 10 to 10 000 evaluation units). It makes the network's output read
/// in the search's units.
pub fn fit_scale(data: &Encoded) -> f32 {
    let error = |scale: f32| -> f64 {
        data.scores
            .iter()
            .zip(&data.results)
            .map(|(&s, &r)| f64::from(sigmoid(s / scale) - r).powi(2))
            .sum()
    };
    let (mut lo, mut hi) = (10f32.ln(), 10_000f32.ln());
    let phi = 0.618_034f32;
    for _ in 0..60 {
        let a = hi - phi * (hi - lo);
        let b = lo + phi * (hi - lo);
        if error(a.exp()) < error(b.exp()) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// What the validation set holds back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HoldOut {
    /// Positions drawn from all games: the positions of one game are on
    /// both sides, so a network that remembers games (more weights, the
    /// same data) scores lower than it plays. Kept as the default so that
    /// the shipped networks' recipes remake them.
    Positions,
    /// Whole games: the validation positions come from games the network
    /// never saw, so losses compare networks of different sizes honestly.
    Games,
}

impl HoldOut {
    /// The name used on command lines and in recipes.
    pub fn name(self) -> &'static str {
        match self {
            HoldOut::Positions => "positions",
            HoldOut::Games => "games",
        }
    }

    /// Reads [`HoldOut::name`].
    pub fn from_name(name: &str) -> Option<HoldOut> {
        match name {
            "positions" => Some(HoldOut::Positions),
            "games" => Some(HoldOut::Games),
            _ => None,
        }
    }
}

/// How to train.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub hidden: usize,
    pub activation: Activation,
    pub epochs: usize,
    pub batch: usize,
    pub learning_rate: f32,
    /// The search score's share of the target (the rest is the result).
    pub lambda: f32,
    /// Share of the samples held back for validation.
    pub validation: f32,
    /// What the validation set is made of.
    pub hold_out: HoldOut,
    /// Evaluation units per unit of the output; `None`: [`fit_scale`].
    pub scale: Option<f32>,
    pub seed: u64,
    pub threads: usize,
    /// Start from these weights instead of random ones (and keep their
    /// scale): a network learns from a new generation's data without the
    /// old data, which scratch folders do not keep.
    pub init: Option<FloatNet>,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            hidden: 128,
            activation: Activation::Clipped,
            epochs: 20,
            batch: 16_384,
            learning_rate: 0.001,
            lambda: 0.5,
            validation: 0.05,
            hold_out: HoldOut::Positions,
            scale: None,
            seed: 1,
            threads: 1,
            init: None,
        }
    }
}

/// The float network.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    pub inputs: usize,
    pub hidden: usize,
    pub activation: Activation,
    pub scale: f32,
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    pub w2: Vec<f32>,
    pub b2: f32,
}

impl FloatNet {
    fn new(
        inputs: usize,
        hidden: usize,
        activation: Activation,
        scale: f32,
        rng: &mut Rng,
    ) -> FloatNet {
        let mut uniform = |range: f32| (rng.unit() as f32 * 2.0 - 1.0) * range;
        FloatNet {
            inputs,
            hidden,
            activation,
            scale,
            w1: (0..inputs * hidden).map(|_| uniform(0.1)).collect(),
            b1: (0..hidden).map(|_| uniform(0.1)).collect(),
            w2: (0..2 * hidden).map(|_| uniform(0.1)).collect(),
            b2: 0.0,
        }
    }

    /// The float network a quantised one stands for (to within its
    /// rounding), to be trained further.
    pub fn from_network(net: &Network) -> FloatNet {
        let float = |values: &[i16], scale: i32| -> Vec<f32> {
            values
                .iter()
                .map(|&w| f32::from(w) / scale as f32)
                .collect()
        };
        FloatNet {
            inputs: net.inputs,
            hidden: net.hidden,
            activation: net.activation,
            scale: net.scale,
            w1: float(&net.input_weights, QA),
            b1: float(&net.input_bias, QA),
            w2: float(&net.output_weights, QB),
            b2: net.output_bias as f32 / (QA * QB) as f32,
        }
    }

    fn accumulate(&self, inputs: impl Iterator<Item = usize>, acc: &mut [f32]) {
        acc.copy_from_slice(&self.b1);
        for f in inputs {
            let row = &self.w1[f * self.hidden..(f + 1) * self.hidden];
            for (a, &w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    /// The output (a logit) for one position's two input lists.
    pub fn forward(&self, us: &[u16], them: &[u16]) -> f32 {
        let mut a = vec![0.0; self.hidden];
        let mut b = vec![0.0; self.hidden];
        self.accumulate(us.iter().map(|&f| usize::from(f)), &mut a);
        self.accumulate(them.iter().map(|&f| usize::from(f)), &mut b);
        self.output(&a, &b)
    }

    fn output(&self, us: &[f32], them: &[f32]) -> f32 {
        let (w_us, w_them) = self.w2.split_at(self.hidden);
        let activation = self.activation;
        let dot = |acc: &[f32], w: &[f32]| -> f32 {
            acc.iter()
                .zip(w)
                .map(|(&a, &w)| activate(activation, a) * w)
                .sum()
        };
        dot(us, w_us) + dot(them, w_them) + self.b2
    }

    /// The evaluation in evaluation units.
    pub fn evaluate(&self, us: &[u16], them: &[u16]) -> f32 {
        self.forward(us, them) * self.scale
    }

    /// The integer network the search runs, reading input set `input_set`.
    pub fn quantise(&self, game: &str, input_set: &str, recipe: &str) -> Network {
        let q = |w: f32, scale: i32| (w * scale as f32).round().clamp(-32767.0, 32767.0) as i16;
        Network {
            game: game.to_string(),
            recipe: recipe.to_string(),
            input_set: input_set.to_string(),
            activation: self.activation,
            inputs: self.inputs,
            hidden: self.hidden,
            scale: self.scale,
            input_weights: self.w1.iter().map(|&w| q(w, QA)).collect(),
            input_bias: self.b1.iter().map(|&w| q(w, QA)).collect(),
            output_weights: self.w2.iter().map(|&w| q(w, QB)).collect(),
            output_bias: (self.b2 * (QA * QB) as f32).round() as i32,
        }
    }
}

/// A hidden neuron's output for its sum `x`.
#[inline]
fn activate(activation: Activation, x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    match activation {
        Activation::Clipped => c,
        Activation::SquaredClipped => c * c,
    }
}

/// The activation's slope at `x`: both pass a gradient only strictly inside
/// `0..1`.
#[inline]
fn slope(activation: Activation, x: f32) -> f32 {
    if x <= 0.0 || x >= 1.0 {
        return 0.0;
    }
    match activation {
        Activation::Clipped => 1.0,
        Activation::SquaredClipped => 2.0 * x,
    }
}

/// Gradients (or Adam moments) of every parameter.
#[derive(Clone)]
struct Params {
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
}

impl Params {
    fn zeros(inputs: usize, hidden: usize) -> Params {
        Params {
            w1: vec![0.0; inputs * hidden],
            b1: vec![0.0; hidden],
            w2: vec![0.0; 2 * hidden],
            b2: 0.0,
        }
    }

    fn clear(&mut self) {
        self.w1.fill(0.0);
        self.b1.fill(0.0);
        self.w2.fill(0.0);
        self.b2 = 0.0;
    }

    fn add(&mut self, other: &Params) {
        for (a, b) in self.w1.iter_mut().zip(&other.w1) {
            *a += b;
        }
        for (a, b) in self.b1.iter_mut().zip(&other.b1) {
            *a += b;
        }
        for (a, b) in self.w2.iter_mut().zip(&other.w2) {
            *a += b;
        }
        self.b2 += other.b2;
    }
}

/// One epoch's figures. A network trained further from `--init` is first
/// reported as epoch 0, its validation loss before any step: how well the
/// earlier generation already predicts the new data, which the epochs
/// after it must beat for the new data to have taught anything.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochReport {
    pub epoch: usize,
    pub epochs: usize,
    /// `None` for epoch 0, where nothing was trained.
    pub train_loss: Option<f64>,
    pub validation_loss: f64,
    pub learning_rate: f32,
}

/// Which samples train and which validate: a seeded split of the positions,
/// each with all its `images` (so that no image of a validation position is
/// trained on); with `game_starts` (the position each game starts at,
/// ascending, the first 0), of whole games instead.
fn split(
    len: usize,
    images: usize,
    validation: f32,
    seed: u64,
    game_starts: Option<&[usize]>,
) -> (Vec<usize>, Vec<usize>) {
    let images = images.max(1);
    let groups = len / images;
    // Units of the split: single positions, or each game's run of them
    // (read off the starts, not stored: ten million positions would be ten
    // million ranges).
    let units = game_starts.map_or(groups, <[usize]>::len);
    let unit = |u: usize| match game_starts {
        Some(starts) => starts[u]..starts.get(u + 1).copied().unwrap_or(groups),
        None => u..u + 1,
    };
    let mut order: Vec<usize> = (0..units).collect();
    shuffle(&mut order, &mut Rng::new(seed ^ 0x7370_6c69_7400));
    let share = f64::from(validation.clamp(0.0, 0.5));
    let held = ((units as f64 * share).round() as usize).min(units.saturating_sub(1));
    let expand = |chosen: &[usize]| -> Vec<usize> {
        chosen
            .iter()
            .flat_map(|&u| unit(u))
            .flat_map(|g| g * images..(g + 1) * images)
            .collect()
    };
    (expand(&order[held..]), expand(&order[..held]))
}

fn shuffle(items: &mut [usize], rng: &mut Rng) {
    for i in (1..items.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        items.swap(i, j);
    }
}

/// The target of sample `i`.
fn target(data: &Encoded, i: usize, scale: f32, lambda: f32) -> f32 {
    let j = data.stored(i);
    lambda * sigmoid(data.scores[j] / scale) + (1.0 - lambda) * data.results[j]
}

/// The prediction and the target for sample `i`, leaving the two sides'
/// accumulators in `a` and `b`.
fn predict(
    net: &FloatNet,
    data: &Encoded,
    i: usize,
    lambda: f32,
    a: &mut [f32],
    b: &mut [f32],
) -> (f32, f32) {
    let sides = data.sides(i);
    net.accumulate(sides.inputs(0), a);
    net.accumulate(sides.inputs(1), b);
    (
        sigmoid(net.output(a, b)),
        target(data, i, net.scale, lambda),
    )
}

/// Adds the gradient of samples `indices` to `grad`; returns their summed loss.
fn backprop(
    net: &FloatNet,
    data: &Encoded,
    indices: &[usize],
    lambda: f32,
    grad: &mut Params,
    scratch: &mut [Vec<f32>; 3],
) -> f64 {
    let h = net.hidden;
    let mut loss = 0.0;
    for &i in indices {
        let sides = data.sides(i);
        let [a, b, d] = scratch;
        let (p, t) = predict(net, data, i, lambda, a, b);
        loss += f64::from((p - t) * (p - t));
        let dy = 2.0 * (p - t) * p * (1.0 - p);
        grad.b2 += dy;
        for side in 0..2 {
            let acc = if side == 0 { &*a } else { &*b };
            let w2 = &net.w2[side * h..(side + 1) * h];
            let g2 = &mut grad.w2[side * h..(side + 1) * h];
            for k in 0..h {
                let x = acc[k];
                g2[k] += dy * activate(net.activation, x);
                d[k] = dy * w2[k] * slope(net.activation, x);
                grad.b1[k] += d[k];
            }
            for f in sides.inputs(side) {
                let row = &mut grad.w1[f * h..(f + 1) * h];
                for (g, &dk) in row.iter_mut().zip(d.iter()) {
                    *g += dk;
                }
            }
        }
    }
    loss
}

/// The mean loss over `indices`, on every thread.
fn mean_loss(
    net: &FloatNet,
    data: &Encoded,
    indices: &[usize],
    lambda: f32,
    threads: usize,
) -> Result<f64, String> {
    if indices.is_empty() {
        return Ok(0.0);
    }
    let chunk = indices.len().div_ceil(threads.max(1));
    let total = std::thread::scope(|scope| {
        let handles: Vec<_> = indices
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let (mut a, mut b) = (vec![0.0; net.hidden], vec![0.0; net.hidden]);
                    part.iter()
                        .map(|&i| {
                            let (p, t) = predict(net, data, i, lambda, &mut a, &mut b);
                            f64::from((p - t) * (p - t))
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        join_sum(handles)
    })?;
    Ok(total / indices.len() as f64)
}

/// The sum of the threads' results; a thread that panicked fails the run
/// (its share of a batch silently missing would train on part of the data).
fn join_sum(handles: Vec<std::thread::ScopedJoinHandle<'_, f64>>) -> Result<f64, String> {
    let mut total = 0.0;
    for handle in handles {
        total += handle
            .join()
            .map_err(|_| "a training thread failed (see the message above)".to_string())?;
    }
    Ok(total)
}

/// Adam's state.
struct Adam {
    m: Params,
    v: Params,
    step: i32,
}

impl Adam {
    const BETA1: f32 = 0.9;
    const BETA2: f32 = 0.999;
    const EPSILON: f32 = 1e-8;

    fn update(&mut self, net: &mut FloatNet, grad: &Params, lr: f32, count: usize) {
        self.step += 1;
        let scale = 1.0 / count.max(1) as f32;
        let c1 = 1.0 - Self::BETA1.powi(self.step);
        let c2 = 1.0 - Self::BETA2.powi(self.step);
        let apply = |w: &mut f32, g: f32, m: &mut f32, v: &mut f32| {
            let g = g * scale;
            *m = Self::BETA1 * *m + (1.0 - Self::BETA1) * g;
            *v = Self::BETA2 * *v + (1.0 - Self::BETA2) * g * g;
            *w -= lr * (*m / c1) / ((*v / c2).sqrt() + Self::EPSILON);
            *w = w.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
        };
        let layers = [
            (&mut net.w1, &grad.w1, &mut self.m.w1, &mut self.v.w1),
            (&mut net.b1, &grad.b1, &mut self.m.b1, &mut self.v.b1),
            (&mut net.w2, &grad.w2, &mut self.m.w2, &mut self.v.w2),
        ];
        for (weights, grads, ms, vs) in layers {
            for (((w, &g), m), v) in weights.iter_mut().zip(grads).zip(ms).zip(vs) {
                apply(w, g, m, v);
            }
        }
        apply(&mut net.b2, grad.b2, &mut self.m.b2, &mut self.v.b2);
    }
}

/// Trains a network on `data` with `inputs` inputs. `progress` is called
/// after every epoch. Deterministic for a seed and a number of threads.
pub fn train(
    data: &Encoded,
    inputs: usize,
    config: &TrainConfig,
    mut progress: impl FnMut(&EpochReport),
) -> Result<FloatNet, String> {
    if data.is_empty() {
        return Err("no training positions".into());
    }
    if data.inputs_used() > inputs {
        return Err(format!(
            "the data uses input {} but the game has {inputs}",
            data.inputs_used() - 1
        ));
    }
    if config.hidden == 0 || config.batch == 0 || config.epochs == 0 {
        return Err("hidden size, batch and epochs must be at least 1".into());
    }
    if config.hidden > MAX_HIDDEN {
        return Err(format!(
            "a hidden layer of {} is more than a network file holds ({MAX_HIDDEN})",
            config.hidden
        ));
    }
    if !data.len().is_multiple_of(data.images) {
        return Err(format!(
            "{} samples do not make whole groups of {} images",
            data.len(),
            data.images
        ));
    }
    let mut rng = Rng::new(config.seed);
    let mut net = match &config.init {
        Some(init) => {
            let wanted = (inputs, config.hidden, config.activation);
            if (init.inputs, init.hidden, init.activation) != wanted {
                return Err(format!(
                    "the starting network is {}x{} {}, not {}x{} {}",
                    init.inputs,
                    init.hidden,
                    init.activation.name(),
                    inputs,
                    config.hidden,
                    config.activation.name()
                ));
            }
            if config.scale.is_some_and(|scale| scale != init.scale) {
                return Err(format!(
                    "a network trained further keeps its scale ({})",
                    init.scale
                ));
            }
            init.clone()
        }
        None => {
            let scale = config.scale.unwrap_or_else(|| fit_scale(data));
            FloatNet::new(inputs, config.hidden, config.activation, scale, &mut rng)
        }
    };
    let game_starts = match config.hold_out {
        HoldOut::Positions => None,
        HoldOut::Games if data.game_starts.len() > 1 && data.game_starts[0] == 0 => {
            Some(data.game_starts.as_slice())
        }
        HoldOut::Games => {
            return Err(
                "holding out whole games needs data of two games or more that says where each \
                 starts"
                    .into(),
            );
        }
    };
    let (mut train_set, validation) = split(
        data.len(),
        data.images,
        config.validation,
        config.seed,
        game_starts,
    );
    let threads = config.threads.max(1);
    let h = config.hidden;
    let mut grads: Vec<Params> = (0..threads).map(|_| Params::zeros(inputs, h)).collect();
    let mut scratch: Vec<[Vec<f32>; 3]> = (0..threads)
        .map(|_| [vec![0.0; h], vec![0.0; h], vec![0.0; h]])
        .collect();
    let mut total = Params::zeros(inputs, h);
    let mut adam = Adam {
        m: Params::zeros(inputs, h),
        v: Params::zeros(inputs, h),
        step: 0,
    };
    if config.init.is_some() {
        progress(&EpochReport {
            epoch: 0,
            epochs: config.epochs,
            train_loss: None,
            validation_loss: mean_loss(&net, data, &validation, config.lambda, threads)?,
            learning_rate: 0.0,
        });
    }
    for epoch in 0..config.epochs {
        let progress_in = epoch as f32 / config.epochs as f32;
        let lr = config.learning_rate
            * (0.05 + 0.95 * 0.5 * (1.0 + (std::f32::consts::PI * progress_in).cos()));
        shuffle(&mut train_set, &mut rng);
        let mut train_loss = 0.0;
        for batch in train_set.chunks(config.batch) {
            let chunk = batch.len().div_ceil(threads);
            let net_ref = &net;
            train_loss += std::thread::scope(|scope| {
                let handles: Vec<_> = batch
                    .chunks(chunk)
                    .zip(grads.iter_mut())
                    .zip(scratch.iter_mut())
                    .map(|((part, grad), scratch)| {
                        scope.spawn(move || {
                            grad.clear();
                            backprop(net_ref, data, part, config.lambda, grad, scratch)
                        })
                    })
                    .collect();
                join_sum(handles)
            })?;
            total.clear();
            for grad in grads.iter().take(batch.len().div_ceil(chunk)) {
                total.add(grad);
            }
            adam.update(&mut net, &total, lr, batch.len());
        }
        let validation_loss = mean_loss(&net, data, &validation, config.lambda, threads)?;
        progress(&EpochReport {
            epoch: epoch + 1,
            epochs: config.epochs,
            train_loss: Some(train_loss / train_set.len().max(1) as f64),
            validation_loss,
            learning_rate: lr,
        });
    }
    Ok(net)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions of a made-up game: 40 inputs, about eight on per side; the
    /// result follows inputs 0..10 for the side to move against the other's.
    fn toy_data(count: usize, seed: u64) -> Encoded {
        let mut rng = Rng::new(seed);
        let mut data = Encoded::new();
        for _ in 0..count {
            let mut pick = || -> Vec<u16> {
                let mut list: Vec<u16> = (0..8).map(|_| rng.below(40) as u16).collect();
                list.sort_unstable();
                list.dedup();
                list
            };
            let (us, them) = (pick(), pick());
            let strength = |list: &[u16]| list.iter().filter(|&&f| f < 10).count() as f32;
            let edge = strength(&us) - strength(&them);
            let result = if edge > 0.0 {
                1.0
            } else if edge < 0.0 {
                0.0
            } else {
                0.5
            };
            data.push(&us, &them, edge * 100.0, result);
        }
        data
    }

    #[test]
    fn a_tiny_training_run_lowers_the_loss_with_either_activation() {
        let data = toy_data(4000, 1);
        for activation in [Activation::Clipped, Activation::SquaredClipped] {
            let config = TrainConfig {
                hidden: 16,
                epochs: 8,
                batch: 128,
                learning_rate: 0.01,
                activation,
                threads: 2,
                ..TrainConfig::default()
            };
            let mut losses = Vec::new();
            let net = train(&data, 40, &config, |r| losses.push(r.validation_loss)).unwrap();
            assert_eq!(losses.len(), 8);
            assert!(
                losses[7] < losses[0] * 0.7,
                "{activation:?}: validation losses {losses:?}"
            );
            // What it learnt points the right way.
            let good = net.evaluate(&[1, 2, 3], &[30, 31, 32]);
            let bad = net.evaluate(&[30, 31, 32], &[1, 2, 3]);
            assert!(good > bad + 50.0, "{activation:?}: {good} vs {bad}");
        }
    }

    #[test]
    fn training_is_deterministic_for_a_seed() {
        let data = toy_data(500, 2);
        let config = TrainConfig {
            hidden: 8,
            epochs: 2,
            batch: 64,
            threads: 2,
            ..TrainConfig::default()
        };
        let a = train(&data, 40, &config, |_| {}).unwrap();
        let b = train(&data, 40, &config, |_| {}).unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn the_split_keeps_a_positions_images_together() {
        let (train_set, validation) = split(800, 8, 0.1, 3, None);
        assert_eq!(train_set.len() + validation.len(), 800);
        assert_eq!(validation.len(), 80);
        let groups = |list: &[usize]| {
            let mut g: Vec<usize> = list.iter().map(|i| i / 8).collect();
            g.sort_unstable();
            g.dedup();
            g
        };
        let (a, b) = (groups(&train_set), groups(&validation));
        assert_eq!(b.len(), 10);
        assert!(a.iter().all(|g| !b.contains(g)), "a position on both sides");
        // Samples that do not make whole groups are refused.
        let mut data = Encoded::with_images(8);
        data.push(&[1], &[2], 0.0, 0.5);
        assert!(train(&data, 40, &TrainConfig::default(), |_| {}).is_err());
    }

    /// Holding out games keeps every game's positions (with their images)
    /// on one side, and holds back about the share asked, in games.
    #[test]
    fn holding_out_games_keeps_each_game_on_one_side() {
        // 50 games of 1 to 30 positions, 2 images each.
        let mut rng = Rng::new(9);
        let mut starts = Vec::new();
        let mut positions = 0;
        for _ in 0..50 {
            starts.push(positions);
            positions += 1 + rng.below(30) as usize;
        }
        let (train_set, validation) = split(2 * positions, 2, 0.2, 4, Some(&starts));
        assert_eq!(train_set.len() + validation.len(), 2 * positions);
        let game_of = |sample: usize| starts.partition_point(|&s| s <= sample / 2) - 1;
        let games = |list: &[usize]| {
            let mut g: Vec<usize> = list.iter().map(|&i| game_of(i)).collect();
            g.sort_unstable();
            g.dedup();
            g
        };
        let (a, b) = (games(&train_set), games(&validation));
        assert_eq!(b.len(), 10, "a fifth of 50 games");
        assert_eq!(a.len(), 40);
        assert!(a.iter().all(|g| !b.contains(g)), "a game on both sides");
        // Every position of a held-out game is held out, both images.
        let held: usize = b
            .iter()
            .map(|&g| starts.get(g + 1).unwrap_or(&positions) - starts[g])
            .sum();
        assert_eq!(validation.len(), 2 * held);
        // Data that never said where games start cannot hold out games.
        let data = toy_data(100, 2);
        let config = TrainConfig {
            hold_out: HoldOut::Games,
            epochs: 1,
            ..TrainConfig::default()
        };
        assert!(train(&data, 40, &config, |_| {}).is_err());
        let mut marked = Encoded::new();
        for i in 0..data.len() {
            if i % 10 == 0 {
                marked.start_game();
            }
            let Sides { us, them, .. } = data.sides(i);
            marked.push(us, them, data.scores[i], data.results[i]);
        }
        assert!(train(&marked, 40, &config, |_| {}).is_ok());
    }

    /// Images read through input maps train exactly as the same images
    /// stored one by one: same samples, same order, same split, same sums.
    #[test]
    fn images_through_maps_train_as_stored_images() {
        let toy = toy_data(600, 11);
        let maps: Vec<Vec<u16>> = vec![
            (0..40).collect(),
            (0..40).rev().collect(),
            (0..40).map(|f| (f + 7) % 40).collect(),
        ];
        let (mut stored, mut mapped) = (
            Encoded::with_images(2),
            Encoded::with_maps(maps.clone(), 2).unwrap(),
        );
        let mut rng = Rng::new(5);
        for i in 0..toy.len() {
            let Sides { us, them, .. } = toy.sides(i);
            let (score, result) = (toy.scores[i], toy.results[i]);
            // The position and one other image, drawn as the trainer does.
            let symmetries = [0, 1 + rng.below(2) as usize];
            for &s in &symmetries {
                let image = |list: &[u16]| -> Vec<u16> {
                    list.iter().map(|&f| maps[s][usize::from(f)]).collect()
                };
                stored.push(&image(us), &image(them), score, result);
            }
            mapped
                .push_images(us, them, score, result, &symmetries)
                .unwrap();
        }
        assert_eq!(stored.len(), mapped.len());
        assert_eq!(stored.inputs_used(), mapped.inputs_used());
        let config = TrainConfig {
            hidden: 16,
            epochs: 3,
            batch: 64,
            scale: Some(100.0),
            threads: 2,
            ..TrainConfig::default()
        };
        let mut reports = (Vec::new(), Vec::new());
        let a = train(&stored, 40, &config, |r| reports.0.push(*r)).unwrap();
        let b = train(&mapped, 40, &config, |r| reports.1.push(*r)).unwrap();
        assert_eq!(a, b);
        assert_eq!(reports.0, reports.1);
        // The mapped images are not the positions themselves: training on
        // the positions alone gives another network.
        let mut plain = Encoded::with_maps(maps, 2).unwrap();
        for i in 0..toy.len() {
            let Sides { us, them, .. } = toy.sides(i);
            plain
                .push_images(us, them, toy.scores[i], toy.results[i], &[0, 0])
                .unwrap();
        }
        assert_ne!(train(&plain, 40, &config, |_| {}).unwrap(), a);
    }

    #[test]
    fn bad_input_maps_and_images_are_refused() {
        assert!(Encoded::with_maps(vec![], 1).is_err());
        assert!(
            Encoded::with_maps(vec![vec![0, 1, 1]], 1).is_err(),
            "not a permutation"
        );
        assert!(
            Encoded::with_maps(vec![vec![0, 1], vec![1, 0, 2]], 1).is_err(),
            "sizes"
        );
        assert!(
            Encoded::with_maps(vec![vec![0, 1]], 2).is_err(),
            "more images than maps"
        );
        let mut data = Encoded::with_maps(vec![vec![0, 1, 2], vec![2, 1, 0]], 2).unwrap();
        assert!(
            data.push_images(&[0], &[1], 0.0, 0.5, &[0]).is_err(),
            "one image of two"
        );
        assert!(
            data.push_images(&[0], &[1], 0.0, 0.5, &[0, 2]).is_err(),
            "no symmetry 2"
        );
        assert!(
            data.push_images(&[3], &[1], 0.0, 0.5, &[0, 1]).is_err(),
            "input 3 of 3"
        );
        assert!(data.is_empty(), "a refused position is not half stored");
        data.push_images(&[0], &[1], 0.0, 0.5, &[0, 1]).unwrap();
        assert_eq!((data.len(), data.inputs_used()), (2, 3));
        assert!(
            Encoded::new()
                .push_images(&[0], &[1], 0.0, 0.5, &[0])
                .is_err()
        );
        // The check of a game's maps against images encoded one by one.
        assert!(data.maps_agree(1, &[0, 1], &[1, 2]));
        assert!(data.maps_agree(1, &[1, 0], &[1, 2]), "in any order");
        assert!(!data.maps_agree(1, &[0, 1], &[0, 1]));
        assert!(!data.maps_agree(2, &[0], &[0]), "no symmetry 2");
        assert!(!data.maps_agree(0, &[3], &[3]), "input 3 of 3");
    }

    #[test]
    fn the_quantised_network_agrees_with_the_float_one() {
        for activation in [Activation::Clipped, Activation::SquaredClipped] {
            quantised_agrees(activation);
        }
    }

    fn quantised_agrees(activation: Activation) {
        let data = toy_data(3000, 3);
        let config = TrainConfig {
            hidden: 32,
            epochs: 4,
            batch: 128,
            learning_rate: 0.01,
            activation,
            // A scale like real games': the output's rounding to whole
            // units is then negligible.
            scale: Some(400.0),
            ..TrainConfig::default()
        };
        let net = train(&data, 40, &config, |_| {}).unwrap();
        let quantised = net.quantise("toy", "toys", "test");
        let (mut worst, mut total) = (0f32, 0f32);
        for i in 0..200 {
            let Sides { us, them, .. } = data.sides(i);
            let float = net.evaluate(us, them);
            let (mut a, mut b) = (vec![0i16; 32], vec![0i16; 32]);
            let sum = |list: &[u16], acc: &mut Vec<i16>| {
                acc.copy_from_slice(&quantised.input_bias);
                for &f in list {
                    let row = &quantised.input_weights[usize::from(f) * 32..][..32];
                    for (x, &w) in acc.iter_mut().zip(row) {
                        *x += w;
                    }
                }
            };
            sum(us, &mut a);
            sum(them, &mut b);
            let integer = quantised.output(&a, &b) as f32;
            // In units of the output's logit, whatever the scale.
            let error = (integer - float).abs() / net.scale;
            worst = worst.max(error);
            total += error;
        }
        // The stated tolerance: 0.015 of a logit on average, 0.06 at worst
        // (at Ataxx's fitted scale of about 480 units a logit: 7 and 29
        // units, where 100 is a stone; measured: 0.008 and 0.024).
        let mean = total / 200.0;
        eprintln!("quantisation error ({activation:?}): mean {mean:.4}, worst {worst:.4} logits");
        assert!(mean <= 0.015 && worst <= 0.06, "mean {mean}, worst {worst}");
        let bytes = quantised.to_bytes();
        assert_eq!(Network::from_bytes(&bytes).unwrap(), quantised);
    }

    #[test]
    fn training_from_a_network_starts_where_it_left_off() {
        let data = toy_data(3000, 5);
        let config = TrainConfig {
            hidden: 16,
            epochs: 6,
            batch: 128,
            learning_rate: 0.01,
            activation: Activation::SquaredClipped,
            scale: Some(400.0),
            threads: 2,
            ..TrainConfig::default()
        };
        let mut trained = Vec::new();
        let first = train(&data, 40, &config, |r| trained.push(r.validation_loss)).unwrap();
        let start = FloatNet::from_network(&first.quantise("toy", "toys", "test"));
        assert_eq!((start.inputs, start.hidden, start.scale), (40, 16, 400.0));
        let rounding = 0.5 / QA as f32 + 1e-6;
        for (read, learnt) in start.w1.iter().zip(&first.w1) {
            assert!((read - learnt).abs() <= rounding, "{read} vs {learnt}");
        }
        let one_epoch = |init: Option<FloatNet>| {
            let config = TrainConfig {
                epochs: 1,
                learning_rate: 0.001,
                scale: None,
                init,
                ..config.clone()
            };
            let mut reports = Vec::new();
            train(&data, 40, &config, |r| reports.push(*r)).map(|_| reports)
        };
        let further_reports = one_epoch(Some(start.clone())).unwrap();
        let cold_reports = one_epoch(None).unwrap();
        // Trained further, the starting network's loss comes first, as
        // epoch 0 with nothing trained: the loss the run ended with.
        let epochs: Vec<usize> = further_reports.iter().map(|r| r.epoch).collect();
        assert_eq!(epochs, [0, 1]);
        assert_eq!(further_reports[0].train_loss, None);
        let learnt = trained[5];
        assert!(
            (further_reports[0].validation_loss - learnt).abs() <= learnt * 0.05,
            "{} at the start against {learnt} at the end",
            further_reports[0].validation_loss
        );
        assert_eq!(
            cold_reports.iter().map(|r| r.epoch).collect::<Vec<_>>(),
            [1]
        );
        let (further, cold) = (
            further_reports[1].validation_loss,
            cold_reports[0].validation_loss,
        );
        assert!(further <= learnt * 1.1, "{further} after {learnt}");
        assert!(
            further < cold * 0.8,
            "{further} against {cold} from scratch"
        );
        // Another shape, or another scale, is refused by name.
        let mut other = config.clone();
        other.hidden = 8;
        other.init = Some(start.clone());
        let err = train(&data, 40, &other, |_| {}).unwrap_err();
        assert!(err.contains("is 40x16 screlu, not 40x8 screlu"), "{err}");
        other.hidden = 16;
        other.scale = Some(300.0);
        let err = train(&data, 40, &other, |_| {}).unwrap_err();
        assert!(err.contains("keeps its scale (400)"), "{err}");
    }

    #[test]
    fn the_fitted_scale_reads_scores_as_results() {
        let data = toy_data(3000, 4);
        let scale = fit_scale(&data);
        // Scores of ±100 per point of edge, results a step function of it:
        // the fitted sigmoid is steep, tens of units.
        assert!((10.0..200.0).contains(&scale), "{scale}");
    }

    #[test]
    fn bad_network_files_are_refused_without_panicking() {
        let net = FloatNet::new(10, 4, Activation::SquaredClipped, 100.0, &mut Rng::new(1))
            .quantise("toy", "toys", "r");
        let bytes = net.to_bytes();
        assert!(Network::from_bytes(b"hello").is_err());
        assert!(Network::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(
            Network::from_bytes(&longer)
                .unwrap_err()
                .0
                .contains("follow")
        );
        // Output weights that could overflow the 32-bit output sum.
        let mut huge = FloatNet::new(10, 256, Activation::Clipped, 100.0, &mut Rng::new(2))
            .quantise("toy", "toys", "r");
        huge.output_weights.fill(i16::MAX);
        let err = Network::from_bytes(&huge.to_bytes()).unwrap_err();
        assert!(err.0.contains("too large"), "{err}");
        let mut rng = Rng::new(9);
        for _ in 0..3000 {
            let mut damaged = bytes.clone();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(damaged.len() as u64) as usize;
                damaged[at] = rng.next_u64() as u8;
            }
            damaged.truncate(rng.below(damaged.len() as u64 + 1) as usize + 8);
            let _ = Network::from_bytes(&damaged);
        }
        // An unknown activation is named.
        let mut other = bytes.clone();
        // Magic, then game "toy", recipe "r", input set "toys", each after its
        // length: the activation's code follows.
        let at = 8 + (4 + 3) + (4 + 1) + (4 + 4);
        assert_eq!(other[at..at + 4], 1u32.to_le_bytes());
        other[at..at + 4].copy_from_slice(&7u32.to_le_bytes());
        let err = Network::from_bytes(&other).unwrap_err();
        assert!(err.0.contains("activation 7"), "{err}");
        // A version 2 file without an input set name is refused.
        let unnamed = FloatNet::new(10, 4, Activation::SquaredClipped, 100.0, &mut Rng::new(1))
            .quantise("toy", "", "r");
        let err = Network::from_bytes(&unnamed.to_bytes()).unwrap_err();
        assert!(err.0.contains("must name its input set"), "{err}");
        // Nor is a hidden layer larger than a file holds trained.
        let config = TrainConfig {
            hidden: MAX_HIDDEN + 1,
            ..TrainConfig::default()
        };
        let err = train(&toy_data(10, 1), 40, &config, |_| {}).unwrap_err();
        assert!(err.contains("more than a network file holds"), "{err}");
    }

    #[test]
    fn version_1_network_files_still_read_and_write_back_the_same() {
        let named = FloatNet::new(10, 4, Activation::Clipped, 100.0, &mut Rng::new(1))
            .quantise("toy", "toys", "r");
        let v2 = named.to_bytes();
        assert_eq!(&v2[..8], b"PLATNET2");
        // Version 1: no input set name nor activation after the recipe.
        let mut v1 = b"PLATNET1".to_vec();
        for text in ["toy", "r"] {
            v1.extend_from_slice(&(text.len() as u32).to_le_bytes());
            v1.extend_from_slice(text.as_bytes());
        }
        let sizes = 8 + (4 + 3) + (4 + 1) + (4 + 4) + 4;
        v1.extend_from_slice(&v2[sizes..]);
        let read = Network::from_bytes(&v1).unwrap();
        assert_eq!(read.activation, Activation::Clipped);
        assert_eq!(read.input_set, "");
        assert_eq!(read.input_weights, named.input_weights);
        // Written back as version 1, byte for byte: its hash stays its name.
        assert_eq!(read.to_bytes(), v1);
    }
}
