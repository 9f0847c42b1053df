//! Task workload: loading the built-in 5,000 tasks, validating a random action, and simulating
//! one valid random action (the unit of every solvability and evaluation run).
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

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = load, simulate
}
criterion_main!(benches);
