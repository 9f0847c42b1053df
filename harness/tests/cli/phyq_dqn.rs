//! `phyq-eval --agent dqn` end to end on a handful of levels: trained on the setting's training
//! tasks, written to --model and read back, the same on any thread count; bad models and
//! options are one-line errors.

use super::common::{fails, ok, ok_stderr, s};
use phyq::levelset::LevelSet;
use phyq::LevelId;
use std::path::Path;

/// A level-set file of the first template's tasks 1 to 3 (local training) and 81 (local test).
fn few_levels(dir: &Path) -> String {
    let entries: Vec<_> = phyq::generator::builtin_tasks()
        .entries()
        .iter()
        .take(100)
        .filter(|e| matches!(e.id, LevelId::Coded { index, .. } if index <= 3 || index == 81))
        .cloned()
        .collect();
    assert_eq!(entries.len(), 4);
    let path = dir.join("few.levels");
    let set = LevelSet::new(entries).expect("a level set");
    std::fs::write(&path, set.to_bytes()).expect("write the levels");
    s(&path).to_string()
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
}
