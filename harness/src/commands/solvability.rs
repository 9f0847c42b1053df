//! `rephyre solvability`: [`studies::solvability`] on the selected tasks; writes the CSV and the
//! Markdown summary and prints the counts. With `--shard K/N` it runs part K of N and writes the
//! part file to `--out` instead; `rephyre merge` turns the parts into the same report.

use super::sharded_study::{Extra, MergeOutputs, ShardedStudy};
use crate::cli::SolvabilityArgs;
use crate::context::Ctx;
use anyhow::Result;
use std::path::{Path, PathBuf};
use studies::files::write_atomic;
use studies::shard::read_parts;
use studies::solvability::{csv_bytes, summary_markdown, Params, Request, Row};

pub fn run(ctx: &Ctx, a: SolvabilityArgs) -> Result<()> {
    let params = Request {
        tier: a.tier,
        p0: a.p0,
        alpha: a.alpha,
        min_valid: a.min_valid,
        min_solutions: a.min_solutions,
        max_valid: a.max_valid,
        batch: a.batch,
        seed: a.seed,
    }
    .params()?;
    let cfg = ctx.run_config(&a.ckpt)?;
    if a.ckpt.shard.is_some() {
        super::shard_part::no_report_options(&[("--summary", a.summary.is_some())])?;
    }
    let tasks = ctx.study_tasks(
        &[
            Some(a.out.as_path()),
            a.summary.as_deref(),
            a.ckpt.checkpoint.as_deref(),
        ],
        params.tier,
        a.templates.as_deref(),
        a.tasks_per_template,
    )?;
    if let Some(shard) = a.ckpt.shard {
        let part = studies::solvability::run_shard(tasks, params, shard, &cfg)?;
        return super::shard_part::write_shard_part(shard, &part, &a.out);
    }
    let rows = studies::solvability::run(tasks, params.clone(), &cfg)?;
    report(&params, &rows, &a.out, a.summary.as_deref())
}

/// Write the CSV (and the summary) of finished rows and print the counts: the end of a run and
/// of a merge.
pub fn report(params: &Params, rows: &[Row], out: &Path, summary: Option<&Path>) -> Result<()> {
    write_atomic(out, &csv_bytes(params.tier, rows)?)?;
    if let Some(sum) = summary {
        write_atomic(sum, summary_markdown(params, rows).as_bytes())?;
    }
    let count = |f: fn(&Row) -> bool| rows.iter().filter(|r| f(r)).count();
    let build_errors: u64 = rows.iter().map(|r| r.state.build_errors).sum();
    if build_errors > 0 {
        eprintln!("rephyre: warning: {build_errors} valid actions could not be simulated (world build errors; counted as invalid)");
    }
    println!(
        "{} tasks: {} solvable, {} unsolvable, {} undecided (stable solutions); {} trivial -> {}",
        rows.len(),
        count(|r| r.good_stable),
        count(|r| r.bad_stable),
        count(|r| !r.good_stable && !r.bad_stable),
        count(|r| r.trivial),
        out.display()
    );
    Ok(())
}

/// Solvability sharded: parts merged into the CSV and the Markdown summary.
pub const SHARDED: ShardedStudy = ShardedStudy::checkpointed(
    "solvability",
    studies::solvability::COMMAND,
    "solvability.csv",
    &[(Extra::Summary, "solvability.md")],
    merge,
);

fn merge(ctx: &Ctx, parts: &[PathBuf], o: &MergeOutputs) -> Result<()> {
    let (params, rows) = studies::solvability::merge(ctx.task_set()?, read_parts(parts)?)?;
    report(&params, &rows, o.out, o.summary)
}
