//! rephyre's Python package (`import rephyre as phyre`): PHYRE 0.2.2's API on rephyre's
//! bit-reproducible engine, with the 5,000 tasks built in.
//!
//! * [`core`]: the Python-free part (rollouts with frames and object features, the stable
//!   status, parallel batches), tested by the workspace's `cargo test`;
//! * [`phyq_core`]: the same for Phy-Q (task lookup, shots, a level played, a game kept
//!   between shots);
//! * `bindings` (feature `python`): the extension module `rephyre._native` that the Python
//!   sources in `python/rephyre/` wrap. maturin builds it with the `extension-module` feature
//!   (see `python/pyproject.toml`); the default features need no Python, so the workspace's
//!   builds and tests link without one.

pub mod core;
pub mod phyq_core;

#[cfg(feature = "python")]
mod bindings;
#[cfg(feature = "python")]
mod phyq_bindings;
#[cfg(feature = "python")]
mod studies_bindings;
