//! `--shard K/N` and `merge`: the merged report is byte for byte the single run's (CSV, summary,
//! plot, stdout); bad shards and bad part sets are one-line errors with status 2; `slurm
//! --dry-run` prints job scripts that run the shards and the merge.

use crate::common::{fails, ok, s, TWO_TIER_REFERENCE};
use std::path::{Path, PathBuf};

const SOLV: [&str; 13] = [
    "--quiet",
    "solvability",
    "--tier",
    "ball",
    "--templates",
    "00000-00002",
    "--tasks-per-template",
    "1",
    "--min-valid",
    "30",
    "--max-valid",
    "90",
    "--batch=30",
];

const DIV: [&str; 10] = [
    "--quiet",
    "diversity",
    "--tier",
    "ball",
    "--templates",
    "00000,00002",
    "--tasks-per-template",
    "2",
    "--samples",
    "520",
];

fn with(base: &[&str], extra: &[&str]) -> Vec<String> {
    base.iter().chain(extra).map(|x| x.to_string()).collect()
}

fn ok_s(args: &[String]) -> String {
    ok(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

/// Run shards 1..=n of `base`, each writing `dir/name-K.json`.
fn shards(dir: &Path, base: &[&str], name: &str, n: u32) -> Vec<PathBuf> {
    (1..=n)
        .map(|k| {
            let part = dir.join(format!("{name}-{k}.json"));
            let shard = format!("{k}/{n}");
            let out = ok_s(&with(base, &["--shard", &shard, "--out", s(&part)]));
            assert!(out.contains(&format!("shard {k}/{n}")), "{out}");
            part
        })
        .collect()
}

fn merge(parts: &[PathBuf], outputs: &[&str]) -> String {
    let mut a = vec!["merge".to_string()];
    a.extend(parts.iter().map(|p| s(p).to_string()));
    a.extend(outputs.iter().map(|x| x.to_string()));
    ok_s(&a)
}

#[test]
fn merged_shards_give_the_single_runs_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let d = |n: &str| dir.path().join(n);
    // Solvability: CSV, summary and the printed counts.
    let single_out = ok_s(&with(
        &SOLV,
        &["--out", s(&d("s.csv")), "--summary", s(&d("s.md"))],
    ));
    for n in [1, 3, 4] {
        let parts = shards(dir.path(), &SOLV, &format!("s{n}"), n);
        let out = merge(
            &parts,
            &["--out", s(&d("m.csv")), "--summary", s(&d("m.md"))],
        );
        assert_eq!(
            std::fs::read(d("m.csv")).unwrap(),
            std::fs::read(d("s.csv")).unwrap()
        );
        assert_eq!(
            std::fs::read(d("m.md")).unwrap(),
            std::fs::read(d("s.md")).unwrap()
        );
        assert_eq!(out.replace("m.csv", "s.csv"), single_out, "{n} shards");
    }
    // Diversity: CSV and plot; one template's 520 actions are two work units, split by shards.
    ok_s(&with(
        &DIV,
        &["--out", s(&d("d.csv")), "--plot", s(&d("d.svg"))],
    ));
    let parts = shards(dir.path(), &DIV, "d", 3);
    merge(
        &parts,
        &["--out", s(&d("md.csv")), "--plot", s(&d("md.svg"))],
    );
    assert_eq!(
        std::fs::read(d("md.csv")).unwrap(),
        std::fs::read(d("d.csv")).unwrap()
    );
    assert_eq!(
        std::fs::read(d("md.svg")).unwrap(),
        std::fs::read(d("d.svg")).unwrap()
    );

    // A missing part, a duplicate part, a foreign part: one line each, naming the file.
    let solv = shards(dir.path(), &SOLV, "e", 3);
    let x = d("x.csv");
    let out = ["--out", s(&x)];
    let line = |parts: &[&PathBuf]| {
        let mut a = vec!["merge"];
        a.extend(parts.iter().map(|p| s(p)));
        a.extend(out);
        fails(&a)
    };
    let e = line(&[&solv[0], &solv[2]]);
    assert!(e.contains("missing part: shard 2/3"), "{e}");
    let e = line(&[&solv[0], &solv[1], &solv[1], &solv[2]]);
    assert!(
        e.contains("are both shard 2/3") && e.contains("e-2.json"),
        "{e}"
    );
    let e = line(&[&solv[0], &parts[1], &solv[2]]);
    assert!(
        e.contains("d-2.json is from a different run") && e.contains("command diversity"),
        "{e}"
    );
    assert!(!d("x.csv").exists());
    // A summary is the merge's to write, and diversity has none.
    let e = fails(
        &with(
            &SOLV,
            &[
                "--shard",
                "1/2",
                "--out",
                s(&d("p.json")),
                "--summary",
                s(&d("p.md")),
            ],
        )
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>(),
    );
    assert!(e.contains("--summary is written by `rephyre merge`"), "{e}");
    let e = fails(&[
        "merge",
        s(&parts[0]),
        "--out",
        s(&d("x.csv")),
        "--summary",
        s(&d("x.md")),
    ]);
    assert!(e.contains("--summary is not an output of diversity"), "{e}");
}

#[test]
fn bad_shards_are_refused() {
    for bad in ["0/4", "5/4", "1/0", "2", "a/b"] {
        let e = fails(
            &with(&SOLV, &["--shard", bad, "--out", "/tmp/never.json"])
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>(),
        );
        assert!(e.contains("--shard"), "{bad}: {e}");
    }
    let e = fails(&["merge", "/nonexistent/part.json", "--out", "/tmp/x.csv"]);
    assert!(
        e.contains("cannot read part file /nonexistent/part.json"),
        "{e}"
    );
}

#[test]
fn parity_shards_merge_to_the_single_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = |n: &str| dir.path().join(n);
    std::fs::write(d("ref.csv"), TWO_TIER_REFERENCE).unwrap();
    let reference = d("ref.csv");
    let base = [
        "--quiet",
        "parity",
        "--reference",
        s(&reference),
        "--random-per-task",
        "1",
        "--random-per-task-2b",
        "0",
    ];
    let single = ok_s(&with(&base, &["--out", s(&d("p.md")), "--json"]));
    let parts = shards(dir.path(), &base, "p", 3);
    let merged = merge(&parts, &["--out", s(&d("m.md")), "--json"]);
    assert_eq!(merged, single);
    assert_eq!(
        std::fs::read(d("m.md")).unwrap(),
        std::fs::read(d("p.md")).unwrap()
    );
    // The reference file is part of the run: changed, the parts no longer merge.
    std::fs::write(
        d("ref.csv"),
        "task_id,tier,kind,index,action,status\n\
         00000:000,ball,random,0,0.5 0.5 0.1,-1\n",
    )
    .unwrap();
    let mut a = vec!["merge"];
    a.extend(parts.iter().map(|p| s(p)));
    let x = d("x.md");
    a.extend(["--out", s(&x)]);
    let e = fails(&a);
    assert!(
        e.contains("different rephyre build or task set") || e.contains("fingerprint"),
        "{e}"
    );
}

#[test]
fn witness_shards_merge_to_the_single_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = |n: &str| dir.path().join(n);
    let base = [
        "--quiet",
        "witness",
        "--templates",
        "0,100",
        "--tasks-per-template",
        "2",
        "--budget",
        "300",
    ];
    let single = ok_s(&with(
        &base,
        &["--out", s(&d("w.csv")), "--summary", s(&d("w.md"))],
    ));
    let parts = shards(dir.path(), &base, "w", 3);
    let merged = merge(
        &parts,
        &["--out", s(&d("m.csv")), "--summary", s(&d("m.md"))],
    );
    assert_eq!(merged.replace("m.csv", "w.csv"), single);
    assert_eq!(
        std::fs::read(d("m.csv")).unwrap(),
        std::fs::read(d("w.csv")).unwrap()
    );
    assert_eq!(
        std::fs::read(d("m.md")).unwrap(),
        std::fs::read(d("w.md")).unwrap()
    );
    // A --retry of that file with a larger budget, sharded, gives the single retry's bytes.
    let w = d("w.csv");
    let retry = [
        "--quiet",
        "witness",
        "--retry",
        s(&w),
        "--budget",
        "400",
        "--no-seeds",
    ];
    ok_s(&with(&retry, &["--out", s(&d("r.csv"))]));
    let parts = shards(dir.path(), &retry, "r", 2);
    merge(&parts, &["--out", s(&d("mr.csv"))]);
    assert_eq!(
        std::fs::read(d("mr.csv")).unwrap(),
        std::fs::read(d("r.csv")).unwrap()
    );
}

#[test]
fn slurm_dry_run_prints_the_scripts() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let out = ok(&[
        "slurm",
        "solvability",
        "--shards",
        "4",
        "--out",
        s(&run),
        "--partition",
        "cpu",
        "--time",
        "1:00:00",
        "--cpus-per-task",
        "3",
        "--account",
        "proj",
        "--mem",
        "2G",
        "--max-running",
        "2",
        "--sbatch-option=--qos=long",
        "--dry-run",
        "--",
        "--tier",
        "ball",
        "--templates",
        "0-4",
    ]);
    for want in [
        "#SBATCH --array=1-4%2",
        "#SBATCH --cpus-per-task=3",
        "#SBATCH --mem=2G",
        "#SBATCH --partition=cpu",
        "#SBATCH --time=1:00:00",
        "#SBATCH --account=proj",
        "#SBATCH --qos=long",
        "#SBATCH --requeue",
        "--threads 3 solvability --tier ball --templates 0-4",
        "--shard \"$K/4\"",
        "--checkpoint",
        "--resume",
        " merge \"${parts[@]}\" --out ",
        "solvability.csv --summary ",
        "--dependency=afterok:",
    ] {
        assert!(out.contains(want), "{want:?} missing from:\n{out}");
    }
    // The merge job takes one CPU and no --mem of the shards'.
    let merge_script = out.split("merge.sbatch\n").nth(1).unwrap();
    assert!(
        merge_script.contains("#SBATCH --cpus-per-task=1"),
        "{merge_script}"
    );
    assert!(!merge_script.contains("--mem"), "{merge_script}");
    assert!(!run.exists(), "a dry run wrote {}", run.display());
    // Options rephyre slurm sets itself, bad study arguments and bad knobs are one-line errors.
    let base = [
        "slurm",
        "diversity",
        "--shards",
        "2",
        "--out",
        s(&run),
        "--dry-run",
    ];
    let e = fails(&[&base[..], &["--", "--tier", "ball", "--out", "x.csv"]].concat());
    assert!(e.contains("--out is set by rephyre slurm"), "{e}");
    let e = fails(&[&base[..], &["--", "--tier", "bal"]].concat());
    assert!(
        e.contains("the diversity arguments after --") && e.contains("bal"),
        "{e}"
    );
    let e = fails(&[&base[..], &["--partition", "a b", "--", "--tier", "ball"]].concat());
    assert!(e.contains("--partition"), "{e}");
    fails(&[
        "slurm",
        "diversity",
        "--shards",
        "0",
        "--out",
        s(&run),
        "--",
        "--tier",
        "ball",
    ]);
    fails(&[
        "slurm",
        "bogus",
        "--shards",
        "2",
        "--out",
        s(&run),
        "--",
        "--tier",
        "ball",
    ]);
}
