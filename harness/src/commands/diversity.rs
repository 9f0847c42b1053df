//! `rephyre diversity`: [`studies::diversity`] on the selected tasks; writes the CSV histogram and
//! the plot and prints a line per template.

use crate::cli::DiversityArgs;
use crate::context::Ctx;
use anyhow::Result;
use studies::diversity::Params;
use studies::files::write_atomic;

pub fn run(ctx: &Ctx, a: DiversityArgs) -> Result<()> {
    let cfg = ctx.run_config(&a.ckpt)?;
    let outputs = [
        Some(a.out.as_path()),
        a.plot.as_deref(),
        a.ckpt.checkpoint.as_deref(),
    ];
    let tasks = ctx.sample_tasks(&outputs, a.tier, &a.sample)?;
    let params = Params {
        tier: a.tier,
        seed: a.sample.seed,
        samples: a.samples,
    };
    let report = studies::diversity::run(tasks, params, &cfg)?;
    write_atomic(&a.out, &report.csv_bytes()?)?;
    if let Some(p) = &a.plot {
        let series: Vec<(String, Vec<u64>)> = report
            .templates
            .iter()
            .map(|t| (t.template.clone(), t.hist.clone()))
            .collect();
        let svg = super::plot::diversity_svg(a.tier, a.samples, &series)?;
        write_atomic(p, svg.as_bytes())?;
    }
    for t in &report.templates {
        println!(
            "{}: {} tasks; {:.4} % of actions solve at least one, mean tasks solved per action {:.4}",
            t.template,
            t.tasks,
            t.solving_percent(a.samples),
            t.mean_tasks_solved(a.samples)
        );
    }
    println!("-> {}", a.out.display());
    Ok(())
}
