//! The argument groups of the command line that more than one place uses, declared once: the
//! global options, checkpoint and resume, sharding, samples, pictures and JSON output (each
//! flattened into the commands that take it), and `rephyre slurm`'s own arguments (it parses the
//! other commands' through the whole grammar, [`crate::cli`]). Parsing only.

use clap::Args;
use std::path::PathBuf;
use studies::shard::Shard;
use tasks::Tier;

/// The options every command takes (`global`: before or after the command's name).
#[derive(Debug, Args)]
pub struct GlobalArgs {
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

/// The report's files beside its CSV and `--json` (phyq-eval and merge): which a study writes
/// is its description's (`studies::slurm::Study`).
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Markdown report (phyq-eval: per scenario and template beside the paper's, the Phy-Q
    /// score; solvability and witness: their summaries).
    #[arg(long, value_name = "FILE")]
    pub summary: Option<PathBuf>,
    /// SVG plot (phyq-eval: the pass rate per scenario beside the paper's humans, its Figure
    /// 4a; diversity, random-curve).
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    #[command(flatten)]
    pub print: JsonArgs,
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

pub const SLURM_EXAMPLES: &str = "\
EXAMPLES:
  rephyre slurm solvability --shards 64 --partition cpu --time 4:00:00 --cpus-per-task 8 \\
      --out runs/ball -- --tier ball
  rephyre slurm diversity --shards 200 --cpus-per-task 16 --account myproj --out runs/div \\
      -- --tier ball --samples 1000000
  rephyre slurm solvability --shards 4 --out runs/t --dry-run -- --tier ball --templates 0-4

Writes DIR/array.sbatch (one array task per shard: `rephyre COMMAND ARGS --shard K/N`, its part in
DIR/parts/, its checkpoint in DIR/checkpoints/, resumed when Slurm requeues or restarts the task)
and DIR/merge.sbatch (`rephyre merge`, submitted with --dependency=afterok on the array), and
submits both with sbatch. The report lands in DIR: COMMAND.csv, and solvability.md or
diversity.svg. DIR must be on a filesystem every node sees; the rephyre binary too (--rephyre).
--dry-run prints the two scripts and submits nothing.";

/// Arguments of `rephyre slurm`.
#[derive(Debug, Args)]
pub struct SlurmArgs {
    /// The study to run.
    // Its possible values are the sharded studies' list (`commands::sharded::STUDIES`), set by
    // `commands::sharded::cli_command`.
    #[arg(value_name = "STUDY", index = 1)]
    pub study: String,
    /// Number of shards (array tasks).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub shards: u32,
    /// Working folder (shared by every node): scripts, parts, checkpoints, logs and the report.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Slurm partition (sbatch --partition).
    #[arg(long)]
    pub partition: Option<String>,
    /// Time limit of each array task (sbatch --time, e.g. 2:00:00).
    #[arg(long, value_name = "TIME")]
    pub time: Option<String>,
    /// CPUs per array task (sbatch --cpus-per-task); the shard uses as many threads.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub cpus_per_task: u32,
    /// Account to charge (sbatch --account).
    #[arg(long)]
    pub account: Option<String>,
    /// Memory per array task (sbatch --mem, e.g. 2G).
    #[arg(long)]
    pub mem: Option<String>,
    /// Most array tasks running at once (the array's %M).
    #[arg(long, value_name = "M", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_running: Option<u32>,
    /// Any other sbatch option for both jobs, e.g. --sbatch-option=--qos=long (repeatable).
    #[arg(long, value_name = "OPTION", allow_hyphen_values = true)]
    pub sbatch_option: Vec<String>,
    /// The rephyre binary the jobs run (default: this one).
    #[arg(long, value_name = "PATH")]
    pub rephyre: Option<PathBuf>,
    /// Print the job scripts and the sbatch commands; write and submit nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// The study's own arguments, after `--` (not --out, --summary, --plot, --shard,
    /// --checkpoint or --resume: rephyre slurm sets those).
    #[arg(last = true, value_name = "ARGS", index = 2)]
    pub args: Vec<String>,
}
