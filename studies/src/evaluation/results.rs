//! The results of an evaluation: one row per (agent, setup, fold), read back from its CSV file,
//! as a Markdown table beside the paper's, and two agents' rows compared by the one-sided
//! Wilcoxon signed-rank test over their paired folds.

use super::types::LearnFrom;
use crate::stats::mean_and_population_std;
use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use tasks::Setup;

/// The paper's Table 1 AUCCESS (B cross, B within, 2B cross, 2B within) for comparison.
const PAPER: [(&str, [Option<f64>; 4]); 5] = [
    ("RAND", [Some(13.0), Some(13.7), Some(2.6), Some(3.6)]),
    ("MEM", [Some(18.5), Some(2.4), Some(3.7), Some(3.2)]),
    ("MEM-O", [Some(22.8), None, Some(4.9), None]),
    ("DQN", [Some(36.8), Some(77.6), Some(23.2), Some(67.8)]),
    ("DQN-O", [Some(56.2), None, Some(39.6), None]),
];

/// One (agent, setup, fold) result.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FoldResult {
    pub agent: String,
    pub setup: String,
    pub fold: u32,
    pub split: String,
    pub tasks: usize,
    pub auccess: f64,
    pub success_at_10: f64,
    pub seconds: f64,
    pub actions: usize,
    /// What the agent chose on the dev split ([`Agent::tuned`]; MEM-O's online weight); empty
    /// for agents that tune nothing and in files written before the column existed.
    ///
    /// [`Agent::tuned`]: agents::Agent::tuned
    #[serde(default)]
    pub tuned: String,
    /// What the trained agents learned from ([`LearnFrom::name`]: `train`, `train-dev`); empty
    /// in files written before the column existed, which learned from `train`.
    #[serde(default)]
    pub learned_from: String,
}

impl FoldResult {
    /// What the trained agents learned from, as its `learned_from` column says (a file written
    /// before the column existed learned from the training tasks).
    pub fn learned(&self) -> LearnFrom {
        if self.learned_from == LearnFrom::TrainAndDev.name() {
            LearnFrom::TrainAndDev
        } else {
            LearnFrom::Train
        }
    }
}

/// Mean ± std AUCCESS (×100) per agent and setup, beside the paper's Table 1.
pub fn table_markdown(results: &[FoldResult]) -> String {
    let setups = Setup::ALL.map(Setup::name);
    let mut agents: Vec<&str> = Vec::new();
    for r in results {
        if !agents.contains(&r.agent.as_str()) {
            agents.push(&r.agent);
        }
    }
    let mut s = String::from(
        "| agent | B cross | B within | 2B cross | 2B within |\n|---|---|---|---|---|\n",
    );
    for agent in agents {
        let _ = write!(s, "| {agent} |");
        for (i, setup) in setups.iter().enumerate() {
            let v: Vec<f64> = results
                .iter()
                .filter(|r| r.agent == agent && r.setup == *setup)
                .map(|r| 100.0 * r.auccess)
                .collect();
            let paper = PAPER.iter().find(|p| p.0 == agent).and_then(|p| p.1[i]);
            let paper = paper.map_or(String::new(), |p| format!(" (paper {p:.1})"));
            if v.is_empty() {
                let _ = write!(s, " –{paper} |");
            } else {
                let (m, sd) = mean_and_population_std(&v);
                let _ = write!(s, " {m:.1} ± {sd:.1}{paper} |");
            }
        }
        s.push('\n');
    }
    if let Some(r) = results.first() {
        let folds: Vec<u32> = results
            .iter()
            .map(|r| r.fold)
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        let learned = match r.learned() {
            LearnFrom::TrainAndDev => "; the agents learned from the training and dev tasks",
            LearnFrom::Train => "; the agents learned from the training tasks",
        };
        let _ = writeln!(s, "\nAUCCESS × 100, mean ± std over folds {folds:?} ({} split{learned}); {} actions in the agents' action set.", r.split, r.actions);
    }
    s
}

/// Read a per-fold results file ([`Report::csv_bytes`]).
///
/// [`Report::csv_bytes`]: super::Report::csv_bytes
pub fn read_results(path: &std::path::Path) -> Result<Vec<FoldResult>> {
    let mut r =
        csv::Reader::from_path(path).with_context(|| format!("cannot read {}", path.display()))?;
    r.deserialize()
        .collect::<Result<Vec<FoldResult>, _>>()
        .with_context(|| format!("{} is not an eval results file", path.display()))
}

/// Check that the results read from `path` are one agent's (what [`compare`] pairs): not empty,
/// and every row of the same agent.
pub fn check_one_agent(rows: &[FoldResult], path: &std::path::Path) -> Result<()> {
    let Some(first) = rows.first() else {
        bail!("{} holds no results", path.display());
    };
    if rows.iter().any(|r| r.agent != first.agent) {
        bail!(
            "{} holds several agents; write one file per agent (rephyre eval --agent NAME)",
            path.display()
        );
    }
    Ok(())
}

/// The one-sided Wilcoxon signed-rank test of "agent A is better than agent B" over the folds
/// both result sets hold (paired by setup, fold and split; only `setup`'s when given).
#[derive(Clone, Debug)]
pub struct Comparison {
    pub a: String,
    pub b: String,
    /// Paired folds.
    pub pairs: usize,
    /// `None` when every difference is zero.
    pub test: Option<crate::stats::Wilcoxon>,
    /// What `a`'s and `b`'s agents learned from (`--learn-from`), where a paired fold's two
    /// differ: a comparison of two protocols as much as of two agents.
    pub learned_differently: Option<(String, String)>,
}

/// Compare two agents' results (`a` and `b`, each from one agent) over their paired folds.
pub fn compare(a: &[FoldResult], b: &[FoldResult], setup: Option<&str>) -> Result<Comparison> {
    let mut xs = Vec::new();
    let mut ys = Vec::new();
    let mut learned_differently = None;
    for x in a.iter().filter(|r| setup.is_none_or(|s| r.setup == s)) {
        if let Some(y) = b
            .iter()
            .find(|y| y.setup == x.setup && y.fold == x.fold && y.split == x.split)
        {
            xs.push(x.auccess);
            ys.push(y.auccess);
            if x.learned() != y.learned() && learned_differently.is_none() {
                learned_differently = Some((
                    x.learned().name().to_string(),
                    y.learned().name().to_string(),
                ));
            }
        }
    }
    if xs.is_empty() {
        bail!("the two files share no (setup, fold) pair");
    }
    let name = |r: &[FoldResult]| r.first().map_or(String::new(), |f| f.agent.clone());
    Ok(Comparison {
        a: name(a),
        b: name(b),
        pairs: xs.len(),
        test: crate::stats::wilcoxon_greater(&xs, &ys),
        learned_differently,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `compare` says when the two files' agents learned from different tasks; a file written
    /// before `learned_from` existed counts as learning from the training tasks.
    #[test]
    fn compare_notes_results_learned_under_two_protocols() {
        let row = |agent: &str, fold: u32, auccess: f64, learned: &str| FoldResult {
            agent: agent.to_string(),
            setup: "ball_within_template".to_string(),
            fold,
            split: "test".to_string(),
            tasks: 500,
            auccess,
            success_at_10: 0.0,
            seconds: 0.0,
            actions: 10,
            tuned: String::new(),
            learned_from: learned.to_string(),
        };
        let rows = |agent: &str, base: f64, learned: &str| -> Vec<FoldResult> {
            (0..10)
                .map(|f| row(agent, f, base + f64::from(f) * 0.01, learned))
                .collect()
        };
        let (dqn, old_mem) = (rows("DQN", 0.6, "train-dev"), rows("MEM", 0.4, ""));
        let c = compare(&dqn, &old_mem, None).unwrap();
        assert_eq!(c.pairs, 10);
        assert_eq!(
            c.learned_differently,
            Some(("train-dev".to_string(), "train".to_string()))
        );
        assert!(c.test.unwrap().p_value < 0.01);
        let new_mem = rows("MEM", 0.4, "train-dev");
        assert_eq!(
            compare(&dqn, &new_mem, None).unwrap().learned_differently,
            None
        );
        let explicit = rows("MEM", 0.4, "train");
        assert_eq!(
            compare(&old_mem, &explicit, None)
                .unwrap()
                .learned_differently,
            None
        );
    }
}
