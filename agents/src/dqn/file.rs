//! The model file: one line `rephyre-dqn-model 1`, one line of JSON ([`Header`]: the training
//! configuration, what the model was trained on, and the shape of every tensor), then every
//! tensor's values as little-endian f32, in the header's order. The layout's writer and readers
//! ([`encode`], [`split`], [`read_tensors`]) serve the Phy-Q DQN's files too, and the file of a
//! training's [`Snapshot`] (both DQNs').

use super::config::TrainConfig;
use super::device::{self, Compute};
use super::network::{self, Net};
use super::training::{Snapshot, SnapshotOf, TrainSummary};
use burn::module::Module as _;
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
    // Through the inference view, which brings batch norm's running statistics up to date
    // (burn holds a network's last update of them apart until they are read so).
    let tensors = network::tensors(&net.valid());
    let header = Header {
        config: config.clone(),
        trained_on: trained_on.to_string(),
        summary: summary.clone(),
        trained_with: device::compute().name().to_string(),
        shapes: tensors.iter().map(|(s, _)| s.clone()).collect(),
    };
    let json = serde_json::to_string(&header).map_err(|e| e.to_string())?;
    let bytes = encode(MAGIC, &json, tensors.iter().map(|(_, v)| v.as_slice()));
    write_atomic(path, "tmp", &bytes)
}

/// Read a model file: its header and its network (on the inference device).
pub fn load(path: &Path) -> Result<(Header, Net), String> {
    let bytes = read(path)?;
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

/// The bytes of the file at `path`; `Err` names the file that could not be read.
pub(crate) fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// Write `bytes` to `path` through a temporary file beside it (`path` with the extension
/// `tmp_extension`), renamed over it once written, so that a crash never leaves a half-written
/// file.
pub(crate) fn write_atomic(path: &Path, tmp_extension: &str, bytes: &[u8]) -> Result<(), String> {
    let tmp = path.with_extension(tmp_extension);
    std::fs::write(&tmp, bytes)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
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

/// The first line of a training snapshot's file, by training.
fn snapshot_magic(of: SnapshotOf) -> &'static str {
    match of {
        SnapshotOf::Phyre => "rephyre-dqn-training 1",
        SnapshotOf::Phyq => "rephyre-phyq-dqn-training 1",
    }
}

/// The JSON line of a snapshot's file.
#[derive(Serialize, Deserialize)]
struct SnapshotHeader {
    /// The caller's name for the training (options and data), checked on reading.
    fingerprint: String,
    updates: usize,
    /// Shapes of the tensors after this line: the losses `[updates]`, then the network's.
    shapes: Vec<Vec<usize>>,
    /// Bytes of the optimizer's record, after the tensors.
    optimizer_bytes: usize,
    /// FNV-1a of everything after this line (a damaged file is refused before burn reads it).
    digest: String,
}

impl Snapshot {
    /// The file of this snapshot stamped with `fingerprint`: the line
    /// `rephyre-dqn-training 1` (a Phy-Q DQN's: `rephyre-phyq-dqn-training 1`), a JSON line, the losses and the weights as little-endian
    /// f32 (the model file's layout), then the optimizer's record.
    pub fn to_bytes(&self, fingerprint: &str) -> Vec<u8> {
        let mut data = Vec::new();
        push_values(
            &mut data,
            std::iter::once(self.losses.as_slice())
                .chain(self.weights.iter().map(|(_, v)| v.as_slice())),
        );
        data.extend_from_slice(&self.optimizer);
        let header = SnapshotHeader {
            fingerprint: fingerprint.to_string(),
            updates: self.updates,
            shapes: std::iter::once(vec![self.losses.len()])
                .chain(self.weights.iter().map(|(s, _)| s.clone()))
                .collect(),
            optimizer_bytes: self.optimizer.len(),
            digest: format!("{:016x}", tasks::rng::fnv64(&data)),
        };
        let json = serde_json::to_string(&header).unwrap_or_default();
        let mut bytes = format!("{}\n{json}\n", snapshot_magic(self.of)).into_bytes();
        bytes.extend_from_slice(&data);
        bytes
    }

    /// The fingerprint and the snapshot of a file of [`Snapshot::to_bytes`]; `Err` says why the
    /// bytes are not one.
    pub fn from_bytes(bytes: &[u8]) -> Result<(String, Snapshot), String> {
        let (of, (header, data)) = [SnapshotOf::Phyre, SnapshotOf::Phyq]
            .into_iter()
            .find_map(|of| split(bytes, snapshot_magic(of)).ok().map(|s| (of, s)))
            .ok_or_else(|| {
                format!(
                    "no `{}` or `{}` line",
                    snapshot_magic(SnapshotOf::Phyre),
                    snapshot_magic(SnapshotOf::Phyq)
                )
            })?;
        let h: SnapshotHeader =
            serde_json::from_slice(header).map_err(|e| format!("header: {e}"))?;
        if format!("{:016x}", tasks::rng::fnv64(data)) != h.digest {
            return Err("damaged (its digest does not match)".into());
        }
        let Some(split) = data.len().checked_sub(h.optimizer_bytes) else {
            return Err("shorter than its optimizer record".into());
        };
        let (values, optimizer) = data.split_at(split);
        let mut tensors = read_tensors(&h.shapes, values)?.into_iter();
        let losses = match tensors.next() {
            Some((shape, losses)) if shape == [h.updates] => losses,
            _ => return Err(format!("no losses of its {} updates", h.updates)),
        };
        Ok((
            h.fingerprint,
            Snapshot {
                of,
                updates: h.updates,
                losses,
                weights: tensors.collect(),
                optimizer: optimizer.to_vec(),
            },
        ))
    }
}
