//! The `rephyre` command: argument parsing, progress and output. Every computation lives in the
//! library crates (`studies` for the studies, their runner and the agents' evaluation, `tasks`,
//! `taskref`, `engine`, `raster`, `audit`); a command here turns its arguments into their typed
//! inputs, calls them and writes or prints what they return.

pub mod cli;
pub mod commands;
pub mod context;
pub mod parse;
pub mod progress;
