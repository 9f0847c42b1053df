//! The task a name names: in a task file when one is given, else among the built-in tasks (the
//! 5,000 PHYRE-B/2B tasks and the `phyq` tier).

use crate::file::TaskFile;
use crate::name::{NameError, TaskName};
use anyhow::{anyhow, bail, Result};
use phyq::generator::{builtin_task, FindError};
use phyq::levelset::Entry;
use tasks::{LookupError, Task, TaskSet};

/// A task found: a PHYRE task of a set, or a Phy-Q level (its own copy: a built-in one is made
/// on demand, [`phyq::generator::builtin_task`]).
#[derive(Clone, Debug)]
pub enum TaskRef<'a> {
    Phyre(&'a Task),
    Phyq(Box<Entry>),
}

/// Why a text names no built-in task, in the words of the benchmark's crate it was written for
/// (`tasks::LookupError`, `phyq::generator::FindError`): one line, without a front end's hint.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BuiltinError {
    #[error(transparent)]
    Phyre(LookupError),
    #[error(transparent)]
    Phyq(FindError),
}

/// The built-in task `text` names.
pub fn find_builtin(text: &str) -> Result<TaskRef<'static>, BuiltinError> {
    match text.parse::<TaskName>() {
        Ok(TaskName::Phyre(id)) => TaskSet::builtin()
            .get(&id)
            .map(TaskRef::Phyre)
            .ok_or(BuiltinError::Phyre(LookupError::Unknown(id))),
        Ok(TaskName::Phyq(id)) => builtin_task(&id)
            .map(|e| TaskRef::Phyq(Box::new(e)))
            .ok_or(BuiltinError::Phyq(FindError::Unknown(id))),
        Err(NameError::Phyre(e)) => Err(BuiltinError::Phyre(LookupError::Malformed(e))),
        Err(NameError::Phyq(e)) => Err(BuiltinError::Phyq(FindError::Malformed(e))),
    }
}

/// The task `text` names: in `file` (`--tasks`) when given, else among the built-in tasks. An id
/// of the other benchmark than the file's, or one the file does not hold, is an error that
/// names the file; each error says where the ids that exist are listed (`rephyre tasks list`).
pub fn resolve<'a>(text: &str, file: Option<&'a TaskFile>) -> Result<TaskRef<'a>> {
    let Some(file) = file else {
        return find_builtin(text).map_err(|e| match e {
            BuiltinError::Phyq(FindError::Unknown(_)) => {
                anyhow!("{e}: rephyre tasks list --tier phyq")
            }
            e => anyhow!(e),
        });
    };
    match (text.parse::<TaskName>(), file) {
        (Ok(TaskName::Phyre(id)), TaskFile::Phyre(set, _)) => set
            .get(&id)
            .map(TaskRef::Phyre)
            .ok_or_else(|| LookupError::Unknown(id).into()),
        (Err(NameError::Phyre(e)), TaskFile::Phyre(..)) => Err(LookupError::Malformed(e).into()),
        (Ok(TaskName::Phyq(id)), TaskFile::Phyq(set, path)) => set
            .entries()
            .iter()
            .find(|e| e.id == id)
            .map(|e| TaskRef::Phyq(Box::new(e.clone())))
            .ok_or_else(|| {
                anyhow!(
                    "{text} is not in the level set {} ({} levels: rephyre --tasks {} tasks list)",
                    path.display(),
                    set.entries().len(),
                    path.display()
                )
            }),
        (Err(NameError::Phyq(e)), TaskFile::Phyq(..)) => Err(anyhow!(e)),
        (Ok(TaskName::Phyq(_)) | Err(NameError::Phyq(_)), TaskFile::Phyre(_, path)) => bail!(
            "{text} is a Phy-Q level, and --tasks {} holds PHYRE tasks",
            path.display()
        ),
        (Ok(TaskName::Phyre(_)) | Err(NameError::Phyre(_)), TaskFile::Phyq(_, path)) => bail!(
            "{text:?} is not a Phy-Q level id (phyq:…), and --tasks {} is a level set: rephyre --tasks {} tasks list",
            path.display(),
            path.display()
        ),
    }
}
