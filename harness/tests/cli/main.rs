//! End-to-end tests of the `rephyre` binary: every command's happy path on small inputs, bad
//! input everywhere (one-line error, exit status 2, no panic), thread-count independence and
//! kill/resume of the solvability runner.
//!
//! One module per theme; `common` holds the helpers they share.

mod audit;
mod bench;
mod common;
mod eval;
mod help_and_errors;
mod parity;
mod phyq_dqn;
mod phyq_eval;
mod phyq_obs;
mod phyq_play;
mod phyq_server;
mod phyq_witness;
mod render;
mod sampling_reports;
mod serve;
mod shard;
mod simulate;
mod solvability;
mod task_commands;
mod witness;
