//! Which tasks a study runs on, and the fingerprint that ties a checkpoint to them.

use anyhow::{bail, Result};
use tasks::{Task, TaskSet, Tier};

/// The tasks a study works on: the given templates (default: the templates whose tasks are all of
/// `tier`), the first `per_template` tasks of each, in id order. Every named template must have
/// tasks in the set.
pub fn select_tasks<'a>(
    set: &'a TaskSet,
    tier: Tier,
    templates: Option<&[u32]>,
    per_template: Option<u32>,
) -> Result<Vec<&'a Task>> {
    let templates = match templates {
        Some(list) => {
            check_templates(set, list)?;
            list.to_vec()
        }
        None => {
            let list: Vec<u32> = set
                .templates()
                .into_iter()
                .filter(|&t| set.template(t).iter().all(|task| task.tier() == tier))
                .collect();
            if list.is_empty() {
                bail!("the task set has no templates of the {tier} tier");
            }
            list
        }
    };
    let mut out = Vec::new();
    for t in templates {
        let tasks = set.template(t);
        let n = per_template.map_or(tasks.len(), |n| (n as usize).min(tasks.len()));
        out.extend(tasks[..n].iter());
    }
    Ok(out)
}

/// Check that every template of `templates` has tasks in `set`.
pub fn check_templates(set: &TaskSet, templates: &[u32]) -> Result<()> {
    for &t in templates {
        if set.template(t).is_empty() {
            bail!("template {t:05} has no tasks in the task set");
        }
    }
    Ok(())
}

/// A fingerprint of the given tasks' full content (ids, scenes, goals), for checkpoints.
pub fn tasks_fingerprint(tasks: &[&Task]) -> Result<String> {
    let owned: Vec<Task> = tasks.iter().map(|t| (*t).clone()).collect();
    let n = owned.len();
    let set = TaskSet::from_tasks(owned)?;
    Ok(format!(
        "{n} tasks, content {:016x}",
        tasks::rng::fnv64(&set.to_store_bytes(false))
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_selection_is_the_tier_templates() {
        let set = TaskSet::builtin();
        let ball = select_tasks(set, Tier::Ball, None, Some(2)).unwrap();
        assert_eq!(ball.len(), 50);
        assert!(ball.iter().all(|t| t.tier() == Tier::Ball));
        let two = select_tasks(set, Tier::TwoBalls, Some(&[100, 124]), None).unwrap();
        assert_eq!(two.len(), 200);
        assert!(select_tasks(set, Tier::Ball, Some(&[50]), None).is_err());
    }
}
