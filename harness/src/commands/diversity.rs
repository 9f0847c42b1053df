//! `rephyre diversity`: [`studies::diversity`] on the selected tasks; writes the CSV histogram and
//! the plot and prints a line per template. With `--shard K/N` it runs part K of N (a share of
//! every template's actions) and writes the part file to `--out` instead.

use super::sharded_study::{MergeOutputs, ShardedStudy};
use crate::args::{parse_tier, SampledStudyArgs};
use crate::context::Ctx;
use anyhow::Result;
use clap::Args;
use std::path::{Path, PathBuf};
use studies::diversity::{Params, Report};
use studies::files::write_atomic;
use studies::shard::read_parts;
use tasks::Tier;

pub fn run(ctx: &Ctx, a: DiversityArgs) -> Result<()> {
    let (cfg, tasks) = super::sampled_study::open(ctx, &a.study, a.tier)?;
    let params = Params {
        tier: a.tier,
        seed: a.study.sample.seed,
        samples: a.samples,
    };
    if let Some(shard) = a.study.ckpt.part.shard {
        let part = studies::diversity::run_shard(tasks, params, shard, &cfg)?;
        return super::shard_part::write_shard_part(shard, &part, &a.study.out);
    }
    let report = studies::diversity::run(tasks, params, &cfg)?;
    write_report(&report, &a.study.out, a.study.plot.as_deref())
}

/// Write the CSV (and the plot) of a finished run and print a line per template: the end of a
/// run and of a merge.
pub fn write_report(report: &Report, out: &Path, plot: Option<&Path>) -> Result<()> {
    let samples = report.params.samples;
    write_atomic(out, &report.csv_bytes()?)?;
    if let Some(p) = plot {
        let series = report.plot_series();
        let svg = studies::plot::diversity_svg(report.params.tier, samples, &series)?;
        write_atomic(p, svg.as_bytes())?;
    }
    for t in &report.templates {
        println!(
            "{}: {} tasks; {:.4} % of actions solve at least one, mean tasks solved per action {:.4}",
            t.template,
            t.tasks,
            t.solving_percent(samples),
            t.mean_tasks_solved(samples)
        );
    }
    println!("-> {}", out.display());
    Ok(())
}

/// Diversity sharded: parts merged into the CSV histogram and the plot.
pub const SHARDED: ShardedStudy = ShardedStudy::new(&studies::diversity::SLURM, merge);

fn merge(ctx: &Ctx, parts: &[PathBuf], o: &MergeOutputs) -> Result<()> {
    let report = studies::diversity::merge(ctx.task_set()?, read_parts(parts)?)?;
    write_report(&report, o.out()?, o.plot)
}

const DIVERSITY_EXAMPLES: &str = "\
EXAMPLES:
  rephyre diversity --tier ball --out diversity.csv --plot diversity.svg
  rephyre diversity --tier ball --templates 00000-00002 --samples 10000 --out d.csv
  rephyre diversity --tier ball --samples 100000 --out d.csv --checkpoint d.ckpt --resume

Every sampled action is tried on every task of each template; the CSV counts, per template, how
many actions solve exactly k of its tasks (k = 0 ... number of tasks). The same actions are used
for every template.";

#[derive(Debug, Args)]
#[command(after_help = DIVERSITY_EXAMPLES)]
pub struct DiversityArgs {
    /// Action tier; also selects the default templates.
    #[arg(long, value_parser = parse_tier)]
    pub tier: Tier,
    /// Random actions to sample.
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub samples: u64,
    #[command(flatten)]
    pub study: SampledStudyArgs,
}
