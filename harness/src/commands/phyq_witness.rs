//! `rephyre phyq-witness`: [`studies::phyq_witness`] on the generator's tasks or, with
//! `--tasks F`, on the levels of a level set, writing the witness CSV and the per-template
//! summary; `--verify` re-checks such a file.

use crate::args::ResumeArgs;
use crate::context::Ctx;
use crate::parse::check_outputs;
use anyhow::{bail, Context, Result};
use clap::Args;
use phyq::levelset::Entry;
use std::path::Path;
use std::path::PathBuf;
use studies::files::write_atomic;
use studies::phyq_witness::{
    csv_text, parse, rows as rows_of, run_job, summary_markdown, verify, verify_levels, Job, Params,
};
use taskref::TaskFile;

fn verify_file(
    ctx: &Ctx,
    path: &Path,
    levels: Option<&[Entry]>,
    seed: u64,
    summary: Option<&Path>,
) -> Result<()> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let rows = parse(&text).map_err(|e| anyhow::anyhow!("in {}: {e}", path.display()))?;
    if let Some(sum) = summary {
        check_outputs([sum])?;
    }
    let failures = match levels {
        Some(entries) => verify_levels(&rows, entries, &ctx.pool()?),
        None => verify(&rows, seed, &ctx.pool()?),
    };
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
    let levels = match ctx.task_file()? {
        None => None,
        Some(TaskFile::Phyq(set, path)) => {
            for (flag, given) in [
                ("--seed", a.seed.is_some()),
                ("--per-template", a.per_template.is_some()),
                ("--max-redraws", a.max_redraws.is_some()),
            ] {
                if given {
                    bail!(
                        "{flag} is for the generator's tasks; the levels of --tasks {} are checked as they are",
                        path.display()
                    );
                }
            }
            Some(set.entries())
        }
        Some(TaskFile::Phyre(_, path)) => bail!(
            "phyq-witness checks Phy-Q levels, and --tasks {} holds PHYRE tasks",
            path.display()
        ),
    };
    let seed = a.seed.unwrap_or(phyq::generator::BUILTIN_SEED);
    if let Some(path) = &a.verify {
        return verify_file(ctx, path, levels, seed, a.summary.as_deref());
    }
    let Some(out) = &a.out else {
        bail!("give --out FILE (or --verify FILE)");
    };
    let mut outputs = vec![out.as_path()];
    outputs.extend(a.summary.as_deref());
    outputs.extend(a.save.checkpoint.as_deref());
    check_outputs(outputs)?;
    let cfg = ctx.resumable(&a.save, 10.0)?;
    let templates: Option<Vec<String>> = a
        .templates
        .as_deref()
        .map(|l| l.split(',').map(|c| c.trim().to_string()).collect());
    let job = match levels {
        Some(entries) => Job::of_levels(entries, templates.as_deref())?,
        None => {
            let defaults = Params::default();
            Job::new(Params {
                seed,
                per_template: a.per_template.unwrap_or(defaults.per_template),
                templates,
                max_redraws: a.max_redraws.unwrap_or(defaults.max_redraws),
            })?
        }
    };
    let (job, states) = run_job(job, &cfg)?;
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

pub const PHYQ_WITNESS_EXAMPLES: &str = "\
EXAMPLES:
  rephyre phyq-witness --out witnesses.csv --summary witnesses.md --checkpoint w.ckpt
  rephyre phyq-witness --templates 1_2_6,3.5 --per-template 10 --out weak.csv
  rephyre phyq-witness --verify phyq/data/witnesses.csv
  rephyre --tasks mine.levels phyq-witness --out mine.csv      # an imported level set, each level as it is

A task is sound when, run without a shot, nothing moves more than 10 cm and nothing breaks, and
the search (shots aimed at the pigs and the objects near them, then a grid of angles; greedy
bird by bird, then wider where several birds are needed) passes it. A draw that is not sound is
replaced by the generator's next valid draw (at most --max-redraws times); the built-in tier
keeps the draw this file names. The levels of a level set (--tasks F) have no next draw: each is
checked once, as it is. The shots column is what `rephyre simulate ID --shots` takes.";

/// Arguments of `rephyre phyq-witness`.
#[derive(Debug, Args)]
pub struct PhyqWitnessArgs {
    /// Re-check every witness of FILE (the kept draw starts at rest and its shots pass it)
    /// instead of searching; exit status 2 if any fails.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["out", "templates", "per_template", "max_redraws"])]
    pub verify: Option<PathBuf>,
    /// Templates by hierarchy code or paper number, comma-separated (default: all 75).
    #[arg(long, value_name = "LIST")]
    pub templates: Option<String>,
    /// Tasks 1..=N of each template [default: 100].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=99_999))]
    pub per_template: Option<u32>,
    /// The generator's seed (0, the default: the built-in tier).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Draws refused per task at most before it is left without a witness [default: 20].
    #[arg(long, value_name = "N")]
    pub max_redraws: Option<u32>,
    /// CSV of witnesses (one row per task).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Markdown table per template: sound at the first draw, in the end, what was refused and why,
    /// what the search cost (with --verify: of the verified file).
    #[arg(long, value_name = "FILE")]
    pub summary: Option<PathBuf>,
    #[command(flatten)]
    pub save: ResumeArgs,
}
