//! The command line of `rephyre` (clap derive): the global options, the commands, and the
//! argument groups several commands share, declared once here and flattened into each command's
//! arguments, which are beside the command in [`crate::commands`]. Parsing only.

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use studies::shard::Shard;
use tasks::Tier;

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
    /// Use the tasks of FILE instead of the built-in ones: PHYRE tasks (rephyre's task format,
    /// made by `rephyre tasks import`) or a Phy-Q level set (made by `rephyre tasks
    /// import-levels`), told apart by their content.
    #[arg(long, global = true, value_name = "FILE")]
    pub tasks: Option<PathBuf>,

    /// Worker threads (default: one per core). Results do not depend on it.
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub threads: Option<u32>,

    /// Show a progress bar on stderr (default: only when stderr is a terminal).
    #[arg(long, global = true)]
    pub progress: bool,

    /// Never show a progress bar.
    #[arg(long, global = true, conflicts_with = "progress")]
    pub quiet: bool,

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
    #[command(after_help = crate::commands::slurm::SLURM_EXAMPLES)]
    Slurm(crate::commands::slurm::SlurmArgs),
    /// Serve the web player: every built-in task, and the levels of a `--tasks` level set,
    /// playable in a browser, with the command line's bits.
    #[command(after_help = crate::commands::serve::SERVE_EXAMPLES)]
    Serve(crate::commands::serve::ServeArgs),
    /// Serve Science Birds' agent protocol on the Phy-Q levels: agents written for the original
    /// game play rephyre unchanged.
    #[command(name = "phyq-server", after_help = crate::commands::phyq_server::EXAMPLES)]
    PhyqServer(crate::commands::phyq_server::PhyqServerArgs),
}

/// `--checkpoint FILE` and `--resume`: every resumable run's.
#[derive(Debug, Args)]
pub struct ResumeArgs {
    /// Save progress to FILE as the run goes.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Continue from --checkpoint (a missing checkpoint file starts afresh).
    #[arg(long, requires = "checkpoint")]
    pub resume: bool,
}

/// Checkpoint and shard options shared by the long-running commands.
#[derive(Debug, Args)]
pub struct CheckpointArgs {
    #[command(flatten)]
    pub save: ResumeArgs,
    /// Seconds between checkpoints.
    #[arg(long, hide = true, default_value_t = 10.0)]
    pub checkpoint_secs: f64,
    #[command(flatten)]
    pub part: ShardArgs,
}

/// `--shard K/N`: every sharded study's (eval: its outcome tables only, not the agents).
#[derive(Debug, Args)]
pub struct ShardArgs {
    /// Run only part K of N of the job (1 <= K <= N; e.g. a Slurm array task's
    /// $SLURM_ARRAY_TASK_ID/N) and write that part's result to --out; `rephyre merge` combines
    /// the N parts into the single run's report. The split does not depend on the machine.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<Shard>,
}

/// `--scale N`: the size of the pictures simulate, render and tasks show draw.
#[derive(Debug, Args)]
pub struct ScaleArgs {
    /// Picture scale: each observation pixel becomes N×N pixels (1 to 8).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=8))]
    pub scale: u32,
}

/// `--json`: the command's result as one JSON object on stdout (its last line).
#[derive(Debug, Args)]
pub struct JsonArgs {
    /// Print the result as one JSON object (the last line of the output).
    #[arg(long)]
    pub json: bool,
}

/// Parse `--shard K/N` for clap.
pub fn parse_shard(s: &str) -> Result<Shard, String> {
    Shard::parse(s).map_err(|e| e.to_string())
}

/// The tasks a study runs on (some or all of the tier's templates) and its seed: solvability's,
/// witness's and the sampling studies'.
#[derive(Debug, Args)]
pub struct SampleArgs {
    /// Templates, e.g. 00000,00001 or ranges 0-4,00010-00012 (default: every one of --tier).
    #[arg(long, value_name = "LIST")]
    pub templates: Option<String>,
    /// Only the first N tasks (by id) of each template.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub tasks_per_template: Option<u32>,
    /// Random seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// What a sampling study (diversity, random-curve) runs on, writes and checkpoints.
#[derive(Debug, Args)]
pub struct SampledStudyArgs {
    #[command(flatten)]
    pub sample: SampleArgs,
    /// CSV report (diversity: the histograms; random-curve: the curve).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// SVG plot of the report.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    #[command(flatten)]
    pub ckpt: CheckpointArgs,
}

/// Parse a tier name for clap.
pub fn parse_tier(s: &str) -> Result<Tier, String> {
    Tier::parse(s).ok_or_else(|| format!("unknown tier {s:?} (expected ball or two_balls)"))
}
