//! `rephyre witness`: [`studies::witness`]'s search on the selected tasks (or, with `--retry`, a
//! witness file's rows without a witness), writing the CSV and the summary; `--verify` re-checks
//! such a file.

use super::sharded_study::{MergeOutputs, ShardedStudy};
use crate::args::parse_tier;
use crate::args::{CheckpointArgs, SampleArgs};
use crate::context::Ctx;
use crate::parse::{check_outputs, parse_templates};
use anyhow::{bail, Result};
use clap::Args;
use std::path::{Path, PathBuf};
use studies::files::write_atomic;
use studies::witness::{
    csv_bytes, read_witnesses, retry_tasks, run_shard, search, select_tasks, sibling_witnesses,
    summary_markdown, verify_rows, Job, Params, WitnessState,
};
use tasks::Tier;

fn verify(ctx: &Ctx, path: &Path) -> Result<()> {
    let rows = read_witnesses(path)?;
    let set = ctx.task_set()?;
    let results = verify_rows(set, &rows, ctx.threads)?;
    let mut failures = Vec::new();
    for (r, res) in rows.iter().zip(results) {
        if let Some(f) = res {
            failures.push(format!("  {} ({}): {f:?}", r.task_id, r.tier));
        }
    }
    let with = rows.iter().filter(|r| r.found).count();
    println!(
        "{} rows: {} witnesses, {} stable, {} failed; {} tasks without a witness",
        rows.len(),
        with,
        with - failures.len(),
        failures.len(),
        rows.len() - with
    );
    if !failures.is_empty() {
        println!("not stable:\n{}", failures.join("\n"));
        bail!(
            "{} witnesses in {} are not stable solutions (listed on stdout)",
            failures.len(),
            path.display()
        );
    }
    Ok(())
}

pub fn run(ctx: &Ctx, a: WitnessArgs) -> Result<()> {
    if let Some(path) = &a.verify {
        return verify(ctx, path);
    }
    let Some(out) = &a.out else {
        bail!("give --out FILE (or --verify FILE)");
    };
    if a.budget == Some(0) {
        bail!("--budget must be positive");
    }
    if a.ckpt.part.shard.is_some() {
        super::shard_part::no_report_options(&[("--summary", a.summary.is_some())])?;
    }
    let cfg = ctx.run_config(&a.ckpt)?;
    let mut outputs = vec![out.as_path()];
    outputs.extend(a.summary.as_deref());
    outputs.extend(a.ckpt.save.checkpoint.as_deref());
    check_outputs(outputs)?;
    let set = ctx.task_set()?;
    let retry_rows = a.retry.as_deref().map(read_witnesses).transpose()?;
    let (tasks, kept) = match &retry_rows {
        None => {
            let s = &a.sample;
            let templates = s.templates.as_deref().map(parse_templates).transpose()?;
            let tasks = select_tasks(set, templates.as_deref(), s.tasks_per_template, a.tier)?;
            let n = tasks.len();
            (tasks, vec![None; n])
        }
        Some(rows) => retry_tasks(set, rows, a.budget)?,
    };
    let siblings = retry_rows
        .as_deref()
        .map(sibling_witnesses)
        .unwrap_or_default();
    let params = Params {
        tier: a.tier,
        budget: a.budget,
        seed: a.sample.seed,
        no_seeds: a.no_seeds,
    };
    if let Some(shard) = a.ckpt.part.shard {
        let retry = a.retry.as_deref();
        let part = run_shard(set, tasks, kept, &siblings, &params, retry, shard, &cfg)?;
        return super::shard_part::write_shard_part(shard, &part, out);
    }
    let (job, states) = search(set, tasks, kept, &siblings, &params, &cfg)?;
    write_report(&job, &states, out, a.summary.as_deref())
}

/// Write the CSV (and the summary) of a finished search and print the counts: the end of a run
/// and of a merge.
pub fn write_report(
    job: &Job,
    states: &[WitnessState],
    out: &Path,
    summary: Option<&Path>,
) -> Result<()> {
    write_atomic(out, &csv_bytes(job, states)?)?;
    if let Some(sum) = summary {
        write_atomic(sum, summary_markdown(job, states).as_bytes())?;
    }
    let found = states.iter().filter(|s| s.found).count();
    let sims: u64 = states.iter().map(|s| s.simulations).sum();
    println!(
        "{} tasks: {} with a stable-solution witness, {} without; {} simulations -> {}",
        states.len(),
        found,
        states.len() - found,
        sims,
        out.display()
    );
    Ok(())
}

/// The witness search sharded: parts merged into the CSV and the Markdown summary.
pub const SHARDED: ShardedStudy = ShardedStudy::new(&studies::witness::SLURM, merge);

fn merge(ctx: &Ctx, parts: &[PathBuf], o: &MergeOutputs) -> Result<()> {
    let parts = studies::shard::read_parts(parts)?;
    let (job, states) = studies::witness::merge(ctx.task_set()?, parts)?;
    write_report(&job, &states, o.out()?, o.summary)
}

pub const WITNESS_EXAMPLES: &str = "\
EXAMPLES:
  rephyre witness --out witnesses.csv --summary witnesses.md --checkpoint w.ckpt
  rephyre witness --templates 00100-00104 --tier ball --no-seeds --out single-ball.csv
  rephyre witness --retry witnesses.csv --budget 50000 --no-seeds --seed 1 --out witnesses.csv
  rephyre witness --verify tasks/data/witnesses.csv";

#[derive(Debug, Args)]
#[command(after_help = WITNESS_EXAMPLES)]
pub struct WitnessArgs {
    /// Re-check every witness of FILE (valid, solved, all 8 half-pixel neighbours solved or
    /// invalid) instead of searching; exit status 2 if any fails.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["out", "summary", "budget", "no_seeds", "retry"])]
    pub verify: Option<PathBuf>,
    /// Search again only the tasks of FILE (a witness CSV) that have no witness and spent less
    /// than the budget, keeping its other rows, and write the merged file to --out (e.g. with a
    /// larger --budget). The witnesses of a task's template in FILE become extra seeds.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["tier", "templates", "tasks_per_template"])]
    pub retry: Option<PathBuf>,
    /// Action tier (default: each task's own tier).
    #[arg(long, value_parser = parse_tier)]
    pub tier: Option<Tier>,
    /// Most simulations per task (default 4000 for ball actions, 12000 for two_balls).
    #[arg(long, value_name = "N")]
    pub budget: Option<u64>,
    /// Do not seed the search with the original PHYRE's stored solutions.
    #[arg(long)]
    pub no_seeds: bool,
    #[command(flatten)]
    pub sample: SampleArgs,
    /// CSV of witnesses (one row per task).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Markdown summary per template, with the tasks left without a witness.
    #[arg(long, value_name = "FILE")]
    pub summary: Option<PathBuf>,
    #[command(flatten)]
    pub ckpt: CheckpointArgs,
}
