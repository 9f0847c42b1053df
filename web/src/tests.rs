//! The player's logic natively: the same functions the wasm exports wrap.

use crate::{catalogue, phyq, phyre};

#[test]
fn a_run_shown_step_by_step_ends_in_the_simulated_state() {
    for (id, tier) in [
        ("00020:051", "ball"),
        ("00101:003", "two_balls"),
        ("00000:001", "ball"),
    ] {
        let task = phyre::task(id).unwrap();
        let tier = phyre::tier_of(task, Some(tier)).unwrap();
        let action = phyre::solution(task, tier).expect("a witness");
        let want = phyre::simulate(task, tier, &action).unwrap();
        let mut run = phyre::Run::new(task, tier, &action).unwrap();
        let mut shown = 0;
        while run.step() {
            shown += 1;
        }
        let end = run.state();
        assert_eq!(Some(shown), want.steps, "{id}");
        assert!(end.done);
        assert_eq!(end.status, Some(want.status), "{id}");
        assert_eq!(end.hash, want.hash, "{id}");
        assert_eq!(end.status, Some("SOLVED"), "{id}: the witness solves it");
        // A solved run ends holding the goal for the 3 seconds.
        assert_eq!(end.hold_steps, end.hold_needed, "{id}");
        assert!(!run.step(), "nothing after the end");
        assert_eq!(run.picture(2).unwrap().len(), 512 * 512 * 4);
    }
}

#[test]
fn invalid_actions_and_unknown_ids_are_errors_that_say_why() {
    let task = phyre::task("00000:001").unwrap();
    let s = phyre::simulate(task, tasks::Tier::Ball, &[0.5, f64::NAN, 0.5]).unwrap();
    assert_eq!(s.status, "INVALID");
    assert!(s.reason.as_deref().unwrap().contains("NaN"), "{s:?}");
    assert!(s.hash.is_none() && s.steps.is_none());
    let e = phyre::Run::new(task, tasks::Tier::Ball, &[2.0, 0.5, 0.5])
        .err()
        .unwrap();
    assert!(e.contains("outside [0, 1]"), "{e}");
    assert!(phyre::tier_of(task, Some("three_balls")).is_err());
    for bad in [
        "",
        "99999:999",
        "00000:00x",
        &"9".repeat(10_000),
        "phyq:1_1_4:00101",
        "phyq:",
        "phyq:9_9_9:00001",
    ] {
        let e = if bad.starts_with("phyq:") {
            phyq::task(bad).err()
        } else {
            phyre::task(bad).err()
        };
        let e = e.unwrap_or_else(|| panic!("{bad:?} is not a task"));
        assert!(!e.is_empty() && e.len() < 300 && !e.contains('\n'), "{e}");
        // The menus' description says the same as the benchmark's own lookup.
        assert_eq!(catalogue::task_info(bad).unwrap_err(), e);
    }
    let entry = phyq::task("phyq:1_1_4:00001").unwrap();
    for bad in ["", "1,2", "NaN,0,0", "0,0,-1", &"1,".repeat(5000)] {
        assert!(phyq::simulate(&entry, bad).is_err(), "{bad:?}");
    }
}

#[test]
fn a_game_played_shot_by_shot_ends_where_its_shots_replay() {
    for id in ["phyq:1_1_4:00001", "phyq:2_3_5:00007", "phyq:3_9_7:00002"] {
        let entry = phyq::task(id).unwrap();
        let shots = phyq::solution(&entry).expect("a witness");
        let want = phyq::simulate(&entry, &shots).unwrap();
        let mut play = phyq::Play::new(entry).unwrap();
        assert_eq!(play.state().phase, phyq::Phase::Opening);
        assert!(
            play.launch(0.0, 0.0, 0.0).is_err(),
            "no shot during the opening"
        );
        play.skip_opening();
        for shot in ::phyq::game::parse_shots(&shots).unwrap() {
            assert_eq!(play.state().phase, phyq::Phase::Aiming, "{id}");
            play.launch(shot.x, shot.y, shot.tap).unwrap();
            while play.step() {}
        }
        let end = play.state();
        assert_eq!(end.phase, phyq::Phase::Over, "{id}");
        assert_eq!(end.status, Some(want.status), "{id}");
        assert_eq!(Some(end.hash), want.hash, "{id}");
        assert_eq!(Some(end.pigs_left), want.pigs_left);
        assert_eq!(end.shots, shots, "{id}: the shots are written as given");
        assert!(play.launch(-10.0, 0.0, 0.0).is_err(), "the game is over");
        assert_eq!(play.picture().unwrap().len(), 640 * 480 * 4);
    }
}

#[test]
fn the_catalogue_lists_every_task_of_both_tiers() {
    let c: serde_json::Value = serde_json::from_str(&catalogue::json()).unwrap();
    let phyre = c["phyre"].as_array().unwrap();
    assert_eq!(phyre.len(), 50);
    let ids: usize = phyre
        .iter()
        .map(|t| t["tasks"].as_array().unwrap().len())
        .sum();
    assert_eq!(ids, 5000);
    assert_eq!(
        phyre.iter().filter(|t| t["tier"] == "two_balls").count(),
        25
    );
    let phyq = c["phyq"].as_array().unwrap();
    assert_eq!(phyq.len(), 75);
    assert!(phyq
        .iter()
        .all(|t| t["tasks"].as_array().unwrap().len() == 100));
    assert_eq!(phyq[0]["tasks"][0], "phyq:1_1_4:00001");
    let info: serde_json::Value =
        serde_json::from_str(&catalogue::task_info("phyq:3_9_1:00005").unwrap()).unwrap();
    assert_eq!(info["birds"][0], "yellow");
    assert!(catalogue::task_info("00000:999").is_err());
}
