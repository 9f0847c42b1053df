//! `rephyre random-curve`: the PHYRE paper's Fig. 2a. A random agent tries random actions on
//! each task until one solves it or its valid attempts are used up (invalid actions are free);
//! the curve is the share of tasks solved within k attempts, mean and standard deviation over
//! independent runs.

use super::{check_outputs, select_tasks, Ctx};
use crate::cli::RandomCurveArgs;
use crate::rng::{stream_of, uniform_vector};
use crate::runner::{self, RunConfig, TaskJob};
use agents::auccess::{auccess, success_curve, SolvedAt};
use anyhow::Result;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use tasks::{simulate, validate_action, SimOptions, Task, Tier};

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
}

impl TaskJob for Job<'_> {
    type State = TaskState;

    fn len(&self) -> usize {
        self.tasks.len()
    }

    fn fingerprint(&self) -> String {
        format!(
            "random-curve-1 {} {} {} {}",
            self.tier, self.runs, self.attempts, self.seed
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
        runner::ordered_speculative(
            &mut r,
            |r| (r.solved.is_none() && r.tried < self.attempts && r.index < cap).then_some(r.index),
            |r| speculation(r, self.attempts, cap),
            |index| {
                let a = uniform_vector(self.seed, stream, index, self.tier.action_len());
                let v = validate_action(task, self.tier, &a).ok()?;
                Some(simulate(task, &v, SimOptions::STATUS_ONLY).is_ok_and(|o| o.solved))
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

/// Mean and sample standard deviation (0 for a single value).
fn mean_std(v: &[f64]) -> (f64, f64) {
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    if v.len() < 2 {
        return (mean, 0.0);
    }
    let var = v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
    (mean, var.sqrt())
}

pub fn run(ctx: &Ctx, a: RandomCurveArgs) -> Result<()> {
    let mut outputs = vec![a.out.as_path()];
    outputs.extend(a.plot.as_deref());
    check_outputs(outputs)?;
    let set = ctx.task_set()?;
    let tasks = select_tasks(set, a.tier, a.templates.as_deref(), a.tasks_per_template)?;
    let job = Job {
        tasks,
        tier: a.tier,
        runs: a.runs,
        attempts: a.attempts,
        seed: a.seed,
    };
    let cfg = RunConfig {
        threads: ctx.threads,
        progress: ctx.progress,
        ..RunConfig::default()
    };
    let states = runner::run(&job, &cfg)?;
    // curves[run][k-1] = share solved within k attempts in that run.
    let curves: Vec<Vec<f64>> = (0..a.runs as usize)
        .map(|r| {
            let solved: Vec<SolvedAt> = states.iter().map(|s| s.solved_at[r]).collect();
            success_curve(&solved, a.attempts)
        })
        .collect();
    let aucs: Vec<f64> = (0..a.runs as usize)
        .map(|r| {
            let solved: Vec<SolvedAt> = states.iter().map(|s| s.solved_at[r]).collect();
            auccess(&solved, a.attempts)
        })
        .collect();
    let mut csv = String::from("attempts,mean,std");
    for r in 0..a.runs {
        let _ = write!(csv, ",run_{r}");
    }
    csv.push('\n');
    let mut points = Vec::with_capacity(a.attempts as usize);
    for k in 0..a.attempts as usize {
        let col: Vec<f64> = curves.iter().map(|c| c[k]).collect();
        let (m, sd) = mean_std(&col);
        points.push((k as u32 + 1, m, sd));
        let _ = write!(csv, "{},{:.6},{:.6}", k + 1, m, sd);
        for v in &col {
            let _ = write!(csv, ",{v:.6}");
        }
        csv.push('\n');
    }
    crate::output::write_atomic(&a.out, csv.as_bytes())?;
    if let Some(p) = &a.plot {
        let svg = super::plot::curve_svg(a.tier, job.tasks.len(), a.runs, &points)?;
        crate::output::write_atomic(p, svg.as_bytes())?;
    }
    let (auc_m, auc_sd) = mean_std(&aucs);
    let last = points.last().expect("at least one attempt");
    println!(
        "{} tasks, {} runs: solved within {} attempts {:.4} ± {:.4}; AUCCESS {:.4} ± {:.4} -> {}",
        job.tasks.len(),
        a.runs,
        a.attempts,
        last.1,
        last.2,
        auc_m,
        auc_sd,
        a.out.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::mean_std;

    #[test]
    fn sample_standard_deviation() {
        let (m, s) = mean_std(&[1.0, 2.0, 3.0, 4.0]);
        assert_eq!(m, 2.5);
        assert!((s - (5.0f64 / 3.0).sqrt()).abs() < 1e-12);
        assert_eq!(mean_std(&[0.3]), (0.3, 0.0));
    }
}
