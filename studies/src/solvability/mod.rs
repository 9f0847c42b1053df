//! Solvability, SPEC §8 per task. Random actions in batches; after each batch, the
//! binomial tests on all solutions and on stable solutions; stop once the stable decision is made
//! (after at least `min_valid` valid actions) or at `max_valid`.
//!
//! Random actions are drawn like the original's (its action mapper samples only actions whose
//! balls lie in the scene and apart, [`tasks::check_action_space`]): other draws are skipped and
//! are not attempts, so attempts and the invalid rate (occlusion only) compare with
//! `random-action-status-counts.csv`, and so does the TRIVIAL rule (stable / attempts ≥ 0.1).
//!
//! One task is one runner task; its state is the counts, the RNG index and the indices of the
//! stored stable solutions (actions are recomputed from their index, so no float goes through
//! the checkpoint). The report depends only on the final states, hence not on the thread count
//! or on a resume.

use crate::action_text;
use crate::runner::{self, RunConfig, TaskJob};
use crate::selection::tasks_fingerprint;
use crate::shard::{self, arg, tier_arg, Args, Merged, Part, Shard};
use crate::slurm::{Extra, Study};
use crate::stats::{decide, Decision};
use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use tasks::rng::{stream_of, uniform_vector};
use tasks::{
    check_action_space, stability_of_valid, validate_action, Stability, Task, TaskScene, TaskSet,
    Tier,
};

/// Stable solutions stored per task.
pub const STORED_SOLUTIONS: usize = 5;
/// A task stops (undecided) after this many attempts per valid action allowed (`max_valid`):
/// only a task where nearly every random action is invalid gets there.
pub const ATTEMPTS_PER_VALID_CAP: u64 = 100;

/// The parameters of a solvability run.
#[derive(Clone, Debug)]
pub struct Params {
    pub tier: Tier,
    pub p0: f64,
    pub alpha: f64,
    pub min_valid: u64,
    pub min_solutions: u64,
    pub max_valid: u64,
    pub batch: u64,
    pub seed: u64,
}

/// A solvability run as a user asks for it (the command line, the Python package): `p0` and
/// `max_valid` may be left to the tier's defaults, and [`Request::params`] checks it.
#[derive(Clone, Debug)]
pub struct Request {
    pub tier: Tier,
    /// Null solution rate (default 1e-5 for ball, 1e-6 for two balls).
    pub p0: Option<f64>,
    /// Significance level of both tests.
    pub alpha: f64,
    /// Valid actions to try before a task may stop.
    pub min_valid: u64,
    /// Stable solutions needed to call a task solvable.
    pub min_solutions: u64,
    /// Most valid actions per task (default 2/p0).
    pub max_valid: Option<u64>,
    /// Valid actions per batch (the tests are evaluated after each batch).
    pub batch: u64,
    pub seed: u64,
}

impl Request {
    /// The defaults of `rephyre solvability` and `rephyre.studies.solvability`.
    pub const DEFAULT_ALPHA: f64 = 0.05;
    pub const DEFAULT_MIN_VALID: u64 = 10_000;
    pub const DEFAULT_MIN_SOLUTIONS: u64 = 3;
    pub const DEFAULT_BATCH: u64 = 1000;

    /// A run on `tier` with every default.
    pub fn new(tier: Tier) -> Request {
        Request {
            tier,
            p0: None,
            alpha: Request::DEFAULT_ALPHA,
            min_valid: Request::DEFAULT_MIN_VALID,
            min_solutions: Request::DEFAULT_MIN_SOLUTIONS,
            max_valid: None,
            batch: Request::DEFAULT_BATCH,
            seed: 0,
        }
    }

    /// The checked parameters; `p0` and `max_valid` default to the tier's (p0 1e-5 for ball and
    /// 1e-6 for two balls, at most 2/p0 valid actions).
    pub fn params(&self) -> Result<Params> {
        let Request {
            tier,
            alpha,
            min_valid,
            min_solutions,
            batch,
            seed,
            ..
        } = *self;
        let p0 = self.p0.unwrap_or(match tier {
            Tier::Ball => 1e-5,
            Tier::TwoBalls => 1e-6,
        });
        if !(p0 > 0.0 && p0 <= 0.5) {
            bail!("--p0 must be in (0, 0.5], got {p0}");
        }
        if !(alpha > 0.0 && alpha < 1.0) {
            bail!("--alpha must be in (0, 1), got {alpha}");
        }
        let max_valid = match self.max_valid {
            Some(m) => m,
            None => (2.0 / p0).round().min(1e15) as u64,
        };
        if max_valid == 0 {
            bail!("--max-valid must be positive");
        }
        if batch == 0 {
            bail!("--batch must be at least 1");
        }
        if min_valid > max_valid {
            bail!("--min-valid {min_valid} is larger than --max-valid {max_valid}");
        }
        Ok(Params {
            tier,
            p0,
            alpha,
            min_valid,
            min_solutions,
            max_valid,
            batch,
            seed,
        })
    }
}

impl Params {
    /// The canonical arguments of a run with these parameters (a sharded run's part records
    /// them; floats in Rust's round-trip form).
    pub fn args(&self) -> Args {
        shard::args([
            ("tier", self.tier.to_string()),
            ("p0", format!("{:?}", self.p0)),
            ("alpha", format!("{:?}", self.alpha)),
            ("min_valid", self.min_valid.to_string()),
            ("min_solutions", self.min_solutions.to_string()),
            ("max_valid", self.max_valid.to_string()),
            ("batch", self.batch.to_string()),
            ("seed", self.seed.to_string()),
        ])
    }

    /// The parameters of [`Params::args`].
    pub fn from_args(a: &Args) -> Result<Params> {
        Request {
            tier: tier_arg(a, "tier")?,
            p0: Some(arg(a, "p0")?),
            alpha: arg(a, "alpha")?,
            min_valid: arg(a, "min_valid")?,
            min_solutions: arg(a, "min_solutions")?,
            max_valid: Some(arg(a, "max_valid")?),
            batch: arg(a, "batch")?,
            seed: arg(a, "seed")?,
        }
        .params()
    }
}

/// The state of one task.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskState {
    /// RNG index of the next action.
    pub next: u64,
    pub valid: u64,
    pub invalid: u64,
    pub solved: u64,
    pub stable: u64,
    /// Simulations of stable-solution neighbours.
    pub neighbour_sims: u64,
    /// Valid actions whose world could not be built (counted as invalid too; never seen for
    /// PHYRE tasks).
    pub build_errors: u64,
    /// RNG indices of the first stable solutions.
    pub solutions: Vec<u64>,
}

/// The job: tasks and parameters.
pub struct Job<'a> {
    pub tasks: Vec<&'a Task>,
    pub params: Params,
    streams: Vec<u64>,
    fingerprint: String,
}

impl<'a> Job<'a> {
    pub fn new(tasks: Vec<&'a Task>, params: Params) -> Result<Job<'a>> {
        let p = &params;
        let fingerprint = format!(
            "solvability-2 rephyre-{} tier={} p0={:?} alpha={:?} min_valid={} min_solutions={} \
             max_valid={} batch={} seed={} {}",
            env!("CARGO_PKG_VERSION"),
            p.tier,
            p.p0,
            p.alpha,
            p.min_valid,
            p.min_solutions,
            p.max_valid,
            p.batch,
            p.seed,
            tasks_fingerprint(&tasks)?
        );
        let streams = tasks
            .iter()
            .map(|t| stream_of(&t.id().to_string()))
            .collect();
        Ok(Job {
            tasks,
            params,
            streams,
            fingerprint,
        })
    }

    /// The action with RNG index `index` for task number `task`.
    pub fn action(&self, task: usize, index: u64) -> Vec<f64> {
        uniform_vector(
            self.params.seed,
            self.streams[task],
            index,
            self.params.tier.action_len(),
        )
    }

    fn attempt_cap(&self) -> u64 {
        self.params.max_valid.saturating_mul(ATTEMPTS_PER_VALID_CAP)
    }

    /// Is the stable-solution decision made (SOLVABLE needs `min_solutions` stable solutions)?
    fn stable_decided(&self, s: &TaskState) -> bool {
        let (_, _, d) = decide(s.valid, s.stable, self.params.p0, self.params.alpha);
        match d {
            Decision::Solvable => s.stable >= self.params.min_solutions,
            Decision::Unsolvable => true,
            Decision::Undecided => false,
        }
    }
}

/// What one random action gave: everything the count needs, from the action's index alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Draw {
    /// Outside the action space: never drawn by the original's sampler, not an attempt.
    Outside,
    /// Occluded (invalid).
    Invalid,
    /// Valid, but its world could not be built.
    BuildError,
    Simulated {
        solved: bool,
        stable: bool,
        /// Neighbour simulations run for the stability check.
        neighbour_sims: u64,
    },
}

impl Job<'_> {
    /// Draw, check, simulate and (if solved) check the stability of action `index` of task `t`
    /// (`scene`: the task's recorded scene).
    fn draw(&self, scene: &TaskScene, t: usize, index: u64) -> Draw {
        let task = self.tasks[t];
        let tier = self.params.tier;
        let a = self.action(t, index);
        if check_action_space(tier, &a).is_err() {
            return Draw::Outside;
        }
        let Ok(v) = validate_action(task, tier, &a) else {
            return Draw::Invalid;
        };
        // The stable-solution procedure runs the action itself first, then its neighbours.
        let mut sims = 0u64;
        let stability = stability_of_valid(task, &v, |n| {
            sims += 1;
            scene.simulated_status(n)
        });
        let neighbour_sims = sims.saturating_sub(1);
        match stability {
            Stability::Invalid => Draw::BuildError,
            Stability::NotSolved => Draw::Simulated {
                solved: false,
                stable: false,
                neighbour_sims,
            },
            Stability::Unstable(_) | Stability::Stable => Draw::Simulated {
                solved: true,
                stable: stability == Stability::Stable,
                neighbour_sims,
            },
        }
    }
}

/// Count draw `index` (the next one) into the state.
fn apply_draw(s: &mut TaskState, index: u64, d: Draw) {
    s.next = index + 1;
    match d {
        Draw::Outside => {}
        Draw::Invalid => s.invalid += 1,
        Draw::BuildError => {
            s.invalid += 1;
            s.build_errors += 1;
        }
        Draw::Simulated {
            solved,
            stable,
            neighbour_sims,
        } => {
            s.valid += 1;
            if solved {
                s.solved += 1;
                s.neighbour_sims += neighbour_sims;
                if stable {
                    s.stable += 1;
                    if s.solutions.len() < STORED_SOLUTIONS {
                        s.solutions.push(index);
                    }
                }
            }
        }
    }
}

/// Most draws evaluated ahead at once.
const MAX_SPECULATION: u64 = 128;

/// How many draws to evaluate ahead: the draws expected to bring `valid` to `target` at the
/// task's observed draws per valid action ((next + 1) / (valid + 1), so 1 at the start), at most
/// [`MAX_SPECULATION`] and never past `cap`. The batch then ends near the end of a chunk: the
/// draws thrown away past it are about the square root of the last chunk's (a few per batch of
/// hundreds), while a chunk still holds enough work to keep every core busy to its end.
fn speculation(s: &TaskState, target: u64, cap: u64) -> u64 {
    let left = target.saturating_sub(s.valid) as u128;
    let expected = (left * (s.next as u128 + 1)).div_ceil(s.valid as u128 + 1);
    (expected.min(MAX_SPECULATION as u128) as u64).min(cap.saturating_sub(s.next))
}

impl TaskJob for Job<'_> {
    type State = TaskState;

    fn len(&self) -> usize {
        self.tasks.len()
    }

    fn fingerprint(&self) -> String {
        self.fingerprint.clone()
    }

    fn advance(&self, t: usize, s: &mut TaskState) -> bool {
        let p = &self.params;
        let target = s.valid.saturating_add(p.batch).min(p.max_valid);
        let cap = self.attempt_cap();
        // The loop `while s.valid < target && s.next < cap { apply(draw(s.next)) }`, with the
        // draws evaluated ahead in parallel (the result is that loop's on any thread count).
        let scene = TaskScene::new(self.tasks[t]);
        runner::ordered_speculative(
            s,
            |s| (s.valid < target && s.next < cap).then_some(s.next),
            |s| speculation(s, target, cap),
            |index| self.draw(&scene, t, index),
            apply_draw,
        );
        (s.valid >= p.min_valid && self.stable_decided(s))
            || s.valid >= p.max_valid
            || s.next >= cap
    }

    fn simulations(&self, s: &TaskState) -> u64 {
        s.valid + s.neighbour_sims
    }
}

/// One row of the report.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub task_id: String,
    pub template: String,
    pub state: TaskState,
    pub p_solvable: f64,
    pub p_unsolvable: f64,
    pub p_stable_solvable: f64,
    pub p_stable_unsolvable: f64,
    pub good: bool,
    pub bad: bool,
    pub good_stable: bool,
    pub bad_stable: bool,
    pub trivial: bool,
    /// Valid actions when the stable decision was made (batch granularity), if it was.
    pub samples_needed: Option<u64>,
    pub solutions: Vec<Vec<f64>>,
}

impl Row {
    pub fn flags(&self) -> String {
        let mut f = Vec::new();
        for (on, name) in [
            (self.good, "GOOD"),
            (self.bad, "BAD"),
            (self.good_stable, "GOOD_STABLE"),
            (self.bad_stable, "BAD_STABLE"),
            (self.trivial, "TRIVIAL"),
        ] {
            if on {
                f.push(name);
            }
        }
        if f.is_empty() {
            "UNDECIDED".to_string()
        } else {
            f.join(" ")
        }
    }
}

/// Decisions and flags of a finished task.
pub fn row(job: &Job, t: usize, s: &TaskState) -> Row {
    let p = &job.params;
    let (p_solvable, p_unsolvable, d_any) = decide(s.valid, s.solved, p.p0, p.alpha);
    let (p_stable_solvable, p_stable_unsolvable, d_stable) =
        decide(s.valid, s.stable, p.p0, p.alpha);
    let good = d_any == Decision::Solvable && s.solved >= p.min_solutions;
    let good_stable = d_stable == Decision::Solvable && s.stable >= p.min_solutions;
    let attempts = s.valid + s.invalid;
    let trivial = attempts > 0 && s.stable as f64 / attempts as f64 >= 0.1;
    let id = job.tasks[t].id();
    Row {
        task_id: id.to_string(),
        template: id.template_str(),
        state: s.clone(),
        p_solvable,
        p_unsolvable,
        p_stable_solvable,
        p_stable_unsolvable,
        good,
        bad: d_any == Decision::Unsolvable,
        good_stable,
        bad_stable: d_stable == Decision::Unsolvable,
        trivial,
        samples_needed: (good_stable || d_stable == Decision::Unsolvable).then_some(s.valid),
        solutions: s.solutions.iter().map(|&i| job.action(t, i)).collect(),
    }
}

/// The CSV report.
pub fn csv_bytes(tier: Tier, rows: &[Row]) -> Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "task_id",
        "tier",
        "valid",
        "invalid",
        "solved",
        "stable",
        "p_solvable",
        "p_unsolvable",
        "p_stable_solvable",
        "p_stable_unsolvable",
        "flags",
        "samples_needed",
        "solutions",
    ])?;
    for r in rows {
        let s = &r.state;
        w.write_record([
            r.task_id.clone(),
            tier.to_string(),
            s.valid.to_string(),
            s.invalid.to_string(),
            s.solved.to_string(),
            s.stable.to_string(),
            format!("{:.6e}", r.p_solvable),
            format!("{:.6e}", r.p_unsolvable),
            format!("{:.6e}", r.p_stable_solvable),
            format!("{:.6e}", r.p_stable_unsolvable),
            r.flags(),
            r.samples_needed.map_or(String::new(), |n| n.to_string()),
            r.solutions
                .iter()
                .map(|a| action_text(a, " "))
                .collect::<Vec<_>>()
                .join(";"),
        ])?;
    }
    w.into_inner()
        .map_err(|e| e.into_error())
        .context("cannot write the CSV")
}

fn pct(num: u64, den: u64) -> String {
    if den == 0 {
        "-".to_string()
    } else {
        format!("{:.1} %", 100.0 * num as f64 / den as f64)
    }
}

fn rate(num: u64, den: u64) -> String {
    if den == 0 {
        "-".to_string()
    } else {
        format!("{:.3e}", num as f64 / den as f64)
    }
}

fn mean_max(v: &[u64]) -> String {
    if v.is_empty() {
        "-".to_string()
    } else {
        let mean = v.iter().sum::<u64>() as f64 / v.len() as f64;
        format!("{:.0} / {}", mean, v.iter().max().expect("not empty"))
    }
}

#[derive(Default)]
struct Agg {
    tasks: u64,
    good_stable: u64,
    bad_stable: u64,
    good: u64,
    trivial: u64,
    valid: u64,
    invalid: u64,
    solved: u64,
    stable: u64,
    need_solvable: Vec<u64>,
    need_unsolvable: Vec<u64>,
}

impl Agg {
    fn add(&mut self, r: &Row) {
        self.tasks += 1;
        self.good_stable += r.good_stable as u64;
        self.bad_stable += r.bad_stable as u64;
        self.good += r.good as u64;
        self.trivial += r.trivial as u64;
        self.valid += r.state.valid;
        self.invalid += r.state.invalid;
        self.solved += r.state.solved;
        self.stable += r.state.stable;
        if let Some(n) = r.samples_needed {
            if r.good_stable {
                self.need_solvable.push(n);
            } else {
                self.need_unsolvable.push(n);
            }
        }
    }

    fn line(&self, name: &str) -> String {
        format!(
            "| {name} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            self.tasks,
            pct(self.good_stable, self.tasks),
            pct(self.bad_stable, self.tasks),
            self.tasks - self.good_stable - self.bad_stable,
            pct(self.good, self.tasks),
            self.trivial,
            rate(self.solved, self.valid),
            rate(self.stable, self.valid),
            pct(self.invalid, self.valid + self.invalid),
            mean_max(&self.need_solvable),
            mean_max(&self.need_unsolvable),
        )
    }
}

/// The Markdown summary per template.
pub fn summary_markdown(p: &Params, rows: &[Row]) -> String {
    let mut by_template: BTreeMap<&str, Agg> = BTreeMap::new();
    let mut all = Agg::default();
    for r in rows {
        by_template.entry(&r.template).or_default().add(r);
        all.add(r);
    }
    let mut s = String::new();
    let _ = writeln!(s, "# Solvability, {} tier\n", p.tier);
    let _ = writeln!(
        s,
        "p0 = {:e}, α = {}, valid actions per task: at least {} and at most {}, batches of {}, \
         at least {} stable solutions to call a task solvable, seed {}.\n",
        p.p0, p.alpha, p.min_valid, p.max_valid, p.batch, p.min_solutions, p.seed
    );
    s.push_str(
        "Solvable / unsolvable: the decision on stable solutions (GOOD_STABLE / BAD_STABLE); \
         any-solution solvable: GOOD. Solve rates are per valid random action; the invalid rate \
         is per attempt. Samples needed: valid actions when the decision was made (mean / max; \
         batch granularity).\n\n",
    );
    s.push_str(
        "| template | tasks | solvable | unsolvable | undecided | any-solution solvable | trivial \
         | random solve rate | stable solve rate | invalid rate | samples needed, solvable \
         | samples needed, unsolvable |\n",
    );
    s.push_str("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (t, a) in &by_template {
        s.push_str(&a.line(t));
    }
    s.push_str(&all.line("**all**"));
    s
}

/// Run the study on `tasks` and return one row per task, in task order.
pub fn run(tasks: Vec<&Task>, params: Params, cfg: &RunConfig) -> Result<Vec<Row>> {
    let job = Job::new(tasks, params)?;
    let states = runner::run(&job, cfg)?;
    Ok(rows(&job, &states))
}

/// The rows of the final states of every task (a whole run's or merged shards').
fn rows(job: &Job, states: &[TaskState]) -> Vec<Row> {
    states
        .iter()
        .enumerate()
        .map(|(t, s)| row(job, t, s))
        .collect()
}

/// The name of the study in part files.
pub const COMMAND: &str = "solvability";

/// The study to `rephyre merge` and `rephyre slurm`.
pub const SLURM: Study = Study::checkpointed(
    COMMAND,
    "solvability.csv",
    &[(Extra::Summary, "solvability.md")],
);

/// Run shard `shard` of the study on `tasks` (one runner task per task).
pub fn run_shard(
    tasks: Vec<&Task>,
    params: Params,
    shard: Shard,
    cfg: &RunConfig,
) -> Result<Part<TaskState>> {
    let (ids, args) = (tasks.clone(), params.args());
    let job = Job::new(tasks, params)?;
    shard::run_shard(&job, COMMAND, args, &ids, shard, cfg)
}

/// Merge the parts of a sharded run (checked by [`shard::read_parts`]) into the parameters and
/// rows of the single run; the tasks are looked up in `set`.
pub fn merge(set: &TaskSet, parts: Vec<(PathBuf, Part<TaskState>)>) -> Result<(Params, Vec<Row>)> {
    let merged = Merged::new(parts);
    let params = Params::from_args(merged.args())?;
    let job = Job::new(merged.tasks(set)?, params.clone())?;
    merged.check_rebuilt(&job)?;
    Ok((params, rows(&job, &merged.states)))
}

#[cfg(test)]
mod tests;
