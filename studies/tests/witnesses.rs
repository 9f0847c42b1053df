//! PHYRE-B and PHYRE-2B tasks are solvable in rephyre: the committed witness file
//! (`tasks/data/witnesses.csv`, written by `rephyre witness`) holds one stable solution for
//! each task the search could settle, and this test re-checks every one of them with the SPEC §8
//! stable-solution test (solved, and each of the 8 half-pixel neighbours solved or invalid).
//! An engine change that breaks a witness fails here; regenerate the file with the commands in
//! docs/fidelity.md. The number of witnessed tasks is a ratchet: raise it, never lower it.

use rayon::prelude::*;
use std::collections::BTreeMap;
use studies::witness::{parse_witnesses, verify_row, VerifyFailure};
use tasks::TaskSet;

const WITNESSES: &str = tasks::witnesses::BUILTIN;
/// Tasks with a witness in the committed file (of 5,000).
const MIN_WITNESSED: usize = 4999; // measured 2026-11-23: 2,499 B + 2,500 2B

#[test]
fn committed_witnesses_are_stable_solutions() {
    let set = TaskSet::builtin();
    let rows = parse_witnesses(WITNESSES).expect("the committed witness file parses");
    // One row per built-in task, with the task's own action tier.
    let mut by_id = BTreeMap::new();
    for r in &rows {
        assert!(
            by_id.insert(r.task_id.clone(), r).is_none(),
            "{} twice",
            r.task_id
        );
    }
    assert_eq!(by_id.len(), set.tasks().len());
    for task in set.tasks() {
        let r = by_id
            .get(&task.id().to_string())
            .unwrap_or_else(|| panic!("no row for {}", task.id()));
        assert_eq!(r.tier, task.tier(), "{}", r.task_id);
        if r.found {
            assert_eq!(r.balls.len(), task.tier().action_len() / 3);
        }
    }
    let witnessed = rows.iter().filter(|r| r.found).count();
    assert!(
        witnessed >= MIN_WITNESSED,
        "only {witnessed} tasks have a witness (floor {MIN_WITNESSED})"
    );
    let failures: Vec<(String, VerifyFailure)> = rows
        .par_iter()
        .filter_map(|r| {
            verify_row(set, r)
                .expect("known task")
                .map(|f| (r.task_id.clone(), f))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} witnesses no longer stable, e.g. {:?}",
        failures.len(),
        &failures[..failures.len().min(10)]
    );
}
