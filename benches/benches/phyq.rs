//! Phy-Q shots: one shot from launch to rest on the first built-in task of each of the 75
//! templates (the same full-power 30° release on each), from the state after the level's
//! opening (a clone of it, inside the timing). Shots per second = 75 / the time per iteration.
use criterion::{criterion_group, criterion_main, Criterion};

fn shots(c: &mut Criterion) {
    let openings = rephyre_benches::phyq_openings();
    let shot = rephyre_benches::phyq_shot();
    let mut group = c.benchmark_group("phyq");
    group.sample_size(10);
    group.bench_function("one_shot_on_each_of_75_templates", |b| {
        b.iter(|| {
            openings
                .iter()
                .map(|g| {
                    let mut g = g.clone();
                    g.shoot(&shot).expect("a bird");
                    g.steps()
                })
                .sum::<u32>()
        })
    });
    group.finish();
}

criterion_group!(benches, shots);
criterion_main!(benches);
