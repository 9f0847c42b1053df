//! A task named on the command line, resolved once: a PHYRE task of the task set, or a Phy-Q
//! level, built-in or from a `--tasks` level set. This is the one place that tells the two
//! benchmarks' ids and task files apart; the commands match on what it returns.
//!
//! `--tasks FILE` holds either PHYRE tasks (rephyre's task format, `tasks import`) or Phy-Q
//! levels (a level set, `tasks import-levels`: JSON). An id of the other benchmark than the
//! file's, or one the file does not hold, is an error that names the file.

use crate::context::Ctx;
use anyhow::{anyhow, bail, Context, Result};
use phyq::levelset::{Entry, LevelSet};
use std::path::{Path, PathBuf};
use tasks::{Task, TaskSet};

/// What `--tasks FILE` holds.
pub enum TaskFile {
    Phyre(&'static TaskSet),
    /// A level set and its path (for messages).
    Phyq(&'static LevelSet, PathBuf),
}

/// A resolved task.
pub enum TaskRef {
    Phyre(&'static Task),
    Phyq(Box<Entry>),
}

/// Whether an id is written as a Phy-Q level's (`phyq:…`).
fn names_a_level(id: &str) -> bool {
    id.starts_with("phyq:")
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

impl Ctx {
    /// What `--tasks` holds, loaded once per process; `None` without `--tasks`.
    pub fn task_file(&self) -> Result<Option<TaskFile>> {
        let Some(path) = &self.tasks_file else {
            return Ok(None);
        };
        if is_level_set(path)? {
            let set = LevelSet::read(path).map_err(|e| {
                anyhow!(
                    "cannot load --tasks {} as Phy-Q levels: {e}",
                    path.display()
                )
            })?;
            if set.entries().is_empty() {
                bail!("--tasks {} holds no levels", path.display());
            }
            Ok(Some(TaskFile::Phyq(Box::leak(Box::new(set)), path.clone())))
        } else {
            Ok(Some(TaskFile::Phyre(self.task_set()?)))
        }
    }

    /// The Phy-Q levels commands list and draw: the `--tasks` level set, or the built-in tier
    /// (`None` when `--tasks` holds PHYRE tasks).
    pub fn phyq_levels(&self) -> Result<Option<&'static [Entry]>> {
        Ok(match self.task_file()? {
            None => Some(phyq::generator::builtin_tasks().entries()),
            Some(TaskFile::Phyq(set, _)) => Some(set.entries()),
            Some(TaskFile::Phyre(_)) => None,
        })
    }

    /// The task `id` names, in `--tasks` or the built-in tasks.
    pub fn resolve(&self, id: &str) -> Result<TaskRef> {
        match (names_a_level(id), self.task_file()?) {
            (true, None) => phyq::generator::find_builtin(id)
                .map(|e| TaskRef::Phyq(Box::new(e)))
                .map_err(|e| match e {
                    phyq::generator::FindError::Unknown(_) => {
                        anyhow!("{e}: rephyre tasks list --tier phyq")
                    }
                    phyq::generator::FindError::Malformed(_) => anyhow!(e),
                }),
            (true, Some(TaskFile::Phyq(set, path))) => {
                let parsed: phyq::LevelId = id.parse().map_err(|e: String| anyhow!(e))?;
                set.entries()
                    .iter()
                    .find(|e| e.id == parsed)
                    .cloned()
                    .map(|e| TaskRef::Phyq(Box::new(e)))
                    .ok_or_else(|| {
                        anyhow!(
                            "{id} is not in the level set {} ({} levels: rephyre --tasks {} tasks list)",
                            path.display(),
                            set.entries().len(),
                            path.display()
                        )
                    })
            }
            (true, Some(TaskFile::Phyre(_))) => bail!(
                "{id} is a Phy-Q level, and --tasks {} holds PHYRE tasks",
                self.tasks_file.as_ref().map_or(String::new(), |p| p.display().to_string())
            ),
            (false, Some(TaskFile::Phyq(_, path))) => bail!(
                "{id:?} is not a Phy-Q level id (phyq:…), and --tasks {} is a level set: rephyre --tasks {} tasks list",
                path.display(),
                path.display()
            ),
            (false, _) => Ok(TaskRef::Phyre(crate::parse::lookup(self.task_set()?, id)?)),
        }
    }
}
