//! `solvability`: the CSV's rules, bytes independent of the thread count, kill and resume from
//! a checkpoint, an unsolvable decision with a large p0, and bad input.

use std::process::{Output, Stdio};

use crate::common::{bin, col, fails, kill_when, ok, parse_csv, run, s, simulate_json};

const SOLV_SMALL: [&str; 12] = [
    "solvability",
    "--tier",
    "ball",
    "--templates",
    "00000-00001",
    "--tasks-per-template",
    "1",
    "--min-valid",
    "200",
    "--max-valid",
    "1000",
    "--quiet",
];

fn solvability(extra: &[&str], threads: &str) -> Output {
    let mut a = vec!["--threads", threads];
    a.extend_from_slice(&SOLV_SMALL);
    a.extend_from_slice(&["--batch", "100"]);
    a.extend_from_slice(extra);
    run(&a)
}

/// Check a solvability CSV against the rules it must obey; returns its rows.
fn check_solvability_csv(text: &str, min_valid: u64, max_valid: u64) -> Vec<Vec<String>> {
    let (h, rows) = parse_csv(text);
    assert_eq!(
        h.join(","),
        "task_id,tier,valid,invalid,solved,stable,p_solvable,p_unsolvable,p_stable_solvable,\
         p_stable_unsolvable,flags,samples_needed,solutions"
    );
    for r in &rows {
        let n = |c: &str| r[col(&h, c)].parse::<u64>().unwrap();
        let (valid, solved, stable) = (n("valid"), n("solved"), n("stable"));
        assert!(stable <= solved && solved <= valid, "{r:?}");
        assert!(valid <= max_valid, "{r:?}");
        let flags = &r[col(&h, "flags")];
        let decided = flags.contains("GOOD_STABLE") || flags.contains("BAD_STABLE");
        if decided {
            assert!(valid >= min_valid, "{r:?}");
            assert_eq!(r[col(&h, "samples_needed")], valid.to_string(), "{r:?}");
        } else {
            assert_eq!(valid, max_valid, "stopped early without a decision: {r:?}");
            assert_eq!(r[col(&h, "samples_needed")], "");
        }
        let sols: Vec<&str> = r[col(&h, "solutions")]
            .split(';')
            .filter(|x| !x.is_empty())
            .collect();
        assert_eq!(sols.len() as u64, stable.min(5), "{r:?}");
        for p in [
            "p_solvable",
            "p_unsolvable",
            "p_stable_solvable",
            "p_stable_unsolvable",
        ] {
            let v: f64 = r[col(&h, p)].parse().unwrap();
            assert!((0.0..=1.0).contains(&v), "{p} {v}");
        }
    }
    rows
}

#[test]
fn solvability_small_run_threads_and_kill_resume() {
    let dir = tempfile::tempdir().unwrap();
    let d = |n: &str| dir.path().join(n);
    let (csv1, md1, csv2, md2) = (d("1.csv"), d("1.md"), d("2.csv"), d("2.md"));
    let o = solvability(&["--out", s(&csv1), "--summary", s(&md1)], "1");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("2 tasks:"), "{stdout}");
    let o = solvability(&["--out", s(&csv2), "--summary", s(&md2)], "2");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let bytes1 = std::fs::read(&csv1).unwrap();
    assert_eq!(
        bytes1,
        std::fs::read(&csv2).unwrap(),
        "CSV differs by thread count"
    );
    assert_eq!(std::fs::read(&md1).unwrap(), std::fs::read(&md2).unwrap());

    let text = String::from_utf8(bytes1.clone()).unwrap();
    let rows = check_solvability_csv(&text, 200, 1000);
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0][0], "00000:000");
    assert_eq!(rows[1][0], "00001:000");
    // Hand-checked decision: with n ≤ 1000 valid actions and p0 = 1e-5, ≥ 3 stable solutions
    // give P(Bin(n, 1e-5) ≥ 3) < 1.7e-7 → solvable; unsolvable is out of reach
    // (P(Bin(1000, 2e-5) ≤ 0) ≈ 0.98).
    let (h, _) = parse_csv(&text);
    for r in &rows {
        let stable: u64 = r[col(&h, "stable")].parse().unwrap();
        let flags = &r[col(&h, "flags")];
        assert_eq!(flags.contains("GOOD_STABLE"), stable >= 3, "{r:?}");
        assert!(!flags.contains("BAD"), "{r:?}");
    }
    let md = std::fs::read_to_string(&md1).unwrap();
    assert!(
        md.contains("| 00000 | 1 |") && md.contains("| 00001 | 1 |") && md.contains("**all**"),
        "{md}"
    );

    // Every stored stable solution solves its task when simulated alone.
    let mut checked = 0;
    for r in &rows {
        for sol in r[col(&h, "solutions")].split(';').filter(|x| !x.is_empty()) {
            let action = sol.split(' ').collect::<Vec<_>>().join(",");
            let v = simulate_json(&[&r[0], "--action", &action]);
            assert_eq!(v["status"], "SOLVED", "{} {action}: {v}", r[0]);
            let solved_step = v["solved_step"].as_u64().unwrap();
            let first = v["first_touch_step"].as_u64().unwrap();
            assert!(solved_step >= 180 && first + 179 <= solved_step, "{v}");
            checked += 1;
        }
    }
    assert!(checked > 0, "no stable solution found to check: {text}");

    // Kill a checkpointed run part-way, resume it, and get the same bytes.
    let (csv3, md3, ckpt) = (d("3.csv"), d("3.md"), d("run.ckpt"));
    let mut args: Vec<String> = ["--threads", "2"].iter().map(|x| x.to_string()).collect();
    args.extend(SOLV_SMALL.iter().map(|x| x.to_string()));
    args.extend(
        [
            "--batch",
            "100",
            "--out",
            s(&csv3),
            "--summary",
            s(&md3),
            "--checkpoint",
            s(&ckpt),
            "--checkpoint-secs",
            "0.1",
        ]
        .iter()
        .map(|x| x.to_string()),
    );
    let mut child = bin()
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let partial = kill_when(&mut child, "a partial checkpoint", || {
        let t = std::fs::read_to_string(&ckpt).ok()?;
        let v: serde_json::Value = serde_json::from_str(&t).expect("checkpoints are whole");
        let tasks = v["tasks"].as_array().unwrap();
        let unfinished = tasks
            .iter()
            .any(|t| t[1] == false && t[2]["valid"].as_u64() > Some(0));
        unfinished.then_some(t)
    });
    assert!(!csv3.exists(), "a killed run wrote its report");
    // Resume: with different options it is refused; with the same ones it finishes.
    let mut other = args.clone();
    let batch_at = other.iter().position(|a| a == "--batch").unwrap();
    other[batch_at + 1] = "50".into();
    let o = bin().args(&other).arg("--resume").output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("different run"));
    // The resumed run has another thread count (3) than the killed one (2) and the first (1).
    let mut resumed = args.clone();
    resumed[1] = "3".into();
    let o = bin().args(&resumed).arg("--resume").output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read(&csv3).unwrap(), bytes1, "resumed CSV differs");
    assert_eq!(std::fs::read(&md3).unwrap(), std::fs::read(&md1).unwrap());
    assert!(partial.len() > 10);
}

/// A task's draws are evaluated in parallel chunks and counted in order: the bytes are the same
/// on 1, 2 and 4 threads, with draws outside the action space (two balls), batches that end
/// inside a chunk (several batches of 37 valid actions) and stable solutions found inside chunks.
#[test]
fn solvability_bytes_do_not_depend_on_threads() {
    let dir = tempfile::tempdir().unwrap();
    let run_with = |tier: &str, templates: &str, threads: &str| -> (Vec<u8>, Vec<u8>) {
        let (csv, md) = (
            dir.path().join(format!("{tier}-{threads}.csv")),
            dir.path().join(format!("{tier}-{threads}.md")),
        );
        ok(&[
            "--threads",
            threads,
            "solvability",
            "--tier",
            tier,
            "--templates",
            templates,
            "--tasks-per-template",
            "1",
            "--min-valid",
            "150",
            "--max-valid",
            "300",
            "--batch",
            "37",
            "--quiet",
            "--out",
            s(&csv),
            "--summary",
            s(&md),
        ]);
        (std::fs::read(&csv).unwrap(), std::fs::read(&md).unwrap())
    };
    for (tier, templates) in [("ball", "2,4"), ("two_balls", "100")] {
        let one = run_with(tier, templates, "1");
        let text = String::from_utf8(one.0.clone()).unwrap();
        let rows = check_solvability_csv(&text, 150, 300);
        let (h, _) = parse_csv(&text);
        assert!(
            rows.iter().any(|r| r[col(&h, "stable")] != "0"),
            "no stable solution: {text}"
        );
        for threads in ["2", "4"] {
            assert_eq!(
                run_with(tier, templates, threads),
                one,
                "{tier}, {threads} threads"
            );
        }
    }
}

#[test]
fn solvability_decides_unsolvable_with_a_large_p0() {
    // p0 = 0.05: with 200 valid actions and no stable solution,
    // P(Bin(200, 0.1) ≤ 0) = 0.9^200 ≈ 7e-10 < α → BAD_STABLE after the first batch.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("u.csv");
    ok(&[
        "solvability",
        "--tier",
        "ball",
        "--templates",
        "0",
        "--tasks-per-template",
        "1",
        "--p0",
        "0.05",
        "--min-valid",
        "200",
        "--max-valid",
        "5000",
        "--batch",
        "200",
        "--out",
        s(&out),
    ]);
    let text = std::fs::read_to_string(&out).unwrap();
    let (h, rows) = parse_csv(&text);
    let r = &rows[0];
    let stable: u64 = r[col(&h, "stable")].parse().unwrap();
    // 00000:000 is hard for random actions (the original: 3 stable solutions in ~17,800).
    assert_eq!(stable, 0, "{r:?}");
    assert_eq!(r[col(&h, "valid")], "200", "{r:?}");
    assert!(r[col(&h, "flags")].contains("BAD_STABLE"), "{r:?}");
    assert_eq!(r[col(&h, "samples_needed")], "200");
    let p: f64 = r[col(&h, "p_stable_unsolvable")].parse().unwrap();
    assert!((p - 0.9f64.powi(200)).abs() < 1e-12, "{p}");
    check_solvability_csv(&text, 200, 5000);
}

#[test]
fn solvability_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("o.csv");
    let o = s(&out);
    let base = ["solvability", "--tier", "ball", "--quiet"];
    let fails_with = |extra: &[&str]| {
        let a: Vec<&str> = base.iter().chain(extra).copied().collect();
        fails(&a)
    };
    // Unwritable outputs are refused before any work: the full tier would take hours, so a run
    // that started work first would hold this test (and CI) until its time limit. How long the
    // refusal takes is not timed here.
    fails_with(&["--out", "/nonexistent-dir/o.csv"]);
    fails_with(&["--out", o, "--summary", "/nonexistent-dir/o.md"]);
    fails_with(&["--out", o, "--checkpoint", "/nonexistent-dir/c"]);
    fails_with(&["--out", s(dir.path())]);
    let ckpt = dir.path().join("refused.ckpt");
    fails_with(&[
        "--out",
        o,
        "--summary",
        "/nonexistent-dir/o.md",
        "--checkpoint",
        s(&ckpt),
    ]);
    assert!(!ckpt.exists(), "a refused run checkpointed work");
    assert!(fails_with(&["--out", o, "--templates", "7-x"]).contains("template"));
    assert!(fails_with(&["--out", o, "--templates", "00050"]).contains("no tasks"));
    fails_with(&["--out", o, "--p0", "0"]);
    fails_with(&["--out", o, "--p0", "NaN"]);
    fails_with(&["--out", o, "--alpha", "1.5"]);
    fails_with(&["--out", o, "--min-valid", "10", "--max-valid", "5"]);
    fails_with(&["--out", o, "--batch", "0"]);
    fails_with(&["--out", o, "--tasks-per-template", "0"]);
    // A corrupt checkpoint is refused on --resume.
    let ckpt = dir.path().join("c.ckpt");
    std::fs::write(&ckpt, "{\"format\": 12").unwrap();
    let msg = fails_with(&[
        "--out",
        o,
        "--templates",
        "0",
        "--tasks-per-template",
        "1",
        "--checkpoint",
        s(&ckpt),
        "--resume",
    ]);
    assert!(msg.contains("corrupt checkpoint"), "{msg}");
    assert!(!out.exists());
    // A missing --tasks file.
    fails(&[
        "--tasks",
        "/nonexistent.rpts",
        "solvability",
        "--tier",
        "ball",
        "--out",
        o,
    ]);
}
