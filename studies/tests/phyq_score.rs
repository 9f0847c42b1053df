//! The Phy-Q score (the paper's equations 1–2) on a case worked out by hand, with two scenarios
//! whose human standard deviations differ, so that the division by σ_human in equation 1 shows.
//!
//! Equation 1: Z = (1/13) Σ_{s=3..15} (P_agent(s) − P_human(s)) / σ_human(s); equation 2:
//! score = 100 + Z · 100 / |Z_random|.

use phyq::playdata::SCENARIOS;
use studies::phyq::{phyq_score, z_score};

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
