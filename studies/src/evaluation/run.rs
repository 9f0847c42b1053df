//! The run: what an evaluation covers ([`Params`]), its outcome tables computed or read from
//! the cache, every agent on every setup and fold of them (checkpointed per fold), and the
//! [`Report`] with its CSV files.

use super::checkpoint::{ResultsCheckpoint, Unit};
#[cfg(feature = "dqn")]
use super::dqn;
use super::results::FoldResult;
use super::tables::{table_tiers, TableJob};
use super::types::{AgentKind, EvalSplit, LearnFrom};
use crate::runner::{self, RunConfig};
use crate::selection::tasks_fingerprint;
use agents::auccess::{auccess, success_at, success_curve, SolvedAt};
use agents::{evaluate, ActionSet, Agent, Status, StatusTable, MAX_ATTEMPTS};
use anyhow::{bail, Context, Result};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::time::Instant;
use tasks::{Setup, Task, TaskSet, Tier};

/// What an evaluation covers.
#[derive(Clone, Debug)]
pub struct Params {
    pub setups: Vec<Setup>,
    pub agents: Vec<AgentKind>,
    /// Folds (0-9).
    pub folds: Vec<u32>,
    pub split: EvalSplit,
    /// What the trained agents learn from ([`LearnFrom::TrainAndDev`] needs the test split).
    pub learn: LearnFrom,
    /// Size of the agents' fixed action set per tier.
    pub actions: usize,
    /// Seed of the action set and of RAND's orders.
    pub seed: u64,
    /// The outcome tables are checkpointed to `cache.<tier>.ckpt` and resumed from it.
    pub cache: Option<PathBuf>,
    /// Every finished (agent, setup, fold) is saved here as it finishes.
    pub checkpoint: Option<PathBuf>,
    /// Take the (agent, setup, fold) results `checkpoint` holds instead of running them again.
    pub resume: bool,
    /// How DQN and DQN-O train (`None`: they cannot be among `agents`).
    #[cfg(feature = "dqn")]
    pub dqn: Option<dqn::DqnParams>,
}

/// How an outcome table came out.
#[derive(Clone, Debug, PartialEq)]
pub struct TableSummary {
    pub tier: Tier,
    pub tasks: usize,
    pub actions: usize,
    /// Share of the (task, action) pairs that are invalid (the original's: 27 % ball, 50 %
    /// two balls, SPEC §9).
    pub invalid_share: f64,
    pub seconds: f64,
}

/// An evaluation's results.
#[derive(Clone, Debug)]
pub struct Report {
    /// One per (setup, agent, fold), in that order.
    pub results: Vec<FoldResult>,
    /// Per (agent, setup): its name and the success curve over all its folds' tasks.
    pub curves: Vec<(String, Vec<f64>)>,
    /// The outcome table of each tier used.
    pub tables: Vec<TableSummary>,
    /// Every evaluated task of every (setup, agent, fold), in the results' order, each fold's
    /// tasks in id order.
    pub tasks: Vec<TaskResult>,
    /// How many of the (setup, agent, fold) results were taken from the checkpoint.
    pub restored: usize,
}

/// How one agent did on one evaluated task.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskResult {
    pub agent: String,
    pub setup: String,
    pub fold: u32,
    pub split: String,
    /// The task's id (`00012:345`).
    pub task: String,
    /// The attempt (1 to 100, invalid ones not counted) that solved it; none when unsolved.
    pub solved_at: Option<u32>,
}

/// How many of the set's actions each tier's table holds: the ranked ones, or more when the
/// DQNs train on more (`--dqn-train-actions`).
fn table_columns(params: &Params) -> Result<usize> {
    #[cfg(feature = "dqn")]
    if let Some(p) = &params.dqn {
        if params.agents.iter().any(|k| k.is_dqn()) {
            for setup in &params.setups {
                p.check(*setup)?;
            }
            return p.training_actions(params.actions);
        }
    }
    Ok(params.actions)
}

/// What every (agent, setup, fold) result of an evaluation depends on besides the agent, setup
/// and fold: a checkpoint serves only a run of the same fingerprint. An agent's own
/// configuration is its units' ([`agent_config`]).
fn results_fingerprint(set: &TaskSet, params: &Params) -> Result<String> {
    let all: Vec<&Task> = set.tasks().iter().collect();
    Ok(format!(
        "eval-results-2 rephyre-{} split {}{} actions {} seed {} tasks {}",
        env!("CARGO_PKG_VERSION"),
        params.split.name(),
        // Unchanged for the training tasks alone, so checkpoints written before the choice
        // existed resume under it.
        match params.learn {
            LearnFrom::Train => "",
            LearnFrom::TrainAndDev => " learning from train+dev",
        },
        params.actions,
        params.seed,
        tasks_fingerprint(&all)?,
    ))
}

/// The configuration an agent's results on `setup` depend on beyond the run's fingerprint: a
/// DQN's training configuration; nothing for the untrained agents.
fn agent_config(params: &Params, kind: AgentKind, setup: Setup) -> Result<String> {
    #[cfg(feature = "dqn")]
    if let (true, Some(p)) = (kind.is_dqn(), &params.dqn) {
        return p.fingerprint(setup);
    }
    let _ = (params, kind, setup);
    Ok(String::new())
}

/// Evaluate every agent on every setup and fold of `params` (the agents run in parallel over the
/// folds on `cfg.threads` workers; the outcome tables on the runner).
pub fn run(set: &TaskSet, params: &Params, cfg: &RunConfig) -> Result<Report> {
    if params.actions == 0 {
        bail!("--actions must be at least 1");
    }
    if params.learn == LearnFrom::TrainAndDev && params.split != EvalSplit::Test {
        bail!(
            "--learn-from train-dev needs --split test (on the {} split the dev tasks are not held out)",
            params.split.name()
        );
    }
    let columns = table_columns(params)?;
    let pool = runner::pool(cfg.threads)?;
    let mut results: Vec<FoldResult> = Vec::new();
    let mut curves: Vec<(String, Vec<f64>)> = Vec::new();
    let mut tables = Vec::new();
    let mut task_results = Vec::new();
    let mut restored = 0;
    let checkpoint = match &params.checkpoint {
        Some(path) => Some(ResultsCheckpoint::open(
            path,
            results_fingerprint(set, params)?,
            params.resume,
        )?),
        None => None,
    };
    for tier in table_tiers(&params.setups) {
        let tier_tasks: Vec<&Task> = set.tier(tier).collect();
        if tier_tasks.is_empty() {
            bail!("the task set has no {tier} tasks");
        }
        let action_set = ActionSet::new(params.seed, tier, columns);
        let job = TableJob::new(tier_tasks.clone(), action_set.clone(), tier)?;
        let cache = params
            .cache
            .as_ref()
            .map(|c| c.with_extension(format!("{tier}.ckpt")));
        let started = Instant::now();
        let rows = runner::run(
            &job,
            &RunConfig {
                checkpoint: cache.clone(),
                resume: cache.is_some(),
                ..cfg.clone()
            },
        )?;
        let templates: Vec<u32> = tier_tasks.iter().map(|t| t.id().template()).collect();
        // A cached row may be longer than this run's set; its first columns are this set's.
        let first_columns = |n: usize| StatusTable {
            actions: n,
            templates: templates.clone(),
            codes: rows
                .iter()
                .flat_map(|r| r.codes[..n].iter().copied())
                .collect(),
        };
        let table = first_columns(params.actions);
        #[cfg(feature = "dqn")]
        let training_table = (columns > params.actions).then(|| first_columns(columns));
        drop(rows);
        let invalid = table
            .codes
            .iter()
            .filter(|&&c| c == Status::Invalid.code())
            .count();
        tables.push(TableSummary {
            tier,
            tasks: tier_tasks.len(),
            actions: params.actions,
            invalid_share: invalid as f64 / table.codes.len().max(1) as f64,
            seconds: started.elapsed().as_secs_f64(),
        });
        let mut tier_run = TierRun {
            set,
            params,
            pool: &pool,
            checkpoint: checkpoint.as_ref(),
            tier_tasks: &tier_tasks,
            table: &table,
            #[cfg(feature = "dqn")]
            training_table: training_table.as_ref(),
            #[cfg(feature = "dqn")]
            action_set: &action_set,
            #[cfg(feature = "dqn")]
            dqn_context: None,
        };
        for &setup in params.setups.iter().filter(|s| s.tier() == tier) {
            for &kind in &params.agents {
                let (per_fold, from_checkpoint) = tier_run.folds_of(setup, kind)?;
                restored += from_checkpoint;
                let all_solved: Vec<SolvedAt> = per_fold
                    .iter()
                    .flat_map(|(_, s, _)| s.iter().copied())
                    .collect();
                curves.push((
                    format!("{} {}", per_fold[0].0.agent, setup),
                    success_curve(&all_solved, MAX_ATTEMPTS),
                ));
                for (r, solved, evaluated) in per_fold {
                    task_results.extend(evaluated.iter().zip(&solved).map(|(&i, &at)| {
                        TaskResult {
                            agent: r.agent.clone(),
                            setup: r.setup.clone(),
                            fold: r.fold,
                            split: r.split.clone(),
                            task: tier_tasks[i].id().to_string(),
                            solved_at: at,
                        }
                    }));
                    results.push(r);
                }
            }
        }
    }
    Ok(Report {
        results,
        curves,
        tables,
        tasks: task_results,
        restored,
    })
}

/// A fold's result, the solving attempt of each evaluated task, and those tasks (indices into the
/// tier's tasks).
type FoldRun = (FoldResult, Vec<SolvedAt>, Vec<usize>);

/// What the (setup, agent) runs of one tier share: its tasks, its outcome table, the checkpoint
/// and the pool.
struct TierRun<'a> {
    set: &'a TaskSet,
    params: &'a Params,
    pool: &'a rayon::ThreadPool,
    checkpoint: Option<&'a ResultsCheckpoint>,
    /// The tier's tasks, in id order.
    tier_tasks: &'a [&'a Task],
    /// The statuses of the ranked action set (`params.actions` columns).
    table: &'a StatusTable,
    /// The statuses DQN trains on when it trains on more actions than are ranked.
    #[cfg(feature = "dqn")]
    training_table: Option<&'a StatusTable>,
    #[cfg(feature = "dqn")]
    action_set: &'a ActionSet,
    /// The observations DQN needs, built at the first DQN fold that runs (never when every DQN
    /// fold is restored from the checkpoint).
    #[cfg(feature = "dqn")]
    dqn_context: Option<std::sync::Arc<agents::dqn::DqnContext>>,
}

impl TierRun<'_> {
    /// The fold's evaluated tasks and the training and dev tasks the agent learns from
    /// (indices into the tier's tasks).
    fn fold_tasks(&self, setup: Setup, fold: u32) -> Result<[Vec<usize>; 3]> {
        let split = tasks::folds::split_tasks(self.set, setup, fold)?;
        let ids = |v: &[tasks::TaskId]| -> Vec<usize> {
            v.iter()
                .filter_map(|id| self.tier_tasks.binary_search_by(|t| t.id().cmp(id)).ok())
                .collect()
        };
        let (train, dev, test) = (ids(&split.train), ids(&split.dev), ids(&split.test));
        Ok(match self.params.split {
            EvalSplit::Dev => [dev.clone(), train, dev],
            EvalSplit::Test => [test, train, dev],
            EvalSplit::Train => [train.clone(), train, dev],
        })
    }

    fn fold_result(
        &self,
        setup: Setup,
        fold: u32,
        (agent, tuned): (String, String),
        seconds: f64,
        solved: &[SolvedAt],
    ) -> FoldResult {
        FoldResult {
            agent,
            setup: setup.to_string(),
            fold,
            split: self.params.split.name().to_string(),
            tasks: solved.len(),
            auccess: auccess(solved, MAX_ATTEMPTS),
            success_at_10: success_at(solved, 10),
            seconds,
            actions: self.params.actions,
            tuned,
            learned_from: self.params.learn.name().to_string(),
        }
    }

    /// Every fold of (`setup`, `kind`) in fold order: those the checkpoint holds restored, the
    /// others run (in parallel over the folds) and saved to it as each finishes; and how many
    /// were restored.
    fn folds_of(&mut self, setup: Setup, kind: AgentKind) -> Result<(Vec<FoldRun>, usize)> {
        let kind_key = format!("{kind:?}");
        let setup_name = setup.to_string();
        let config = agent_config(self.params, kind, setup)?;
        let mut done: Vec<(u32, FoldRun)> = Vec::new();
        let mut pending: Vec<u32> = Vec::new();
        for &fold in &self.params.folds {
            match self
                .checkpoint
                .and_then(|c| c.finished(&kind_key, &setup_name, fold, &config))
            {
                Some(u) => {
                    let [evaluated, _, _] = self.fold_tasks(setup, fold)?;
                    if u.solved.len() != evaluated.len() {
                        bail!(
                            "corrupt checkpoint: {kind_key} {setup_name} fold {fold} holds {} tasks, the split {}",
                            u.solved.len(),
                            evaluated.len()
                        );
                    }
                    let r = self.fold_result(setup, fold, (u.agent, u.tuned), u.seconds, &u.solved);
                    done.push((fold, (r, u.solved, evaluated)));
                }
                None => pending.push(fold),
            }
        }
        let restored = done.len();
        #[cfg(feature = "dqn")]
        let dqn_context = match (&self.params.dqn, kind.is_dqn() && !pending.is_empty()) {
            (Some(p), true) => Some(match &self.dqn_context {
                Some(c) => c.clone(),
                None => {
                    let c = dqn::context(self.tier_tasks, self.action_set, self.params.actions, p)?;
                    self.dqn_context = Some(c.clone());
                    c
                }
            }),
            _ => None,
        };
        let this = &*self;
        // DQN folds run one per thread; threads beyond the folds rank their test tasks.
        #[cfg(feature = "dqn")]
        let rank_threads = {
            let threads = this.pool.current_num_threads().max(1);
            (threads / threads.min(pending.len().max(1))).max(1)
        };
        let run_fold = |&fold: &u32| -> Result<FoldRun> {
            let [evaluated, train, dev] = this.fold_tasks(setup, fold)?;
            let t0 = Instant::now();
            let params = this.params;
            // Settings are chosen on the dev tasks with the training tasks alone; the agent then
            // learns from `learn`.
            let learn: Vec<usize> = match params.learn {
                LearnFrom::Train => train.clone(),
                LearnFrom::TrainAndDev => {
                    let mut both: Vec<usize> = train.iter().chain(&dev).copied().collect();
                    both.sort_unstable();
                    both.dedup();
                    both
                }
            };
            let mut agent: Box<dyn Agent> = match kind.make(setup, params.actions, params.seed) {
                Some(mut a) => {
                    a.train(this.table, &train, &dev);
                    if params.learn == LearnFrom::TrainAndDev {
                        a.refit(this.table, &learn);
                    }
                    a
                }
                #[cfg(feature = "dqn")]
                None => {
                    let (Some(p), Some(ctx)) = (&params.dqn, &dqn_context) else {
                        bail!("DQN agents need their training parameters");
                    };
                    dqn::fitted(
                        kind,
                        ctx,
                        p,
                        this.training_table.unwrap_or(this.table),
                        (&learn, params.learn),
                        setup,
                        fold,
                        params.seed,
                        rank_threads,
                    )?
                }
                #[cfg(not(feature = "dqn"))]
                None => bail!("{kind:?} needs the `dqn` feature"),
            };
            let solved = evaluate(agent.as_mut(), this.table, &evaluated);
            let seconds = t0.elapsed().as_secs_f64();
            let (name, tuned) = (agent.name().to_string(), agent.tuned());
            if let Some(c) = this.checkpoint {
                c.record(Unit {
                    kind: kind_key.clone(),
                    setup: setup_name.clone(),
                    fold,
                    config: config.clone(),
                    agent: name.clone(),
                    tuned: tuned.clone(),
                    seconds,
                    solved: solved.clone(),
                })?;
            }
            let r = this.fold_result(setup, fold, (name, tuned), seconds, &solved);
            Ok((r, solved, evaluated))
        };
        let on_pool = || -> Result<Vec<FoldRun>> {
            this.pool
                .install(|| pending.par_iter().map(run_fold).collect())
        };
        #[cfg(feature = "dqn")]
        let ran: Vec<FoldRun> = if kind.is_dqn() {
            on_plain_threads(&pending, this.pool.current_num_threads(), run_fold)?
        } else {
            on_pool()?
        };
        #[cfg(not(feature = "dqn"))]
        let ran: Vec<FoldRun> = on_pool()?;
        done.extend(pending.iter().copied().zip(ran));
        done.sort_by_key(|(fold, _)| *fold);
        Ok((done.into_iter().map(|(_, r)| r).collect(), restored))
    }
}

/// `f` over the folds on `threads` plain threads (see [`agents::dqn::train::on_plain_threads`]),
/// results in the folds' order.
#[cfg(feature = "dqn")]
fn on_plain_threads<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(&T) -> Result<R> + Sync,
) -> Result<Vec<R>> {
    agents::dqn::train::on_plain_threads(items, threads, f)
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err(anyhow::anyhow!("a fold's worker thread failed"))))
        .collect()
}

impl Report {
    /// The per-fold results as CSV (the format [`read_results`] reads).
    ///
    /// [`read_results`]: super::read_results
    pub fn csv_bytes(&self) -> Result<Vec<u8>> {
        let mut w = csv::Writer::from_writer(Vec::new());
        for r in &self.results {
            w.serialize(r)?;
        }
        w.into_inner().context("csv")
    }

    /// Every evaluated task's result as CSV (`agent,setup,fold,split,task,solved_at`; an
    /// unsolved task's `solved_at` is empty).
    pub fn tasks_csv_bytes(&self) -> Result<Vec<u8>> {
        let mut w = csv::Writer::from_writer(Vec::new());
        for t in &self.tasks {
            w.serialize(t)?;
        }
        w.into_inner().context("csv")
    }
}
