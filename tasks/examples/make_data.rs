//! Regenerate the crate's data files from the original PHYRE reference data:
//!
//! ```sh
//! cargo run --release -p tasks --example make_data -- [PATH/TO/shared/reference/phyre-0.2.2]
//! ```
//!
//! Writes `data/phyre-b-2b.rpts` (the built-in store: the 5,000 B/2B tasks imported from
//! `tasks.bin.lzma`) and `tests/data/outcomes-A.bin` (the rows of `outcomes-A.csv` that the
//! validity test checks). Both outputs are deterministic.

#[path = "../tests/common/outcomes.rs"]
mod outcomes;

use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let reference = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest.join("../../shared/reference/phyre-0.2.2"));
    let tasks = tasks::import::import_phyre_file(&reference.join("tasks.bin.lzma"))
        .unwrap_or_else(|e| panic!("importing {}: {e}", reference.display()));
    let set = tasks::TaskSet::from_tasks(tasks).expect("unique ids");
    let store = set.to_store_bytes(true);
    let out = manifest.join("data/phyre-b-2b.rpts");
    std::fs::write(&out, &store).expect("write store");
    println!(
        "{}: {} tasks, {} bytes",
        out.display(),
        set.len(),
        store.len()
    );

    let csv = std::fs::read_to_string(reference.join("outcomes-A.csv")).expect("outcomes-A.csv");
    let rows = outcomes::parse_csv(&csv);
    let bin = outcomes::encode(&rows);
    assert_eq!(outcomes::decode(&bin), rows, "round trip");
    let out = manifest.join("tests/data/outcomes-A.bin");
    std::fs::write(&out, &bin).expect("write outcomes");
    println!(
        "{}: {} rows, {} bytes",
        out.display(),
        rows.len(),
        bin.len()
    );
}
