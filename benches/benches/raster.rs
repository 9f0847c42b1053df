//! Rendering speed: frames per second on one core for
//!
//! * `typical`: a synthetic busy scene of 32 bodies (14 bars at assorted angles, 15 balls of
//!   radius 3–30 px, a jar, standing sticks, a floor): more than a PHYRE scene usually holds;
//! * `phyre`: the initial scenes of the first task of each of the 50 PHYRE-B/2B templates
//!   (walls hidden), per scene;
//!
//! each with the detected SIMD span filler and with the scalar reference.
//!
//! `cargo bench -p rephyre-benches --bench raster -- --measurement-time 3`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use engine::testbed::{ball_shape, box_shape, jar_shapes, px2};
use engine::{BodyDef, BodyKind, Fixed, Polygon, Shape, Vec2, World};
use raster::{colour, render_into, Observation, SpanFiller};

fn typical_scene() -> (World, Vec<u8>) {
    let mut w = World::new();
    let mut colours = Vec::new();
    let mut add = |kind, pos, angle, parts: Vec<Shape>, c: u8| {
        w.add_body(&BodyDef::new(kind, pos, angle, parts)).unwrap();
        colours.push(c);
    };
    add(
        BodyKind::Static,
        px2(128, 3),
        Fixed::ZERO,
        vec![box_shape(256, 6)],
        colour::BLACK,
    );
    for i in 0..14i64 {
        let len = 30 + (i * 37) % 170;
        let pos = px2(20 + (i * 53) % 216, 30 + (i * 71) % 200);
        let angle = Fixed::ratio((i * 577) % 6283, 1000);
        let c = if i % 3 == 0 {
            colour::GRAY
        } else {
            colour::BLACK
        };
        add(BodyKind::Dynamic, pos, angle, vec![box_shape(len, 5)], c);
    }
    for i in 0..15i64 {
        let r = 3 + (i * 7) % 28;
        let pos = px2(15 + (i * 97) % 226, 20 + (i * 61) % 220);
        let c = [colour::GRAY, colour::BLUE, colour::GREEN][i as usize % 3];
        add(
            BodyKind::Dynamic,
            pos,
            Fixed::ZERO,
            vec![ball_shape(r, 1)],
            c,
        );
    }
    add(
        BodyKind::Dynamic,
        px2(170, 60),
        Fixed::ratio(1, 5),
        jar_shapes(),
        colour::GRAY,
    );
    let stick = |deg_milli: i64| {
        Shape::Polygon(
            Polygon::new_box(
                engine::testbed::px(40, 2),
                engine::testbed::px(3, 2),
                Vec2::ZERO,
                Fixed::ratio(deg_milli, 1000),
            )
            .unwrap(),
        )
    };
    add(
        BodyKind::Dynamic,
        px2(60, 200),
        Fixed::ZERO,
        vec![stick(-1353), stick(1353)],
        colour::PURPLE,
    );
    add(
        BodyKind::Dynamic,
        px2(100, 120),
        Fixed::ZERO,
        vec![ball_shape(12, 1)],
        colour::RED,
    );
    (w, colours)
}

fn phyre_scenes() -> Vec<(World, Vec<u8>)> {
    let set = tasks::TaskSet::builtin();
    set.templates()
        .into_iter()
        .filter_map(|t| set.template(t).first())
        .map(|task| {
            let s = task.build_world(&[]).expect("PHYRE tasks build");
            (s.world, s.colours)
        })
        .collect()
}

fn bench_render(c: &mut Criterion) {
    let typical = typical_scene();
    let phyre = phyre_scenes();
    let mut g = c.benchmark_group("render");
    for filler in [SpanFiller::detect(), SpanFiller::Scalar] {
        g.throughput(Throughput::Elements(1));
        g.bench_function(BenchmarkId::new("typical", format!("{filler:?}")), |b| {
            let mut obs = Observation::default();
            b.iter(|| {
                render_into(&typical.0, &typical.1, &mut obs, filler);
                obs.pixels[12345]
            })
        });
        g.throughput(Throughput::Elements(phyre.len() as u64));
        g.bench_function(BenchmarkId::new("phyre", format!("{filler:?}")), |b| {
            let mut obs = Observation::default();
            b.iter(|| {
                for (w, colours) in &phyre {
                    render_into(w, colours, &mut obs, filler);
                }
                obs.pixels[12345]
            })
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30);
    targets = bench_render
}
criterion_main!(benches);
