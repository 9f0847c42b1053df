//! The soundness search reproduces the witness file (`data/witnesses.csv`) shot for shot: on
//! the kept draw of a task, `check` finds the file's shots after trying as many shots and
//! running as many steps as the file says it took. The shots, the count and the steps together
//! pin which candidates the search makes, in what order, how it plays them and when it stops;
//! a change to any of them shows here in seconds, where the whole tier's replay
//! (`tests/witnesses.rs`) takes minutes and sees only whether the shots still pass.

use phyq::game::format_shots;
use phyq::game::soundness::{check, Unsound};
use phyq::generator::{regenerate, BUILTIN_SEED};
use phyq::witnesses::{builtin, Row};
use rayon::prelude::*;

fn drawn(r: &Row, attempt: u32) -> phyq::Level {
    let t = phyq::templates::find(&r.template).unwrap();
    let g = regenerate(t, r.index, BUILTIN_SEED, attempt).unwrap();
    assert_eq!(
        g.attempt, attempt,
        "{}: attempt {attempt} is a valid draw",
        r.task_id
    );
    g.level
}

/// What `check` gives a draw: its witness or why none, and the search's shots and steps.
fn searched(level: &phyq::Level) -> (Result<String, Unsound>, u64, u64) {
    let verdict = check(level).unwrap();
    let search = verdict.search.as_ref().expect("the draw starts at rest");
    let (tried, steps) = (search.shots_tried, search.steps);
    (verdict.witness().map(format_shots), tried, steps)
}

/// Task 1 of every template whose first draw was kept, searched in at most 300 shots and
/// 120,000 steps (52 of the 75), less scenario 3.6's, whose dozens of resting blocks make a
/// step about a hundred times dearer.
#[test]
fn the_search_finds_the_files_shots_at_the_files_cost() {
    let rows: Vec<&Row> = builtin()
        .iter()
        .filter(|r| r.index == 1 && r.refused.is_empty() && r.found)
        .filter(|r| r.shots_tried <= 300 && r.steps <= 120_000)
        .filter(|r| !r.template.starts_with("3_6_"))
        .collect();
    assert_eq!(rows.len(), 52);
    let differ: Vec<String> = rows
        .par_iter()
        .filter_map(|r| {
            let got = searched(&drawn(r, r.attempt));
            let want = (Ok(r.shots.clone()), r.shots_tried, r.steps);
            (got != want).then(|| format!("{}: {got:?}, the file {want:?}", r.task_id))
        })
        .collect();
    assert!(differ.is_empty(), "{}", differ.join("\n"));
    // Among them: two birds in a row, a tap.
    assert!(rows.iter().any(|r| r.shots.contains(';')));
    assert!(rows.iter().any(|r| !r.shots.ends_with(",0")));
}

/// A refused draw costs its whole search: 1.5's task 85 (1_1_5), refused at attempt 0 (no pass
/// found), kept at attempt 1; the file's count and steps are the two searches' together.
#[test]
fn a_refused_draw_costs_its_whole_search() {
    let r = builtin()
        .iter()
        .find(|r| r.task_id == "phyq:1_1_5:00085")
        .unwrap();
    assert_eq!(
        (r.refused.as_slice(), r.attempt),
        (&[(0, Unsound::NoPassFound)][..], 1)
    );
    let (refused, tried_0, steps_0) = searched(&drawn(r, 0));
    assert_eq!(refused, Err(Unsound::NoPassFound));
    let (kept, tried_1, steps_1) = searched(&drawn(r, 1));
    assert_eq!(kept, Ok(r.shots.clone()));
    assert_eq!(
        (tried_0 + tried_1, steps_0 + steps_1),
        (r.shots_tried, r.steps)
    );
}
