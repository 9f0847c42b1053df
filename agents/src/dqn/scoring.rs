//! Scoring actions with a trained network: a [`Scorer`] gives the logit of every action of a
//! set on one observation; a `Ranker` scores a task's ranked actions (with the mirrored view
//! when asked), and [`mean_scores`] averages an ensemble's.

use super::config::NetConfig;
use super::data::{Observations, CHANNELS};
use super::device::plain_device;
use super::network::Net;
use burn::module::Module;
use burn::tensor::{Device, Tensor, TensorData};

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

/// What ranking a task needs from a fitted DQN (all `Sync`, so tasks can be ranked on several
/// threads). Its kernels run on the calling thread's rayon pool: callers pin it to one thread.
pub(super) struct Ranker<'a> {
    pub(super) scorer: Option<&'a Scorer>,
    /// The tasks' observations.
    pub(super) obs: &'a Observations,
    /// The ranked actions as f32, row-major (the network's input), and mirrored.
    pub(super) actions: &'a [f32],
    pub(super) mirrored_actions: &'a [f32],
    /// How many actions are ranked (each scored 0 without a network).
    pub(super) ranked: usize,
    /// Score by the mean of the scene's and the mirrored scene's logits.
    pub(super) mirror: bool,
}

impl Ranker<'_> {
    pub(super) fn scores(&self, task: usize) -> Vec<f32> {
        let Some(scorer) = self.scorer else {
            return vec![0.0; self.ranked];
        };
        let view = |mirrored: bool| {
            let mut planes = Vec::new();
            self.obs.push_planes(task, mirrored, &mut planes);
            let actions = if mirrored {
                self.mirrored_actions
            } else {
                self.actions
            };
            scorer.score(&planes, actions)
        };
        let plain = view(false);
        if !self.mirror {
            return plain;
        }
        plain
            .iter()
            .zip(view(true))
            // a + b is commutative in IEEE arithmetic: the mean does not depend on the view.
            .map(|(&a, b)| (a + b) * 0.5)
            .collect()
    }
}

/// The mean logit of an ensemble's members, summed in member order so the rounding is fixed.
pub(super) fn mean_scores(members: &[Ranker<'_>], task: usize) -> Vec<f32> {
    let mut sum = members[0].scores(task);
    for m in &members[1..] {
        for (s, v) in sum.iter_mut().zip(m.scores(task)) {
            *s += v;
        }
    }
    let n = members.len() as f32;
    sum.iter().map(|s| s / n).collect()
}
