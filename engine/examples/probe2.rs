#![allow(clippy::float_arithmetic)]
use engine::testbed;
fn main() {
    let mut w = testbed::seesaw();
    for s in 0..400 {
        w.step();
        let b = &w.bodies()[3];
        let p = &w.bodies()[2];
        if s > 128 && s % 4 == 0 {
        let cs: Vec<String> = w.contacts().map(|c| format!("{}-{}:{}", c.body_a.0, c.body_b.0, c.point_count)).collect();
        println!("{s} ball ({:.3},{:.3}) v {:.2} plank ({:.3},{:.3}) a {:.4} {:?}", b.position().x.to_f64()*6.0, b.position().y.to_f64()*6.0, b.linear_velocity().y.to_f64(), p.position().x.to_f64()*6.0, p.position().y.to_f64()*6.0, p.angle().to_f64(), cs);
        }
        if b.position().y.to_f64() < 0.0 { break; }
    }
}
