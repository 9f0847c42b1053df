//! The soundness check of a drawn task (`phyq::game::soundness`): its opening, measured on
//! small levels written here, and its search, which reproduces the witness file
//! (`data/witnesses.csv`) shot for shot: on the kept draw of a task, `check` finds the file's
//! shots after trying as many shots and running as many steps as the file says it took. The
//! shots, the count and the steps together pin which candidates the search makes, in what
//! order, how it plays them and when it stops; a change to any of them shows here in seconds,
//! where the whole tier's replay (`tests/witnesses.rs`) takes minutes and sees only whether the
//! shots still pass.

use phyq::game::soundness::{
    best_next_shot, candidates_for, check, opening, search_from, verify_witness, wide_search,
    Search, Unsound, BEAM_WIDTH, REST_TOLERANCE,
};
use phyq::game::{format_shots, IMMORTAL_STEPS, MAX_SHOT_STEPS};
use phyq::generator::{regenerate, BUILTIN_SEED};
use phyq::witnesses::{builtin, Row};
use rayon::prelude::*;

/// The witness file's row of a task.
fn row(id: &str) -> &'static Row {
    builtin().iter().find(|r| r.task_id == id).unwrap()
}

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

/// Draws the greedy search cannot pass, passed by the wider searches at the file's cost: a red
/// bird (6.4, 2_4_1, task 9) that needs the fine grid's half-degree, a blue bird (15.6, 3_9_4,
/// task 11) whose split must come at the right tenth of a second, and two red birds (11.4,
/// 3_5_1, task 10) whose first shot must leave the pigs the second can reach (the wide search),
/// and three (2.6, 1_2_6, task 1) whose last needs the fine grid after the wide search.
#[test]
fn the_wider_searches_find_the_files_shots_at_the_files_cost() {
    [
        "phyq:2_4_1:00009",
        "phyq:3_9_4:00011",
        "phyq:3_5_1:00010",
        "phyq:1_2_6:00001",
    ]
    .par_iter()
    .for_each(|id| {
        let r = row(id);
        let got = searched(&drawn(r, r.attempt));
        assert_eq!(got, (Ok(r.shots.clone()), r.shots_tried, r.steps), "{id}");
    });
}

/// A refused draw costs its whole search: 1.5's task 85 (1_1_5), refused at attempt 0 (no pass
/// found), kept at attempt 1; the file's count and steps are the two searches' together.
#[test]
fn a_refused_draw_costs_its_whole_search() {
    let r = row("phyq:1_1_5:00085");
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

/// A stone block 1 m above the ground (it falls 1 m in the opening).
const STONE_1_M_UP: &str =
    r#"<Block type="SquareSmall" material="stone" x="0" y="-2.2" rotation="0"/>"#;

/// A level written here: one red bird, a small pig resting on the ground at x = -16 and these
/// objects.
fn level(objects: &str) -> phyq::Level {
    let xml = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><Level width=\"2\">\
         <Camera x=\"0\" y=\"-1\" minWidth=\"25\" maxWidth=\"35\"/><Score highScore=\"0\"/>\
         <Birds><Bird type=\"BirdRed\"/></Birds><Slingshot x=\"-12.0\" y=\"-2.5\"/>\
         <GameObjects><Pig type=\"BasicSmall\" x=\"-16\" y=\"-3.2\"/>{objects}</GameObjects>\
         </Level>"
    );
    phyq::parse_level(xml.as_bytes()).unwrap()
}

#[test]
fn a_level_at_rest_ends_its_opening_with_the_immortal_time() {
    // The pig settles 6 cm into place in the first steps: under the tolerance.
    let o = opening(&level("")).unwrap();
    assert!(o.came_to_rest);
    assert_eq!(
        (o.steps, o.destroyed, o.pigs_destroyed),
        (IMMORTAL_STEPS, 0, 0)
    );
    assert!(o.largest_move > engine::Fixed::ZERO && o.largest_move <= REST_TOLERANCE);
    assert!(o.is_at_rest());
    assert!(check(&level("")).unwrap().search.is_some());
}

#[test]
fn a_level_that_does_not_settle_is_refused_before_the_search() {
    // A stone block 1 m above the ground falls 1 m: not at rest, so no search is run.
    let verdict = check(&level(STONE_1_M_UP)).unwrap();
    let o = &verdict.opening;
    assert!(o.largest_move.to_f64() > 0.9 && o.largest_move.to_f64() < 1.1);
    assert!(o.came_to_rest && o.destroyed == 0);
    assert!(!o.is_at_rest());
    assert_eq!(verdict.search, None);
    assert_eq!(verdict.witness().unwrap_err(), Unsound::NotAtRest);
}

#[test]
fn a_pig_destroyed_in_the_opening_is_not_at_rest() {
    // A second pig dropped from 60 m lands after the immortal time and dies; the first stays
    // (within the tolerance), and the world rests after the landing.
    let o = opening(&level(r#"<Pig type="BasicSmall" x="5" y="60"/>"#)).unwrap();
    assert_eq!((o.destroyed, o.pigs_destroyed), (1, 1));
    assert!(o.came_to_rest);
    assert!(o.steps > IMMORTAL_STEPS && o.steps < IMMORTAL_STEPS + MAX_SHOT_STEPS);
    assert!(o.largest_move <= REST_TOLERANCE);
    assert!(!o.is_at_rest());
}

#[test]
fn among_equal_outcomes_the_first_candidate_is_the_best() {
    // The pig shut in a box of platforms (indestructible, kinematic) 28 m away: no shot
    // touches it or destroys anything, so every candidate leaves the same outcome, and the
    // best is the first played.
    let boxed = r#"<Pig type="BasicSmall" x="12" y="-3.2"/>
        <Platform type="Platform" x="10.5" y="-2" rotation="0" scaleX="1" scaleY="6"/>
        <Platform type="Platform" x="13.5" y="-2" rotation="0" scaleX="1" scaleY="6"/>
        <Platform type="Platform" x="12" y="0" rotation="0" scaleX="6" scaleY="1"/>"#;
    let level = level(boxed);
    let mut game = phyq::game::Game::new(&level).unwrap();
    game.settle();
    let candidates = candidates_for(&game, &level);
    let best = best_next_shot(&game, &level)
        .unwrap()
        .expect("a bird to shoot");
    assert!(!best.passes);
    assert_eq!(best.shots_tried, candidates.len() as u64);
    assert_eq!(best.shot, candidates[0]);
    assert_eq!(best.after.pigs_left(), 2);
}

#[test]
fn a_refusal_is_written_as_its_word() {
    for (why, word) in [
        (Unsound::NotAtRest, "rest"),
        (Unsound::NoPassFound, "search"),
    ] {
        assert_eq!(why.word(), word);
        assert_eq!(Unsound::from_word(word), Some(why));
    }
    assert_eq!(Unsound::from_word("Search"), None);
}

#[test]
fn a_witness_holds_when_its_shots_pass_a_level_at_rest() {
    let r = row("phyq:1_1_4:00001");
    let kept = drawn(r, r.attempt);
    let shots = phyq::game::parse_shots(&r.shots).unwrap();
    assert_eq!(verify_witness(&kept, &shots), Ok(()));
    // The pig shot past: not passed.
    let past = phyq::game::parse_shots("-3.5,-17.9,0").unwrap();
    let err = verify_witness(&kept, &past).unwrap_err();
    assert!(err.starts_with("the shots do not pass it"), "{err}");
    // The falling stone's level: not at rest, whatever the shots.
    let err = verify_witness(&level(STONE_1_M_UP), &shots).unwrap_err();
    assert!(err.starts_with("not at rest"), "{err}");
}

#[test]
fn with_no_bird_left_the_searches_try_nothing() {
    // 1_1_4's first task: its one bird shot past the pig.
    let r = row("phyq:1_1_4:00001");
    let kept = drawn(r, r.attempt);
    let mut game = phyq::game::Game::new(&kept).unwrap();
    game.settle();
    let past = phyq::game::parse_shots("-3.5,-17.9,0").unwrap()[0].to_shot(&kept);
    assert!(game.shoot(&past).unwrap());
    assert_eq!((game.birds_left(), game.pigs_left()), (0, 1));
    let nothing = Search {
        shots: None,
        shots_tried: 0,
        steps: 0,
    };
    assert_eq!(search_from(&game, &kept).unwrap(), nothing);
    assert_eq!(wide_search(&game, &kept, BEAM_WIDTH).unwrap(), nothing);
    assert!(best_next_shot(&game, &kept).unwrap().is_none());
}

#[test]
fn an_opening_that_never_rests_stops_at_the_cap() {
    // A block placed below the ground falls for as long as the opening runs: 60 s after the
    // immortal time, not a step more.
    let o = opening(&level(
        r#"<Block type="SquareSmall" material="stone" x="0" y="-999" rotation="0"/>"#,
    ))
    .unwrap();
    assert!(!o.came_to_rest);
    assert_eq!(o.steps, IMMORTAL_STEPS + MAX_SHOT_STEPS);
    assert!(
        o.largest_move.to_f64() > 1_000.0,
        "{}",
        o.largest_move.to_f64()
    );
    assert_eq!(o.destroyed, 0);
}
