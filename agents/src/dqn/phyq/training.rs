//! Training ([`train`], [`train_from`]): a fresh [`QNet`] trained with Adam on experiences, each
//! batch [`HALF_BATCH`] passing and as many failing ones drawn with replacement, on the PHYRE
//! DQN's loss, optimiser, one-thread kernels and snapshots, so a seed gives the same weights on
//! any machine and thread count, and a training stopped part-way resumes exactly from a
//! [`Snapshot`].

use super::actions::ACTIONS;
use super::config::{Config, HALF_BATCH};
use super::model::{layers_of, Header, Model, Summary};
use super::network::QNet;
use super::observation::OBS_LEN;
use crate::dqn::device::{single_threaded, train_device};
use crate::dqn::network::{load_tensors, numbered, tensors};
use crate::dqn::training::{
    bce, final_loss, optimizer, resumed_optimizer, step, Hooks, Snapshot, SnapshotOf,
};
use burn::tensor::{Device, Tensor, TensorData};

/// One experience: the observation at a bird's decision (an index into the caller's list of
/// observations), the shot taken, and whether the level was passed after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Experience {
    pub obs: u32,
    pub action: u16,
    pub passed: bool,
}

/// Random stream of the batches ("PQ-BATCH").
const BATCH_STREAM: u64 = 0x5051_2d42_4154_4348;

/// Trains a fresh network on `experiences` over `observations` (each [`OBS_LEN`] bytes).
/// Each batch is [`HALF_BATCH`] passing and as many failing experiences drawn uniformly with
/// replacement (twice as many of the one kind when the other has none). Deterministic for a
/// seed: the kernels run on one thread. `Err` without any experience.
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
pub(super) struct EachLoss<F>(pub(super) F);

impl<F: FnMut(usize, f32) + Send> Hooks for EachLoss<F> {
    fn updated(&mut self, u: usize, loss: f32) {
        (self.0)(u, loss);
    }
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
    cfg.check()?;
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
        // Adam, as the PHYRE DQN's without weight decay.
        let (net, mut optim, mut losses) = match start {
            None => (fresh, optimizer(0.0), Vec::with_capacity(cfg.updates)),
            Some(s) => {
                let net = load_tensors(fresh, s.weights, &device)?;
                (net, resumed_optimizer(0.0, s.optimizer)?, s.losses)
            }
        };
        let mut net = numbered(net);
        for u in losses.len()..cfg.updates {
            let batch = draw_batch(cfg.seed, u, &passing, &failing);
            let loss = batch_loss(&net, &batch, observations, &device);
            let (stepped, value) = step(&mut optim, cfg.lr, net, loss);
            net = stepped;
            hooks.updated(u, value);
            losses.push(value);
            if hooks.snapshot_due(u + 1) {
                hooks.snapshot(Snapshot::taken(
                    SnapshotOf::Phyq,
                    &losses,
                    tensors(&net),
                    &optim,
                )?)?;
            }
        }
        Ok((net, losses))
    })?;
    Ok(Model {
        header: Header {
            config: cfg.clone(),
            trained_on: String::new(),
            summary: Summary {
                updates: cfg.updates,
                passing: passing.len(),
                failing: failing.len(),
                final_loss: final_loss(&losses),
            },
            shapes: Vec::new(),
        },
        layers: layers_of(tensors(&net)),
    })
}

/// The batch of update `u` (its draws are keyed by the seed and `u`, so a resumed training
/// draws the same ones): [`HALF_BATCH`] of `passing` then as many of `failing`, or all of the
/// one kind when the other has none. Not both empty.
fn draw_batch(
    seed: u64,
    u: usize,
    passing: &[&Experience],
    failing: &[&Experience],
) -> Vec<Experience> {
    let mut picked = Vec::with_capacity(2 * HALF_BATCH);
    let mut k = 0u64;
    let mut draw = |pool: &[&Experience], n: usize| {
        for _ in 0..n {
            let w = tasks::rng::word(seed, BATCH_STREAM, u as u64, k);
            k += 1;
            picked.push(*pool[(w % pool.len() as u64) as usize]);
        }
    };
    match (passing.is_empty(), failing.is_empty()) {
        (false, false) => {
            draw(passing, HALF_BATCH);
            draw(failing, HALF_BATCH);
        }
        (true, _) => draw(failing, 2 * HALF_BATCH),
        (_, true) => draw(passing, 2 * HALF_BATCH),
    }
    picked
}

/// The loss of `net` on `batch`: the binary cross-entropy of the logit of each experience's
/// shot against whether the level was passed after it.
fn batch_loss(
    net: &QNet,
    batch: &[Experience],
    observations: &[Vec<u8>],
    device: &Device,
) -> Tensor<1> {
    let n = batch.len();
    let mut x = Vec::with_capacity(n * OBS_LEN);
    let mut mask = vec![0f32; n * ACTIONS];
    let mut labels = Vec::with_capacity(n);
    for (i, e) in batch.iter().enumerate() {
        x.extend(
            observations[e.obs as usize]
                .iter()
                .map(|&v| f32::from(v) / 255.0),
        );
        mask[i * ACTIONS + usize::from(e.action)] = 1.0;
        labels.push(if e.passed { 1.0f32 } else { 0.0 });
    }
    let x = Tensor::<2>::from_data(TensorData::new(x, [n, OBS_LEN]), device);
    let mask = Tensor::<2>::from_data(TensorData::new(mask, [n, ACTIONS]), device);
    let labels = Tensor::<1>::from_data(TensorData::new(labels, [n]), device);
    let chosen = (net.forward(x) * mask).sum_dim(1).reshape([n]);
    bce(chosen, labels)
}
