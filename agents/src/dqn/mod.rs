//! DQN and DQN-O, the paper's learned baselines (§4): a network scores (initial scene, action)
//! pairs; at test time the agent attempts the action set in descending score. DQN-O also keeps
//! training on the attempts of the test tasks as it goes.
//!
//! Each file has one job, and each imports only the ones listed before it:
//!
//! * [`config`]: what determines a trained network besides its data (the network's shape, the
//!   training configuration and its presets);
//! * [`device`]: where the networks' arithmetic runs (burn's pure-Rust `flex` CPU backend, or
//!   with the `gpu` feature and [`use_compute`] a GPU through Vulkan) and on how many threads;
//! * [`data`]: down-sampled observations, the pools of examples and how they are sampled;
//! * [`network`]: the network, and the getting and setting of its weights;
//! * [`scoring`]: a network in inference mode, scoring a task's actions;
//! * [`training`]: the optimiser, the training loop (deterministic, single-threaded kernels;
//!   stopped and resumed exactly from a [`training::Snapshot`]) and the one rule of how a batch
//!   is drawn ([`training::draw_batch`]);
//! * [`file`]: the model file format, and the writer and readers of its layout (shapes and
//!   little-endian f32), which the Phy-Q DQN's files and both DQNs' training snapshots share;
//! * [`agent`]: the [`crate::Agent`] implementations;
//! * [`phyq`]: the DQN of Phy-Q (its own small network, observation, action set, training and
//!   model file; the PHYRE files above are reused where they fit).
//!
//! Training data is the status table the evaluation already computes: the statuses of the
//! fixed action set on every task of the tier; DQN trains on the rows of the tasks it learns
//! from (the original trained on its cache of 100,000 random actions per task, of which it
//! re-ranked a fixed subset at test time).

pub mod agent;
pub mod config;
pub mod data;
pub mod device;
pub mod file;
pub mod network;
pub mod phyq;
pub mod scoring;
pub mod training;

#[cfg(test)]
mod tests;

pub use agent::{Dqn, DqnContext, DqnEnsemble};
pub use config::{NetConfig, Profile, ShapeError, TrainConfig};
pub use data::{Example, Observations, Pools};
pub use device::{compute, use_compute, Compute};
pub use training::{NoProgress, TrainProgress, TrainSummary};

/// The items of the former `model` module, at their old paths.
pub mod model {
    pub use super::config::{NetConfig, ShapeError};
    pub use super::data::{Batch, CHANNELS};
    pub use super::device::{compute, plain_device, train_device, use_compute, Compute};
    pub use super::network::{load_tensors, tensors, Net};
    pub use super::scoring::Scorer;
    pub use super::training::{bce, Trainer};
}

/// The items of the former `train` module, at their old paths.
pub mod train {
    pub use super::device::{on_plain_threads, single_threaded};
    pub use super::training::{
        cosine_lr, run_updates, task_pools, train_from, NoProgress, TrainProgress, TrainSummary,
    };
}
