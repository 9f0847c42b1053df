//! `audit`: the CI plan matches the committed golden, a tampered golden is reported, and a
//! trace prints its steps.

use crate::common::{fails, ok, s};

#[test]
fn audit_ci_plan_matches_the_committed_golden() {
    let out = ok(&["audit", "--subset", "ci"]);
    assert!(out.contains("MATCH 502 runs"), "{out}");
    // A golden written by this build matches itself, and a tampered one is reported.
    let dir = tempfile::tempdir().unwrap();
    let g = dir.path().join("g.txt");
    ok(&["audit", "--subset", "ci", "--write-golden", s(&g)]);
    let text = std::fs::read_to_string(&g).unwrap();
    let tampered = text.replacen(" NOT_SOLVED 1000 ", " SOLVED 1000 ", 1);
    std::fs::write(&g, tampered).unwrap();
    assert!(fails(&["audit", "--subset", "ci", "--golden", s(&g)]).contains("MISMATCH"));
    let trace = ok(&["audit", "--trace", "00000:000:1", "--steps", "3"]);
    assert_eq!(trace.lines().count(), 4, "{trace}");
}
