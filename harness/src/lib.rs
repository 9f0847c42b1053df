//! The `rephyre` command's library: it wires the engine, tasks, raster and agents crates into
//! commands. Everything here is plumbing; physics, task rules and pictures live in their crates.

pub mod cli;
pub mod commands;
pub mod output;
pub mod parity;
pub mod rng;
pub mod runner;
pub mod stats;
