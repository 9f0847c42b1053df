//! `simulate ID --shots` on Phy-Q tasks: the JSON report, determinism, the GIF, and bad shots.

use crate::common::{fails, ok, s};

const ID: &str = "phyq:1_1_6:00001";

fn report(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&ok(args)).expect("one JSON object")
}

#[test]
fn simulate_plays_shots_and_reports_the_outcome() {
    let a = report(&["simulate", ID, "--shots=-18,5,0", "--json"]);
    assert_eq!(a["task"], ID);
    assert_eq!(a["status"], "not_passed");
    assert_eq!(a["pigs_left"], 1);
    assert_eq!(a["shots"], 1);
    assert!(a["steps"].as_u64().unwrap() > 100);
    assert_eq!(a["final_hash"].as_str().unwrap().len(), 16);
    // The same shots give the same bytes; the value may start with a minus after a space too.
    let b = report(&["simulate", ID, "--json", "--shots", "-18,5,0"]);
    assert_eq!(a, b);
    // More shots than the level has birds: invalid, nothing played.
    let c = report(&["simulate", ID, "--json", "--shots", "-18,5,0;-18,5,0"]);
    assert_eq!(c["status"], "invalid");
    assert_eq!(c["shots"], 0);
    // Plain text names the status.
    let text = ok(&["simulate", ID, "--shots", "-18,5,0"]);
    assert!(text.contains("status:      not_passed"), "{text}");
}

#[test]
fn a_passing_shot_passes() {
    // Found by the search on this template's first task (phyq::game::soundness).
    let mut passed = None;
    for deg in 0..60 {
        let r = f64::from(deg).to_radians();
        let shots = format!("{:.4},{:.4},0", -18.5 * r.cos(), -18.5 * r.sin());
        let a = report(&["simulate", "phyq:1_1_1:00001", "--json", "--shots", &shots]);
        if a["status"] == "passed" {
            assert_eq!(a["pigs_left"], 0);
            passed = Some(deg);
            break;
        }
    }
    assert!(
        passed.is_some(),
        "no angle from 0 to 59 degrees passes 1_1_1:00001"
    );
}

#[test]
fn the_score_is_science_birds_score() {
    // Two of three birds pass 1_2_4:00001: the pig's 5,000, the unused bird's 10,000 and the
    // birds' damaging hits, 470 (the same figure as the Python test's).
    let a = report(&[
        "simulate",
        "phyq:1_2_4:00001",
        "--json",
        "--shots",
        "-15.3,-10.01,0;-11.53,-10.42,0",
    ]);
    assert_eq!(
        (a["status"].as_str(), a["score"].as_u64()),
        (Some("passed"), Some(15470))
    );
    // A bird that hits nothing scores nothing.
    let miss = report(&[
        "simulate",
        "phyq:1_1_1:00001",
        "--json",
        "--shots",
        "10,0,0",
    ]);
    assert_eq!(
        (miss["status"].as_str(), miss["score"].as_u64()),
        (Some("not_passed"), Some(0))
    );
}

#[test]
fn simulate_writes_a_gif_of_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let gif = dir.path().join("run.gif");
    let a = report(&[
        "simulate",
        ID,
        "--shots=-18,5,0",
        "--json",
        "--gif",
        s(&gif),
    ]);
    let bytes = std::fs::read(&gif).unwrap();
    assert_eq!(&bytes[..6], b"GIF89a");
    // 640 × 480, one frame per 10 steps from step 0, and the last state.
    assert_eq!(u16::from_le_bytes([bytes[6], bytes[7]]), 640);
    assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), 480);
    let frames = bytes.windows(2).filter(|w| w == &[0x00, 0x2c]).count();
    let steps = a["steps"].as_u64().unwrap();
    assert!(
        frames as u64 >= steps / 10,
        "{frames} frames for {steps} steps"
    );
    // The GIF does not change the outcome.
    let plain = report(&["simulate", ID, "--shots=-18,5,0", "--json"]);
    assert_eq!(a["final_hash"], plain["final_hash"]);
}

#[test]
fn bad_shots_fail_with_one_line() {
    let e = fails(&["simulate", ID, "--shots", "-18,5"]);
    assert!(
        e.contains("shot 0: expected 3 numbers x,y,tap, got 2"),
        "{e}"
    );
    let e = fails(&["simulate", ID, "--shots", "-18,NaN,0"]);
    assert!(e.contains("shot 0: y is NaN"), "{e}");
    let e = fails(&["simulate", ID, "--shots", "-18,5,-1"]);
    assert!(e.contains("before the launch"), "{e}");
    let e = fails(&["simulate", ID, "--shots", "1e300,5,0"]);
    assert!(e.contains("out of range"), "{e}");
    let e = fails(&["simulate", ID, "--shots", ""]);
    assert!(e.contains("empty shot list"), "{e}");
    let e = fails(&["simulate", ID, "--action", "0.5,0.5,0.5"]);
    assert!(e.contains("a Phy-Q task takes --shots"), "{e}");
    let e = fails(&["simulate", "00000:000", "--shots", "1,2,3"]);
    assert!(e.contains("a PHYRE task takes --action"), "{e}");
    let e = fails(&["simulate", "phyq:1_1_6:00101", "--shots", "1,2,3"]);
    assert!(e.contains("unknown Phy-Q task"), "{e}");
    let e = fails(&["simulate", ID]);
    assert!(e.contains("--action") || e.contains("--shots"), "{e}");
}
