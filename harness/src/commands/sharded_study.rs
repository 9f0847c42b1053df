//! What a sharded study is to `merge` and `slurm` (`--shard K/N` runs, their parts, their
//! Slurm scripts): [`ShardedStudy`], the descriptor each such command defines beside its own
//! code as `SHARDED`. The list of them is `sharded.rs`.

use crate::context::Ctx;
use anyhow::Result;
use std::path::{Path, PathBuf};

/// What `rephyre merge` was asked to write.
pub struct MergeOutputs<'a> {
    pub out: &'a Path,
    pub summary: Option<&'a Path>,
    pub plot: Option<&'a Path>,
    pub json: bool,
}

/// A report option of a merge besides `--out`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extra {
    /// `--summary FILE` (Markdown).
    Summary,
    /// `--plot FILE` (SVG).
    Plot,
}

impl Extra {
    pub fn option(self) -> &'static str {
        match self {
            Extra::Summary => "--summary",
            Extra::Plot => "--plot",
        }
    }
}

/// Everything `merge` and `slurm` need to know of one sharded study.
#[derive(Debug)]
pub struct ShardedStudy {
    /// Its name for `rephyre slurm`.
    pub slurm_name: &'static str,
    /// The command a shard runs (`rephyre COMMAND … --shard K/N`).
    pub command: &'static str,
    /// The command its part files record (the study's `COMMAND` in `studies`).
    pub part_command: &'static str,
    /// The merge's `--out` in a Slurm working folder.
    pub report: &'static str,
    /// The merge's other report options and their files in a Slurm working folder.
    pub extras: &'static [(Extra, &'static str)],
    /// Whether the merge can print the summary as JSON (`--json`).
    pub json: bool,
    /// The option that holds a shard's checkpoint, and whether the shard is told `--resume`
    /// (eval's `--cache` always resumes).
    pub checkpoint: (&'static str, bool),
    /// The checked parts into the report, written by the command's own code.
    pub merge: MergeFn,
}

/// A study's merge: the checked parts into its report, written by its command's own code.
pub type MergeFn = fn(&Ctx, &[PathBuf], &MergeOutputs) -> Result<()>;

impl ShardedStudy {
    /// A study run by its own command under its own name, checkpointed with `--checkpoint` and
    /// resumed with `--resume`, whose merge writes `report` and `extras`.
    pub const fn checkpointed(
        name: &'static str,
        part_command: &'static str,
        report: &'static str,
        extras: &'static [(Extra, &'static str)],
        merge: MergeFn,
    ) -> ShardedStudy {
        ShardedStudy {
            slurm_name: name,
            command: name,
            part_command,
            report,
            extras,
            json: false,
            checkpoint: ("--checkpoint", true),
            merge,
        }
    }
}
