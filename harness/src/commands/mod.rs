//! The commands of `rephyre`, one module each (dispatched by [`crate::run`]).

pub mod audit;
pub mod bench;
pub mod diversity;
pub mod eval;
pub mod merge;
pub mod parity;
pub mod phyq_eval;
pub mod phyq_server;
pub mod phyq_witness;
pub mod random_curve;
pub mod render;
pub mod sampled_study;
pub mod serve;
pub mod shard_part;
pub mod sharded;
pub mod sharded_study;
pub mod simulate;
pub mod slurm;
pub mod solvability;
pub mod tasks_cmd;
pub mod witness;
