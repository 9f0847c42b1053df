//! The model file: one line `rephyre-phyq-dqn-model 1`, one line of JSON ([`Header`]), then
//! every tensor's values as little-endian f32, in the header's order: the layout of the PHYRE
//! DQN's file, whose writer and readers (`crate::dqn::file`) it uses.

use super::model::{layers_of, Header, Model};
use super::network::shapes;
use crate::dqn::file;
use std::path::Path;

const MAGIC: &str = "rephyre-phyq-dqn-model 1";

impl Model {
    /// The model file's bytes (module doc).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut header = self.header.clone();
        header.shapes = self
            .layers
            .iter()
            .flat_map(|l| [vec![l.d_in, l.d_out], vec![l.d_out]])
            .collect();
        let json = serde_json::to_string(&header).unwrap_or_default();
        let values = self
            .layers
            .iter()
            .flat_map(|l| [l.weight.as_slice(), l.bias.as_slice()]);
        file::encode(MAGIC, &json, values)
    }

    /// A model from a file's bytes; `Err` says why they are not one.
    pub fn from_bytes(bytes: &[u8]) -> Result<Model, String> {
        let (header, data) = file::split(bytes, MAGIC)?;
        let header: Header = serde_json::from_slice(header).map_err(|e| format!("header: {e}"))?;
        let want = shapes(header.config.hidden);
        if header.shapes != want {
            return Err(format!(
                "tensor shapes {:?}, where this rephyre's network has {want:?}",
                header.shapes
            ));
        }
        let t = file::read_tensors(&want, data)?;
        Ok(Model {
            header,
            layers: layers_of(t),
        })
    }

    /// Write the model to `path` (through a temporary file).
    pub fn save(&self, path: &Path) -> Result<(), String> {
        file::write_atomic(path, "tmp", &self.to_bytes())
    }

    /// Read a model file.
    pub fn load(path: &Path) -> Result<Model, String> {
        read(path).map(|(model, _)| model)
    }
}

/// The model of the file at `path`, and the file's bytes (which identify it).
pub(super) fn read(path: &Path) -> Result<(Model, Vec<u8>), String> {
    let bytes = file::read(path)?;
    let model = Model::from_bytes(&bytes)
        .map_err(|why| format!("{} is not a rephyre Phy-Q DQN model: {why}", path.display()))?;
    Ok((model, bytes))
}

/// The header line (JSON) of a model file's `bytes`, empty when they are not one.
pub(super) fn header_line(bytes: &[u8]) -> &[u8] {
    file::split(bytes, MAGIC).map_or(&[][..], |(h, _)| h)
}
