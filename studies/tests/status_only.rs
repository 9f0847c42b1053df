//! The status-only path ([`tasks::SimOptions::status_only`]) stops a run as soon as its status
//! is decided. These tests check, against the full run, that it never changes what it claims to
//! keep: solved / not solved, the solved step, and the steps covered; and that it computes no
//! more steps than the full run. Random actions on two tasks of every template (both tiers)
//! give the not-solved exits; the committed witnesses give solved runs, many of which come to
//! rest while the goal holds (the at-rest exit).

mod common;

use common::{random_actions, two_tasks_per_template, witnessed_actions};
use derive_more::{Add, Sum};
use rayon::prelude::*;
use tasks::{simulate, validate_action, Outcome, SimOptions, Task, TaskSet};

const STATUS_ONLY: SimOptions = SimOptions::STATUS_ONLY;

/// What the two runs of one action showed.
#[derive(Default, Clone, Copy, Add, Sum)]
struct Tally {
    runs: u64,
    solved: u64,
    /// Not solved, and status-only computed fewer steps than the full run (the time exit).
    shorter_not_solved: u64,
    /// Solved, and the world came to rest during the hold (the at-rest exit decides these).
    rest_solved: u64,
    steps_full: u64,
    steps_status: u64,
}

/// Run `action` both ways and check the status-only outcome against the full one.
fn compare(task: &Task, action: &[f64]) -> Tally {
    let Ok(valid) = validate_action(task, task.tier(), action) else {
        return Tally::default();
    };
    let full: Outcome = simulate(task, &valid, SimOptions::default()).expect("world builds");
    let fast: Outcome = simulate(task, &valid, STATUS_ONLY).expect("world builds");
    let what = format!("{} {:?}", task.id(), action);
    assert_eq!(fast.solved, full.solved, "status differs: {what}");
    assert_eq!(
        fast.solved_step, full.solved_step,
        "solved step differs: {what}"
    );
    assert_eq!(fast.steps, full.steps, "steps covered differ: {what}");
    assert!(
        fast.stepped <= full.stepped,
        "status-only stepped more: {what}"
    );
    let shorter = fast.stepped < full.stepped;
    Tally {
        runs: 1,
        solved: full.solved as u64,
        shorter_not_solved: (shorter && !full.solved) as u64,
        rest_solved: (full.solved && full.stepped < full.steps) as u64,
        steps_full: full.stepped as u64,
        steps_status: fast.stepped as u64,
    }
}

#[test]
fn status_only_keeps_status_and_solved_step_on_random_actions() {
    let set = TaskSet::builtin();
    let t: Tally = two_tasks_per_template(set)
        .par_iter()
        .enumerate()
        .map(|(k, task)| {
            random_actions(task.tier(), 0x57a7, k as u64)
                .take(32)
                .map(|a| compare(task, &a))
                .sum()
        })
        .sum();
    // Enough valid runs, and the time exit was taken often (so the comparison tested it).
    assert!(t.runs >= 1500, "only {} valid runs", t.runs);
    assert!(
        t.shorter_not_solved * 10 >= t.runs - t.solved,
        "the status-only exit shortened only {} of {} not-solved runs",
        t.shorter_not_solved,
        t.runs - t.solved
    );
    assert!(t.steps_status < t.steps_full);
}

#[test]
fn status_only_keeps_status_and_solved_step_on_solving_actions() {
    let set = TaskSet::builtin();
    // Every 5th witness: 1,000 solving actions over all templates.
    let t: Tally = witnessed_actions(set, 5)
        .par_iter()
        .map(|(task, action)| compare(task, action))
        .sum();
    assert!(
        t.runs >= 990 && t.solved == t.runs,
        "{} runs, {} solved",
        t.runs,
        t.solved
    );
    // Many solved runs came to rest while the goal held: status-only decided those at rest,
    // before the hold completed.
    assert!(
        t.rest_solved * 10 >= t.runs,
        "only {} of {} solved runs came to rest during the hold",
        t.rest_solved,
        t.runs
    );
}
