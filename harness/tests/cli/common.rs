//! Helpers shared by every theme: running the binary, expecting success or the one-line error,
//! reading CSV reports and `simulate --json` output.

use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

pub fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_rephyre"));
    c.stdin(Stdio::null());
    c
}

pub fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("the binary runs")
}

/// Run and expect success; returns stdout.
pub fn ok(args: &[&str]) -> String {
    String::from_utf8(succeeded(args).stdout).expect("UTF-8 output")
}

/// Run and expect success; returns stderr (where progress and `resumed: …` go).
pub fn ok_stderr(args: &[&str]) -> String {
    String::from_utf8_lossy(&succeeded(args).stderr).to_string()
}

fn succeeded(args: &[&str]) -> Output {
    let o = run(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        o.status.success(),
        "rephyre {args:?} failed ({:?}): {err}",
        o.status
    );
    assert!(!err.contains("panicked"), "{err}");
    o
}

/// Run and expect the one-line error; returns that line.
pub fn fails(args: &[&str]) -> String {
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

pub fn s(p: &Path) -> &str {
    p.to_str().expect("UTF-8 temp path")
}

pub fn parse_csv(text: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let header = r.headers().unwrap().iter().map(String::from).collect();
    let rows = r
        .records()
        .map(|rec| rec.unwrap().iter().map(String::from).collect())
        .collect();
    (header, rows)
}

pub fn col(header: &[String], name: &str) -> usize {
    header
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("no column {name}"))
}

pub fn simulate_json(args: &[&str]) -> serde_json::Value {
    let mut a = vec!["simulate"];
    a.extend_from_slice(args);
    a.push("--json");
    serde_json::from_str(&ok(&a)).expect("one JSON object")
}

/// `eval --agent AGENT --setup ball_cross_template --folds FOLDS --actions ACTIONS`: the opening
/// of the evaluation tests' command lines.
pub fn eval_b_cross<'a>(agent: &'a str, folds: &'a str, actions: &'a str) -> Vec<&'a str> {
    let setup = ["--setup", "ball_cross_template"];
    let mut args = vec!["eval", "--agent", agent];
    args.extend(setup);
    args.extend(["--folds", folds, "--actions", actions]);
    args
}

/// A results file's rows without the wall-time column (the one column that differs between
/// two runs of the same evaluation).
pub fn without_seconds((header, rows): (Vec<String>, Vec<Vec<String>>)) -> Vec<Vec<String>> {
    let secs = col(&header, "seconds");
    rows.into_iter()
        .map(|mut r| {
            r.remove(secs);
            r
        })
        .collect()
}

/// A reference table (outcomes-A format) of two rows, one per tier: the parity tests' input.
pub const TWO_TIER_REFERENCE: &str = "task_id,tier,kind,index,action,status\n\
    00000:000,ball,random,0,0.30972137866952065 0.12865169553462075 0.11986046093691927,-1\n\
    00100:000,two_balls,random,0,0.2 0.8 0.1 0.7 0.8 0.1,-1\n";

/// Runs `child` in slices of 20 ms, stopped (SIGSTOP) between them, until `seen` (looked at
/// while it is stopped) gives something, then kills it (SIGKILL, which a stopped process
/// receives too) and returns that. Stopped while it is looked at, the run cannot finish unseen
/// between two looks however slow or busy the machine is; `what` names what is awaited when the
/// run finishes first or 6,000 slices pass.
pub fn kill_when<T>(child: &mut Child, what: &str, mut seen: impl FnMut() -> Option<T>) -> T {
    let pid = libc::pid_t::try_from(child.id()).expect("a pid");
    // SAFETY: kill(2) with a valid signal on our own child, which is not reaped before the end.
    let signal = |sig: libc::c_int| assert_eq!(unsafe { libc::kill(pid, sig) }, 0, "kill {sig}");
    signal(libc::SIGSTOP);
    let mut slices = 0;
    let found = loop {
        signal(libc::SIGCONT);
        std::thread::sleep(Duration::from_millis(20));
        signal(libc::SIGSTOP);
        assert!(
            child.try_wait().expect("waits").is_none(),
            "the run finished before {what} was seen"
        );
        if let Some(v) = seen() {
            break v;
        }
        slices += 1;
        assert!(slices < 6000, "no {what} in 6000 slices of 20 ms");
    };
    child.kill().expect("SIGKILL");
    child.wait().expect("reaped");
    found
}

/// A `rephyre` server started for a test (`serve`, `phyq-server`), killed on drop.
pub struct Running {
    child: Child,
    /// The first line it printed (where it listens).
    pub line: String,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `rephyre ARGS` and waits for the first line it prints.
pub fn start_server(args: &[&str]) -> Running {
    use std::io::{BufRead, BufReader};
    let mut child = bin()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("piped stdout"))
        .read_line(&mut line)
        .expect("a first line");
    Running { child, line }
}
