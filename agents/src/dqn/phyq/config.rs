//! What determines a trained Phy-Q DQN besides its data: the network's width and the training's
//! options ([`Config`], with their defaults), and the batch's make-up ([`HALF_BATCH`], fixed).
//! The command line shows these defaults rather than repeating them.

use serde::{Deserialize, Serialize};

/// The network's shape and training.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Config {
    /// Width of the two hidden layers.
    pub hidden: usize,
    /// Adam updates, each on a batch of [`HALF_BATCH`] passing and as many failing experiences.
    pub updates: usize,
    pub lr: f64,
    /// Seed of the initial weights and of the batches.
    pub seed: u64,
}

impl Config {
    /// The defaults: 256 hidden units, 3,000 updates at 1e-3 (about a minute on one core), seed 0.
    pub const DEFAULT: Config = Config {
        hidden: 256,
        updates: 3000,
        lr: 1e-3,
        seed: 0,
    };

    /// The defaults with `seed`.
    pub fn new(seed: u64) -> Config {
        Config {
            seed,
            ..Config::DEFAULT
        }
    }

    /// `Err` says why no network can be trained so.
    pub fn check(&self) -> Result<(), String> {
        if self.hidden == 0 {
            return Err("the hidden layers need at least one unit".into());
        }
        if self.updates == 0 {
            return Err("the training needs at least one update".into());
        }
        Ok(())
    }
}

/// Passing and failing experiences per batch (the paper's 16 and 16).
pub const HALF_BATCH: usize = 16;
