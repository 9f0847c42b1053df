//! The network and every burn type of the DQN agents: nothing outside this module names burn.
//!
//! Observation encoder: a ResNet (stem convolution, then stages of basic residual blocks with
//! batch norm). Action encoder: an MLP. FiLM fuses them before the last stage (a channel-wise
//! gain `1 + γ(a)` and bias `β(a)` on the features entering it), then global max pooling and one
//! linear logit, as in the paper's late-fusion DQN.
//!
//! Weights are drawn from rephyre's counter-based RNG, never from burn's global seed, so two
//! models trained at once in one process cannot disturb each other's initialisation.

use burn::module::{Module, ModuleMapper, ModuleVisitor, Param};
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::pool::{MaxPool2d, MaxPool2dConfig};
use burn::nn::{BatchNorm, BatchNormConfig, Initializer, Linear, LinearConfig, PaddingConfig2d};
use burn::optim::{AdamConfig, AdamWConfig, GradientsParams, ModuleOptimizer};
use burn::tensor::activation::{relu, softplus};
use burn::tensor::{Device, Tensor, TensorData};
use serde::{Deserialize, Serialize};

/// Colour channels of an observation (one-hot per pixel value, `raster::colour::COUNT`).
pub const CHANNELS: usize = 7;

/// The shape of the network.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NetConfig {
    /// Side of the (down-sampled) observation in pixels.
    pub obs_size: usize,
    /// Stem convolution kernel (stride 2).
    pub stem_kernel: usize,
    /// A 3×3 stride-2 max pool after the stem (ResNet-18's).
    pub stem_pool: bool,
    /// Channels of the stem and of each stage; the first stage keeps the stem's resolution,
    /// every later one halves it.
    pub widths: Vec<usize>,
    /// Residual blocks per stage.
    pub blocks: usize,
    /// Length of an action vector.
    pub action_dim: usize,
    /// Hidden width of the action MLP.
    pub action_hidden: usize,
    /// Two more input planes holding each pixel's x and y (in −1..1): FiLM's gains are per
    /// channel, so a feature that knows where it is lets the action's position select a region
    /// of the scene. Off in the paper's network.
    #[serde(default)]
    pub coord_planes: bool,
    /// One more plane entering the last stage, beside FiLM: the action's balls drawn at that
    /// stage's resolution, so the action's place meets the scene's features where they are.
    /// Off in the paper's network.
    #[serde(default)]
    pub ball_plane: bool,
    /// Frequencies of the action's Fourier features: beside each action number `a` the MLP
    /// also sees sin(2^k·π·a) and cos(2^k·π·a) for k < this, so that a small MLP can draw sharp
    /// regions of the action space. 0 (off) in the paper's network.
    #[serde(default)]
    pub action_fourier: usize,
    /// Stages after the fusion (FiLM and the ball plane): 1 fuses before the last stage (the
    /// paper's late fusion, before conv5); 2 before the last two, where the ball plane is
    /// twice as fine and ranking runs both stages per action.
    #[serde(default = "one")]
    pub fused_stages: usize,
}

pub(crate) fn one() -> usize {
    1
}

/// Why a [`NetConfig`] cannot be built: each names the field at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShapeError {
    /// `obs_size` is not a divisor of 256 (the scene's side).
    ObsSize(usize),
    /// `stem_kernel` is not odd and at most 11 (padding keeps the centre).
    StemKernel(usize),
    /// `widths` has too few stages for `fused_stages` (one before the fusion, the rest after)
    /// or a stage of no channels; holds the stages needed.
    Stages(usize),
    /// The stem, its pool and the stages after the first halve `obs_size` to nothing.
    TooSmall {
        obs_size: usize,
        stages: usize,
        pool: bool,
    },
    /// `blocks` is 0 or more than 8.
    Blocks(usize),
}

impl ShapeError {
    /// The rule a single field broke (`must divide 256`), for callers that name the field
    /// their own way; `None` for the rules that join several fields.
    pub fn rule(&self) -> Option<&'static str> {
        match self {
            ShapeError::ObsSize(_) => Some("must divide 256"),
            ShapeError::StemKernel(_) => Some("must be odd, 1 to 11"),
            ShapeError::Blocks(_) => Some("must be 1 to 8"),
            ShapeError::Stages(_) | ShapeError::TooSmall { .. } => None,
        }
    }
}

impl std::fmt::Display for ShapeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let rule = self.rule().unwrap_or_default();
        match self {
            ShapeError::ObsSize(s) => write!(f, "observation size {s} {rule}"),
            ShapeError::StemKernel(k) => write!(f, "stem kernel {k} {rule}"),
            ShapeError::Stages(n) => write!(
                f,
                "the network needs at least {n} stages, each of at least one channel"
            ),
            ShapeError::TooSmall {
                obs_size,
                stages,
                pool,
            } => write!(
                f,
                "a {obs_size}×{obs_size} observation is too small for {stages} stages{}",
                if *pool { " and the stem's pool" } else { "" }
            ),
            ShapeError::Blocks(b) => write!(f, "residual blocks per stage {b} {rule}"),
        }
    }
}

impl std::error::Error for ShapeError {}

impl NetConfig {
    /// Whether a network of this shape can be built ([`Net::new`] panics on one that cannot).
    pub fn check(&self) -> Result<(), ShapeError> {
        if self.obs_size == 0 || !256usize.is_multiple_of(self.obs_size) {
            return Err(ShapeError::ObsSize(self.obs_size));
        }
        if self.stem_kernel.is_multiple_of(2) || self.stem_kernel > 11 {
            return Err(ShapeError::StemKernel(self.stem_kernel));
        }
        if self.fused_stages == 0
            || self.widths.len() <= self.fused_stages
            || self.widths.contains(&0)
        {
            return Err(ShapeError::Stages(self.fused_stages.max(1) + 1));
        }
        // The stem, its pool and each stage after the first halve the resolution, which must
        // not vanish.
        let halvings = usize::from(self.stem_pool) + self.widths.len();
        if self.obs_size >> halvings == 0 {
            return Err(ShapeError::TooSmall {
                obs_size: self.obs_size,
                stages: self.widths.len(),
                pool: self.stem_pool,
            });
        }
        if !(1..=8).contains(&self.blocks) {
            return Err(ShapeError::Blocks(self.blocks));
        }
        Ok(())
    }
}

#[derive(Module, Debug)]
struct ConvBn {
    conv: Conv2d,
    bn: BatchNorm,
}

impl ConvBn {
    fn new(c_in: usize, c_out: usize, kernel: usize, stride: usize, device: &Device) -> ConvBn {
        let pad = kernel / 2;
        ConvBn {
            conv: Conv2dConfig::new([c_in, c_out], [kernel, kernel])
                .with_stride([stride, stride])
                .with_padding(PaddingConfig2d::Explicit(pad, pad, pad, pad))
                .with_bias(false)
                .with_initializer(Initializer::Zeros)
                .init(device),
            bn: BatchNormConfig::new(c_out).init(device),
        }
    }

    fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        self.bn.forward(self.conv.forward(x))
    }
}

/// A basic residual block (two 3×3 convolutions), with a 1×1 projection when the shape changes.
#[derive(Module, Debug)]
struct Block {
    a: ConvBn,
    b: ConvBn,
    shortcut: Option<ConvBn>,
}

impl Block {
    fn new(c_in: usize, c_out: usize, stride: usize, device: &Device) -> Block {
        Block {
            a: ConvBn::new(c_in, c_out, 3, stride, device),
            b: ConvBn::new(c_out, c_out, 3, 1, device),
            shortcut: (c_in != c_out || stride != 1)
                .then(|| ConvBn::new(c_in, c_out, 1, stride, device)),
        }
    }

    fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        let y = self.b.forward(relu(self.a.forward(x.clone())));
        let skip = match &self.shortcut {
            Some(s) => s.forward(x),
            None => x,
        };
        relu(y + skip)
    }
}

#[derive(Module, Debug)]
struct Stage {
    blocks: Vec<Block>,
}

impl Stage {
    fn new(c_in: usize, c_out: usize, stride: usize, blocks: usize, device: &Device) -> Stage {
        Stage {
            blocks: (0..blocks)
                .map(|i| {
                    if i == 0 {
                        Block::new(c_in, c_out, stride, device)
                    } else {
                        Block::new(c_out, c_out, 1, device)
                    }
                })
                .collect(),
        }
    }

    fn forward(&self, mut x: Tensor<4>) -> Tensor<4> {
        for b in &self.blocks {
            x = b.forward(x);
        }
        x
    }
}

fn linear(d_in: usize, d_out: usize, device: &Device) -> Linear {
    LinearConfig::new(d_in, d_out)
        .with_initializer(Initializer::Zeros)
        .init(device)
}

/// The DQN network: observation + action → one logit ("this action solves this task").
#[derive(Module, Debug)]
pub struct Net {
    stem: ConvBn,
    pool: Option<MaxPool2d>,
    /// The stages before the fusion (action-independent).
    trunk: Vec<Stage>,
    /// The stages after the fusion, but the last.
    mid: Vec<Stage>,
    last: Stage,
    action_in: Linear,
    action_hidden: Linear,
    /// γ and β of FiLM, `2 × channels entering the last stage`.
    film: Linear,
    head: Linear,
}

/// Labels of a training batch.
pub struct Batch {
    /// `[n, CHANNELS, s, s]` one-hot observations, row-major.
    pub obs: Vec<f32>,
    /// `[n, action_dim]`.
    pub actions: Vec<f32>,
    /// 1 for solved, 0 for not solved.
    pub labels: Vec<f32>,
    /// Consecutive examples sharing one observation: `obs` holds `n / per_scene` of them.
    pub per_scene: usize,
}

impl Net {
    /// A network of shape `cfg` on `device`, weights drawn from (`seed`, stream "DQN-INIT").
    pub fn new(cfg: &NetConfig, seed: u64, device: &Device) -> Net {
        if let Err(e) = cfg.check() {
            panic!("DQN shape: {e}");
        }
        let w = &cfg.widths;
        let stages = w.len();
        let after = cfg.fused_stages;
        let fused = w[stages - after - 1];
        // Every stage; the first after the fusion also takes the ball plane.
        let mut trunk: Vec<Stage> = (0..stages)
            .map(|i| {
                let (c_in, stride) = if i == 0 { (w[0], 1) } else { (w[i - 1], 2) };
                let ball = usize::from(cfg.ball_plane && i == stages - after);
                Stage::new(c_in + ball, w[i], stride, cfg.blocks, device)
            })
            .collect();
        let last = trunk.pop().expect("at least two stages");
        let mid = trunk.split_off(stages - after);
        let net = Net {
            stem: ConvBn::new(
                CHANNELS + if cfg.coord_planes { 2 } else { 0 },
                w[0],
                cfg.stem_kernel,
                2,
                device,
            ),
            pool: cfg.stem_pool.then(|| {
                MaxPool2dConfig::new([3, 3])
                    .with_strides([2, 2])
                    .with_padding(PaddingConfig2d::Explicit(1, 1, 1, 1))
                    .init()
            }),
            trunk,
            mid,
            last,
            action_in: linear(
                cfg.action_dim * (1 + 2 * cfg.action_fourier),
                cfg.action_hidden,
                device,
            ),
            action_hidden: linear(cfg.action_hidden, cfg.action_hidden, device),
            film: linear(cfg.action_hidden, 2 * fused, device),
            head: linear(w[stages - 1], 1, device),
        };
        net.map(&mut Init {
            seed,
            next: 0,
            device: device.clone(),
        })
    }

    /// Action-independent features of observations `[n, CHANNELS, s, s]`.
    pub fn encode(&self, obs: Tensor<4>) -> Tensor<4> {
        let [n, c, h, w] = obs.dims();
        let stem_in = self.stem.conv.weight.dims()[1];
        let obs = if stem_in > c {
            // The coordinate planes: x across, y down the image, each in −1..1.
            let mut planes = Vec::with_capacity(2 * h * w);
            for _ in 0..h {
                planes.extend((0..w).map(|x| coordinate(x, w)));
            }
            for y in 0..h {
                planes.extend(std::iter::repeat_n(coordinate(y, h), w));
            }
            let coords =
                Tensor::<4>::from_data(TensorData::new(planes, [1, 2, h, w]), &obs.device())
                    .expand([n, 2, h, w]);
            Tensor::cat(vec![obs, coords], 1)
        } else {
            obs
        };
        let mut x = relu(self.stem.forward(obs));
        if let Some(p) = &self.pool {
            x = p.forward(x);
        }
        for s in &self.trunk {
            x = s.forward(x);
        }
        x
    }

    /// Logits `[n]` of features `[n, c, h, w]` (from [`Net::encode`]) with actions (`n × d`,
    /// row-major).
    pub fn fuse(&self, features: Tensor<4>, actions: &[f32]) -> Tensor<1> {
        let [n, c, h, w] = features.dims();
        let device = features.device();
        let d = actions.len() / n.max(1);
        let features_per = self.action_in.weight.dims()[0] / d.max(1);
        let a = Tensor::<2>::from_data(
            TensorData::new(
                action_features(actions, features_per / 2),
                [n, d * features_per],
            ),
            &device,
        );
        let a = relu(self.action_in.forward(a));
        let a = relu(self.action_hidden.forward(a));
        let film = self.film.forward(a);
        let gain = film.clone().narrow(1, 0, c).reshape([n, c, 1, 1]) + 1.0;
        let bias = film.narrow(1, c, c).reshape([n, c, 1, 1]);
        let mut x = features * gain + bias;
        let first_after = self.mid.first().unwrap_or(&self.last);
        if first_after.blocks[0].a.conv.weight.dims()[1] > c {
            let planes = ball_planes(actions, d, h, w);
            x = Tensor::cat(
                vec![
                    x,
                    Tensor::from_data(TensorData::new(planes, [n, 1, h, w]), &device),
                ],
                1,
            );
        }
        for stage in &self.mid {
            x = stage.forward(x);
        }
        let x = self.last.forward(x);
        let [_, c4, h, w] = x.dims();
        let pooled = x.reshape([n, c4, h * w]).max_dim(2).reshape([n, c4]);
        self.head.forward(pooled).reshape([n])
    }

    /// Logits of a batch whose observations each serve `per_scene` consecutive actions.
    pub fn forward(&self, obs: Tensor<4>, actions: &[f32], per_scene: usize) -> Tensor<1> {
        let features = self.encode(obs);
        let features = if per_scene > 1 {
            let [g, c, h, w] = features.dims();
            features
                .unsqueeze_dim::<5>(1)
                .expand([g, per_scene, c, h, w])
                .reshape([g * per_scene, c, h, w])
        } else {
            features
        };
        self.fuse(features, actions)
    }
}

/// The balls of `n` actions (each `d` numbers: x, y, r per ball, as the tasks map them: centre
/// 255·(x, y) px, radius 2 + 30·r px; y up like the observation's rows) drawn on an `h × w` grid
/// over the scene: a cell is 1 where its centre is inside a ball, falling to 0 one cell
/// outside it.
pub(crate) fn ball_planes(actions: &[f32], d: usize, h: usize, w: usize) -> Vec<f32> {
    let n = actions.len() / d.max(1);
    let cell = 256.0 / w.max(h) as f32;
    let mut out = vec![0f32; n * h * w];
    for (i, a) in actions.chunks_exact(d.max(1)).enumerate() {
        let plane = &mut out[i * h * w..(i + 1) * h * w];
        for ball in a.chunks_exact(3) {
            let (bx, by, r) = (255.0 * ball[0], 255.0 * ball[1], 2.0 + 30.0 * ball[2]);
            for row in 0..h {
                for col in 0..w {
                    let cx = (col as f32 + 0.5) * 256.0 / w as f32;
                    let cy = (row as f32 + 0.5) * 256.0 / h as f32;
                    let dist = ((cx - bx).powi(2) + (cy - by).powi(2)).sqrt();
                    let v = (1.0 - (dist - r).max(0.0) / cell).max(0.0);
                    let p = &mut plane[row * w + col];
                    *p = p.max(v);
                }
            }
        }
    }
    out
}

/// Each action number followed by its `frequencies` Fourier pairs (sin, cos of 2^k·π·a): the
/// input of the action MLP ([`NetConfig::action_fourier`]).
pub(crate) fn action_features(actions: &[f32], frequencies: usize) -> Vec<f32> {
    if frequencies == 0 {
        return actions.to_vec();
    }
    let mut out = Vec::with_capacity(actions.len() * (1 + 2 * frequencies));
    for &a in actions {
        out.push(a);
        let mut f = std::f32::consts::PI;
        for _ in 0..frequencies {
            let (s, c) = (f * a).sin_cos();
            out.push(s);
            out.push(c);
            f *= 2.0;
        }
    }
    out
}

/// Pixel `i` of `n` mapped to its centre's position in −1..1.
fn coordinate(i: usize, n: usize) -> f32 {
    ((2 * i + 1) as f32 / n as f32) - 1.0
}

/// Binary cross-entropy of `logits` against 0/1 `labels`, averaged (log-sum-exp form, stable
/// for any logit): softplus(z) − y·z.
pub fn bce(logits: Tensor<1>, labels: Tensor<1>) -> Tensor<1> {
    (softplus(logits.clone(), 1.0) - logits * labels).mean()
}

/// He-uniform weights for convolutions and linear layers from the counter-based RNG; biases and
/// batch-norm parameters keep their constructors' zeros and ones.
struct Init {
    seed: u64,
    next: u64,
    device: Device,
}

const INIT_STREAM: u64 = 0x4451_4e2d_494e_4954; // "DQN-INIT"

impl ModuleMapper for Init {
    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        if D < 2 {
            return param;
        }
        let tensor_index = self.next;
        self.next += 1;
        let (seed, device) = (self.seed, self.device.clone());
        param.map(move |t| {
            let shape = t.shape();
            let dims: Vec<usize> = shape.iter().copied().collect();
            // Conv weights are [out, in, k, k]; burn's linear weights are [in, out].
            let fan_in = if D == 4 {
                dims[1] * dims[2] * dims[3]
            } else {
                dims[0]
            };
            let bound = (6.0 / fan_in.max(1) as f64).sqrt();
            let len: usize = dims.iter().product();
            let values: Vec<f32> = (0..len as u64)
                .map(|i| {
                    let u =
                        tasks::rng::unit_f64(tasks::rng::word(seed, INIT_STREAM, tensor_index, i));
                    ((2.0 * u - 1.0) * bound) as f32
                })
                .collect();
            Tensor::from_data(TensorData::new(values, dims), &device)
                .set_require_grad(t.is_require_grad())
        })
    }
}

/// Every float tensor of the module (parameters and batch-norm running statistics), in the
/// module's declaration order: what a model file stores.
pub fn tensors(net: &Net) -> Vec<(Vec<usize>, Vec<f32>)> {
    struct Collect(Vec<(Vec<usize>, Vec<f32>)>);
    impl ModuleVisitor for Collect {
        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
            let t = param.val();
            let dims: Vec<usize> = t.shape().iter().copied().collect();
            let data = t.into_data().convert::<f32>();
            self.0
                .push((dims, data.try_to_vec::<f32>().unwrap_or_default()));
        }
    }
    let mut c = Collect(Vec::new());
    net.visit(&mut c);
    c.0
}

/// Replace every float tensor of `net` by `values` (as from [`tensors`]); `Err` names the first
/// shape mismatch.
pub fn load_tensors(
    net: Net,
    values: Vec<(Vec<usize>, Vec<f32>)>,
    device: &Device,
) -> Result<Net, String> {
    struct Load {
        values: std::vec::IntoIter<(Vec<usize>, Vec<f32>)>,
        device: Device,
        error: Option<String>,
    }
    impl ModuleMapper for Load {
        fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
            let Some((dims, data)) = self.values.next() else {
                self.error
                    .get_or_insert_with(|| "the file holds too few tensors".into());
                return param;
            };
            let device = self.device.clone();
            let want: Vec<usize> = param.val().shape().iter().copied().collect();
            if want != dims || data.len() != dims.iter().product::<usize>() {
                self.error.get_or_insert_with(|| {
                    format!("tensor of shape {dims:?} where {want:?} is expected")
                });
                return param;
            }
            param.map(move |t| {
                Tensor::from_data(TensorData::new(data, dims), &device)
                    .set_require_grad(t.is_require_grad())
            })
        }
    }
    let mut l = Load {
        values: values.into_iter(),
        device: device.clone(),
        error: None,
    };
    let net = net.map(&mut l);
    if l.values.next().is_some() {
        l.error
            .get_or_insert_with(|| "the file holds too many tensors".into());
    }
    match l.error {
        Some(e) => Err(e),
        None => Ok(net),
    }
}

/// A network being trained, with its optimizer (Adam, or AdamW with weight decay).
pub struct Trainer {
    /// `None` only inside [`Trainer::step`] (the optimizer takes the module by value).
    net: Option<Net>,
    optim: ModuleOptimizer,
    device: Device,
    cfg: NetConfig,
}

/// Where the networks' arithmetic runs, chosen once per process (before any network exists).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compute {
    /// burn's pure-Rust `flex` backend: bit-reproducible for one build (the default).
    Cpu,
    /// The system's default GPU through Vulkan (cargo feature `gpu`): faster at scale, but its
    /// float kernels are not bit-reproducible, so results are statistical replicates, not
    /// copies.
    Gpu,
}

impl Compute {
    pub fn name(self) -> &'static str {
        match self {
            Compute::Cpu => "cpu",
            Compute::Gpu => "gpu",
        }
    }
}

static COMPUTE: std::sync::OnceLock<Compute> = std::sync::OnceLock::new();

/// Run every later network on `compute`. `Err` when this build lacks the backend, when the GPU
/// does not answer, or when a different choice was made (or a network built) earlier in the
/// process.
pub fn use_compute(compute: Compute) -> Result<(), String> {
    if compute == Compute::Gpu && COMPUTE.get() != Some(&Compute::Gpu) {
        probe_gpu()?;
    }
    let chosen = *COMPUTE.get_or_init(|| compute);
    if chosen != compute {
        return Err(format!(
            "the DQN backend is already {chosen:?} in this process"
        ));
    }
    Ok(())
}

#[cfg(not(feature = "gpu"))]
fn probe_gpu() -> Result<(), String> {
    Err(
        "this rephyre was built without the GPU backend; build it with \
         `cargo build --release -p harness --features gpu`"
            .into(),
    )
}

/// One small product on the GPU, so that a missing driver is an error here: burn finds none only
/// at a network's first operation, and panics then on its device thread.
#[cfg(feature = "gpu")]
fn probe_gpu() -> Result<(), String> {
    use std::sync::{Arc, Mutex};
    let first_panic = Arc::new(Mutex::new(None::<String>));
    let seen = Arc::clone(&first_panic);
    let hook = std::panic::take_hook();
    // Quiet while probing (the process's hook would call the refusal a bug); keep the first
    // message, which names what is missing (the device thread's, not the caller's).
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| info.payload().downcast_ref::<&str>().map(|m| m.to_string()));
        if let Ok(mut slot) = seen.lock() {
            slot.get_or_insert(message.unwrap_or_default());
        }
    }));
    let result = std::panic::catch_unwind(|| {
        let device = gpu_device();
        let t = Tensor::<1>::from_data(TensorData::new(vec![1.0f32, 2.0], [2]), &device);
        t.mul_scalar(2.0)
            .into_data()
            .convert::<f32>()
            .try_to_vec::<f32>()
            .ok()
    });
    std::panic::set_hook(hook);
    match result {
        Ok(Some(v)) if v == [2.0, 4.0] => Ok(()),
        Ok(v) => Err(format!("the GPU computed {v:?} for [2.0, 4.0]")),
        Err(_) => {
            let why = first_panic
                .lock()
                .ok()
                .and_then(|m| m.clone())
                .unwrap_or_default();
            Err(format!(
                "no GPU answered through Vulkan ({}); it needs a Vulkan loader \
                 (libvulkan.so.1) and the GPU driver's ICD (VK_DRIVER_FILES can name its file)",
                why.lines().next().unwrap_or("no reason given")
            ))
        }
    }
}

/// The system's default GPU, through Vulkan.
#[cfg(feature = "gpu")]
fn gpu_device() -> Device {
    Device::vulkan(burn::tensor::DeviceKind::DefaultDevice)
}

/// The backend chosen by [`use_compute`] (the CPU when none was).
pub fn compute() -> Compute {
    *COMPUTE.get_or_init(|| Compute::Cpu)
}

/// The device of [`compute`], without gradients (inference, loading).
pub fn plain_device() -> Device {
    match compute() {
        Compute::Cpu => Device::flex(),
        #[cfg(feature = "gpu")]
        Compute::Gpu => gpu_device(),
        #[cfg(not(feature = "gpu"))]
        Compute::Gpu => unreachable!("use_compute refuses the GPU without the feature"),
    }
}

/// The device every DQN trains on, with gradients.
pub fn train_device() -> Device {
    plain_device().autodiff()
}

/// Adam, or with a decoupled `weight_decay` AdamW (the same moments and epsilon).
fn optimizer(weight_decay: f64) -> ModuleOptimizer {
    if weight_decay == 0.0 {
        AdamConfig::new().with_epsilon(1e-8).init()
    } else {
        AdamWConfig::new()
            .with_epsilon(1e-8)
            .with_weight_decay(weight_decay as f32)
            .init()
    }
}

impl Trainer {
    pub fn new(cfg: &NetConfig, seed: u64, weight_decay: f64) -> Trainer {
        let device = train_device();
        Trainer {
            net: Some(Net::new(cfg, seed, &device)),
            optim: optimizer(weight_decay),
            device,
            cfg: cfg.clone(),
        }
    }

    /// Wrap a network (e.g. loaded from a file) for more training; the optimizer starts fresh.
    pub fn from_net(cfg: &NetConfig, net: Net, weight_decay: f64) -> Trainer {
        let device = train_device();
        Trainer {
            // A network read from a file lives on the plain device, where its parameters cannot
            // track gradients: moved to the training device, they must be told to.
            net: Some(net.fork(&device).set_require_grad(true).train()),
            optim: optimizer(weight_decay),
            device,
            cfg: cfg.clone(),
        }
    }

    /// One Adam step on `batch` at learning rate `lr`; returns the batch's loss before the step.
    pub fn step(&mut self, batch: &Batch, lr: f64) -> f32 {
        let n = batch.labels.len();
        let s = self.cfg.obs_size;
        let scenes = n / batch.per_scene.max(1);
        let obs = Tensor::<4>::from_data(
            TensorData::new(batch.obs.clone(), [scenes, CHANNELS, s, s]),
            &self.device,
        );
        let labels =
            Tensor::<1>::from_data(TensorData::new(batch.labels.clone(), [n]), &self.device);
        let net = self.net.take().expect("the trainer holds its network");
        let loss = bce(
            net.forward(obs, &batch.actions, batch.per_scene.max(1)),
            labels,
        );
        let value = scalar(loss.clone());
        let grads = GradientsParams::from_grads(loss.backward(), &net);
        self.net = Some(self.optim.step(lr, net, grads));
        value
    }

    /// The network being trained.
    pub fn net(&self) -> &Net {
        self.net.as_ref().expect("the trainer holds its network")
    }

    /// The network for inference (batch norm on its running statistics, no gradients).
    pub fn scorer(&self) -> Scorer {
        Scorer::new(self.net().clone(), &self.cfg)
    }
}

fn scalar(t: Tensor<1>) -> f32 {
    t.into_data()
        .convert::<f32>()
        .try_to_vec::<f32>()
        .ok()
        .and_then(|v| v.first().copied())
        .unwrap_or(f32::NAN)
}

/// A network in inference mode: scores every action of a set on one observation.
pub struct Scorer {
    net: Net,
    cfg: NetConfig,
    device: Device,
}

/// Actions scored per forward pass of the last stage.
const SCORE_CHUNK: usize = 512;

impl Scorer {
    pub fn new(net: Net, cfg: &NetConfig) -> Scorer {
        let device = plain_device();
        Scorer {
            // Inference mode: batch norm on its running statistics, no gradients.
            net: net.valid().to_device(&device),
            cfg: cfg.clone(),
            device,
        }
    }

    /// The logit of each action (`actions`: `n × action_dim`, row-major) on one observation
    /// (`CHANNELS × s × s`); the observation is encoded once.
    pub fn score(&self, obs: &[f32], actions: &[f32]) -> Vec<f32> {
        let s = self.cfg.obs_size;
        let d = self.cfg.action_dim;
        let n = actions.len() / d;
        let x = Tensor::<4>::from_data(
            TensorData::new(obs.to_vec(), [1, CHANNELS, s, s]),
            &self.device,
        );
        let features = self.net.encode(x);
        let [_, c, h, w] = features.dims();
        let mut out = Vec::with_capacity(n);
        let mut start = 0;
        while start < n {
            let m = SCORE_CHUNK.min(n - start);
            let f = features.clone().expand([m, c, h, w]);
            let logits = self.net.fuse(f, &actions[start * d..(start + m) * d]);
            out.extend(
                logits
                    .into_data()
                    .convert::<f32>()
                    .try_to_vec::<f32>()
                    .unwrap_or_else(|_| vec![f32::NAN; m]),
            );
            start += m;
        }
        out
    }

    pub fn net(&self) -> &Net {
        &self.net
    }
}
