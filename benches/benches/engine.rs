//! Engine benchmarks: one step of a 15-box pyramid at 15/20 iterations (Box2D 2.3.2 reference:
//! ≈ 0.11 ms per step on this machine class), full 1000-step rollouts of a 10-body PHYRE-like
//! scene and a 20-body pile, and the time of each stage of the step (broad phase, narrow phase,
//! islands, continuous collision) and of a whole computed step on real PHYRE worlds, and one
//! fixed-point multiply.
use criterion::{criterion_group, criterion_main, Criterion};
use engine::{testbed, StepPhase, World};
use std::time::{Duration, Instant};

/// The worlds of 48 B-tier tasks (every 52nd) with the first valid action of a fixed random
/// stream each: the per-step workload of every solvability and evaluation run.
fn phyre_worlds() -> Vec<World> {
    let set = tasks::TaskSet::builtin();
    set.tier(tasks::Tier::Ball)
        .step_by(52)
        .filter_map(|t| {
            let stream = tasks::rng::stream_of(&t.id().to_string());
            let mut index = 0;
            (0..50).find_map(|_| {
                let a = tasks::sample_action(tasks::Tier::Ball, 0xbe9c, stream, &mut index);
                let v = tasks::validate_action(t, tasks::Tier::Ball, &a).ok()?;
                Some(t.build_world(v.balls()).ok()?.world)
            })
        })
        .collect()
}

/// Time `iters` computed steps of the workload (each world stepped until it rests or reaches
/// 1000 steps, then the next), summing only the stage `phase` (all stages for `None`).
fn time_steps(worlds: &[World], iters: u64, phase: Option<StepPhase>) -> Duration {
    let mut total = Duration::ZERO;
    let mut k = 0;
    let mut w = worlds[0].clone();
    for _ in 0..iters {
        if w.is_at_rest() || w.step_count() >= 1000 {
            k = (k + 1) % worlds.len();
            w.clone_from(&worlds[k]);
        }
        let mut last = Instant::now();
        let start = last;
        w.step_with_phases(|p| {
            let now = Instant::now();
            if phase == Some(p) {
                total += now - last;
            }
            last = now;
        });
        if phase.is_none() {
            total += last - start;
        }
    }
    total
}

fn phyre_step_phases(c: &mut Criterion) {
    let worlds = phyre_worlds();
    let mut g = c.benchmark_group("phyre_step");
    g.bench_function("whole_step", |b| {
        b.iter_custom(|iters| time_steps(&worlds, iters, None))
    });
    for phase in StepPhase::ALL {
        g.bench_function(phase.name(), |b| {
            b.iter_custom(|iters| time_steps(&worlds, iters, Some(phase)))
        });
    }
    g.finish();
}

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

/// One fixed-point multiply (`Fixed × Fixed`, then an add to keep it live): in eight
/// independent chains (the processor's best rate for them, nothing else in the way) and in one
/// dependent chain (each waiting for the last, its latency). The bounds a solver made of them
/// lies between.
fn fixed_mul(c: &mut Criterion) {
    use engine::Fixed;
    use std::hint::black_box;
    const N: u64 = 1 << 20;
    let k = black_box(Fixed::from_raw(0xffff_0000));
    let d = black_box(Fixed::from_raw(12_345));
    let mut group = c.benchmark_group("fixed_mul");
    group.throughput(criterion::Throughput::Elements(N));
    group.bench_function("independent", |b| {
        b.iter(|| {
            let mut x: [Fixed; 8] = core::array::from_fn(|i| Fixed::from_raw((i as i64 + 3) << 31));
            for _ in 0..N / 8 {
                for v in x.iter_mut() {
                    *v = *v * k + d;
                }
            }
            black_box(x)
        })
    });
    group.bench_function("dependent", |b| {
        b.iter(|| {
            let mut y = Fixed::from_raw(3 << 31);
            for _ in 0..N {
                y = y * k + d;
            }
            black_box(y)
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = pyramid_step, phyre_like_rollout, pile_rollout, phyre_step_phases, fixed_mul
}
criterion_main!(benches);
