//! Phy-Q shots: one shot from launch to rest on the first built-in task of each of the 75
//! templates (the same full-power 30° release on each), from the state after the level's
//! opening (a clone of it, inside the timing). Shots per second = 75 / the time per iteration.
use criterion::{criterion_group, criterion_main, Criterion};
use engine::{Fixed, Vec2};
use phyq::game::{Game, Shot};

fn shots(c: &mut Criterion) {
    let set = phyq::generator::builtin_tasks();
    let openings: Vec<Game> = phyq::templates::templates()
        .iter()
        .map(|t| {
            let e = set
                .entries()
                .iter()
                .find(|e| phyq::generator::template_of(&e.id).is_some_and(|x| x.code == t.code))
                .expect("a task of every template");
            let mut g = Game::new(&e.level).expect("playable");
            g.settle();
            g
        })
        .collect();
    // Released 1 m behind the rest point, 30° below the horizontal: launched at 30° up.
    let (s, c30) = engine::sin_cos(Fixed::PI.div_int(6));
    let shot = Shot {
        release: Vec2::new(-c30, -s),
        tap: None,
    };
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
