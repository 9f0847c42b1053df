//! `rephyre random-curve`: [`studies::random_curve`] on the selected tasks; writes the CSV curve
//! and the plot and prints the last point and the AUCCESS.

use super::sharded_study::{MergeOutputs, ShardedStudy};
use crate::cli::RandomCurveArgs;
use crate::context::Ctx;
use anyhow::Result;
use std::path::{Path, PathBuf};
use studies::files::write_atomic;
use studies::random_curve::{Params, Report};
use studies::shard::read_parts;
use studies::stats::mean_and_sample_std;

pub fn run(ctx: &Ctx, a: RandomCurveArgs) -> Result<()> {
    let (cfg, tasks) = super::sampled_study::open(ctx, &a.study, a.tier)?;
    let params = Params {
        tier: a.tier,
        runs: a.runs,
        attempts: a.attempts,
        seed: a.study.sample.seed,
    };
    if let Some(shard) = a.study.ckpt.shard {
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
    write_report(&report, o.out, o.plot)
}
