//! `parity`: a small reference run, thread-count independence and checkpoint resume.

use crate::common::{fails, ok, s, TWO_TIER_REFERENCE};

#[test]
fn parity_runs_a_small_reference() {
    let dir = tempfile::tempdir().unwrap();
    let reference = dir.path().join("ref.csv");
    let report = dir.path().join("parity.md");
    std::fs::write(
        &reference,
        "task_id,tier,kind,index,action,status\n\
         00000:000,ball,random,0,0.30972137866952065 0.12865169553462075 0.11986046093691927,-1\n\
         00000:000,ball,random,1,1.5 0.5 0.5,0\n",
    )
    .unwrap();
    let out = ok(&[
        "parity",
        "--reference",
        s(&reference),
        "--random-per-task",
        "0",
        "--out",
        s(&report),
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("JSON summary");
    assert_eq!(v["rows"], 2, "{v}");
    assert!(report.exists());
    fails(&["parity", "--reference", "/nonexistent.csv"]);
    std::fs::write(&reference, "a,b\n1,2\n").unwrap();
    fails(&[
        "parity",
        "--reference",
        s(&reference),
        "--random-per-task",
        "0",
    ]);
    fails(&["parity", "--out", "/nonexistent-dir/p.md"]);
}

#[test]
fn parity_is_thread_independent_and_resumes_from_its_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n);
    std::fs::write(p("ref.csv"), TWO_TIER_REFERENCE).unwrap();
    let run = |threads: &str, out: &str, extra: &[&str]| {
        let reference = p("ref.csv");
        let report = p(out);
        let mut args = vec!["--threads", threads, "parity", "--reference", s(&reference)];
        args.extend([
            "--random-per-task",
            "1",
            "--random-per-task-2b",
            "0",
            "--out",
        ]);
        args.extend([s(&report), "--json"]);
        args.extend_from_slice(extra);
        let json = ok(&args);
        (json, std::fs::read(p(out)).unwrap())
    };
    let ckpt = p("p.ckpt");
    let one = run("1", "one.md", &[]);
    let two = run("2", "two.md", &["--checkpoint", s(&ckpt)]);
    assert_eq!(one, two, "1 and 2 threads differ");
    let v: serde_json::Value = serde_json::from_str(one.0.trim()).unwrap();
    assert_eq!(v["rows"], 2, "{v}");
    // The report's per-template table has rephyre's own rates from 2,500 ball-tier draws.
    let md = String::from_utf8(one.1.clone()).unwrap();
    assert!(md.contains("| ball | 00000 |"), "{md}");
    // Resuming from the finished checkpoint runs nothing and gives the same report.
    let resumed = run("2", "resumed.md", &["--checkpoint", s(&ckpt), "--resume"]);
    assert_eq!(one, resumed);
    // A checkpoint of other options is refused.
    let other = p("ref.csv");
    fails(&[
        "parity",
        "--reference",
        s(&other),
        "--random-per-task",
        "2",
        "--checkpoint",
        s(&ckpt),
        "--resume",
    ]);
}
