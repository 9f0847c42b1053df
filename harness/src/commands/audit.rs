//! `rephyre audit`: the determinism audit (see the `audit` crate) run in parallel, compared with
//! a golden file (by default the one committed for the built-in tasks), or written as a new
//! golden; `--trace` prints per-phase hashes of one run to bisect a divergence (for a Phy-Q
//! level, `--trace phyq:L_C_K:NNNNN`, per-step state hashes with the shot they belong to).

use crate::context::Ctx;
use anyhow::{bail, Context, Result};
use audit::{AuditPlan, Golden, PhyqRecord, RunRecord};
use clap::{Args, ValueEnum};
use rayon::prelude::*;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;
use studies::files::{check_writable, write_atomic};
use taskref::Benchmark;

pub fn run(ctx: &Ctx, a: AuditArgs) -> Result<()> {
    // `--trace` is a Phy-Q level's id, or a PHYRE task's id and an action index.
    let phyq_trace = a
        .trace
        .as_deref()
        .filter(|t| Benchmark::of_id(t) == Benchmark::Phyq);
    if let Some(spec) = phyq_trace {
        let id: phyq::LevelId = spec.parse().map_err(anyhow::Error::msg)?;
        let text = audit::phyq_audit::phyq_trace_text(&id)?;
        // Written, not printed: a reader that goes away (`| head`) is an error the caller
        // recognises, not a panic.
        std::io::stdout().lock().write_all(text.as_bytes())?;
        return Ok(());
    }
    let set = ctx.task_set()?;
    if let Some(spec) = &a.trace {
        return trace(set, spec, a.steps);
    }
    let mut plan = match a.subset {
        AuditSubset::Ci => AuditPlan::CI,
        AuditSubset::Full => AuditPlan::FULL,
    };
    if let Some(n) = a.actions_per_task {
        plan.actions_per_task = n;
    }
    if let Some(p) = &a.write_golden {
        check_writable(p)?;
    }
    // Which golden to compare with, read before the (long) run so a bad path fails at once.
    let golden_text = match (&a.golden, &a.write_golden) {
        (Some(p), _) => Some(
            std::fs::read_to_string(p)
                .with_context(|| format!("cannot read golden file {}", p.display()))?,
        ),
        (None, Some(_)) => None,
        (None, None) => {
            if ctx.tasks_file.is_some() || a.actions_per_task.is_some() {
                bail!("no committed golden fits --tasks/--actions-per-task: give --golden FILE or --write-golden FILE");
            }
            // The plan is the subset's, whose golden is committed.
            plan.committed_golden().map(str::to_string)
        }
    };
    // Parsed before the (long) run too, when it is compared with: a bad line fails at once.
    let want = match a.write_golden {
        Some(_) => None,
        None => golden_text
            .as_deref()
            .map(audit::parse_golden)
            .transpose()?,
    };
    let start = Instant::now();
    let tasks = plan.tasks(set);
    let phyq_tasks = audit::phyq_audit::phyq_tasks(plan);
    // The two parts one after the other, each timed: what the Phy-Q part adds is documented.
    let (per_task, phyq_start, phyq): (Vec<Vec<RunRecord>>, Instant, Vec<PhyqRecord>) =
        ctx.pool()?.install(|| {
            let per_task = tasks
                .par_iter()
                .map(|t| audit::audit_task(t, plan))
                .collect();
            let phyq_start = Instant::now();
            let phyq = phyq_tasks
                .par_iter()
                .map(|id| audit::phyq_audit::audit_phyq_task(id, plan.checkpoint_stride))
                .collect::<Result<_, _>>()?;
            anyhow::Ok((per_task, phyq_start, phyq))
        })?;
    let records = Golden {
        phyre: per_task.into_iter().flatten().collect(),
        phyq,
    };
    let secs = start.elapsed().as_secs_f64();
    let over = format!(
        "over {} tasks and {} Phy-Q levels",
        tasks.len(),
        phyq_tasks.len()
    );
    let secs = format!(
        "{secs:.1} s, of which Phy-Q {:.1} s",
        phyq_start.elapsed().as_secs_f64()
    );
    if let Some(p) = &a.write_golden {
        write_atomic(p, audit::golden_text(plan, &records).as_bytes())?;
        println!(
            "wrote {} {over} to {} ({secs})",
            records.counts(),
            p.display()
        );
        return Ok(());
    }
    match want
        .unwrap_or_default()
        .first_mismatch(&records, plan.checkpoint_stride)
    {
        None => {
            println!("MATCH {} {over} ({secs})", records.counts());
            Ok(())
        }
        Some(m) => bail!("audit MISMATCH: {m}"),
    }
}

fn trace(set: &tasks::TaskSet, spec: &str, steps: u32) -> Result<()> {
    let (id, idx) = spec
        .rsplit_once(':')
        .filter(|(id, _)| id.contains(':'))
        .context("--trace takes TASK_ID:ACTION_INDEX, e.g. 00000:001:0")?;
    let task = set.lookup(id)?;
    let idx: u64 = idx
        .parse()
        .with_context(|| format!("bad action index {idx:?}"))?;
    let a = audit::audit_action(task, idx);
    let valid = tasks::validate_action(task, task.tier(), &a)
        .with_context(|| format!("audit action {idx} of {id} is invalid"))?;
    let text = audit::trace_text(&audit::trace(task, &valid, steps.min(tasks::MAX_STEPS)));
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(())
}

pub const AUDIT_EXAMPLES: &str = "\
EXAMPLES:
  rephyre audit                              # all 5,000 tasks x 2 actions and 750 Phy-Q levels vs tests/golden/audit-full.txt
  rephyre audit --subset ci                  # 502 runs and 75 Phy-Q levels vs tests/golden/audit-ci.txt
  rephyre audit --write-golden mine.txt      # record this build's results
  rephyre audit --golden mine.txt            # compare with them (e.g. on another machine)
  rephyre audit --trace 00012:092:0          # per-phase hashes of one run, to diff two platforms
  rephyre audit --trace phyq:1_2_4:00001     # per-step hashes of one audited Phy-Q level, with their shot";

/// Arguments of `rephyre audit`.
#[derive(Debug, Args)]
pub struct AuditArgs {
    /// ci (502 runs, 75 Phy-Q levels) or full (10,000 runs over all tasks, 750 Phy-Q levels).
    #[arg(long, value_enum, default_value_t = AuditSubset::Full)]
    pub subset: AuditSubset,
    /// Valid actions per task (needs --golden or --write-golden).
    #[arg(long, value_name = "N")]
    pub actions_per_task: Option<u32>,
    /// Write this build's results as a golden file.
    #[arg(long, value_name = "FILE")]
    pub write_golden: Option<PathBuf>,
    /// Compare with this golden file (default: the committed one).
    #[arg(long, value_name = "FILE")]
    pub golden: Option<PathBuf>,
    /// Print per-phase hashes of one run: TASK_ID:ACTION_INDEX; or per-step hashes of one
    /// audited Phy-Q level: phyq:L_C_K:NNNNN.
    #[arg(long, value_name = "RUN")]
    pub trace: Option<String>,
    /// Steps to trace.
    #[arg(long, default_value_t = 1000)]
    pub steps: u32,
}

/// `audit --subset`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum AuditSubset {
    /// 502 runs and 75 Phy-Q levels (CI).
    Ci,
    /// 10,000 runs over all tasks and 750 Phy-Q levels.
    Full,
}
