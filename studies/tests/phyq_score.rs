//! The Phy-Q score (the paper's equations 1–2) on a case worked out by hand, with two scenarios
//! whose human standard deviations differ, so that the division by σ_human in equation 1 shows.
//!
//! Equation 1: Z = (1/13) Σ_{s=3..15} (P_agent(s) − P_human(s)) / σ_human(s); equation 2:
//! score = 100 + Z · 100 / |Z_random|.

use phyq::playdata::SCENARIOS;
use studies::phyq::{
    agreement, paper_agreement, paper_template_rate, pass_rate, per_scenario, per_template,
    phyq_score, scenario_names, z_score, AgentName, Row,
};

/// The humans' pass rates per scenario, 1 − `fail_rate` of
/// `phyq/data/playdata/broad_generalisation_human.csv`, read by hand (1_1 … 3_9).
const HUMANS: [f64; SCENARIOS] = [
    1.0 - 0.036842105,
    1.0 - 0.010526316,
    1.0 - 0.147368421,
    1.0 - 0.021052632,
    1.0 - 0.136842105,
    1.0 - 0.194736842,
    1.0 - 0.368421053,
    1.0 - 0.152631579,
    1.0 - 0.268421053,
    1.0 - 0.073684211,
    1.0 - 0.5,
    1.0 - 0.015789474,
    1.0 - 0.078947368,
    1.0 - 0.431578947,
    1.0 - 0.131578947,
];

fn rates(changes: &[(usize, f64)]) -> [Option<f64>; SCENARIOS] {
    let mut r = HUMANS.map(Some);
    for &(scenario, delta) in changes {
        r[scenario - 1] = Some(HUMANS[scenario - 1] + delta);
    }
    r
}

#[test]
fn the_score_divides_each_gap_by_the_humans_deviation() {
    // Scenario 3 (2_1): σ 0.160159201; scenario 4 (2_2): σ 0.052102605 (3.07 times smaller).
    // The agent passes 0.1 less than the humans in both, as the humans elsewhere:
    // Z = (−0.1/0.160159201 − 0.1/0.052102605) / 13 = (−0.624378739 − 1.919289832) / 13
    //   = −0.195666813.
    // The random reference passes 0.2 less in scenario 3 only:
    // Z_random = (−0.2/0.160159201) / 13 = −1.248757479 / 13 = −0.096058268.
    // Score = 100 + Z · 100 / |Z_random| = 100 − 100 · 2.543668571 / 1.248757479
    //       = 100 − 50 · (1 + 0.160159201/0.052102605) = 100 − 50 · 4.073919260
    //       = −103.695962995.
    // (Without the σ: Z = −0.2/13, Z_random = −0.2/13, a score of 0.)
    let agent = rates(&[(3, -0.1), (4, -0.1)]);
    let random = rates(&[(3, -0.2)]);
    let z = z_score(&agent).unwrap();
    assert!((z - -0.195_666_813).abs() < 1e-9, "Z = {z}");
    let zr = z_score(&random).unwrap();
    assert!((zr - -0.096_058_268).abs() < 1e-9, "Z_random = {zr}");
    let score = phyq_score(&agent, &random).unwrap();
    assert!((score - -103.695_962_995).abs() < 1e-6, "score = {score}");
    // Scenarios 1 and 2 are not scored: moving them changes nothing.
    let mut outside = agent;
    outside[0] = Some(0.0);
    outside[1] = Some(0.0);
    assert_eq!(phyq_score(&outside, &random), Some(score));
    // The humans themselves score 100.
    let humans = rates(&[]);
    assert!((phyq_score(&humans, &random).unwrap() - 100.0).abs() < 1e-9);
}

fn row(template: &str, scenario: u8, attempts: u32, passes: u32) -> Row {
    Row {
        task_id: format!("phyq:{template}:00001"),
        template: template.to_string(),
        paper: String::new(),
        scenario,
        attempts,
        passes,
        shots: 0,
        steps: 0,
        first_pass: String::new(),
        error: String::new(),
    }
}

#[test]
fn pass_rates_are_means_over_tasks_per_scenario_and_overall() {
    let rows = [
        row("2_1_2", 3, 5, 2), // 0.4
        row("2_1_5", 3, 4, 1), // 0.25
        row("2_3_1", 5, 0, 0), // no attempt: 0
        row("", 0, 2, 1),      // no template: 0.5, in the overall rate only
        row("", 16, 1, 1),     // no such scenario: 1.0, in the overall rate only
    ];
    let s = per_scenario(&rows);
    // Scenario 3: (0.4 + 0.25) / 2; scenario 5: one task that was never attempted.
    assert!((s[2].unwrap() - 0.325).abs() < 1e-12, "{:?}", s[2]);
    assert_eq!(s[4], Some(0.0));
    for (i, r) in s.iter().enumerate() {
        if i != 2 && i != 4 {
            assert_eq!(*r, None, "scenario {} has no task", i + 1);
        }
    }
    // Overall: (0.4 + 0.25 + 0 + 0.5 + 1.0) / 5 = 0.43.
    assert!((pass_rate(&rows) - 0.43).abs() < 1e-12);
    assert_eq!(pass_rate(&[]), 0.0);
    assert_eq!(per_scenario(&[]), [None; SCENARIOS]);
}

#[test]
fn per_template_rates_follow_the_papers_order() {
    // 2_1_2 is the paper's 3.4, 1_1_1 its 1.4: listed 1_1_1 first whatever the rows' order.
    let rows = [
        row("2_1_2", 3, 5, 1),
        row("1_1_1", 1, 5, 5),
        row("1_1_1", 1, 4, 0),
    ];
    let t = per_template(&rows);
    let got: Vec<(&str, usize, f64)> = t
        .iter()
        .map(|(t, n, r)| (t.code.as_str(), *n, *r))
        .collect();
    assert_eq!(got.len(), 2);
    assert_eq!((got[0].0, got[0].1), ("1_1_1", 2));
    assert!((got[0].2 - 0.5).abs() < 1e-12, "(1 + 0) / 2: {}", got[0].2);
    assert_eq!((got[1].0, got[1].1), ("2_1_2", 1));
    assert!((got[1].2 - 0.2).abs() < 1e-12);
}

#[test]
fn agreement_with_the_paper_by_hand() {
    // x = (0.5, 0.2, 0.9), y = (0.3, 0.4, 0.6): |diff| 0.2, 0.2, 0.3, mean 0.7/3; none within
    // 0.15. Means 1.6/3 and 1.3/3; Σdx·dy = 23/300, Σdx² = 74/300, Σdy² = 14/300:
    // r = 23 / √(74 · 14) = 23 / √1036 = 0.714575231.
    let a = agreement("template", &[(0.5, 0.3), (0.2, 0.4), (0.9, 0.6)]).unwrap();
    assert_eq!((a.by, a.compared, a.within_0_15), ("template", 3, 0));
    assert!(
        (a.mean_abs_diff - 0.7 / 3.0).abs() < 1e-12,
        "{}",
        a.mean_abs_diff
    );
    assert!(
        (a.pearson.unwrap() - 0.714_575_231).abs() < 1e-9,
        "{:?}",
        a.pearson
    );
    // Exactly 0.15 apart counts as within; a side that does not vary has no Pearson.
    let b = agreement("scenario", &[(0.25, 0.1), (0.25, 0.5)]).unwrap();
    assert_eq!((b.within_0_15, b.pearson), (1, None));
    assert!((b.mean_abs_diff - 0.2).abs() < 1e-12);
    assert_eq!(agreement("template", &[]), None);
    // The paper's rate per template is the Pig Shooter's only
    // (playdata/heuristic-per-template/Naive_summarized_h_c_t.csv, row 1_01_04).
    let r = paper_template_rate(AgentName::PigShooter, "1_1_4").unwrap();
    assert!((r - 0.745_833_333).abs() < 1e-9);
    assert_eq!(paper_template_rate(AgentName::Random, "1_1_4"), None);
}

#[test]
fn the_papers_same_agent_is_compared_per_template_or_per_scenario() {
    // The pig shooter per template: 1_1_4 at 0.75 beside the paper's 0.7458333.
    let rows = [row("1_1_4", 1, 4, 3)];
    let a = paper_agreement(AgentName::PigShooter, &rows, &per_scenario(&rows)).unwrap();
    assert_eq!(
        (a.by, a.compared, a.within_0_15, a.pearson),
        ("template", 1, 1, None)
    );
    assert!((a.mean_abs_diff - (0.75 - 0.745_833_333)).abs() < 1e-9);
    // The random agent per scenario, beside the paper's "Random Agent" (scenario 1: 0.085,
    // scenario 2: 0.134183675 in playdata/broad_generalization_all_agents.csv).
    let mut rates = [None; SCENARIOS];
    rates[0] = Some(0.1);
    rates[1] = Some(0.5);
    let r = paper_agreement(AgentName::Random, &[], &rates).unwrap();
    assert_eq!((r.by, r.compared, r.within_0_15), ("scenario", 2, 1));
    let expected = ((0.1 - 0.085) + (0.5 - 0.134_183_675)) / 2.0;
    assert!(
        (r.mean_abs_diff - expected).abs() < 1e-9,
        "{}",
        r.mean_abs_diff
    );
    // The paper gives no per-template or per-scenario rate of the others.
    assert_eq!(paper_agreement(AgentName::Optimal, &rows, &rates), None);
}

#[test]
fn scenario_names_are_in_order() {
    let names = scenario_names();
    assert_eq!(names[0], "single force");
    assert_eq!(names[2], "rolling");
    assert_eq!(names[14], "manoeuvring");
}
