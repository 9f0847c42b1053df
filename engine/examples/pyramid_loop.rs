use engine::testbed;
fn main() {
    let start = testbed::pyramid(5);
    let mut h = 0u64;
    for _ in 0..400 {
        let mut w = start.clone();
        for _ in 0..25 {
            w.step();
        }
        h ^= w.state_hash();
    }
    println!("{h:x}");
}
