//! `simulate`: outcomes in JSON and text, invalid actions with their reason, bad input.

use crate::common::{fails, ok, simulate_json};

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
