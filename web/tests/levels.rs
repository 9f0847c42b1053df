//! A Phy-Q level set in the player, natively: the page's calls (`load_levels`, `task_info`,
//! `PhyqPlay`, `simulate_phyq`, `phyq_solution` with tier `set`) on a set imported from the
//! committed templates as `rephyre tasks import-levels` imports them.

use ::phyq::levelset::{import_paths, LevelSet};
use rephyre_web::{catalogue, levels, phyq, PhyqPlay};
use std::path::PathBuf;

const SET: Option<&str> = Some(levels::SET_TIER);

fn template(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../phyq/data/templates/{name}"))
}

/// The level-set file of two templates (`phyq:1_1_4:00001`, `phyq:2_1_3:00001`) and one of
/// them again under a name of its own (`phyq:my-level`).
fn set_bytes() -> Vec<u8> {
    let dir = std::env::temp_dir().join(format!("rephyre-web-levels-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let named = dir.join("my-level.xml");
    std::fs::copy(template("1_1_4_1.xml"), &named).unwrap();
    let set = import_paths(&[template("1_1_4_1.xml"), template("2_1_3_1.xml"), named]).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    set.to_bytes()
}

#[test]
fn a_level_set_is_loaded_listed_and_played_as_the_command_line_plays_it() {
    // Before a set is loaded, tier `set` names nothing, and says how to get one.
    let e = phyq::task_in("phyq:1_1_4:00001", SET).unwrap_err();
    assert!(
        e.contains("no level set is loaded") && e.contains("--tasks"),
        "{e}"
    );
    assert!(levels::loaded().is_err());

    let bytes = set_bytes();
    let menu: serde_json::Value =
        serde_json::from_str(&rephyre_web::load_levels(&bytes, "set.json").unwrap()).unwrap();
    assert_eq!(menu["name"], "set.json");
    assert_eq!(menu["count"], 3);
    let groups = menu["groups"].as_array().unwrap();
    let codes: Vec<&str> = groups.iter().map(|g| g["code"].as_str().unwrap()).collect();
    assert_eq!(
        codes,
        ["1_1_4", "2_1_3", ""],
        "by template code, named levels last"
    );
    assert!(groups[0]["label"].as_str().unwrap().ends_with("(1_1_4)"));
    assert_eq!(groups[0]["tasks"][0], "phyq:1_1_4:00001");
    assert_eq!(groups[2]["label"], "named levels");
    assert_eq!(groups[2]["tasks"][0], "phyq:my-level");
    let again: serde_json::Value = serde_json::from_str(&levels::loaded().unwrap().json()).unwrap();
    assert_eq!(again, menu);

    // The set's level is the template as written; the built-in task of the same id is a
    // generated variation, still there in tier `phyq`.
    let id = "phyq:1_1_4:00001";
    let mine = phyq::task_in(id, SET).unwrap();
    let written = LevelSet::from_bytes(&bytes).unwrap().entries()[0].clone();
    assert_eq!(mine, written);
    let builtin = phyq::task_in(id, Some("phyq")).unwrap();
    assert_eq!(builtin, phyq::task_in(id, None).unwrap());
    assert_ne!(mine.level, builtin.level);

    let info: serde_json::Value =
        serde_json::from_str(&catalogue::task_info_in(id, SET).unwrap()).unwrap();
    assert_eq!(info["kind"], "phyq");
    assert_eq!(info["tier"], "set");
    assert_eq!(info["template"], "1_1_4");
    assert_eq!(info["source"], "1_1_4_1.xml");
    let named: serde_json::Value =
        serde_json::from_str(&catalogue::task_info_in("phyq:my-level", SET).unwrap()).unwrap();
    assert!(named["template"].is_null() && named["birds"].as_array().unwrap().len() == 1);
    // A set's level has no committed witness, whatever its id.
    assert_eq!(
        rephyre_web::phyq_solution(id, Some("set".into())).ok(),
        Some(None)
    );
    assert!(matches!(rephyre_web::phyq_solution(id, None), Ok(Some(_))));

    // Played shot by shot in the page's game, it ends where `simulate --shots` ends.
    let shots = "-17.28,-5.98,0";
    let want = phyq::simulate(&mine, shots).unwrap();
    let page: serde_json::Value =
        serde_json::from_str(&rephyre_web::simulate_phyq(id, shots, Some("set".into())).unwrap())
            .unwrap();
    assert_eq!(page["hash"].as_str(), want.hash.as_deref());
    let other = phyq::simulate(&builtin, shots).unwrap();
    assert_ne!(
        want.hash, other.hash,
        "the set's level, not the built-in task"
    );
    let mut play = PhyqPlay::new(id, Some("set".into())).unwrap();
    play.skip_opening();
    for shot in ::phyq::game::parse_shots(shots).unwrap() {
        play.launch(shot.x, shot.y, shot.tap).unwrap();
        while play.step() {}
    }
    let end: serde_json::Value = serde_json::from_str(&play.state()).unwrap();
    assert_eq!(end["phase"], "over");
    assert_eq!(end["status"].as_str(), Some(want.status));
    assert_eq!(end["hash"].as_str(), want.hash.as_deref());
    assert_eq!(end["shots"], shots);
    assert_eq!(play.picture().unwrap().len(), 640 * 480 * 4);

    // Ids the set does not hold are errors in `rephyre --tasks SET`'s words.
    let e = phyq::task_in("phyq:1_1_4:00002", SET).unwrap_err();
    assert!(
        e.contains("is not in the level set set.json (3 levels"),
        "{e}"
    );
    let e = phyq::task_in("00000:001", SET).unwrap_err();
    assert!(e.contains("is not a Phy-Q level id"), "{e}");
    let e = phyq::task_in(id, Some("two_balls")).unwrap_err();
    assert!(e.contains("unknown tier"), "{e}");
    assert_eq!(rephyre_web::benchmark(id), "phyq");
    assert_eq!(rephyre_web::benchmark("00000:001"), "phyre");
}

#[test]
fn bad_level_set_files_are_refused_in_the_readers_words() {
    for (bytes, says) in [
        (&b"not json"[..], "not a level-set file"),
        (b"", "not a level-set file"),
        (
            br#"{"format": "rephyre-phyq-levels", "version": 9, "levels": []}"#,
            "version 9",
        ),
        (
            br#"{"format": "rephyre-phyq-levels", "version": 1, "levels": []}"#,
            "holds no levels",
        ),
        (b"RPTS\0\0\0\x01", "not a level-set file"),
    ] {
        let e = levels::Levels::from_bytes(bytes, "bad.json").unwrap_err();
        assert!(e.contains("bad.json") && e.contains(says), "{e}");
        assert!(!e.contains('\n') && e.len() < 300, "{e}");
    }
}
