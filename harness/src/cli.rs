//! The command line of `rephyre` (clap derive): the global options and the commands, each
//! command's arguments beside it in [`crate::commands`], the groups several share in
//! [`crate::args`]; and the grammar `rephyre slurm` checks a study's arguments with. Parsing only.

use crate::args::{GlobalArgs, SlurmArgs, SLURM_EXAMPLES};
use crate::commands::sharded::slurm_names;
use clap::builder::PossibleValuesParser;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::any::Any;

const MAIN_EXAMPLES: &str = "\
EXAMPLES:
  rephyre tasks list --tier ball --template 00002
  rephyre simulate 00002:017 --action 0.42,0.71,0.3
  rephyre render 00002:017 --action 0.42,0.71,0.3 --step 120 --out frame.png
  rephyre solvability --tier ball --templates 00000-00004 --out solvability.csv --summary solvability.md
  rephyre --threads 2 bench

Exit status: 0 on success, 2 on any error (one line on stderr: `rephyre: error: ...`).";

/// rephyre: the PHYRE physical-reasoning benchmark on a bit-reproducible fixed-point engine.
#[derive(Debug, Parser)]
#[command(name = "rephyre", version, after_help = MAIN_EXAMPLES)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List, show and import tasks.
    #[command(subcommand)]
    Tasks(crate::commands::tasks_cmd::TasksCommand),
    /// Simulate one action on one task and report the outcome.
    Simulate(crate::commands::simulate::SimulateArgs),
    /// Draw a task's scene (optionally with an action, after some steps) as PNG or raw bytes.
    Render(crate::commands::render::RenderArgs),
    /// Decide per task whether random actions solve it (SPEC §8), with a CSV and a summary.
    Solvability(crate::commands::solvability::SolvabilityArgs),
    /// Histogram of how many tasks of a template one random action solves (SPEC §8).
    Diversity(crate::commands::diversity::DiversityArgs),
    /// Share of tasks a random agent solves versus the number of attempts (PHYRE paper, Fig. 2a).
    RandomCurve(crate::commands::random_curve::RandomCurveArgs),
    /// The harness's own speed benchmark (random actions), beside the original's figures.
    Bench(crate::commands::bench::BenchArgs),
    /// Compare rephyre's outcomes with the original PHYRE's on the reference actions.
    Parity(crate::commands::parity::ParityArgs),
    /// Evaluate agents (RAND, MEM, MEM-O, OPTIMAL, DQN, DQN-O) on setups and folds: AUCCESS, success@10.
    #[command(after_help = crate::commands::eval::EVAL_EXAMPLES)]
    Eval(Box<crate::commands::eval::EvalArgs>),
    /// One-sided Wilcoxon signed-rank test: is agent A better than B over paired folds?
    #[command(after_help = crate::commands::eval::COMPARE_EXAMPLES)]
    Compare(crate::commands::eval::CompareArgs),
    /// Determinism audit against the committed golden hashes (or write a new golden).
    #[command(after_help = crate::commands::audit::AUDIT_EXAMPLES)]
    Audit(crate::commands::audit::AuditArgs),
    /// Find one stable solution per task (a proof that it is solvable), or re-check a file of them.
    #[command(after_help = crate::commands::witness::WITNESS_EXAMPLES)]
    Witness(crate::commands::witness::WitnessArgs),
    /// Make every Phy-Q task sound: at rest, and shots that pass it (redrawn when not), or
    /// re-check a file of them.
    #[command(name = "phyq-witness", after_help = crate::commands::phyq_witness::PHYQ_WITNESS_EXAMPLES)]
    PhyqWitness(crate::commands::phyq_witness::PhyqWitnessArgs),
    /// Evaluate a Phy-Q agent (random, pig-shooter, optimal, dqn) in a generalization setting:
    /// pass rates per task, template and scenario, and the Phy-Q score.
    #[command(name = "phyq-eval", after_help = crate::commands::phyq_eval::PHYQ_EVAL_EXAMPLES)]
    PhyqEval(crate::commands::phyq_eval::PhyqEvalArgs),
    /// Combine the part files of a sharded run (`--shard K/N`) into the single run's report, or
    /// `eval --checkpoint` files of runs made apart into one checkpoint.
    #[command(after_help = crate::commands::merge::MERGE_EXAMPLES)]
    Merge(crate::commands::merge::MergeArgs),
    /// Run a study sharded on a Slurm cluster: submit a job array of its shards and a merge job
    /// that runs after them.
    #[command(after_help = SLURM_EXAMPLES)]
    Slurm(SlurmArgs),
    /// Serve the web player: every built-in task, and the levels of a `--tasks` level set,
    /// playable in a browser, with the command line's bits.
    #[command(after_help = crate::commands::serve::SERVE_EXAMPLES)]
    Serve(crate::commands::serve::ServeArgs),
    /// Serve Science Birds' agent protocol on the Phy-Q levels: agents written for the original
    /// game play rephyre unchanged.
    #[command(name = "phyq-server", after_help = crate::commands::phyq_server::EXAMPLES)]
    PhyqServer(crate::commands::phyq_server::PhyqServerArgs),
}

impl Command {
    /// The command's own arguments, for code that knows one command's type only (a sharded
    /// study's check of its shards' arguments).
    pub fn args(&self) -> &dyn Any {
        match self {
            Command::Tasks(a) => a,
            Command::Simulate(a) => a,
            Command::Render(a) => a,
            Command::Solvability(a) => a,
            Command::Diversity(a) => a,
            Command::RandomCurve(a) => a,
            Command::Bench(a) => a,
            Command::Parity(a) => a,
            Command::Eval(a) => a.as_ref(),
            Command::Compare(a) => a,
            Command::Audit(a) => a,
            Command::Witness(a) => a,
            Command::PhyqWitness(a) => a,
            Command::PhyqEval(a) => a,
            Command::Merge(a) => a,
            Command::Slurm(a) => a,
            Command::Serve(a) => a,
            Command::PhyqServer(a) => a,
        }
    }
}

/// The command line's grammar: `Cli`'s, with the names `rephyre slurm` takes from the sharded
/// studies' list (so that list is the only place that names them).
pub fn cli_command() -> clap::Command {
    Cli::command().mut_subcommand("slurm", |slurm| {
        slurm.mut_arg("study", |a| {
            a.value_parser(PossibleValuesParser::new(slurm_names()))
        })
    })
}

/// Parse a command line with [`cli_command`]'s grammar.
pub fn parse_cli<I, T>(args: I) -> Result<Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let matches = cli_command().try_get_matches_from(args)?;
    Cli::from_arg_matches(&matches)
}
