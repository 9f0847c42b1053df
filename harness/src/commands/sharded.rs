//! The studies that run sharded (`--shard K/N`, `rephyre merge`, `rephyre slurm`): one
//! descriptor each, beside the command it describes, and the list of them. `merge` and `slurm`
//! know a study only through its descriptor; adding a sharded study is its command module (with
//! its `SHARDED` descriptor) plus one line in [`STUDIES`].

use crate::context::Ctx;
use anyhow::{bail, Result};
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
    /// The merge's other report option, if any, and its file in a Slurm working folder.
    pub extra: Option<(Extra, &'static str)>,
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

/// Every sharded study, in the order `rephyre slurm --help` lists them.
pub const STUDIES: [&ShardedStudy; 6] = [
    &super::solvability::SHARDED,
    &super::diversity::SHARDED,
    &super::random_curve::SHARDED,
    &super::parity::SHARDED,
    &super::witness::SHARDED,
    &super::eval::SHARDED,
];

/// The names `rephyre slurm` takes.
pub fn slurm_names() -> impl Iterator<Item = &'static str> {
    STUDIES.iter().map(|s| s.slurm_name)
}

/// The study of a `rephyre slurm` name.
pub fn by_slurm_name(name: &str) -> Result<&'static ShardedStudy> {
    match STUDIES.iter().find(|s| s.slurm_name == name) {
        Some(s) => Ok(s),
        None => bail!(
            "{name:?} is not a sharded study (one of: {})",
            slurm_names().collect::<Vec<_>>().join(", ")
        ),
    }
}

/// The study whose part files record `command`.
pub fn by_part_command(command: &str) -> Option<&'static ShardedStudy> {
    STUDIES.iter().copied().find(|s| s.part_command == command)
}

impl ShardedStudy {
    /// A study run by its own command under its own name, checkpointed with `--checkpoint` and
    /// resumed with `--resume`, whose merge writes `report` and, if any, `extra`.
    pub const fn checkpointed(
        name: &'static str,
        part_command: &'static str,
        report: &'static str,
        extra: Option<(Extra, &'static str)>,
        merge: MergeFn,
    ) -> ShardedStudy {
        ShardedStudy {
            slurm_name: name,
            command: name,
            part_command,
            report,
            extra,
            json: false,
            checkpoint: ("--checkpoint", true),
            merge,
        }
    }

    /// Refuse the merge outputs this study does not write.
    pub fn check_outputs(&self, o: &MergeOutputs) -> Result<()> {
        if o.json && !self.json {
            let with: Vec<&str> = STUDIES
                .iter()
                .filter(|s| s.json)
                .map(|s| s.part_command)
                .collect();
            bail!(
                "--json is an output of {} only, not of {}",
                with.join(", "),
                self.part_command
            );
        }
        for (extra, given) in [
            (Extra::Summary, o.summary.is_some()),
            (Extra::Plot, o.plot.is_some()),
        ] {
            if given && self.extra.map(|(e, _)| e) != Some(extra) {
                bail!(
                    "{} is not an output of {}",
                    extra.option(),
                    self.part_command
                );
            }
        }
        Ok(())
    }
}
