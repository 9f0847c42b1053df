//! End-to-end tests of the `rephyre` binary: every command's happy path on small inputs, bad
//! input everywhere (one-line error, exit status 2, no panic), thread-count independence and
//! kill/resume of the solvability runner.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_rephyre"));
    c.stdin(Stdio::null());
    c
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("the binary runs")
}

/// Run and expect success; returns stdout.
fn ok(args: &[&str]) -> String {
    let o = run(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        o.status.success(),
        "rephyre {args:?} failed ({:?}): {err}",
        o.status
    );
    assert!(!err.contains("panicked"), "{err}");
    String::from_utf8(o.stdout).expect("UTF-8 output")
}

/// Run and expect the one-line error; returns that line.
fn fails(args: &[&str]) -> String {
    let o = run(args);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!(
        o.status.code(),
        Some(2),
        "rephyre {args:?} should fail with status 2; stderr: {err}; stdout: {}",
        String::from_utf8_lossy(&o.stdout)
    );
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "rephyre {args:?}: not one line: {err:?}");
    assert!(lines[0].starts_with("rephyre: error: "), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    lines[0].to_string()
}

fn s(p: &Path) -> &str {
    p.to_str().expect("UTF-8 temp path")
}

fn parse_csv(text: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let header = r.headers().unwrap().iter().map(String::from).collect();
    let rows = r
        .records()
        .map(|rec| rec.unwrap().iter().map(String::from).collect())
        .collect();
    (header, rows)
}

fn col(header: &[String], name: &str) -> usize {
    header
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("no column {name}"))
}

// ---------------------------------------------------------------------------------------------
// help

#[test]
fn every_command_has_help_with_examples() {
    for cmd in [
        vec!["--help"],
        vec!["tasks", "list", "--help"],
        vec!["tasks", "show", "--help"],
        vec!["tasks", "import", "--help"],
        vec!["simulate", "--help"],
        vec!["render", "--help"],
        vec!["solvability", "--help"],
        vec!["diversity", "--help"],
        vec!["random-curve", "--help"],
        vec!["bench", "--help"],
        vec!["parity", "--help"],
        vec!["witness", "--help"],
    ] {
        let out = ok(&cmd);
        assert!(out.contains("EXAMPLES:"), "{cmd:?}: {out}");
        assert!(out.contains("rephyre "), "{cmd:?}");
    }
    // The hidden checkpoint interval stays hidden.
    assert!(!ok(&["solvability", "--help"]).contains("checkpoint-secs"));
}

#[test]
fn command_line_errors_are_one_line() {
    fails(&[]);
    fails(&["bogus"]);
    fails(&["tasks"]);
    fails(&["simulate", "00000:000"]); // --action missing
    fails(&["--threads", "0", "tasks", "list"]);
    fails(&["--threads", "x", "tasks", "list"]);
    fails(&["tasks", "list", "--tier", "three_balls"]);
    fails(&["solvability", "--tier", "ball"]); // --out missing
    fails(&[
        "solvability",
        "--tier",
        "ball",
        "--out",
        "x.csv",
        "--resume",
    ]);
}

// ---------------------------------------------------------------------------------------------
// tasks

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

fn original_task_file() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/reference/phyre-0.2.2/tasks.bin.lzma");
    p.exists().then_some(p)
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
    let Some(original) = original_task_file() else {
        eprintln!("note: original tasks.bin.lzma not found; import round trip skipped");
        return;
    };
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

// ---------------------------------------------------------------------------------------------
// simulate

fn simulate_json(args: &[&str]) -> serde_json::Value {
    let mut a = vec!["simulate"];
    a.extend_from_slice(args);
    a.push("--json");
    serde_json::from_str(&ok(&a)).expect("one JSON object")
}

#[test]
fn simulate_reports_an_outcome() {
    let v = simulate_json(&["00000:000", "--action", "0.5,0.5,0.3"]);
    let status = v["status"].as_str().unwrap();
    assert!(status == "SOLVED" || status == "NOT_SOLVED", "{v}");
    let steps = v["steps"].as_u64().unwrap();
    let stepped = v["stepped"].as_u64().unwrap();
    assert!(stepped >= 1 && stepped <= steps && steps <= 1000, "{v}");
    if status == "NOT_SOLVED" {
        assert_eq!(steps, 1000);
        assert!(v["solved_step"].is_null());
    }
    let hash = v["final_hash"].as_str().unwrap();
    assert_eq!(hash.len(), 16);
    assert!(hash.bytes().all(|b| b.is_ascii_hexdigit()));
    // Deterministic, and the text form says the same.
    assert_eq!(v, simulate_json(&["00000:000", "--action", "0.5,0.5,0.3"]));
    let text = ok(&["simulate", "00000:000", "--action", "0.5,0.5,0.3"]);
    assert!(
        text.contains(&format!("status:           {status}")),
        "{text}"
    );
    assert!(text.contains(hash), "{text}");
    // A two-ball action on a ball task, with --tier.
    let v = simulate_json(&[
        "00000:000",
        "--tier",
        "two_balls",
        "--action",
        "0.2,0.8,0.1,0.8,0.8,0.1",
    ]);
    assert_eq!(v["tier"], "two_balls");
    assert_ne!(v["status"], "INVALID", "{v}");
}

#[test]
fn simulate_reports_invalid_actions_with_the_reason() {
    let v = simulate_json(&["00000:000", "--action", "1.5,0.5,0.3"]);
    assert_eq!(v["status"], "INVALID");
    assert!(
        v["reason"].as_str().unwrap().contains("outside [0, 1]"),
        "{v}"
    );
    assert!(v["steps"].is_null());
    // Radius 32 px at x = 0: outside the scene.
    let v = simulate_json(&["00000:000", "--action", "0,0.5,1"]);
    assert_eq!(v["status"], "INVALID");
    let text = ok(&["simulate", "00000:000", "--action", "0,0.5,1"]);
    assert!(text.contains("status:           INVALID ("), "{text}");
}

#[test]
fn simulate_bad_input() {
    let a = |act: &str| fails(&["simulate", "00000:000", "--action", act]);
    assert!(a("0.5,x").contains("not a number"));
    assert!(a("0.5,x,0.3").contains("not a number"));
    assert!(a("NaN,0.5,0.3").contains("finite"));
    assert!(a("0.5,inf,0.3").contains("finite"));
    assert!(a("").contains("empty action"));
    assert!(a("0.5,0.5").contains("takes 3"));
    assert!(a("0.5,0.5,0.3,0.5").contains("takes 3"));
    assert!(fails(&[
        "simulate",
        "00000:000",
        "--tier",
        "two_balls",
        "--action",
        "0.5,0.5,0.3"
    ])
    .contains("takes 6"));
    assert!(fails(&["simulate", "00100:000", "--action", "0.5,0.5,0.3"]).contains("takes 6"));
    fails(&[
        "simulate",
        "00000:000",
        "--tier",
        "3",
        "--action",
        "0.5,0.5,0.3",
    ]);
    assert!(fails(&["simulate", "12345:000", "--action", "0.5,0.5,0.3"]).contains("unknown task"));
    assert!(fails(&["simulate", "abc", "--action", "0.5,0.5,0.3"]).contains("malformed task id"));
    fails(&[
        "simulate",
        "00000:000",
        "--action",
        "0.5,0.5,0.3",
        "--gif",
        "/nonexistent-dir/run.gif",
    ]);
}

// ---------------------------------------------------------------------------------------------
// render

fn render_raw(args: &[&str]) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("obs.bin");
    let mut a = vec!["render", "--raw", "--out", s(&out)];
    a.extend_from_slice(args);
    ok(&a);
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(bytes.len(), 65536);
    assert!(bytes.iter().all(|&b| b <= 6));
    bytes
}

/// Mean row of the pixels of value `v` (row 0 = bottom in a raw observation).
fn mean_row(obs: &[u8], v: u8) -> f64 {
    let rows: Vec<usize> = (0..obs.len())
        .filter(|&i| obs[i] == v)
        .map(|i| i / 256)
        .collect();
    assert!(!rows.is_empty(), "no pixel of value {v}");
    rows.iter().sum::<usize>() as f64 / rows.len() as f64
}

fn decode_png(path: &Path) -> (u32, Vec<u8>) {
    let dec = png::Decoder::new(std::fs::File::open(path).unwrap());
    let mut r = dec.read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size()];
    let info = r.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Indexed);
    assert_eq!(info.width, info.height);
    buf.truncate(info.buffer_size());
    (info.width, buf)
}

#[test]
fn render_observations_and_pictures() {
    // 00001:000: a green ball falls onto a floor; user balls are red (1).
    let scene = render_raw(&["00001:000"]);
    assert_eq!(scene, render_raw(&["00001:000", "--step", "0"]));
    assert!(!scene.contains(&1), "no user ball without an action");
    let action = "0.6397238684805773,0.6794866332003704,0.8309523899446835";
    let with_ball = render_raw(&["00001:000", "--action", action]);
    assert!(with_ball.contains(&1));
    let later = render_raw(&["00001:000", "--action", action, "--step", "60"]);
    assert_ne!(with_ball, later);
    // Row 0 is the bottom: the falling green ball's rows go down.
    assert!(mean_row(&later, 2) < mean_row(&with_ball, 2) - 1.0);
    // The PNG is the same picture, up at the top, scaled.
    let dir = tempfile::tempdir().unwrap();
    let png_path = dir.path().join("scene.png");
    ok(&[
        "render",
        "00001:000",
        "--action",
        action,
        "--out",
        s(&png_path),
        "--scale",
        "2",
    ]);
    let (w, img) = decode_png(&png_path);
    assert_eq!(w, 512);
    for y in 0..256 {
        for x in 0..256 {
            assert_eq!(img[(2 * y) * 512 + 2 * x], with_ball[(255 - y) * 256 + x]);
        }
    }
    // tasks show --png draws the initial scene.
    let show = dir.path().join("show.png");
    let text = ok(&["tasks", "show", "00001:000", "--png", s(&show)]);
    assert!(text.contains("png:"), "{text}");
    let (w, img) = decode_png(&show);
    assert_eq!(w, 256);
    for y in 0..256 {
        for x in 0..256 {
            assert_eq!(img[y * 256 + x], scene[(255 - y) * 256 + x]);
        }
    }
    fails(&[
        "tasks",
        "show",
        "00001:000",
        "--png",
        "/nonexistent-dir/s.png",
    ]);
}

#[test]
fn simulate_writes_a_gif_of_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let gif_path = dir.path().join("run.gif");
    let v = simulate_json(&[
        "00001:000",
        "--action",
        "0.5,0.5,0.3",
        "--gif",
        s(&gif_path),
        "--scale",
        "2",
    ]);
    assert_eq!(v["gif"], s(&gif_path));
    let steps = v["steps"].as_u64().unwrap();
    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::Indexed);
    let mut dec = opts
        .read_info(std::fs::File::open(&gif_path).unwrap())
        .unwrap();
    assert_eq!((dec.width(), dec.height()), (512, 512));
    let mut frames = 0;
    while dec.read_next_frame().unwrap().is_some() {
        frames += 1;
    }
    // Frames after steps 1, 61, 121, … and the last step when it is not one of those.
    let expected = (steps - 1).div_ceil(60) + 1;
    assert_eq!(frames, expected, "{v}");
    // An invalid action writes no GIF.
    let bad = dir.path().join("bad.gif");
    let v = simulate_json(&["00001:000", "--action", "1.5,0.5,0.3", "--gif", s(&bad)]);
    assert_eq!(v["status"], "INVALID");
    assert!(!bad.exists());
}

#[test]
fn render_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.bin");
    let o = s(&out);
    fails(&[
        "render",
        "00000:000",
        "--raw",
        "--out",
        "/nonexistent-dir/x.bin",
    ]);
    fails(&["render", "00000:000", "--raw", "--out", s(dir.path())]);
    fails(&["render", "00000:000", "--raw", "--step", "1001", "--out", o]);
    fails(&["render", "00000:000", "--scale", "0", "--out", o]);
    fails(&["render", "00000:000", "--scale", "9", "--out", o]);
    fails(&[
        "render",
        "00000:000",
        "--raw",
        "--action",
        "0.5,y,0.1",
        "--out",
        o,
    ]);
    assert!(fails(&[
        "render",
        "00000:000",
        "--raw",
        "--action",
        "2,0.5,0.1",
        "--out",
        o
    ])
    .contains("invalid"));
    fails(&["render", "99999:999", "--raw", "--out", o]);
    assert!(!out.exists());
}

// ---------------------------------------------------------------------------------------------
// solvability

const SOLV_SMALL: [&str; 12] = [
    "solvability",
    "--tier",
    "ball",
    "--templates",
    "00000-00001",
    "--tasks-per-template",
    "1",
    "--min-valid",
    "200",
    "--max-valid",
    "1000",
    "--quiet",
];

fn solvability(extra: &[&str], threads: &str) -> Output {
    let mut a = vec!["--threads", threads];
    a.extend_from_slice(&SOLV_SMALL);
    a.extend_from_slice(&["--batch", "100"]);
    a.extend_from_slice(extra);
    run(&a)
}

/// Check a solvability CSV against the rules it must obey; returns its rows.
fn check_solvability_csv(text: &str, min_valid: u64, max_valid: u64) -> Vec<Vec<String>> {
    let (h, rows) = parse_csv(text);
    assert_eq!(
        h.join(","),
        "task_id,tier,valid,invalid,solved,stable,p_solvable,p_unsolvable,p_stable_solvable,\
         p_stable_unsolvable,flags,samples_needed,solutions"
    );
    for r in &rows {
        let n = |c: &str| r[col(&h, c)].parse::<u64>().unwrap();
        let (valid, solved, stable) = (n("valid"), n("solved"), n("stable"));
        assert!(stable <= solved && solved <= valid, "{r:?}");
        assert!(valid <= max_valid, "{r:?}");
        let flags = &r[col(&h, "flags")];
        let decided = flags.contains("GOOD_STABLE") || flags.contains("BAD_STABLE");
        if decided {
            assert!(valid >= min_valid, "{r:?}");
            assert_eq!(r[col(&h, "samples_needed")], valid.to_string(), "{r:?}");
        } else {
            assert_eq!(valid, max_valid, "stopped early without a decision: {r:?}");
            assert_eq!(r[col(&h, "samples_needed")], "");
        }
        let sols: Vec<&str> = r[col(&h, "solutions")]
            .split(';')
            .filter(|x| !x.is_empty())
            .collect();
        assert_eq!(sols.len() as u64, stable.min(5), "{r:?}");
        for p in [
            "p_solvable",
            "p_unsolvable",
            "p_stable_solvable",
            "p_stable_unsolvable",
        ] {
            let v: f64 = r[col(&h, p)].parse().unwrap();
            assert!((0.0..=1.0).contains(&v), "{p} {v}");
        }
    }
    rows
}

#[test]
fn solvability_small_run_threads_and_kill_resume() {
    let dir = tempfile::tempdir().unwrap();
    let d = |n: &str| dir.path().join(n);
    let (csv1, md1, csv2, md2) = (d("1.csv"), d("1.md"), d("2.csv"), d("2.md"));
    let o = solvability(&["--out", s(&csv1), "--summary", s(&md1)], "1");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("2 tasks:"), "{stdout}");
    let o = solvability(&["--out", s(&csv2), "--summary", s(&md2)], "2");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let bytes1 = std::fs::read(&csv1).unwrap();
    assert_eq!(
        bytes1,
        std::fs::read(&csv2).unwrap(),
        "CSV differs by thread count"
    );
    assert_eq!(std::fs::read(&md1).unwrap(), std::fs::read(&md2).unwrap());

    let text = String::from_utf8(bytes1.clone()).unwrap();
    let rows = check_solvability_csv(&text, 200, 1000);
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0][0], "00000:000");
    assert_eq!(rows[1][0], "00001:000");
    // Hand-checked decision: with n ≤ 1000 valid actions and p0 = 1e-5, ≥ 3 stable solutions
    // give P(Bin(n, 1e-5) ≥ 3) < 1.7e-7 → solvable; unsolvable is out of reach
    // (P(Bin(1000, 2e-5) ≤ 0) ≈ 0.98).
    let (h, _) = parse_csv(&text);
    for r in &rows {
        let stable: u64 = r[col(&h, "stable")].parse().unwrap();
        let flags = &r[col(&h, "flags")];
        assert_eq!(flags.contains("GOOD_STABLE"), stable >= 3, "{r:?}");
        assert!(!flags.contains("BAD"), "{r:?}");
    }
    let md = std::fs::read_to_string(&md1).unwrap();
    assert!(
        md.contains("| 00000 | 1 |") && md.contains("| 00001 | 1 |") && md.contains("**all**"),
        "{md}"
    );

    // Every stored stable solution solves its task when simulated alone.
    let mut checked = 0;
    for r in &rows {
        for sol in r[col(&h, "solutions")].split(';').filter(|x| !x.is_empty()) {
            let action = sol.split(' ').collect::<Vec<_>>().join(",");
            let v = simulate_json(&[&r[0], "--action", &action]);
            assert_eq!(v["status"], "SOLVED", "{} {action}: {v}", r[0]);
            let solved_step = v["solved_step"].as_u64().unwrap();
            let first = v["first_touch_step"].as_u64().unwrap();
            assert!(solved_step >= 180 && first + 179 <= solved_step, "{v}");
            checked += 1;
        }
    }
    assert!(checked > 0, "no stable solution found to check: {text}");

    // Kill a checkpointed run part-way, resume it, and get the same bytes.
    let (csv3, md3, ckpt) = (d("3.csv"), d("3.md"), d("run.ckpt"));
    let mut args: Vec<String> = ["--threads", "2"].iter().map(|x| x.to_string()).collect();
    args.extend(SOLV_SMALL.iter().map(|x| x.to_string()));
    args.extend(
        [
            "--batch",
            "100",
            "--out",
            s(&csv3),
            "--summary",
            s(&md3),
            "--checkpoint",
            s(&ckpt),
            "--checkpoint-secs",
            "0.1",
        ]
        .iter()
        .map(|x| x.to_string()),
    );
    let mut child = bin()
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let partial = loop {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run finished before a partial checkpoint was seen"
        );
        if let Ok(t) = std::fs::read_to_string(&ckpt) {
            let v: serde_json::Value = serde_json::from_str(&t).expect("checkpoints are whole");
            let tasks = v["tasks"].as_array().unwrap();
            let unfinished = tasks
                .iter()
                .any(|t| t[1] == false && t[2]["valid"].as_u64() > Some(0));
            if unfinished {
                break t;
            }
        }
        assert!(start.elapsed() < Duration::from_secs(120), "no checkpoint");
        std::thread::sleep(Duration::from_millis(10));
    };
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    assert!(!csv3.exists(), "a killed run wrote its report");
    // Resume: with different options it is refused; with the same ones it finishes.
    let mut other = args.clone();
    let batch_at = other.iter().position(|a| a == "--batch").unwrap();
    other[batch_at + 1] = "50".into();
    let o = bin().args(&other).arg("--resume").output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("different run"));
    // The resumed run has another thread count (3) than the killed one (2) and the first (1).
    let mut resumed = args.clone();
    resumed[1] = "3".into();
    let o = bin().args(&resumed).arg("--resume").output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read(&csv3).unwrap(), bytes1, "resumed CSV differs");
    assert_eq!(std::fs::read(&md3).unwrap(), std::fs::read(&md1).unwrap());
    assert!(partial.len() > 10);
}

/// A task's draws are evaluated in parallel chunks and counted in order: the bytes are the same
/// on 1, 2 and 4 threads, with draws outside the action space (two balls), batches that end
/// inside a chunk (several batches of 37 valid actions) and stable solutions found inside chunks.
#[test]
fn solvability_bytes_do_not_depend_on_threads() {
    let dir = tempfile::tempdir().unwrap();
    let run_with = |tier: &str, templates: &str, threads: &str| -> (Vec<u8>, Vec<u8>) {
        let (csv, md) = (
            dir.path().join(format!("{tier}-{threads}.csv")),
            dir.path().join(format!("{tier}-{threads}.md")),
        );
        ok(&[
            "--threads",
            threads,
            "solvability",
            "--tier",
            tier,
            "--templates",
            templates,
            "--tasks-per-template",
            "1",
            "--min-valid",
            "150",
            "--max-valid",
            "300",
            "--batch",
            "37",
            "--quiet",
            "--out",
            s(&csv),
            "--summary",
            s(&md),
        ]);
        (std::fs::read(&csv).unwrap(), std::fs::read(&md).unwrap())
    };
    for (tier, templates) in [("ball", "2,4"), ("two_balls", "100")] {
        let one = run_with(tier, templates, "1");
        let text = String::from_utf8(one.0.clone()).unwrap();
        let rows = check_solvability_csv(&text, 150, 300);
        let (h, _) = parse_csv(&text);
        assert!(
            rows.iter().any(|r| r[col(&h, "stable")] != "0"),
            "no stable solution: {text}"
        );
        for threads in ["2", "4"] {
            assert_eq!(
                run_with(tier, templates, threads),
                one,
                "{tier}, {threads} threads"
            );
        }
    }
}

#[test]
fn solvability_decides_unsolvable_with_a_large_p0() {
    // p0 = 0.05: with 200 valid actions and no stable solution,
    // P(Bin(200, 0.1) ≤ 0) = 0.9^200 ≈ 7e-10 < α → BAD_STABLE after the first batch.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("u.csv");
    ok(&[
        "solvability",
        "--tier",
        "ball",
        "--templates",
        "0",
        "--tasks-per-template",
        "1",
        "--p0",
        "0.05",
        "--min-valid",
        "200",
        "--max-valid",
        "5000",
        "--batch",
        "200",
        "--out",
        s(&out),
    ]);
    let text = std::fs::read_to_string(&out).unwrap();
    let (h, rows) = parse_csv(&text);
    let r = &rows[0];
    let stable: u64 = r[col(&h, "stable")].parse().unwrap();
    // 00000:000 is hard for random actions (the original: 3 stable solutions in ~17,800).
    assert_eq!(stable, 0, "{r:?}");
    assert_eq!(r[col(&h, "valid")], "200", "{r:?}");
    assert!(r[col(&h, "flags")].contains("BAD_STABLE"), "{r:?}");
    assert_eq!(r[col(&h, "samples_needed")], "200");
    let p: f64 = r[col(&h, "p_stable_unsolvable")].parse().unwrap();
    assert!((p - 0.9f64.powi(200)).abs() < 1e-12, "{p}");
    check_solvability_csv(&text, 200, 5000);
}

#[test]
fn solvability_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("o.csv");
    let o = s(&out);
    let base = ["solvability", "--tier", "ball", "--quiet"];
    let fails_with = |extra: &[&str]| {
        let a: Vec<&str> = base.iter().chain(extra).copied().collect();
        fails(&a)
    };
    // Unwritable outputs are refused before any work (the full tier would take hours).
    let t = Instant::now();
    fails_with(&["--out", "/nonexistent-dir/o.csv"]);
    fails_with(&["--out", o, "--summary", "/nonexistent-dir/o.md"]);
    fails_with(&["--out", o, "--checkpoint", "/nonexistent-dir/c"]);
    fails_with(&["--out", s(dir.path())]);
    assert!(t.elapsed() < Duration::from_secs(20));
    assert!(fails_with(&["--out", o, "--templates", "7-x"]).contains("template"));
    assert!(fails_with(&["--out", o, "--templates", "00050"]).contains("no tasks"));
    fails_with(&["--out", o, "--p0", "0"]);
    fails_with(&["--out", o, "--p0", "NaN"]);
    fails_with(&["--out", o, "--alpha", "1.5"]);
    fails_with(&["--out", o, "--min-valid", "10", "--max-valid", "5"]);
    fails_with(&["--out", o, "--batch", "0"]);
    fails_with(&["--out", o, "--tasks-per-template", "0"]);
    // A corrupt checkpoint is refused on --resume.
    let ckpt = dir.path().join("c.ckpt");
    std::fs::write(&ckpt, "{\"format\": 12").unwrap();
    let msg = fails_with(&[
        "--out",
        o,
        "--templates",
        "0",
        "--tasks-per-template",
        "1",
        "--checkpoint",
        s(&ckpt),
        "--resume",
    ]);
    assert!(msg.contains("corrupt checkpoint"), "{msg}");
    assert!(!out.exists());
    // A missing --tasks file.
    fails(&[
        "--tasks",
        "/nonexistent.rpts",
        "solvability",
        "--tier",
        "ball",
        "--out",
        o,
    ]);
}

// ---------------------------------------------------------------------------------------------
// diversity, random-curve, bench, parity

#[test]
fn diversity_histograms() {
    let dir = tempfile::tempdir().unwrap();
    let (out1, out2, svg) = (
        dir.path().join("d1.csv"),
        dir.path().join("d2.csv"),
        dir.path().join("d.svg"),
    );
    let args = |out: &Path, threads: &str| -> Vec<String> {
        [
            "--threads",
            threads,
            "diversity",
            "--tier",
            "ball",
            "--templates",
            "0-1",
            "--tasks-per-template",
            "3",
            "--samples",
            "40",
            "--out",
            s(out),
        ]
        .iter()
        .map(|x| x.to_string())
        .collect()
    };
    let mut a1 = args(&out1, "1");
    a1.extend(["--plot".to_string(), s(&svg).to_string()]);
    let a1: Vec<&str> = a1.iter().map(String::as_str).collect();
    let stdout = ok(&a1);
    assert!(stdout.contains("00000: 3 tasks"), "{stdout}");
    let a2 = args(&out2, "2");
    ok(&a2.iter().map(String::as_str).collect::<Vec<_>>());
    let text = std::fs::read_to_string(&out1).unwrap();
    assert_eq!(text, std::fs::read_to_string(&out2).unwrap());
    let (h, rows) = parse_csv(&text);
    assert_eq!(h.join(","), "template,tier,tasks,solved_tasks,actions");
    assert_eq!(rows.len(), 2 * 4);
    for t in ["00000", "00001"] {
        let total: u64 = rows
            .iter()
            .filter(|r| r[0] == t)
            .map(|r| r[4].parse::<u64>().unwrap())
            .sum();
        assert_eq!(total, 40, "every action counted once per template");
    }
    let plot = std::fs::read_to_string(&svg).unwrap();
    assert!(plot.starts_with("<svg") && plot.contains("00001"), "{plot}");
    // With a checkpoint: a finished checkpoint resumes to the same histogram, and one written
    // with other options is refused.
    let (out3, ckpt) = (dir.path().join("d3.csv"), dir.path().join("d.ckpt"));
    let mut a3 = args(&out3, "2");
    a3.extend(["--checkpoint".to_string(), s(&ckpt).to_string()]);
    let a3: Vec<&str> = a3.iter().map(String::as_str).collect();
    ok(&a3);
    std::fs::remove_file(&out3).unwrap();
    let mut resumed = a3.clone();
    resumed.push("--resume");
    ok(&resumed);
    assert_eq!(text, std::fs::read_to_string(&out3).unwrap());
    let at = resumed.iter().position(|x| *x == "40").unwrap();
    resumed[at] = "41";
    assert!(fails(&resumed).contains("different run"));
    fails(&[
        "diversity",
        "--tier",
        "ball",
        "--samples",
        "0",
        "--out",
        s(&out1),
    ]);
    fails(&[
        "diversity",
        "--tier",
        "ball",
        "--out",
        s(&out1),
        "--plot",
        "/nonexistent-dir/p.svg",
    ]);
}

#[test]
fn random_curve_is_monotone_and_plotted() {
    let dir = tempfile::tempdir().unwrap();
    let (out, svg) = (dir.path().join("c.csv"), dir.path().join("c.svg"));
    let stdout = ok(&[
        "random-curve",
        "--tier",
        "ball",
        "--templates",
        "1-2",
        "--tasks-per-template",
        "3",
        "--runs",
        "3",
        "--attempts",
        "6",
        "--out",
        s(&out),
        "--plot",
        s(&svg),
    ]);
    assert!(stdout.contains("6 tasks, 3 runs"), "{stdout}");
    let text = std::fs::read_to_string(&out).unwrap();
    let (h, rows) = parse_csv(&text);
    assert_eq!(h.join(","), "attempts,mean,std,run_0,run_1,run_2");
    assert_eq!(rows.len(), 6);
    let mut prev = vec![0.0; 6];
    for (k, r) in rows.iter().enumerate() {
        assert_eq!(r[0], (k + 1).to_string());
        let v: Vec<f64> = r.iter().map(|x| x.parse().unwrap()).collect();
        for i in [1, 3, 4, 5] {
            assert!(v[i] >= prev[i] - 1e-12, "not monotone: {r:?}");
        }
        for run in &v[3..] {
            assert!((0.0..=1.0).contains(run));
            // A share of 6 tasks.
            assert!(((run * 6.0) - (run * 6.0).round()).abs() < 1e-4, "{run}");
        }
        let mean = (v[3] + v[4] + v[5]) / 3.0;
        assert!((v[1] - mean).abs() < 1e-5, "{r:?}");
        assert!(v[2] >= 0.0);
        prev = v;
    }
    let plot = std::fs::read_to_string(&svg).unwrap();
    assert!(plot.starts_with("<svg"), "{plot}");
    // Runs long enough to be spread over the cores (draws evaluated ahead of a solve) give the
    // same bytes on any thread count.
    let long = |threads: &str| {
        let out = dir.path().join(format!("long-{threads}.csv"));
        ok(&[
            "--threads",
            threads,
            "random-curve",
            "--templates",
            "0,3",
            "--tasks-per-template",
            "2",
            "--runs",
            "2",
            "--attempts",
            "150",
            "--quiet",
            "--out",
            s(&out),
        ]);
        std::fs::read(&out).unwrap()
    };
    let one = long("1");
    assert_eq!(long("2"), one);
    assert_eq!(long("3"), one);
    fails(&["random-curve", "--runs", "0", "--out", s(&out)]);
    fails(&["random-curve", "--attempts", "0", "--out", s(&out)]);
    fails(&["random-curve", "--out", "/nonexistent-dir/c.csv"]);
}

#[test]
fn bench_reference_runs_every_row_and_compares_statuses() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // The first 60 rows of the original's timing pairs (two-ball tier: half are invalid).
    let all = include_str!("../data/phyre-0.2.2/speed/pairs-two_balls.csv");
    let rows: String = all.lines().take(61).map(|l| format!("{l}\n")).collect();
    let file = dir.join("pairs.csv");
    std::fs::write(&file, rows).unwrap();
    let json = |threads: &str, extra: &[&str]| -> serde_json::Value {
        let mut args = vec![
            "--threads",
            threads,
            "bench",
            "--reference",
            s(&file),
            "--json",
        ];
        args.extend_from_slice(extra);
        serde_json::from_str(&ok(&args)).unwrap()
    };
    let full = json("1", &[]);
    assert_eq!(full["calls"], 60);
    assert_eq!(full["mode"], "full");
    let valid = full["valid"].as_u64().unwrap();
    assert!((20..60).contains(&valid), "{valid} valid of 60");
    // The original's statuses (99.97 % agreement on all 3,000 rows).
    assert!(full["status_agreement"].as_f64().unwrap() >= 59.0 / 60.0);
    assert!(full["cpu_s"].as_f64().unwrap() > 0.0);
    let steps = full["steps_computed_per_valid"].as_f64().unwrap();
    assert!(steps > 0.0 && steps <= 1000.0);
    // Rows in order on any thread count: the same statuses and final states.
    let two = json("2", &[]);
    assert_eq!(two["hash_xor"], full["hash_xor"]);
    assert_eq!(two["status_agreement"], full["status_agreement"]);
    // The status-only path: same statuses, fewer steps.
    let fast = json("1", &["--status-only"]);
    assert_eq!(fast["mode"], "status-only");
    assert_eq!(fast["status_agreement"], full["status_agreement"]);
    assert_eq!(fast["solved"], full["solved"]);
    assert!(fast["steps_computed_per_valid"].as_f64().unwrap() < steps);
    // Bad input: one-line errors.
    let bad = dir.join("bad.csv");
    std::fs::write(
        &bad,
        "task_id,tier,kind,index,action,status\n99999:000,ball,random,0,0.5 0.5 0.5,-1\n",
    )
    .unwrap();
    assert!(fails(&["bench", "--reference", s(&bad)]).contains("line 2"));
    std::fs::write(
        &bad,
        "task_id,tier,kind,index,action,status\n00000:000,three,random,0,0.5 0.5 0.5,-1\n",
    )
    .unwrap();
    assert!(fails(&["bench", "--reference", s(&bad)]).contains("unknown tier"));
    assert!(fails(&["bench", "--reference", s(&dir.join("missing.csv"))]).contains("cannot read"));
}

#[test]
fn bench_counts_its_work() {
    let out = ok(&[
        "--threads",
        "2",
        "bench",
        "--tasks-per-template",
        "1",
        "--actions",
        "4",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let t = &v["totals"];
    assert_eq!(v["tasks"], 25);
    assert_eq!(v["threads"], 2);
    assert_eq!(t["calls"], 100);
    assert_eq!(
        t["valid"].as_u64().unwrap() + t["invalid"].as_u64().unwrap(),
        100
    );
    assert!(v["ms_per_valid_sim"].as_f64().unwrap() > 0.0);
    let covered = t["steps_covered"].as_u64().unwrap();
    let stepped = t["steps_stepped"].as_u64().unwrap();
    assert!(stepped <= covered && covered <= 1000 * t["valid"].as_u64().unwrap());
    // Same work on one thread: the same final hashes.
    let one: serde_json::Value = serde_json::from_str(&ok(&[
        "--threads",
        "1",
        "bench",
        "--tasks-per-template",
        "1",
        "--actions",
        "4",
        "--json",
    ]))
    .unwrap();
    assert_eq!(one["totals"]["hash_xor"], t["hash_xor"]);
    let text = ok(&["bench", "--tasks-per-template", "1", "--actions", "2"]);
    assert!(text.contains("calls/s") && text.contains("≈ 620"), "{text}");
    fails(&["bench", "--actions", "0"]);
    fails(&["bench", "--tier", "none"]);
}

#[test]
fn parity_runs_a_small_reference() {
    let dir = tempfile::tempdir().unwrap();
    let reference = dir.path().join("ref.csv");
    let report = dir.path().join("parity.md");
    std::fs::write(
        &reference,
        "task_id,tier,kind,index,action,status\n\
         00000:000,ball,random,0,0.30972137866952065 0.12865169553462075 0.11986046093691927,-1\n\
         00000:000,ball,random,1,1.5 0.5 0.5,0\n",
    )
    .unwrap();
    let out = ok(&[
        "parity",
        "--reference",
        s(&reference),
        "--random-per-task",
        "0",
        "--out",
        s(&report),
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("JSON summary");
    assert_eq!(v["rows"], 2, "{v}");
    assert!(report.exists());
    fails(&["parity", "--reference", "/nonexistent.csv"]);
    std::fs::write(&reference, "a,b\n1,2\n").unwrap();
    fails(&[
        "parity",
        "--reference",
        s(&reference),
        "--random-per-task",
        "0",
    ]);
    fails(&["parity", "--out", "/nonexistent-dir/p.md"]);
}

#[test]
fn parity_is_thread_independent_and_resumes_from_its_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n);
    std::fs::write(
        p("ref.csv"),
        "task_id,tier,kind,index,action,status\n\
         00000:000,ball,random,0,0.30972137866952065 0.12865169553462075 0.11986046093691927,-1\n\
         00100:000,two_balls,random,0,0.2 0.8 0.1 0.7 0.8 0.1,-1\n",
    )
    .unwrap();
    let run = |threads: &str, out: &str, extra: &[&str]| {
        let reference = p("ref.csv");
        let report = p(out);
        let mut args = vec![
            "--threads",
            threads,
            "parity",
            "--reference",
            s(&reference),
            "--random-per-task",
            "1",
            "--random-per-task-2b",
            "0",
            "--out",
            s(&report),
            "--json",
        ];
        args.extend_from_slice(extra);
        let json = ok(&args);
        (json, std::fs::read(p(out)).unwrap())
    };
    let ckpt = p("p.ckpt");
    let one = run("1", "one.md", &[]);
    let two = run("2", "two.md", &["--checkpoint", s(&ckpt)]);
    assert_eq!(one, two, "1 and 2 threads differ");
    let v: serde_json::Value = serde_json::from_str(one.0.trim()).unwrap();
    assert_eq!(v["rows"], 2, "{v}");
    // The report's per-template table has rephyre's own rates from 2,500 ball-tier draws.
    let md = String::from_utf8(one.1.clone()).unwrap();
    assert!(md.contains("| ball | 00000 |"), "{md}");
    // Resuming from the finished checkpoint runs nothing and gives the same report.
    let resumed = run("2", "resumed.md", &["--checkpoint", s(&ckpt), "--resume"]);
    assert_eq!(one, resumed);
    // A checkpoint of other options is refused.
    let other = p("ref.csv");
    fails(&[
        "parity",
        "--reference",
        s(&other),
        "--random-per-task",
        "2",
        "--checkpoint",
        s(&ckpt),
        "--resume",
    ]);
}

#[test]
fn eval_and_compare_on_a_small_action_set() {
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n);
    for agent in ["mem", "rand"] {
        let out = p(&format!("{agent}.csv"));
        let cache = p("table");
        let text = ok(&[
            "eval",
            "--agent",
            agent,
            "--setup",
            "ball_cross_template",
            "--folds",
            "0-1",
            "--actions",
            "4",
            "--cache",
            s(&cache),
            "--out",
            s(&out),
            "--table",
            s(&p("t.md")),
            "--plot",
            s(&p("c.svg")),
        ]);
        assert!(text.contains("| agent | B cross"), "{text}");
        let (header, rows) = parse_csv(&std::fs::read_to_string(&out).unwrap());
        assert_eq!(rows.len(), 2);
        let a = col(&header, "auccess");
        assert!(rows
            .iter()
            .all(|r| (0.0..=1.0).contains(&r[a].parse::<f64>().unwrap())));
        assert!(std::fs::read_to_string(p("c.svg"))
            .unwrap()
            .contains("<svg"));
    }
    // The outcome table was computed once and reused (the checkpoint exists and resumes).
    assert!(p("table.ball.ckpt").exists());
    // MEM-O's per-fold results (every column but the wall time): on these folds, with this many
    // actions, on this many threads (default: one per core), with or without the cache.
    let memo = |folds: &str, actions: &str, threads: Option<&str>, cache: bool| {
        let out = p(&format!("memo-{folds}-{actions}-{threads:?}-{cache}.csv"));
        let mut args = vec![];
        if let Some(t) = threads {
            args.extend(["--threads", t]);
        }
        args.extend([
            "eval",
            "--agent",
            "memo",
            "--setup",
            "ball_cross_template",
            "--folds",
            folds,
            "--actions",
            actions,
            "--out",
            s(&out),
        ]);
        let table = p("table");
        if cache {
            args.extend(["--cache", s(&table)]);
        }
        ok(&args);
        let (header, rows) = parse_csv(&std::fs::read_to_string(&out).unwrap());
        let secs = col(&header, "seconds");
        rows.into_iter()
            .map(|mut r| {
                r.remove(secs);
                r
            })
            .collect::<Vec<_>>()
    };
    let cached_columns = || -> Vec<usize> {
        let cp: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(p("table.ball.ckpt")).unwrap()).unwrap();
        cp["tasks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t[2]["codes"].as_array().unwrap().len())
            .collect()
    };
    assert!(cached_columns().iter().all(|&n| n == 4));
    // A smaller set is read from the 4-action cache (its first columns), which keeps all 4.
    assert_eq!(memo("0-1", "2", None, true), memo("0-1", "2", None, false));
    assert!(cached_columns().iter().all(|&n| n == 4));
    // A larger set extends the cache by the missing columns, with the results of a fresh table.
    assert_eq!(memo("0-1", "5", None, true), memo("0-1", "5", None, false));
    let columns = cached_columns();
    assert_eq!(columns.len(), 2500);
    assert!(columns.iter().all(|&n| n == 5));
    // Results do not depend on the thread count.
    assert_eq!(
        memo("0-3", "4", Some("1"), false),
        memo("0-3", "4", Some("2"), false)
    );
    let cmp = ok(&["compare", s(&p("mem.csv")), s(&p("rand.csv"))]);
    assert!(
        cmp.contains("MEM > RAND") || cmp.contains("no evidence"),
        "{cmp}"
    );
    assert!(fails(&["eval", "--agent", "dqn", "--out", s(&p("x.csv"))]).contains("unknown agent"));
    assert!(fails(&["eval", "--folds", "3-12", "--out", s(&p("x.csv"))]).contains("folds"));
    assert!(fails(&["compare", s(&p("mem.csv")), s(&p("missing.csv"))]).contains("cannot read"));
}

#[test]
fn audit_ci_plan_matches_the_committed_golden() {
    let out = ok(&["audit", "--subset", "ci"]);
    assert!(out.contains("MATCH 502 runs"), "{out}");
    // A golden written by this build matches itself, and a tampered one is reported.
    let dir = tempfile::tempdir().unwrap();
    let g = dir.path().join("g.txt");
    ok(&["audit", "--subset", "ci", "--write-golden", s(&g)]);
    let text = std::fs::read_to_string(&g).unwrap();
    let tampered = text.replacen(" NOT_SOLVED 1000 ", " SOLVED 1000 ", 1);
    std::fs::write(&g, tampered).unwrap();
    assert!(fails(&["audit", "--subset", "ci", "--golden", s(&g)]).contains("MISMATCH"));
    let trace = ok(&["audit", "--trace", "00000:000:1", "--steps", "3"]);
    assert_eq!(trace.lines().count(), 4, "{trace}");
}

/// Two rows that 24,000 simulations each of the search as it was until 2026-11-23 left without a
/// witness, and that the search now settles in a few hundred: 00118:015 from its sibling
/// 00118:014's witness carried over (the balls moved with the bodies they are nearest to, the
/// scene being 00118:014's mirrored and shifted by 70–80 px), and 00106:008 from its own third
/// stored solution, which the search reaches now that refining the first one (solved, never
/// stably) may take only half of the simulations.
#[test]
fn witness_search_carries_sibling_solutions_and_keeps_exploring() {
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n);
    let committed = include_str!("../data/witnesses.csv");
    let row = |id: &str| {
        committed
            .lines()
            .find(|l| l.starts_with(id))
            .unwrap()
            .to_string()
    };
    let header = committed.lines().next().unwrap();
    let sibling = row("00118:014");
    assert!(sibling.contains(",true,"), "{sibling}");
    let text = [
        header,
        "00106:008,two_balls,false,,0,0,0,,",
        &sibling,
        "00118:015,two_balls,false,,0,0,0,,",
    ]
    .join("\n")
        + "\n";
    std::fs::write(p("in.csv"), text).unwrap();
    ok(&[
        "witness",
        "--retry",
        s(&p("in.csv")),
        "--budget",
        "400",
        "--out",
        s(&p("out.csv")),
    ]);
    let out = std::fs::read_to_string(p("out.csv")).unwrap();
    let (header, rows) = parse_csv(&out);
    let (found, origin) = (col(&header, "found"), col(&header, "origin"));
    assert_eq!(rows[0][found], "true", "{:?}", rows[0]);
    assert_eq!(rows[0][origin], "seed:2", "{:?}", rows[0]);
    assert_eq!(rows[2][found], "true", "{:?}", rows[2]);
    // The witness is 00118:014's, carried over as it is (no refinement).
    let set = tasks::TaskSet::builtin();
    let (from, to) = (
        set.lookup("00118:014").unwrap(),
        set.lookup("00118:015").unwrap(),
    );
    let action: Vec<f64> = sibling
        .rsplit(',')
        .next()
        .unwrap()
        .split(' ')
        .map(|x| x.parse().unwrap())
        .collect();
    let carried: Vec<String> = agents::witness::transfer_solution(from, to, &action)
        .iter()
        .filter_map(|a| tasks::validate_action(to, tasks::ActionTier::TwoBalls, a).ok())
        .map(|v| {
            let b = agents::witness::lattice_of(&v);
            b.iter()
                .flat_map(|b| b.iter().map(|x| x.to_string()))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    assert!(rows[2][origin].starts_with("carried:"), "{:?}", rows[2]);
    assert_eq!(rows[2][col(&header, "refinements")], "0");
    assert!(
        carried.contains(&rows[2][col(&header, "balls")]),
        "{:?} not among {carried:?}",
        rows[2]
    );
    assert!(
        ok(&["witness", "--verify", s(&p("out.csv"))]).contains("3 witnesses, 3 stable, 0 failed")
    );
}

#[test]
fn witness_search_is_thread_independent_and_verifiable() {
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n);
    let mut outputs = Vec::new();
    for threads in ["1", "2"] {
        let out = p(&format!("w{threads}.csv"));
        ok(&[
            "--threads",
            threads,
            "witness",
            "--templates",
            "00002,00101",
            "--tasks-per-template",
            "3",
            "--out",
            s(&out),
            "--summary",
            s(&p("w.md")),
        ]);
        outputs.push(std::fs::read(&out).unwrap());
    }
    assert_eq!(
        outputs[0], outputs[1],
        "witness CSV depends on the thread count"
    );
    let text = String::from_utf8(outputs[0].clone()).unwrap();
    let (header, rows) = parse_csv(&text);
    assert_eq!(rows.len(), 6);
    let (tier, found, balls) = (
        col(&header, "tier"),
        col(&header, "found"),
        col(&header, "balls"),
    );
    for r in &rows {
        assert_eq!(r[found], "true", "{r:?}");
        let n = r[balls].split_whitespace().count();
        assert_eq!(n, if r[tier] == "ball" { 3 } else { 6 }, "{r:?}");
    }
    assert!(std::fs::read_to_string(p("w.md"))
        .unwrap()
        .contains("Every task has a witness."));
    let verified = ok(&["witness", "--verify", s(&p("w1.csv"))]);
    assert!(
        verified.contains("6 witnesses, 6 stable, 0 failed"),
        "{verified}"
    );

    // --retry searches only the rows without a witness and keeps the others. Blanking one row
    // and retrying finds a witness for it again (its template's other witnesses are now extra
    // seeds, so not necessarily the same one), keeps every other row byte for byte, and
    // retrying the result changes nothing.
    let mut blank: Vec<String> = text.lines().map(String::from).collect();
    let f: Vec<&str> = blank[2].split(',').collect();
    blank[2] = format!("{},{},false,,0,{},{},,", f[0], f[1], f[5], f[6]);
    std::fs::write(p("blank.csv"), blank.join("\n") + "\n").unwrap();
    ok(&[
        "witness",
        "--retry",
        s(&p("blank.csv")),
        "--out",
        s(&p("retried.csv")),
    ]);
    let retried = std::fs::read_to_string(p("retried.csv")).unwrap();
    for (i, (a, b)) in retried.lines().zip(text.lines()).enumerate() {
        if i != 2 {
            assert_eq!(a, b, "row {i} changed");
        }
    }
    let (_, again) = parse_csv(&retried);
    assert_eq!(again[1][found], "true", "{:?}", again[1]);
    assert!(ok(&["witness", "--verify", s(&p("retried.csv"))])
        .contains("6 witnesses, 6 stable, 0 failed"));
    ok(&[
        "witness",
        "--retry",
        s(&p("retried.csv")),
        "--out",
        s(&p("fixed.csv")),
    ]);
    assert_eq!(std::fs::read_to_string(p("fixed.csv")).unwrap(), retried);
    fails(&[
        "witness",
        "--retry",
        s(&p("blank.csv")),
        "--tier",
        "ball",
        "--out",
        s(&p("x.csv")),
    ]);

    // A witness moved 60 px down-left is no longer a solution: --verify names it and fails.
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let mut f: Vec<String> = lines[1].split(',').map(String::from).collect();
    let b: Vec<i32> = f[balls].split(' ').map(|v| v.parse().unwrap()).collect();
    let moved = [(b[0] - 60).max(b[2]), (b[1] - 60).max(b[2]), b[2]];
    f[balls] = format!("{} {} {}", moved[0], moved[1], moved[2]);
    f[8] = format!(
        "{} {} {}",
        (moved[0] as f64 + 0.5) / 255.0,
        (moved[1] as f64 + 0.5) / 255.0,
        (moved[2] - 2) as f64 / 30.0
    );
    lines[1] = f.join(",");
    std::fs::write(p("bad.csv"), lines.join("\n")).unwrap();
    let o = run(&["witness", "--verify", s(&p("bad.csv"))]);
    assert_eq!(o.status.code(), Some(2));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains(&rows[0][0]), "{out}");

    std::fs::write(p("junk.csv"), "task_id,nope\n1,2\n").unwrap();
    assert!(fails(&["witness", "--verify", s(&p("junk.csv"))]).contains("columns"));
    assert!(fails(&["witness", "--verify", s(&p("missing.csv"))]).contains("cannot read"));
    fails(&[
        "witness",
        "--verify",
        s(&p("w1.csv")),
        "--out",
        s(&p("x.csv")),
    ]);
    assert!(fails(&["witness", "--budget", "0", "--out", s(&p("x.csv"))]).contains("budget"));
    assert!(
        fails(&["witness", "--templates", "00077", "--out", s(&p("x.csv"))]).contains("no tasks")
    );
    assert!(fails(&["witness"]).contains("--out"));
    fails(&["witness", "--out", "/nonexistent-dir/w.csv"]);
}
