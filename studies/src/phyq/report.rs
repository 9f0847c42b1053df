//! The report of a finished run: its figures, the `--json` line and the Markdown summary.

use super::results::Row;
use super::score::{
    paper_agreement, paper_template_rate, pass_rate, per_scenario, per_template, phyq_score,
    scenario_names, Agreement,
};
use super::types::{AgentName, AttemptRule, Params, Setting};
use phyq::playdata::SCENARIOS;
use phyq::templates::Role;
use std::fmt::Write as _;

/// The figures of a finished run.
#[derive(Clone, Debug, PartialEq)]
pub struct Figures {
    pub tasks: usize,
    pub pass_rate: f64,
    pub per_scenario: [Option<f64>; SCENARIOS],
    /// Per template (the paper's order): hierarchy code and pass rate.
    pub per_template: Vec<(String, f64)>,
    /// Broad setting with every scored scenario and a random reference: the Phy-Q score.
    pub phyq_score: Option<f64>,
    /// Beside the paper's same agent ([`paper_agreement`]).
    pub paper_agreement: Option<Agreement>,
}

/// The figures of `rows` under `params`; `random` is the random agent's per-scenario rates in
/// the broad setting (Z_random; a random broad run is its own reference, so it scores 0).
pub fn figures(params: &Params, rows: &[Row], random: &[Option<f64>; SCENARIOS]) -> Figures {
    let per = per_scenario(rows);
    let phyq_score = match (params.setting, params.agent) {
        (Setting::Broad, AgentName::Random) => phyq_score(&per, &per),
        (Setting::Broad, _) => phyq_score(&per, random),
        _ => None,
    };
    Figures {
        tasks: rows.len(),
        pass_rate: pass_rate(rows),
        per_scenario: per,
        per_template: per_template(rows)
            .into_iter()
            .map(|(t, _, r)| (t.code.clone(), r))
            .collect(),
        phyq_score,
        paper_agreement: paper_agreement(params.agent, rows, &per),
    }
}

/// The plot's series (the paper's Figure 4a for this agent): the pass rate per scenario of the
/// paper's humans and of this run's agent, each with its legend.
pub fn scenario_series(params: &Params, f: &Figures) -> Vec<(String, Vec<Option<f64>>)> {
    let humans = phyq::playdata::humans()
        .iter()
        .map(|h| Some(h.pass_rate))
        .collect();
    debug_assert_eq!(f.per_scenario.len(), SCENARIOS);
    vec![
        ("humans (paper, original game)".to_string(), humans),
        (
            format!(
                "{} (rephyre, {})",
                params.agent.word(),
                params.setting.word()
            ),
            f.per_scenario.to_vec(),
        ),
    ]
}

/// The figures as one JSON object (the `--json` line).
pub fn json_line(params: &Params, f: &Figures) -> String {
    let per: serde_json::Map<String, serde_json::Value> = f
        .per_scenario
        .iter()
        .enumerate()
        .filter_map(|(i, r)| r.map(|r| ((i + 1).to_string(), serde_json::json!(r))))
        .collect();
    serde_json::json!({
        "agent": params.agent.word(),
        "setting": params.setting.word(),
        "attempts": params.attempts,
        "attempt_rule": params.attempt_rule.word(),
        "seed": params.seed,
        "tasks": f.tasks,
        "pass_rate": f.pass_rate,
        "per_scenario": per,
        "per_template": f
            .per_template
            .iter()
            .map(|(c, r)| (c.clone(), serde_json::json!(r)))
            .collect::<serde_json::Map<String, serde_json::Value>>(),
        "phyq_score": f.phyq_score,
        "paper_agreement": f.paper_agreement,
    })
    .to_string()
}

fn percent(r: f64) -> String {
    format!("{:.1}", r * 100.0)
}

/// The Markdown report: per scenario beside the paper's humans and agents (measured on the
/// original game), the score, and per template.
pub fn summary_markdown(params: &Params, rows: &[Row], f: &Figures) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Phy-Q evaluation: {} agent, {} setting\n\n{} test tasks, {} (seed {}); pass rate over tasks {} %.\n",
        params.agent.word(),
        params.setting.word(),
        f.tasks,
        match params.attempt_rule {
            AttemptRule::Every => format!("{} attempts each", params.attempts),
            AttemptRule::UntilPass => format!(
                "attempts until the first pass, at most {} (a task passed at attempt k: 1/k)",
                params.attempts
            ),
        },
        params.seed,
        percent(f.pass_rate)
    );
    match f.phyq_score {
        Some(s) => {
            let _ = writeln!(out, "**Phy-Q score: {s:.1}** (humans 100, this project's random agent 0; scenarios 3–15).\n");
        }
        None if params.setting == Setting::Broad => {
            let _ = writeln!(out, "No Phy-Q score: it needs every scenario from 3 to 15 and the random agent's reference.\n");
        }
        None => {}
    }
    let paper = phyq::playdata::paper_agents();
    let _ = write!(out, "## Pass rate per scenario (%)\n\nThis agent on rephyre's tasks, then the paper's humans and agents on the original game (broad setting).\n\n| scenario | tasks | **{} (rephyre)** |", params.agent.word());
    for a in paper {
        let _ = write!(out, " {} (paper) |", a.name);
    }
    out.push_str("\n|---|---|---|");
    out.push_str(&"---|".repeat(paper.len()));
    out.push('\n');
    let names = scenario_names();
    for (s, name) in names.iter().enumerate() {
        let n = rows
            .iter()
            .filter(|r| usize::from(r.scenario) == s + 1)
            .count();
        let mine = f.per_scenario[s].map_or("–".to_string(), percent);
        let _ = write!(out, "| {} {name} | {n} | **{mine}** |", s + 1);
        for a in paper {
            let _ = write!(out, " {} |", percent(a.pass_rates[s]));
        }
        out.push('\n');
    }
    // The scores: this agent's against this project's random agent, the paper's against the
    // paper's random agent (each on its own game).
    let of_paper = |name: &str| {
        paper
            .iter()
            .find(|a| a.name == name)
            .map(|a| a.pass_rates.map(Some))
    };
    let paper_random = of_paper("Random Agent");
    let score_text = |s: Option<f64>| s.map_or("–".to_string(), |s| format!("{s:.1}"));
    let _ = write!(
        out,
        "| **Phy-Q score** | | **{}** |",
        score_text(f.phyq_score)
    );
    for a in paper {
        let s = paper_random
            .as_ref()
            .and_then(|r| phyq_score(&a.pass_rates.map(Some), r));
        let _ = write!(out, " {} |", score_text(s));
    }
    out.push('\n');
    if let Some(a) = f.paper_agreement.as_ref().filter(|a| a.by == "scenario") {
        let _ = writeln!(
            out,
            "\nBeside the paper's Random Agent per scenario: {} scenarios, mean |difference| {:.3}, Pearson {}, {} within 0.15.",
            a.compared,
            a.mean_abs_diff,
            a.pearson.map_or("–".to_string(), |p| format!("{p:.3}")),
            a.within_0_15
        );
    }
    let other = rows.iter().filter(|r| r.scenario == 0).count();
    if other > 0 {
        let _ = writeln!(
            out,
            "\n{other} tasks without a template are in the overall rate only."
        );
    }
    let with_paper = paper_template_rate(params.agent, "1_1_1").is_some();
    out.push_str("\n## Per template\n\n");
    if let Some(a) = f.paper_agreement.as_ref().filter(|a| a.by == "template") {
        let _ = writeln!(
            out,
            "Beside the paper's Pig Shooter per template (its local-generalization test on the original game: tasks 81–100, 5 attempts each): {} templates, mean |difference| {:.3}, Pearson {}, {} within 0.15.\n",
            a.compared,
            a.mean_abs_diff,
            a.pearson.map_or("–".to_string(), |p| format!("{p:.3}")),
            a.within_0_15
        );
    }
    out.push_str("| template | scenario | role | tasks | pass rate (%) |");
    out.push_str(if with_paper {
        " paper's Pig Shooter (%) |\n|---|---|---|---|---|---|\n"
    } else {
        "\n|---|---|---|---|---|\n"
    });
    for (t, n, rate) in per_template(rows) {
        let role = match t.role {
            Role::Train => "train",
            Role::Test => "test",
        };
        let _ = write!(
            out,
            "| {} ({}) | {} | {role} | {n} | {} |",
            t.paper,
            t.code,
            t.scenario,
            percent(rate)
        );
        if with_paper {
            let p = paper_template_rate(params.agent, &t.code);
            let _ = write!(out, " {} |", p.map_or("–".to_string(), percent));
        }
        out.push('\n');
    }
    let errors: Vec<&Row> = rows.iter().filter(|r| !r.error.is_empty()).collect();
    if !errors.is_empty() {
        let _ = writeln!(out, "\n{} tasks could not be played:", errors.len());
        for r in errors {
            let _ = writeln!(out, "- {}: {}", r.task_id, r.error);
        }
    }
    out
}
