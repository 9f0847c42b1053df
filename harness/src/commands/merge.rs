//! `rephyre merge`: the parts of a sharded run (checked by [`studies::shard::read_parts`]) into
//! the report the command gives without `--shard`, written by that command's own code (its
//! [`ShardedStudy`](super::sharded_study::ShardedStudy) descriptor says which); or `eval
//! --checkpoint` files of runs made apart into one checkpoint.

use super::sharded::{by_part_command, check_outputs as check_study_outputs};
use super::sharded_study::MergeOutputs;
use crate::cli::MergeArgs;
use crate::context::Ctx;
use crate::parse::check_outputs;
use anyhow::{bail, Result};
use studies::shard::read_header;

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
    if studies::evaluation::is_checkpoint(&a.parts[0]) {
        return eval_checkpoints(&a);
    }
    let command = read_header(&a.parts[0])?.run.command;
    let Some(study) = by_part_command(&command) else {
        bail!(
            "{} is a part of a {command} run, which rephyre merge does not know",
            a.parts[0].display()
        );
    };
    let outputs = MergeOutputs {
        out: &a.out,
        summary: a.summary.as_deref(),
        plot: a.plot.as_deref(),
        json: a.json,
    };
    check_study_outputs(study, &outputs)?;
    (study.merge)(ctx, &a.parts, &outputs)
}

/// `eval --checkpoint` files (runs of one evaluation made apart: a fold each, say) into the one
/// checkpoint `--out`, from which `eval --checkpoint OUT --resume` reports them all.
fn eval_checkpoints(a: &MergeArgs) -> Result<()> {
    for (given, name) in [
        (a.summary.is_some(), "--summary"),
        (a.plot.is_some(), "--plot"),
        (a.json, "--json"),
    ] {
        if given {
            bail!("{name}: eval checkpoints merge into one checkpoint (--out); `rephyre eval --checkpoint OUT --resume` writes the report");
        }
    }
    let merged = studies::evaluation::merge_checkpoints(&a.parts, &a.out)?;
    eprintln!(
        "merged {} eval checkpoints: {} (agent, setup, fold) results in {}; `rephyre eval ... --checkpoint {} --resume` reports them without running them again",
        merged.files,
        merged.units,
        a.out.display(),
        a.out.display()
    );
    Ok(())
}
