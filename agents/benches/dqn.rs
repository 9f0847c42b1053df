//! What the DQN costs on one core, per profile (`cpu`, `paper`):
//!
//! * `update`: one Adam step on a batch of 64 examples (the profile's batch: 8 scenes × 8
//!   actions for `cpu`, 64 scenes for `paper`), forward, backward and optimizer;
//! * `rank_1000`: scoring 1,000 actions on one scene (one encoding, the last stage per action),
//!   what ranking the action set costs per test task.
//!
//! Inputs are synthetic (random one-hot scenes, random actions, half the labels solved): the
//! cost of these kernels does not depend on the values. Both run on burn's one-thread pool, as in
//! training. Multiply by the profile's updates (5,000 / 100,000) and by the fold's test tasks
//! for a fold's cost.
//!
//! `cargo bench -p agents --features dqn --bench dqn`

use agents::dqn::model::{Batch, Scorer, Trainer, CHANNELS};
use agents::dqn::train::single_threaded;
use agents::dqn::{Profile, TrainConfig};
use criterion::{criterion_group, criterion_main, Criterion};
use std::time::Duration;

/// A deterministic stream of pseudo-random words (xorshift64*).
struct Words(u64);

impl Words {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A value in [0, 1).
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// `n` one-hot scenes of side `s`: one colour per pixel.
fn scenes(n: usize, s: usize, words: &mut Words) -> Vec<f32> {
    let mut obs = vec![0.0; n * CHANNELS * s * s];
    for scene in 0..n {
        for px in 0..s * s {
            let c = (words.next() % CHANNELS as u64) as usize;
            obs[(scene * CHANNELS + c) * s * s + px] = 1.0;
        }
    }
    obs
}

fn actions(n: usize, dim: usize, words: &mut Words) -> Vec<f32> {
    (0..n * dim).map(|_| words.unit()).collect()
}

fn bench(c: &mut Criterion) {
    // The ball tier's actions (x, y, radius).
    let dim = 3;
    for profile in [Profile::Cpu, Profile::Paper] {
        let cfg = TrainConfig::preset(profile, dim, 0);
        let net = &cfg.net;
        let mut words = Words(0x9e37_79b9_7f4a_7c15);
        let per_scene = cfg.actions_per_scene.max(1);
        let batch = Batch {
            obs: scenes(cfg.batch / per_scene, net.obs_size, &mut words),
            actions: actions(cfg.batch, dim, &mut words),
            labels: (0..cfg.batch).map(|i| (i % 2) as f32).collect(),
            per_scene,
        };
        let mut group = c.benchmark_group(format!("dqn/{}", profile.name()));
        group.sample_size(10);
        group.warm_up_time(Duration::from_millis(500));
        let mut trainer = Trainer::new(net, 0, 0.0);
        group.bench_function("update", |b| {
            b.iter(|| single_threaded(|| trainer.step(&batch, cfg.lr)))
        });
        let scorer: Scorer = trainer.scorer();
        let scene = scenes(1, net.obs_size, &mut words);
        let set = actions(1000, dim, &mut words);
        group.bench_function("rank_1000", |b| {
            b.iter(|| single_threaded(|| scorer.score(&scene, &set)))
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
