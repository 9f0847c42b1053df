//! `tasks list`, `show`, `sheet` and `import`: filters, descriptions, the contact sheet, the
//! import of the original task file and the global `--tasks` option.

use std::path::{Path, PathBuf};

use crate::common::{fails, ok, s};

#[test]
fn tasks_list_filters() {
    let all = ok(&["tasks", "list"]);
    assert_eq!(all.lines().count(), 5000);
    let two = ok(&["tasks", "list", "--tier", "two_balls"]);
    assert_eq!(two.lines().count(), 2500);
    assert!(two
        .lines()
        .all(|l| l.split('\t').nth(1) == Some("two_balls")));
    let t13 = ok(&["tasks", "list", "--template", "13"]);
    assert_eq!(t13.lines().count(), 100);
    assert!(t13.lines().all(|l| l.starts_with("00013:")));
    assert_eq!(
        ok(&[
            "tasks",
            "list",
            "--tier",
            "two_balls",
            "--template",
            "00013"
        ]),
        ""
    );
    fails(&["tasks", "list", "--template", "1x"]);
    fails(&["tasks", "list", "--template", "123456"]);
}

#[test]
fn tasks_list_phyq_lists_the_generated_tasks() {
    let all = ok(&["tasks", "list", "--tier", "phyq"]);
    let lines: Vec<&str> = all.lines().collect();
    assert_eq!(lines.len(), 7500);
    // Sorted by id: template 1_1_1 (the paper's 1.4, scenario 1) first, one pig and up to 3
    // distractors.
    let first: Vec<&str> = lines[0].split('\t').collect();
    assert_eq!(
        first[..3],
        ["phyq:1_1_1:00001", "scenario 1", "template 1.4"]
    );
    assert!(first[3].ends_with(" objects"), "{}", lines[0]);
    assert!(lines[99].starts_with("phyq:1_1_1:00100\t"));
    assert!(lines[7499].starts_with("phyq:3_9_8:00100\tscenario 15\ttemplate 15.3\t"));
    // One template, by paper number or by code: the same 100 lines.
    let by_paper = ok(&["tasks", "list", "--tier", "phyq", "--template", "1.1"]);
    assert_eq!(by_paper.lines().count(), 100);
    assert!(by_paper.lines().all(|l| l.starts_with("phyq:1_1_4:")));
    assert_eq!(
        by_paper,
        ok(&["tasks", "list", "--tier", "phyq", "--template", "1_1_4"])
    );
    // The same bytes every time.
    assert_eq!(all, ok(&["tasks", "list", "--tier", "phyq"]));
    let err = fails(&["tasks", "list", "--tier", "phyq", "--template", "9.9"]);
    assert!(err.contains("9.9"), "{err}");
    let err = fails(&["tasks", "list", "--tier", "phyz"]);
    assert!(err.contains("phyq"), "{err}");
}

#[test]
fn tasks_show_describes_a_task() {
    let out = ok(&["tasks", "show", "00100:000"]);
    assert!(out.contains("task:        00100:000"), "{out}");
    assert!(out.contains("tier:        two_balls"), "{out}");
    assert!(out.contains("TOUCHING"), "{out}");
    assert!(out.contains("wall"), "{out}");
    assert!(out.contains("description: "), "{out}");
    assert!(fails(&["tasks", "show", "00000:999"]).contains("unknown task"));
    assert!(fails(&["tasks", "show", "0:0"]).contains("malformed task id"));
}

#[test]
fn tasks_sheet_tiles_scenes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sheet.png");
    let text = ok(&[
        "tasks",
        "sheet",
        "--templates",
        "00012,00013",
        "--per-template",
        "3",
        "--columns",
        "4",
        "--out",
        s(&out),
    ]);
    assert!(text.starts_with("6 scenes"), "{text}");
    // 4 columns × 2 rows of 256 px tiles with 4 px gaps.
    let info = png::Decoder::new(std::fs::File::open(&out).unwrap())
        .read_info()
        .unwrap()
        .info()
        .clone();
    assert_eq!(
        (info.width, info.height),
        (4 * 256 + 5 * 4, 2 * 256 + 3 * 4)
    );
    assert!(
        fails(&["tasks", "sheet", "--templates", "00077", "--out", s(&out)]).contains("no tasks")
    );
}

/// The original's task file, committed unchanged in the tasks crate (see tasks/data/NOTICE).
fn original_task_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tasks/tests/data/tasks.bin.lzma")
}

#[test]
fn tasks_import_round_trips_and_feeds_tasks_option() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("phyre.rpts");
    // Bad inputs first: missing file, a file that is not xz, an unwritable output.
    let junk = dir.path().join("junk.lzma");
    std::fs::write(&junk, b"not an xz file").unwrap();
    fails(&[
        "tasks",
        "import",
        "/nonexistent/tasks.bin.lzma",
        "--out",
        s(&out),
    ]);
    assert!(fails(&["tasks", "import", s(&junk), "--out", s(&out)]).contains("xz"));
    assert!(!out.exists());
    // `--tasks` with a file that is not a task file.
    assert!(fails(&["--tasks", s(&junk), "tasks", "list"]).contains("--tasks"));
    fails(&["--tasks", "/nonexistent.rpts", "tasks", "list"]);
    let original = original_task_file();
    fails(&[
        "tasks",
        "import",
        s(&original),
        "--out",
        "/nonexistent-dir/x.rpts",
    ]);
    let msg = ok(&["tasks", "import", s(&original), "--out", s(&out)]);
    assert!(msg.contains("imported 5000 tasks"), "{msg}");
    // The imported file, given with --tasks, is the built-in set.
    assert_eq!(
        ok(&["--tasks", s(&out), "tasks", "list"]),
        ok(&["tasks", "list"])
    );
    let last = ok(&["tasks", "list"])
        .lines()
        .last()
        .unwrap()
        .split('\t')
        .next()
        .unwrap()
        .to_string();
    assert_eq!(
        ok(&["--tasks", s(&out), "tasks", "show", &last]),
        ok(&["tasks", "show", &last])
    );
}

/// The 75 Phy-Q templates, committed in the phyq crate (see phyq/data/NOTICE).
fn phyq_templates() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../phyq/data/templates")
}

#[test]
fn tasks_import_levels_writes_a_level_set() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("levels.json");
    let text = ok(&[
        "tasks",
        "import-levels",
        s(&phyq_templates()),
        "--out",
        s(&out),
    ]);
    assert!(
        text.starts_with("imported 75 levels (75 templates) into "),
        "{text}"
    );
    let set = phyq::LevelSet::read(&out).unwrap();
    assert_eq!(set.entries().len(), 75);
    assert_eq!(set.entries()[0].id.to_string(), "phyq:1_1_1:00001");
    // The same input, the same bytes.
    let again = dir.path().join("again.json");
    ok(&[
        "tasks",
        "import-levels",
        s(&phyq_templates()),
        "--out",
        s(&again),
    ]);
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&again).unwrap());
}

#[test]
fn tasks_import_levels_refuses_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("levels.json");
    let hostile = dir.path().join("lol.xml");
    std::fs::write(
        &hostile,
        "<?xml version=\"1.0\"?>\n<!DOCTYPE l [<!ENTITY a \"aaaa\">]>\n<Level/>\n",
    )
    .unwrap();
    let err = fails(&["tasks", "import-levels", s(&hostile), "--out", s(&out)]);
    assert!(
        err.contains("lol.xml") && err.contains("line 2") && err.contains("DTD"),
        "{err}"
    );
    let missing = dir.path().join("no-such-folder");
    let err = fails(&["tasks", "import-levels", s(&missing), "--out", s(&out)]);
    assert!(err.contains("no-such-folder"), "{err}");
    assert!(!out.exists());
    fails(&["tasks", "import-levels", "--out", s(&out)]);
}

#[test]
fn an_imported_level_set_works_with_every_task_command() {
    let dir = tempfile::tempdir().unwrap();
    let lv = dir.path().join("levels");
    std::fs::create_dir(&lv).unwrap();
    for name in ["1_1_1_1.xml", "3_6_6_1.xml"] {
        std::fs::copy(phyq_templates().join(name), lv.join(name)).unwrap();
    }
    std::fs::copy(
        phyq_templates().join("1_1_1_1.xml"),
        lv.join("my-level.xml"),
    )
    .unwrap();
    let set = dir.path().join("set.json");
    ok(&["tasks", "import-levels", s(&lv), "--out", s(&set)]);
    let with = |rest: &[&str]| -> Vec<String> {
        let mut v = vec!["--tasks".to_string(), s(&set).to_string()];
        v.extend(rest.iter().map(|x| x.to_string()));
        v
    };
    let run_ok = |rest: &[&str]| {
        let v = with(rest);
        ok(&v.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let run_fails = |rest: &[&str]| {
        let v = with(rest);
        fails(&v.iter().map(String::as_str).collect::<Vec<_>>())
    };
    // tasks list: the set's three levels, a named one with its file.
    let list = run_ok(&["tasks", "list"]);
    let ids: Vec<&str> = list
        .lines()
        .map(|l| l.split('\t').next().unwrap())
        .collect();
    assert_eq!(
        ids,
        ["phyq:1_1_1:00001", "phyq:3_6_6:00001", "phyq:my-level"],
        "{list}"
    );
    assert!(list.contains("phyq:my-level\tmy-level.xml\t"), "{list}");
    assert_eq!(
        run_ok(&["tasks", "list", "--template", "12.3"])
            .lines()
            .count(),
        1
    );
    // show, simulate, render on the named level: the same as on the template it copies.
    assert!(run_ok(&["tasks", "show", "phyq:my-level"]).starts_with("task:        phyq:my-level"));
    let sim = |id: &str| run_ok(&["simulate", id, "--shots", "-60,10,0", "--json"]);
    let (a, b) = (sim("phyq:my-level"), sim("phyq:1_1_1:00001"));
    let hash = |t: &str| t.split("\"final_hash\":\"").nth(1).unwrap()[..16].to_string();
    assert_eq!(hash(&a), hash(&b), "{a} {b}");
    let png = dir.path().join("x.png");
    run_ok(&["render", "phyq:my-level", "--out", s(&png)]);
    assert!(std::fs::metadata(&png).unwrap().len() > 100);
    let sheet = dir.path().join("sheet.png");
    assert!(run_ok(&["tasks", "sheet", "--out", s(&sheet)]).starts_with("3 scenes -> "));
    // An id not in the set, a PHYRE id, a PHYRE command: one line each, naming the set.
    let e = run_fails(&["simulate", "phyq:1_1_4:00001", "--shots", "-60,10,0"]);
    assert!(
        e.contains("is not in the level set") && e.contains("set.json"),
        "{e}"
    );
    let e = run_fails(&["simulate", "00000:001", "--action", "0.5,0.5,0.3"]);
    assert!(e.contains("is a level set"), "{e}");
    let e = run_fails(&["tasks", "list", "--tier", "ball"]);
    assert!(e.contains("has no PHYRE tier"), "{e}");
    let e = run_fails(&[
        "solvability",
        "--tier",
        "ball",
        "--out",
        s(&dir.path().join("s.csv")),
    ]);
    assert!(
        e.contains("is a Phy-Q level set, and this command takes PHYRE tasks"),
        "{e}"
    );
    // And a PHYRE task file: a Phy-Q id is refused naming it.
    let phyre = dir.path().join("phyre.rpts");
    ok(&[
        "tasks",
        "import",
        s(&original_task_file()),
        "--out",
        s(&phyre),
    ]);
    let e = fails(&[
        "--tasks",
        s(&phyre),
        "simulate",
        "phyq:1_1_1:00001",
        "--shots",
        "-60,10,0",
    ]);
    assert!(e.contains("holds PHYRE tasks"), "{e}");
}
