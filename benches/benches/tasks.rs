//! Task workload: loading the built-in 5,000 tasks, validating a random action, simulating one
//! valid random action (the unit of every solvability and evaluation run), and the jobs' way of
//! simulating many actions of one task: plain runs against runs through the task's recorded
//! scene (`tasks::TaskScene`, recording included).
use criterion::{criterion_group, criterion_main, Criterion};

fn load(c: &mut Criterion) {
    c.bench_function("load_builtin_5000_tasks", |b| {
        b.iter(|| {
            tasks::TaskSet::load_builtin()
                .expect("built-in store")
                .len()
        })
    });
}

fn simulate(c: &mut Criterion) {
    let set = tasks::TaskSet::builtin();
    // 100 B-tier tasks (every 25th), the first valid action of each from a fixed stream.
    let runs: Vec<(&tasks::Task, tasks::ValidAction)> = set
        .tier(tasks::Tier::Ball)
        .step_by(25)
        .filter_map(|t| {
            let stream = tasks::rng::stream_of(&t.id().to_string());
            (0..100u64)
                .find_map(|i| {
                    tasks::validate_action(
                        t,
                        tasks::Tier::Ball,
                        &tasks::rng::uniform_vector(7, stream, i, 3),
                    )
                    .ok()
                })
                .map(|a| (t, a))
        })
        .collect();
    c.bench_function("validate_action", |b| {
        let t = runs[0].0;
        b.iter(|| tasks::validate_action(t, tasks::Tier::Ball, &[0.41, 0.77, 0.2]).is_ok())
    });
    c.bench_function("simulate_100_valid_b_actions", |b| {
        b.iter(|| {
            runs.iter()
                .map(|(t, a)| {
                    tasks::simulate(t, a, tasks::SimOptions::default())
                        .expect("builds")
                        .steps
                })
                .sum::<u32>()
        })
    });
}

/// 32 valid random actions on each of 5 B-tier tasks, status-only: plain, and through a scene
/// recorded once per task (inside the timing).
fn shared_scenes(c: &mut Criterion) {
    let set = tasks::TaskSet::builtin();
    let work: Vec<(&tasks::Task, Vec<tasks::ValidAction>)> = set
        .tier(tasks::Tier::Ball)
        .step_by(500)
        .map(|t| {
            let stream = tasks::rng::stream_of(&t.id().to_string());
            let actions = (0..1000u64)
                .filter_map(|i| {
                    let a = tasks::rng::uniform_vector(11, stream, i, 3);
                    tasks::validate_action(t, tasks::Tier::Ball, &a).ok()
                })
                .take(32)
                .collect();
            (t, actions)
        })
        .collect();
    let opts = tasks::SimOptions::STATUS_ONLY;
    c.bench_function("status_5_tasks_x_32_actions_plain", |b| {
        b.iter(|| {
            work.iter()
                .flat_map(|(t, acts)| acts.iter().map(|a| tasks::simulate(t, a, opts)))
                .filter(|o| o.as_ref().is_ok_and(|o| o.solved))
                .count()
        })
    });
    c.bench_function("status_5_tasks_x_32_actions_shared_scene", |b| {
        b.iter(|| {
            work.iter()
                .flat_map(|(t, acts)| {
                    let scene = tasks::TaskScene::new(t);
                    acts.iter()
                        .map(|a| scene.simulate(a, opts))
                        .collect::<Vec<_>>()
                })
                .filter(|o| o.as_ref().is_ok_and(|o| o.solved))
                .count()
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = load, simulate, shared_scenes
}
criterion_main!(benches);
