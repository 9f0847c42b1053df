//! What the shared-scene and status-only tests both draw their runs from: random actions on two
//! tasks of every template, and the committed witnesses' solving actions.

use studies::witness::parse_witnesses;
use tasks::{sample_action, Task, TaskSet, Tier};

const WITNESSES: &str = tasks::witnesses::BUILTIN;

/// The first two tasks of each of the 50 templates (both tiers), in template order.
pub fn two_tasks_per_template(set: &TaskSet) -> Vec<&Task> {
    let tasks: Vec<&Task> = set
        .templates()
        .into_iter()
        .flat_map(|t| set.template(t).iter().take(2))
        .collect();
    assert_eq!(tasks.len(), 100, "two tasks of each of the 50 templates");
    tasks
}

/// The random actions of `tier` drawn from `seed` and `stream`, in order (valid or not).
pub fn random_actions(tier: Tier, seed: u64, stream: u64) -> impl Iterator<Item = Vec<f64>> {
    let mut index = 0;
    std::iter::repeat_with(move || sample_action(tier, seed, stream, &mut index))
}

/// Every `step`-th row of the committed witness file, where it has a witness: the task and its
/// solving action.
pub fn witnessed_actions(set: &TaskSet, step: usize) -> Vec<(&Task, Vec<f64>)> {
    parse_witnesses(WITNESSES)
        .expect("the committed witness file parses")
        .into_iter()
        .step_by(step)
        .filter(|r| r.found)
        .map(|r| (set.lookup(&r.task_id).expect("known task"), r.action))
        .collect()
}
