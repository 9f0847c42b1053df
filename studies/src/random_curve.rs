//! `rephyre random-curve`: the PHYRE paper's Fig. 2a. A random agent tries random actions on
//! each task until one solves it or its valid attempts are used up (invalid actions are free);
//! the curve is the share of tasks solved within k attempts, mean and standard deviation over
//! independent runs.

use crate::runner::{self, RunConfig, TaskJob};
use crate::selection::tasks_fingerprint;
use crate::shard::{self, arg, tier_arg, Args, Merged, Part, Shard};
use crate::slurm::{Extra, Study};
use crate::stats::mean_and_sample_std;
use agents::auccess::{auccess, success_curve, SolvedAt};
use anyhow::Result;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::path::PathBuf;
use tasks::rng::{stream_of, uniform_vector};
use tasks::{validate_action, SimOptions, Task, TaskScene, TaskSet, Tier};

/// Draws per valid attempt allowed before a run on a task gives up (only a task where nearly
/// every action is invalid gets there; its remaining attempts count as unsolved).
const DRAWS_PER_ATTEMPT_CAP: u64 = 1000;

/// State of one task: the attempt that solved it in each run done so far.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct TaskState {
    pub solved_at: Vec<SolvedAt>,
    pub sims: u64,
}

/// One run in progress: next draw, valid attempts made, the attempt that solved the task.
#[derive(Default)]
struct RunState {
    index: u64,
    tried: u32,
    solved: SolvedAt,
}

/// How many draws to evaluate ahead: a quarter of the draws this run has made (at least 2, at
/// most 128), and no more than its attempts left. A run stops at its first solve, which cannot be
/// foreseen, and the draws evaluated past it are lost: at most a quarter of the draws made before
/// (2 for a short run), while a long run, the kind that would keep one core busy alone at the
/// end, is spread over the cores in chunks that grow with it.
fn speculation(r: &RunState, attempts: u32, cap: u64) -> u64 {
    (r.index / 4)
        .clamp(2, 128)
        .min(u64::from(attempts - r.tried))
        .min(cap - r.index)
}

struct Job<'a> {
    tasks: Vec<&'a Task>,
    tier: Tier,
    runs: u32,
    attempts: u32,
    seed: u64,
    /// The tasks' content ([`tasks_fingerprint`]).
    content: String,
}

impl TaskJob for Job<'_> {
    type State = TaskState;

    fn len(&self) -> usize {
        self.tasks.len()
    }

    fn fingerprint(&self) -> String {
        format!(
            "random-curve-1 rephyre-{} {} {} {} {} {}",
            env!("CARGO_PKG_VERSION"),
            self.tier,
            self.runs,
            self.attempts,
            self.seed,
            self.content
        )
    }

    /// One run of the agent on task `t`.
    fn advance(&self, t: usize, s: &mut TaskState) -> bool {
        let task = self.tasks[t];
        let run = s.solved_at.len();
        let stream = stream_of(&format!("random-curve/{run}/{}", task.id()));
        let cap = self.attempts as u64 * DRAWS_PER_ATTEMPT_CAP;
        // The loop `while tried < attempts && index < cap { draw index; stop at a solve }`, with
        // the draws evaluated ahead in parallel (the result is that loop's on any thread count).
        let mut r = RunState::default();
        let scene = TaskScene::new(task);
        runner::ordered_speculative(
            &mut r,
            |r| (r.solved.is_none() && r.tried < self.attempts && r.index < cap).then_some(r.index),
            |r| speculation(r, self.attempts, cap),
            |index| {
                let a = uniform_vector(self.seed, stream, index, self.tier.action_len());
                let v = validate_action(task, self.tier, &a).ok()?;
                Some(
                    scene
                        .simulate(&v, SimOptions::STATUS_ONLY)
                        .is_ok_and(|o| o.solved),
                )
            },
            |r, index, outcome| {
                r.index = index + 1;
                // Invalid actions are free.
                if let Some(solved) = outcome {
                    r.tried += 1;
                    if solved {
                        r.solved = Some(r.tried);
                    }
                }
            },
        );
        s.sims += r.tried as u64;
        s.solved_at.push(r.solved);
        s.solved_at.len() >= self.runs as usize
    }

    fn simulations(&self, s: &TaskState) -> u64 {
        s.sims
    }
}

/// The parameters of a random-curve run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    pub tier: Tier,
    /// Independent runs of the random agent.
    pub runs: u32,
    /// Valid attempts per task.
    pub attempts: u32,
    pub seed: u64,
}

/// The random agent's success curve over the tasks.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub params: Params,
    pub tasks: usize,
    /// `curves[run][k - 1]`: share of the tasks solved within `k` attempts in that run.
    pub curves: Vec<Vec<f64>>,
    /// AUCCESS of each run.
    pub aucs: Vec<f64>,
    /// (k, mean, sample standard deviation over the runs) for k = 1 ..= attempts.
    pub points: Vec<(u32, f64, f64)>,
}

fn job(tasks: Vec<&Task>, params: Params) -> Result<Job<'_>> {
    Ok(Job {
        content: tasks_fingerprint(&tasks)?,
        tasks,
        tier: params.tier,
        runs: params.runs,
        attempts: params.attempts,
        seed: params.seed,
    })
}

/// Run the random agent `params.runs` times on every task of `tasks`.
pub fn run(tasks: Vec<&Task>, params: Params, cfg: &RunConfig) -> Result<Report> {
    let job = job(tasks, params)?;
    let states = runner::run(&job, cfg)?;
    Ok(report(params, &states))
}

/// The report of every task's final state (a whole run's or merged shards').
fn report(params: Params, states: &[TaskState]) -> Report {
    let solved_in = |r: usize| -> Vec<SolvedAt> { states.iter().map(|s| s.solved_at[r]).collect() };
    let curves: Vec<Vec<f64>> = (0..params.runs as usize)
        .map(|r| success_curve(&solved_in(r), params.attempts))
        .collect();
    let aucs: Vec<f64> = (0..params.runs as usize)
        .map(|r| auccess(&solved_in(r), params.attempts))
        .collect();
    let points = (0..params.attempts as usize)
        .map(|k| {
            let col: Vec<f64> = curves.iter().map(|c| c[k]).collect();
            let (m, sd) = mean_and_sample_std(&col);
            (k as u32 + 1, m, sd)
        })
        .collect();
    Report {
        params,
        tasks: states.len(),
        curves,
        aucs,
        points,
    }
}

/// The name of the study in part files.
pub const COMMAND: &str = "random-curve";

/// The study to `rephyre merge` and `rephyre slurm`.
pub const SLURM: Study = Study::checkpointed(
    COMMAND,
    "random-curve.csv",
    &[(Extra::Plot, "random-curve.svg")],
);

impl Params {
    /// The canonical arguments of a run with these parameters.
    pub fn args(&self) -> Args {
        shard::args([
            ("tier", self.tier.to_string()),
            ("runs", self.runs.to_string()),
            ("attempts", self.attempts.to_string()),
            ("seed", self.seed.to_string()),
        ])
    }

    /// The parameters of [`Params::args`].
    pub fn from_args(a: &Args) -> Result<Params> {
        Ok(Params {
            tier: tier_arg(a, "tier")?,
            runs: arg(a, "runs")?,
            attempts: arg(a, "attempts")?,
            seed: arg(a, "seed")?,
        })
    }
}

/// Run shard `shard` of the study (one work unit per task, all its runs).
pub fn run_shard(
    tasks: Vec<&Task>,
    params: Params,
    shard: Shard,
    cfg: &RunConfig,
) -> Result<Part<TaskState>> {
    let ids = tasks.clone();
    let job = job(tasks, params)?;
    shard::run_shard(&job, COMMAND, params.args(), &ids, shard, cfg)
}

/// Merge the parts of a sharded run (checked by [`shard::read_parts`]) into the single run's
/// report; the tasks are looked up in `set`.
pub fn merge(set: &TaskSet, parts: Vec<(PathBuf, Part<TaskState>)>) -> Result<Report> {
    let merged = Merged::new(parts);
    let params = Params::from_args(merged.args())?;
    let job = job(merged.tasks(set)?, params)?;
    merged.check_rebuilt(&job)?;
    Ok(report(params, &merged.states))
}

impl Report {
    /// The CSV: attempts, mean, std and each run's share solved.
    pub fn csv_text(&self) -> String {
        let mut csv = String::from("attempts,mean,std");
        for r in 0..self.params.runs {
            let _ = write!(csv, ",run_{r}");
        }
        csv.push('\n');
        for (k, &(attempts, m, sd)) in self.points.iter().enumerate() {
            let _ = write!(csv, "{attempts},{m:.6},{sd:.6}");
            for c in &self.curves {
                let _ = write!(csv, ",{:.6}", c[k]);
            }
            csv.push('\n');
        }
        csv
    }
}
