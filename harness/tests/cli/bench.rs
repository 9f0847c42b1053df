//! `bench`: a run of the original's timing pairs (statuses, thread independence of the row
//! chain, the status-only path, bad reference files) and the counted work of a random-action
//! bench. The chains of all 3,000 pairs of each tier are checked against their golden values in
//! `studies/tests/bench_chains.rs`.

use crate::common::{fails, ok, s};

#[test]
fn bench_reference_runs_every_row_and_compares_statuses() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // The first 60 rows of the original's timing pairs (two-ball tier: half are invalid).
    let all = include_str!("../../../studies/data/phyre-0.2.2/speed/pairs-two_balls.csv");
    let rows: String = all.lines().take(61).map(|l| format!("{l}\n")).collect();
    let file = dir.join("pairs.csv");
    std::fs::write(&file, rows).unwrap();
    let json = |threads: &str, extra: &[&str]| -> serde_json::Value {
        let mut args = vec![
            "--threads",
            threads,
            "bench",
            "--reference",
            s(&file),
            "--json",
        ];
        args.extend_from_slice(extra);
        serde_json::from_str(&ok(&args)).unwrap()
    };
    let full = json("1", &[]);
    assert_eq!(full["calls"], 60);
    assert_eq!(full["mode"], "full");
    let valid = full["valid"].as_u64().unwrap();
    assert!((20..60).contains(&valid), "{valid} valid of 60");
    // The original's statuses (99.97 % agreement on all 3,000 rows).
    assert!(full["status_agreement"].as_f64().unwrap() >= 59.0 / 60.0);
    assert!(full["cpu_s"].as_f64().unwrap() > 0.0);
    let steps = full["steps_computed_per_valid"].as_f64().unwrap();
    assert!(steps > 0.0 && steps <= 1000.0);
    let chain = full["row_chain"].as_str().unwrap();
    assert!(
        chain.len() == 16 && chain.bytes().all(|b| b.is_ascii_hexdigit()),
        "{chain}"
    );
    // Rows in order on any thread count: the same statuses and final states, row by row.
    let two = json("2", &[]);
    for field in ["row_chain", "status_chain", "hash_xor", "status_agreement"] {
        assert_eq!(two[field], full[field], "{field}");
    }
    let text = ok(&["bench", "--reference", s(&file)]);
    assert!(text.contains(&format!("row chain {chain} ")), "{text}");
    // The status-only path: same statuses and steps covered row by row, fewer steps computed,
    // and each run's final hash that of the state where its status was decided.
    let fast = json("1", &["--status-only"]);
    assert_eq!(fast["mode"], "status-only");
    assert_eq!(fast["status_chain"], full["status_chain"]);
    assert_ne!(fast["row_chain"], full["row_chain"]);
    assert_eq!(
        json("2", &["--status-only"])["row_chain"],
        fast["row_chain"]
    );
    assert_eq!(fast["status_agreement"], full["status_agreement"]);
    assert_eq!(fast["solved"], full["solved"]);
    assert!(fast["steps_computed_per_valid"].as_f64().unwrap() < steps);
    assert_eq!(
        fast["shared_scenes"], 0,
        "no two consecutive rows share a task"
    );
    // The same 30 calls with each task's rows together (they share its recorded scene) and
    // interleaved (no sharing): the same statuses and final states. The rows are in another
    // order, so the order-free XOR and counts compare them; the row chains differ.
    let body: Vec<&str> = all.lines().skip(1).take(10).collect();
    let write = |name: &str, order: &[usize]| {
        let mut text = String::from("task_id,tier,kind,index,action,status\n");
        for &i in order {
            text.push_str(body[i]);
            text.push('\n');
        }
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let grouped = write("grouped.csv", &(0..30).map(|k| k / 3).collect::<Vec<_>>());
    let interleaved = write(
        "interleaved.csv",
        &(0..30).map(|k| k % 10).collect::<Vec<_>>(),
    );
    let status_only = |file: &std::path::Path| -> serde_json::Value {
        let args = ["bench", "--reference", s(file), "--status-only", "--json"];
        serde_json::from_str(&ok(&args)).unwrap()
    };
    let (g, i) = (status_only(&grouped), status_only(&interleaved));
    assert_eq!(g["shared_scenes"], 10);
    assert_eq!(i["shared_scenes"], 0);
    for field in [
        "hash_xor",
        "status_agreement",
        "valid",
        "solved",
        "steps_covered_per_valid",
    ] {
        assert_eq!(g[field], i[field], "{field}");
    }
    assert_ne!(g["row_chain"], i["row_chain"]);
    // Bad input: one-line errors.
    let bad = dir.join("bad.csv");
    std::fs::write(
        &bad,
        "task_id,tier,kind,index,action,status\n99999:000,ball,random,0,0.5 0.5 0.5,-1\n",
    )
    .unwrap();
    assert!(fails(&["bench", "--reference", s(&bad)]).contains("line 2"));
    std::fs::write(
        &bad,
        "task_id,tier,kind,index,action,status\n00000:000,three,random,0,0.5 0.5 0.5,-1\n",
    )
    .unwrap();
    assert!(fails(&["bench", "--reference", s(&bad)]).contains("unknown tier"));
    assert!(fails(&["bench", "--reference", s(&dir.join("missing.csv"))]).contains("cannot read"));
}

#[test]
fn bench_counts_its_work() {
    // The same work (one task per template, four actions each) on `threads` threads.
    let bench_json = |threads: &str| -> serde_json::Value {
        let out = ok(&[
            "--threads",
            threads,
            "bench",
            "--tasks-per-template",
            "1",
            "--actions",
            "4",
            "--json",
        ]);
        serde_json::from_str(&out).unwrap()
    };
    let v = bench_json("2");
    let t = &v["totals"];
    assert_eq!(v["tasks"], 25);
    assert_eq!(v["threads"], 2);
    assert_eq!(t["calls"], 100);
    assert_eq!(
        t["valid"].as_u64().unwrap() + t["invalid"].as_u64().unwrap(),
        100
    );
    assert!(v["ms_per_valid_sim"].as_f64().unwrap() > 0.0);
    let covered = t["steps_covered"].as_u64().unwrap();
    let stepped = t["steps_stepped"].as_u64().unwrap();
    assert!(stepped <= covered && covered <= 1000 * t["valid"].as_u64().unwrap());
    // Same work on one thread: the same outcomes, call by call.
    let one = bench_json("1");
    assert_eq!(one["row_chain"], v["row_chain"]);
    assert_eq!(one["status_chain"], v["status_chain"]);
    assert_eq!(one["totals"]["hash_xor"], t["hash_xor"]);
    assert_eq!(one["row_chain"].as_str().unwrap().len(), 16);
    // Status-only, the same statuses and steps covered.
    let fast = ok(&[
        "bench",
        "--tasks-per-template",
        "1",
        "--actions",
        "4",
        "--status-only",
        "--json",
    ]);
    let fast: serde_json::Value = serde_json::from_str(&fast).unwrap();
    assert_eq!(fast["status_chain"], v["status_chain"]);
    let text = ok(&["bench", "--tasks-per-template", "1", "--actions", "2"]);
    assert!(text.contains("calls/s") && text.contains("≈ 620"), "{text}");
    assert!(text.contains("row chain "), "{text}");
    fails(&["bench", "--actions", "0"]);
    fails(&["bench", "--tier", "none"]);
}
