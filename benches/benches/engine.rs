//! Engine benchmarks: one step of a 15-box pyramid at 15/20 iterations (Box2D 2.3.2 reference:
//! ≈ 0.11 ms per step on this machine class), and full 1000-step rollouts of a 10-body
//! PHYRE-like scene and a 20-body pile.
use criterion::{criterion_group, criterion_main, Criterion};
use engine::testbed;

fn pyramid_step(c: &mut Criterion) {
    // 5 rows = 15 boxes. Benchmark awake steps: restart from the initial state once it sleeps.
    let start = testbed::pyramid(5);
    c.bench_function("pyramid15_step_awake", |b| {
        let mut w = start.clone();
        b.iter(|| {
            if w.is_at_rest() || w.step_count() > 25 {
                w.clone_from(&start);
            }
            w.step();
        })
    });
}

fn phyre_like_rollout(c: &mut Criterion) {
    let start = testbed::phyre_like();
    c.bench_function("phyre_like10_rollout_1000_steps", |b| {
        b.iter(|| {
            let mut w = start.clone();
            for _ in 0..1000 {
                w.step();
            }
            w.state_hash()
        })
    });
}

fn pile_rollout(c: &mut Criterion) {
    let start = testbed::pile();
    c.bench_function("pile20_rollout_1000_steps", |b| {
        b.iter(|| {
            let mut w = start.clone();
            for _ in 0..1000 {
                w.step();
            }
            w.state_hash()
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = pyramid_step, phyre_like_rollout, pile_rollout
}
criterion_main!(benches);
