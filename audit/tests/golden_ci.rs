//! The CI plan, PHYRE and Phy-Q runs, against the committed golden (what every platform of
//! scripts/cross-audit.sh is compared with), and a Phy-Q difference found where it was made.

use audit::{AuditPlan, Golden};

fn committed() -> Golden {
    audit::parse_golden(include_str!("../../tests/golden/audit-ci.txt")).unwrap()
}

#[test]
fn ci_plan_matches_the_committed_golden() {
    let want = committed();
    assert_eq!((want.phyre.len(), want.phyq.len()), (502, 75));
    let got = audit::audit_all(tasks::TaskSet::builtin(), AuditPlan::CI).unwrap();
    if let Some(m) = want.first_mismatch(&got, AuditPlan::CI.checkpoint_stride) {
        panic!("{m}");
    }
    // Every run records one checkpoint per 10 steps, and its shots end in order at its last step.
    for r in &got.phyq {
        assert_eq!(r.checkpoints.len() as u32, r.steps / 10, "{}", r.task_id);
        assert!(r.shot_ends.windows(2).all(|w| w[0] < w[1]), "{}", r.task_id);
        assert_eq!(r.shot_ends.last().copied().unwrap_or(100), r.steps);
        assert_eq!(r.passed, r.pigs_left == 0);
    }
}

#[test]
fn a_phyq_run_replays_to_its_golden_line_under_any_stride() {
    let want = committed();
    let r = &want.phyq[0];
    let id: phyq::LevelId = r.task_id.parse().unwrap();
    let again = audit::phyq_audit::audit_phyq_task(&id, 10).unwrap();
    assert_eq!(&again, r);
    // The same level under another stride keeps the run and its final state.
    let coarse = audit::phyq_audit::audit_phyq_task(&id, 50).unwrap();
    assert_eq!((coarse.steps, coarse.final_hash), (r.steps, r.final_hash));
    assert_eq!(coarse.checkpoints.len() as u32, r.steps / 50);
    // Not a built-in task: an error, not a panic.
    let outside: phyq::LevelId = "phyq:1_1_4:00101".parse().unwrap();
    let e = audit::phyq_audit::audit_phyq_task(&outside, 10).unwrap_err();
    assert!(e.to_string().contains("not a built-in Phy-Q task"), "{e}");
}
