//! Criterion benchmarks live in `benches/`; run them with `cargo bench -p rephyre-benches`.
