//! Observation rendering: frames per second for typical PHYRE scenes (one initial scene of each
//! of the 50 B/2B templates, walls hidden), with the detected SIMD span filler and with the
//! scalar reference.
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use raster::{render_into, Observation, SpanFiller};

fn scenes() -> Vec<(engine::World, Vec<u8>)> {
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

fn render(c: &mut Criterion) {
    let scenes = scenes();
    let mut g = c.benchmark_group("render");
    g.throughput(Throughput::Elements(scenes.len() as u64));
    for filler in [SpanFiller::detect(), SpanFiller::Scalar] {
        g.bench_function(format!("{filler:?}"), |b| {
            let mut obs = Observation::default();
            b.iter(|| {
                for (w, colours) in &scenes {
                    render_into(w, colours, &mut obs, filler);
                }
                obs.pixels[0]
            })
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = render
}
criterion_main!(benches);
