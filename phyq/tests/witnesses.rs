//! The built-in tier's witness file (`data/witnesses.csv`, written by `rephyre phyq-witness`):
//! it covers every task, the tier keeps the draws it names, and every witness holds: the kept
//! draw starts at rest and its shots, played from the start as `--shots` plays them, pass it.
//! Refused draws are re-checked on a sample (each costs a whole search).

use phyq::game::soundness::{check, greedy_search, search, verify_witness};
use phyq::generator::{builtin_tasks, regenerate, template_of, BUILTIN_SEED};
use phyq::witnesses::{builtin, parse, Row, HEADER};
use rayon::prelude::*;

/// Tasks with a witness, measured 2026-11-29 (`rephyre phyq-witness`, docs/phyq-tasks.md).
const SOUND: usize = 7_500;

fn level_of(r: &Row) -> phyq::Level {
    let t = phyq::templates::find(&r.template).unwrap();
    let g = regenerate(t, r.index, BUILTIN_SEED, r.attempt).unwrap();
    assert_eq!(
        g.attempt, r.attempt,
        "{}: the kept attempt is a valid draw",
        r.task_id
    );
    g.level
}

#[test]
fn the_file_covers_the_tier_and_the_tier_keeps_its_draws() {
    let rows = builtin();
    let tier = builtin_tasks().entries();
    assert_eq!(rows.len(), tier.len());
    // The file is in the paper's template order, the tier in id order: matched by id.
    let by_id: std::collections::BTreeMap<String, &phyq::levelset::Entry> =
        tier.iter().map(|e| (e.id.to_string(), e)).collect();
    assert_eq!(by_id.len(), rows.len());
    for r in rows {
        let e = by_id.get(&r.task_id).expect("a task of the tier");
        assert_eq!(template_of(&e.id).unwrap().code, r.template);
        if r.found {
            assert_eq!(e.level, level_of(r), "{}", r.task_id);
            assert!(
                e.source.ends_with(&format!("attempt {}", r.attempt)),
                "{}",
                e.source
            );
        }
        // Refusals come before the kept draw, in order.
        let attempts: Vec<u32> = r.refused.iter().map(|(a, _)| *a).collect();
        assert!(attempts.windows(2).all(|w| w[0] < w[1]), "{}", r.task_id);
        assert!(!r.found || attempts.last().is_none_or(|a| *a < r.attempt));
    }
    let found = rows.iter().filter(|r| r.found).count();
    assert!(
        found >= SOUND,
        "{found} tasks with a witness, measured {SOUND}"
    );
}

#[test]
fn every_witness_holds() {
    let failures: Vec<String> = builtin()
        .par_iter()
        .filter(|r| r.found)
        .filter_map(|r| {
            let shots = phyq::game::parse_shots(&r.shots).unwrap();
            verify_witness(&level_of(r), &shots)
                .err()
                .map(|e| format!("{}: {e}", r.task_id))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn refused_draws_are_refused_again() {
    // The first refused draw of the file (a whole search), refused again for the same reason.
    let (r, attempt, why) = builtin()
        .iter()
        .find_map(|r| r.refused.first().map(|(a, w)| (r, *a, w.clone())))
        .expect("the file has refused draws");
    let t = phyq::templates::find(&r.template).unwrap();
    let g = regenerate(t, r.index, BUILTIN_SEED, attempt).unwrap();
    assert_eq!(g.attempt, attempt);
    let verdict = check(&g.level).unwrap();
    assert_eq!(
        verdict.witness().unwrap_err(),
        why,
        "{} attempt {attempt}",
        r.task_id
    );
}

/// A non-greedy level (11.4, 3_5_1: two red birds, a lone pig in a tunnel, two pigs together)
/// that the greedy search cannot pass (its best first shot leaves the lone pig out of reach) and
/// the wider search passes, following up a first shot that leaves another set of pigs: the
/// first draw of task 10, refused before the wider search existed (2026-12-06).
#[test]
fn the_wide_search_passes_a_non_greedy_draw_the_greedy_search_cannot() {
    let t = phyq::templates::find("3_5_1").unwrap();
    let level = regenerate(t, 10, BUILTIN_SEED, 0).unwrap().level;
    let mut start = phyq::game::Game::new(&level).unwrap();
    start.settle();
    assert_eq!(greedy_search(&start, &level).unwrap().shots, None, "greedy");
    let found = search(&level)
        .unwrap()
        .shots
        .expect("the wide search passes it");
    assert_eq!(found.len(), 2);
    verify_witness(&level, &found).unwrap();
}

/// One-bird draws the candidates cannot pass and the fine grid does (refused before it existed,
/// 2026-12-06): a blue bird (15.6, 3_9_4, task 11's first draw) whose split must come at the
/// right tenth of a second, and a red bird (6.4, 2_4_1, task 9's first draw) that needs a
/// half-degree.
#[test]
fn the_fine_grid_passes_lone_birds_the_candidates_cannot() {
    for (code, index) in [("3_9_4", 11), ("2_4_1", 9)] {
        let t = phyq::templates::find(code).unwrap();
        let level = regenerate(t, index, BUILTIN_SEED, 0).unwrap().level;
        let mut start = phyq::game::Game::new(&level).unwrap();
        start.settle();
        assert_eq!(start.birds_left(), 1, "{code}");
        let greedy = greedy_search(&start, &level).unwrap();
        assert_eq!(greedy.shots, None, "{code}: greedy");
        let found = search(&level).unwrap();
        let shots = found.shots.expect("the fine grid passes it");
        assert_eq!(shots.len(), 1, "{code}");
        assert!(found.shots_tried > greedy.shots_tried, "{code}");
        verify_witness(&level, &shots).unwrap();
    }
}

/// A multiple-force draw (2.3, 1_2_6: three red birds on a big pig in a box, task 1's first
/// draw) the candidates of every bird cannot pass, refused before the last bird of the wide
/// search got the fine grid (2026-12-07): the shots found end with one the candidates of that
/// state do not hold.
#[test]
fn the_fine_grid_passes_the_last_bird_the_candidates_cannot() {
    use phyq::game::soundness::candidates_for;
    let t = phyq::templates::find("1_2_6").unwrap();
    let level = regenerate(t, 1, BUILTIN_SEED, 0).unwrap().level;
    let mut start = phyq::game::Game::new(&level).unwrap();
    start.settle();
    assert_eq!(start.birds_left(), 3);
    assert_eq!(greedy_search(&start, &level).unwrap().shots, None, "greedy");
    let shots = search(&level)
        .unwrap()
        .shots
        .expect("the last bird's fine grid passes it");
    assert_eq!(shots.len(), 3);
    let (last, before) = shots.split_last().unwrap();
    let mut g = start.clone();
    for s in before {
        g.shoot(&s.to_shot(&level)).unwrap();
    }
    assert_eq!(g.birds_left(), 1);
    assert!(!candidates_for(&g, &level).contains(last), "{last:?}");
    verify_witness(&level, &shots).unwrap();
}

#[test]
fn bad_files_are_refused_with_the_line() {
    let ok = format!("{HEADER}\nphyq:1_1_4:00001,1_1_4,0,true,,1,75,-17.28,-5.98,0\n");
    assert_eq!(parse(&ok).unwrap().len(), 1);
    assert_eq!(parse(&ok).unwrap()[0].line(), ok.lines().nth(1).unwrap());
    let err = |body: &str| parse(&format!("{HEADER}\n{body}\n")).unwrap_err();
    assert!(parse("id,x\n")
        .unwrap_err()
        .contains("not a Phy-Q witness file"));
    assert_eq!(err("a,b"), "line 2: expected 8 fields, got 2");
    assert!(err("phyq:1_1_4:00001,1_1_4,x,true,,1,75,1,2,0").contains("attempt \"x\""));
    assert!(err("phyq:1_1_4:00001,1_1_4,0,maybe,,1,75,1,2,0").contains("found must be"));
    assert!(err("phyq:1_1_4:00001,1_1_4,0,true,3:why,1,75,1,2,0").contains("rest or search"));
    assert!(err("phyq:1_1_4:00001,1_1_4,0,false,,1,75,1,2,0").contains("found is false"));
}
