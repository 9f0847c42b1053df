//! `rephyre audit`: the determinism audit (see the `audit` crate) run in parallel, compared with
//! a golden file (by default the one committed for the built-in tasks), or written as a new
//! golden; `--trace` prints per-phase hashes of one run to bisect a divergence.

use crate::cli::{AuditArgs, AuditSubset};
use crate::context::Ctx;
use anyhow::{bail, Context, Result};
use audit::{AuditPlan, RunRecord};
use rayon::prelude::*;
use std::time::Instant;
use studies::files::{check_writable, write_atomic};

/// Golden files committed for the built-in tasks (tests/golden/).
const GOLDEN_FULL: &str = include_str!("../../../tests/golden/audit-full.txt");
const GOLDEN_CI: &str = include_str!("../../../tests/golden/audit-ci.txt");

pub fn run(ctx: &Ctx, a: AuditArgs) -> Result<()> {
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
            Some(
                match a.subset {
                    AuditSubset::Ci => GOLDEN_CI,
                    AuditSubset::Full => GOLDEN_FULL,
                }
                .to_string(),
            )
        }
    };
    let start = Instant::now();
    let tasks = plan.tasks(set);
    let per_task: Vec<Vec<RunRecord>> = ctx.pool()?.install(|| {
        tasks
            .par_iter()
            .map(|t| audit::audit_task(t, plan))
            .collect()
    });
    let records: Vec<RunRecord> = per_task.into_iter().flatten().collect();
    let secs = start.elapsed().as_secs_f64();
    if let Some(p) = &a.write_golden {
        write_atomic(p, audit::golden_text(plan, &records).as_bytes())?;
        println!(
            "wrote {} runs over {} tasks to {} ({secs:.1} s)",
            records.len(),
            tasks.len(),
            p.display()
        );
        return Ok(());
    }
    let want = audit::parse_golden(golden_text.as_deref().unwrap_or_default())?;
    match audit::first_mismatch(&want, &records, plan.checkpoint_stride) {
        None => {
            println!(
                "MATCH {} runs over {} tasks ({secs:.1} s)",
                records.len(),
                tasks.len()
            );
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
    print!(
        "{}",
        audit::trace_text(&audit::trace(task, &valid, steps.min(tasks::MAX_STEPS)))
    );
    Ok(())
}
