//! `rephyre phyq-witness`: [`studies::phyq_witness`] on the generator's tasks, writing the
//! witness CSV and the per-template summary; `--verify` re-checks such a file.

use crate::cli::{CheckpointArgs, PhyqWitnessArgs};
use crate::context::Ctx;
use crate::parse::check_outputs;
use anyhow::{bail, Context, Result};
use std::path::Path;
use studies::files::write_atomic;
use studies::phyq_witness::{
    csv_text, parse, rows as rows_of, run as run_study, summary_markdown, verify, Params,
};

fn verify_file(ctx: &Ctx, path: &Path, seed: u64, summary: Option<&Path>) -> Result<()> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let rows = parse(&text).map_err(|e| anyhow::anyhow!("in {}: {e}", path.display()))?;
    if let Some(sum) = summary {
        check_outputs([sum])?;
    }
    let failures = verify(&rows, seed, &ctx.pool()?);
    let with = rows.iter().filter(|r| r.found).count();
    println!(
        "{} rows: {} witnesses, {} verified, {} failed; {} tasks without a witness",
        rows.len(),
        with,
        with - failures.len(),
        failures.len(),
        rows.len() - with
    );
    if let Some(sum) = summary {
        write_atomic(sum, summary_markdown(&rows).as_bytes())?;
    }
    if !failures.is_empty() {
        println!("failed:\n  {}", failures.join("\n  "));
        bail!(
            "{} witnesses in {} do not hold (listed on stdout)",
            failures.len(),
            path.display()
        );
    }
    Ok(())
}

pub fn run(ctx: &Ctx, a: PhyqWitnessArgs) -> Result<()> {
    if let Some(path) = &a.verify {
        return verify_file(ctx, path, a.seed, a.summary.as_deref());
    }
    let Some(out) = &a.out else {
        bail!("give --out FILE (or --verify FILE)");
    };
    let mut outputs = vec![out.as_path()];
    outputs.extend(a.summary.as_deref());
    outputs.extend(a.checkpoint.as_deref());
    check_outputs(outputs)?;
    let cfg = ctx.run_config(&CheckpointArgs {
        checkpoint: a.checkpoint.clone(),
        resume: a.resume,
        checkpoint_secs: 10.0,
        shard: None,
    })?;
    let params = Params {
        seed: a.seed,
        per_template: a.per_template,
        templates: a
            .templates
            .as_deref()
            .map(|l| l.split(',').map(|c| c.trim().to_string()).collect()),
        max_redraws: a.max_redraws,
    };
    let (job, states) = run_study(params, &cfg)?;
    let rows = rows_of(&job, &states);
    write_atomic(out, csv_text(&rows).as_bytes())?;
    if let Some(sum) = &a.summary {
        write_atomic(sum, summary_markdown(&rows).as_bytes())?;
    }
    let found = rows.iter().filter(|r| r.found).count();
    let redrawn = rows
        .iter()
        .filter(|r| r.found && !r.refused.is_empty())
        .count();
    let tried: u64 = rows.iter().map(|r| r.shots_tried).sum();
    println!(
        "{} tasks: {found} sound ({redrawn} of them redrawn), {} without a witness; {tried} shots searched -> {}",
        rows.len(),
        rows.len() - found,
        out.display()
    );
    Ok(())
}
