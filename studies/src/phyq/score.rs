//! The figures over results: pass rates per scenario and template, the Phy-Q score (equations
//! 1–2), the agreement with the paper's same agent, and the random agent's committed reference.

use super::results::{parse_csv, Row};
use super::types::AgentName;
use phyq::playdata::{humans, SCENARIOS};
use phyq::templates::{templates, Template};
use serde::Serialize;

/// Mean pass rate over the tasks of each scenario (index 0: scenario 1; `None`: no task).
pub fn per_scenario(rows: &[Row]) -> [Option<f64>; SCENARIOS] {
    let mut sums = [(0.0f64, 0u32); SCENARIOS];
    for r in rows
        .iter()
        .filter(|r| (1..=SCENARIOS as u8).contains(&r.scenario))
    {
        let s = &mut sums[usize::from(r.scenario) - 1];
        s.0 += r.pass_rate();
        s.1 += 1;
    }
    sums.map(|(sum, n)| (n > 0).then(|| sum / f64::from(n)))
}

/// Mean pass rate over tasks.
pub fn pass_rate(rows: &[Row]) -> f64 {
    if rows.is_empty() {
        return 0.0;
    }
    rows.iter().map(Row::pass_rate).sum::<f64>() / rows.len() as f64
}

/// The scenarios of the Phy-Q score: 3..=15 (the paper leaves out 1 and 2, which every
/// heuristic passes).
pub const SCORED_SCENARIOS: std::ops::RangeInclusive<usize> = 3..=15;

/// Z of the paper's equation 1: the mean over scenarios 3–15 of (P_agent − P_human) / σ_human;
/// `None` unless every one of them has a rate.
pub fn z_score(per_scenario: &[Option<f64>; SCENARIOS]) -> Option<f64> {
    let h = humans();
    let mut sum = 0.0;
    for s in SCORED_SCENARIOS {
        let p = per_scenario[s - 1]?;
        sum += (p - h[s - 1].pass_rate) / h[s - 1].sd;
    }
    Some(sum / SCORED_SCENARIOS.count() as f64)
}

/// The Phy-Q score of equation 2, `100 + Z · 100 / |Z_random|`, with Z_random of `random`.
pub fn phyq_score(
    per_scenario: &[Option<f64>; SCENARIOS],
    random: &[Option<f64>; SCENARIOS],
) -> Option<f64> {
    let z = z_score(per_scenario)?;
    let zr = z_score(random)?;
    (zr != 0.0).then(|| 100.0 + z * 100.0 / zr.abs())
}

/// Per template (the paper's order): template, tasks, pass rate.
pub fn per_template(rows: &[Row]) -> Vec<(&'static Template, usize, f64)> {
    templates()
        .iter()
        .filter_map(|t| {
            let mine: Vec<&Row> = rows.iter().filter(|r| r.template == t.code).collect();
            (!mine.is_empty()).then(|| {
                let rate = mine.iter().map(|r| r.pass_rate()).sum::<f64>() / mine.len() as f64;
                (t, mine.len(), rate)
            })
        })
        .collect()
}

/// How close this project's rates come to the paper's for the same agent.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Agreement {
    /// What is compared: `template` (the Pig Shooter, the paper's local-generalization test)
    /// or `scenario` (the random agent, the paper's broad setting).
    pub by: &'static str,
    pub compared: usize,
    pub mean_abs_diff: f64,
    /// `None` when either side does not vary.
    pub pearson: Option<f64>,
    /// Templates (or scenarios) within 0.15 of the paper.
    pub within_0_15: usize,
}

/// The agreement of (this project, paper) rate pairs; `None` without a pair.
pub fn agreement(by: &'static str, pairs: &[(f64, f64)]) -> Option<Agreement> {
    if pairs.is_empty() {
        return None;
    }
    let n = pairs.len() as f64;
    let (mx, my) = (
        pairs.iter().map(|p| p.0).sum::<f64>() / n,
        pairs.iter().map(|p| p.1).sum::<f64>() / n,
    );
    // The deviations once, for the covariance and both variances alike.
    let dx: Vec<f64> = pairs.iter().map(|p| p.0 - mx).collect();
    let dy: Vec<f64> = pairs.iter().map(|p| p.1 - my).collect();
    let cov: f64 = dx.iter().zip(&dy).map(|(a, b)| a * b).sum();
    let vx: f64 = dx.iter().map(|a| a * a).sum();
    let vy: f64 = dy.iter().map(|b| b * b).sum();
    Some(Agreement {
        by,
        compared: pairs.len(),
        mean_abs_diff: pairs.iter().map(|(x, y)| (x - y).abs()).sum::<f64>() / n,
        pearson: (vx > 0.0 && vy > 0.0).then(|| cov / (vx * vy).sqrt()),
        within_0_15: pairs.iter().filter(|(x, y)| (x - y).abs() <= 0.15).count(),
    })
}

/// The paper's rate of `agent` in a template, where the paper gives one per template (the Pig
/// Shooter).
pub fn paper_template_rate(agent: AgentName, code: &str) -> Option<f64> {
    (agent == AgentName::PigShooter)
        .then(|| {
            phyq::playdata::pig_shooter_per_template()
                .iter()
                .find(|(c, _)| c == code)
                .map(|(_, r)| *r)
        })
        .flatten()
}

/// This run beside the paper's same agent: per template for the Pig Shooter, per scenario (the
/// broad setting's "Random Agent") for the random agent; `None` for the others.
pub fn paper_agreement(
    agent: AgentName,
    rows: &[Row],
    per_scenario: &[Option<f64>; SCENARIOS],
) -> Option<Agreement> {
    match agent {
        AgentName::PigShooter => {
            let pairs: Vec<(f64, f64)> = per_template(rows)
                .iter()
                .filter_map(|(t, _, r)| paper_template_rate(agent, &t.code).map(|p| (*r, p)))
                .collect();
            agreement("template", &pairs)
        }
        AgentName::Random => {
            let paper = phyq::playdata::paper_agents()
                .iter()
                .find(|a| a.name == "Random Agent")?;
            let pairs: Vec<(f64, f64)> = per_scenario
                .iter()
                .zip(paper.pass_rates)
                .filter_map(|(mine, p)| mine.map(|m| (m, p)))
                .collect();
            agreement("scenario", &pairs)
        }
        _ => None,
    }
}

/// The scenarios' names, in order.
pub fn scenario_names() -> [&'static str; SCENARIOS] {
    let mut names = [""; SCENARIOS];
    for t in templates() {
        names[usize::from(t.scenario) - 1] = t.scenario_name.as_str();
    }
    names
}

/// This project's random agent in the broad setting: the committed run
/// (`rephyre phyq-eval --agent random --setting broad --out FILE`: 50 attempts, seed 0, on the
/// built-in tier), re-checked by the tests.
pub const RANDOM_REFERENCE: &str = include_str!("../../data/phyq-random-broad.csv");

/// This project's random agent in the broad setting, per scenario: the zero of the Phy-Q score
/// ([`RANDOM_REFERENCE`]).
pub fn random_reference() -> [Option<f64>; SCENARIOS] {
    match parse_csv(RANDOM_REFERENCE) {
        Ok(rows) => per_scenario(&rows),
        // Embedded and checked by the tests: a failure is a bug in this crate.
        Err(e) => panic!("data/phyq-random-broad.csv: {e}"),
    }
}
