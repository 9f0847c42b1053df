//! The network: observation + action → one logit, and the getting and setting of its weights.
//!
//! Observation encoder: a ResNet (stem convolution, then stages of basic residual blocks with
//! batch norm). Action encoder: an MLP. FiLM fuses them before the last stage (a channel-wise
//! gain `1 + γ(a)` and bias `β(a)` on the features entering it), then global max pooling and one
//! linear logit, as in the paper's late-fusion DQN.
//!
//! Weights are drawn from rephyre's counter-based RNG, never from burn's global seed, so two
//! models trained at once in one process cannot disturb each other's initialisation.

use super::config::NetConfig;
use super::data::CHANNELS;
use burn::module::{Module, ModuleMapper, ModuleVisitor, Param, ParamId};
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::pool::{MaxPool2d, MaxPool2dConfig};
use burn::nn::{BatchNorm, BatchNormConfig, Initializer, Linear, LinearConfig, PaddingConfig2d};
use burn::tensor::activation::relu;
use burn::tensor::{Device, Tensor, TensorData};

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

/// A linear layer whose weights [`init_weights`] draws (burn's own initialiser is not used).
pub(crate) fn linear(d_in: usize, d_out: usize, device: &Device) -> Linear {
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
        init_weights(net, seed, device)
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

/// `module` with He-uniform weights for its convolutions and linear layers drawn from (`seed`,
/// stream "DQN-INIT"); biases and batch-norm parameters keep their constructors' zeros and ones.
pub(crate) fn init_weights<M: Module>(module: M, seed: u64, device: &Device) -> M {
    module.map(&mut Init {
        seed,
        next: 0,
        device: device.clone(),
    })
}

/// The mapper of [`init_weights`].
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

/// `net` with its parameters numbered 1, 2, … in order. burn keys an optimizer's state by
/// parameter id and draws fresh ids for every network it builds; numbered, the network of a
/// resumed training matches the optimizer's record of the interrupted one. (Batch-norm running
/// statistics keep their ids: they are not the optimizer's.)
pub(crate) fn numbered<M: Module>(net: M) -> M {
    struct Number(u64);
    impl ModuleMapper for Number {
        fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
            let (_, value, mapper) = param.consume();
            self.0 += 1;
            Param::from_mapped_value(ParamId::from(self.0), value, mapper)
        }
    }
    net.map(&mut Number(0))
}

/// Every float tensor of the module (parameters and batch-norm running statistics), in the
/// module's declaration order: what a model file stores.
pub fn tensors<M: Module>(net: &M) -> Vec<(Vec<usize>, Vec<f32>)> {
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
pub fn load_tensors<M: Module>(
    net: M,
    values: Vec<(Vec<usize>, Vec<f32>)>,
    device: &Device,
) -> Result<M, String> {
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
