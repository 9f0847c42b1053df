//! How many fixed-point multiplies the Phy-Q bench's 75 shots make (`cargo bench --bench phyq`
//! times them; `cargo bench --bench engine -- fixed_mul` times one multiply), for the record of
//! where a shot's time goes:
//!
//! ```sh
//! cargo run --release -p rephyre-benches --features count-multiplies --example multiplies
//! ```
//!
//! Counting slows every multiply, so this example times nothing.
fn main() {
    let openings = rephyre_benches::phyq_openings();
    let shot = rephyre_benches::phyq_shot();
    let before = engine::multiplies();
    let mut steps = 0u64;
    for opening in &openings {
        let mut g = opening.clone();
        g.shoot(&shot).expect("a bird");
        steps += u64::from(g.steps() - opening.steps());
    }
    let n = engine::multiplies() - before;
    println!(
        "{} shots, {steps} steps: {n} fixed-point multiplies ({:.0} a step, {:.2} million a shot)",
        openings.len(),
        n as f64 / steps as f64,
        n as f64 / openings.len() as f64 / 1e6
    );
}
