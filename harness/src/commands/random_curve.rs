//! `rephyre random-curve`: [`studies::random_curve`] on the selected tasks; writes the CSV curve
//! and the plot and prints the last point and the AUCCESS.

use super::sharded_study::{MergeOutputs, ShardedStudy};
use crate::args::{parse_tier, SampledStudyArgs};
use crate::context::Ctx;
use anyhow::Result;
use clap::Args;
use std::path::{Path, PathBuf};
use studies::files::write_atomic;
use studies::random_curve::{Params, Report};
use studies::shard::read_parts;
use studies::stats::mean_and_sample_std;
use tasks::Tier;

pub fn run(ctx: &Ctx, a: RandomCurveArgs) -> Result<()> {
    let (cfg, tasks) = super::sampled_study::open(ctx, &a.study, a.tier)?;
    let params = Params {
        tier: a.tier,
        runs: a.runs,
        attempts: a.attempts,
        seed: a.study.sample.seed,
    };
    if let Some(shard) = a.study.ckpt.part.shard {
        let part = studies::random_curve::run_shard(tasks, params, shard, &cfg)?;
        return super::shard_part::write_shard_part(shard, &part, &a.study.out);
    }
    let report = studies::random_curve::run(tasks, params, &cfg)?;
    write_report(&report, &a.study.out, a.study.plot.as_deref())
}

/// Write the CSV (and the plot) of a finished run and print the last point and the AUCCESS: the
/// end of a run and of a merge.
pub fn write_report(report: &Report, out: &Path, plot: Option<&Path>) -> Result<()> {
    let (tier, runs, attempts) = (
        report.params.tier,
        report.params.runs,
        report.params.attempts,
    );
    write_atomic(out, report.csv_text().as_bytes())?;
    if let Some(p) = plot {
        let svg = studies::plot::curve_svg(tier, report.tasks, runs, &report.points)?;
        write_atomic(p, svg.as_bytes())?;
    }
    let (auc_m, auc_sd) = mean_and_sample_std(&report.aucs);
    let last = report.points.last().expect("at least one attempt");
    println!(
        "{} tasks, {} runs: solved within {} attempts {:.4} ± {:.4}; AUCCESS {:.4} ± {:.4} -> {}",
        report.tasks,
        runs,
        attempts,
        last.1,
        last.2,
        auc_m,
        auc_sd,
        out.display()
    );
    Ok(())
}

/// The random agent's curve sharded: parts merged into the CSV curve and the plot.
pub const SHARDED: ShardedStudy = ShardedStudy::new(&studies::random_curve::SLURM, merge);

fn merge(ctx: &Ctx, parts: &[PathBuf], o: &MergeOutputs) -> Result<()> {
    let report = studies::random_curve::merge(ctx.task_set()?, read_parts(parts)?)?;
    write_report(&report, o.out()?, o.plot)
}

const RANDOM_CURVE_EXAMPLES: &str = "\
EXAMPLES:
  rephyre random-curve --tier ball --out curve.csv --plot curve.svg
  rephyre random-curve --tier two_balls --runs 3 --attempts 20 --tasks-per-template 10 --out c.csv

A random agent tries random valid actions on each task until one solves it or the attempts are
used up (invalid actions are free). The CSV gives, for k = 1 ... --attempts, the share of tasks
solved within k attempts in each run, their mean and sample standard deviation; stdout also gives
the AUCCESS of each run.";

#[derive(Debug, Args)]
#[command(after_help = RANDOM_CURVE_EXAMPLES)]
pub struct RandomCurveArgs {
    /// Action tier; also selects the tasks (that tier's templates).
    #[arg(long, value_parser = parse_tier, default_value = "ball")]
    pub tier: Tier,
    /// Independent runs of the random agent.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub runs: u32,
    /// Valid attempts per task.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub attempts: u32,
    #[command(flatten)]
    pub study: SampledStudyArgs,
}
