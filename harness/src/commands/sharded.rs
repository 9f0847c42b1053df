//! The studies that run sharded (`--shard K/N`, `rephyre merge`, `rephyre slurm`), listed once:
//! `merge` and `slurm` know a study only through its descriptor
//! ([`ShardedStudy`](super::sharded_study::ShardedStudy)). Adding a sharded study is its command
//! module (with its `SHARDED` descriptor) plus one line in [`STUDIES`].

use super::sharded_study::{MergeOutputs, ShardedStudy};
use anyhow::{bail, Result};
use studies::slurm::{Extra, Study};

/// Every sharded study, in the order `rephyre slurm --help` lists them.
pub const STUDIES: [&ShardedStudy; 7] = [
    &super::solvability::SHARDED,
    &super::diversity::SHARDED,
    &super::random_curve::SHARDED,
    &super::parity::SHARDED,
    &super::witness::SHARDED,
    &super::eval::SHARDED,
    &super::phyq_eval::SHARDED,
];

/// The names `rephyre slurm` takes.
pub fn slurm_names() -> impl Iterator<Item = &'static str> {
    STUDIES.iter().map(|s| s.study.slurm_name)
}

/// The study of a `rephyre slurm` name.
pub fn by_slurm_name(name: &str) -> Result<&'static ShardedStudy> {
    match STUDIES.iter().find(|s| s.study.slurm_name == name) {
        Some(s) => Ok(s),
        None => bail!(
            "{name:?} is not a sharded study (one of: {})",
            slurm_names().collect::<Vec<_>>().join(", ")
        ),
    }
}

/// The study whose part files record `command`.
pub fn by_part_command(command: &str) -> Option<&'static ShardedStudy> {
    STUDIES
        .iter()
        .copied()
        .find(|s| s.study.part_command == command)
}

/// Refuse the merge outputs `study` does not write.
pub fn check_outputs(study: &Study, o: &MergeOutputs) -> Result<()> {
    if o.json && !study.json {
        let with: Vec<&str> = STUDIES
            .iter()
            .filter(|s| s.study.json)
            .map(|s| s.study.part_command)
            .collect();
        bail!(
            "--json is an output of {} only, not of {}",
            with.join(", "),
            study.part_command
        );
    }
    for (extra, given) in [
        (Extra::Summary, o.summary.is_some()),
        (Extra::Plot, o.plot.is_some()),
    ] {
        if given && !study.extras.iter().any(|(e, _)| *e == extra) {
            bail!(
                "{} is not an output of {}",
                extra.option(),
                study.part_command
            );
        }
    }
    Ok(())
}
