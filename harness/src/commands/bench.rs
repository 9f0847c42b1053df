//! `rephyre bench`: [`studies::bench`]'s random-action workload (beside the original's figures of
//! SPEC §9) or, with `--reference FILE`, every row of a reference table; prints the figures or
//! their JSON form. Both print the row chain of every call ([`studies::bench::row_chain`]), the
//! check that a speed change kept every bit.

use crate::cli::{parse_tier, JsonArgs};
use crate::context::Ctx;
use crate::parse::select_tasks;
use anyhow::{Context, Result};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;
use studies::bench::{original_figures, random_workload, reference_rows};
use tasks::Tier;

pub fn run(ctx: &Ctx, a: BenchArgs) -> Result<()> {
    if let Some(path) = &a.reference {
        return run_reference(ctx, path, a.status_only, a.print.json);
    }
    let set = ctx.task_set()?;
    let tasks = select_tasks(set, a.tier, None, Some(a.tasks_per_template))?;
    let tier = a.tier;
    let r = random_workload(&tasks, tier, a.actions, a.status_only, ctx.threads)?;
    let (t, threads) = (r.totals, r.threads);
    let mut out = std::io::stdout().lock();
    if a.print.json {
        writeln!(out, "{}", serde_json::to_string(&r)?)?;
        out.flush()?;
        return Ok(());
    }
    let o = original_figures(tier);
    writeln!(
        out,
        "rephyre bench: {} tier, {} tasks × {} random actions = {} calls, {} thread{}",
        tier,
        r.tasks,
        a.actions,
        t.calls,
        threads,
        if threads == 1 { "" } else { "s" }
    )?;
    writeln!(
        out,
        "{:<40} {:>14}   original (SPEC §9, Python API, 1 thread)",
        "CPU time per call", "rephyre"
    )?;
    // Each row: the label, rephyre's figure (to so many decimals) and the original's.
    for (label, value, decimals, original) in [
        ("calls/s, all", r.calls_per_cpu_s, 0, o.0),
        ("valid simulations/s", r.valid_sims_per_cpu_s, 0, o.1),
        ("ms per valid simulation", r.ms_per_valid_sim, 3, o.2),
        ("ms per invalid call", r.ms_per_invalid_call, 4, o.3),
    ] {
        writeln!(out, "{label:<40} {value:>14.decimals$}   {original}")?;
    }
    writeln!(
        out,
        "{:<40} {:>13.1}%   {} (discrete action space)",
        "invalid share",
        100.0 * r.invalid_share,
        o.4
    )?;
    let solved_note = if tier == Tier::Ball {
        "≈ 590"
    } else {
        "≈ 755"
    };
    for (label, value, note) in [
        (
            "steps per valid run, covered",
            r.steps_covered_per_valid,
            "≈ 993",
        ),
        (
            "steps per valid run, stepped",
            r.steps_stepped_per_valid,
            "(no early exit: = covered)",
        ),
        ("steps per solved run", r.solved_run_steps, solved_note),
    ] {
        writeln!(out, "{label:<40} {value:>14.1}   {note}")?;
    }
    writeln!(out, "solved {} of {} valid runs", t.solved, t.valid)?;
    writeln!(
        out,
        "row chain {:016x} (status chain {:016x}; final-hash xor {:016x})",
        r.row_chain, r.status_chain, t.hash_xor.0
    )?;
    writeln!(
        out,
        "wall {:.2} s, process CPU {:.2} s: {:.0} calls/s, {:.0} valid simulations/s wall-clock",
        r.wall_s, r.process_cpu_s, r.calls_per_wall_s, r.valid_sims_per_wall_s
    )?;
    out.flush()?;
    Ok(())
}

/// `bench --reference FILE`.
fn run_reference(ctx: &Ctx, path: &std::path::Path, status_only: bool, json: bool) -> Result<()> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read reference file {}", path.display()))?;
    let set = ctx.task_set()?;
    let r = reference_rows(
        set,
        &text,
        &path.display().to_string(),
        status_only,
        ctx.threads,
    )?;
    let threads = r.threads;
    let mut out = std::io::stdout().lock();
    if json {
        writeln!(out, "{}", serde_json::to_string(&r)?)?;
    } else {
        writeln!(
            out,
            "rephyre bench --reference {}: {} rows ({} valid, {} solved), {} run, {} thread{}",
            r.file,
            r.calls,
            r.valid,
            r.solved,
            r.mode,
            threads,
            if threads == 1 { "" } else { "s" }
        )?;
        writeln!(out, "{:<36} {:>12.3}", "CPU s, all calls", r.cpu_s)?;
        writeln!(out, "{:<36} {:>12.3}", "ms per call", r.ms_per_call)?;
        writeln!(
            out,
            "{:<36} {:>12.3}",
            "ms per valid simulation", r.ms_per_valid_sim
        )?;
        writeln!(
            out,
            "{:<36} {:>12.1}",
            "steps computed per valid run", r.steps_computed_per_valid
        )?;
        writeln!(
            out,
            "{:<36} {:>12.2}",
            "µs per computed step", r.us_per_computed_step
        )?;
        writeln!(
            out,
            "{:<36} {:>11.2}%",
            "status agreement with the file",
            100.0 * r.status_agreement
        )?;
        writeln!(
            out,
            "row chain {:016x} (status chain {:016x}; final-hash xor {:016x})",
            r.row_chain, r.status_chain, r.hash_xor
        )?;
        writeln!(out, "wall {:.2} s", r.wall_s)?;
    }
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
