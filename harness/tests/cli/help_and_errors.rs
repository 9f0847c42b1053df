//! Every command's `--help` has examples (and hides what should stay hidden); command-line
//! errors are one line with exit status 2.

use crate::common::{fails, ok};

#[test]
fn every_command_has_help_with_examples() {
    for cmd in [
        vec!["--help"],
        vec!["tasks", "list", "--help"],
        vec!["tasks", "show", "--help"],
        vec!["tasks", "import", "--help"],
        vec!["simulate", "--help"],
        vec!["render", "--help"],
        vec!["solvability", "--help"],
        vec!["diversity", "--help"],
        vec!["random-curve", "--help"],
        vec!["bench", "--help"],
        vec!["parity", "--help"],
        vec!["witness", "--help"],
        vec!["merge", "--help"],
        vec!["slurm", "--help"],
    ] {
        let out = ok(&cmd);
        assert!(out.contains("EXAMPLES:"), "{cmd:?}: {out}");
        assert!(out.contains("rephyre "), "{cmd:?}");
    }
    // The hidden checkpoint interval stays hidden.
    assert!(!ok(&["solvability", "--help"]).contains("checkpoint-secs"));
}

#[test]
fn command_line_errors_are_one_line() {
    fails(&[]);
    fails(&["bogus"]);
    fails(&["tasks"]);
    // A missing argument is named on the error's line.
    assert!(fails(&["simulate", "00000:000"]).contains("not provided: --action <A>"));
    fails(&["--threads", "0", "tasks", "list"]);
    fails(&["--threads", "x", "tasks", "list"]);
    fails(&["tasks", "list", "--tier", "three_balls"]);
    assert!(fails(&["solvability", "--tier", "ball"]).contains("not provided: --out <FILE>"));
    fails(&[
        "solvability",
        "--tier",
        "ball",
        "--out",
        "x.csv",
        "--resume",
    ]);
    // A rule of the study's parameters, checked by the study, still gives the one-line error.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s.csv");
    let e = fails(&[
        "solvability",
        "--tier",
        "ball",
        "--batch",
        "0",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(e.contains("--batch must be at least 1"), "{e}");
}
