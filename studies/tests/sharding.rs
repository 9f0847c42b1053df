//! Sharded runs merge into the single run's report, byte for byte, whatever the number of
//! shards; the merge refuses a missing, duplicate or foreign part with an error naming it.

use std::path::{Path, PathBuf};
use studies::runner::RunConfig;
use studies::shard::{read_parts, write_part, Part, Shard};
use studies::{diversity, solvability};
use tasks::{Task, TaskSet, Tier};

fn tasks(ids: &[&str]) -> Vec<&'static Task> {
    let set = TaskSet::builtin();
    ids.iter().map(|id| set.lookup(id).unwrap()).collect()
}

fn cfg(threads: usize) -> RunConfig {
    RunConfig {
        threads: Some(threads),
        ..RunConfig::default()
    }
}

const SOLV_TASKS: [&str; 4] = ["00000:000", "00001:003", "00002:007", "00004:063"];

fn solv_params() -> solvability::Params {
    small_solvability(40, 120, 40)
}

fn solv_bytes(params: &solvability::Params, rows: &[solvability::Row]) -> (Vec<u8>, String) {
    (
        solvability::csv_bytes(params.tier, rows).unwrap(),
        solvability::summary_markdown(params, rows),
    )
}

/// Write shard k of n of a job (run by `run`) to `dir` and return the paths, in shard order.
fn write_shards<S: serde::Serialize>(
    dir: &Path,
    name: &str,
    n: u32,
    run: impl Fn(Shard) -> Part<S>,
) -> Vec<PathBuf> {
    (1..=n)
        .map(|k| {
            let path = dir.join(format!("{name}-{k}-of-{n}.json"));
            write_part(&path, &run(Shard::new(k, n).unwrap())).unwrap();
            path
        })
        .collect()
}

#[test]
fn solvability_shards_merge_to_the_single_run() {
    let dir = tempfile::tempdir().unwrap();
    let single = solvability::run(tasks(&SOLV_TASKS), solv_params(), &cfg(2)).unwrap();
    let want = solv_bytes(&solv_params(), &single);
    assert!(single.iter().any(|r| r.state.stable > 0), "{single:?}");
    for n in [1, 2, 3, 7] {
        let mut paths = write_shards(dir.path(), "solv", n, |shard| {
            // Thread counts differ between shards: the results must not depend on them.
            let threads = 1 + shard.index as usize % 2;
            solvability::run_shard(tasks(&SOLV_TASKS), solv_params(), shard, &cfg(threads)).unwrap()
        });
        // The order the parts are given in does not matter.
        paths.reverse();
        let parts = read_parts(&paths).unwrap();
        let (params, rows) = solvability::merge(TaskSet::builtin(), parts).unwrap();
        assert_eq!(solv_bytes(&params, &rows), want, "{n} shards");
    }
}

fn div_params() -> diversity::Params {
    diversity::Params {
        tier: Tier::Ball,
        seed: 3,
        samples: 530,
    }
}

const DIV_TASKS: [&str; 3] = ["00000:000", "00000:001", "00002:007"];

#[test]
fn diversity_shards_merge_to_the_single_run() {
    let dir = tempfile::tempdir().unwrap();
    let single = diversity::run(tasks(&DIV_TASKS), div_params(), &cfg(2)).unwrap();
    let want = single.csv_bytes().unwrap();
    assert!(single.templates.iter().any(|t| t.solving_actions() > 0));
    // Two templates of two chunks each (500 + 30 actions): 4 runner tasks, so 7 shards leave
    // some empty and every template's actions are split between shards.
    for n in [1, 2, 3, 7] {
        let paths = write_shards(dir.path(), "div", n, |shard| {
            diversity::run_shard(tasks(&DIV_TASKS), div_params(), shard, &cfg(1)).unwrap()
        });
        let parts = read_parts(&paths).unwrap();
        let report = diversity::merge(TaskSet::builtin(), parts).unwrap();
        assert_eq!(report, single, "{n} shards");
        assert_eq!(report.csv_bytes().unwrap(), want, "{n} shards");
    }
}

fn merge_error(paths: &[PathBuf]) -> String {
    match read_parts::<solvability::TaskState>(paths) {
        Ok(parts) => match solvability::merge(TaskSet::builtin(), parts) {
            Ok(_) => panic!("merged {paths:?}"),
            Err(e) => format!("{e:#}"),
        },
        Err(e) => format!("{e:#}"),
    }
}

#[test]
fn bad_part_sets_are_refused_with_the_part_named() {
    let dir = tempfile::tempdir().unwrap();
    let few = &SOLV_TASKS[..2];
    let p = |min_valid| small_solvability(min_valid, 60, 20);
    let run = |params: solvability::Params, name: &str, n: u32| {
        write_shards(dir.path(), name, n, |shard| {
            solvability::run_shard(tasks(few), params.clone(), shard, &cfg(1)).unwrap()
        })
    };
    let three = run(p(20), "a", 3);
    // A missing part.
    let e = merge_error(&[three[0].clone(), three[2].clone()]);
    assert!(e.contains("missing part: shard 2/3"), "{e}");
    // A duplicate part.
    let copy = dir.path().join("copy.json");
    std::fs::copy(&three[1], &copy).unwrap();
    let e = merge_error(&[
        three[0].clone(),
        three[1].clone(),
        copy.clone(),
        three[2].clone(),
    ]);
    assert!(
        e.contains("are both shard 2/3") && e.contains("copy.json"),
        "{e}"
    );
    // A part of a run with other arguments.
    let other = run(p(40), "b", 3);
    let e = merge_error(&[three[0].clone(), other[1].clone(), three[2].clone()]);
    assert!(
        e.contains("b-2-of-3.json is from a different run") && e.contains("min_valid=40"),
        "{e}"
    );
    // A part of a split into a different number of shards.
    let two = run(p(20), "c", 2);
    let e = merge_error(&[three[0].clone(), two[1].clone(), three[2].clone()]);
    assert!(
        e.contains("c-2-of-2.json") && e.contains("one of 2 shards"),
        "{e}"
    );
    // A part of another command.
    let div = dir.path().join("div.json");
    write_part(
        &div,
        &diversity::run_shard(
            tasks(few),
            diversity::Params {
                samples: 3,
                ..div_params()
            },
            Shard::new(2, 3).unwrap(),
            &cfg(1),
        )
        .unwrap(),
    )
    .unwrap();
    let e = merge_error(&[three[0].clone(), div.clone(), three[2].clone()]);
    assert!(
        e.contains("div.json") && e.contains("command diversity"),
        "{e}"
    );
    // A part from another build: a changed fingerprint.
    let text = std::fs::read_to_string(&three[1]).unwrap();
    let forged = dir.path().join("forged.json");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut v = v.as_object().unwrap().clone();
    v.insert("fingerprint".into(), "solvability-0 older".into());
    std::fs::write(&forged, serde_json::to_string(&v).unwrap()).unwrap();
    let e = merge_error(&[three[0].clone(), forged.clone(), three[2].clone()]);
    assert!(
        e.contains("forged.json") && e.contains("fingerprint"),
        "{e}"
    );
    // Not a part file at all.
    let junk = dir.path().join("junk.csv");
    std::fs::write(&junk, "task_id,tier\n").unwrap();
    let e = merge_error(&[three[0].clone(), junk]);
    assert!(
        e.contains("corrupt part file") && e.contains("junk.csv"),
        "{e}"
    );
    // The good set still merges.
    assert!(read_parts::<solvability::TaskState>(&three).is_ok());
}

/// Solvability on the ball tier with the defaults but for these sizes.
fn small_solvability(min_valid: u64, max_valid: u64, batch: u64) -> solvability::Params {
    let mut request = solvability::Request::new(Tier::Ball);
    (request.min_valid, request.max_valid, request.batch) = (min_valid, Some(max_valid), batch);
    request.params().unwrap()
}
