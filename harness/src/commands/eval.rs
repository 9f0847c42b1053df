//! `rephyre eval`: the paper's agents on the evaluation setups and folds (AUCCESS, success@10),
//! and `rephyre compare`: one-sided Wilcoxon signed-rank test over paired folds.
//!
//! Every agent here acts on one fixed action set per tier (`--actions N` actions from
//! `--seed`). The status of every (task, action) pair of the tier is computed once, in parallel,
//! checkpointed and resumable (`--cache FILE`), and shared by every agent, setup and fold.

use super::Ctx;
use crate::cli::{CompareArgs, EvalArgs};
use crate::output::{check_writable, write_atomic};
use crate::runner::{self, RunConfig, TaskJob};
use agents::auccess::{auccess, success_at, success_curve, SolvedAt};
use agents::{
    evaluate, ActionSet, Agent, Mem, MemO, Optimal, Rand, Status, StatusTable, MAX_ATTEMPTS,
};
use anyhow::{bail, Context, Result};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::time::Instant;
use tasks::{Setup, Task, Tier};

/// The paper's Table 1 AUCCESS (B cross, B within, 2B cross, 2B within) for comparison.
const PAPER: [(&str, [Option<f64>; 4]); 3] = [
    ("RAND", [Some(13.0), Some(13.7), Some(2.6), Some(3.6)]),
    ("MEM", [Some(18.5), Some(2.4), Some(3.7), Some(3.2)]),
    ("MEM-O", [Some(22.8), None, Some(4.9), None]),
];

fn setups(name: &str) -> Result<Vec<Setup>> {
    if name == "all" {
        return Ok(Setup::ALL.to_vec());
    }
    Ok(vec![name
        .parse::<Setup>()
        .map_err(|e| anyhow::anyhow!("{e}"))?])
}

fn tier_of(setup: Setup) -> Tier {
    if setup.to_string().starts_with("two_balls") {
        Tier::TwoBalls
    } else {
        Tier::Ball
    }
}

fn within(setup: Setup) -> bool {
    setup.to_string().ends_with("within_template")
}

fn parse_folds(text: &str) -> Result<Vec<u32>> {
    let mut out = Vec::new();
    for part in text.split(',') {
        let part = part.trim();
        let (a, b) = part.split_once('-').unwrap_or((part, part));
        let (a, b): (u32, u32) = (
            a.parse().context("bad --folds")?,
            b.parse().context("bad --folds")?,
        );
        if a > b || b >= tasks::folds::FOLDS {
            bail!("--folds takes folds 0-9, e.g. 0-9 or 0,3,5");
        }
        out.extend(a..=b);
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// Computing one tier's status table: one runner task per PHYRE task, batches of actions.
struct TableJob<'a> {
    tasks: Vec<&'a Task>,
    set: ActionSet,
    tier: Tier,
    /// Names everything that determines the table's columns, see [`TableJob::new`].
    fingerprint: String,
}

impl<'a> TableJob<'a> {
    fn new(tasks: Vec<&'a Task>, set: ActionSet, tier: Tier) -> Result<TableJob<'a>> {
        // The action count is left out: a set is a prefix of every larger set of the same seed
        // and tier, so a table of N actions is the first N columns of a larger one, and a cache
        // serves any --actions (computing only the columns it lacks). The tasks' full content
        // is in, so a --tasks file with the same ids and other scenes is not served stale rows.
        let fingerprint = format!(
            "eval-table-3 rephyre-{} tier {} seed {} {}",
            env!("CARGO_PKG_VERSION"),
            tier,
            set.seed,
            super::tasks_fingerprint(&tasks)?
        );
        Ok(TableJob {
            tasks,
            set,
            tier,
            fingerprint,
        })
    }
}

#[derive(Clone, Default, Serialize, Deserialize)]
struct Row {
    codes: Vec<u8>,
}

const BATCH: usize = 64;

impl TaskJob for TableJob<'_> {
    type State = Row;
    fn len(&self) -> usize {
        self.tasks.len()
    }
    fn fingerprint(&self) -> String {
        self.fingerprint.clone()
    }
    fn advance(&self, task: usize, row: &mut Row) -> bool {
        let t = self.tasks[task];
        let end = (row.codes.len() + BATCH).min(self.set.len()) as u64;
        // The batch's actions are simulated in parallel (all of them are used) and stored in
        // order.
        runner::ordered_speculative(
            row,
            |row| (row.codes.len() < end as usize).then_some(row.codes.len() as u64),
            |row| end - row.codes.len() as u64,
            |a| {
                let s = match crate::parity::status_of(t, self.tier, &self.set.actions[a as usize])
                {
                    0 => Status::Invalid,
                    1 => Status::Solved,
                    _ => Status::NotSolved,
                };
                s.code()
            },
            |row, _, code| row.codes.push(code),
        );
        row.codes.len() >= self.set.len()
    }
    fn simulations(&self, row: &Row) -> u64 {
        row.codes.len() as u64
    }
    fn restored_finished(&self, _: usize, _: bool, row: &Row) -> bool {
        row.codes.len() >= self.set.len()
    }
}

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
}

fn make_agent(name: &str, setup: Setup, actions: usize, seed: u64) -> Result<Box<dyn Agent>> {
    Ok(match name {
        "rand" => Box::new(Rand::new(seed, actions)),
        "mem" => Box::new(Mem::new(actions, within(setup))),
        "memo" => Box::new(MemO::new(actions)),
        "optimal" => Box::new(Optimal::new(actions)),
        other => bail!("unknown agent {other:?} (rand, mem, memo, optimal, all)"),
    })
}

pub fn run(ctx: &Ctx, a: EvalArgs) -> Result<()> {
    let set = ctx.task_set()?;
    let setups = setups(&a.setup)?;
    let folds = parse_folds(&a.folds)?;
    let agent_names: Vec<&str> = if a.agent == "all" {
        vec!["rand", "mem", "memo", "optimal"]
    } else {
        vec![a.agent.as_str()]
    };
    for n in &agent_names {
        make_agent(n, setups[0], 1, 0)?;
    }
    if a.split != "test" && a.split != "dev" {
        bail!("--split takes test or dev");
    }
    if a.actions == 0 {
        bail!("--actions must be at least 1");
    }
    let outs: Vec<&std::path::Path> =
        [Some(a.out.as_path()), a.table.as_deref(), a.plot.as_deref()]
            .into_iter()
            .flatten()
            .collect();
    for p in &outs {
        check_writable(p)?;
    }
    let mut results: Vec<FoldResult> = Vec::new();
    let mut curves: Vec<(String, Vec<f64>)> = Vec::new();
    let mut tiers: Vec<Tier> = setups.iter().map(|s| tier_of(*s)).collect();
    tiers.dedup();
    for tier in tiers {
        let tier_tasks: Vec<&Task> = set.tier(tier).collect();
        if tier_tasks.is_empty() {
            bail!("the task set has no {tier} tasks");
        }
        let action_set = ActionSet::new(a.seed, tier, a.actions);
        let job = TableJob::new(tier_tasks.clone(), action_set, tier)?;
        let cache = a
            .cache
            .as_ref()
            .map(|c| c.with_extension(format!("{tier}.ckpt")));
        let started = Instant::now();
        let rows = runner::run(
            &job,
            &RunConfig {
                threads: ctx.threads,
                checkpoint: cache.clone(),
                resume: cache.is_some(),
                progress: ctx.progress,
                ..Default::default()
            },
        )?;
        let table = StatusTable {
            actions: a.actions,
            templates: tier_tasks.iter().map(|t| t.id().template()).collect(),
            // A cached row may be longer than this run's set; its first columns are this set's.
            codes: rows
                .into_iter()
                .flat_map(|mut r| {
                    r.codes.truncate(a.actions);
                    r.codes
                })
                .collect(),
        };
        let invalid = table
            .codes
            .iter()
            .filter(|&&c| c == Status::Invalid.code())
            .count();
        // The original's set is invalid on 27 % (ball) / 50 % (two balls) of pairs (SPEC §9).
        eprintln!(
            "{tier}: outcome table of {} tasks × {} actions in {:.1} s; {:.1} % of the pairs invalid",
            tier_tasks.len(),
            a.actions,
            started.elapsed().as_secs_f64(),
            100.0 * invalid as f64 / table.codes.len().max(1) as f64
        );
        let index_of = |id: &tasks::TaskId| tier_tasks.binary_search_by(|t| t.id().cmp(id)).ok();
        for &setup in setups.iter().filter(|s| tier_of(**s) == tier) {
            for name in &agent_names {
                let per_fold: Vec<(FoldResult, Vec<SolvedAt>)> = ctx.pool()?.install(|| {
                    folds
                        .par_iter()
                        .map(|&fold| -> Result<(FoldResult, Vec<SolvedAt>)> {
                            let split = tasks::folds::split_tasks(set, setup, fold)
                                .map_err(|e| anyhow::anyhow!("{e}"))?;
                            let ids = |v: &[tasks::TaskId]| -> Vec<usize> {
                                v.iter().filter_map(&index_of).collect()
                            };
                            let (train, dev, test) =
                                (ids(&split.train), ids(&split.dev), ids(&split.test));
                            let evaluated = if a.split == "dev" { &dev } else { &test };
                            let t0 = Instant::now();
                            let mut agent = make_agent(name, setup, a.actions, a.seed)?;
                            agent.train(&table, &train, &dev);
                            let solved = evaluate(agent.as_mut(), &table, evaluated);
                            Ok((
                                FoldResult {
                                    agent: agent.name().to_string(),
                                    setup: setup.to_string(),
                                    fold,
                                    split: a.split.clone(),
                                    tasks: evaluated.len(),
                                    auccess: auccess(&solved, MAX_ATTEMPTS),
                                    success_at_10: success_at(&solved, 10),
                                    seconds: t0.elapsed().as_secs_f64(),
                                    actions: a.actions,
                                },
                                solved,
                            ))
                        })
                        .collect::<Result<Vec<_>>>()
                })?;
                let all_solved: Vec<SolvedAt> = per_fold
                    .iter()
                    .flat_map(|(_, s)| s.iter().copied())
                    .collect();
                curves.push((
                    format!("{} {}", per_fold[0].0.agent, setup),
                    success_curve(&all_solved, MAX_ATTEMPTS),
                ));
                results.extend(per_fold.into_iter().map(|(r, _)| r));
            }
        }
    }
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in &results {
        w.serialize(r)?;
    }
    write_atomic(&a.out, &w.into_inner().context("csv")?)?;
    let table = table_markdown(&results);
    print!("{table}");
    if let Some(p) = &a.table {
        write_atomic(p, table.as_bytes())?;
    }
    if let Some(p) = &a.plot {
        write_atomic(p, super::plot::success_curves_svg(&curves)?.as_bytes())?;
    }
    Ok(())
}

fn mean_std(v: &[f64]) -> (f64, f64) {
    let n = v.len().max(1) as f64;
    let m = v.iter().sum::<f64>() / n;
    let var = v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / n;
    (m, var.sqrt())
}

/// Mean ± std AUCCESS (×100) per agent and setup, beside the paper's Table 1.
pub fn table_markdown(results: &[FoldResult]) -> String {
    let setups = [
        "ball_cross_template",
        "ball_within_template",
        "two_balls_cross_template",
        "two_balls_within_template",
    ];
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
                let (m, sd) = mean_std(&v);
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
        let _ = writeln!(s, "\nAUCCESS × 100, mean ± std over folds {folds:?} ({} split); {} actions in the agents' action set.", r.split, r.actions);
    }
    s
}

pub fn compare(_ctx: &Ctx, a: CompareArgs) -> Result<()> {
    let read = |p: &std::path::Path| -> Result<Vec<FoldResult>> {
        let mut r =
            csv::Reader::from_path(p).with_context(|| format!("cannot read {}", p.display()))?;
        r.deserialize()
            .collect::<Result<Vec<FoldResult>, _>>()
            .with_context(|| format!("{} is not an eval results file", p.display()))
    };
    let (ra, rb) = (read(&a.a)?, read(&a.b)?);
    for (rows, p) in [(&ra, &a.a), (&rb, &a.b)] {
        if rows.is_empty() {
            bail!("{} holds no results", p.display());
        }
        if rows.iter().any(|r| r.agent != rows[0].agent) {
            bail!(
                "{} holds several agents; write one file per agent (rephyre eval --agent NAME)",
                p.display()
            );
        }
    }
    let mut xs = Vec::new();
    let mut ys = Vec::new();
    for x in ra
        .iter()
        .filter(|r| a.setup.as_ref().is_none_or(|s| &r.setup == s))
    {
        if let Some(y) = rb
            .iter()
            .find(|y| y.setup == x.setup && y.fold == x.fold && y.split == x.split)
        {
            xs.push(x.auccess);
            ys.push(y.auccess);
        }
    }
    if xs.is_empty() {
        bail!("the two files share no (setup, fold) pair");
    }
    let name = |r: &[FoldResult]| r.first().map_or(String::new(), |f| f.agent.clone());
    match agents::wilcoxon::wilcoxon_greater(&xs, &ys) {
        None => println!(
            "{} vs {}: {} paired folds, all differences zero: no evidence either way",
            name(&ra),
            name(&rb),
            xs.len()
        ),
        Some(w) => println!(
            "{} > {}: {} paired folds, T+ = {}, one-sided p = {:.6} ({}) → {}",
            name(&ra),
            name(&rb),
            w.n,
            w.t_plus,
            w.p_value,
            if w.exact {
                "exact"
            } else {
                "normal approximation"
            },
            if w.p_value < 0.01 {
                "significant at 0.01"
            } else {
                "not significant at 0.01"
            }
        ),
    }
    Ok(())
}
