use engine::testbed;
fn main() {
    let start = testbed::phyre_like();
    let mut h = 0u64;
    for _ in 0..20 {
        let mut w = start.clone();
        for _ in 0..1000 {
            w.step();
        }
        h ^= w.state_hash();
    }
    println!("{h:x}");
}
