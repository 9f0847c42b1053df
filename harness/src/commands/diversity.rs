//! `rephyre diversity`: solution diversity (SPEC §8). Every sampled action is tried on every
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

use super::{check_outputs, select_tasks, tasks_fingerprint, Ctx};
use crate::cli::DiversityArgs;
use crate::rng::stream_of;
use crate::runner::{self, TaskJob};
use anyhow::Result;
use serde::{Deserialize, Serialize};
use tasks::{sample_action, simulate, validate_action, SimOptions, Task, Tier};

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
        runner::ordered_speculative(
            s,
            |s| (lo + s.done < end).then_some(lo + s.done),
            |s| end - (lo + s.done),
            |i| {
                let a = &actions[(i - first) as usize];
                let (mut solved, mut sims) = (0, 0);
                for task in tasks {
                    if let Ok(v) = validate_action(task, self.tier, a) {
                        sims += 1;
                        if simulate(task, &v, SimOptions::STATUS_ONLY).is_ok_and(|o| o.solved) {
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

pub fn run(ctx: &Ctx, a: DiversityArgs) -> Result<()> {
    let cfg = a.ckpt.run_config(ctx.threads, ctx.progress)?;
    let mut outputs = vec![a.out.as_path()];
    outputs.extend(a.plot.as_deref());
    outputs.extend(a.ckpt.checkpoint.as_deref());
    check_outputs(outputs)?;
    let set = ctx.task_set()?;
    let tasks = select_tasks(set, a.tier, a.templates.as_deref(), a.tasks_per_template)?;
    let fingerprint = format!(
        "diversity-2 rephyre-{} tier={} seed={} samples={} {}",
        env!("CARGO_PKG_VERSION"),
        a.tier,
        a.seed,
        a.samples,
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
    let job = Job {
        fingerprint,
        tier: a.tier,
        seed: a.seed,
        samples: a.samples,
        templates,
        chunks_per_template: a.samples.div_ceil(CHUNK),
    };
    let states = runner::run(&job, &cfg)?;
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
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(["template", "tier", "tasks", "solved_tasks", "actions"])?;
    for ((name, ts), h) in job.templates.iter().zip(&hists) {
        for (k, n) in h.iter().enumerate() {
            w.write_record([
                name.clone(),
                a.tier.to_string(),
                ts.len().to_string(),
                k.to_string(),
                n.to_string(),
            ])?;
        }
    }
    let bytes = w
        .into_inner()
        .map_err(|e| anyhow::anyhow!("cannot write the CSV: {e}"))?;
    crate::output::write_atomic(&a.out, &bytes)?;
    if let Some(p) = &a.plot {
        let series: Vec<(String, Vec<u64>)> = job
            .templates
            .iter()
            .zip(&hists)
            .map(|((n, _), h)| (n.clone(), h.clone()))
            .collect();
        let svg = super::plot::diversity_svg(a.tier, a.samples, &series)?;
        crate::output::write_atomic(p, svg.as_bytes())?;
    }
    for ((name, ts), h) in job.templates.iter().zip(&hists) {
        let solving: u64 = h[1..].iter().sum();
        let mean = h
            .iter()
            .enumerate()
            .map(|(k, n)| k as f64 * *n as f64)
            .sum::<f64>()
            / a.samples as f64;
        println!(
            "{name}: {} tasks; {:.4} % of actions solve at least one, mean tasks solved per action {:.4}",
            ts.len(),
            100.0 * solving as f64 / a.samples as f64,
            mean
        );
    }
    println!("-> {}", a.out.display());
    Ok(())
}
