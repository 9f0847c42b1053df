//! Replays every committed corpus entry through its target (what CI always runs, with or
//! without cargo-fuzz). The floors are the committed corpora's sizes (2026-11-28, after
//! `cargo fuzz cmin`; the Phy-Q targets' and the agent protocol's: their seeds and the inputs
//! under 1,000 bytes of a 60 s run, after `cmin`): a corpus that is missing, empty or loses
//! files fails here; one that grows raises its floor.

use std::path::Path;

fn replay(target: &str, f: fn(&[u8])) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus")
        .join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{}: an empty corpus", dir.display());
    for f_path in &files {
        let data = std::fs::read(f_path).unwrap();
        f(&data);
    }
    files.len()
}

#[test]
fn scene_step_corpus() {
    let n = replay("scene_step", rephyre_fuzz::scene_step);
    assert!(
        n >= 264,
        "scene_step corpus has only {n} entries (committed: 264)"
    );
}

#[test]
fn task_files_corpus() {
    let n = replay("task_files", rephyre_fuzz::task_files);
    assert!(
        n >= 351,
        "task_files corpus has only {n} entries (committed: 351)"
    );
}

#[test]
fn actions_corpus() {
    let n = replay("actions", rephyre_fuzz::actions);
    assert!(
        n >= 367,
        "actions corpus has only {n} entries (committed: 367)"
    );
}

#[test]
fn phyq_level_xml_corpus() {
    let n = replay("phyq_level_xml", rephyre_fuzz::phyq_level_xml);
    assert!(
        n >= 713,
        "phyq_level_xml corpus has only {n} entries (committed: 713)"
    );
}

#[test]
fn phyq_shots_corpus() {
    let n = replay("phyq_shots", rephyre_fuzz::phyq_shots);
    assert!(
        n >= 255,
        "phyq_shots corpus has only {n} entries (committed: 255)"
    );
}

#[test]
fn phyq_level_sets_corpus() {
    let n = replay("phyq_level_sets", rephyre_fuzz::phyq_level_sets);
    assert!(
        n >= 1060,
        "phyq_level_sets corpus has only {n} entries (committed: 1060)"
    );
}

#[test]
fn phyq_server_wire_corpus() {
    let n = replay("phyq_server_wire", rephyre_fuzz::phyq_server_wire);
    assert!(
        n >= 427,
        "phyq_server_wire corpus has only {n} entries (committed: 427)"
    );
}
