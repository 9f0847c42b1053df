//! The agent ([`PhyqDqn`]): a trained model, named by its file's bytes in run fingerprints and
//! part files, that plays each bird's shot from the picture alone.

use super::actions::action_shot;
use super::file::{header_line, read};
use super::model::Model;
use super::observation::observe;
use crate::phyq::{Draws, ShotAgent};
use phyq::game::{Game, PixelShot, PlayError};
use phyq::Level;
use std::path::Path;

/// The DQN agent: the shot of the highest logit for the observation (module doc). It makes
/// no draw and runs no simulation.
#[derive(Clone, Debug)]
pub struct PhyqDqn {
    pub model: Model,
    /// Identifies the weights (FNV-1a of the model file's bytes), for run fingerprints.
    pub id: u64,
    /// The model file's header line (JSON), as part files record it.
    header: String,
}

impl PhyqDqn {
    /// The agent of a model in memory (e.g. just trained): identified by the file
    /// [`Model::save`] writes of it.
    pub fn new(model: Model) -> PhyqDqn {
        let bytes = model.to_bytes();
        PhyqDqn::of_file(model, &bytes)
    }

    /// The agent of a model file, identified by the file's bytes (which a model read and
    /// written again gives back: serde_json's `float_roundtrip`).
    pub fn load(path: &Path) -> Result<PhyqDqn, String> {
        let (model, bytes) = read(path)?;
        Ok(PhyqDqn::of_file(model, &bytes))
    }

    /// `model`, whose file has these `bytes`.
    fn of_file(model: Model, bytes: &[u8]) -> PhyqDqn {
        PhyqDqn {
            id: tasks::rng::fnv64(bytes),
            header: String::from_utf8_lossy(header_line(bytes)).into_owned(),
            model,
        }
    }

    /// The model's digest: FNV-1a of its file's bytes, 16 hex digits (what part files and
    /// run fingerprints name it by).
    pub fn digest(&self) -> String {
        format!("{:016x}", self.id)
    }
}

impl ShotAgent for PhyqDqn {
    fn name(&self) -> &'static str {
        "dqn"
    }

    fn fingerprint(&self) -> String {
        format!("model {}", self.digest())
    }

    fn record(&self) -> Vec<(String, String)> {
        vec![
            ("model".to_string(), self.digest()),
            ("model_header".to_string(), self.header.clone()),
        ]
    }

    fn shot(&self, game: &Game, level: &Level, _: &mut Draws) -> Result<PixelShot, PlayError> {
        let a = self.model.best(&observe(game, level));
        Ok(action_shot(game, level, a))
    }
}
