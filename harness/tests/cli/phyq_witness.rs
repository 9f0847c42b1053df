//! `phyq-witness`: the committed witnesses replay through `simulate --shots`; a run writes the
//! file and its summary, the same bytes on any thread count and after a resume; `--verify`
//! accepts a good file and refuses a broken one with one line and exit 2; on an imported level
//! set (`--tasks F`) each level is checked as it is.

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
}

#[test]
fn a_level_set_is_checked_level_by_level() {
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n);
    let templates = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../phyq/data/templates");
    // Two template levels and one of them under a file name that is no task id.
    std::fs::copy(templates.join("1_1_1_1.xml"), p("1_1_1_1.xml")).unwrap();
    std::fs::copy(templates.join("1_1_4_1.xml"), p("lone-pig.xml")).unwrap();
    let set = p("set.json");
    ok(&[
        "tasks",
        "import-levels",
        s(&p("1_1_1_1.xml")),
        s(&p("lone-pig.xml")),
        "--out",
        s(&set),
    ]);
    let (out, md) = (p("w.csv"), p("w.md"));
    let said = ok(&[
        "--tasks",
        s(&set),
        "phyq-witness",
        "--out",
        s(&out),
        "--summary",
        s(&md),
    ]);
    assert!(
        said.contains("2 tasks: 2 sound (0 of them redrawn)"),
        "{said}"
    );
    let text = std::fs::read_to_string(&out).unwrap();
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip(1)
        .map(|l| l.splitn(8, ',').collect())
        .collect();
    assert_eq!(rows.len(), 2, "{text}");
    assert_eq!(
        rows[0][..4],
        ["phyq:1_1_1:00001", "1_1_1", "0", "true"],
        "{text}"
    );
    assert_eq!(rows[1][..4], ["phyq:lone-pig", "", "0", "true"], "{text}");
    // The witnesses replay on the set's levels, and --verify checks them there.
    for r in &rows {
        let v = ok(&[
            "--tasks",
            s(&set),
            "simulate",
            r[0],
            "--json",
            "--shots",
            r[7],
        ]);
        assert!(v.contains("\"status\":\"passed\""), "{v}");
    }
    let v = ok(&["--tasks", s(&set), "phyq-witness", "--verify", s(&out)]);
    assert!(v.contains("2 witnesses, 2 verified, 0 failed"), "{v}");
    let summary = std::fs::read_to_string(&md).unwrap();
    assert!(
        summary.contains("| 1.4 (1_1_1) | 1 single force | 1 | 1 | 1 |"),
        "{summary}"
    );
    assert!(
        summary.contains("| levels without a template |  | 1 | 1 | 1 |"),
        "{summary}"
    );
    // The generator's options are not the set's: said, not ignored; a PHYRE file is refused.
    let err = fails(&[
        "--tasks",
        s(&set),
        "phyq-witness",
        "--seed",
        "3",
        "--out",
        s(&out),
    ]);
    assert!(err.contains("--seed is for the generator's tasks"), "{err}");
    let err = fails(&[
        "--tasks",
        s(&set),
        "phyq-witness",
        "--per-template",
        "3",
        "--out",
        s(&out),
    ]);
    assert!(
        err.contains("--per-template is for the generator's tasks"),
        "{err}"
    );
    let phyre = p("phyre.rpts");
    let original =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tasks/tests/data/tasks.bin.lzma");
    ok(&["tasks", "import", s(&original), "--out", s(&phyre)]);
    let err = fails(&["--tasks", s(&phyre), "phyq-witness", "--out", s(&out)]);
    assert!(err.contains("holds PHYRE tasks"), "{err}");
}
