//! What a task file (`--tasks FILE`) holds: PHYRE tasks (rephyre's task format, `tasks import`)
//! or Phy-Q levels (a level set, `tasks import-levels`: JSON). The two are told apart by their
//! first byte, so that a command that takes either needs no option saying which.

use crate::name::Benchmark;
use anyhow::{anyhow, bail, Context, Result};
use phyq::LevelSet;
use std::path::{Path, PathBuf};
use tasks::TaskSet;

/// A task file, read, with its path (for messages).
#[derive(Debug)]
pub enum TaskFile {
    Phyre(TaskSet, PathBuf),
    Phyq(LevelSet, PathBuf),
}

impl TaskFile {
    /// Read a task file of either kind; an empty one is an error.
    pub fn read(path: &Path) -> Result<TaskFile> {
        if !is_level_set(path)? {
            return Ok(TaskFile::Phyre(read_phyre_tasks(path)?, path.to_owned()));
        }
        let set = LevelSet::read(path).map_err(|e| {
            anyhow!(
                "cannot load --tasks {} as Phy-Q levels: {e}",
                path.display()
            )
        })?;
        if set.entries().is_empty() {
            bail!("--tasks {} holds no levels", path.display());
        }
        Ok(TaskFile::Phyq(set, path.to_owned()))
    }

    pub fn path(&self) -> &Path {
        match self {
            TaskFile::Phyre(_, path) | TaskFile::Phyq(_, path) => path,
        }
    }

    /// Whose tasks the file holds.
    pub fn benchmark(&self) -> Benchmark {
        match self {
            TaskFile::Phyre(..) => Benchmark::Phyre,
            TaskFile::Phyq(..) => Benchmark::Phyq,
        }
    }
}

/// The PHYRE tasks of a task file, for the commands that take PHYRE tasks only; a level set
/// or an empty file is an error that says so.
pub fn read_phyre_tasks(path: &Path) -> Result<TaskSet> {
    let set = TaskSet::load(path).with_context(|| {
        if std::fs::read(path).is_ok_and(|b| b.trim_ascii_start().starts_with(b"{")) {
            format!(
                "--tasks {} is a Phy-Q level set, and this command takes PHYRE tasks",
                path.display()
            )
        } else {
            format!("cannot load --tasks {}", path.display())
        }
    })?;
    if set.is_empty() {
        bail!("--tasks {} holds no tasks", path.display());
    }
    Ok(set)
}

/// Whether a file is a level set (JSON) rather than a PHYRE task file (binary, with a magic).
fn is_level_set(path: &Path) -> Result<bool> {
    use std::io::Read;
    let mut head = [0u8; 64];
    let mut f = std::fs::File::open(path)
        .with_context(|| format!("cannot open --tasks {}", path.display()))?;
    let n = f
        .read(&mut head)
        .with_context(|| format!("cannot read --tasks {}", path.display()))?;
    Ok(head[..n]
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|&b| b == b'{'))
}
