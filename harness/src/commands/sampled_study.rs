//! The opening the sampling studies' commands share (`diversity`, `random-curve`): their options
//! are one group, [`SampledStudyArgs`], read here once.

use crate::args::SampledStudyArgs;
use crate::context::Ctx;
use anyhow::Result;
use studies::runner::RunConfig;
use tasks::{Task, Tier};

/// The runner configuration and `tier`'s selected tasks, after checking the options (a shard
/// writes no plot) and the output paths, before any long work.
pub fn open(
    ctx: &Ctx,
    a: &SampledStudyArgs,
    tier: Tier,
) -> Result<(RunConfig, Vec<&'static Task>)> {
    let cfg = ctx.run_config(&a.ckpt)?;
    if a.ckpt.part.shard.is_some() {
        super::shard_part::no_report_options(&[("--plot", a.plot.is_some())])?;
    }
    let outputs = [
        Some(a.out.as_path()),
        a.plot.as_deref(),
        a.ckpt.save.checkpoint.as_deref(),
    ];
    let sample = &a.sample;
    let templates = sample.templates.as_deref();
    let tasks = ctx.study_tasks(&outputs, tier, templates, sample.tasks_per_template)?;
    Ok((cfg, tasks))
}
