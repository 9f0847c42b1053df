//! The Q network in burn ([`QNet`]): observation → one logit per action, a two-hidden-layer MLP.
//! It exists for training (on the `flex` CPU backend, with the PHYRE DQN's seeded
//! initialisation); the agent plays with the same weights in plain Rust (`super::model`).

use super::actions::ACTIONS;
use super::observation::OBS_LEN;
use crate::dqn::network::{init_weights, linear};
use burn::module::Module;
use burn::nn::Linear;
use burn::tensor::activation::relu;
use burn::tensor::{Device, Tensor};

/// The Q network: observation → one logit per action.
#[derive(Module, Debug)]
pub struct QNet {
    a: Linear,
    b: Linear,
    out: Linear,
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

/// The shapes of a [`QNet`]'s tensors of `hidden` units, in order (weight, bias of each layer).
pub(super) fn shapes(hidden: usize) -> Vec<Vec<usize>> {
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
