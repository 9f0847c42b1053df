//! `rephyre solvability`: [`studies::solvability`] on the selected tasks; writes the CSV and the
//! Markdown summary and prints the counts. With `--shard K/N` it runs part K of N and writes the
//! part file to `--out` instead; `rephyre merge` turns the parts into the same report.

use super::sharded_study::{MergeOutputs, ShardedStudy};
use crate::args::parse_tier;
use crate::args::{CheckpointArgs, SampleArgs};
use crate::context::Ctx;
use anyhow::Result;
use clap::Args;
use std::path::{Path, PathBuf};
use studies::files::write_atomic;
use studies::shard::read_parts;
use studies::solvability::{csv_bytes, summary_markdown, Params, Request, Row};
use tasks::Tier;

pub fn run(ctx: &Ctx, a: SolvabilityArgs) -> Result<()> {
    let params = Request {
        tier: a.tier,
        p0: a.p0,
        alpha: a.alpha,
        min_valid: a.min_valid,
        min_solutions: a.min_solutions,
        max_valid: a.max_valid,
        batch: a.batch,
        seed: a.sample.seed,
    }
    .params()?;
    let cfg = ctx.run_config(&a.ckpt)?;
    if a.ckpt.part.shard.is_some() {
        super::shard_part::no_report_options(&[("--summary", a.summary.is_some())])?;
    }
    let tasks = ctx.study_tasks(
        &[
            Some(a.out.as_path()),
            a.summary.as_deref(),
            a.ckpt.save.checkpoint.as_deref(),
        ],
        params.tier,
        a.sample.templates.as_deref(),
        a.sample.tasks_per_template,
    )?;
    if let Some(shard) = a.ckpt.part.shard {
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
pub const SHARDED: ShardedStudy = ShardedStudy::new(&studies::solvability::SLURM, merge);

fn merge(ctx: &Ctx, parts: &[PathBuf], o: &MergeOutputs) -> Result<()> {
    let (params, rows) = studies::solvability::merge(ctx.task_set()?, read_parts(parts)?)?;
    report(&params, &rows, o.out()?, o.summary)
}

pub const SOLVABILITY_EXAMPLES: &str = "\
EXAMPLES:
  rephyre solvability --tier ball --out ball.csv --summary ball.md --checkpoint ball.ckpt
  rephyre solvability --tier ball --out ball.csv --checkpoint ball.ckpt --resume
  rephyre solvability --tier two_balls --templates 00100,00105-00107 --tasks-per-template 5 --out t.csv
  rephyre solvability --tier ball --templates 0-4 --min-valid 200 --max-valid 2000 --out quick.csv

Per task, random actions (rephyre's counter-based RNG: seed, task id, index) are drawn in batches
of --batch valid actions, like the original's: a draw whose balls leave the scene (or, two balls,
come closer than 1 px) is redrawn and is not an attempt. A solution is stable when each of its 8
half-pixel neighbours is solved or invalid. After each batch the binomial tests of SPEC §8 are
evaluated; a task stops when it has at least --min-valid valid actions and the stable-solution
decision is made (SOLVABLE needs at least --min-solutions stable solutions), or at --max-valid.
Flags: GOOD/BAD (any solution: solvable/unsolvable), GOOD_STABLE/BAD_STABLE (stable solutions),
TRIVIAL (stable solutions / all attempts, occluded ones included, >= 0.1), UNDECIDED (none of these).
The CSV is byte-identical for any --threads and after --resume.";

#[derive(Debug, Args)]
#[command(after_help = SOLVABILITY_EXAMPLES)]
pub struct SolvabilityArgs {
    /// Action tier; also selects the default templates (that tier's tasks).
    #[arg(long, value_parser = parse_tier)]
    pub tier: Tier,
    #[command(flatten)]
    pub sample: SampleArgs,
    /// Null solution rate (default 1e-5 for ball, 1e-6 for two_balls).
    #[arg(long)]
    pub p0: Option<f64>,
    /// Significance level of both tests.
    #[arg(long, default_value_t = Request::DEFAULT_ALPHA)]
    pub alpha: f64,
    /// Valid actions to try before a task may stop.
    #[arg(long, default_value_t = Request::DEFAULT_MIN_VALID)]
    pub min_valid: u64,
    /// Stable solutions needed to call a task solvable.
    #[arg(long, default_value_t = Request::DEFAULT_MIN_SOLUTIONS)]
    pub min_solutions: u64,
    /// Most valid actions per task (default 2/p0: 200000 for ball, 2000000 for two_balls,
    /// enough to decide unsolvable with no solution).
    #[arg(long, value_name = "N")]
    pub max_valid: Option<u64>,
    /// Valid actions per batch (the tests are evaluated after each batch).
    #[arg(long, default_value_t = Request::DEFAULT_BATCH)]
    pub batch: u64,
    /// CSV report (one row per task).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Markdown summary per template.
    #[arg(long, value_name = "FILE")]
    pub summary: Option<PathBuf>,
    #[command(flatten)]
    pub ckpt: CheckpointArgs,
}
