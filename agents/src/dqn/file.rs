//! The model file: one line `rephyre-dqn-model 1`, one line of JSON ([`Header`]: the training
//! configuration, what the model was trained on, and the shape of every tensor), then every
//! tensor's values as little-endian f32, in the header's order. The layout's writer and readers
//! ([`encode`], [`split`], [`read_tensors`]) serve the Phy-Q DQN's files too.

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
    let json = serde_json::to_string(&header).map_err(|e| e.to_string())?;
    let bytes = encode(MAGIC, &json, tensors.iter().map(|(_, v)| v.as_slice()));
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, &bytes)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Read a model file: its header and its network (on the inference device).
pub fn load(path: &Path) -> Result<(Header, Net), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let bad = |why: &str| format!("{} is not a rephyre DQN model: {why}", path.display());
    let (header, data) = split(&bytes, MAGIC).map_err(|e| bad(&e))?;
    let header: Header =
        serde_json::from_slice(header).map_err(|e| bad(&format!("header: {e}")))?;
    let values = read_tensors(&header.shapes, data).map_err(|e| bad(&e))?;
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

/// The bytes of a file of this layout (module doc): the line `magic`, the line `header` (JSON),
/// then `values` one after the other as little-endian f32. The layout of both model files (this
/// one and the Phy-Q DQN's) and of the Phy-Q DQN's training checkpoint.
pub(crate) fn encode<'a>(
    magic: &str,
    header: &str,
    values: impl IntoIterator<Item = &'a [f32]>,
) -> Vec<u8> {
    let mut bytes = Vec::new();
    let _ = writeln!(bytes, "{magic}\n{header}");
    push_values(&mut bytes, values);
    bytes
}

/// Append `values` one after the other as little-endian f32.
pub(crate) fn push_values<'a>(bytes: &mut Vec<u8>, values: impl IntoIterator<Item = &'a [f32]>) {
    for tensor in values {
        for v in tensor {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
    }
}

/// The header line and the data after it of a file of [`encode`]'s layout; `Err` when its first
/// line is not `magic`.
pub(crate) fn split<'a>(bytes: &'a [u8], magic: &str) -> Result<(&'a [u8], &'a [u8]), String> {
    let mut lines = bytes.splitn(3, |&b| b == b'\n');
    if lines.next() != Some(magic.as_bytes()) {
        return Err(format!("no `{magic}` line"));
    }
    Ok((
        lines.next().unwrap_or_default(),
        lines.next().unwrap_or_default(),
    ))
}

/// Tensors as their shapes and values, in order.
pub(crate) type Tensors = Vec<(Vec<usize>, Vec<f32>)>;

/// Values of tensors of `shapes`, in order, from `data` (little-endian f32, exact bits); `Err`
/// unless `data` holds exactly that many values.
pub(crate) fn read_tensors(shapes: &[Vec<usize>], data: &[u8]) -> Result<Tensors, String> {
    let too_large = || format!("tensor shapes {shapes:?} too large");
    let mut sizes = Vec::with_capacity(shapes.len());
    let mut total = 0usize;
    for s in shapes {
        let n = s
            .iter()
            .try_fold(1usize, |n, &d| n.checked_mul(d))
            .ok_or_else(too_large)?;
        total = total.checked_add(n).ok_or_else(too_large)?;
        sizes.push(n);
    }
    let want = total.checked_mul(4).ok_or_else(too_large)?;
    if data.len() != want {
        return Err(format!(
            "{} bytes of weights where the header needs {want}",
            data.len()
        ));
    }
    let mut floats = data
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]));
    Ok(shapes
        .iter()
        .zip(sizes)
        .map(|(s, n)| (s.clone(), floats.by_ref().take(n).collect()))
        .collect())
}
