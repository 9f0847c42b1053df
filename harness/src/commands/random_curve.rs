//! `rephyre random-curve`: [`studies::random_curve`] on the selected tasks; writes the CSV curve
//! and the plot and prints the last point and the AUCCESS.

use crate::cli::RandomCurveArgs;
use crate::context::Ctx;
use anyhow::Result;
use studies::files::write_atomic;
use studies::random_curve::Params;
use studies::stats::mean_and_sample_std;

pub fn run(ctx: &Ctx, a: RandomCurveArgs) -> Result<()> {
    let outputs = [Some(a.out.as_path()), a.plot.as_deref()];
    let tasks = ctx.sample_tasks(&outputs, a.tier, &a.sample)?;
    let params = Params {
        tier: a.tier,
        runs: a.runs,
        attempts: a.attempts,
        seed: a.sample.seed,
    };
    let report = studies::random_curve::run(tasks, params, &ctx.run_config_plain())?;
    write_atomic(&a.out, report.csv_text().as_bytes())?;
    if let Some(p) = &a.plot {
        let svg = super::plot::curve_svg(a.tier, report.tasks, a.runs, &report.points)?;
        write_atomic(p, svg.as_bytes())?;
    }
    let (auc_m, auc_sd) = mean_and_sample_std(&report.aucs);
    let last = report.points.last().expect("at least one attempt");
    println!(
        "{} tasks, {} runs: solved within {} attempts {:.4} ± {:.4}; AUCCESS {:.4} ± {:.4} -> {}",
        report.tasks,
        a.runs,
        a.attempts,
        last.1,
        last.2,
        auc_m,
        auc_sd,
        a.out.display()
    );
    Ok(())
}
