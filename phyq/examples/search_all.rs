//! Runs the passability search on every built-in task and prints one CSV row per task:
//! `id,passable,shots,tried,steps,seconds` (shots as x;y;tap in metres and seconds, `|`
//! between shots). `cargo run --release -p phyq --example search_all -- THREADS > out.csv`
use phyq::game::soundness::search;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

fn main() {
    let threads: usize = std::env::args()
        .nth(1)
        .and_then(|t| t.parse().ok())
        .unwrap_or(1);
    let set = phyq::generator::builtin_tasks();
    let entries = set.entries();
    let next = AtomicUsize::new(0);
    let rows: Mutex<Vec<(usize, String)>> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(e) = entries.get(i) else { break };
                let t0 = std::time::Instant::now();
                let r = search(&e.level).expect("playable");
                let shots = r.shots.as_ref().map_or(String::new(), |v| {
                    v.iter()
                        .map(|s| {
                            format!(
                                "{:.6};{:.6};{:.3}",
                                s.release.x.to_f64(),
                                s.release.y.to_f64(),
                                s.tap.map_or(0.0, |t| t.to_f64())
                            )
                        })
                        .collect::<Vec<_>>()
                        .join("|")
                });
                let row = format!(
                    "{},{},{},{},{},{:.3}",
                    e.id,
                    r.shots.is_some(),
                    shots,
                    r.shots_tried,
                    r.steps,
                    t0.elapsed().as_secs_f64()
                );
                rows.lock().unwrap().push((i, row));
            });
        }
    });
    let mut rows = rows.into_inner().unwrap();
    rows.sort();
    println!("id,passable,shots,tried,steps,seconds");
    for (_, r) in rows {
        println!("{r}");
    }
}
