//! `phyq-server`: the command starts, serves a level list and records attempts (the protocol
//! itself is tested in phyq-server/tests/protocol.rs, the original agents by
//! scripts/phyq-agents-test.sh), and its bad options are one-line errors.

use super::common::{fails, ok, s, start_server, Running};
use std::io::{Read, Write};
use std::net::TcpStream;

/// A running `rephyre phyq-server --port 0 …` and its port; killed on drop.
struct Server {
    _run: Running,
    port: u16,
    line: String,
}

fn start(args: &[&str]) -> Server {
    let mut all = vec!["phyq-server", "--port", "0"];
    all.extend_from_slice(args);
    let run = start_server(&all);
    let line = run.line.clone();
    let port = line
        .split("127.0.0.1:")
        .nth(1)
        .and_then(|r| r.split(',').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    Server {
        _run: run,
        port,
        line,
    }
}

fn ask(s: &mut TcpStream, request: &[u8], reply: usize) -> Vec<u8> {
    s.write_all(request).unwrap();
    let mut b = vec![0; reply];
    s.read_exact(&mut b).unwrap();
    b
}

#[test]
fn the_server_serves_the_chosen_levels_and_records_each_attempt() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("run.csv");
    let server = start(&[
        "--templates",
        "1_1_4,2_1_2",
        "--per-template",
        "3",
        "--record",
        s(&rec),
    ]);
    assert!(server.line.contains("6 levels"), "{}", server.line);
    let mut c = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    // Number of levels: 6; level 4 is 2_1_2's first task.
    assert_eq!(ask(&mut c, &[15], 4), 6u32.to_be_bytes());
    assert_eq!(ask(&mut c, &[51, 0, 0, 0, 4], 1), [1]);
    // Every bird straight down: the level is lost (state 7) and recorded.
    for _ in 0..10 {
        if ask(&mut c, &[12], 1) != [5] {
            break;
        }
        let mut shot = vec![31];
        for v in [100i32, 470, 0, 0] {
            shot.extend_from_slice(&v.to_be_bytes());
        }
        assert_eq!(ask(&mut c, &shot, 1), [1]);
    }
    assert_eq!(ask(&mut c, &[12], 1), [7]);
    drop(c);
    let text = std::fs::read_to_string(&rec).unwrap();
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows.len(), 2, "{text}");
    assert!(
        rows[1].starts_with("0,4,phyq:2_1_2:00001,0,"),
        "{}",
        rows[1]
    );

    // The record as a phyq-eval report: one task, one attempt, not passed.
    let out = dir.path().join("eval.csv");
    let json = ok(&[
        "phyq-eval",
        "--from-record",
        s(&rec),
        "--agent",
        "pig-shooter",
        "--setting",
        "all",
        "--out",
        s(&out),
        "--json",
    ]);
    assert!(json.contains("\"tasks\":1"), "{json}");
    assert!(json.contains("\"pass_rate\":0.0"), "{json}");
    let csv = std::fs::read_to_string(&out).unwrap();
    assert!(
        csv.lines()
            .nth(1)
            .unwrap()
            .starts_with("phyq:2_1_2:00001,2_1_2,3.4,3,1,0,0,"),
        "{csv}"
    );
    // A file that is not a record, and one with a bad row: one line each.
    let x = dir.path().join("x.csv");
    let refused = |record: &std::path::Path| {
        fails(&[
            "phyq-eval",
            "--from-record",
            s(record),
            "--agent",
            "pig-shooter",
            "--setting",
            "all",
            "--out",
            s(&x),
        ])
    };
    let e = refused(&out);
    assert!(e.contains("not a phyq-server record"), "{e}");
    std::fs::write(
        &rec,
        format!("{}\n1,1,phyq:1_1_4:00001,yes,1,0,1,0,00,0.001\n", rows[0]),
    )
    .unwrap();
    let e = refused(&rec);
    assert!(e.contains("line 2: passed \"yes\""), "{e}");
}

#[test]
fn bad_phyq_server_options_are_one_line_errors() {
    let held = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = held.local_addr().unwrap().port().to_string();
    let e = fails(&["phyq-server", "--port", &port]);
    assert!(e.contains("cannot listen on 127.0.0.1:"), "{e}");
    let e = fails(&["phyq-server", "--port", "0", "--templates", "9_9_9"]);
    assert!(e.contains("unknown template \"9_9_9\""), "{e}");
    let e = fails(&["phyq-server", "--port", "0", "--per-template", "0"]);
    assert!(e.contains("at least 1"), "{e}");
    let e = fails(&[
        "phyq-server",
        "--port",
        "0",
        "--config",
        "/no/such/config.xml",
    ]);
    assert!(e.contains("/no/such/config.xml"), "{e}");
    let e = fails(&["--tasks", "/no/such/set.json", "phyq-server", "--port", "0"]);
    assert!(e.contains("cannot load --tasks"), "{e}");
    let dir = tempfile::tempdir().unwrap();
    let not_record = dir.path().join("x.csv");
    std::fs::write(&not_record, "a,b\n1,2\n").unwrap();
    let e = fails(&["phyq-server", "--port", "0", "--record", s(&not_record)]);
    assert!(e.contains("is not a phyq-server record"), "{e}");
}

#[test]
fn a_config_xml_lists_the_levels_served() {
    let dir = tempfile::tempdir().unwrap();
    let tpl = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../phyq/data/templates");
    std::fs::create_dir(dir.path().join("Levels")).unwrap();
    for name in ["1_1_1_1.xml", "3_6_6_1.xml"] {
        std::fs::copy(tpl.join(name), dir.path().join("Levels").join(name)).unwrap();
    }
    let config = dir.path().join("config.xml");
    std::fs::write(
        &config,
        r#"<?xml version="1.0" encoding="utf-8"?>
<evaluation><novelty_detection_measurement step="1" measure_in_training="False" measure_in_testing="False"/>
<trials><trial id="0" number_of_executions="1" checkpoint_time_limit="200" checkpoint_interaction_limit="200" notify_novelty="False">
<game_level_set mode="training" time_limit="100000" total_interaction_limit="100000" attempt_limit_per_level="1" allow_level_selection="True">
<game_levels level_path="Levels/3_6_6_1.xml"/>
<game_levels level_path="Levels/1_1_1_1.xml"/>
</game_level_set></trial></trials></evaluation>"#,
    )
    .unwrap();
    let server = start(&["--config", s(&config)]);
    assert!(server.line.contains("2 levels"), "{}", server.line);
    let e = fails(&[
        "phyq-server",
        "--port",
        "0",
        "--config",
        s(&config),
        "--templates",
        "1_1_1",
    ]);
    assert!(e.contains("cannot be used with"), "{e}");
}
