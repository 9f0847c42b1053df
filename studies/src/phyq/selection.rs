//! Which tasks a setting tests and which it trains on.

use super::types::{Setting, LOCAL_TRAIN_TASKS};
use anyhow::{bail, Result};
use phyq::generator::template_of;
use phyq::levelset::Entry;
use phyq::templates::{Role, Template};
use phyq::{Level, LevelId};

/// A level under test.
#[derive(Clone, Debug)]
pub struct EvalTask {
    pub id: LevelId,
    /// Its template, for a task of the tier (or named like one).
    pub template: Option<&'static Template>,
    pub level: Level,
}

/// The index of a coded task id (`phyq:L_C_K:NNNNN`).
pub(super) fn index_of(id: &LevelId) -> Option<u32> {
    match id {
        LevelId::Coded { index, .. } => Some(*index),
        LevelId::Named(_) => None,
    }
}

/// The test tasks of `setting` among `entries`, in their order.
pub fn test_tasks(entries: &[Entry], setting: Setting) -> Result<Vec<EvalTask>> {
    tasks_of(entries, setting, true)
}

/// The training tasks of `setting` among `entries`, in their order: local, tasks 1 to 80 of
/// each template; broad, every task of the training templates; the all setting has none.
pub fn train_tasks(entries: &[Entry], setting: Setting) -> Result<Vec<EvalTask>> {
    if setting == Setting::All {
        bail!("the all setting has no training tasks (train in the local or broad setting)");
    }
    tasks_of(entries, setting, false)
}

fn tasks_of(entries: &[Entry], setting: Setting, test: bool) -> Result<Vec<EvalTask>> {
    let mut out = Vec::new();
    for e in entries {
        let template = template_of(&e.id);
        let tests = match setting {
            Setting::All => true,
            Setting::Local | Setting::Broad => {
                let Some(t) = template else {
                    bail!(
                        "task {} has no Phy-Q template, so it has no place in the {} setting (use --setting all)",
                        e.id,
                        setting.word()
                    );
                };
                let tests = match setting {
                    Setting::Local => index_of(&e.id).is_some_and(|i| i > LOCAL_TRAIN_TASKS),
                    _ => t.role == Role::Test,
                };
                tests == test
            }
        };
        if tests {
            out.push(EvalTask {
                id: e.id.clone(),
                template,
                level: e.level.clone(),
            });
        }
    }
    if out.is_empty() {
        bail!(
            "no {} task in the {} setting among the {} tasks given",
            if test { "test" } else { "training" },
            setting.word(),
            entries.len()
        );
    }
    Ok(out)
}
