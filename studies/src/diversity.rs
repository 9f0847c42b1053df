//! Solution diversity (SPEC §8). Every sampled action is tried on every
//! task of each template; per template, a histogram of actions by the number of its tasks they
//! solve.
//!
//! The actions are sampled like the original's random actions ([`tasks::sample_action`]: balls
//! in the scene and apart), so every one of them is a real candidate; only occlusion makes one
//! invalid on a task (it then solves nothing there).
//!
//! Work is split into runner tasks of (template, chunk of actions); chunk c's actions are the
//! first `CHUNK` of its own RNG stream, the same for every template. Each chunk's histogram
//! depends only on its actions, and the histograms are summed, so the result does not depend on
//! the thread count.

use crate::runner::{self, RunConfig, TaskJob};
use crate::selection::tasks_fingerprint;
use crate::shard::{self, arg, tier_arg, Args, Merged, Part, Shard};
use crate::slurm::{Extra, Study};
use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use tasks::rng::stream_of;
use tasks::{sample_action, validate_action, SimOptions, Task, TaskScene, TaskSet, Tier};

/// Actions per runner task.
const CHUNK: u64 = 500;
/// Actions per batch within a chunk.
const BATCH: u64 = 25;
/// Prefix of the RNG stream of each chunk's actions (the same actions for every template).
const STREAM: &str = "diversity";

/// State of one chunk.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct ChunkState {
    /// Actions of the chunk done.
    pub done: u64,
    /// RNG index of the chunk's next draw.
    pub next: u64,
    /// hist[k] = actions that solve exactly k tasks of the template.
    pub hist: Vec<u64>,
    /// Simulations run.
    pub sims: u64,
}

struct Job<'a> {
    fingerprint: String,
    tier: Tier,
    seed: u64,
    samples: u64,
    /// Tasks per template, in template order.
    templates: Vec<(String, Vec<&'a Task>)>,
    chunks_per_template: u64,
}

impl Job<'_> {
    fn chunk(&self, t: usize) -> (usize, u64, u64) {
        let template = t / self.chunks_per_template as usize;
        let c = t as u64 % self.chunks_per_template;
        let lo = c * CHUNK;
        (template, lo, (lo + CHUNK).min(self.samples))
    }
}

impl TaskJob for Job<'_> {
    type State = ChunkState;

    fn len(&self) -> usize {
        self.templates.len() * self.chunks_per_template as usize
    }

    fn fingerprint(&self) -> String {
        self.fingerprint.clone()
    }

    fn advance(&self, t: usize, s: &mut ChunkState) -> bool {
        let (template, lo, hi) = self.chunk(t);
        let tasks = &self.templates[template].1;
        if s.hist.is_empty() {
            s.hist = vec![0; tasks.len() + 1];
        }
        let stream = stream_of(&format!("{STREAM}/{}", lo / CHUNK));
        let end = (lo + s.done + BATCH).min(hi);
        // Drawing is cheap and sequential (a redraw moves the stream on); trying each action on
        // the template's tasks is the work, spread over the cores (the whole batch is used, so
        // nothing is evaluated in vain).
        let actions: Vec<Vec<f64>> = (lo + s.done..end)
            .map(|_| sample_action(self.tier, self.seed, stream, &mut s.next))
            .collect();
        let first = lo + s.done;
        let scenes: Vec<TaskScene> = tasks.iter().map(|t| TaskScene::new(t)).collect();
        runner::ordered_speculative(
            s,
            |s| (lo + s.done < end).then_some(lo + s.done),
            |s| end - (lo + s.done),
            |i| {
                let a = &actions[(i - first) as usize];
                let (mut solved, mut sims) = (0, 0);
                for scene in &scenes {
                    if let Ok(v) = validate_action(scene.task(), self.tier, a) {
                        sims += 1;
                        if scene
                            .simulate(&v, SimOptions::STATUS_ONLY)
                            .is_ok_and(|o| o.solved)
                        {
                            solved += 1;
                        }
                    }
                }
                (solved, sims)
            },
            |s, _, (solved, sims)| {
                s.sims += sims;
                s.hist[solved] += 1;
                s.done += 1;
            },
        );
        end >= hi
    }

    fn simulations(&self, s: &ChunkState) -> u64 {
        s.sims
    }
}

/// The parameters of a diversity run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    pub tier: Tier,
    pub seed: u64,
    /// Random actions sampled (each is tried on every task of every template).
    pub samples: u64,
}

/// One template's histogram.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TemplateHistogram {
    /// The template's number as text (`00013`).
    pub template: String,
    /// Its tasks in the run.
    pub tasks: usize,
    /// `hist[k]`: actions that solve exactly `k` of its tasks (`k` = 0 ..= `tasks`).
    pub hist: Vec<u64>,
}

impl TemplateHistogram {
    /// Actions that solve at least one of the template's tasks.
    pub fn solving_actions(&self) -> u64 {
        self.hist[1..].iter().sum()
    }

    /// The percentage of `samples` actions that solve at least one of its tasks.
    pub fn solving_percent(&self, samples: u64) -> f64 {
        100.0 * self.solving_actions() as f64 / samples as f64
    }

    /// The mean number of its tasks that one of `samples` actions solves.
    pub fn mean_tasks_solved(&self, samples: u64) -> f64 {
        self.hist
            .iter()
            .enumerate()
            .map(|(k, n)| k as f64 * *n as f64)
            .sum::<f64>()
            / samples as f64
    }
}

/// The histograms of every template, in template order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub params: Params,
    pub templates: Vec<TemplateHistogram>,
}

/// The job of the study on `tasks` (grouped by template in the order given).
fn job<'a>(tasks: Vec<&'a Task>, params: Params) -> Result<Job<'a>> {
    let fingerprint = format!(
        "diversity-2 rephyre-{} tier={} seed={} samples={} {}",
        env!("CARGO_PKG_VERSION"),
        params.tier,
        params.seed,
        params.samples,
        tasks_fingerprint(&tasks)?
    );
    let mut templates: Vec<(String, Vec<&Task>)> = Vec::new();
    for t in tasks {
        let name = t.id().template_str();
        match templates.last_mut() {
            Some((n, v)) if *n == name => v.push(t),
            _ => templates.push((name, vec![t])),
        }
    }
    Ok(Job {
        fingerprint,
        tier: params.tier,
        seed: params.seed,
        samples: params.samples,
        templates,
        chunks_per_template: params.samples.div_ceil(CHUNK),
    })
}

/// Run the study on `tasks` (grouped by template in the order given).
pub fn run(tasks: Vec<&Task>, params: Params, cfg: &RunConfig) -> Result<Report> {
    let job = job(tasks, params)?;
    let states = runner::run(&job, cfg)?;
    Ok(report(&job, params, &states))
}

/// The report of the final states of every chunk (a whole run's or merged shards').
fn report(job: &Job, params: Params, states: &[ChunkState]) -> Report {
    // Sum the chunks of each template.
    let mut hists: Vec<Vec<u64>> = job
        .templates
        .iter()
        .map(|(_, ts)| vec![0; ts.len() + 1])
        .collect();
    for (t, s) in states.iter().enumerate() {
        let (template, _, _) = job.chunk(t);
        for (k, n) in s.hist.iter().enumerate() {
            hists[template][k] += n;
        }
    }
    Report {
        params,
        templates: job
            .templates
            .iter()
            .zip(hists)
            .map(|((name, ts), hist)| TemplateHistogram {
                template: name.clone(),
                tasks: ts.len(),
                hist,
            })
            .collect(),
    }
}

/// The name of the study in part files.
pub const COMMAND: &str = "diversity";

/// The study to `rephyre merge` and `rephyre slurm`.
pub const SLURM: Study =
    Study::checkpointed(COMMAND, "diversity.csv", &[(Extra::Plot, "diversity.svg")]);

impl Params {
    /// The canonical arguments of a run with these parameters.
    pub fn args(&self) -> Args {
        shard::args([
            ("tier", self.tier.to_string()),
            ("seed", self.seed.to_string()),
            ("samples", self.samples.to_string()),
        ])
    }

    /// The parameters of [`Params::args`].
    pub fn from_args(a: &Args) -> Result<Params> {
        Ok(Params {
            tier: tier_arg(a, "tier")?,
            seed: arg(a, "seed")?,
            samples: arg(a, "samples")?,
        })
    }
}

/// Run shard `shard` of the study. The runner tasks are (template, chunk of actions) in template
/// order, so the shards split every template's actions between them: one template spreads over
/// as many shards as it has chunks (`samples` / 500).
pub fn run_shard(
    tasks: Vec<&Task>,
    params: Params,
    shard: Shard,
    cfg: &RunConfig,
) -> Result<Part<ChunkState>> {
    let ids = tasks.clone();
    let job = job(tasks, params)?;
    shard::run_shard(&job, COMMAND, params.args(), &ids, shard, cfg)
}

/// Merge the parts of a sharded run (checked by [`shard::read_parts`]) into the single run's
/// report; the tasks are looked up in `set`.
pub fn merge(set: &TaskSet, parts: Vec<(PathBuf, Part<ChunkState>)>) -> Result<Report> {
    let merged = Merged::new(parts);
    let params = Params::from_args(merged.args())?;
    let job = job(merged.tasks(set)?, params)?;
    merged.check_rebuilt(&job)?;
    Ok(report(&job, params, &merged.states))
}

impl Report {
    /// The plot's series: per template, its histogram.
    pub fn plot_series(&self) -> Vec<(String, Vec<u64>)> {
        self.templates
            .iter()
            .map(|t| (t.template.clone(), t.hist.clone()))
            .collect()
    }

    /// The CSV: one row per (template, k) with the number of actions that solve k of its tasks.
    pub fn csv_bytes(&self) -> Result<Vec<u8>> {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record(["template", "tier", "tasks", "solved_tasks", "actions"])?;
        for t in &self.templates {
            for (k, n) in t.hist.iter().enumerate() {
                w.write_record([
                    t.template.clone(),
                    self.params.tier.to_string(),
                    t.tasks.to_string(),
                    k.to_string(),
                    n.to_string(),
                ])?;
            }
        }
        w.into_inner()
            .map_err(|e| e.into_error())
            .context("cannot write the CSV")
    }
}
