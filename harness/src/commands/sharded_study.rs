//! What a sharded study is to `merge` and `slurm` (`--shard K/N` runs, their parts, their
//! Slurm scripts): [`ShardedStudy`], the study's own description ([`studies::slurm::Study`])
//! with the code that writes its merged report, defined beside its command as `SHARDED`. The
//! list of them is `sharded.rs`.

use crate::args::ReportArgs;
use crate::context::Ctx;
use anyhow::{Context, Result};
use std::any::Any;
use std::path::{Path, PathBuf};
use studies::slurm::Study;

/// What a study's report was asked to write: its CSV (`--out`, which `merge` always has and
/// `phyq-eval` may leave out) and the [`ReportArgs`].
pub struct MergeOutputs<'a> {
    pub out: Option<&'a Path>,
    pub summary: Option<&'a Path>,
    pub plot: Option<&'a Path>,
    pub json: bool,
}

impl<'a> MergeOutputs<'a> {
    pub fn new(out: Option<&'a Path>, report: &'a ReportArgs) -> MergeOutputs<'a> {
        MergeOutputs {
            out,
            summary: report.summary.as_deref(),
            plot: report.plot.as_deref(),
            json: report.print.json,
        }
    }

    /// The files to write, for [`check_outputs`](crate::parse::check_outputs).
    pub fn files(&self) -> impl Iterator<Item = &'a Path> {
        [self.out, self.summary, self.plot].into_iter().flatten()
    }

    /// `--out`, for the studies whose report is its CSV.
    pub fn out(&self) -> Result<&'a Path> {
        self.out.context("--out is needed")
    }
}

/// Everything `merge` and `slurm` need to know of one sharded study.
#[derive(Debug)]
pub struct ShardedStudy {
    /// The study's description (its names, its report's files, its checkpoint option).
    pub study: &'static Study,
    /// The checked parts into the report, written by the command's own code.
    pub merge: MergeFn,
    /// Given the study's arguments as a shard parses them (its command's arguments type): refuse
    /// what its shards cannot run, and say whether they read the study's input files
    /// ([`Study::input_files`]).
    pub shards_read: fn(&dyn Any) -> Result<bool>,
}

/// A study's merge: the checked parts into its report, written by its command's own code.
pub type MergeFn = fn(&Ctx, &[PathBuf], &MergeOutputs) -> Result<()>;

impl ShardedStudy {
    /// A study whose shards run any arguments that parse.
    pub const fn new(study: &'static Study, merge: MergeFn) -> ShardedStudy {
        ShardedStudy {
            study,
            merge,
            shards_read: |_| Ok(true),
        }
    }
}
