//! Fidelity ratchet: on a fixed seventh of the original's reference rows (every 7th row of
//! outcomes-A.csv, committed in studies/data), rephyre must keep the agreement it has reached.
//! Raise the floors when the engine gets closer to the original; never lower them silently.
//! Full figures: `rephyre parity` and docs/fidelity.md.

use rayon::prelude::*;
use studies::parity::{builtin_reference, parse_reference, RowKind};
use tasks::Status;

/// Ratchets, in rows, at the measured values (2026-11-22, again 2026-11-28: the engine is
/// deterministic, so the counts are exact): validity differs from the original's on no row;
/// random actions valid in both whose status differs (of 10,545), stored stable solutions
/// rephyre does not solve (of 1,528). Lower them when the engine improves.
const MAX_RANDOM_MISMATCHES: usize = 10;
const MAX_STABLE_MISSES: usize = 20;

#[test]
fn agreement_with_the_original_does_not_regress() {
    let rows = parse_reference(&builtin_reference().unwrap()).unwrap();
    let set = tasks::TaskSet::builtin();
    let sample: Vec<_> = rows.iter().step_by(7).collect();
    let ours: Vec<Status> = sample
        .par_iter()
        .map(|r| {
            let task = set.lookup(&r.task_id).unwrap();
            tasks::status(task, tasks::Tier::parse(&r.tier).unwrap(), &r.action)
        })
        .collect();
    let mut valid_same = 0usize;
    let (mut both, mut agree, mut stable, mut stable_ok) = (0usize, 0usize, 0usize, 0usize);
    for (r, &o) in sample.iter().zip(&ours) {
        valid_same += (r.status.is_valid() == o.is_valid()) as usize;
        match r.kind {
            RowKind::Random if r.status.is_valid() && o.is_valid() => {
                both += 1;
                agree += (r.status == o) as usize;
            }
            RowKind::StableSolution => {
                stable += 1;
                stable_ok += (o == Status::Solved) as usize;
            }
            _ => {}
        }
    }
    let validity = valid_same as f64 / sample.len() as f64;
    let random = agree as f64 / both as f64;
    let recall = stable_ok as f64 / stable as f64;
    println!("rows {} validity {validity:.5} random agreement {random:.5} ({both}) stable recall {recall:.5} ({stable})", sample.len());
    // The sample itself is fixed: the ratchets below count rows of exactly these.
    assert_eq!((sample.len(), both, stable), (20_240, 10_545, 1_528));
    let validity_mismatches = sample.len() - valid_same;
    assert_eq!(
        validity_mismatches, 0,
        "validity differs on {validity_mismatches} rows (measured 0)"
    );
    let random_mismatches = both - agree;
    assert!(
        random_mismatches <= MAX_RANDOM_MISMATCHES,
        "random-action status differs on {random_mismatches} rows (measured {MAX_RANDOM_MISMATCHES})"
    );
    let stable_misses = stable - stable_ok;
    assert!(
        stable_misses <= MAX_STABLE_MISSES,
        "{stable_misses} stable solutions not solved (measured {MAX_STABLE_MISSES})"
    );
}

/// Scenes that solve themselves with no action (none does in the original; 00008:540 and
/// 00012:208 do in rephyre, measured 2026-11-23). A ratchet: lower it when the engine improves.
const MAX_SELF_SOLVING: usize = 2;

#[test]
fn self_solving_scenes_do_not_increase() {
    let set = tasks::TaskSet::builtin();
    let solving: Vec<String> = set
        .tasks()
        .par_iter()
        .filter(|t| tasks::simulate_scene(t, tasks::SimOptions::default()).is_ok_and(|o| o.solved))
        .map(|t| t.id().to_string())
        .collect();
    println!("self-solving scenes: {solving:?}");
    assert!(
        solving.len() <= MAX_SELF_SOLVING,
        "{} scenes solve themselves: {solving:?}",
        solving.len()
    );
}
