//! The parallel, resumable runner.
//!
//! Work is a list of tasks; each task advances in batches (`TaskJob::advance`) until it says it
//! is done. Tasks run in parallel on a rayon pool; the batches of one task run in order, and each
//! batch depends only on (job, task, state), so the results are identical for any thread count.
//! Every few seconds the states of all tasks are written to a checkpoint (atomically); a resumed
//! run continues each task from its saved state and therefore reaches the same final bytes.

use crate::output::write_atomic;
use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A job made of independent tasks that advance in batches.
pub trait TaskJob: Sync {
    type State: Clone + Default + Send + Serialize + DeserializeOwned;
    /// Number of tasks.
    fn len(&self) -> usize;
    /// Whether there is no task.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// A string naming everything that determines the results (resume refuses a checkpoint
    /// written by a different job).
    fn fingerprint(&self) -> String;
    /// Run the next batch of `task`; return true when the task is finished.
    fn advance(&self, task: usize, state: &mut Self::State) -> bool;
    /// Simulations counted in `state` (for the progress rate).
    fn simulations(&self, state: &Self::State) -> u64;
    /// Whether a task restored from a checkpoint is finished for this job. By default it is what
    /// the checkpoint says; a job whose fingerprint admits more work for the same tasks (a longer
    /// prefix of the same actions) re-judges it from the state, so that a finished task is
    /// continued rather than recomputed.
    fn restored_finished(&self, _task: usize, saved: bool, _state: &Self::State) -> bool {
        saved
    }
}

/// How to run a job.
#[derive(Clone, Debug)]
pub struct RunConfig {
    pub threads: Option<usize>,
    pub checkpoint: Option<PathBuf>,
    pub resume: bool,
    pub checkpoint_every: Duration,
    pub progress: bool,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            threads: None,
            checkpoint: None,
            resume: false,
            checkpoint_every: Duration::from_secs(5),
            progress: false,
        }
    }
}

#[derive(Serialize, Deserialize)]
struct Checkpoint<S> {
    format: String,
    fingerprint: String,
    /// (task, finished, state) for every task that has started.
    tasks: Vec<(u32, bool, S)>,
}

/// Per task: not started (`None`) or (finished, state).
type Slots<S> = Mutex<Vec<Option<(bool, S)>>>;

const CHECKPOINT_FORMAT: &str = "rephyre-checkpoint-1";

/// Run every task of `job` to completion and return the final states in task order.
pub fn run<J: TaskJob>(job: &J, cfg: &RunConfig) -> Result<Vec<J::State>> {
    let n = job.len();
    let mut slots: Vec<Option<(bool, J::State)>> = vec![None; n];
    if cfg.resume {
        let path = cfg
            .checkpoint
            .as_ref()
            .context("--resume needs a checkpoint path")?;
        if path.exists() {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read checkpoint {}", path.display()))?;
            let cp: Checkpoint<J::State> = serde_json::from_str(&text)
                .map_err(|e| anyhow::anyhow!("corrupt checkpoint {}: {e}", path.display()))?;
            if cp.format != CHECKPOINT_FORMAT {
                bail!(
                    "checkpoint {} has unknown format {:?}",
                    path.display(),
                    cp.format
                );
            }
            if cp.fingerprint != job.fingerprint() {
                bail!(
                    "checkpoint {} was written by a different run (options or tasks differ)",
                    path.display()
                );
            }
            for (t, done, s) in cp.tasks {
                let slot = slots
                    .get_mut(t as usize)
                    .with_context(|| format!("corrupt checkpoint: task {t} out of range"))?;
                let done = job.restored_finished(t as usize, done, &s);
                *slot = Some((done, s));
            }
        }
    }
    let slots = Mutex::new(slots);
    let sims = AtomicU64::new(0);
    let finished = AtomicBool::new(false);
    let bar = if cfg.progress {
        ProgressBar::new(n as u64)
    } else {
        ProgressBar::with_draw_target(Some(n as u64), ProgressDrawTarget::hidden())
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} tasks, {msg} ETA {eta}",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    {
        let s = slots.lock().expect("no poisoning");
        bar.set_position(s.iter().filter(|x| matches!(x, Some((true, _)))).count() as u64);
    }
    let start = Instant::now();
    let pool = {
        let mut b = rayon::ThreadPoolBuilder::new();
        if let Some(t) = cfg.threads {
            b = b.num_threads(t.max(1));
        }
        b.build().context("cannot start worker threads")?
    };
    let save = |slots: &Slots<J::State>| -> Result<()> {
        let Some(path) = &cfg.checkpoint else {
            return Ok(());
        };
        let tasks: Vec<(u32, bool, J::State)> = {
            let s = slots.lock().expect("no poisoning");
            s.iter()
                .enumerate()
                .filter_map(|(i, x)| x.clone().map(|(d, st)| (i as u32, d, st)))
                .collect()
        };
        let cp = Checkpoint {
            format: CHECKPOINT_FORMAT.to_string(),
            fingerprint: job.fingerprint(),
            tasks,
        };
        write_atomic(path, serde_json::to_string(&cp)?.as_bytes())
    };
    let result: Result<()> = std::thread::scope(|scope| {
        let saver = scope.spawn(|| -> Result<()> {
            let mut last = Instant::now();
            while !finished.load(Ordering::Acquire) {
                std::thread::sleep(Duration::from_millis(50));
                if last.elapsed() >= cfg.checkpoint_every {
                    save(&slots)?;
                    last = Instant::now();
                }
                let rate =
                    sims.load(Ordering::Relaxed) as f64 / start.elapsed().as_secs_f64().max(1e-9);
                bar.set_message(format!("{rate:.0} sims/s"));
            }
            Ok(())
        });
        pool.install(|| {
            (0..n).into_par_iter().for_each(|t| {
                let mut state = {
                    let s = slots.lock().expect("no poisoning");
                    match &s[t] {
                        Some((true, _)) => return,
                        Some((false, st)) => st.clone(),
                        None => J::State::default(),
                    }
                };
                loop {
                    let before = job.simulations(&state);
                    let done = job.advance(t, &mut state);
                    sims.fetch_add(
                        job.simulations(&state).saturating_sub(before),
                        Ordering::Relaxed,
                    );
                    slots.lock().expect("no poisoning")[t] = Some((done, state.clone()));
                    if done {
                        break;
                    }
                }
                bar.inc(1);
            })
        });
        finished.store(true, Ordering::Release);
        saver.join().expect("checkpoint thread")?;
        save(&slots)
    });
    result?;
    bar.finish_and_clear();
    let slots = slots.into_inner().expect("no poisoning");
    Ok(slots
        .into_iter()
        .map(|s| s.map(|(_, st)| st).unwrap_or_default())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy job: task t sums pseudo-random numbers in batches until the sum passes a threshold.
    struct Toy;

    #[derive(Clone, Default, Serialize, Deserialize, PartialEq, Debug)]
    struct ToyState {
        batches: u32,
        sum: u64,
    }

    impl TaskJob for Toy {
        type State = ToyState;
        fn len(&self) -> usize {
            40
        }
        fn fingerprint(&self) -> String {
            "toy-1".into()
        }
        fn advance(&self, task: usize, s: &mut ToyState) -> bool {
            for i in 0..100u64 {
                s.sum += crate::rng::word(1, task as u64, s.batches as u64 * 100 + i, 0) % 1000;
            }
            s.batches += 1;
            s.sum > 100_000 + 10_000 * task as u64
        }
        fn simulations(&self, s: &ToyState) -> u64 {
            s.batches as u64 * 100
        }
    }

    #[test]
    fn results_do_not_depend_on_thread_count() {
        let one = run(
            &Toy,
            &RunConfig {
                threads: Some(1),
                ..Default::default()
            },
        )
        .unwrap();
        let two = run(
            &Toy,
            &RunConfig {
                threads: Some(2),
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(one, two);
        assert!(one.iter().all(|s| s.batches > 0));
    }

    #[test]
    fn resume_continues_from_a_partial_checkpoint() {
        let dir = tempfile::tempdir().unwrap();
        let cp = dir.path().join("cp.json");
        let full = run(&Toy, &RunConfig::default()).unwrap();
        // A checkpoint as a killed run leaves it: some tasks done, some part-way, some absent.
        let mut st3 = ToyState::default();
        Toy.advance(3, &mut st3);
        let partial = vec![(0, true, full[0].clone()), (3, false, st3)];
        let text = serde_json::to_string(&Checkpoint {
            format: CHECKPOINT_FORMAT.into(),
            fingerprint: Toy.fingerprint(),
            tasks: partial,
        })
        .unwrap();
        std::fs::write(&cp, text).unwrap();
        let resumed = run(
            &Toy,
            &RunConfig {
                checkpoint: Some(cp.clone()),
                resume: true,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(resumed, full);
        // The final checkpoint records every task as finished.
        let done: Checkpoint<ToyState> =
            serde_json::from_str(&std::fs::read_to_string(&cp).unwrap()).unwrap();
        assert_eq!(done.tasks.len(), 40);
        assert!(done.tasks.iter().all(|t| t.1));
    }

    /// A job whose tasks are finished after `target` batches: its fingerprint leaves the target
    /// out, as a job that only ever extends its work may.
    struct Growing {
        target: u32,
        calls: AtomicU64,
    }

    impl TaskJob for Growing {
        type State = ToyState;
        fn len(&self) -> usize {
            10
        }
        fn fingerprint(&self) -> String {
            "growing-1".into()
        }
        fn advance(&self, task: usize, s: &mut ToyState) -> bool {
            self.calls.fetch_add(1, Ordering::Relaxed);
            if s.batches < self.target {
                s.sum += crate::rng::word(2, task as u64, s.batches as u64, 0) % 1000;
                s.batches += 1;
            }
            s.batches >= self.target
        }
        fn simulations(&self, s: &ToyState) -> u64 {
            s.batches as u64
        }
        fn restored_finished(&self, _: usize, _: bool, s: &ToyState) -> bool {
            s.batches >= self.target
        }
    }

    #[test]
    fn finished_tasks_are_continued_when_the_job_asks_for_more() {
        let dir = tempfile::tempdir().unwrap();
        let cp = dir.path().join("cp.json");
        let cfg = RunConfig {
            checkpoint: Some(cp.clone()),
            resume: true,
            ..Default::default()
        };
        let job = |target| Growing {
            target,
            calls: AtomicU64::new(0),
        };
        let short = job(3);
        run(&short, &cfg).unwrap();
        assert_eq!(short.calls.load(Ordering::Relaxed), 30);
        // Asking for 5 batches continues each task from its 3 saved ones: 2 calls per task.
        let long = job(5);
        let resumed = run(&long, &cfg).unwrap();
        assert_eq!(long.calls.load(Ordering::Relaxed), 20);
        assert_eq!(resumed, run(&job(5), &RunConfig::default()).unwrap());
        // Asking for fewer runs nothing; the saved states (5 batches) are kept, not cut.
        let fewer = job(2);
        let again = run(&fewer, &cfg).unwrap();
        assert_eq!(fewer.calls.load(Ordering::Relaxed), 0);
        assert_eq!(again, resumed);
    }

    #[test]
    fn corrupt_or_foreign_checkpoints_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let cp = dir.path().join("cp.json");
        std::fs::write(&cp, "{not json").unwrap();
        let cfg = RunConfig {
            checkpoint: Some(cp.clone()),
            resume: true,
            ..Default::default()
        };
        let err = run(&Toy, &cfg).unwrap_err().to_string();
        assert!(err.contains("corrupt checkpoint"), "{err}");
        let foreign =
            serde_json::json!({"format": CHECKPOINT_FORMAT, "fingerprint": "other", "tasks": []});
        std::fs::write(&cp, foreign.to_string()).unwrap();
        let err = run(&Toy, &cfg).unwrap_err().to_string();
        assert!(err.contains("different run"), "{err}");
    }
}
