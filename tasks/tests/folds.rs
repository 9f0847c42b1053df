//! Evaluation folds (SPEC §6).

use std::collections::BTreeSet;

use tasks::folds::{split, split_tasks, FoldError, FOLDS};
use tasks::{Setup, TaskId, TaskSet};

fn templates(ids: &[TaskId]) -> Vec<String> {
    let set: BTreeSet<u32> = ids.iter().map(|id| id.template()).collect();
    set.into_iter().map(|t| format!("{t:05}")).collect()
}

#[test]
fn every_setup_and_fold_has_1600_400_500_disjoint_sorted_tasks() {
    let all = TaskSet::builtin();
    for setup in Setup::ALL {
        let tier_ids: BTreeSet<TaskId> = all.tier(setup.tier()).map(|t| t.id()).collect();
        let mut test_union = BTreeSet::new();
        for fold in 0..FOLDS {
            let s = split(setup, fold).unwrap();
            assert_eq!(
                (s.train.len(), s.dev.len(), s.test.len()),
                (1600, 400, 500),
                "{setup} {fold}"
            );
            for list in [&s.train, &s.dev, &s.test] {
                assert!(list.windows(2).all(|w| w[0] < w[1]), "sorted, unique");
            }
            let union: BTreeSet<TaskId> = s
                .train
                .iter()
                .chain(&s.dev)
                .chain(&s.test)
                .copied()
                .collect();
            assert_eq!(union, tier_ids, "{setup} {fold}: a partition of the tier");
            if setup.is_cross_template() {
                let (tr, dv, te) = (templates(&s.train), templates(&s.dev), templates(&s.test));
                assert_eq!((tr.len(), dv.len(), te.len()), (16, 4, 5));
            } else {
                // Within-template: every template has 20 test tasks and 80 train + dev.
                for t in templates(&s.test) {
                    let n = s
                        .test
                        .iter()
                        .filter(|id| format!("{:05}", id.template()) == t)
                        .count();
                    assert_eq!(n, 20);
                }
                assert_eq!(templates(&s.test).len(), 25);
            }
            test_union.extend(s.test.iter().copied());
        }
        if setup.is_cross_template() {
            // Folds differ: over 10 folds many templates get a turn at being tested.
            assert!(test_union.len() >= 1500, "{setup}: {}", test_union.len());
        }
    }
}

#[test]
fn fold_0_matches_the_original() {
    let s = split(Setup::BallCrossTemplate, 0).unwrap();
    assert_eq!(
        templates(&s.test),
        ["00003", "00004", "00014", "00015", "00019"]
    );
    assert_eq!(templates(&s.dev), ["00000", "00008", "00011", "00018"]);
    let s = split(Setup::TwoBallsCrossTemplate, 0).unwrap();
    assert_eq!(
        templates(&s.test),
        ["00101", "00103", "00106", "00109", "00122"]
    );
}

#[test]
fn within_template_fold_is_deterministic_and_fold_dependent() {
    let a = split(Setup::BallWithinTemplate, 3).unwrap();
    let b = split(Setup::BallWithinTemplate, 3).unwrap();
    let c = split(Setup::BallWithinTemplate, 4).unwrap();
    assert_eq!(a, b);
    assert_ne!(a.test, c.test);
}

#[test]
fn bad_folds_setups_and_task_sets_are_errors() {
    assert_eq!(
        split(Setup::BallCrossTemplate, 10),
        Err(FoldError::BadFold(10))
    );
    assert!(matches!(
        "ball_cross".parse::<Setup>(),
        Err(FoldError::UnknownSetup(_))
    ));
    for s in Setup::ALL {
        assert_eq!(s.name().parse::<Setup>(), Ok(s));
    }
    let mine = TaskSet::from_tasks(tasks::template::examples::all().unwrap()).unwrap();
    assert!(matches!(
        split_tasks(&mine, Setup::BallCrossTemplate, 0),
        Err(FoldError::WrongTaskSet { .. })
    ));
}

/// Every fold of every setup, train, dev and test, equals phyre 0.2.2's `get_fold(setup, fold)`
/// (the dev split of fold k is salted with k, `dev_ball_cross_template_half_{k}` and
/// `make_dev{k}`, as the original's `get_fold` passes `dev_seed=seed`). The table was produced
/// by phyre 0.2.2's `get_fold` on Python 3.9: an md5 per split and its first id.
#[test]
fn every_fold_matches_phyre_0_2_2_get_fold() {
    let table = include_str!("data/folds-phyre-0.2.2.tsv");
    let mut rows = 0;
    for line in table.lines().filter(|l| !l.starts_with('#')) {
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 8, "{line}");
        let setup: Setup = cols[0].parse().unwrap();
        let fold: u32 = cols[1].parse().unwrap();
        let s = split(setup, fold).unwrap();
        for (k, (name, ids)) in [("train", &s.train), ("dev", &s.dev), ("test", &s.test)]
            .into_iter()
            .enumerate()
        {
            let text: Vec<String> = ids.iter().map(|id| id.to_string()).collect();
            assert_eq!(
                tasks::checksum::md5_hex(text.join("\n").as_bytes()),
                cols[2 + k],
                "{setup} fold {fold} {name}"
            );
            assert_eq!(text[0], cols[5 + k], "{setup} fold {fold} {name}");
        }
        rows += 1;
    }
    assert_eq!(rows, 4 * FOLDS as usize);
}
