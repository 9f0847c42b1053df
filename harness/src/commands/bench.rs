//! `rephyre bench`: [`studies::bench`]'s random-action workload (beside the original's figures of
//! SPEC §9) or, with `--reference FILE`, every row of a reference table; prints the figures or
//! their JSON form. Both print the row chain of every call ([`studies::bench::row_chain`]), the
//! check that a speed change kept every bit.

use crate::args::{parse_tier, JsonArgs};
use crate::context::Ctx;
use crate::parse::select_tasks;
use anyhow::{Context, Result};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;
use studies::bench::{random_workload, reference_rows};
use tasks::Tier;

pub fn run(ctx: &Ctx, a: BenchArgs) -> Result<()> {
    let text = match &a.reference {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read reference file {}", path.display()))?;
            let name = path.display().to_string();
            let set = ctx.task_set()?;
            let r = reference_rows(set, &text, &name, a.status_only, ctx.threads)?;
            if a.print.json {
                serde_json::to_string(&r)? + "\n"
            } else {
                r.text()
            }
        }
        None => {
            let set = ctx.task_set()?;
            let tasks = select_tasks(set, a.tier, None, Some(a.tasks_per_template))?;
            let r = random_workload(&tasks, a.tier, a.actions, a.status_only, ctx.threads)?;
            if a.print.json {
                serde_json::to_string(&r)? + "\n"
            } else {
                r.text(a.actions)
            }
        }
    };
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

pub const BENCH_EXAMPLES: &str = "\
EXAMPLES:
  rephyre bench
  rephyre bench --threads 1
  rephyre bench --tier two_balls --tasks-per-template 4 --actions 500
  rephyre --threads 1 bench --reference pairs-ball.csv --json

Times are CPU time per call (each worker thread's own CPU clock), comparable with the original's
per-call CPU figures of SPEC §9 whatever else runs on the machine; wall-clock throughput is
printed too.";

#[derive(Debug, Args)]
#[command(after_help = BENCH_EXAMPLES)]
pub struct BenchArgs {
    /// Action tier; the tasks are the first tasks of each of that tier's templates.
    #[arg(long, value_parser = parse_tier, default_value = "ball")]
    pub tier: Tier,
    /// Tasks per template.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
    pub tasks_per_template: u32,
    /// Random actions (calls) per task.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    pub actions: u32,
    /// Run exactly the rows of this outcomes-A-format table (task_id,tier,kind,index,action,status)
    /// instead of random actions: every row, in order, each call timed (validation included),
    /// and its status compared with the file's (e.g. the original's timing rows).
    #[arg(long, value_name = "FILE")]
    pub reference: Option<PathBuf>,
    /// Run each simulation only as far as its status needs (the status-only path the report
    /// commands use) instead of the full run that `simulate` and the audits do; like the report
    /// commands, a task's actions (with --reference: consecutive rows of one task) then share
    /// its scene, stepped once and recorded (the same outcomes bit for bit).
    #[arg(long)]
    pub status_only: bool,
    #[command(flatten)]
    pub print: JsonArgs,
}
