//! A trained Phy-Q DQN ([`Model`]): what it is ([`Header`]: its options, what it was trained on,
//! how the training went) and its layers, run in plain Rust ([`Model::q`]) so that playing
//! needs neither burn nor the simulator.

use super::config::Config;
use super::network::QNet;
use crate::dqn::device::plain_device;
use crate::dqn::file::Tensors;
use crate::dqn::network::load_tensors;
use serde::{Deserialize, Serialize};

/// What a training run did.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub updates: usize,
    pub passing: usize,
    pub failing: usize,
    /// Mean loss of the last 10 % of updates.
    pub final_loss: f64,
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
pub(super) struct Layer {
    pub(super) d_in: usize,
    pub(super) d_out: usize,
    pub(super) weight: Vec<f32>,
    pub(super) bias: Vec<f32>,
}

/// The layers of the tensors of a [`QNet`] (weight, bias of each, in order).
pub(super) fn layers_of(t: Tensors) -> Vec<Layer> {
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
    pub(super) layers: Vec<Layer>,
}

impl Model {
    /// Logits of one observation (`OBS_LEN` bytes), one per action.
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
