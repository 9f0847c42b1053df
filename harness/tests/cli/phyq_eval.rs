//! `phyq-eval`: on the 75 templates imported as levels (task 1 of each), the broad setting
//! plays the 34 testing templates; the report is the same bytes on any thread count, after a
//! resume and merged from shards; `--json` carries the figures; bad input is one line, exit 2.

use crate::common::{fails, ok, s};
use std::path::{Path, PathBuf};

/// The 75 templates as a level set in `dir`.
fn templates_set(dir: &Path) -> PathBuf {
    let set = dir.join("templates.json");
    let templates = Path::new(env!("CARGO_MANIFEST_DIR")).join("../phyq/data/templates");
    ok(&["tasks", "import-levels", s(&templates), "--out", s(&set)]);
    set
}

fn eval<'a>(set: &'a Path, threads: &'a str, rest: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec![
        "--tasks",
        s(set),
        "--threads",
        threads,
        "phyq-eval",
        "--agent",
        "pig-shooter",
        "--setting",
        "broad",
        "--attempts",
        "2",
    ];
    v.extend_from_slice(rest);
    v
}

#[test]
fn the_report_is_the_same_on_any_thread_count_resume_and_shards() {
    let dir = tempfile::tempdir().unwrap();
    let set = templates_set(dir.path());
    let p = |n: &str| dir.path().join(n);
    let (a, b, m, mmd) = (p("a.csv"), p("b.csv"), p("merged.csv"), p("m.md"));
    let (asvg, msvg) = (p("a.svg"), p("m.svg"));
    let said = ok(&eval(
        &set,
        "1",
        &[
            "--out",
            s(&a),
            "--summary",
            s(&p("a.md")),
            "--plot",
            s(&asvg),
            "--json",
        ],
    ));
    // With --json, stdout is the figures alone: one JSON line, no report line before it.
    assert_eq!(said.lines().count(), 1, "{said}");
    let last = said.trim_end();
    let v: serde_json::Value = serde_json::from_str(last).unwrap();
    assert_eq!(v["tasks"], 34, "{last}");
    assert_eq!(v["attempts"], 2);
    // The pig shooter's attempts stop at a task's first pass, as the paper ran it.
    assert_eq!(v["attempt_rule"], "until-pass", "{last}");
    // The measured figures (the run is the same bits everywhere: a change that moves them
    // says so here): tasks' rates summing to 4.5 of 34, every task of scenario 2 passed at its
    // first attempt (the pig shooter as the paper ran it, its planner and wrapper, since
    // 2026-12-05).
    assert_eq!(v["pass_rate"].as_f64().unwrap(), 4.5 / 34.0, "{last}");
    assert_eq!(v["per_scenario"]["2"].as_f64().unwrap(), 1.0, "{last}");
    let score = v["phyq_score"].as_f64().unwrap();
    assert!((score - 3.438_246_456).abs() < 1e-6, "{last}");
    // Scenario 1's testing templates (1.4, 1.5): the pig shooter passes them as written.
    assert!(v["per_scenario"]["1"].as_f64().unwrap() >= 0.5, "{last}");
    // One task per template is a score's whole input here: every scenario has one.
    assert!(v["phyq_score"].is_number(), "{last}");
    // Beside the paper's Pig Shooter per template: the 34 test templates, each rate in
    // per_template, the agreement's figures in range.
    let per = v["per_template"].as_object().unwrap();
    assert_eq!(per.len(), 34, "{last}");
    let pa = &v["paper_agreement"];
    assert_eq!(pa["by"], "template", "{last}");
    assert_eq!(pa["compared"], 34, "{last}");
    let mad = pa["mean_abs_diff"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&mad), "{last}");
    assert!(pa["within_0_15"].as_u64().unwrap() <= 34, "{last}");
    let md = std::fs::read_to_string(p("a.md")).unwrap();
    assert!(md.contains("paper's Pig Shooter (%)"), "{md}");
    ok(&eval(
        &set,
        "2",
        &["--out", s(&b), "--checkpoint", s(&p("c.ckpt"))],
    ));
    let text = std::fs::read_to_string(&a).unwrap();
    assert_eq!(text, std::fs::read_to_string(&b).unwrap());
    // `--json` alone (no file written): the same figures.
    let alone = ok(&eval(&set, "2", &["--json"]));
    assert_eq!(alone, said);
    assert_eq!(text.lines().count(), 35);
    // Until the first pass: 64 attempts, not 2 × 34 (four tasks passed at their first attempt,
    // one at its second: 5 passes, one each).
    let (header, rows) = crate::common::parse_csv(&text);
    let sum = |c: &str| -> u32 {
        let k = crate::common::col(&header, c);
        rows.iter().map(|r| r[k].parse::<u32>().unwrap()).sum()
    };
    assert_eq!((sum("attempts"), sum("passes")), (64, 5), "{text}");
    // Resuming a finished checkpoint recomputes nothing and writes the same bytes.
    let r = p("r.csv");
    ok(&eval(
        &set,
        "2",
        &["--out", s(&r), "--checkpoint", s(&p("c.ckpt")), "--resume"],
    ));
    assert_eq!(text, std::fs::read_to_string(&r).unwrap());
    // Shards, merged.
    let parts: Vec<PathBuf> = (1..=3).map(|k| p(&format!("part-{k}.json"))).collect();
    for (k, part) in parts.iter().enumerate() {
        let shard = format!("{}/3", k + 1);
        ok(&eval(&set, "1", &["--shard", &shard, "--out", s(part)]));
    }
    let mut merge = vec!["--tasks", s(&set), "merge"];
    merge.extend(parts.iter().map(|x| s(x)));
    merge.extend(["--out", s(&m), "--summary", s(&mmd), "--plot", s(&msvg)]);
    ok(&merge);
    assert_eq!(text, std::fs::read_to_string(&m).unwrap());
    assert_eq!(
        std::fs::read_to_string(p("a.md")).unwrap(),
        std::fs::read_to_string(&mmd).unwrap()
    );
    assert_eq!(std::fs::read(&asvg).unwrap(), std::fs::read(&msvg).unwrap());
    // The first passing shots replay through `simulate` (the templates are levels of the set).
    let (id, shots) = (
        crate::common::col(&header, "task_id"),
        crate::common::col(&header, "first_pass"),
    );
    let row = rows.iter().find(|r| !r[shots].is_empty()).expect("a pass");
    let out = ok(&[
        "--tasks",
        s(&set),
        "simulate",
        &row[id],
        "--shots",
        &row[shots],
        "--json",
    ]);
    assert!(out.contains("\"status\":\"passed\""), "{out}");
}

#[test]
fn bad_input_is_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let set = templates_set(dir.path());
    let out = dir.path().join("x.csv");
    let mut zero = eval(&set, "1", &["--out", s(&out)]);
    zero[10] = "0";
    let e = fails(&zero);
    assert!(e.contains("--attempts must be 1 to"), "{e}");
    // Task 1 of each template trains in the local setting: nothing to test.
    let mut local = eval(&set, "1", &["--out", s(&out)]);
    local[8] = "local";
    let e = fails(&local);
    assert!(e.contains("no test task in the local setting"), "{e}");
    let e = fails(&[
        "phyq-eval",
        "--agent",
        "nobody",
        "--setting",
        "broad",
        "--out",
        s(&out),
    ]);
    assert!(e.contains("nobody"), "{e}");
    let e = fails(&eval(
        &set,
        "1",
        &["--out", s(&out), "--attempt-rule", "often"],
    ));
    assert!(e.contains("unknown attempt rule \"often\""), "{e}");
    let e = fails(&eval(
        &set,
        "1",
        &["--out", s(&out), "--shard", "1/2", "--json"],
    ));
    assert!(e.contains("--json"), "{e}");
    // Nothing to write: --out (or a report, or --json) is asked for.
    let e = fails(&eval(&set, "1", &["--shard", "1/2"]));
    assert!(e.contains("--out"), "{e}");
    let e = fails(&eval(&set, "1", &[]));
    assert!(e.contains("--out"), "{e}");
    let missing = dir.path().join("missing.json");
    let e = fails(&[
        "--tasks",
        s(&missing),
        "phyq-eval",
        "--agent",
        "random",
        "--setting",
        "all",
        "--out",
        s(&out),
    ]);
    assert!(e.contains("missing.json"), "{e}");
}
