//! `phyq-eval --agent dqn` end to end on a handful of levels: trained on the setting's training
//! tasks, written to --model and read back, the same on any thread count; killed in training
//! and resumed to the same model and CSV; `--train-only`; shards of one model merged into the
//! single run's report, parts of two models refused; bad models and options are one-line
//! errors.

use super::common::{bin, fails, kill_when, ok, ok_stderr, s};
use phyq::levelset::LevelSet;
use phyq::LevelId;
use std::path::Path;
use std::process::Stdio;

/// A level-set file `name` of the first template's tasks whose index `keep` keeps (local:
/// 1-80 train, 81-100 test).
fn levels(dir: &Path, name: &str, keep: impl Fn(u32) -> bool) -> String {
    let entries: Vec<_> = phyq::generator::builtin_tasks()
        .entries()
        .iter()
        .take(100)
        .filter(|e| matches!(e.id, LevelId::Coded { index, .. } if keep(index)))
        .cloned()
        .collect();
    let path = dir.join(name);
    let set = LevelSet::new(entries).expect("a level set");
    std::fs::write(&path, set.to_bytes()).expect("write the levels");
    s(&path).to_string()
}

/// The first template's tasks 1 to 3 (local training) and 81 (local test).
fn few_levels(dir: &Path) -> String {
    levels(dir, "few.levels", |i| i <= 3 || i == 81)
}

const TINY: [&str; 6] = [
    "--dqn-updates",
    "5",
    "--dqn-hidden",
    "8",
    "--dqn-explore",
    "2",
];

#[test]
fn a_small_dqn_run_trains_saves_and_replays() {
    let dir = tempfile::tempdir().expect("temp dir");
    let levels = few_levels(dir.path());
    let model = dir.path().join("dqn.model");
    let out = |name: &str| s(&dir.path().join(name)).to_string();
    let (csv1, csv2, csv3) = (out("1.csv"), out("2.csv"), out("3.csv"));
    let mut args = vec![
        "--tasks",
        &levels,
        "--threads",
        "1",
        "phyq-eval",
        "--agent",
        "dqn",
    ];
    args.extend(["--setting", "local", "--model", s(&model), "--json"]);
    args.extend(TINY);
    let trained = ok_stderr(&[&args[..], &["--out", &csv1]].concat());
    assert!(
        trained.contains("collecting experiences on 3 training tasks"),
        "{trained}"
    );
    assert!(model.exists(), "no model written");
    let bytes = std::fs::read(&model).expect("the model");
    // Read back: the same shots.
    args[3] = "2";
    let read = ok_stderr(&[&args[..], &["--out", &csv2]].concat());
    assert!(read.contains("dqn: model"), "{read}");
    let first = std::fs::read_to_string(&csv1).expect("csv");
    assert_eq!(first, std::fs::read_to_string(&csv2).expect("csv"));
    assert_eq!(first.lines().count(), 2, "{first}");
    assert!(first.lines().nth(1).unwrap_or_default().contains(":00081,"));
    // Trained again on two threads: the same model, byte for byte.
    std::fs::remove_file(&model).expect("remove");
    let stdout = ok(&[&args[..], &["--out", &csv3]].concat());
    assert_eq!(std::fs::read(&model).expect("the model"), bytes);
    assert!(stdout.contains("\"agent\":\"dqn\""), "{stdout}");
    assert_eq!(first, std::fs::read_to_string(&csv3).expect("csv"));
}

#[test]
fn bad_dqn_runs_fail_with_one_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let levels = few_levels(dir.path());
    let bad = dir.path().join("bad.model");
    std::fs::write(&bad, "not a model\n").expect("write");
    let csv = dir.path().join("x.csv");
    let base = ["--tasks", &levels, "phyq-eval", "--out", s(&csv)];
    let e = fails(
        &[
            &base[..],
            &["--agent", "dqn", "--setting", "local", "--model", s(&bad)],
        ]
        .concat(),
    );
    assert!(e.contains("is not a rephyre Phy-Q DQN model"), "{e}");
    let e = fails(
        &[
            &base[..],
            &[
                "--agent",
                "random",
                "--setting",
                "local",
                "--model",
                s(&bad),
            ],
        ]
        .concat(),
    );
    assert!(e.contains("--model is for --agent dqn"), "{e}");
    let e = fails(&[&base[..], &["--agent", "dqn", "--setting", "all"]].concat());
    assert!(e.contains("the all setting has no training tasks"), "{e}");
    let e = fails(
        &[
            &base[..],
            &[
                "--agent",
                "dqn",
                "--setting",
                "local",
                "--dqn-explore",
                "51",
            ],
        ]
        .concat(),
    );
    assert!(e.contains("--dqn-explore must be 1 to 50"), "{e}");
    for (flag, value) in [("--dqn-updates", "0"), ("--dqn-hidden", "0")] {
        let e = fails(
            &[
                &base[..],
                &["--agent", "dqn", "--setting", "local", flag, value],
            ]
            .concat(),
        );
        assert!(e.contains(flag), "{e}");
    }
}

#[test]
fn the_dqn_options_show_the_definitions_defaults() {
    let help = ok(&["phyq-eval", "--help"]);
    for (flag, default) in [
        ("--dqn-seed", "0"),
        ("--dqn-updates", "3000"),
        ("--dqn-lr", "0.001"),
        ("--dqn-hidden", "256"),
        ("--dqn-episodes", "1"),
        ("--dqn-explore", "8"),
        ("--dqn-stride", "1"),
    ] {
        let from = help.find(flag).expect("the flag in the help");
        let shown = format!("[default: {default}]");
        let next = help[from..].find("[default: ").expect("a default");
        assert!(help[from + next..].starts_with(&shown), "{flag}: {help}");
    }
}

/// The first template's tasks 1 to 3 (training) and 81 to 86 (six test tasks, for shards).
fn six_tests(dir: &Path) -> String {
    levels(dir, "six.levels", |i| i <= 3 || (81..=86).contains(&i))
}

/// `phyq-eval --agent dqn --setting local` on `levels` with `threads`, then `rest`.
fn dqn<'a>(levels: &'a str, threads: &'a str, rest: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec![
        "--tasks",
        levels,
        "--threads",
        threads,
        "phyq-eval",
        "--agent",
        "dqn",
        "--setting",
        "local",
    ];
    v.extend_from_slice(rest);
    v
}

/// A training long enough to be stopped in the middle (a few seconds at most).
const LONGER: [&str; 6] = [
    "--dqn-updates",
    "2000",
    "--dqn-hidden",
    "16",
    "--dqn-explore",
    "2",
];

/// The updates a training checkpoint file holds, when it is one.
fn updates_in(path: &Path) -> Option<u64> {
    let bytes = std::fs::read(path).ok()?;
    let header = bytes.split(|&b| b == b'\n').nth(1)?;
    let v: serde_json::Value = serde_json::from_slice(header).ok()?;
    v["updates"].as_u64()
}

#[test]
fn a_dqn_run_killed_in_training_resumes_to_the_same_model_and_csv() {
    let dir = tempfile::tempdir().expect("temp dir");
    let levels = few_levels(dir.path());
    let p = |n: &str| dir.path().join(n);
    let (m1, c1, m2, c2, ckpt) = (
        p("1.model"),
        p("1.csv"),
        p("2.model"),
        p("2.csv"),
        p("r.ckpt"),
    );
    let mut first = dqn(&levels, "1", &LONGER);
    first.extend(["--model", s(&m1), "--out", s(&c1)]);
    ok(&first);
    // The same run checkpointed every 50 ms, stopped (SIGSTOP) in slices of 20 ms while its
    // checkpoint is read, so it cannot finish unseen however slow or busy the machine is, and
    // killed (SIGKILL) once the training's checkpoint holds part of the updates.
    let mut args: Vec<String> = dqn(&levels, "2", &LONGER)
        .iter()
        .map(|a| a.to_string())
        .collect();
    for a in [
        "--model",
        s(&m2),
        "--out",
        s(&c2),
        "--checkpoint",
        s(&ckpt),
        "--checkpoint-secs",
        "0.05",
    ] {
        args.push(a.to_string());
    }
    let mut child = bin()
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("starts");
    let train = p("r.ckpt.train");
    let partial = kill_when(&mut child, "a partial training checkpoint", || {
        updates_in(&train).filter(|&u| u > 0 && u < 2000)
    });
    assert!(
        !m2.exists() && !c2.exists(),
        "a killed run wrote its model or CSV"
    );
    assert!(p("r.ckpt.collect").exists(), "no collection checkpoint");
    // Resumed with other options it is refused; with the same ones (on another thread count)
    // it goes on from the checkpoint to the uninterrupted run's model and CSV.
    let mut other = args.clone();
    let at = other
        .iter()
        .position(|a| a == "--dqn-updates")
        .expect("the option");
    other[at + 1] = "1999".into();
    other.push("--resume".into());
    let other: Vec<&str> = other.iter().map(String::as_str).collect();
    let e = fails(&other);
    assert!(e.contains("was written by a different run"), "{e}");
    let mut resumed: Vec<&str> = args.iter().map(String::as_str).collect();
    resumed[3] = "1";
    resumed.push("--resume");
    let said = ok_stderr(&resumed);
    assert!(
        said.contains("resuming from checkpoint") && said.contains("r.ckpt.train: "),
        "{said}"
    );
    let done: u64 = said
        .split("r.ckpt.train: ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("the updates done");
    assert!(
        done >= partial && done < 2000,
        "{done} after {partial}: {said}"
    );
    assert_eq!(
        std::fs::read(&m2).expect("model"),
        std::fs::read(&m1).expect("model"),
        "resumed model differs"
    );
    assert_eq!(
        std::fs::read(&c2).expect("csv"),
        std::fs::read(&c1).expect("csv"),
        "resumed CSV differs"
    );
    // The evaluation's checkpoint of other options is refused too, in one line, before the
    // model is read.
    let mut attempts = resumed.clone();
    attempts.extend(["--attempts", "2"]);
    let e = fails(&attempts);
    assert!(e.contains("r.ckpt was written by a different run"), "{e}");
}

#[test]
fn train_only_writes_the_model_and_no_report() {
    let dir = tempfile::tempdir().expect("temp dir");
    let levels = few_levels(dir.path());
    let p = |n: &str| dir.path().join(n);
    let (m1, m2, csv) = (p("1.model"), p("2.model"), p("x.csv"));
    let mut full = dqn(&levels, "1", &TINY);
    full.extend(["--model", s(&m1), "--out", s(&csv)]);
    ok(&full);
    let mut train = dqn(&levels, "2", &TINY);
    train.extend(["--model", s(&m2), "--train-only"]);
    let stdout = ok(&train);
    assert!(stdout.is_empty(), "{stdout}");
    assert_eq!(
        std::fs::read(&m2).expect("model"),
        std::fs::read(&m1).expect("model")
    );
    let files: Vec<String> = std::fs::read_dir(dir.path())
        .expect("a folder")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    let mut files = files;
    files.sort();
    assert_eq!(files, ["1.model", "2.model", "few.levels", "x.csv"]);
    // Again: the model is there, nothing to train.
    let said = ok_stderr(&train);
    assert!(said.contains("exists already: nothing to train"), "{said}");
    // Checkpointed, it keeps the training's files only: F itself (an evaluation's checkpoint,
    // here another run's) is neither read nor written.
    let ckpt = p("t.ckpt");
    let foreign = r#"{"format":"rephyre-checkpoint-1","fingerprint":"another run","tasks":[]}"#;
    std::fs::write(&ckpt, foreign).expect("write");
    let m3 = p("3.model");
    let mut checkpointed = dqn(&levels, "1", &TINY);
    checkpointed.extend([
        "--model",
        s(&m3),
        "--train-only",
        "--checkpoint",
        s(&ckpt),
        "--resume",
    ]);
    ok(&checkpointed);
    assert_eq!(
        std::fs::read(&m3).expect("model"),
        std::fs::read(&m1).expect("model")
    );
    assert_eq!(std::fs::read_to_string(&ckpt).expect("F"), foreign);
    assert!(p("t.ckpt.collect").exists() && p("t.ckpt.train").exists());
    // It writes a model and nothing else: without --model, or with a report, it is refused.
    let e = fails(&dqn(&levels, "1", &["--train-only"]));
    assert!(e.contains("--model"), "{e}");
    let mut with_out = train.clone();
    with_out.extend(["--out", s(&csv)]);
    let e = fails(&with_out);
    assert!(e.contains("--train-only") && e.contains("--out"), "{e}");
    let e = fails(&[
        "--tasks",
        &levels,
        "phyq-eval",
        "--agent",
        "random",
        "--setting",
        "local",
        "--train-only",
        "--model",
        s(&m1),
    ]);
    assert!(e.contains("--train-only is for --agent dqn"), "{e}");
}

#[test]
fn shards_of_one_model_merge_into_the_single_run_and_other_models_are_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let levels = six_tests(dir.path());
    let p = |n: &str| dir.path().join(n);
    let (model, other) = (p("a.model"), p("b.model"));
    let mut train = dqn(&levels, "1", &TINY);
    train.extend(["--model", s(&model), "--train-only"]);
    ok(&train);
    let mut train_b = dqn(&levels, "1", &TINY);
    train_b.extend(["--model", s(&other), "--train-only", "--dqn-seed", "1"]);
    ok(&train_b);
    let (csv, md, svg) = (p("single.csv"), p("single.md"), p("single.svg"));
    ok(&dqn(
        &levels,
        "2",
        &[
            "--model",
            s(&model),
            "--out",
            s(&csv),
            "--summary",
            s(&md),
            "--plot",
            s(&svg),
        ],
    ));
    assert_eq!(
        std::fs::read_to_string(&csv).expect("csv").lines().count(),
        7
    );
    let parts: Vec<_> = (1..=3).map(|k| p(&format!("part-{k}.json"))).collect();
    for (k, part) in parts.iter().enumerate() {
        let shard = format!("{}/3", k + 1);
        let out = ok(&dqn(
            &levels,
            "1",
            &["--model", s(&model), "--shard", &shard, "--out", s(part)],
        ));
        assert!(out.contains("2 work units"), "{out}");
    }
    // The part records the model: its digest (FNV-1a of the file) and header.
    let part: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&parts[0]).expect("part")).expect("JSON");
    let digest = format!(
        "{:016x}",
        tasks::rng::fnv64(&std::fs::read(&model).expect("model"))
    );
    assert_eq!(part["args"]["model"], digest.as_str(), "{part}");
    let header = part["args"]["model_header"].as_str().expect("a header");
    assert!(
        header.contains("\"trained_on\":\"local setting"),
        "{header}"
    );
    let (mcsv, mmd, msvg) = (p("merged.csv"), p("merged.md"), p("merged.svg"));
    let mut merge = vec!["--tasks", &levels, "merge"];
    merge.extend(parts.iter().map(|x| s(x)));
    merge.extend(["--out", s(&mcsv), "--summary", s(&mmd), "--plot", s(&msvg)]);
    ok(&merge);
    for (single, merged) in [(&csv, &mcsv), (&md, &mmd), (&svg, &msvg)] {
        assert_eq!(
            std::fs::read(single).expect("single"),
            std::fs::read(merged).expect("merged"),
            "{} differs",
            merged.display()
        );
    }
    // A part of another model among them is refused, by name.
    let stranger = p("part-2-b.json");
    ok(&dqn(
        &levels,
        "1",
        &[
            "--model",
            s(&other),
            "--shard",
            "2/3",
            "--out",
            s(&stranger),
        ],
    ));
    let mixed_csv = p("mixed.csv");
    let mut mixed = vec!["--tasks", &levels, "merge", s(&parts[0]), s(&stranger)];
    mixed.extend([s(&parts[2]), "--out", s(&mixed_csv)]);
    let e = fails(&mixed);
    assert!(
        e.contains("part-2-b.json evaluates another DQN model") && e.contains(&digest),
        "{e}"
    );
    assert!(!mixed_csv.exists());
    // A shard needs an existing model: it does not train one of its own.
    let e = fails(&dqn(
        &levels,
        "1",
        &["--shard", "1/3", "--out", s(&p("x.json"))],
    ));
    assert!(
        e.contains("--shard with --agent dqn evaluates a trained model")
            && e.contains("--train-only"),
        "{e}"
    );
    let missing = p("missing.model");
    let e = fails(&dqn(
        &levels,
        "1",
        &[
            "--model",
            s(&missing),
            "--shard",
            "1/3",
            "--out",
            s(&p("x.json")),
        ],
    ));
    assert!(e.contains("missing.model does not exist"), "{e}");
    assert!(!missing.exists() && !p("x.json").exists());
}

#[test]
fn slurm_runs_dqn_shards_of_an_existing_model() {
    let dir = tempfile::tempdir().expect("temp dir");
    let levels = few_levels(dir.path());
    let model = dir.path().join("m.model");
    let mut train = dqn(&levels, "1", &TINY);
    train.extend(["--model", s(&model), "--train-only"]);
    ok(&train);
    let run = dir.path().join("run");
    let slurm = |model: &str| {
        vec![
            "--tasks".to_string(),
            levels.clone(),
            "slurm".into(),
            "phyq-eval".into(),
            "--shards".into(),
            "3".into(),
            "--out".into(),
            s(&run).into(),
            "--dry-run".into(),
            "--".into(),
            "--agent".into(),
            "dqn".into(),
            "--setting".into(),
            "local".into(),
            "--model".into(),
            model.into(),
        ]
    };
    // A relative --model is made absolute in the scripts.
    let args = slurm("m.model");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = bin()
        .args(&args)
        .current_dir(dir.path())
        .output()
        .expect("runs");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for want in [
        format!("--agent dqn --setting local --model {}", s(&model)),
        "--shard \"$K/3\"".to_string(),
        "phyq-eval.csv --summary ".to_string(),
    ] {
        assert!(out.contains(&want), "{want:?} missing from:\n{out}");
    }
    // Without the model there is nothing to shard.
    let args = slurm(s(&dir.path().join("none.model")));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let e = fails(&args);
    assert!(e.contains("none.model does not exist"), "{e}");
}
