//! The model file: one line `rephyre-dqn-model 1`, one line of JSON ([`Header`]: the training
//! configuration, what the model was trained on, and the shape of every tensor), then every
//! tensor's values as little-endian f32, in the header's order.

use super::config::TrainConfig;
use super::device::{self, Compute};
use super::network::{self, Net};
use super::training::TrainSummary;
use serde::{Deserialize, Serialize};
use std::io::Write as _;
use std::path::Path;

const MAGIC: &str = "rephyre-dqn-model 1";

/// What a model file says about its model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    pub config: TrainConfig,
    /// What it was trained on, e.g. "ball_cross_template fold 3, 300 actions (seed 0)".
    pub trained_on: String,
    pub summary: TrainSummary,
    /// Where it was trained ([`Compute::name`]): a `gpu` model is a replicate, not the
    /// bit-exact model of its configuration. Files from before this field read as `cpu`.
    #[serde(default = "cpu")]
    pub trained_with: String,
    /// Shape of each stored tensor, in order.
    pub shapes: Vec<Vec<usize>>,
}

fn cpu() -> String {
    Compute::Cpu.name().to_string()
}

/// Write `net` with its header to `path` (through a temporary file, so a crash never leaves a
/// half-written model).
pub fn save(
    path: &Path,
    net: &Net,
    config: &TrainConfig,
    trained_on: &str,
    summary: &TrainSummary,
) -> Result<(), String> {
    let tensors = network::tensors(net);
    let header = Header {
        config: config.clone(),
        trained_on: trained_on.to_string(),
        summary: summary.clone(),
        trained_with: device::compute().name().to_string(),
        shapes: tensors.iter().map(|(s, _)| s.clone()).collect(),
    };
    let mut bytes = Vec::new();
    let json = serde_json::to_string(&header).map_err(|e| e.to_string())?;
    let _ = writeln!(bytes, "{MAGIC}\n{json}");
    for (_, values) in &tensors {
        for v in values {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
    }
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, &bytes)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Read a model file: its header and its network (on the inference device).
pub fn load(path: &Path) -> Result<(Header, Net), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let bad = |why: &str| format!("{} is not a rephyre DQN model: {why}", path.display());
    let mut lines = bytes.splitn(3, |&b| b == b'\n');
    if lines.next() != Some(MAGIC.as_bytes()) {
        return Err(bad("no `rephyre-dqn-model 1` line"));
    }
    let header: Header = serde_json::from_slice(lines.next().unwrap_or_default())
        .map_err(|e| bad(&format!("header: {e}")))?;
    let data = lines.next().unwrap_or_default();
    let total: usize = header
        .shapes
        .iter()
        .map(|s| s.iter().product::<usize>())
        .sum();
    if data.len() != 4 * total {
        return Err(bad(&format!(
            "{} bytes of weights where the header needs {}",
            data.len(),
            4 * total
        )));
    }
    let mut floats = data
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]));
    let values: Vec<(Vec<usize>, Vec<f32>)> = header
        .shapes
        .iter()
        .map(|s| {
            (
                s.clone(),
                floats.by_ref().take(s.iter().product()).collect(),
            )
        })
        .collect();
    header
        .config
        .net
        .check()
        .map_err(|e| bad(&format!("header: {e}")))?;
    let device = device::plain_device();
    let net = network::load_tensors(Net::new(&header.config.net, 0, &device), values, &device)
        .map_err(|e| bad(&e))?;
    Ok((header, net))
}
