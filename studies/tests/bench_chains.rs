//! The bench's row chains ([`studies::bench::row_chain`]) on the original's timing pairs of both
//! tiers, full and status-only, against `tests/golden/bench-chains.txt`: every row's status,
//! steps covered and final state hash, in row order. A speed change that keeps every bit keeps
//! these four values. Re-bless (its own commit, saying why the bits moved) with
//! `REPHYRE_BLESS=1 cargo test --release -p studies --test bench_chains`.

use studies::bench::reference_rows;
use tasks::TaskSet;

const GOLDEN: &str = include_str!("../../tests/golden/bench-chains.txt");

const PAIRS: [(&str, &str); 2] = [
    (
        "pairs-ball.csv",
        include_str!("../data/phyre-0.2.2/speed/pairs-ball.csv"),
    ),
    (
        "pairs-two_balls.csv",
        include_str!("../data/phyre-0.2.2/speed/pairs-two_balls.csv"),
    ),
];

const HEADER: &str = "\
# rephyre bench row chains: `rephyre bench --reference studies/data/phyre-0.2.2/speed/FILE [--status-only] --json`
# (row_chain) on the original's timing pairs. Line: file mode rows valid solved row_chain.
# Re-bless: REPHYRE_BLESS=1 cargo test --release -p studies --test bench_chains, in a commit of
# its own that says why the bits moved (docs/audit.md, \"Bench chains\").
";

/// One golden line per file and mode, and the status chains of the two modes (which must agree).
fn chain_lines() -> Vec<String> {
    let set = TaskSet::builtin();
    let mut lines = Vec::new();
    for (file, text) in PAIRS {
        let mut status_chains = Vec::new();
        for (mode, status_only) in [("full", false), ("status-only", true)] {
            let r = reference_rows(set, text, file, status_only, None).unwrap();
            assert_eq!(r.mode, mode);
            lines.push(format!(
                "{file} {mode} {} {} {} {:016x}",
                r.calls, r.valid, r.solved, r.row_chain
            ));
            status_chains.push(r.status_chain);
        }
        assert_eq!(
            status_chains[0], status_chains[1],
            "{file}: the status-only run's statuses or steps differ from the full run's"
        );
    }
    lines
}

#[test]
fn bench_chains_match_the_golden_file() {
    let got = chain_lines();
    if std::env::var_os("REPHYRE_BLESS").is_some() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/golden/bench-chains.txt"
        );
        std::fs::write(path, HEADER.to_string() + &got.join("\n") + "\n").unwrap();
        return;
    }
    let want: Vec<&str> = GOLDEN
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .collect();
    assert_eq!(want.len(), 4, "the golden file should list 4 chains");
    let differ: Vec<String> = got
        .iter()
        .zip(&want)
        .filter(|(g, w)| g != w)
        .map(|(g, w)| format!("  golden {w}\n  now    {g}"))
        .collect();
    assert!(
        differ.is_empty(),
        "{} of 4 bench chains differ from tests/golden/bench-chains.txt \
         (file mode rows valid solved row_chain):\n{}",
        differ.len(),
        differ.join("\n")
    );
}

/// A one-pixel move of one ball (actions are quantized to whole pixels, so this is the smallest
/// change of the input the engine sees) changes the chain; the chain does not depend on the
/// thread count.
#[test]
fn one_moved_ball_changes_the_chain() {
    let set = TaskSet::builtin();
    let text: String = PAIRS[0]
        .1
        .lines()
        .take(41)
        .map(|l| format!("{l}\n"))
        .collect();
    let chain = |text: &str, threads| {
        reference_rows(set, text, "pairs.csv", false, Some(threads))
            .unwrap()
            .row_chain
    };
    let base = chain(&text, 1);
    assert_eq!(chain(&text, 2), base);
    // Row 5's x moved right by one pixel of 256.
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let fields: Vec<&str> = lines[5].split(',').collect();
    let mut action: Vec<f64> = fields[4].split(' ').map(|v| v.parse().unwrap()).collect();
    action[0] += 1.0 / 256.0;
    let moved = studies::action_text(&action, " ");
    lines[5] = [fields[..4].join(","), moved, fields[5].to_string()].join(",");
    let moved_text = lines.join("\n") + "\n";
    assert_ne!(chain(&moved_text, 1), base);
}
