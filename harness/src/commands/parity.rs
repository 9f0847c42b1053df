//! `rephyre parity`: [`studies::parity::run`] on the reference file (default: the built-in copy);
//! writes the Markdown report and prints the one-line JSON summary or the headline table.

use crate::cli::ParityArgs;
use crate::context::Ctx;
use crate::parse::check_outputs;
use anyhow::{Context, Result};
use studies::files::write_atomic;
use studies::parity::{builtin_reference, Params};

pub fn run(ctx: &Ctx, a: ParityArgs) -> Result<()> {
    if a.ckpt.shard.is_some() {
        anyhow::bail!(
            "--shard is not available for parity yet (solvability and diversity have it)"
        );
    }
    let cfg = ctx.run_config(&a.ckpt)?;
    let mut outputs: Vec<&std::path::Path> = a.out.as_deref().into_iter().collect();
    outputs.extend(cfg.checkpoint.as_deref());
    check_outputs(outputs)?;
    let text = match &a.reference {
        Some(p) => std::fs::read_to_string(p)
            .with_context(|| format!("cannot read reference file {}", p.display()))?,
        None => builtin_reference()?,
    };
    let set = ctx.task_set()?;
    let params = Params {
        random_per_task: a.random_per_task,
        random_per_task_2b: a.random_per_task_2b.unwrap_or(a.random_per_task),
    };
    let report = studies::parity::run(set, &text, params, &cfg)?;
    if let Some(o) = &a.out {
        write_atomic(o, report.to_markdown().as_bytes())?;
    }
    let s = report.summary();
    if a.json {
        println!("{}", serde_json::to_string(&s)?);
        return Ok(());
    }
    println!("rows                         {}", s.rows);
    println!("validity agreement           {:.4}", s.validity_agreement);
    println!(
        "status agreement (random)    {:.4}",
        s.status_agreement_random
    );
    println!(
        "stable solution recall       {:.4}",
        s.stable_solution_recall
    );
    println!(
        "unstable solution recall     {:.4}",
        s.unstable_solution_recall
    );
    println!(
        "templates within x/÷1.5      {} of {} ({} beyond noise, {} outside beyond noise)",
        s.templates_within_1_5x,
        s.templates,
        s.templates_within_1_5x_significant,
        s.templates_outside_1_5x_significant
    );
    println!(
        "self-solving tasks           {} of {}",
        s.self_solving_tasks, report.scenes_run
    );
    println!("task rate outliers           {}", s.task_rate_outliers);
    Ok(())
}
