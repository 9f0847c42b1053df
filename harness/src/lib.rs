//! The `rephyre` command: argument parsing, progress and output. Every computation lives in the
//! library crates (`studies` for the studies, their runner and the agents' evaluation, `tasks`,
//! `taskref`, `engine`, `raster`, `audit`); a command here turns its arguments into their typed
//! inputs, calls them and writes or prints what they return.

pub mod args;
pub mod cli;
pub mod commands;
pub mod context;
pub mod parse;
pub mod progress;

use anyhow::Result;
use cli::{Cli, Command};
use context::Ctx;

/// Run the parsed command line.
pub fn run(cli: Cli) -> Result<()> {
    let ctx = Ctx::new(&cli.global);
    match cli.command {
        Command::Tasks(c) => commands::tasks_cmd::run(&ctx, c),
        Command::Simulate(a) => commands::simulate::run(&ctx, a),
        Command::Render(a) => commands::render::run(&ctx, a),
        Command::Solvability(a) => commands::solvability::run(&ctx, a),
        Command::Diversity(a) => commands::diversity::run(&ctx, a),
        Command::RandomCurve(a) => commands::random_curve::run(&ctx, a),
        Command::Bench(a) => commands::bench::run(&ctx, a),
        Command::Parity(a) => commands::parity::run(&ctx, a),
        Command::Eval(a) => commands::eval::run(&ctx, *a),
        Command::Compare(a) => commands::eval::compare(&ctx, a),
        Command::Audit(a) => commands::audit::run(&ctx, a),
        Command::Witness(a) => commands::witness::run(&ctx, a),
        Command::PhyqWitness(a) => commands::phyq_witness::run(&ctx, a),
        Command::PhyqEval(a) => commands::phyq_eval::run(&ctx, a),
        Command::Merge(a) => commands::merge::run(&ctx, a),
        Command::Slurm(a) => commands::slurm::run(&ctx, a),
        Command::Serve(a) => commands::serve::run(&ctx, a),
        Command::PhyqServer(a) => commands::phyq_server::run(&ctx, a),
    }
}
