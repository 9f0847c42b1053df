//! `rephyre parity`: [`studies::parity::run`] on the reference file (default: the built-in copy);
//! writes the Markdown report and prints the one-line JSON summary or the headline table.

use super::sharded_study::{MergeOutputs, ShardedStudy};
use crate::args::{CheckpointArgs, JsonArgs};
use crate::context::Ctx;
use crate::parse::check_outputs;
use anyhow::{bail, Context, Result};
use clap::Args;
use std::path::Path;
use std::path::PathBuf;
use studies::files::write_atomic;
use studies::parity::{Params, ParityReport, ReferenceSource};

pub fn run(ctx: &Ctx, a: ParityArgs) -> Result<()> {
    let cfg = ctx.run_config(&a.ckpt)?;
    let mut outputs: Vec<&std::path::Path> = a.out.as_deref().into_iter().collect();
    outputs.extend(cfg.checkpoint.as_deref());
    check_outputs(outputs)?;
    let source = match &a.reference {
        Some(p) => ReferenceSource::File(p.clone()),
        None => ReferenceSource::Builtin,
    };
    let set = ctx.task_set()?;
    let params = Params {
        random_per_task: a.random_per_task,
        random_per_task_2b: a.random_per_task_2b.unwrap_or(a.random_per_task),
    };
    if let Some(shard) = a.ckpt.part.shard {
        if a.print.json {
            bail!("--json is printed by `rephyre merge --json`, not by a --shard run");
        }
        let out = a
            .out
            .as_deref()
            .context("a --shard run needs --out FILE for its part")?;
        let part = studies::parity::run_shard(set, &source, params, shard, &cfg)?;
        return super::shard_part::write_shard_part(shard, &part, out);
    }
    let report = studies::parity::run(set, &source.read()?, params, &cfg)?;
    write_report(&report, a.out.as_deref(), a.print.json)
}

/// Write the Markdown report (if asked) and print the summary, as JSON or as a table: the end of
/// a run and of a merge.
pub fn write_report(report: &ParityReport, out: Option<&Path>, json: bool) -> Result<()> {
    if let Some(o) = out {
        write_atomic(o, report.to_markdown().as_bytes())?;
    }
    if json {
        println!("{}", serde_json::to_string(&report.summary())?);
    } else {
        print!("{}", report.summary_text());
    }
    Ok(())
}

/// Parity sharded: parts merged into the Markdown report (and the JSON summary with `--json`).
pub const SHARDED: ShardedStudy = ShardedStudy::new(&studies::parity::SLURM, merge);

fn merge(ctx: &Ctx, parts: &[std::path::PathBuf], o: &MergeOutputs) -> Result<()> {
    let parts = studies::shard::read_parts(parts)?;
    let report = studies::parity::merge(ctx.task_set()?, parts)?;
    write_report(&report, o.out, o.json)
}

pub const PARITY_EXAMPLES: &str = "\
EXAMPLES:
  rephyre parity
  rephyre parity --out parity.md --random-per-task 100
  rephyre parity --random-per-task 100 --random-per-task-2b 400 --out p.md --checkpoint p.ckpt --resume
  rephyre parity --reference outcomes-A.csv --json";

#[derive(Debug, Args)]
#[command(after_help = PARITY_EXAMPLES)]
pub struct ParityArgs {
    /// Reference outcomes (outcomes-A.csv format; default: the copy built into rephyre).
    #[arg(long, value_name = "FILE")]
    pub reference: Option<PathBuf>,
    /// Markdown report.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub print: JsonArgs,
    /// Random actions per task for rephyre's own per-template solve and invalid rates.
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub random_per_task: u32,
    /// The same for PHYRE-2B tasks (default: --random-per-task). Their solve rates are 10 to 100
    /// times lower, so a sample that settles the ball tier leaves them undetermined.
    #[arg(long, value_name = "N")]
    pub random_per_task_2b: Option<u32>,
    #[command(flatten)]
    pub ckpt: CheckpointArgs,
}
