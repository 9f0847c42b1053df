use crate::*;
use phyq::generator::builtin_task;
use phyq::{LevelId, LevelSet};
use std::path::Path;
use tasks::TaskSet;

const PHYRE_ID: &str = "00012:034";
const PHYQ_ID: &str = "phyq:1_1_4:00001";

#[test]
fn a_name_is_either_benchmarks_id_and_reads_back_as_its_text() {
    for (text, benchmark) in [
        (PHYRE_ID, Benchmark::Phyre),
        (PHYQ_ID, Benchmark::Phyq),
        ("phyq:my-level", Benchmark::Phyq),
    ] {
        let name: TaskName = text.parse().unwrap();
        assert_eq!(name.benchmark(), benchmark);
        assert_eq!(Benchmark::of_id(text), benchmark);
        assert_eq!(name.to_string(), text);
    }
    assert_eq!(
        PHYRE_ID.parse::<TaskName>().unwrap(),
        TaskName::Phyre(PHYRE_ID.parse().unwrap())
    );
    assert_eq!(
        PHYQ_ID.parse::<TaskName>().unwrap(),
        TaskName::Phyq(PHYQ_ID.parse().unwrap())
    );
}

#[test]
fn a_bad_name_gets_the_message_of_the_parser_it_was_written_for() {
    for bad in ["", "12:34", "00012:034 ", "phyq", "PHYQ:1_1_4:00001"] {
        let e = bad.parse::<TaskName>().unwrap_err();
        assert_eq!(e.benchmark(), Benchmark::Phyre, "{bad:?}");
        assert_eq!(
            e.to_string(),
            bad.parse::<tasks::TaskId>().unwrap_err().to_string()
        );
    }
    for bad in ["phyq:", "phyq:1_1_4:1", "phyq:1_01_4:00001", "phyq:a b"] {
        let e = bad.parse::<TaskName>().unwrap_err();
        assert_eq!(e.benchmark(), Benchmark::Phyq, "{bad:?}");
        assert_eq!(e.to_string(), bad.parse::<LevelId>().unwrap_err());
    }
    // Text that holds more than an id is classified by how it starts.
    assert_eq!(Benchmark::of_id("00012:092:0"), Benchmark::Phyre);
    assert_eq!(
        Benchmark::of_id("phyq:1_1_1:00001 PASSED 0 1"),
        Benchmark::Phyq
    );
}

#[test]
fn built_in_tasks_are_found_with_their_crates_messages() {
    let TaskRef::Phyre(task) = find_builtin(PHYRE_ID).unwrap() else {
        panic!("a PHYRE task")
    };
    assert_eq!(task.id().to_string(), PHYRE_ID);
    let TaskRef::Phyq(entry) = find_builtin(PHYQ_ID).unwrap() else {
        panic!("a Phy-Q level")
    };
    assert_eq!(entry.id.to_string(), PHYQ_ID);
    for bad in ["99999:999", "00000:00x", ""] {
        let want = TaskSet::builtin().lookup(bad).unwrap_err().to_string();
        assert_eq!(find_builtin(bad).unwrap_err().to_string(), want);
        assert_eq!(format!("{:#}", resolve(bad, None).unwrap_err()), want);
    }
    for bad in ["phyq:1_1_4:00101", "phyq:9_9_9:00001", "phyq:"] {
        let want = phyq::generator::find_builtin(bad).unwrap_err();
        assert_eq!(find_builtin(bad).unwrap_err().to_string(), want.to_string());
        let hint = match want {
            phyq::generator::FindError::Unknown(_) => ": rephyre tasks list --tier phyq",
            phyq::generator::FindError::Malformed(_) => "",
        };
        assert_eq!(
            format!("{:#}", resolve(bad, None).unwrap_err()),
            format!("{want}{hint}")
        );
    }
}

/// A task file of each kind in `dir`: two PHYRE tasks, and one Phy-Q level.
fn task_files(dir: &Path) -> (TaskFile, TaskFile) {
    let phyre_path = dir.join("tasks.bin");
    let two = TaskSet::from_tasks(TaskSet::builtin().tasks()[..2].to_vec()).unwrap();
    two.save(&phyre_path, false).unwrap();
    let level_path = dir.join("set.json");
    let entry = builtin_task(&PHYQ_ID.parse().unwrap()).unwrap();
    std::fs::write(&level_path, LevelSet::new(vec![entry]).unwrap().to_bytes()).unwrap();
    (
        TaskFile::read(&phyre_path).unwrap(),
        TaskFile::read(&level_path).unwrap(),
    )
}

#[test]
fn names_resolve_in_a_task_file_of_their_benchmark_and_nowhere_else() {
    let dir = tempfile::tempdir().unwrap();
    let (phyre_file, level_file) = task_files(dir.path());
    assert_eq!(phyre_file.benchmark(), Benchmark::Phyre);
    assert_eq!(level_file.benchmark(), Benchmark::Phyq);
    let (tasks_path, set_path) = (
        phyre_file.path().display().to_string(),
        level_file.path().display().to_string(),
    );
    let err = |text: &str, file: &TaskFile| format!("{:#}", resolve(text, Some(file)).unwrap_err());

    assert!(matches!(
        resolve("00000:000", Some(&phyre_file)),
        Ok(TaskRef::Phyre(_))
    ));
    assert!(matches!(
        resolve(PHYQ_ID, Some(&level_file)),
        Ok(TaskRef::Phyq(_))
    ));
    assert_eq!(err(PHYRE_ID, &phyre_file), "unknown task 00012:034");
    assert_eq!(
        err("0:1", &phyre_file),
        "malformed task id \"0:1\" (expected TTTTT:III, e.g. 00012:034)"
    );
    assert_eq!(
        err("phyq:1_1_4:00002", &level_file),
        format!(
            "phyq:1_1_4:00002 is not in the level set {set_path} (1 levels: rephyre --tasks {set_path} tasks list)"
        )
    );
    assert_eq!(
        err("phyq:1_1_4:2", &level_file),
        "phyq:1_1_4:2".parse::<LevelId>().unwrap_err()
    );
    // The other benchmark's ids, well-formed or not.
    for text in [PHYQ_ID, "phyq:1_1_4:2"] {
        assert_eq!(
            err(text, &phyre_file),
            format!("{text} is a Phy-Q level, and --tasks {tasks_path} holds PHYRE tasks")
        );
    }
    for text in [PHYRE_ID, "0:1"] {
        assert_eq!(
            err(text, &level_file),
            format!(
                "{text:?} is not a Phy-Q level id (phyq:…), and --tasks {set_path} is a level set: rephyre --tasks {set_path} tasks list"
            )
        );
    }
}

#[test]
fn a_level_set_is_not_read_as_phyre_tasks_and_empty_files_hold_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (_, level_file) = task_files(dir.path());
    let e = format!("{:#}", read_phyre_tasks(level_file.path()).unwrap_err());
    assert!(
        e.contains("is a Phy-Q level set, and this command takes PHYRE tasks"),
        "{e}"
    );
    let missing = dir.path().join("missing");
    let e = format!("{:#}", TaskFile::read(&missing).unwrap_err());
    assert!(e.starts_with("cannot open --tasks "), "{e}");
    let empty_set = dir.path().join("empty.json");
    std::fs::write(&empty_set, LevelSet::new(vec![]).unwrap().to_bytes()).unwrap();
    let e = format!("{:#}", TaskFile::read(&empty_set).unwrap_err());
    assert!(e.ends_with("holds no levels"), "{e}");
}
