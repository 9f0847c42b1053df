//! `rephyre merge`: the parts of a sharded run (checked by [`studies::shard::read_parts`]) into
//! the report the command gives without `--shard`, written by that command's own code (its
//! [`ShardedStudy`](super::sharded_study::ShardedStudy) descriptor says which).

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
