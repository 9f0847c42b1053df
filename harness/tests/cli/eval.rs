//! `eval` and `compare`: agents on a small action set, the outcome-table cache (reused,
//! extended, equal to a fresh table), thread independence, DQN models saved and loaded, and bad
//! input.

use crate::common::{col, eval_b_cross, fails, ok, parse_csv, s, without_seconds};
use std::path::Path;

#[test]
fn eval_and_compare_on_a_small_action_set() {
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n);
    for agent in ["mem", "rand"] {
        let out = p(&format!("{agent}.csv"));
        let cache = p("table");
        let (table, plot, per_task) = (p("t.md"), p("c.svg"), p("tasks.csv"));
        let mut args = eval_b_cross(agent, "0-1", "4");
        args.extend(["--cache", s(&cache), "--out", s(&out), "--table", s(&table)]);
        args.extend(["--plot", s(&plot), "--per-task", s(&per_task)]);
        let text = ok(&args);
        assert!(text.contains("| agent | B cross"), "{text}");
        let (header, rows) = parse_csv(&std::fs::read_to_string(&out).unwrap());
        assert_eq!(rows.len(), 2);
        let a = col(&header, "auccess");
        assert!(rows
            .iter()
            .all(|r| (0.0..=1.0).contains(&r[a].parse::<f64>().unwrap())));
        // The per-task file holds each fold's test tasks, and their attempts give the fold's
        // AUCCESS again.
        let (th, trows) = parse_csv(&std::fs::read_to_string(p("tasks.csv")).unwrap());
        assert_eq!(th, ["agent", "setup", "fold", "split", "task", "solved_at"]);
        let (fold, at) = (col(&th, "fold"), col(&th, "solved_at"));
        for r in &rows {
            let of_fold: Vec<agents::auccess::SolvedAt> = trows
                .iter()
                .filter(|t| t[fold] == r[col(&header, "fold")])
                .map(|t| (!t[at].is_empty()).then(|| t[at].parse().unwrap()))
                .collect();
            assert_eq!(of_fold.len(), 500, "a fold's test tasks");
            assert!(of_fold.iter().flatten().all(|&k| (1..=100).contains(&k)));
            let again = agents::auccess::auccess(&of_fold, 100);
            assert_eq!(again, r[a].parse::<f64>().unwrap(), "{r:?}");
        }
        assert!(trows.iter().any(|t| t[at].is_empty()), "some task unsolved");
        assert!(std::fs::read_to_string(p("c.svg"))
            .unwrap()
            .contains("<svg"));
    }
    // The outcome table was computed once and reused (the checkpoint exists and resumes).
    assert!(p("table.ball.ckpt").exists());
    // MEM-O's per-fold results (every column but the wall time): on these folds, with this many
    // actions, on this many threads (default: one per core), with or without the cache.
    let memo = |folds: &str, actions: &str, threads: Option<&str>, cache: bool| {
        let out = p(&format!("memo-{folds}-{actions}-{threads:?}-{cache}.csv"));
        let mut args = vec![];
        if let Some(t) = threads {
            args.extend(["--threads", t]);
        }
        args.extend(eval_b_cross("memo", folds, actions));
        args.extend(["--out", s(&out)]);
        let table = p("table");
        if cache {
            args.extend(["--cache", s(&table)]);
        }
        ok(&args);
        let (header, rows) = parse_csv(&std::fs::read_to_string(&out).unwrap());
        // Each fold's row names the online weight MEM-O chose on that fold's dev split.
        let tuned = col(&header, "tuned");
        for r in &rows {
            let w = r[tuned]
                .strip_prefix("online_weight=")
                .unwrap_or_else(|| panic!("{r:?}"));
            assert!(
                agents::baselines::MEMO_WEIGHTS.contains(&w.parse::<f64>().unwrap()),
                "{r:?}"
            );
        }
        without_seconds((header, rows))
    };
    let cached_columns = || -> Vec<usize> {
        let cp: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(p("table.ball.ckpt")).unwrap()).unwrap();
        cp["tasks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t[2]["codes"].as_array().unwrap().len())
            .collect()
    };
    assert!(cached_columns().iter().all(|&n| n == 4));
    // A smaller set is read from the 4-action cache (its first columns), which keeps all 4.
    assert_eq!(memo("0-1", "2", None, true), memo("0-1", "2", None, false));
    assert!(cached_columns().iter().all(|&n| n == 4));
    // A larger set extends the cache by the missing columns, with the results of a fresh table.
    assert_eq!(memo("0-1", "5", None, true), memo("0-1", "5", None, false));
    let columns = cached_columns();
    assert_eq!(columns.len(), 2500);
    assert!(columns.iter().all(|&n| n == 5));
    // Results do not depend on the thread count.
    assert_eq!(
        memo("0-3", "4", Some("1"), false),
        memo("0-3", "4", Some("2"), false)
    );
    let cmp = ok(&["compare", s(&p("mem.csv")), s(&p("rand.csv"))]);
    // Pinned: MEM is ahead on both folds (0.0643 vs 0.0593, 0.0496 vs 0.0468), the most two
    // paired folds can give, and not significant (exact p = 1/4).
    assert_eq!(
        cmp.trim(),
        "MEM > RAND: 2 paired folds, T+ = 3, one-sided p = 0.250000 (exact) → not significant at 0.01",
        "{cmp}"
    );
    // A results file written before the `tuned` column existed still compares, the same way.
    let without_tuned = |name: &str| {
        let text = std::fs::read_to_string(p(name)).unwrap();
        let (header, rows) = parse_csv(&text);
        let keep: Vec<usize> = (0..header.len())
            .filter(|&i| header[i] != "tuned")
            .collect();
        assert!(keep.len() < header.len(), "{name} has a tuned column");
        let line = |r: &[String]| {
            keep.iter()
                .map(|&i| r[i].clone())
                .collect::<Vec<_>>()
                .join(",")
        };
        let mut old = line(&header);
        for r in &rows {
            old.push('\n');
            old.push_str(&line(r));
        }
        let path = p(&format!("old-{name}"));
        std::fs::write(&path, old + "\n").unwrap();
        path
    };
    let (old_mem, old_rand) = (without_tuned("mem.csv"), without_tuned("rand.csv"));
    assert_eq!(ok(&["compare", s(&old_mem), s(&old_rand)]), cmp);
    let bad_agent = fails(&["eval", "--agent", "dqm", "--out", s(&p("x.csv"))]);
    assert!(
        bad_agent.contains("invalid value 'dqm'")
            && bad_agent.contains("[possible values: rand, mem, memo, optimal, dqn, dqn-o, all]"),
        "{bad_agent}"
    );
    assert!(fails(&["eval", "--folds", "3-12", "--out", s(&p("x.csv"))]).contains("folds"));
    assert!(fails(&["compare", s(&p("mem.csv")), s(&p("missing.csv"))]).contains("cannot read"));
}

/// `--split` chooses which of a fold's tasks are evaluated: its test, dev or training tasks,
/// and names it in the results with what the agents learned from.
#[test]
fn the_split_chooses_the_evaluated_tasks() {
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n);
    let setup = tasks::Setup::BallWithinTemplate;
    let split = tasks::folds::split_tasks(tasks::TaskSet::builtin(), setup, 3).unwrap();
    for (name, expected) in [
        ("train", &split.train),
        ("dev", &split.dev),
        ("test", &split.test),
    ] {
        let per_task = p(&format!("{name}-tasks.csv"));
        ok(&[
            "eval",
            "--agent",
            "mem",
            "--setup",
            "ball_within_template",
            "--split",
            name,
            "--folds",
            "3",
            "--actions",
            "3",
            "--cache",
            s(&p("table")),
            "--out",
            s(&p(&format!("{name}.csv"))),
            "--per-task",
            s(&per_task),
        ]);
        let (header, rows) =
            parse_csv(&std::fs::read_to_string(p(&format!("{name}.csv"))).unwrap());
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0][col(&header, "split")], name);
        // The agents learned from the training and dev tasks for the test split (the
        // original's protocol), from the training tasks alone otherwise.
        let learned = if name == "test" { "train-dev" } else { "train" };
        assert_eq!(rows[0][col(&header, "learned_from")], learned);
        assert_eq!(rows[0][col(&header, "tasks")], expected.len().to_string());
        let (th, trows) = parse_csv(&std::fs::read_to_string(&per_task).unwrap());
        let mut seen: Vec<String> = trows.iter().map(|r| r[col(&th, "task")].clone()).collect();
        seen.sort();
        let mut want: Vec<String> = expected.iter().map(|id| id.to_string()).collect();
        want.sort();
        assert_eq!(seen, want, "the {name} split's tasks");
    }
    // The dev tasks cannot be learned from where they are evaluated.
    let err = fails(&[
        "eval",
        "--agent",
        "mem",
        "--split",
        "dev",
        "--learn-from",
        "train-dev",
        "--out",
        s(&p("x.csv")),
    ]);
    assert!(
        err.contains("--learn-from train-dev needs --split test"),
        "{err}"
    );
}

/// DQN on a 4-action set with a few updates: a model per fold is saved, a second run loads it
/// and gives the same results, a model trained otherwise is refused, DQN-O with no online
/// update ranks like DQN from the same model, bad values fail cleanly.
/// (DQN-O's online updates are tested on synthetic data in `agents`: hundreds of test tasks
/// cost minutes.)
#[test]
fn dqn_models_are_saved_and_loaded() {
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n);
    let (table, models) = (p("table"), p("models"));
    let args = |agent: &'static str, updates: &'static str, out: &std::path::Path| -> Vec<String> {
        let mut a = eval_b_cross(agent, "0", "4");
        a.extend(["--cache", s(&table), "--models", s(&models)]);
        a.extend(["--dqn-updates", updates, "--out", s(out)]);
        a.into_iter().map(String::from).collect()
    };
    let run_ok = |a: Vec<String>| ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let run_fails = |a: Vec<String>| fails(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let results =
        |out: &std::path::Path| without_seconds(parse_csv(&std::fs::read_to_string(out).unwrap()));
    let (first, second) = (p("a.csv"), p("b.csv"));
    let text = run_ok(args("dqn", "3", &first));
    assert!(text.contains("| DQN |"), "{text}");
    let model_names = || -> Vec<String> {
        let mut n: Vec<String> = std::fs::read_dir(&models)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        n.sort();
        n
    };
    assert_eq!(model_names().len(), 1, "one model for one fold");
    // For the test split it learned from the fold's training and dev tasks, and says so.
    let first_model = &model_names()[0];
    assert!(
        first_model.starts_with("dqn-ball_cross_template-fold0+dev-cpu-"),
        "{first_model}"
    );
    run_ok(args("dqn", "3", &second));
    assert_eq!(
        results(&first),
        results(&second),
        "the loaded model ranks alike"
    );
    // One fold on several threads ranks its test tasks on all of them: the same results as on one.
    for threads in ["1", "3"] {
        let out = p(&format!("t{threads}.csv"));
        let mut on = vec!["--threads".to_string(), threads.to_string()];
        on.extend(args("dqn", "3", &out));
        run_ok(on);
        assert_eq!(results(&out), results(&first), "{threads} threads");
    }
    // A DQN fold an eval checkpoint holds is taken from it when resumed (no model is loaded:
    // a models directory emptied in between is left empty); a fold of other DQN options is run
    // and joins the file beside it.
    let ck = p("eval.ckpt");
    let with_ckpt = |out: &str, extra: &[&str]| {
        let mut a = args("dqn", "3", &p(out));
        a.extend(["--checkpoint", s(&ck)].map(String::from));
        a.extend(extra.iter().map(|x| x.to_string()));
        a
    };
    let stderr_of = |a: Vec<String>| {
        crate::common::ok_stderr(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    run_ok(with_ckpt("k1.csv", &[]));
    let moved = p("models-moved");
    std::fs::rename(&models, &moved).unwrap();
    std::fs::create_dir(&models).unwrap();
    let err = stderr_of(with_ckpt("k2.csv", &["--resume"]));
    assert!(err.contains("resumed: 1 of the 1"), "{err}");
    assert_eq!(results(&p("k2.csv")), results(&first));
    assert_eq!(std::fs::read_dir(&models).unwrap().count(), 0);
    // Seed 1: not in the file, so trained (its model is saved) and recorded.
    let err = stderr_of(with_ckpt("k3.csv", &["--resume", "--dqn-seed", "1"]));
    assert!(!err.contains("resumed"), "{err}");
    assert_eq!(std::fs::read_dir(&models).unwrap().count(), 1);
    std::fs::remove_dir_all(&models).unwrap();
    std::fs::create_dir(&models).unwrap();
    for (seed, out) in [("0", "k4.csv"), ("1", "k5.csv")] {
        let err = stderr_of(with_ckpt(out, &["--resume", "--dqn-seed", seed]));
        assert!(err.contains("resumed: 1 of the 1"), "seed {seed}: {err}");
    }
    assert_eq!(results(&p("k4.csv")), results(&first));
    assert_eq!(results(&p("k5.csv")), results(&p("k3.csv")));
    assert_eq!(std::fs::read_dir(&models).unwrap().count(), 0);
    std::fs::remove_dir(&models).unwrap();
    std::fs::rename(&moved, &models).unwrap();
    assert!(run_fails(args("dqn", "4", &p("c.csv"))).contains("another configuration"));
    // DQN-O loads the same model whatever its online settings; with no online update it ranks
    // every task as DQN does.
    let mut still = args("dqn-o", "3", &p("o.csv"));
    still.extend(["--dqn-online-updates", "0", "--dqn-online-lr", "0.01"].map(String::from));
    run_ok(still);
    let as_dqn = |rows: Vec<Vec<String>>| -> Vec<Vec<String>> {
        rows.into_iter().map(|r| r[1..].to_vec()).collect()
    };
    assert_eq!(as_dqn(results(&p("o.csv"))), as_dqn(results(&first)));
    let mut bad_lr = args("dqn-o", "3", &p("f.csv"));
    bad_lr.extend(["--dqn-online-lr", "0"].map(String::from));
    assert!(run_fails(bad_lr).contains("must be a number in (0, 1]"));
    assert!(run_fails(args("dqn", "0", &p("d.csv"))).contains("dqn-updates"));
    // Training on 8 actions while ranking 4: the table grows to 8 columns, the model is named
    // and recorded by the 8 it trained on, and the results still rank the 4.
    let mut wider = args("dqn", "3", &p("w.csv"));
    wider.extend(["--dqn-train-actions", "8"].map(String::from));
    run_ok(wider.clone());
    let mut names: Vec<String> = std::fs::read_dir(&models)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(
        names.len() == 2 && names[0].contains("-4actions-") && names[1].contains("-8actions-"),
        "{names:?}"
    );
    let model8 = std::fs::read(models.join(&names[1])).unwrap();
    let header = String::from_utf8_lossy(&model8[..model8.len().min(4096)]).into_owned();
    assert!(header.contains("8 actions"), "{header}");
    assert!(header.contains(r#""trained_with":"cpu""#), "{header}");
    let (h, rows) = parse_csv(&std::fs::read_to_string(p("w.csv")).unwrap());
    assert_eq!(rows[0][col(&h, "actions")], "4");
    run_ok(wider);
    let mut narrower = args("dqn", "3", &p("n.csv"));
    narrower.extend(["--dqn-train-actions", "2"].map(String::from));
    assert!(run_fails(narrower).contains("must be at least --actions"));
    let mut bad = args("dqn", "3", &p("e.csv"));
    bad[1] = "--dqn-profile".into();
    bad[2] = "gpu".into();
    assert!(run_fails(bad).contains("possible values: cpu, paper"));
    // The GPU backend is a build option: without it the choice is refused before any work.
    let mut gpu = args("dqn", "3", &p("g.csv"));
    gpu.extend(["--dqn-device", "gpu"].map(String::from));
    if cfg!(feature = "gpu") {
        eprintln!("built with the GPU backend: its refusal is not tested");
    } else {
        assert!(run_fails(gpu).contains("--features gpu"));
        assert!(!p("g.csv").exists());
    }
    // Agents that train no network ignore the choice (nothing is probed or refused for them).
    let mut rand_gpu = args("rand", "3", &p("rg.csv"));
    rand_gpu.extend(["--dqn-device", "gpu"].map(String::from));
    run_ok(rand_gpu);
    assert!(p("rg.csv").exists());
    // Mirrored ranking is a view of the same model: it is loaded, not trained again.
    let mut mirrored = args("dqn", "3", &p("m.csv"));
    mirrored.extend(["--dqn-mirror-ranking", "true"].map(String::from));
    run_ok(mirrored);
    assert_eq!(model_names().len(), 2, "the model was loaded");
    // Levers measured as no gain are not options any more.
    for retired in ["--dqn-mirror", "--dqn-near-misses", "--dqn-weight-decay"] {
        let mut gone = args("dqn", "3", &p("r.csv"));
        gone.extend([retired, "1"].map(String::from));
        assert!(run_fails(gone).contains(retired), "{retired}");
    }
    // An ensemble of two: the seed-0 model is loaded, a seed-1 model trained and saved beside it.
    let mut pair = args("dqn", "3", &p("e2.csv"));
    pair.extend(["--dqn-ensemble", "2"].map(String::from));
    run_ok(pair.clone());
    let names = model_names();
    assert!(
        names.len() == 3 && names.iter().any(|n| n.ends_with("-4actions-seed1.model")),
        "{names:?}"
    );
    run_ok(pair);
    assert_eq!(model_names().len(), 3, "both members loaded");
    let mut none = args("dqn", "3", &p("e0.csv"));
    none.extend(["--dqn-ensemble", "0"].map(String::from));
    assert!(run_fails(none).contains("--dqn-ensemble"));
    let mut not_bool = args("dqn", "3", &p("b.csv"));
    not_bool.extend(["--dqn-mirror-ranking", "maybe"].map(String::from));
    assert!(run_fails(not_bool).contains("--dqn-mirror-ranking"));
    // Another network shape: a model of its own, named after the shape, beside the preset's.
    let mut finer = args("dqn", "3", &p("s.csv"));
    finer.extend(
        [
            "--dqn-obs-size",
            "128",
            "--dqn-stem-kernel",
            "5",
            "--dqn-stem-pool",
            "true",
            "--dqn-widths",
            "4,8,8,16",
        ]
        .map(String::from),
    );
    run_ok(finer.clone());
    let names = model_names();
    assert!(
        names.len() == 4
            && names
                .iter()
                .any(|n| n.contains("-cpu-obs128-k5-pool-w4.8.8.16-4actions-seed0")),
        "{names:?}"
    );
    let shaped =
        std::fs::read(models.join(names.iter().find(|n| n.contains("obs128")).unwrap())).unwrap();
    let header = String::from_utf8_lossy(&shaped[..shaped.len().min(4096)]).into_owned();
    assert!(header.contains(r#""obs_size":128"#), "{header}");
    assert!(header.contains(r#""widths":[4,8,8,16]"#), "{header}");
    run_ok(finer);
    assert_eq!(model_names().len(), 4, "the shaped model was loaded");
    for (flag, value, says) in [
        ("--dqn-obs-size", "100", "must divide 256"),
        ("--dqn-obs-size", "4", "too small"),
        ("--dqn-stem-kernel", "4", "must be odd"),
        ("--dqn-widths", "8", "at least 2 stages"),
        ("--dqn-widths", "8,0,8", "at least one channel"),
        ("--dqn-widths", "8,x", "--dqn-widths"),
        ("--dqn-blocks", "0", "--dqn-blocks 0 must be 1 to 8"),
        ("--dqn-batch", "1", "--dqn-batch 1 must be"),
        ("--dqn-actions-per-scene", "5", "divide the batch"),
        ("--dqn-lr", "0", "--dqn-lr"),
    ] {
        let mut bad = args("dqn", "3", &p("x.csv"));
        bad.extend([flag, value].map(String::from));
        let err = run_fails(bad);
        assert!(err.contains(says), "{flag} {value}: {err}");
        assert!(!p("x.csv").exists());
    }
}

/// `eval` of `[agent, folds, actions, name]` on B cross with `--cache cache`, writing
/// `name.csv` and `name-tasks.csv` (`--per-task`) in `dir`, and `extra`; its standard error.
fn eval_named(
    dir: &Path,
    cache: &Path,
    [agent, folds, actions, name]: [&str; 4],
    extra: &[&str],
) -> String {
    let mut args = eval_b_cross(agent, folds, actions);
    let (out, tasks) = (
        dir.join(format!("{name}.csv")),
        dir.join(format!("{name}-tasks.csv")),
    );
    args.extend([
        "--cache",
        s(cache),
        "--out",
        s(&out),
        "--per-task",
        s(&tasks),
    ]);
    args.extend_from_slice(extra);
    crate::common::ok_stderr(&args)
}

/// Folds evaluated apart (as array jobs on as many machines would), each with its own
/// checkpoint, merge into one checkpoint whatever their order, and the run resumed from it
/// reports them all without running any: the uninterrupted run's results. Checkpoints of
/// another evaluation, or holding other results for the same fold, are refused by name.
#[test]
fn folds_run_apart_merge_into_one_checkpoint_that_reports_them_all() {
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n);
    let cache = p("table");
    let eval = |agent: &str, folds: &str, actions: &str, name: &str, extra: &[&str]| {
        eval_named(dir.path(), &cache, [agent, folds, actions, name], extra)
    };
    let rows = |name: &str| parse_csv(&std::fs::read_to_string(p(&format!("{name}.csv"))).unwrap());
    let read = |name: &str| std::fs::read(p(name)).unwrap();
    eval("memo", "0-2", "4", "whole", &[]);
    let mut seconds = Vec::new();
    for fold in ["0", "1", "2"] {
        let ckpt = p(&format!("fold-{fold}.ckpt"));
        eval(
            "memo",
            fold,
            "4",
            &format!("fold-{fold}"),
            &["--checkpoint", s(&ckpt)],
        );
        let (h, r) = rows(&format!("fold-{fold}"));
        seconds.push(r[0][col(&h, "seconds")].clone());
    }
    let [f0, f1, f2] = ["fold-0.ckpt", "fold-1.ckpt", "fold-2.ckpt"].map(&p);
    let err =
        crate::common::ok_stderr(&["merge", s(&f2), s(&f0), s(&f1), "--out", s(&p("all.ckpt"))]);
    assert!(
        err.contains("merged 3 eval checkpoints: 3 (agent, setup, fold) results"),
        "{err}"
    );
    crate::common::ok_stderr(&[
        "merge",
        s(&f0),
        s(&f1),
        s(&f2),
        s(&f1),
        "--out",
        s(&p("again.ckpt")),
    ]);
    assert_eq!(
        read("again.ckpt"),
        read("all.ckpt"),
        "the order and repeats of the files change nothing"
    );
    let all = p("all.ckpt");
    let err = eval(
        "memo",
        "0-2",
        "4",
        "merged",
        &["--checkpoint", s(&all), "--resume"],
    );
    assert!(err.contains("resumed: 3 of the 3"), "{err}");
    assert_eq!(
        without_seconds(rows("merged")),
        without_seconds(rows("whole"))
    );
    assert_eq!(read("merged-tasks.csv"), read("whole-tasks.csv"));
    let (h, merged) = rows("merged");
    let merged_seconds: Vec<String> = merged
        .iter()
        .map(|r| r[col(&h, "seconds")].clone())
        .collect();
    assert_eq!(merged_seconds, seconds, "each fold's time is its own run's");
    // Another action set is another evaluation: refused by name.
    eval(
        "memo",
        "0",
        "3",
        "other",
        &["--checkpoint", s(&p("other.ckpt"))],
    );
    let merge_fails = |a: &Path, b: &Path| fails(&["merge", s(a), s(b), "--out", s(&p("x.ckpt"))]);
    let err = merge_fails(&f0, &p("other.ckpt"));
    assert!(
        err.contains("other.ckpt") && err.contains("different evaluation"),
        "{err}"
    );
    // The same fold with other results (edited here) is refused, naming both files.
    let mut edited: serde_json::Value = serde_json::from_slice(&read("fold-1.ckpt")).unwrap();
    let solved = &mut edited["units"][0]["solved"];
    let flipped = match solved[0].as_u64() {
        Some(_) => serde_json::Value::Null,
        None => serde_json::json!(1),
    };
    solved[0] = flipped;
    std::fs::write(p("edited.ckpt"), serde_json::to_vec(&edited).unwrap()).unwrap();
    let err = merge_fails(&f1, &p("edited.ckpt"));
    assert!(
        err.contains("fold-1.ckpt")
            && err.contains("edited.ckpt")
            && err.contains("different results"),
        "{err}"
    );
    // A report option has nothing to write for checkpoints.
    let err = fails(&[
        "merge",
        s(&f0),
        "--out",
        s(&p("x.ckpt")),
        "--summary",
        s(&p("x.md")),
    ]);
    assert!(
        err.contains("--summary") && err.contains("--resume"),
        "{err}"
    );
    assert!(!p("x.ckpt").exists());
}

/// `eval --checkpoint`: a run stopped after some folds resumes with only the others, and gives
/// the results of one uninterrupted run; a checkpoint of other options is refused.
#[test]
fn a_stopped_evaluation_resumes_from_its_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n);
    let (cache, ckpt) = (p("table"), p("eval.ckpt"));
    let eval = |folds: &str, name: &str, extra: &[&str]| {
        eval_named(dir.path(), &cache, ["memo", folds, "4", name], extra)
    };
    let rows = |name: &str| parse_csv(&std::fs::read_to_string(p(&format!("{name}.csv"))).unwrap());
    let tasks = |name: &str| std::fs::read(p(&format!("{name}-tasks.csv"))).unwrap();
    eval("0-2", "whole", &[]);
    // A run of folds 0-2 stopped after fold 1 finished: its checkpoint holds fold 1 only.
    eval("1", "part", &["--checkpoint", s(&ckpt)]);
    let (h, part) = rows("part");
    let fold1_seconds = part[0][col(&h, "seconds")].clone();
    let err = eval("0-2", "resumed", &["--checkpoint", s(&ckpt), "--resume"]);
    assert!(err.contains("resumed: 1 of the 3"), "{err}");
    assert_eq!(
        without_seconds(rows("resumed")),
        without_seconds(rows("whole"))
    );
    assert_eq!(tasks("resumed"), tasks("whole"));
    // Fold 1 was taken from the checkpoint, not run again: its time is the first run's.
    let (h, resumed) = rows("resumed");
    assert_eq!(resumed[1][col(&h, "fold")], "1");
    assert_eq!(resumed[1][col(&h, "seconds")], fold1_seconds);
    // Every fold is in the checkpoint now: a third run runs nothing and says so.
    let err = eval("0-2", "again", &["--checkpoint", s(&ckpt), "--resume"]);
    assert!(err.contains("resumed: 3 of the 3"), "{err}");
    assert_eq!(rows("again"), rows("resumed"));
    // DQN options do not touch an untrained agent's results, so they do not keep it from
    // its saved folds.
    let err = eval(
        "0-2",
        "dqn-seed",
        &["--checkpoint", s(&ckpt), "--resume", "--dqn-seed", "7"],
    );
    assert!(err.contains("resumed: 3 of the 3"), "{err}");
    assert_eq!(rows("dqn-seed"), rows("resumed"));
    // Without --resume the checkpoint starts afresh.
    let err = eval("0", "fresh", &["--checkpoint", s(&ckpt)]);
    assert!(!err.contains("resumed"), "{err}");
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&ckpt).unwrap()).unwrap();
    assert_eq!(saved["units"].as_array().unwrap().len(), 1);
    // Another action set is another evaluation.
    let x = p("x.csv");
    let mut other = eval_b_cross("memo", "0", "3");
    other.extend(["--cache", s(&cache), "--out", s(&x)]);
    other.extend(["--checkpoint", s(&ckpt), "--resume"]);
    let other = fails(&other);
    assert!(other.contains("different evaluation"), "{other}");
    assert!(fails(&["eval", "--resume", "--out", s(&p("x.csv"))]).contains("--checkpoint"));
    let shard = fails(&[
        "eval",
        "--shard",
        "1/2",
        "--out",
        s(&p("x.part")),
        "--checkpoint",
        s(&ckpt),
    ]);
    assert!(shard.contains("--cache"), "{shard}");
}
