#![allow(clippy::float_arithmetic)]
use engine::testbed;
fn main() {
    let mut scenes = testbed::named_scenes();
    scenes.push(("phyre_like", testbed::phyre_like()));
    for (name, mut w) in scenes {
        let mut awake_steps = 0;
        for _ in 0..1000 {
            w.step();
            if !w.is_at_rest() {
                awake_steps += 1;
            }
        }
        let c: Vec<String> = w
            .centers()
            .iter()
            .take(4)
            .map(|v| format!("({:.3},{:.3})", v.x.to_f64() * 6.0, v.y.to_f64() * 6.0))
            .collect();
        println!(
            "{name}: awake {awake_steps} hash {:016x} {:?} contacts {}",
            w.state_hash(),
            c,
            w.contacts().filter(|c| c.point_count > 0).count()
        );
    }
}
