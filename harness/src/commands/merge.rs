//! `rephyre merge`: the parts of a sharded run (checked by [`studies::shard::read_parts`]) into
//! the report the command gives without `--shard`, written by that command's own code.

use crate::cli::MergeArgs;
use crate::context::Ctx;
use crate::parse::check_outputs;
use anyhow::{bail, Result};
use studies::shard::{read_header, read_parts};
use studies::{diversity, evaluation, parity, random_curve, solvability, witness};

pub fn run(ctx: &Ctx, a: MergeArgs) -> Result<()> {
    check_outputs(
        [
            Some(a.out.as_path()),
            a.summary.as_deref(),
            a.plot.as_deref(),
        ]
        .into_iter()
        .flatten(),
    )?;
    let command = read_header(&a.parts[0])?.run.command;
    let refuse = |name: &str, given: bool| -> Result<()> {
        if given {
            bail!("{name} is not an output of {command}");
        }
        Ok(())
    };
    if a.json && command != parity::COMMAND {
        bail!("--json is an output of parity only, not of {command}");
    }
    match command.as_str() {
        solvability::COMMAND => {
            refuse("--plot", a.plot.is_some())?;
            let parts = read_parts(&a.parts)?;
            let (params, rows) = solvability::merge(ctx.task_set()?, parts)?;
            super::solvability::report(&params, &rows, &a.out, a.summary.as_deref())
        }
        diversity::COMMAND => {
            refuse("--summary", a.summary.is_some())?;
            let parts = read_parts(&a.parts)?;
            let report = diversity::merge(ctx.task_set()?, parts)?;
            super::diversity::write_report(&report, &a.out, a.plot.as_deref())
        }
        random_curve::COMMAND => {
            refuse("--summary", a.summary.is_some())?;
            let parts = read_parts(&a.parts)?;
            let report = random_curve::merge(ctx.task_set()?, parts)?;
            super::random_curve::write_report(&report, &a.out, a.plot.as_deref())
        }
        parity::COMMAND => {
            refuse("--summary", a.summary.is_some())?;
            refuse("--plot", a.plot.is_some())?;
            let parts = read_parts(&a.parts)?;
            let report = parity::merge(ctx.task_set()?, parts)?;
            super::parity::write_report(&report, Some(&a.out), a.json)
        }
        witness::COMMAND => {
            refuse("--plot", a.plot.is_some())?;
            let parts = read_parts(&a.parts)?;
            let (job, states) = witness::merge(ctx.task_set()?, parts)?;
            super::witness::write_report(&job, &states, &a.out, a.summary.as_deref())
        }
        evaluation::TABLES_COMMAND => {
            refuse("--summary", a.summary.is_some())?;
            refuse("--plot", a.plot.is_some())?;
            let parts = read_parts(&a.parts)?;
            let files = evaluation::merge_tables(ctx.task_set()?, parts, &a.out)?;
            for f in &files {
                println!("outcome table -> {}", f.display());
            }
            println!(
                "evaluate the agents from it with: rephyre eval --cache {} ...",
                a.out.display()
            );
            Ok(())
        }
        other => bail!(
            "{} is a part of a {other} run, which rephyre merge does not know",
            a.parts[0].display()
        ),
    }
}
