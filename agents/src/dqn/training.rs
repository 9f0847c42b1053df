//! Training: the optimiser ([`Trainer`]: binary cross-entropy, Adam or AdamW), the training
//! loop (balanced batches, a cosine learning-rate schedule; stopped and resumed exactly from a
//! [`Snapshot`], [`train_from`]) and the one rule of how a batch is drawn ([`draw_batch`]), for
//! training and DQN-O's online updates alike. Kernels run on one
//! thread ([`single_threaded`](super::device::single_threaded)) so that the weights do not
//! depend on the thread count.

use super::config::{NetConfig, TrainConfig};
use super::data::{
    batch_of, batch_of_grouped, sample, sample_grouped, Batch, Mirror, Observations, Pools,
    TaskPools, CHANNELS,
};
use super::device::train_device;
use super::network::{load_tensors, numbered, tensors, Net};
use super::scoring::Scorer;
use burn::module::Module;
use burn::optim::{AdamConfig, AdamWConfig, GradientsParams, ModuleOptimizer};
use burn::tensor::activation::softplus;
use burn::tensor::{Bytes, Device, Tensor, TensorData};

/// Told how training goes (a progress bar).
pub trait TrainProgress: Send + Sync {
    /// `updates` more updates are planned.
    fn planned(&self, updates: u64);
    /// One update is done; `loss` is its batch's loss.
    fn update(&self, loss: f32);
    /// The training is over (a bar clears itself); by default nothing is done.
    fn finish(&self) {}
}

/// A progress sink that shows nothing.
pub struct NoProgress;

impl TrainProgress for NoProgress {
    fn planned(&self, _: u64) {}
    fn update(&self, _: f32) {}
}

/// Cosine decay from `base` to 0 over `total` updates (update `i` counted from 0).
pub fn cosine_lr(base: f64, i: usize, total: usize) -> f64 {
    if total == 0 {
        return base;
    }
    0.5 * base * (1.0 + (std::f64::consts::PI * i as f64 / total as f64).cos())
}

/// Statistics of a finished training run.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TrainSummary {
    pub updates: usize,
    pub solved_examples: usize,
    pub not_solved_examples: usize,
    /// Mean loss of the last 10 % of updates.
    pub final_loss: f64,
}

/// What a training run tells its caller as it goes, and when it hands out a [`Snapshot`].
pub trait Hooks: Send {
    /// Update `u` (counted from 0) is done; `loss` was its batch's.
    fn updated(&mut self, _u: usize, _loss: f32) {}
    /// Whether to take a snapshot now, `done` updates in (asked after every update, the last
    /// one included).
    fn snapshot_due(&mut self, _done: usize) -> bool {
        false
    }
    /// The snapshot asked for (e.g. to write a checkpoint); `Err` stops the training with it.
    fn snapshot(&mut self, _snapshot: Snapshot) -> Result<(), String> {
        Ok(())
    }
}

/// Hooks that take no snapshot.
pub struct NoHooks;

impl Hooks for NoHooks {}

/// Which training a [`Snapshot`] is of (its file says so, `super::file`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SnapshotOf {
    /// A PHYRE DQN's ([`train_from`]).
    Phyre,
    /// A Phy-Q DQN's (`super::phyq::train_from`).
    Phyq,
}

impl SnapshotOf {
    /// What trains, in messages.
    pub fn name(self) -> &'static str {
        match self {
            SnapshotOf::Phyre => "PHYRE DQN",
            SnapshotOf::Phyq => "Phy-Q DQN",
        }
    }
}

/// Where a training run stands after some updates, exactly: the network's tensors (with
/// batch norm's running statistics), the optimizer's state (per parameter its two moments and
/// its step count, as burn records them: the f32 values bit for bit) and the batch losses so
/// far. Training on from a snapshot gives the model bytes of the uninterrupted training; the
/// batches are keyed by the update's number, so nothing else is needed. Its file:
/// `Snapshot::to_bytes` (`super::file`).
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    pub of: SnapshotOf,
    /// Updates done.
    pub updates: usize,
    /// Their batch losses, in order.
    pub losses: Vec<f32>,
    /// The network's tensors, in the module's order.
    pub(crate) weights: Vec<(Vec<usize>, Vec<f32>)>,
    /// burn's record of the optimizer (burnpack bytes).
    pub(crate) optimizer: Vec<u8>,
}

impl Snapshot {
    /// The snapshot of an `of` training after the updates of `losses`: the network's `weights`
    /// and `optim`'s record.
    pub(crate) fn taken(
        of: SnapshotOf,
        losses: &[f32],
        weights: Vec<(Vec<usize>, Vec<f32>)>,
        optim: &ModuleOptimizer,
    ) -> Result<Snapshot, String> {
        let optimizer = optim
            .into_bytes()
            .map_err(|e| format!("cannot record the optimizer's state: {e}"))?;
        Ok(Snapshot {
            of,
            updates: losses.len(),
            losses: losses.to_vec(),
            weights,
            optimizer: optimizer.to_vec(),
        })
    }

    /// `Err` unless this is a snapshot of an `of` training of `updates` updates.
    pub(crate) fn check(&self, of: SnapshotOf, updates: usize) -> Result<(), String> {
        if self.of != of {
            return Err(format!(
                "a snapshot of a {}'s training, not a {}'s",
                self.of.name(),
                of.name()
            ));
        }
        if self.updates > updates || self.losses.len() != self.updates {
            return Err(format!(
                "a snapshot after {} updates ({} losses) for a training of {updates}",
                self.updates,
                self.losses.len(),
            ));
        }
        Ok(())
    }
}

/// Train a network on `pools` (indices into `obs` and `actions`) per `cfg`: a fresh one, or from
/// `start` when given (a [`Snapshot`] of the same options and data: the updates
/// after it are run and the network is the uninterrupted training's, bit for bit), telling
/// `progress` and `hooks` of each update and taking the snapshots `hooks` asks for.
#[allow(clippy::too_many_arguments)]
pub fn train_from(
    cfg: &TrainConfig,
    net: &NetConfig,
    obs: &Observations,
    actions: &[Vec<f64>],
    pools: &Pools,
    progress: &dyn TrainProgress,
    start: Option<Snapshot>,
    hooks: &mut dyn Hooks,
) -> Result<(Trainer, TrainSummary), String> {
    let (mut trainer, mut losses) = match start {
        None => (Trainer::new(net, cfg.seed, cfg.weight_decay), Vec::new()),
        Some(s) => {
            s.check(SnapshotOf::Phyre, cfg.updates)?;
            let trainer =
                Trainer::resumed(net, cfg.seed, cfg.weight_decay, s.weights, s.optimizer)?;
            (trainer, s.losses)
        }
    };
    losses.reserve(cfg.updates - losses.len());
    // With no example at all there is nothing to learn and nothing is done (as `run_updates`).
    let by_task = grouped(cfg).then(|| task_pools(cfg, pools, actions));
    let draw = Draw::Training(Examples {
        pools,
        by_task: by_task.as_ref(),
    });
    let todo = if pools.is_empty() {
        0..0
    } else {
        losses.len()..cfg.updates
    };
    for u in todo {
        let lr = cosine_lr(cfg.lr, u, cfg.updates);
        let value = update(
            &mut trainer,
            cfg,
            draw,
            u as u64,
            obs,
            actions,
            lr,
            progress,
        );
        hooks.updated(u, value);
        losses.push(value);
        if hooks.snapshot_due(u + 1) {
            hooks.snapshot(trainer.snapshot(&losses)?)?;
        }
    }
    let final_loss = final_loss(&losses);
    Ok((
        trainer,
        TrainSummary {
            updates: cfg.updates,
            solved_examples: pools.solved.len(),
            not_solved_examples: pools.not_solved.len(),
            final_loss,
        },
    ))
}

/// `pools` by task for grouped batches, with each task's near misses among `actions` when `cfg`
/// draws some of its negatives there.
pub fn task_pools(cfg: &TrainConfig, pools: &Pools, actions: &[Vec<f64>]) -> TaskPools {
    let by_task = TaskPools::new(pools);
    if cfg.near_misses > 0 {
        by_task.with_near_misses(actions)
    } else {
        by_task
    }
}

/// RNG seed offset of DQN-O's online batches (distinct from the training batches').
const ONLINE_SEED: u64 = 0x4f4e_4c49_4e45; // "ONLINE"

/// Examples to draw batches from: the pools, and the same pools by task ([`task_pools`]), which
/// batches drawn in groups of one scene ([`grouped`]) need.
#[derive(Clone, Copy)]
pub struct Examples<'a> {
    pub pools: &'a Pools,
    pub by_task: Option<&'a TaskPools>,
}

/// What a batch is drawn for.
#[derive(Clone, Copy)]
pub enum Draw<'a> {
    /// Training: the whole batch from the training examples.
    Training(Examples<'a>),
    /// DQN-O's update after a test task: half the batch from the training examples, half from
    /// the test attempts seen so far.
    Online {
        training: Examples<'a>,
        attempts: Examples<'a>,
    },
}

/// Whether `cfg`'s batches are drawn in groups of several actions of one scene
/// ([`sample_grouped`], from the pools by task) rather than example by example ([`sample`]).
pub fn grouped(cfg: &TrainConfig) -> bool {
    cfg.actions_per_scene > 1
}

/// The batch of update `update` (the examples are keyed by it): the one rule of how a batch is
/// drawn, for training and for DQN-O's online updates alike. Grouped ([`grouped`]) or not; with
/// `cfg.mirror`, the scenes its coin flips are shown mirrored ([`Mirror`]).
///
/// * Training: `cfg.batch` examples, balanced per `cfg.balanced`, `cfg.near_misses` of each
///   group's non-solving actions from its task's near misses, on `cfg.seed`.
/// * Online: on the seed `cfg.seed ^ ONLINE_SEED`, half the batch from the training examples
///   (balanced), half from the test attempts (grouped: balanced, which draws a test task only
///   where it was solved, else its failures; ungrouped: as they came, mostly failures).
///
/// Grouped batches need the examples by task (`by_task`): [`task_pools`].
pub fn draw_batch(
    cfg: &TrainConfig,
    draw: Draw<'_>,
    update: u64,
    obs: &Observations,
    actions: &[Vec<f64>],
) -> Batch {
    let aps = cfg.actions_per_scene;
    match draw {
        Draw::Training(examples) => {
            let mirror = cfg.mirror.then_some(Mirror {
                seed: cfg.seed,
                update,
            });
            if grouped(cfg) {
                let examples = sample_grouped(
                    by_task(examples),
                    cfg.batch,
                    aps,
                    cfg.balanced,
                    cfg.near_misses,
                    cfg.seed,
                    update,
                );
                batch_of_grouped(&examples, aps, obs, actions, mirror)
            } else {
                batch_of(
                    &sample(examples.pools, cfg.batch, cfg.balanced, cfg.seed, update),
                    obs,
                    actions,
                    mirror,
                )
            }
        }
        Draw::Online { training, attempts } => {
            let seed = cfg.seed ^ ONLINE_SEED;
            let half = cfg.batch / 2;
            let mirror = cfg.mirror.then_some(Mirror { seed, update });
            if grouped(cfg) {
                // Half the batch from the training data, half from the test attempts seen so
                // far, both in groups of one scene: balanced where a test task was solved, else
                // its failures.
                let near = cfg.near_misses;
                let mut examples =
                    sample_grouped(by_task(training), half, aps, true, near, seed, update);
                examples.extend(sample_grouped(
                    by_task(attempts),
                    cfg.batch - half,
                    aps,
                    true,
                    near,
                    seed ^ 1,
                    update,
                ));
                batch_of_grouped(&examples, aps, obs, actions, mirror)
            } else {
                // Half the batch from the training data (balanced), half from the test
                // attempts seen so far (as they came: mostly failures).
                let mut examples = sample(training.pools, half, true, seed, update);
                examples.extend(sample(
                    attempts.pools,
                    cfg.batch - half,
                    false,
                    seed ^ 1,
                    update,
                ));
                batch_of(&examples, obs, actions, mirror)
            }
        }
    }
}

/// The examples by task, which grouped batches draw from.
fn by_task(examples: Examples<'_>) -> &TaskPools {
    examples
        .by_task
        .expect("grouped batches draw from the examples by task")
}

/// Updates `first..first + count` (their batches are keyed by these numbers) on `pools`; returns
/// their losses. With no example at all there is nothing to learn and nothing is done.
#[allow(clippy::too_many_arguments)]
pub fn run_updates(
    trainer: &mut Trainer,
    cfg: &TrainConfig,
    obs: &Observations,
    actions: &[Vec<f64>],
    pools: &Pools,
    first: u64,
    count: usize,
    progress: &dyn TrainProgress,
    lr: impl Fn(usize) -> f64,
) -> Vec<f32> {
    if pools.is_empty() {
        return Vec::new();
    }
    let mut losses = Vec::with_capacity(count);
    let by_task = grouped(cfg).then(|| task_pools(cfg, pools, actions));
    let draw = Draw::Training(Examples {
        pools,
        by_task: by_task.as_ref(),
    });
    for i in 0..count {
        let loss = update(
            trainer,
            cfg,
            draw,
            first + i as u64,
            obs,
            actions,
            lr(i),
            progress,
        );
        losses.push(loss);
    }
    losses
}

/// Update `number` (its batch is keyed by it) at learning rate `lr`; returns its batch's loss.
#[allow(clippy::too_many_arguments)]
fn update(
    trainer: &mut Trainer,
    cfg: &TrainConfig,
    draw: Draw<'_>,
    number: u64,
    obs: &Observations,
    actions: &[Vec<f64>],
    lr: f64,
    progress: &dyn TrainProgress,
) -> f32 {
    let batch = draw_batch(cfg, draw, number, obs, actions);
    let loss = trainer.step(&batch, lr);
    progress.update(loss);
    loss
}

/// A network being trained, with its optimizer (Adam, or AdamW with weight decay).
pub struct Trainer {
    /// `None` only inside [`Trainer::step`] (the optimizer takes the module by value).
    net: Option<Net>,
    optim: ModuleOptimizer,
    device: Device,
    cfg: NetConfig,
}

/// Adam, or with a decoupled `weight_decay` AdamW (the same moments and epsilon). The Phy-Q
/// DQN trains with the Adam (`weight_decay` 0).
pub(crate) fn optimizer(weight_decay: f64) -> ModuleOptimizer {
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
            net: Some(numbered(Net::new(cfg, seed, &device))),
            optim: optimizer(weight_decay),
            device,
            cfg: cfg.clone(),
        }
    }

    /// The trainer of a [`Snapshot`]'s network tensors and optimizer record.
    fn resumed(
        cfg: &NetConfig,
        seed: u64,
        weight_decay: f64,
        weights: Vec<(Vec<usize>, Vec<f32>)>,
        optimizer_record: Vec<u8>,
    ) -> Result<Trainer, String> {
        let device = train_device();
        let net = load_tensors(Net::new(cfg, seed, &device), weights, &device)?;
        let optim = resumed_optimizer(weight_decay, optimizer_record)?;
        Ok(Trainer {
            net: Some(numbered(net)),
            optim,
            device,
            cfg: cfg.clone(),
        })
    }

    /// Where this training stands after the updates of `losses`.
    fn snapshot(&self, losses: &[f32]) -> Result<Snapshot, String> {
        Snapshot::taken(
            SnapshotOf::Phyre,
            losses,
            // Through the inference view: reading it brings batch norm's running statistics up
            // to date (burn holds a module's last update of them apart until then; training
            // reads them up to date too, so this changes nothing of the training).
            tensors(&self.net().valid()),
            &self.optim,
        )
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
        let (net, value) = step(&mut self.optim, lr, net, loss);
        self.net = Some(net);
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

/// `optimizer(weight_decay)` with the state of a [`Snapshot`]'s record.
pub(crate) fn resumed_optimizer(
    weight_decay: f64,
    record: Vec<u8>,
) -> Result<ModuleOptimizer, String> {
    optimizer(weight_decay)
        .from_bytes(Bytes::from_bytes_vec(record))
        .map_err(|e| format!("the optimizer's state: {e}"))
}

/// One step of `optim` on `net` down the gradient of `loss` at learning rate `lr`: the network
/// after it, and the loss before it.
pub(crate) fn step<M: Module>(
    optim: &mut ModuleOptimizer,
    lr: f64,
    net: M,
    loss: Tensor<1>,
) -> (M, f32) {
    let value = scalar(loss.clone());
    let grads = GradientsParams::from_grads(loss.backward(), &net);
    (optim.step(lr, net, grads), value)
}

fn scalar(t: Tensor<1>) -> f32 {
    t.into_data()
        .convert::<f32>()
        .try_to_vec::<f32>()
        .ok()
        .and_then(|v| v.first().copied())
        .unwrap_or(f32::NAN)
}

/// Binary cross-entropy of `logits` against 0/1 `labels`, averaged (log-sum-exp form, stable
/// for any logit): softplus(z) − y·z.
pub fn bce(logits: Tensor<1>, labels: Tensor<1>) -> Tensor<1> {
    (softplus(logits.clone(), 1.0) - logits * labels).mean()
}

/// The mean loss over the last tenth of the updates (at least one; NaN without any): the figure
/// a training run reports.
pub(crate) fn final_loss(losses: &[f32]) -> f64 {
    let tail = (losses.len() / 10).max(1).min(losses.len());
    if losses.is_empty() {
        return f64::NAN;
    }
    losses[losses.len() - tail..]
        .iter()
        .map(|&l| f64::from(l))
        .sum::<f64>()
        / tail as f64
}
