//! A DQN on Phy-Q (the paper's learned agent, §4): one decision per bird, a network from the
//! picture of the level between shots to one logit per shot of a fixed discrete set ("this shot
//! passes the level"), trained on experiences of the training tasks in batches of 16 passing
//! and 16 failing ones, as the paper.
//!
//! * Shots ([`ACTIONS`]): a launch at full drag at an angle of −10° to 88° in steps of 2°; a
//!   bird with a power taps at a fixed share of its drag-free flight (the middle of the AIBirds
//!   naive agent's interval for its kind). Each is put on the grid people type
//!   ([`PixelShot::nearest`]), so every attempt replays with `rephyre simulate ID --shots`.
//! * Observation ([`observe`]): the game's 640 × 480 picture of the level in play
//!   (`phyq::picture::render`) down-sampled to a 32 × 24 grid of 20-pixel cells, one plane per
//!   colour class (pigs, wood, ice, stone, TNT, platforms, ground, slingshot: the share of the
//!   cell's pixels, in 255ths), and the next bird's kind one-hot.
//! * Network ([`QNet`]): a two-hidden-layer MLP (burn, trained on the `flex` CPU backend with
//!   one-thread kernels, so a seed gives the same weights on any machine and thread count).
//!   At test time the agent ([`PhyqDqn`]) runs the trained weights in plain Rust ([`Model::q`]):
//!   it reads the picture and the next bird's reach (closed-form arithmetic) and never runs the
//!   simulator. Training data is collected by `studies::phyq_dqn`, the only place that plays.
//!
//! Model file: one line `rephyre-phyq-dqn-model 1`, one line of JSON ([`Header`]), then every
//! tensor's values as little-endian f32, in the header's order (the layout of the PHYRE DQN's
//! file, `super::file`). A training stopped part-way resumes exactly from a [`Snapshot`] (the
//! weights, Adam's state and the losses so far; [`train_from`]).

use super::device::{plain_device, single_threaded, train_device};
use super::file;
use super::network::{init_weights, load_tensors, numbered, tensors};
use super::training::{bce, SnapshotOf};
pub use super::training::{Hooks, Snapshot};
use crate::phyq::{Draws, ShotAgent};
use burn::module::Module;
use burn::nn::{Initializer, Linear, LinearConfig};
use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer};
use burn::tensor::activation::relu;
use burn::tensor::{Bytes, Device, Tensor, TensorData};
use engine::{sin_cos, Fixed, Vec2};
use phyq::colours::{fill, Painted};
use phyq::game::{Game, PixelShot, PlayError, Shot};
use phyq::picture::{render, Framing};
use phyq::{BirdKind, Level, Material};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Grid of the observation: columns, rows.
pub const GRID_W: usize = 32;
pub const GRID_H: usize = 24;
/// The colour classes of the observation's planes, in order.
pub const PLANES: [Painted; 8] = [
    Painted::Pigs,
    Painted::Block(Material::Wood),
    Painted::Block(Material::Ice),
    Painted::Block(Material::Stone),
    Painted::Tnt,
    Painted::Platform,
    Painted::Ground,
    Painted::Slingshot,
];
/// The birds of the one-hot, in order.
pub const BIRDS: [BirdKind; 5] = [
    BirdKind::Red,
    BirdKind::Blue,
    BirdKind::Yellow,
    BirdKind::Black,
    BirdKind::White,
];
/// Numbers in an observation.
pub const OBS_LEN: usize = PLANES.len() * GRID_W * GRID_H + BIRDS.len();
/// Shots in the action set.
pub const ACTIONS: usize = 50;

/// The launch angle of action `a` in degrees (−10, −8, …, 88).
pub fn angle_of(a: usize) -> i32 {
    -10 + 2 * a as i32
}

/// The tap of a bird with a power, percent of its flight: the middle of the AIBirds naive
/// agent's interval.
fn tap_share(bird: Option<BirdKind>) -> i64 {
    match bird {
        Some(BirdKind::Yellow) => 77,
        Some(BirdKind::Blue) => 75,
        _ => 80,
    }
}

/// The shot of action `a` for the next bird of `game` (`a < ACTIONS`; with no bird left, a
/// plain release of −50 px: the caller does not ask then).
pub fn action_shot(game: &Game, level: &Level, a: usize) -> PixelShot {
    let Some(reach) = game.next_reach() else {
        return PixelShot {
            x: -50.0,
            y: 0.0,
            tap: 0.0,
        };
    };
    let (s, c) = sin_cos(phyq::number::radians(Fixed::from_int(angle_of(a))));
    let release = Vec2::new(-(c * reach.drag_radius), -(s * reach.drag_radius));
    let tap = if reach.has_power {
        game.flight_time(release)
            .map(|t| t * Fixed::ratio(tap_share(game.next_bird()), 100))
    } else {
        None
    };
    PixelShot::nearest(&Shot { release, tap }, level)
}

/// The observation of `game` on `level` (module doc): [`OBS_LEN`] bytes, 255 = 1.
pub fn observe(game: &Game, level: &Level) -> Vec<u8> {
    let img = render(&game.scene(level), &Framing::of_level(level));
    let mut plane_of = [u8::MAX; 256];
    for (p, painted) in PLANES.iter().enumerate() {
        plane_of[usize::from(fill(*painted))] = p as u8;
    }
    let (cw, ch) = (img.width / GRID_W, img.height / GRID_H);
    let mut counts = vec![0u32; PLANES.len() * GRID_W * GRID_H];
    for (y, row) in img.pixels.chunks_exact(img.width).enumerate() {
        let gy = (y / ch.max(1)).min(GRID_H - 1);
        for (x, &code) in row.iter().enumerate() {
            let p = plane_of[usize::from(code)];
            if p != u8::MAX {
                let gx = (x / cw.max(1)).min(GRID_W - 1);
                counts[(usize::from(p) * GRID_H + gy) * GRID_W + gx] += 1;
            }
        }
    }
    let cell = (cw * ch).max(1) as u32;
    let mut out: Vec<u8> = counts
        .iter()
        .map(|&n| ((n.min(cell) * 255 + cell / 2) / cell) as u8)
        .collect();
    let bird = game.next_bird();
    out.extend(BIRDS.iter().map(|b| if Some(*b) == bird { 255 } else { 0 }));
    out
}

/// The network's shape and training.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Config {
    /// Width of the two hidden layers.
    pub hidden: usize,
    /// Adam updates, each on a batch of 16 passing and 16 failing experiences.
    pub updates: usize,
    pub lr: f64,
    /// Seed of the initial weights and of the batches.
    pub seed: u64,
}

impl Config {
    /// The defaults: 256 hidden units, 3,000 updates at 1e-3 (about a minute on one core).
    pub fn new(seed: u64) -> Config {
        Config {
            hidden: 256,
            updates: 3000,
            lr: 1e-3,
            seed,
        }
    }
}

/// One experience: the observation at a bird's decision (an index into the caller's list of
/// observations), the shot taken, and whether the level was passed after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Experience {
    pub obs: u32,
    pub action: u16,
    pub passed: bool,
}

/// The Q network: observation → one logit per action.
#[derive(Module, Debug)]
pub struct QNet {
    a: Linear,
    b: Linear,
    out: Linear,
}

fn linear(d_in: usize, d_out: usize, device: &Device) -> Linear {
    LinearConfig::new(d_in, d_out)
        .with_initializer(Initializer::Zeros)
        .init(device)
}

impl QNet {
    pub fn new(hidden: usize, seed: u64, device: &Device) -> QNet {
        let net = QNet {
            a: linear(OBS_LEN, hidden, device),
            b: linear(hidden, hidden, device),
            out: linear(hidden, ACTIONS, device),
        };
        init_weights(net, seed, device)
    }

    /// Logits `[n, ACTIONS]` of observations `[n, OBS_LEN]` (in 0..1).
    pub fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        let x = relu(self.a.forward(x));
        let x = relu(self.b.forward(x));
        self.out.forward(x)
    }
}

/// What a training run did.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub updates: usize,
    pub passing: usize,
    pub failing: usize,
    /// Mean loss of the last 10 % of updates.
    pub final_loss: f64,
}

/// Random stream of the batches ("PQ-BATCH").
const BATCH_STREAM: u64 = 0x5051_2d42_4154_4348;
/// Passing and failing experiences per batch (the paper's 16 and 16).
pub const HALF_BATCH: usize = 16;

/// Trains a fresh network on `experiences` over `observations` (each [`OBS_LEN`] bytes).
/// Each batch is 16 passing and 16 failing experiences drawn uniformly with replacement (32
/// of the one kind when the other has none). Deterministic for a seed: the kernels run on one
/// thread. `Err` without any experience.
pub fn train(
    cfg: &Config,
    observations: &[Vec<u8>],
    experiences: &[Experience],
    progress: impl FnMut(usize, f32) + Send,
) -> Result<Model, String> {
    train_from(
        cfg,
        observations,
        experiences,
        None,
        &mut EachLoss(progress),
    )
}

/// Hooks that only hear each update's loss.
struct EachLoss<F>(F);

impl<F: FnMut(usize, f32) + Send> Hooks for EachLoss<F> {
    fn updated(&mut self, u: usize, loss: f32) {
        (self.0)(u, loss);
    }
}

/// Adam as the Phy-Q DQN trains with it.
fn adam() -> ModuleOptimizer {
    AdamConfig::new().with_epsilon(1e-8).init()
}

/// [`train`], from `start` when given (a [`Snapshot`] of the same options and data: the
/// updates after it are run and the model is the uninterrupted training's, bit for bit),
/// telling `hooks` of each update and taking the snapshots it asks for.
pub fn train_from(
    cfg: &Config,
    observations: &[Vec<u8>],
    experiences: &[Experience],
    start: Option<Snapshot>,
    hooks: &mut dyn Hooks,
) -> Result<Model, String> {
    let passing: Vec<&Experience> = experiences.iter().filter(|e| e.passed).collect();
    let failing: Vec<&Experience> = experiences.iter().filter(|e| !e.passed).collect();
    if experiences.is_empty() {
        return Err("no experience to train on".into());
    }
    if cfg.hidden == 0 {
        return Err("the hidden layers need at least one unit".into());
    }
    if let Some(e) = experiences
        .iter()
        .find(|e| observations.get(e.obs as usize).map(Vec::len) != Some(OBS_LEN))
    {
        return Err(format!(
            "experience on observation {} of the wrong size",
            e.obs
        ));
    }
    if let Some(s) = &start {
        s.check(SnapshotOf::Phyq, cfg.updates)?;
    }
    let (net, losses) = single_threaded(|| -> Result<(QNet, Vec<f32>), String> {
        let device = train_device();
        let fresh = QNet::new(cfg.hidden, cfg.seed, &device);
        let (net, mut optim, mut losses) = match start {
            None => (fresh, adam(), Vec::with_capacity(cfg.updates)),
            Some(s) => {
                let net = load_tensors(fresh, s.weights, &device)?;
                let optim = adam()
                    .from_bytes(Bytes::from_bytes_vec(s.optimizer))
                    .map_err(|e| format!("the optimizer's state: {e}"))?;
                (net, optim, s.losses)
            }
        };
        let mut net = numbered(net);
        for u in losses.len()..cfg.updates {
            let mut picked = Vec::with_capacity(2 * HALF_BATCH);
            let mut k = 0u64;
            let mut draw = |pool: &[&Experience], n: usize, picked: &mut Vec<Experience>| {
                for _ in 0..n {
                    let w = tasks::rng::word(cfg.seed, BATCH_STREAM, u as u64, k);
                    k += 1;
                    picked.push(*pool[(w % pool.len() as u64) as usize]);
                }
            };
            match (passing.is_empty(), failing.is_empty()) {
                (false, false) => {
                    draw(&passing, HALF_BATCH, &mut picked);
                    draw(&failing, HALF_BATCH, &mut picked);
                }
                (true, _) => draw(&failing, 2 * HALF_BATCH, &mut picked),
                (_, true) => draw(&passing, 2 * HALF_BATCH, &mut picked),
            }
            let n = picked.len();
            let mut x = Vec::with_capacity(n * OBS_LEN);
            let mut mask = vec![0f32; n * ACTIONS];
            let mut labels = Vec::with_capacity(n);
            for (i, e) in picked.iter().enumerate() {
                x.extend(
                    observations[e.obs as usize]
                        .iter()
                        .map(|&v| f32::from(v) / 255.0),
                );
                mask[i * ACTIONS + usize::from(e.action)] = 1.0;
                labels.push(if e.passed { 1.0f32 } else { 0.0 });
            }
            let x = Tensor::<2>::from_data(TensorData::new(x, [n, OBS_LEN]), &device);
            let mask = Tensor::<2>::from_data(TensorData::new(mask, [n, ACTIONS]), &device);
            let labels = Tensor::<1>::from_data(TensorData::new(labels, [n]), &device);
            let chosen = (net.forward(x) * mask).sum_dim(1).reshape([n]);
            let loss = bce(chosen, labels);
            let value = loss
                .clone()
                .into_data()
                .convert::<f32>()
                .try_to_vec::<f32>()
                .ok()
                .and_then(|v| v.first().copied())
                .unwrap_or(f32::NAN);
            let grads = GradientsParams::from_grads(loss.backward(), &net);
            net = optim.step(cfg.lr, net, grads);
            hooks.updated(u, value);
            losses.push(value);
            if hooks.snapshot_due(u + 1) {
                let optimizer = optim
                    .into_bytes()
                    .map_err(|e| format!("cannot record the optimizer's state: {e}"))?;
                hooks.snapshot(Snapshot {
                    of: SnapshotOf::Phyq,
                    updates: u + 1,
                    losses: losses.clone(),
                    weights: tensors(&net),
                    optimizer: optimizer.to_vec(),
                })?;
            }
        }
        Ok((net, losses))
    })?;
    let final_loss = super::training::final_loss(&losses);
    Ok(Model {
        header: Header {
            config: cfg.clone(),
            trained_on: String::new(),
            summary: Summary {
                updates: cfg.updates,
                passing: passing.len(),
                failing: failing.len(),
                final_loss,
            },
            shapes: Vec::new(),
        },
        layers: layers_of(tensors(&net)),
    })
}

/// What a model file says about its model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    pub config: Config,
    /// What it was trained on, e.g. "broad setting, 3,600 tasks, 2 episodes (seed 0)".
    pub trained_on: String,
    pub summary: Summary,
    /// Shape of each stored tensor, in order (filled when saved).
    pub shapes: Vec<Vec<usize>>,
}

/// One linear layer's weights `[in, out]` (row-major) and bias `[out]`.
#[derive(Clone, Debug, PartialEq)]
struct Layer {
    d_in: usize,
    d_out: usize,
    weight: Vec<f32>,
    bias: Vec<f32>,
}

/// The layers of the tensors of a [`QNet`] (weight, bias of each, in order).
fn layers_of(t: Vec<(Vec<usize>, Vec<f32>)>) -> Vec<Layer> {
    t.chunks_exact(2)
        .map(|wb| Layer {
            d_in: wb[0].0[0],
            d_out: wb[0].0[1],
            weight: wb[0].1.clone(),
            bias: wb[1].1.clone(),
        })
        .collect()
}

/// A trained network, run in plain Rust (no burn at test time).
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub header: Header,
    layers: Vec<Layer>,
}

const MAGIC: &str = "rephyre-phyq-dqn-model 1";

/// The shapes of a [`QNet`]'s tensors of `hidden` units, in order (weight, bias of each layer).
fn shapes(hidden: usize) -> Vec<Vec<usize>> {
    let h = hidden;
    vec![
        vec![OBS_LEN, h],
        vec![h],
        vec![h, h],
        vec![h],
        vec![h, ACTIONS],
        vec![ACTIONS],
    ]
}

impl Model {
    /// Logits of one observation ([`OBS_LEN`] bytes), one per action.
    pub fn q(&self, obs: &[u8]) -> Vec<f32> {
        let mut x: Vec<f32> = obs.iter().map(|&v| f32::from(v) / 255.0).collect();
        for (i, l) in self.layers.iter().enumerate() {
            let mut y = l.bias.clone();
            for (k, &xi) in x.iter().enumerate().take(l.d_in) {
                if xi != 0.0 {
                    let row = &l.weight[k * l.d_out..(k + 1) * l.d_out];
                    for (yj, &w) in y.iter_mut().zip(row) {
                        *yj += xi * w;
                    }
                }
            }
            if i + 1 < self.layers.len() {
                for v in &mut y {
                    *v = v.max(0.0);
                }
            }
            x = y;
        }
        x
    }

    /// The action of the highest logit (the first of equals).
    pub fn best(&self, obs: &[u8]) -> usize {
        let q = self.q(obs);
        let mut best = 0;
        for (a, &v) in q.iter().enumerate() {
            if v > q[best] {
                best = a;
            }
        }
        best
    }

    /// The model file's bytes (module doc).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut header = self.header.clone();
        header.shapes = self
            .layers
            .iter()
            .flat_map(|l| [vec![l.d_in, l.d_out], vec![l.d_out]])
            .collect();
        let json = serde_json::to_string(&header).unwrap_or_default();
        let values = self
            .layers
            .iter()
            .flat_map(|l| [l.weight.as_slice(), l.bias.as_slice()]);
        file::encode(MAGIC, &json, values)
    }

    /// A model from a file's bytes; `Err` says why they are not one.
    pub fn from_bytes(bytes: &[u8]) -> Result<Model, String> {
        let (header, data) = file::split(bytes, MAGIC)?;
        let header: Header = serde_json::from_slice(header).map_err(|e| format!("header: {e}"))?;
        let want = shapes(header.config.hidden);
        if header.shapes != want {
            return Err(format!(
                "tensor shapes {:?}, where this rephyre's network has {want:?}",
                header.shapes
            ));
        }
        let t = file::read_tensors(&want, data)?;
        Ok(Model {
            header,
            layers: layers_of(t),
        })
    }

    /// Write the model to `path` (through a temporary file).
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, self.to_bytes())
            .and_then(|()| std::fs::rename(&tmp, path))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// Read a model file.
    pub fn load(path: &Path) -> Result<Model, String> {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Model::from_bytes(&bytes)
            .map_err(|why| format!("{} is not a rephyre Phy-Q DQN model: {why}", path.display()))
    }

    /// The same network in burn (for checking the plain forward pass against it).
    pub fn to_net(&self) -> Result<QNet, String> {
        let device = plain_device();
        let t = self
            .layers
            .iter()
            .flat_map(|l| {
                [
                    (vec![l.d_in, l.d_out], l.weight.clone()),
                    (vec![l.d_out], l.bias.clone()),
                ]
            })
            .collect();
        load_tensors(QNet::new(self.header.config.hidden, 0, &device), t, &device)
    }
}

/// The DQN agent: the shot of the highest logit for the observation (module doc). It makes
/// no draw and runs no simulation.
#[derive(Clone, Debug)]
pub struct PhyqDqn {
    pub model: Model,
    /// Identifies the weights (FNV-1a of the model file's bytes), for run fingerprints.
    pub id: u64,
    /// The model file's header line (JSON), as part files record it.
    header: String,
}

impl PhyqDqn {
    /// The agent of a model in memory (e.g. just trained): identified by the file
    /// [`Model::save`] writes of it.
    pub fn new(model: Model) -> PhyqDqn {
        let bytes = model.to_bytes();
        PhyqDqn::of_file(model, &bytes)
    }

    /// The agent of a model file, identified by the file's bytes (which a model read and
    /// written again gives back: serde_json's `float_roundtrip`).
    pub fn load(path: &Path) -> Result<PhyqDqn, String> {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let model = Model::from_bytes(&bytes)
            .map_err(|why| format!("{} is not a rephyre Phy-Q DQN model: {why}", path.display()))?;
        Ok(PhyqDqn::of_file(model, &bytes))
    }

    /// `model`, whose file has these `bytes`.
    fn of_file(model: Model, bytes: &[u8]) -> PhyqDqn {
        let header = file::split(bytes, MAGIC).map_or(&[][..], |(h, _)| h);
        PhyqDqn {
            id: tasks::rng::fnv64(bytes),
            header: String::from_utf8_lossy(header).into_owned(),
            model,
        }
    }

    /// The model's digest: FNV-1a of its file's bytes, 16 hex digits (what part files and
    /// run fingerprints name it by).
    pub fn digest(&self) -> String {
        format!("{:016x}", self.id)
    }
}

impl ShotAgent for PhyqDqn {
    fn name(&self) -> &'static str {
        "dqn"
    }

    fn fingerprint(&self) -> String {
        format!("model {}", self.digest())
    }

    fn record(&self) -> Vec<(String, String)> {
        vec![
            ("model".to_string(), self.digest()),
            ("model_header".to_string(), self.header.clone()),
        ]
    }

    fn shot(&self, game: &Game, level: &Level, _: &mut Draws) -> Result<PixelShot, PlayError> {
        let a = self.model.best(&observe(game, level));
        Ok(action_shot(game, level, a))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level() -> Level {
        phyq::generator::builtin_tasks().entries()[0].level.clone()
    }

    fn settled(level: &Level) -> Game {
        let mut g = Game::new(level).expect("a playable level");
        g.settle();
        g
    }

    /// Experiences over `n` made-up observations, half passing.
    fn synthetic(n: usize) -> (Vec<Vec<u8>>, Vec<Experience>) {
        let obs: Vec<Vec<u8>> = (0..n)
            .map(|i| {
                (0..OBS_LEN)
                    .map(|k| (tasks::rng::word(1, 2, i as u64, k as u64) % 4 * 60) as u8)
                    .collect()
            })
            .collect();
        let exps = (0..n)
            .map(|i| Experience {
                obs: i as u32,
                action: (i % ACTIONS) as u16,
                passed: i % 2 == 0,
            })
            .collect();
        (obs, exps)
    }

    fn tiny(seed: u64) -> Config {
        Config {
            hidden: 8,
            updates: 12,
            lr: 1e-2,
            seed,
        }
    }

    #[test]
    fn the_observation_shows_the_pigs_and_the_bird() {
        let level = level();
        let game = settled(&level);
        let obs = observe(&game, &level);
        assert_eq!(obs.len(), OBS_LEN);
        let pigs: u32 = obs[..GRID_W * GRID_H].iter().map(|&v| u32::from(v)).sum();
        assert!(pigs > 0, "no pig pixel in the pig plane");
        let birds = &obs[OBS_LEN - BIRDS.len()..];
        assert_eq!(birds.iter().filter(|&&b| b == 255).count(), 1);
        assert!(birds.iter().all(|&b| b == 0 || b == 255));
    }

    #[test]
    fn actions_release_behind_the_slingshot_at_their_angle() {
        let level = level();
        let game = settled(&level);
        let flat = action_shot(&game, &level, 5); // 0°
        assert!(flat.x < -10.0 && flat.y.abs() < 0.02, "{flat:?}");
        let steep = action_shot(&game, &level, ACTIONS - 1); // 88°
        assert!(
            steep.y < -10.0 && steep.x.abs() < steep.y.abs() / 10.0,
            "{steep:?}"
        );
        assert_eq!(angle_of(0), -10);
        assert_eq!(angle_of(ACTIONS - 1), 88);
    }

    #[test]
    fn training_is_deterministic_for_a_seed() {
        let (obs, exps) = synthetic(40);
        let a = train(&tiny(3), &obs, &exps, |_, _| {}).expect("trains");
        let b = train(&tiny(3), &obs, &exps, |_, _| {}).expect("trains");
        assert_eq!(a.to_bytes(), b.to_bytes());
        let c = train(&tiny(4), &obs, &exps, |_, _| {}).expect("trains");
        assert_ne!(a.to_bytes(), c.to_bytes());
        assert_eq!(a.header.summary.passing, 20);
        assert!(a.header.summary.final_loss.is_finite());
        // On a pool of 16 + 16 kinds the loss falls.
        let mut cfg = tiny(3);
        cfg.updates = 60;
        let mut losses = Vec::new();
        train(&cfg, &obs, &exps, |_, l| losses.push(l)).expect("trains");
        assert!(losses[59] < losses[0], "{} then {}", losses[0], losses[59]);
    }

    /// Hooks that keep the snapshot after `at` updates, and stop the training there when
    /// `stop` (as a run killed after writing its checkpoint).
    struct KeepAt {
        at: usize,
        stop: bool,
        kept: Option<Snapshot>,
    }

    impl Hooks for KeepAt {
        fn snapshot_due(&mut self, done: usize) -> bool {
            done == self.at
        }
        fn snapshot(&mut self, snapshot: Snapshot) -> Result<(), String> {
            self.kept = Some(snapshot);
            if self.stop {
                Err("stopped".into())
            } else {
                Ok(())
            }
        }
    }

    fn snapshot_at(cfg: &Config, obs: &[Vec<u8>], exps: &[Experience], at: usize) -> Snapshot {
        let mut hooks = KeepAt {
            at,
            stop: at < cfg.updates,
            kept: None,
        };
        let r = train_from(cfg, obs, exps, None, &mut hooks);
        assert!(at == cfg.updates || r == Err("stopped".into()), "{r:?}");
        hooks.kept.expect("a snapshot")
    }

    #[test]
    fn a_training_resumed_from_a_snapshot_gives_the_same_model() {
        let (obs, exps) = synthetic(40);
        let cfg = tiny(3);
        let whole = train(&cfg, &obs, &exps, |_, _| {})
            .expect("trains")
            .to_bytes();
        // Stopped after 5 of 12 updates, through the snapshot file's bytes and back.
        let snapshot = snapshot_at(&cfg, &obs, &exps, 5);
        assert_eq!((snapshot.updates, snapshot.losses.len()), (5, 5));
        let (fingerprint, back) =
            Snapshot::from_bytes(&snapshot.to_bytes("run 1")).expect("reads back");
        assert_eq!(fingerprint, "run 1");
        assert_eq!(back, snapshot);
        let mut rest = Vec::new();
        let resumed = train_from(
            &cfg,
            &obs,
            &exps,
            Some(back),
            &mut EachLoss(|u, _| rest.push(u)),
        )
        .expect("resumes");
        assert_eq!(rest, (5..12).collect::<Vec<_>>(), "updates run again");
        assert_eq!(resumed.to_bytes(), whole, "resumed model differs");
        // From the last update's snapshot nothing is left to do, and the model is the same.
        let end = snapshot_at(&cfg, &obs, &exps, 12);
        let done = train_from(&cfg, &obs, &exps, Some(end), &mut EachLoss(|_, _| {}));
        assert_eq!(done.expect("nothing to do").to_bytes(), whole);
        // Adam's state is what makes it exact: the same weights with a fresh optimizer train
        // another model.
        let mut forgetful = snapshot.clone();
        forgetful.optimizer = adam().into_bytes().expect("an empty record").to_vec();
        let other = train_from(&cfg, &obs, &exps, Some(forgetful), &mut EachLoss(|_, _| {}));
        assert_ne!(other.expect("trains").to_bytes(), whole);
        // Snapshots that do not fit, damaged or cut files are refused with a reason.
        let mut short = cfg.clone();
        short.updates = 4;
        let e = train_from(
            &short,
            &obs,
            &exps,
            Some(snapshot.clone()),
            &mut EachLoss(|_, _| {}),
        );
        assert!(e.unwrap_err().contains("a snapshot after 5 updates"));
        let bytes = snapshot.to_bytes("run 1");
        let mut damaged = bytes.clone();
        let last = damaged.len() - 1;
        damaged[last] ^= 1;
        assert!(Snapshot::from_bytes(&damaged)
            .unwrap_err()
            .contains("damaged"));
        assert!(Snapshot::from_bytes(&bytes[..bytes.len() - 8]).is_err());
        assert!(Snapshot::from_bytes(b"rephyre-phyq-dqn-model 1\n{}\n")
            .unwrap_err()
            .contains("no `rephyre-dqn-training 1` or `rephyre-phyq-dqn-training 1` line"));
        // A PHYRE DQN's snapshot is not a Phy-Q one's to train on.
        let mut phyre = snapshot.clone();
        phyre.of = super::SnapshotOf::Phyre;
        let (_, read) = Snapshot::from_bytes(&phyre.to_bytes("run 1")).expect("reads");
        assert_eq!(read.of, super::SnapshotOf::Phyre);
        let e = train_from(&cfg, &obs, &exps, Some(read), &mut EachLoss(|_, _| {}));
        assert!(e
            .unwrap_err()
            .contains("a snapshot of a PHYRE DQN's training, not a Phy-Q DQN's"));
    }

    #[test]
    fn the_plain_forward_pass_is_the_networks() {
        let (obs, exps) = synthetic(10);
        let model = train(&tiny(5), &obs, &exps, |_, _| {}).expect("trains");
        let net = model.to_net().expect("same shapes");
        let x: Vec<f32> = obs[3].iter().map(|&v| f32::from(v) / 255.0).collect();
        let burn_q = net
            .forward(Tensor::<2>::from_data(
                TensorData::new(x, [1, OBS_LEN]),
                &plain_device(),
            ))
            .into_data()
            .convert::<f32>()
            .try_to_vec::<f32>()
            .expect("floats");
        let plain = model.q(&obs[3]);
        assert_eq!(plain.len(), ACTIONS);
        for (p, b) in plain.iter().zip(&burn_q) {
            assert!((p - b).abs() < 1e-4 * (1.0 + b.abs()), "{p} vs {b}");
        }
    }

    #[test]
    fn model_files_round_trip_and_bad_ones_say_why() {
        let (obs, exps) = synthetic(10);
        let model = train(&tiny(6), &obs, &exps, |_, _| {}).expect("trains");
        let bytes = model.to_bytes();
        let back = Model::from_bytes(&bytes).expect("reads back");
        assert_eq!(back.to_bytes(), bytes);
        assert!(Model::from_bytes(b"hello\n{}\n")
            .unwrap_err()
            .contains("no `rephyre-phyq-dqn-model 1` line"));
        let cut = Model::from_bytes(&bytes[..bytes.len() - 4]).unwrap_err();
        assert!(cut.contains("bytes of weights"), "{cut}");
        let dir = std::env::temp_dir().join(format!("phyq-dqn-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("bad.model");
        std::fs::write(&path, b"rephyre-phyq-dqn-model 1\nnot json\n").expect("write");
        let e = Model::load(&path).unwrap_err();
        assert!(
            e.contains("is not a rephyre Phy-Q DQN model: header"),
            "{e}"
        );
        let e = PhyqDqn::load(&path).unwrap_err();
        assert!(
            e.contains("is not a rephyre Phy-Q DQN model: header"),
            "{e}"
        );
        // The agent of a model and the agent of its file are the same agent: digest and
        // record. Also for a final loss that serde_json reads back one bit off by default
        // (without its `float_roundtrip`).
        let mut model = model;
        model.header.summary.final_loss = 0.11129142120480537;
        let good = dir.join("good.model");
        model.save(&good).expect("saves");
        let (trained, loaded) = (PhyqDqn::new(model), PhyqDqn::load(&good).expect("loads"));
        assert_eq!(trained.digest(), loaded.digest());
        assert_eq!(trained.fingerprint(), loaded.fingerprint());
        assert_eq!(trained.record(), loaded.record());
        assert_eq!(
            loaded.id,
            tasks::rng::fnv64(&std::fs::read(&good).expect("reads"))
        );
        assert_eq!(loaded.record()[0], ("model".to_string(), loaded.digest()));
        // The file read and written again is the same file, that loss's last bit included.
        let bytes = std::fs::read(&good).expect("reads");
        let again = Model::from_bytes(&bytes).expect("a model").to_bytes();
        assert!(
            again == bytes,
            "a model file read and written again differs"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_agent_shoots_from_the_picture_without_simulating() {
        // By construction: the code outside these tests never advances a game.
        let src = include_str!("phyq.rs");
        let code = &src[..src.find("#[cfg(test)]").expect("a test module")];
        for call in [
            ".shoot",
            ".launch",
            ".settle",
            "step_idle",
            "best_next_shot",
            "Game::new",
        ] {
            assert!(!code.contains(call), "the DQN agent's code calls {call}");
        }
        // And in effect: the game is untouched, and the shot is the best logit's action.
        let (obs, exps) = synthetic(10);
        let agent = PhyqDqn::new(train(&tiny(7), &obs, &exps, |_, _| {}).expect("trains"));
        let level = level();
        let game = settled(&level);
        let (hash, steps) = (game.state_hash(), game.steps());
        let shot = agent
            .shot(&game, &level, &mut Draws::new(0, 0, 0))
            .expect("a shot");
        assert_eq!((game.state_hash(), game.steps()), (hash, steps));
        let best = agent.model.best(&observe(&game, &level));
        assert_eq!(shot, action_shot(&game, &level, best));
        assert!(agent.fingerprint().starts_with("model "));
    }
}
