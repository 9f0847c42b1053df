//! `audit`: the CI plan (PHYRE and Phy-Q runs) matches the committed golden, a tampered golden
//! is reported with its first differing run and step window, and traces print their steps.

use crate::common::{fails, ok, s};

#[test]
fn audit_ci_plan_matches_the_committed_golden() {
    let out = ok(&["audit", "--subset", "ci"]);
    assert!(out.contains("MATCH 502 runs, 75 Phy-Q runs"), "{out}");
    // A golden written by this build matches itself, and a tampered one is reported.
    let dir = tempfile::tempdir().unwrap();
    let g = dir.path().join("g.txt");
    ok(&["audit", "--subset", "ci", "--write-golden", s(&g)]);
    let text = std::fs::read_to_string(&g).unwrap();
    assert_eq!(
        text,
        include_str!("../../../tests/golden/audit-ci.txt"),
        "this build's CI golden differs from the committed one"
    );
    let tampered = text.replacen(" NOT_SOLVED 1000 ", " SOLVED 1000 ", 1);
    std::fs::write(&g, tampered).unwrap();
    assert!(fails(&["audit", "--subset", "ci", "--golden", s(&g)]).contains("MISMATCH"));
    let trace = ok(&["audit", "--trace", "00000:000:1", "--steps", "3"]);
    assert_eq!(trace.lines().count(), 4, "{trace}");
}

#[test]
fn a_phyq_mismatch_names_the_level_shot_and_step_window() {
    let golden = include_str!("../../../tests/golden/audit-ci.txt");
    // A level with at least two shots; tamper the checkpoint of the first window of shot 2.
    let line = golden
        .lines()
        .find(|l| l.starts_with("phyq:") && l.split(' ').nth(3).is_some_and(|n| n != "1"))
        .expect("a Phy-Q line with two shots or more");
    let f: Vec<&str> = line.split(' ').collect();
    let (id, first_end): (&str, u32) = (f[0], f[5].split(',').next().unwrap().parse().unwrap());
    // The first window wholly after the end of shot 1.
    let k = first_end.div_ceil(10) as usize;
    let mut checkpoints: Vec<String> = f[7].split(',').map(str::to_string).collect();
    checkpoints[k] = format!(
        "{:08x}",
        u32::from_str_radix(&checkpoints[k], 16).unwrap() ^ 1
    );
    let tampered_line = format!("{} {}", f[..7].join(" "), checkpoints.join(","));
    let dir = tempfile::tempdir().unwrap();
    let g = dir.path().join("g.txt");
    std::fs::write(&g, golden.replacen(line, &tampered_line, 1)).unwrap();
    let err = fails(&["audit", "--subset", "ci", "--golden", s(&g)]);
    let window = format!("steps {}..={}", k * 10 + 1, k * 10 + 10);
    assert!(
        err.contains("MISMATCH") && err.contains(&format!("{id} shot 2")) && err.contains(&window),
        "{err}"
    );
    // The per-step trace chains to the golden's checkpoints, and ends at its step count.
    let trace = ok(&["audit", "--trace", id]);
    let rows: Vec<Vec<&str>> = trace
        .lines()
        .skip(1)
        .map(|l| l.split(' ').collect())
        .collect();
    assert_eq!(rows.len().to_string(), f[4], "{id}: steps");
    for (k, c) in f[7].split(',').enumerate() {
        let row = &rows[k * 10 + 9];
        assert_eq!(row[0], (k * 10 + 10).to_string());
        assert_eq!(&row[3][8..], c, "{id}: checkpoint {k}");
    }
    assert_eq!(rows.last().unwrap()[2], f[6], "{id}: final hash");
    assert!(fails(&["audit", "--trace", "phyq:1_1_4:00101"]).contains("not a built-in"));
    assert!(fails(&["audit", "--trace", "phyq:nope:1"]).contains("level id"));
}

/// `rephyre audit --trace … | head`: the reader leaving early ends the run quietly (status 0,
/// no panic).
#[test]
fn a_trace_whose_reader_goes_away_ends_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    let spec = "00000:000:1";
    // More than a pipe holds, so the writer meets the closed pipe.
    assert!(ok(&["audit", "--trace", spec]).len() > 65536 * 3 / 2);
    let mut child = super::common::bin()
        .args(["audit", "--trace", spec])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 64];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // The pipe is closed here (the read end dropped), as `head` closes it.
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?} {err}", out.status);
    assert!(
        !err.contains("panicked") && !err.contains("internal error"),
        "{err}"
    );
}
