//! Native speed on the player's pairs: the same `rephyre_web` functions the page's wasm calls
//! (`simulate_phyre`, `simulate_phyq` through `phyre::simulate` and `phyq::simulate`), timed
//! natively on one thread over the pairs the browser test wrote, for at least 3 s per tier.
//!
//! `cargo run --release -p rephyre-web --example speed -- PAIRS.json` (scripts/player-test.sh
//! --speed runs it and puts both figures side by side).
use rephyre_web::{phyq, phyre};
use std::time::Instant;
use taskref::Benchmark;

#[derive(serde::Deserialize)]
struct Pair {
    task: String,
    tier: Option<String>,
    action: serde_json::Value,
}

fn main() {
    let path = std::env::args().nth(1).unwrap_or_else(|| {
        eprintln!("usage: speed PAIRS.json");
        std::process::exit(2)
    });
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        eprintln!("speed: cannot read {path}: {e}");
        std::process::exit(2)
    });
    let pairs: Vec<Pair> = serde_json::from_str(&text).unwrap_or_else(|e| {
        eprintln!("speed: {path} is not a pairs file: {e}");
        std::process::exit(2)
    });
    let (phyq_pairs, phyre_pairs): (Vec<&Pair>, Vec<&Pair>) = pairs
        .iter()
        .partition(|p| Benchmark::of_id(&p.task) == Benchmark::Phyq);
    let run_phyre = |p: &Pair| {
        let task = phyre::task(&p.task).expect("a built-in task");
        let tier = phyre::tier_of(task, p.tier.as_deref()).expect("a tier");
        let action: Vec<f64> = serde_json::from_value(p.action.clone()).expect("numbers");
        phyre::simulate(task, tier, &action).expect("simulates");
    };
    // As the page does: the task looked up (Phy-Q: generated) on every call.
    let run_phyq = |p: &Pair| {
        let entry = phyq::task(&p.task).expect("a built-in task");
        phyq::simulate(&entry, p.action.as_str().expect("shots")).expect("plays");
    };
    let rate = |pairs: &[&Pair], run: &dyn Fn(&Pair)| {
        let start = Instant::now();
        let mut n = 0u64;
        while start.elapsed().as_secs_f64() < 3.0 {
            for p in pairs {
                run(p);
                n += 1;
            }
        }
        n as f64 / start.elapsed().as_secs_f64()
    };
    let phyre_rate = rate(&phyre_pairs, &run_phyre);
    let phyq_rate = rate(&phyq_pairs, &run_phyq);
    println!(
        "{}",
        serde_json::json!({
            "native_simulations_per_second": { "phyre": phyre_rate, "phyq": phyq_rate },
            "pairs": { "phyre": phyre_pairs.len(), "phyq": phyq_pairs.len() },
        })
    );
}
