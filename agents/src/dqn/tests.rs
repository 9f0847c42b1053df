//! Tests of the DQN on small synthetic data (seconds each in release).

use super::agent::{Dqn, DqnContext};
use super::config::{NetConfig, Profile, TrainConfig};
use super::data::{near_misses, sample, sample_grouped, Example, Observations, Pools, TaskPools};
use super::network::Net;
use super::scoring::Scorer;
use super::training::NoProgress;
use crate::protocol::{Agent, Simulator, Status, StatusTable};
use std::sync::Arc;

const SIZE: usize = 16;

/// The CPU preset made small enough for synthetic 16×16 scenes and seconds of training: two
/// stages, a narrow action MLP, no coordinate or ball planes, one action per scene.
fn tiny_config(seed: u64, updates: usize) -> TrainConfig {
    let cpu = TrainConfig::preset(Profile::Cpu, 3, seed);
    TrainConfig {
        net: NetConfig {
            obs_size: SIZE,
            widths: vec![8, 16],
            action_hidden: 16,
            coord_planes: false,
            ball_plane: false,
            ..cpu.net
        },
        updates,
        batch: 32,
        lr: 3e-3,
        actions_per_scene: 1,
        online_updates: 1,
        online_lr: 1e-4,
        mirror_ranking: false,
        ..cpu
    }
}

/// Task `t` of `n` shows a vertical red bar at column `bar(t)`; an action (x, y) solves it when
/// x is within 0.1 of the bar's position. Actions are a grid-like deterministic set.
fn synthetic(tasks: usize, actions: usize) -> (DqnContext, StatusTable) {
    let bar = |t: usize| 2 + (t * 11) % (SIZE - 4);
    let mut masks = Vec::new();
    for t in 0..tasks {
        for _y in 0..SIZE {
            for x in 0..SIZE {
                let red = x == bar(t) || x == bar(t) + 1;
                masks.push(if red { 1 << raster::colour::RED } else { 1 });
            }
        }
    }
    let set: Vec<Vec<f64>> = (0..actions)
        .map(|a| {
            let w = tasks::rng::word(7, 1, a as u64, 0);
            vec![
                tasks::rng::unit_f64(w),
                tasks::rng::unit_f64(w.rotate_left(32)),
                tasks::rng::unit_f64(w.rotate_left(16)),
            ]
        })
        .collect();
    let mut codes = Vec::new();
    for t in 0..tasks {
        let centre = (bar(t) as f64 + 1.0) / SIZE as f64;
        for a in &set {
            let s = if (a[0] - centre).abs() < 0.1 {
                Status::Solved
            } else {
                Status::NotSolved
            };
            codes.push(s.code());
        }
    }
    let table = StatusTable {
        actions,
        templates: (0..tasks as u32).collect(),
        codes,
    };
    (
        DqnContext::new(Observations::from_masks(SIZE, masks), set, actions),
        table,
    )
}

/// `tiny_config` with the CPU profile's additions: grouped batches, coordinate and ball planes.
fn tiny_grouped_config(seed: u64, updates: usize) -> TrainConfig {
    let mut c = tiny_config(seed, updates);
    c.actions_per_scene = 8;
    c.net.coord_planes = true;
    c.net.ball_plane = true;
    c
}

fn trained(seed: u64, updates: usize, tasks: usize) -> (Dqn, StatusTable) {
    trained_with(tiny_config(seed, updates), tasks)
}

fn trained_with(config: TrainConfig, tasks: usize) -> (Dqn, StatusTable) {
    let (ctx, table) = synthetic(tasks, 64);
    let mut dqn = Dqn::new(Arc::new(ctx), config, false, Arc::new(NoProgress));
    let train: Vec<usize> = (0..tasks).collect();
    dqn.train(&table, &train, &[]);
    (dqn, table)
}

#[test]
fn balanced_batches_are_balanced() {
    let mut pools = Pools::default();
    for a in 0..5 {
        pools.add(Example { task: 0, action: a }, Status::Solved);
    }
    for a in 5..1000 {
        pools.add(Example { task: 1, action: a }, Status::NotSolved);
    }
    pools.add(Example { task: 2, action: 0 }, Status::Invalid);
    assert_eq!(pools.len(), 1000, "invalid actions are not examples");
    for update in 0..20 {
        let b = sample(&pools, 64, true, 3, update);
        assert_eq!(b.iter().filter(|(_, s)| *s).count(), 32);
        assert!(
            b.iter().all(|(e, s)| *s == (e.task == 0)),
            "labels match pools"
        );
    }
    // Unbalanced, the rare class stays rare (5 in 1,000).
    let solved: usize = (0..20)
        .map(|u| {
            sample(&pools, 64, false, 3, u)
                .iter()
                .filter(|(_, s)| *s)
                .count()
        })
        .sum();
    assert!(solved < 40, "{solved} solved of 1,280 unbalanced draws");
}

#[test]
fn grouped_batches_share_a_scene_and_are_balanced() {
    let mut pools = Pools::default();
    // Task 0: 3 solving, 40 failing; task 1: failing only; task 2: 10 and 10; task 3 invalid.
    for a in 0..43 {
        let s = if a < 3 {
            Status::Solved
        } else {
            Status::NotSolved
        };
        pools.add(Example { task: 0, action: a }, s);
    }
    for a in 0..50 {
        pools.add(Example { task: 1, action: a }, Status::NotSolved);
    }
    for a in 0..20 {
        let s = if a % 2 == 0 {
            Status::Solved
        } else {
            Status::NotSolved
        };
        pools.add(Example { task: 2, action: a }, s);
    }
    pools.add(Example { task: 3, action: 0 }, Status::Invalid);
    let by_task = TaskPools::new(&pools);
    let mut seen = [0usize; 4];
    for update in 0..50 {
        let b = sample_grouped(&by_task, 64, 8, true, 0, 5, update);
        assert_eq!(b.len(), 64);
        for group in b.chunks(8) {
            let task = group[0].0.task;
            seen[task] += 1;
            assert!(
                group.iter().all(|(e, _)| e.task == task),
                "one scene per group"
            );
            let labels: Vec<bool> = group.iter().map(|(_, s)| *s).collect();
            assert_eq!(labels, [true, true, true, true, false, false, false, false]);
            for &(e, solved) in group {
                let status = if task == 0 {
                    e.action < 3
                } else {
                    e.action % 2 == 0
                };
                assert_eq!(solved, status, "label of {e:?}");
            }
        }
    }
    // An odd group has one more non-solving draw than solving ones, as many as
    // `non_solving_per_scene` says (the number the command line's near-miss check allows).
    for update in 0..5 {
        for group in sample_grouped(&by_task, 63, 7, true, 0, 5, update).chunks(7) {
            let failing = group.iter().filter(|(_, s)| !s).count();
            assert_eq!(failing, super::data::non_solving_per_scene(7));
            assert_eq!(failing, 4);
        }
    }
    assert_eq!(super::data::non_solving_per_scene(1), 0);
    // Only tasks with both kinds are drawn balanced, each about as often (not by pool size).
    assert_eq!(seen[1] + seen[3], 0, "{seen:?}");
    assert!(seen[0] > 150 && seen[2] > 150, "{seen:?}");
    // Unbalanced, a group's labels follow its task's pool and every task with examples is drawn.
    let mut failing_only = 0;
    for update in 0..50 {
        for group in sample_grouped(&by_task, 64, 8, false, 0, 5, update).chunks(8) {
            if group[0].0.task == 1 {
                failing_only += 1;
                assert!(group.iter().all(|(_, s)| !s));
            }
        }
    }
    assert!(failing_only > 0);
}

#[test]
fn near_misses_are_the_failures_nearest_each_solution() {
    // Actions on a line (x, 0.5, 0.5): 0.50 and 0.80 solve; the rest fail.
    let xs = [0.50, 0.80, 0.10, 0.47, 0.55, 0.60, 0.78, 0.95, 0.40, 0.54];
    let actions: Vec<Vec<f64>> = xs.iter().map(|&x| vec![x, 0.5, 0.5]).collect();
    let not_solved: Vec<usize> = (2..xs.len()).collect();
    // Nearest 2 failures of 0.50: 0.47 (3) and 0.54 (9); of 0.80: 0.78 (6) and 0.95 (7).
    assert_eq!(near_misses(&actions, &[0, 1], &not_solved, 2), [3, 6, 7, 9]);
    // k = 1 keeps each solution's nearest; a failure near two solutions is listed once.
    assert_eq!(near_misses(&actions, &[0, 1], &not_solved, 1), [3, 6]);
    assert_eq!(near_misses(&actions, &[0, 4], &[3, 9], 1), [3, 9]);
    assert_eq!(near_misses(&actions, &[0, 1], &[9], 1), [9]);
    // Exact ties go to the lower index.
    let tied: Vec<Vec<f64>> = [0.5, 0.25, 0.75].iter().map(|&x| vec![x]).collect();
    assert_eq!(near_misses(&tied, &[0], &[2, 1], 1), [1]);
    assert!(near_misses(&actions, &[], &not_solved, 3).is_empty());
}

#[test]
fn near_miss_draws_come_from_the_near_misses_and_the_rest_from_all_failures() {
    // One task: action a at x = a / 100; 40..=44 solve; every other action fails.
    let actions: Vec<Vec<f64>> = (0..100).map(|a| vec![f64::from(a) / 100.0]).collect();
    let mut pools = Pools::default();
    for a in 0..100 {
        let s = if (40..=44).contains(&a) {
            Status::Solved
        } else {
            Status::NotSolved
        };
        pools.add(Example { task: 0, action: a }, s);
    }
    let by_task = TaskPools::new(&pools).with_near_misses(&actions);
    let near: Vec<usize> = (36..40).chain(45..49).collect();
    let (mut far, mut near_drawn) = (0, 0);
    for update in 0..100 {
        for group in sample_grouped(&by_task, 64, 8, true, 3, 7, update).chunks(8) {
            for (j, &(e, solved)) in group.iter().enumerate() {
                assert_eq!(solved, j < 4, "labels stay balanced");
                if j >= 5 {
                    assert!(near.contains(&e.action), "slot {j} drew {}", e.action);
                    near_drawn += 1;
                } else if j == 4 && !near.contains(&e.action) {
                    far += 1;
                }
            }
        }
    }
    // The one uniform failure per group is mostly far from the solutions (87 of 95 are).
    assert!(far > 600 && near_drawn == 2400, "{far} {near_drawn}");
    // Without near misses the draws are those of the plain pools.
    assert_eq!(
        sample_grouped(&TaskPools::new(&pools), 64, 8, true, 0, 7, 3),
        sample_grouped(&by_task, 64, 8, true, 0, 7, 3)
    );
}

#[test]
fn task_pools_grown_task_by_task_equal_the_pools_built_at_once() {
    // DQN-O adds each finished test task's attempts; the pools must be those a rebuild from
    // every attempt gives (and so the same batches), in whatever order the tasks finish.
    let mut pools = Pools::default();
    let mut grown = TaskPools::default();
    let actions: Vec<Vec<f64>> = (0..40)
        .map(|a| vec![f64::from(a % 8) / 8.0, f64::from(a / 8) / 5.0])
        .collect();
    let mut grown_near = TaskPools::default().with_near_misses(&actions);
    for (k, task) in [7usize, 2, 9, 4, 2, 0].into_iter().enumerate() {
        let (mut solved, mut failed) = (Vec::new(), Vec::new());
        for action in (k..40).step_by(3) {
            let status = if task != 4 && (action + task) % 5 == 0 {
                solved.push(action);
                Status::Solved
            } else if task == 4 || action % 7 != 0 {
                failed.push(action);
                Status::NotSolved
            } else {
                Status::Invalid
            };
            pools.add(Example { task, action }, status);
        }
        grown.add_task(task, &solved, &failed);
        grown_near.add_task(task, &solved, &failed);
        let built = TaskPools::new(&pools);
        assert_eq!(grown, built, "after task {task}");
        let built_near = TaskPools::new(&pools).with_near_misses(&actions);
        assert_eq!(grown_near, built_near, "after task {task}, near misses");
        for update in 0..5 {
            assert_eq!(
                sample_grouped(&grown, 64, 8, true, 0, 3, update),
                sample_grouped(&built, 64, 8, true, 0, 3, update)
            );
            assert_eq!(
                sample_grouped(&grown_near, 64, 8, true, 2, 3, update),
                sample_grouped(&built_near, 64, 8, true, 2, 3, update)
            );
        }
    }
    // Task 4 never solves: it is in the pools but not among the tasks drawn balanced.
    let built = TaskPools::new(&pools);
    assert!(sample_grouped(&built, 64, 8, true, 0, 3, 0)
        .iter()
        .all(|(e, _)| e.task != 4));
}

#[test]
fn the_ball_plane_draws_the_ball_where_it_is() {
    // One action: a ball of radius 2 + 30·0.5 = 17 px at (255·0.25, 255·0.75) on an 8×8 grid of
    // 32 px cells; row 0 is the bottom of the scene (as in observations).
    let p = super::network::ball_planes(&[0.25, 0.75, 0.5], 3, 8, 8);
    assert_eq!(p.len(), 64);
    let at = |row: usize, col: usize| p[row * 8 + col];
    // The ball's centre (63.75, 191.25) lies in cell (row 5, col 1), whose centre (48, 176) is
    // √(15.75² + 15.25²) ≈ 21.9 px from it: ≈ 4.9 px outside the ball, one cell is 32 px.
    let outside = (15.75f32 * 15.75 + 15.25 * 15.25).sqrt() - 17.0;
    assert!(
        (at(5, 1) - (1.0 - outside / 32.0)).abs() < 1e-5,
        "{}",
        at(5, 1)
    );
    assert_eq!(at(0, 7), 0.0, "far cells are empty");
    assert_eq!(at(5, 6), 0.0);
    // A second ball (the two-ball tier) is drawn on the same plane.
    let two = super::network::ball_planes(&[0.25, 0.75, 0.5, 0.9, 0.1, 1.0], 6, 8, 8);
    assert!(two[5 * 8 + 1] > 0.8 && two[7] > 0.9, "both balls drawn");
}

#[test]
fn film_makes_the_output_depend_on_the_action() {
    let (ctx, _) = synthetic(1, 2);
    let cfg = tiny_config(1, 0);
    let net = Net::new(&cfg.net, 1, &burn::tensor::Device::flex());
    let scorer = Scorer::new(net, &cfg.net);
    let mut planes = Vec::new();
    ctx.obs.push_planes(0, false, &mut planes);
    let s = scorer.score(&planes, &[0.1, 0.2, 0.5, 0.9, 0.7, 0.5]);
    assert_eq!(s.len(), 2);
    assert!(s.iter().all(|v| v.is_finite()));
    assert_ne!(s[0], s[1], "two actions, one score: the action is ignored");
}

#[test]
fn the_network_overfits_a_tiny_dataset() {
    let (dqn, table) = trained(5, 600, 4);
    let loss = dqn.summary.final_loss;
    // Its ranking of the training pairs: share of (solving, failing) pairs of a task in the right
    // order (balanced batches shift the logits' threshold, so the order is what is learned).
    let (mut right, mut pairs) = (0usize, 0usize);
    for t in 0..4 {
        let s = dqn.scores(t);
        let solved = |a: usize| table.codes[t * 64 + a] == Status::Solved.code();
        for a in (0..64).filter(|&a| solved(a)) {
            for b in (0..64).filter(|&b| !solved(b)) {
                pairs += 1;
                right += usize::from(s[a] > s[b]);
            }
        }
    }
    eprintln!("loss {loss}, {right} of {pairs} pairs in order");
    assert!(
        loss < 0.1,
        "final training loss {loss} on 4 tasks × 64 actions"
    );
    assert!(
        pairs > 0 && right * 100 >= pairs * 99,
        "{right} of {pairs} pairs in order"
    );
}

#[test]
fn a_trained_model_ranks_a_solving_action_first() {
    let (mut dqn, table) = trained(9, 150, 6);
    // DQN's first attempt on each training task solves it; an untrained network's ranking is
    // no better than chance there (checked so that this test can fail).
    let train: Vec<usize> = (0..6).collect();
    let solved = crate::protocol::evaluate(&mut dqn, &table, &train);
    let first_try = solved.iter().filter(|s| **s == Some(1)).count();
    assert!(first_try >= 5, "{solved:?}");
    let (mut fresh, _) = trained(9, 0, 6);
    let untrained = crate::protocol::evaluate(&mut fresh, &table, &train);
    assert!(untrained.iter().filter(|s| **s == Some(1)).count() < first_try);
}

#[test]
fn grouped_training_with_coordinate_and_ball_planes_learns_and_is_deterministic() {
    let (mut dqn, table) = trained_with(tiny_grouped_config(9, 150), 6);
    let train: Vec<usize> = (0..6).collect();
    let solved = crate::protocol::evaluate(&mut dqn, &table, &train);
    assert!(
        solved.iter().filter(|s| **s == Some(1)).count() >= 5,
        "{solved:?}"
    );
    let weights = dqn.weights();
    let again = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("pool")
        .install(|| trained_with(tiny_grouped_config(9, 150), 6).0.weights());
    assert_eq!(weights, again, "1 vs 2 threads");
}

#[test]
fn dqn_o_learns_from_its_attempts_deterministically() {
    // Both kinds of online batch: independent draws and groups of one scene.
    for config in [tiny_config(4, 20), tiny_grouped_config(4, 20)] {
        dqn_o_learns_deterministically_with(config);
    }
}

fn dqn_o_learns_deterministically_with(mut config: TrainConfig) {
    // The CPU profile's online learning (10 updates at 3e-3 after each task).
    config.online_updates = 10;
    config.online_lr = 3e-3;
    let run = || {
        let (ctx, table) = synthetic(6, 64);
        let mut dqn = Dqn::new(Arc::new(ctx), config.clone(), true, Arc::new(NoProgress));
        dqn.train(&table, &[0, 1, 2], &[]);
        let before = dqn.scores(5);
        let ranks_before = solving_ranks(&dqn, &table, &[3, 4]);
        let solved = crate::protocol::evaluate(&mut dqn, &table, &[3, 4]);
        let ranks_after = solving_ranks(&dqn, &table, &[3, 4]);
        (
            before,
            dqn.scores(5),
            solved,
            dqn.weights(),
            ranks_before,
            ranks_after,
        )
    };
    let (before, after, solved, weights, ranks_before, ranks_after) = run();
    assert_ne!(before, after, "two test tasks' attempts changed nothing");
    // What DQN-O learned from the attempts on the test tasks ranks their solving actions higher.
    assert!(solved.iter().all(Option::is_some), "{solved:?}");
    println!("solving actions' ranks before {ranks_before:?}, after {ranks_after:?}");
    assert!(
        ranks_after.iter().sum::<usize>() < ranks_before.iter().sum::<usize>(),
        "the solving actions did not move up: ranks {ranks_before:?} -> {ranks_after:?}"
    );
    assert_eq!(
        run(),
        (before, after, solved, weights, ranks_before, ranks_after)
    );
}

/// The rank (0 = first) of every solving action of `tasks` in the agent's ranking of its task.
fn solving_ranks(dqn: &Dqn, table: &StatusTable, tasks: &[usize]) -> Vec<usize> {
    let mut ranks = Vec::new();
    for &t in tasks {
        let scores = dqn.scores(t);
        for (a, &s) in scores.iter().enumerate() {
            if table.status(t, a) == Status::Solved {
                // Ties rank by index, as the agent proposes them.
                ranks.push(
                    scores
                        .iter()
                        .enumerate()
                        .filter(|&(b, &o)| o > s || (o == s && b < a))
                        .count(),
                );
            }
        }
    }
    ranks
}

#[test]
fn the_same_seed_gives_the_same_weights_on_any_thread_count() {
    let on = |threads: usize, seed: u64| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("pool")
            .install(|| trained(seed, 30, 4).0.weights())
    };
    let one = on(1, 11);
    assert!(!one.is_empty());
    assert_eq!(one, on(2, 11), "1 thread vs 2 threads");
    assert_eq!(one, on(1, 11), "twice on 1 thread");
    assert_ne!(one, on(1, 12), "another seed, the same weights");
}

#[test]
fn weight_decay_shrinks_the_weights_and_names_another_training() {
    let plain = tiny_config(3, 40);
    let decayed = TrainConfig {
        weight_decay: 5.0,
        ..plain.clone()
    };
    let weights = |c: &TrainConfig| trained_with(c.clone(), 4).0.weights();
    let squared_norm = |w: &[(Vec<usize>, Vec<f32>)]| -> f64 {
        w.iter()
            .flat_map(|(_, v)| v.iter())
            .map(|x| f64::from(*x).powi(2))
            .sum()
    };
    let (a, b) = (weights(&plain), weights(&decayed));
    assert_eq!(b, weights(&decayed), "AdamW is as deterministic as Adam");
    // 40 steps shrinking by up to 3e-3 × 5 each: about a quarter of the weights' scale.
    assert!(
        squared_norm(&b) < 0.8 * squared_norm(&a),
        "{} against {}",
        squared_norm(&b),
        squared_norm(&a)
    );
    assert!(
        !plain.trains_like(&decayed),
        "a decayed model is another model"
    );
    let json = serde_json::to_string(&decayed).expect("serializes");
    assert!(json.contains(r#""weight_decay":5.0"#), "{json}");
    let plain_json = serde_json::to_string(&plain).expect("serializes");
    assert!(
        !plain_json.contains("weight_decay"),
        "plain Adam keeps earlier model headers as they were: {plain_json}"
    );
}

#[test]
fn a_saved_model_scores_like_the_trained_one() {
    let (dqn, _) = trained(3, 20, 2);
    let dir = std::env::temp_dir().join(format!("rephyre-dqn-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("m.model");
    let summary = dqn.summary.clone();
    super::file::save(&path, dqn_net(&dqn), &dqn.config, "synthetic", &summary).expect("save");
    let (header, net) = super::file::load(&path).expect("load");
    assert_eq!(header.config, dqn.config);
    assert_eq!(header.summary, summary);
    assert_eq!(header.trained_with, "cpu");
    // Files written before `trained_with` existed read as trained on the CPU.
    let mut older = serde_json::to_value(&header).expect("header to JSON");
    older
        .as_object_mut()
        .expect("an object")
        .remove("trained_with");
    let older: super::file::Header = serde_json::from_value(older).expect("older header");
    assert_eq!(older.trained_with, "cpu");
    let scorer = Scorer::new(net, &dqn.config.net);
    let (ctx, _) = synthetic(2, 64);
    let mut planes = Vec::new();
    ctx.obs.push_planes(1, false, &mut planes);
    let flat: Vec<f32> = ctx.actions.iter().flatten().map(|&v| v as f32).collect();
    assert_eq!(scorer.score(&planes, &flat), dqn.scores(1));
    // DQN-O can start from the saved model and keep learning (online updates on a loaded net).
    let (ctx, table) = synthetic(6, 64);
    let mut online = Dqn::new(
        Arc::new(ctx),
        dqn.config.clone(),
        true,
        Arc::new(NoProgress),
    );
    online
        .fit(&table, &[0, 1], Some(&path), "synthetic")
        .expect("loads");
    let before = online.scores(5);
    crate::protocol::evaluate(&mut online, &table, &[3, 4]);
    assert_ne!(
        before,
        online.scores(5),
        "the loaded model did not learn online"
    );
    // A truncated file is refused with a message, not a panic.
    let bytes = std::fs::read(&path).expect("read");
    std::fs::write(&path, &bytes[..bytes.len() - 3]).expect("write");
    assert!(super::file::load(&path).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

fn dqn_net(d: &Dqn) -> &Net {
    d.net().expect("trained")
}

#[test]
fn the_cosine_schedule_decays_to_zero() {
    use super::training::cosine_lr;
    assert_eq!(cosine_lr(1.0, 0, 100), 1.0);
    assert!((cosine_lr(1.0, 50, 100) - 0.5).abs() < 1e-12);
    assert!(cosine_lr(1.0, 99, 100) < 1e-3);
}

/// Trained on all 64 actions of each task but ranking the first 16 (the original trained on
/// 100,000 and ranked 1,000): the ranking covers exactly the 16, and training saw every action's
/// example, which changes the network.
#[test]
fn a_dqn_trains_on_every_action_and_ranks_the_first() {
    let tasks = 6;
    let (full, table) = synthetic(tasks, 64);
    let train: Vec<usize> = (0..tasks).collect();
    let fit = |ranked: usize, table: &StatusTable| {
        let ctx = DqnContext::new(
            full.obs.clone(),
            full.actions[..table.actions].to_vec(),
            ranked,
        );
        let mut dqn = Dqn::new(
            Arc::new(ctx),
            tiny_config(3, 40),
            false,
            Arc::new(NoProgress),
        );
        dqn.train(table, &train, &[]);
        dqn
    };
    let wide = fit(16, &table);
    assert_eq!(wide.scores(0).len(), 16);
    let examples = |d: &Dqn| d.summary.solved_examples + d.summary.not_solved_examples;
    assert_eq!(examples(&wide), tasks * 64);
    // The same run trained on the 16 ranked actions only sees a quarter of the examples and
    // ends with other weights.
    let first16 = StatusTable {
        actions: 16,
        templates: table.templates.clone(),
        codes: table
            .codes
            .chunks(64)
            .flat_map(|row| row[..16].iter().copied())
            .collect(),
    };
    let narrow = fit(16, &first16);
    assert_eq!(examples(&narrow), tasks * 16);
    assert_ne!(wide.weights(), narrow.weights());
    // Ranking all 64 scores the same network on every action: its first 16 scores are the
    // 16-action ranking's.
    let all = fit(64, &table);
    assert_eq!(all.weights(), wide.weights());
    assert_eq!(all.scores(2)[..16], wide.scores(2)[..]);
}

#[test]
fn the_mirrored_action_draws_the_mirrored_ball_plane() {
    // The action's mirror and the observation's (column c to 255 − c) are the same mirror: the
    // ball plane of the mirrored action is the ball plane with its columns reversed.
    for a in [[0.25, 0.75, 0.5], [0.0, 0.1, 1.0], [0.97, 0.4, 0.05]] {
        let (h, w) = (8, 8);
        let plain = super::network::ball_planes(&a.map(|v| v as f32), 3, h, w);
        let m: Vec<f32> = super::data::mirror_action(&a)
            .iter()
            .map(|&v| v as f32)
            .collect();
        let mirrored = super::network::ball_planes(&m, 3, h, w);
        for row in 0..h {
            for col in 0..w {
                let (p, q) = (plain[row * w + col], mirrored[row * w + w - 1 - col]);
                assert!((p - q).abs() < 1e-4, "{a:?} at ({row}, {col}): {p} vs {q}");
            }
        }
        assert!(plain.iter().any(|&v| v > 0.5), "{a:?} draws its ball");
        let back = super::data::mirror_action(&super::data::mirror_action(&a));
        assert!(back.iter().zip(a).all(|(b, v)| (b - v).abs() < 1e-12));
    }
    // Only the x of each ball moves (two balls: components 0 and 3).
    let two = super::data::mirror_action(&[0.2, 0.3, 0.4, 0.6, 0.7, 0.8]);
    assert!((two[0] - (256.0 - 51.0) / 255.0).abs() < 1e-12);
    assert!((two[3] - (256.0 - 153.0) / 255.0).abs() < 1e-12);
    assert_eq!([two[1], two[2], two[4], two[5]], [0.3, 0.4, 0.7, 0.8]);
}

#[test]
fn mirrored_batches_flip_half_the_scenes_with_their_actions() {
    let (ctx, table) = synthetic(6, 64);
    let pools = Pools::from_table(&table, &(0..6).collect::<Vec<_>>(), 64);
    let by_task = TaskPools::new(&pools);
    let (mut flipped, mut groups) = (0, 0);
    for update in 0..50 {
        let examples = sample_grouped(&by_task, 32, 8, true, 0, 1, update);
        let mirror = super::data::Mirror { seed: 1, update };
        let plain = super::data::batch_of_grouped(&examples, 8, &ctx.obs, &ctx.actions, None);
        let b = super::data::batch_of_grouped(&examples, 8, &ctx.obs, &ctx.actions, Some(mirror));
        assert_eq!(b.labels, plain.labels, "labels do not change");
        let plane = SIZE * SIZE * super::data::CHANNELS;
        for (g, group) in examples.chunks(8).enumerate() {
            groups += 1;
            let task = group[0].0.task;
            let mut want = Vec::new();
            ctx.obs.push_planes(task, mirror.flips(g), &mut want);
            assert_eq!(&b.obs[g * plane..(g + 1) * plane], &want[..]);
            for (j, (e, _)) in group.iter().enumerate() {
                let i = g * 8 + j;
                let x = b.actions[i * 3];
                let a = &ctx.actions[e.action];
                let want_x = if mirror.flips(g) {
                    super::data::mirror_action(a)[0]
                } else {
                    a[0]
                } as f32;
                assert_eq!(x, want_x);
                assert_eq!(b.actions[i * 3 + 1], a[1] as f32, "y is kept");
            }
            flipped += usize::from(mirror.flips(g));
        }
    }
    assert!(
        (groups * 2 / 5..=groups * 3 / 5).contains(&flipped),
        "{flipped} of {groups} scenes mirrored"
    );
    // A mirrored scene's planes are its columns reversed.
    let (mut plain, mut mirrored) = (Vec::new(), Vec::new());
    ctx.obs.push_planes(2, false, &mut plain);
    ctx.obs.push_planes(2, true, &mut mirrored);
    for (p, m) in plain.chunks(SIZE).zip(mirrored.chunks(SIZE)) {
        assert!(p.iter().eq(m.iter().rev()));
    }
    assert_ne!(plain, mirrored, "the synthetic scene is not symmetric");
}

#[test]
fn mirror_training_changes_the_model_and_mirror_ranking_scores_both_views() {
    let mut c = tiny_grouped_config(3, 60);
    let (plain, _) = trained_with(c.clone(), 6);
    c.mirror = true;
    let (mirrored, _) = trained_with(c.clone(), 6);
    assert_ne!(plain.weights(), mirrored.weights(), "mirroring is used");
    let (again, _) = trained_with(c.clone(), 6);
    assert_eq!(mirrored.weights(), again.weights(), "and deterministic");

    // Ranking by both views: a mirrored scene with the mirrored actions scores like the scene
    // (up to the rounding of mirroring an action twice), where one view does not.
    let (ctx, _) = synthetic(6, 64);
    let px = SIZE * SIZE;
    let masks: Vec<u8> = (0..6)
        .flat_map(|t| {
            let mut m = vec![0u8; px];
            let mut planes = Vec::new();
            ctx.obs.push_planes(t, true, &mut planes);
            for (c, plane) in planes.chunks(px).enumerate() {
                for (i, &v) in plane.iter().enumerate() {
                    m[i] |= u8::from(v > 0.5) << c;
                }
            }
            m
        })
        .collect();
    let mirrored_actions: Vec<Vec<f64>> = ctx
        .actions
        .iter()
        .map(|a| super::data::mirror_action(a))
        .collect();
    let mirrored_ctx = DqnContext::new(Observations::from_masks(SIZE, masks), mirrored_actions, 64);
    let loaded = |d: &Dqn, ctx: DqnContext, ranking: bool| {
        let mut cfg = c.clone();
        cfg.mirror_ranking = ranking;
        let dir = std::env::temp_dir().join(format!("rephyre-mirror-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("m.model");
        super::file::save(&path, dqn_net(d), &cfg, "t", &d.summary).unwrap();
        let mut e = Dqn::new(Arc::new(ctx), cfg, false, Arc::new(NoProgress));
        let (_, table) = synthetic(6, 64);
        e.fit(&table, &[0], Some(&path), "t").unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        e
    };
    let both = loaded(&mirrored, synthetic(6, 64).0, true);
    let both_m = loaded(&mirrored, mirrored_ctx, true);
    let worst = |a: &Dqn, b: &Dqn| {
        (0..6)
            .flat_map(|t| a.scores(t).into_iter().zip(b.scores(t)))
            .map(|(x, y)| (x - y).abs())
            .fold(0f32, f32::max)
    };
    let d_both = worst(&both, &both_m);
    assert!(d_both < 1e-3, "both views: scores differ by {d_both}");
    let one = loaded(&mirrored, synthetic(6, 64).0, false);
    let d_one = worst(&one, &both);
    assert!(d_one > 1e-2, "one view scores like both ({d_one})");
}

/// A grouped-batch DQN (or DQN-O) of seed `seed`, 20 updates on tasks 0–2 of `synthetic(6, 64)`.
fn small_member(seed: u64, online: bool) -> (Dqn, StatusTable) {
    let (ctx, table) = synthetic(6, 64);
    let mut d = Dqn::new(
        Arc::new(ctx),
        tiny_grouped_config(seed, 20),
        online,
        Arc::new(NoProgress),
    );
    d.train(&table, &[0, 1, 2], &[]);
    (d, table)
}

#[test]
fn an_ensemble_ranks_by_its_members_mean_and_each_member_learns_online() {
    let member = small_member;
    let (a, table) = member(1, false);
    let (b, _) = member(2, false);
    let (sa, sb) = (a.scores(4), b.scores(4));
    assert_ne!(sa, sb, "two seeds, one network");
    let ensemble = super::agent::DqnEnsemble::new(vec![a, b]);
    let mean: Vec<f32> = sa.iter().zip(&sb).map(|(x, y)| (x + y) / 2.0).collect();
    assert_eq!(ensemble.scores(4), mean);
    // Its order is the mean's: the first proposal has the highest mean logit.
    let mut e = ensemble;
    e.start_task(&table, 4);
    let first = e.propose().unwrap();
    assert!(mean.iter().all(|&m| m <= mean[first]));
    // An ensemble of one ranks like its member.
    let (c, _) = member(1, false);
    assert_eq!(super::agent::DqnEnsemble::new(vec![c]).scores(4), sa);
    // DQN-O: each member learns from the attempts, as it would alone.
    let run = |seeds: &[u64]| {
        let mut e =
            super::agent::DqnEnsemble::new(seeds.iter().map(|&s| member(s, true).0).collect());
        let solved = crate::protocol::evaluate(&mut e, &table, &[3, 4]);
        (e.scores(5), solved)
    };
    let alone = |seed: u64| {
        let mut d = member(seed, true).0;
        crate::protocol::evaluate(&mut d, &table, &[3, 4]);
        d.scores(5)
    };
    let (after, _) = run(&[1]);
    assert_eq!(after, alone(1), "an online member learns as it does alone");
    let (before, _) = {
        let (a, _) = member(1, true);
        let (b, _) = member(2, true);
        (super::agent::DqnEnsemble::new(vec![a, b]).scores(5), ())
    };
    let (after2, solved2) = run(&[1, 2]);
    assert_ne!(before, after2, "the online members learned nothing");
    assert_eq!(run(&[1, 2]), (after2, solved2), "deterministic");
}

#[test]
fn the_action_features_are_the_numbers_and_their_fourier_pairs() {
    use super::network::action_features;
    let a = [0.25f32, 1.0];
    assert_eq!(action_features(&a, 0), a.to_vec(), "off: the raw numbers");
    let f = action_features(&a, 2);
    assert_eq!(f.len(), 2 * 5);
    let pi = std::f32::consts::PI;
    // 0.25: itself, sin/cos of π/4, then of π/2.
    let want = [0.25, (pi / 4.0).sin(), (pi / 4.0).cos(), 1.0, 0.0];
    for (got, want) in f[..5].iter().zip(want) {
        assert!((got - want).abs() < 1e-6, "{f:?}");
    }
    // 1.0: sin(π) and sin(2π) vanish, cos(π) = −1, cos(2π) = 1.
    let want = [1.0, 0.0, -1.0, 0.0, 1.0];
    for (got, want) in f[5..].iter().zip(want) {
        assert!((got - want).abs() < 1e-6, "{f:?}");
    }
}

/// The within-template additions: Fourier features of the action and a fusion two stages
/// before the end (a finer ball plane, a stage more per action).
fn tiny_within_config(seed: u64, updates: usize) -> TrainConfig {
    let mut c = tiny_grouped_config(seed, updates);
    c.net.widths = vec![8, 16, 16];
    c.net.action_fourier = 4;
    c.net.fused_stages = 2;
    c
}

#[test]
fn fourier_features_and_an_earlier_fusion_learn_and_round_trip_through_a_file() {
    let (mut dqn, table) = trained_with(tiny_within_config(9, 150), 6);
    let train: Vec<usize> = (0..6).collect();
    let solved = crate::protocol::evaluate(&mut dqn, &table, &train);
    assert!(
        solved.iter().filter(|s| **s == Some(1)).count() >= 5,
        "{solved:?}"
    );
    // Each option shapes the network: the features widen the action MLP's input, the earlier
    // fusion moves FiLM (and the ball plane) to the stage before.
    let shapes = |c: TrainConfig| {
        let (d, _) = trained_with(c, 2);
        d.weights().into_iter().map(|(s, _)| s).collect::<Vec<_>>()
    };
    let both = shapes(tiny_within_config(9, 0));
    let mut no_features = tiny_within_config(9, 0);
    no_features.net.action_fourier = 0;
    let mut late = tiny_within_config(9, 0);
    late.net.fused_stages = 1;
    assert_ne!(both, shapes(no_features));
    assert_ne!(both, shapes(late));
    // The action still matters, and a saved model scores as the trained one.
    let (ctx, _) = synthetic(6, 64);
    let mut planes = Vec::new();
    ctx.obs.push_planes(4, false, &mut planes);
    let s = dqn.scores(4);
    assert!(s.iter().any(|v| *v != s[0]), "every action scored alike");
    let dir = std::env::temp_dir().join(format!("rephyre-dqn-within-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("m.model");
    super::file::save(&path, dqn_net(&dqn), &dqn.config, "synthetic", &dqn.summary).expect("save");
    let (header, net) = super::file::load(&path).expect("load");
    assert_eq!(header.config, dqn.config);
    let flat: Vec<f32> = ctx.actions.iter().flatten().map(|&v| v as f32).collect();
    assert_eq!(Scorer::new(net, &dqn.config.net).score(&planes, &flat), s);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The GPU backend is refused, with the build that would have it, where it was not compiled;
/// the CPU is always there (and a second, different choice in one process is refused).
#[test]
fn the_backend_choice_is_checked() {
    use super::device::{use_compute, Compute};
    assert_eq!(use_compute(Compute::Cpu), Ok(()));
    assert_eq!(super::device::compute(), Compute::Cpu);
    let gpu = use_compute(Compute::Gpu);
    if cfg!(feature = "gpu") {
        // Refused as a second choice, or earlier for want of a GPU.
        assert!(gpu.is_err());
    } else {
        assert!(gpu.unwrap_err().contains("--features gpu"));
    }
    assert_eq!(super::device::compute(), Compute::Cpu);
}

/// Observations of another size than the network's are refused with a message, before burn
/// would panic on the first batch's shape.
#[test]
fn observations_of_another_size_are_refused() {
    let (ctx, table) = synthetic(3, 8);
    let mut config = tiny_config(1, 5);
    config.net.obs_size *= 2;
    let mut dqn = Dqn::new(Arc::new(ctx), config, false, Arc::new(NoProgress));
    let err = dqn.fit(&table, &[0, 1], None, "t").unwrap_err();
    assert!(err.contains("network takes"), "{err}");
}

#[test]
fn a_shape_that_cannot_be_built_is_refused_with_its_field() {
    use super::config::ShapeError;
    let ok = tiny_config(0, 1).net;
    assert_eq!(ok.check(), Ok(()));
    let paper = TrainConfig::preset(Profile::Paper, 3, 0).net;
    assert_eq!(paper.check(), Ok(()), "the paper's network");
    let with = |f: &dyn Fn(&mut NetConfig)| {
        let mut n = ok.clone();
        f(&mut n);
        n.check()
    };
    assert_eq!(with(&|n| n.obs_size = 48), Err(ShapeError::ObsSize(48)));
    assert_eq!(with(&|n| n.obs_size = 0), Err(ShapeError::ObsSize(0)));
    assert_eq!(with(&|n| n.stem_kernel = 4), Err(ShapeError::StemKernel(4)));
    assert_eq!(
        with(&|n| n.stem_kernel = 13),
        Err(ShapeError::StemKernel(13))
    );
    assert_eq!(with(&|n| n.widths = vec![8]), Err(ShapeError::Stages(2)));
    assert_eq!(with(&|n| n.widths = vec![8, 0]), Err(ShapeError::Stages(2)));
    assert_eq!(
        with(&|n| {
            n.fused_stages = 2;
        }),
        Err(ShapeError::Stages(3)),
        "two stages after the fusion need three"
    );
    assert_eq!(with(&|n| n.fused_stages = 0), Err(ShapeError::Stages(2)));
    // 16 pixels: the stem and four more stages leave 16 >> 5 = 0.
    assert_eq!(
        with(&|n| n.widths = vec![4, 4, 4, 4, 4]),
        Err(ShapeError::TooSmall {
            obs_size: 16,
            stages: 5,
            pool: false
        })
    );
    assert_eq!(
        with(&|n| n.widths = vec![4, 4, 4, 4]),
        Ok(()),
        "1×1 at the end"
    );
    assert!(with(&|n| {
        n.widths = vec![4, 4, 4, 4];
        n.stem_pool = true;
    })
    .is_err());
    assert_eq!(with(&|n| n.blocks = 0), Err(ShapeError::Blocks(0)));
    assert_eq!(with(&|n| n.blocks = 2), Ok(()));
    // Every refusal names what it refuses.
    assert!(ShapeError::StemKernel(4)
        .to_string()
        .contains("stem kernel 4"));
    // A model file whose header holds such a shape is refused on loading, not built.
    let (dqn, _) = trained(3, 2, 2);
    let dir = std::env::temp_dir().join(format!("rephyre-dqn-shape-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("m.model");
    let mut bad = dqn.config.clone();
    bad.net.blocks = 0;
    super::file::save(&path, dqn_net(&dqn), &bad, "synthetic", &dqn.summary).expect("save");
    let err = super::file::load(&path).expect_err("refused");
    assert!(err.contains("residual blocks"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every proposal of `agent` on `tasks`, started in `order` after it was told `tasks`; each
/// proposal's status is observed and each task ended (so DQN-O learns as it goes).
fn proposals_of(
    agent: &mut dyn Agent,
    table: &StatusTable,
    tasks: &[usize],
    order: &[usize],
) -> Vec<Vec<usize>> {
    use crate::protocol::Simulator;
    agent.will_evaluate(tasks);
    order
        .iter()
        .map(|&t| {
            agent.start_task(table, t);
            let mut proposed = Vec::new();
            let mut solved = false;
            while let Some(a) = agent.propose() {
                let status = table.status(t, a);
                solved |= status == Status::Solved;
                agent.observe(a, status);
                proposed.push(a);
            }
            agent.end_task(solved);
            proposed
        })
        .collect()
}

#[test]
fn ranking_tasks_ahead_on_several_threads_proposes_what_one_thread_does() {
    let member = |seed: u64, online: bool, threads: usize| {
        let (mut d, table) = small_member(seed, online);
        d.rank_on(threads);
        (d, table)
    };
    let tasks = [3, 4, 5, 0, 1, 2];
    let (mut one, table) = member(1, false, 1);
    let expected = proposals_of(&mut one, &table, &tasks, &tasks);
    assert_eq!(expected[0].len(), 64, "every ranked action is proposed");
    assert_ne!(expected[0], expected[1], "two tasks, one order");
    for threads in [2, 3, 8] {
        let (mut ahead, _) = member(1, false, threads);
        assert_eq!(
            proposals_of(&mut ahead, &table, &tasks, &tasks),
            expected,
            "{threads} threads"
        );
    }
    // A task started out of plan is ranked at its turn, and the plan goes on.
    let (mut ahead, _) = member(1, false, 3);
    let shuffled = [5, 3, 4, 0, 2, 1];
    let by_task = |p: Vec<Vec<usize>>, order: &[usize]| {
        let mut v: Vec<(usize, Vec<usize>)> = order.iter().copied().zip(p).collect();
        v.sort();
        v
    };
    assert_eq!(
        by_task(
            proposals_of(&mut ahead, &table, &tasks, &shuffled),
            &shuffled
        ),
        by_task(expected.clone(), &tasks)
    );
    // An ensemble ranked ahead proposes as one ranked at each turn.
    let ensemble = |threads: usize| {
        let mut e =
            super::agent::DqnEnsemble::new(vec![member(1, false, 1).0, member(2, false, 1).0]);
        e.rank_on(threads);
        proposals_of(&mut e, &table, &tasks, &tasks)
    };
    let together = ensemble(1);
    assert_ne!(together, expected, "the ensemble is not its first member");
    assert_eq!(ensemble(3), together);
    // DQN-O's network changes after each task: told to rank ahead, it still ranks at each turn.
    let online = |threads: usize| {
        let (mut d, _) = member(1, true, threads);
        (proposals_of(&mut d, &table, &tasks, &tasks), d.scores(5))
    };
    let (online_one, online_scores) = online(1);
    assert_ne!(online_one, expected, "DQN-O learned nothing");
    assert_eq!(online(4), (online_one, online_scores));
}

/// A progress sink that stops the training (as a kill would) when update `stop_at` is done.
struct StopAt(usize, std::sync::atomic::AtomicUsize);

impl super::training::TrainProgress for StopAt {
    fn planned(&self, _: u64) {}
    fn update(&self, _: f32) {
        let done = self.1.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
        assert!(done < self.0, "stopped after {done} updates");
    }
}

#[test]
fn a_training_stopped_after_a_snapshot_goes_on_from_it_to_the_same_model_file() {
    use super::agent::snapshot_path;
    use super::training::Snapshot;
    use std::panic::{catch_unwind, AssertUnwindSafe};
    let dir = std::env::temp_dir().join(format!("rephyre-dqn-resume-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (ctx, table) = synthetic(4, 64);
    let ctx = Arc::new(ctx);
    let tasks = [0, 1, 2, 3];
    // Grouped batches through batch norm, Adam's moments well away from zero.
    let config = tiny_grouped_config(5, 12);
    let fit = |dqn: &mut Dqn, path: &std::path::Path| {
        dqn.fit(&table, &tasks, Some(&path.to_path_buf()), "synthetic")
    };
    let whole = dir.join("whole.model");
    fit(
        &mut Dqn::new(ctx.clone(), config.clone(), false, Arc::new(NoProgress)),
        &whole,
    )
    .expect("trains");
    assert!(
        !snapshot_path(&whole).exists(),
        "the snapshot outlived its model"
    );

    // Snapshots after every update, the training stopped during its sixth.
    let part = dir.join("part.model");
    let stop = Arc::new(StopAt(6, Default::default()));
    let mut stopped = Dqn::new(ctx.clone(), config.clone(), false, stop);
    stopped.snapshot_every(std::time::Duration::ZERO);
    let killed = catch_unwind(AssertUnwindSafe(|| fit(&mut stopped, &part)));
    assert!(killed.is_err(), "the training was not stopped");
    assert!(!part.exists());
    let bytes = std::fs::read(snapshot_path(&part)).expect("a snapshot");
    let (_, snapshot) = Snapshot::from_bytes(&bytes).expect("reads");
    assert_eq!((snapshot.updates, snapshot.losses.len()), (5, 5));

    // Started again: the rest of the training, the same file as the uninterrupted one's.
    let mut resumed = Dqn::new(ctx.clone(), config.clone(), false, Arc::new(NoProgress));
    fit(&mut resumed, &part).expect("resumes");
    assert!(
        std::fs::read(&part).expect("a model") == std::fs::read(&whole).expect("a model"),
        "the resumed training's model differs from the uninterrupted one's"
    );
    assert!(
        !snapshot_path(&part).exists(),
        "the snapshot outlived its model"
    );

    // A snapshot of another training (other options), and a damaged one, are refused.
    let other = dir.join("other.model");
    std::fs::write(snapshot_path(&other), &bytes).expect("write");
    let mut changed = config.clone();
    changed.lr *= 2.0;
    let e = fit(
        &mut Dqn::new(ctx.clone(), changed, false, Arc::new(NoProgress)),
        &other,
    )
    .unwrap_err();
    assert!(e.contains("is the snapshot of another training"), "{e}");
    let mut damaged = bytes.clone();
    let last = damaged.len() - 1;
    damaged[last] ^= 1;
    std::fs::write(snapshot_path(&other), &damaged).expect("write");
    let e = fit(
        &mut Dqn::new(ctx, config, false, Arc::new(NoProgress)),
        &other,
    )
    .unwrap_err();
    assert!(
        e.contains("is not a rephyre DQN training snapshot (damaged"),
        "{e}"
    );
    assert!(!other.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_model_saved_straight_after_training_keeps_the_last_batch_norm_statistics() {
    let (ctx, table) = synthetic(4, 64);
    let config = tiny_grouped_config(7, 6);
    let pools = Pools::from_table(&table, &[0, 1, 2, 3], 64);
    let (trainer, summary) = super::training::train_from(
        &config,
        &config.net,
        &ctx.obs,
        &ctx.actions,
        &pools,
        &NoProgress,
        None,
        &mut super::training::NoHooks,
    )
    .expect("trains");
    // Saved before anything else reads the network (building a scorer brings its running
    // statistics up to date).
    let dir = std::env::temp_dir().join(format!("rephyre-dqn-bn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("m.model");
    super::file::save(&path, trainer.net(), &config, "synthetic", &summary).expect("save");
    let (_, net) = super::file::load(&path).expect("load");
    let mut planes = Vec::new();
    ctx.obs.push_planes(1, false, &mut planes);
    let flat: Vec<f32> = ctx.actions.iter().flatten().map(|&v| v as f32).collect();
    assert_eq!(
        Scorer::new(net, &config.net).score(&planes, &flat),
        trainer.scorer().score(&planes, &flat),
        "the saved model scores otherwise than the trained one"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
