//! The commands of `rephyre`, one module each, and the dispatch of a parsed command line.

pub mod audit;
pub mod bench;
pub mod diversity;
pub mod eval;
pub mod merge;
pub mod parity;
pub mod phyq;
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

use crate::cli::{Cli, Command};
use anyhow::Result;

use crate::context::Ctx;

/// Run the parsed command line.
pub fn run(cli: Cli) -> Result<()> {
    let ctx = Ctx::from_cli(&cli);
    match cli.command {
        Command::Tasks(c) => tasks_cmd::run(&ctx, c),
        Command::Simulate(a) => simulate::run(&ctx, a),
        Command::Render(a) => render::run(&ctx, a),
        Command::Solvability(a) => solvability::run(&ctx, a),
        Command::Diversity(a) => diversity::run(&ctx, a),
        Command::RandomCurve(a) => random_curve::run(&ctx, a),
        Command::Bench(a) => bench::run(&ctx, a),
        Command::Parity(a) => parity::run(&ctx, a),
        Command::Eval(a) => eval::run(&ctx, *a),
        Command::Compare(a) => eval::compare(&ctx, a),
        Command::Audit(a) => audit::run(&ctx, a),
        Command::Witness(a) => witness::run(&ctx, a),
        Command::PhyqWitness(a) => phyq_witness::run(&ctx, a),
        Command::PhyqEval(a) => phyq_eval::run(&ctx, a),
        Command::Merge(a) => merge::run(&ctx, a),
        Command::Slurm(a) => slurm::run(&ctx, a),
        Command::Serve(a) => serve::run(&ctx, a),
        Command::PhyqServer(a) => phyq_server::run(&ctx, a),
    }
}
