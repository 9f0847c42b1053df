//! `diversity` histograms (counts, plot, checkpoint resume) and `random-curve` (monotone
//! curves, plot); both: thread-count independence and bad input.

use std::path::Path;

use crate::common::{fails, ok, parse_csv, s};

#[test]
fn diversity_histograms() {
    let dir = tempfile::tempdir().unwrap();
    let (out1, out2, svg) = (
        dir.path().join("d1.csv"),
        dir.path().join("d2.csv"),
        dir.path().join("d.svg"),
    );
    let args = |out: &Path, threads: &str| -> Vec<String> {
        [
            "--threads",
            threads,
            "diversity",
            "--tier",
            "ball",
            "--templates",
            "0-1",
            "--tasks-per-template",
            "3",
            "--samples",
            "40",
            "--out",
            s(out),
        ]
        .iter()
        .map(|x| x.to_string())
        .collect()
    };
    let mut a1 = args(&out1, "1");
    a1.extend(["--plot".to_string(), s(&svg).to_string()]);
    let a1: Vec<&str> = a1.iter().map(String::as_str).collect();
    let stdout = ok(&a1);
    assert!(stdout.contains("00000: 3 tasks"), "{stdout}");
    let a2 = args(&out2, "2");
    ok(&a2.iter().map(String::as_str).collect::<Vec<_>>());
    let text = std::fs::read_to_string(&out1).unwrap();
    assert_eq!(text, std::fs::read_to_string(&out2).unwrap());
    let (h, rows) = parse_csv(&text);
    assert_eq!(h.join(","), "template,tier,tasks,solved_tasks,actions");
    assert_eq!(rows.len(), 2 * 4);
    for t in ["00000", "00001"] {
        let total: u64 = rows
            .iter()
            .filter(|r| r[0] == t)
            .map(|r| r[4].parse::<u64>().unwrap())
            .sum();
        assert_eq!(total, 40, "every action counted once per template");
    }
    let plot = std::fs::read_to_string(&svg).unwrap();
    assert!(plot.starts_with("<svg") && plot.contains("00001"), "{plot}");
    // With a checkpoint: a finished checkpoint resumes to the same histogram, and one written
    // with other options is refused.
    let (out3, ckpt) = (dir.path().join("d3.csv"), dir.path().join("d.ckpt"));
    let mut a3 = args(&out3, "2");
    a3.extend(["--checkpoint".to_string(), s(&ckpt).to_string()]);
    let a3: Vec<&str> = a3.iter().map(String::as_str).collect();
    ok(&a3);
    std::fs::remove_file(&out3).unwrap();
    let mut resumed = a3.clone();
    resumed.push("--resume");
    ok(&resumed);
    assert_eq!(text, std::fs::read_to_string(&out3).unwrap());
    let at = resumed.iter().position(|x| *x == "40").unwrap();
    resumed[at] = "41";
    assert!(fails(&resumed).contains("different run"));
    fails(&[
        "diversity",
        "--tier",
        "ball",
        "--samples",
        "0",
        "--out",
        s(&out1),
    ]);
    fails(&[
        "diversity",
        "--tier",
        "ball",
        "--out",
        s(&out1),
        "--plot",
        "/nonexistent-dir/p.svg",
    ]);
}

#[test]
fn random_curve_is_monotone_and_plotted() {
    let dir = tempfile::tempdir().unwrap();
    let (out, svg) = (dir.path().join("c.csv"), dir.path().join("c.svg"));
    let stdout = ok(&[
        "random-curve",
        "--tier",
        "ball",
        "--templates",
        "1-2",
        "--tasks-per-template",
        "3",
        "--runs",
        "3",
        "--attempts",
        "6",
        "--out",
        s(&out),
        "--plot",
        s(&svg),
    ]);
    assert!(stdout.contains("6 tasks, 3 runs"), "{stdout}");
    let text = std::fs::read_to_string(&out).unwrap();
    let (h, rows) = parse_csv(&text);
    assert_eq!(h.join(","), "attempts,mean,std,run_0,run_1,run_2");
    assert_eq!(rows.len(), 6);
    let mut prev = vec![0.0; 6];
    for (k, r) in rows.iter().enumerate() {
        assert_eq!(r[0], (k + 1).to_string());
        let v: Vec<f64> = r.iter().map(|x| x.parse().unwrap()).collect();
        for i in [1, 3, 4, 5] {
            assert!(v[i] >= prev[i] - 1e-12, "not monotone: {r:?}");
        }
        for run in &v[3..] {
            assert!((0.0..=1.0).contains(run));
            // A share of 6 tasks.
            assert!(((run * 6.0) - (run * 6.0).round()).abs() < 1e-4, "{run}");
        }
        let mean = (v[3] + v[4] + v[5]) / 3.0;
        assert!((v[1] - mean).abs() < 1e-5, "{r:?}");
        assert!(v[2] >= 0.0);
        prev = v;
    }
    let plot = std::fs::read_to_string(&svg).unwrap();
    assert!(plot.starts_with("<svg"), "{plot}");
    // Runs long enough to be spread over the cores (draws evaluated ahead of a solve) give the
    // same bytes on any thread count.
    let long = |threads: &str| {
        let out = dir.path().join(format!("long-{threads}.csv"));
        ok(&[
            "--threads",
            threads,
            "random-curve",
            "--templates",
            "0,3",
            "--tasks-per-template",
            "2",
            "--runs",
            "2",
            "--attempts",
            "150",
            "--quiet",
            "--out",
            s(&out),
        ]);
        std::fs::read(&out).unwrap()
    };
    let one = long("1");
    assert_eq!(long("2"), one);
    assert_eq!(long("3"), one);
    fails(&["random-curve", "--runs", "0", "--out", s(&out)]);
    fails(&["random-curve", "--attempts", "0", "--out", s(&out)]);
    fails(&["random-curve", "--out", "/nonexistent-dir/c.csv"]);
}
