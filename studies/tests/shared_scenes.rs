//! Shared scenes ([`tasks::TaskScene`], [`engine::SceneRecording`]): a task's scene is stepped
//! once and recorded, and each action's run steps only its balls until they meet a moving scene
//! body, then continues from the merged state. These tests check, on PHYRE's own tasks, that the
//! outcome is the plain run's bit for bit — status, solved step, steps covered and computed,
//! first touch and the final state's hash (which covers every body, every contact's manifold,
//! impulses and creation number) — in full and in status-only runs; and that the recording was
//! really used for a large share of the steps, so that the comparison tested the merge.

mod common;

use common::{random_actions, two_tasks_per_template, witnessed_actions};
use derive_more::{Add, Sum};
use rayon::prelude::*;
use tasks::{simulate, validate_action, SimOptions, TaskScene, TaskSet};

#[derive(Default, Clone, Copy, Add, Sum)]
struct Tally {
    runs: u64,
    solved: u64,
    /// Steps covered by the runs, and those in which the scene came from the recording.
    steps: u64,
    shared_steps: u64,
    /// Runs that merged before their end (a ball met a moving scene body).
    merged: u64,
}

impl Tally {
    /// At least half of the runs merged (a ball met a moving scene body, or all came to rest),
    /// so the comparison covered the merge, not only the recording.
    fn assert_most_merged(&self) {
        assert!(
            self.merged * 2 >= self.runs,
            "only {} of {} runs merged",
            self.merged,
            self.runs
        );
    }
}

/// Run `action` plainly and through `scene`, full and status-only, and compare.
fn compare(scene: &TaskScene, action: &[f64]) -> Tally {
    let task = scene.task();
    let Ok(valid) = validate_action(task, task.tier(), action) else {
        return Tally::default();
    };
    let what = format!("{} {:?}", task.id(), action);
    let mut tally = Tally::default();
    for opts in [SimOptions::default(), SimOptions::STATUS_ONLY] {
        let plain = simulate(task, &valid, opts).expect("world builds");
        let (shared, shared_steps) = scene.simulate_shared(&valid, opts).expect("world builds");
        assert_eq!(shared, plain, "shared-scene run differs ({opts:?}): {what}");
        if !opts.status_only {
            tally = Tally {
                runs: 1,
                solved: plain.solved as u64,
                steps: plain.steps as u64,
                shared_steps: shared_steps as u64,
                merged: (shared_steps < plain.steps) as u64,
            };
        }
    }
    tally
}

#[test]
fn shared_scenes_give_the_plain_run_on_random_actions() {
    let set = TaskSet::builtin();
    let t: Tally = two_tasks_per_template(set)
        .par_iter()
        .enumerate()
        .map(|(k, task)| {
            let scene = TaskScene::new(task);
            random_actions(task.tier(), 0x5ce7e, k as u64)
                .take(24)
                .map(|a| compare(&scene, &a))
                .sum()
        })
        .sum();
    assert!(t.runs >= 1200, "only {} valid runs", t.runs);
    // The recording stood in for the scene in a large share of the steps, and most runs still
    // merged (their balls met a moving body), so both halves of the path were compared.
    assert!(
        t.shared_steps * 4 >= t.steps,
        "the recording covered only {} of {} steps",
        t.shared_steps,
        t.steps
    );
    t.assert_most_merged();
}

#[test]
fn shared_scenes_give_the_plain_run_on_solving_actions() {
    let set = TaskSet::builtin();
    // Every 10th witness: 500 solving actions over all templates.
    let t: Tally = witnessed_actions(set, 10)
        .par_iter()
        .map(|(task, action)| compare(&TaskScene::new(task), action))
        .sum();
    assert!(
        t.runs >= 490 && t.solved == t.runs,
        "{} runs, {} solved",
        t.runs,
        t.solved
    );
    t.assert_most_merged();
}

#[test]
fn shared_scenes_decline_hash_chains_and_fall_back_to_the_plain_run() {
    let set = TaskSet::builtin();
    let task = &set.template(set.templates()[0])[0];
    let scene = TaskScene::new(task);
    let valid = random_actions(task.tier(), 7, 0)
        .find_map(|a| validate_action(task, task.tier(), &a).ok())
        .expect("random actions go on until one is valid");
    let opts = SimOptions {
        chain_hashes: true,
        ..SimOptions::default()
    };
    let (outcome, shared_steps) = scene.simulate_shared(&valid, opts).expect("world builds");
    assert_eq!(
        shared_steps, 0,
        "a hash chain needs every step's whole state"
    );
    assert_eq!(outcome, simulate(task, &valid, opts).expect("world builds"));
    assert_ne!(outcome.hash_chain, 0);
}
