//! `rephyre merge`: the parts of a sharded run (checked by [`studies::shard::read_parts`]) into
//! the report the command gives without `--shard`, written by that command's own code (its
//! [`ShardedStudy`](super::sharded_study::ShardedStudy) descriptor says which); or `eval
//! --checkpoint` files of runs made apart into one checkpoint.

use super::sharded::{by_part_command, check_outputs as check_study_outputs};
use super::sharded_study::MergeOutputs;
use crate::args::ReportArgs;
use crate::context::Ctx;
use crate::parse::check_outputs;
use anyhow::{bail, Result};
use clap::Args;
use std::path::PathBuf;
use studies::shard::read_header;

pub fn run(ctx: &Ctx, a: MergeArgs) -> Result<()> {
    let outputs = MergeOutputs::new(Some(&a.out), &a.report);
    check_outputs(outputs.files())?;
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
    check_study_outputs(study.study, &outputs)?;
    (study.merge)(ctx, &a.parts, &outputs)
}

/// `eval --checkpoint` files (runs of one evaluation made apart: a fold each, say) into the one
/// checkpoint `--out`, from which `eval --checkpoint OUT --resume` reports them all.
fn eval_checkpoints(a: &MergeArgs) -> Result<()> {
    for (given, name) in [
        (a.report.summary.is_some(), "--summary"),
        (a.report.plot.is_some(), "--plot"),
        (a.report.print.json, "--json"),
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

pub const MERGE_EXAMPLES: &str = "\
EXAMPLES:
  rephyre solvability --tier ball --shard 1/2 --out part-1.json
  rephyre solvability --tier ball --shard 2/2 --out part-2.json
  rephyre merge part-1.json part-2.json --out ball.csv --summary ball.md
  rephyre merge parts/*.json --out diversity.csv --plot diversity.svg
  rephyre merge fold-*.ckpt --out all.ckpt    # eval --checkpoint files, one per fold

The report is byte for byte the one the same command gives without --shard, whatever the number
of shards. Parts of different runs (command, arguments, tasks, rephyre version), a missing part
and a part given twice are refused, naming the file. Pass the shards' --tasks FILE if they had one.

Eval checkpoints (each `rephyre eval ... --checkpoint FILE` of one evaluation: the same action
set, seed, split and tasks, any agents, setups and folds) merge into one checkpoint; `rephyre eval
... --checkpoint all.ckpt --resume` then reports every (agent, setup, fold) it holds without
running it again.";

/// Arguments of `rephyre merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The part files (what each shard wrote with --out), or eval checkpoints, in any order.
    #[arg(required = true, value_name = "PART")]
    pub parts: Vec<PathBuf>,
    /// The report (the CSV of the command the shards ran; parity: its Markdown report; eval
    /// checkpoints: the merged checkpoint).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    #[command(flatten)]
    pub report: ReportArgs,
}
