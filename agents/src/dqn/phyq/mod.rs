//! A DQN on Phy-Q (the paper's learned agent, §4): one decision per bird, a network from the
//! picture of the level between shots to one logit per shot of a fixed discrete set ("this shot
//! passes the level"), trained on experiences of the training tasks in batches of
//! [`HALF_BATCH`] passing and as many failing ones, as the paper. At test time the agent
//! ([`PhyqDqn`]) runs the trained weights in plain Rust ([`Model::q`]): it reads the picture
//! and the next bird's reach (closed-form arithmetic) and never runs the simulator. Training
//! data is collected by `studies::phyq_dqn`, the only place that plays.
//!
//! Each file has one job, and each imports only the ones listed before it, and PHYRE's DQN
//! (`super`: its devices, seeded weights, loss, optimiser, snapshots and file layout are this
//! DQN's too):
//!
//! * `config`: what determines a trained network besides its data ([`Config`], with the
//!   defaults the command line shows, and the batch's make-up);
//! * `observation`: what the network sees ([`observe`]: the picture down-sampled to colour
//!   planes, and the next bird);
//! * `actions`: the action set and each action's shot ([`action_shot`]);
//! * `network`: the Q network in burn ([`QNet`]), which training runs;
//! * `model`: a trained network in plain Rust ([`Model`]: its header and layers, its forward
//!   pass), which the agent runs;
//! * `training`: the training loop ([`train_from`]; deterministic, and resumed exactly from a
//!   [`Snapshot`]);
//! * `file`: the model file (`rephyre-phyq-dqn-model 1`, the PHYRE DQN file's layout);
//! * `agent`: [`PhyqDqn`], the [`ShotAgent`](crate::phyq::ShotAgent).

mod actions;
mod agent;
mod config;
mod file;
mod model;
mod network;
mod observation;
mod training;

#[cfg(test)]
mod tests;

pub use super::training::{Hooks, Snapshot};
pub use actions::{action_shot, angle_of, ACTIONS};
pub use agent::PhyqDqn;
pub use config::{Config, HALF_BATCH};
pub use model::{Header, Model, Summary};
pub use network::QNet;
pub use observation::{observe, BIRDS, GRID_H, GRID_W, OBS_LEN, PLANES};
pub use training::{train, train_from, Experience};
