//! The counter-based action sampler lives in the tasks crate (agents and audits use it too).
pub use tasks::rng::*;
