//! `phyq-witness`: the committed witnesses replay through `simulate --shots`; a run writes the
//! file and its summary, the same bytes on any thread count and after a resume; `--verify`
//! accepts a good file and refuses a broken one with one line and exit 2.

use crate::common::{fails, ok, s};

const COMMITTED: &str = include_str!("../../../phyq/data/witnesses.csv");

#[test]
fn committed_witnesses_pass_through_simulate() {
    let rows: Vec<Vec<&str>> = COMMITTED
        .lines()
        .skip(1)
        .map(|l| l.splitn(8, ',').collect())
        .collect();
    // The first row, the first redrawn one and the first of more than one shot.
    let picks = [
        rows.iter().find(|r| r[3] == "true"),
        rows.iter().find(|r| r[3] == "true" && !r[4].is_empty()),
        rows.iter().find(|r| r[3] == "true" && r[7].contains(';')),
    ];
    for r in picks {
        let r = r.expect("the file has such a row");
        let out = ok(&["simulate", r[0], "--json", "--shots", r[7]]);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["status"], "passed", "{} {}", r[0], r[7]);
        assert_eq!(v["pigs_left"], 0);
    }
}

#[test]
fn a_run_writes_the_same_bytes_on_any_thread_count_and_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n);
    let args = |threads: &'static str, out: &std::path::Path| {
        vec![
            "--threads".to_string(),
            threads.to_string(),
            "phyq-witness".into(),
            "--templates".into(),
            "1_1_4,2.3".into(),
            "--per-template".into(),
            "3".into(),
            "--out".into(),
            s(out).to_string(),
        ]
    };
    let md = p("a.md");
    let a: Vec<String> = args("1", &p("a.csv"));
    let mut a: Vec<&str> = a.iter().map(String::as_str).collect();
    a.extend(["--summary", s(&md)]);
    let said = ok(&a);
    assert!(said.contains("6 tasks:"), "{said}");
    let b: Vec<String> = args("2", &p("b.csv"));
    ok(&b.iter().map(String::as_str).collect::<Vec<_>>());
    let text = std::fs::read_to_string(p("a.csv")).unwrap();
    assert_eq!(text, std::fs::read_to_string(p("b.csv")).unwrap());
    // The rows are the committed file's rows for the same tasks.
    for line in text.lines().skip(1) {
        assert!(COMMITTED.lines().any(|l| l == line), "{line}");
    }
    let summary = std::fs::read_to_string(p("a.md")).unwrap();
    assert!(
        summary.contains("| 1.1 (1_1_4) | 1 single force | 3 |"),
        "{summary}"
    );
    let v = ok(&["phyq-witness", "--verify", s(&p("a.csv"))]);
    assert!(v.contains("0 failed"), "{v}");
}

#[test]
fn verify_refuses_a_broken_witness_and_a_bad_file() {
    let dir = tempfile::tempdir().unwrap();
    let header = COMMITTED.lines().next().unwrap();
    let row = COMMITTED.lines().nth(1).unwrap();
    // The first task's release turned 90° (towards the ground): it no longer passes.
    let fields: Vec<&str> = row.splitn(8, ',').collect();
    let broken = format!("{},0,10,0", fields[..7].join(","));
    let path = dir.path().join("broken.csv");
    std::fs::write(&path, format!("{header}\n{broken}\n")).unwrap();
    let err = fails(&["phyq-witness", "--verify", s(&path)]);
    assert!(err.contains("1 witnesses in"), "{err}");
    let bad = dir.path().join("bad.csv");
    std::fs::write(&bad, "id,shots\n").unwrap();
    let err = fails(&["phyq-witness", "--verify", s(&bad)]);
    assert!(err.contains("not a Phy-Q witness file"), "{err}");
    let err = fails(&[
        "phyq-witness",
        "--templates",
        "9_9_9",
        "--out",
        s(&dir.path().join("x.csv")),
    ]);
    assert!(err.contains("unknown Phy-Q template"), "{err}");
    // A level set is not the generator's tasks: said, not ignored.
    let err = fails(&["--tasks", s(&bad), "phyq-witness", "--verify", s(&path)]);
    assert!(err.contains("does not take --tasks"), "{err}");
}
