//! `rephyre slurm`: a study's job array and merge job ([`studies::slurm`]), checked as its
//! shards will parse them, printed (`--dry-run`) or written and submitted with `sbatch`.

use super::sharded::by_slurm_name;
use crate::context::Ctx;
use anyhow::{bail, Result};
use clap::Args;
use std::path::PathBuf;
use studies::slurm::{check_args, Plan, Request};

pub fn run(ctx: &Ctx, a: SlurmArgs) -> Result<()> {
    let sharded = by_slurm_name(&a.study)?;
    let command = sharded.study.command;
    check_args(&a.args)?;
    // The study's arguments must parse as the shards will run them.
    let mut probe: Vec<String> = vec!["rephyre".into(), command.into()];
    probe.extend(a.args.iter().cloned());
    probe.extend(["--shard".into(), format!("1/{}", a.shards)]);
    probe.extend(["--out".into(), "part.json".into()]);
    let probed = match super::sharded::parse_cli(&probe) {
        Ok(cli) => cli,
        Err(e) => {
            let text = e.to_string();
            let first = text
                .lines()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .unwrap_or("invalid arguments");
            bail!(
                "the {command} arguments after --: {}",
                first.strip_prefix("error: ").unwrap_or(first)
            );
        }
    };
    let plan = Plan::new(&Request {
        study: sharded.study,
        shards: a.shards,
        dir: &a.out,
        rephyre: a.rephyre.as_deref(),
        tasks: ctx.tasks_file.as_deref(),
        cpus_per_task: a.cpus_per_task,
        partition: a.partition.as_deref(),
        time: a.time.as_deref(),
        account: a.account.as_deref(),
        mem: a.mem.as_deref(),
        max_running: a.max_running,
        sbatch_options: &a.sbatch_option,
        args: &a.args,
        input_files: (sharded.shards_read)(&probed.command)?,
    })?;
    if a.dry_run {
        print!("{}", plan.dry_run_text());
    } else {
        println!("{}", plan.submit()?);
    }
    Ok(())
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
