//! The parallel, resumable runner.
//!
//! Work is a list of tasks; each task advances in batches (`TaskJob::advance`) until it says it
//! is done. Tasks run in parallel on a rayon pool; the batches of one task run in order, and each
//! batch depends only on (job, task, state), so the results are identical for any thread count.
//! Every few seconds the states of all tasks are written to a checkpoint (atomically); a resumed
//! run continues each task from its saved state and therefore reaches the same final bytes.

use crate::files::{read_stamped, write_atomic, FileKind, Stamped};
use anyhow::{bail, Context, Result};
use rayon::prelude::*;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
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

/// What a run reports while it works: a progress bar, a log line, or nothing. The runner calls
/// it from its worker and checkpoint threads; nothing it does can change a result.
pub trait Progress: Send + Sync {
    /// The run starts with `total` tasks, `finished` of them already done (restored).
    fn start(&self, total: u64, finished: u64);
    /// Simulations per second so far (called a few times a second).
    fn rate(&self, sims_per_second: f64);
    /// One more task is finished.
    fn task_finished(&self);
    /// The run is over.
    fn finish(&self);
}

/// Told, when a run resumes from a checkpoint, its path, and how many tasks it holds finished
/// and how many part-way.
pub type OnResume = Arc<dyn Fn(&Path, u64, u64) + Send + Sync>;

/// How to run a job.
#[derive(Clone)]
pub struct RunConfig {
    /// Worker threads (`None`: one per core). Results do not depend on it.
    pub threads: Option<usize>,
    /// Where to save the tasks' states every `checkpoint_every`.
    pub checkpoint: Option<PathBuf>,
    /// Continue from `checkpoint` (a missing file starts afresh).
    pub resume: bool,
    pub checkpoint_every: Duration,
    /// Where progress goes (`None`: nowhere).
    pub progress: Option<Arc<dyn Progress>>,
    /// Told, when a run resumes from a checkpoint it accepted, its path and how many tasks it
    /// holds finished and how many part-way (`None`: no one).
    pub on_resume: Option<OnResume>,
}

impl std::fmt::Debug for RunConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunConfig")
            .field("threads", &self.threads)
            .field("checkpoint", &self.checkpoint)
            .field("resume", &self.resume)
            .field("checkpoint_every", &self.checkpoint_every)
            .field("progress", &self.progress.is_some())
            .field("on_resume", &self.on_resume.is_some())
            .finish()
    }
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            threads: None,
            checkpoint: None,
            resume: false,
            checkpoint_every: Duration::from_secs(5),
            progress: None,
            on_resume: None,
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

const CHECKPOINT: FileKind = FileKind {
    name: "checkpoint",
    format: "rephyre-checkpoint-1",
    other_run: "run (options or tasks differ)",
};

impl<S> Stamped for Checkpoint<S> {
    fn format(&self) -> &str {
        &self.format
    }
    fn fingerprint(&self) -> &str {
        &self.fingerprint
    }
}

/// Run every task of `job` to completion and return the final states in task order.
pub fn run<J: TaskJob>(job: &J, cfg: &RunConfig) -> Result<Vec<J::State>> {
    let n = job.len();
    let mut slots: Vec<Option<(bool, J::State)>> = vec![None; n];
    // Whether the checkpoint on disk lags behind the slots: a run that resumes a checkpoint with
    // nothing left to do leaves it as it is (a finished outcome table can be tens of MB, and
    // several runs may share it).
    let changed = AtomicBool::new(true);
    if cfg.resume {
        let path = cfg
            .checkpoint
            .as_ref()
            .context("--resume needs a checkpoint path")?;
        if path.exists() {
            let cp: Checkpoint<J::State> =
                read_stamped(path, &CHECKPOINT, Some(&job.fingerprint()))?;
            let mut same = true;
            for (t, done, s) in cp.tasks {
                let slot = slots
                    .get_mut(t as usize)
                    .with_context(|| format!("corrupt checkpoint: task {t} out of range"))?;
                let restored = job.restored_finished(t as usize, done, &s);
                same &= restored == done;
                *slot = Some((restored, s));
            }
            changed.store(!same, Ordering::Relaxed);
            if let Some(tell) = &cfg.on_resume {
                let finished = slots
                    .iter()
                    .filter(|x| matches!(x, Some((true, _))))
                    .count();
                let started = slots.iter().filter(|x| x.is_some()).count();
                tell(path, finished as u64, (started - finished) as u64);
            }
        }
    }
    let slots = Mutex::new(slots);
    let sims = AtomicU64::new(0);
    let finished = AtomicBool::new(false);
    let progress: &dyn Progress = match &cfg.progress {
        Some(p) => p.as_ref(),
        None => &Silent,
    };
    {
        let s = slots.lock().expect("no poisoning");
        let finished = s.iter().filter(|x| matches!(x, Some((true, _)))).count();
        progress.start(n as u64, finished as u64);
    }
    let start = Instant::now();
    let pool = pool(cfg.threads)?;
    let save = |slots: &Slots<J::State>| -> Result<()> {
        let Some(path) = &cfg.checkpoint else {
            return Ok(());
        };
        if !changed.swap(false, Ordering::AcqRel) {
            return Ok(());
        }
        let tasks: Vec<(u32, bool, J::State)> = {
            let s = slots.lock().expect("no poisoning");
            s.iter()
                .enumerate()
                .filter_map(|(i, x)| x.clone().map(|(d, st)| (i as u32, d, st)))
                .collect()
        };
        let cp = Checkpoint {
            format: CHECKPOINT.format.to_string(),
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
                progress.rate(rate);
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
                    changed.store(true, Ordering::Release);
                    if done {
                        break;
                    }
                }
                progress.task_finished();
            })
        });
        finished.store(true, Ordering::Release);
        saver.join().expect("checkpoint thread")?;
        save(&slots)
    });
    result?;
    progress.finish();
    let slots = slots.into_inner().expect("no poisoning");
    Ok(slots
        .into_iter()
        .map(|s| s.map(|(_, st)| st).unwrap_or_default())
        .collect())
}

/// Refuse the checkpoint at `path`, when there is one, as a resume of a job would whose
/// fingerprint is known only in part (e.g. before the agent it plays is trained): `accept` says
/// whether the checkpoint's fingerprint may be the job's. The refusal is the resume's.
pub fn check_checkpoint(path: &Path, accept: impl Fn(&str) -> bool) -> Result<()> {
    if !path.exists() {
        return Ok(());
    }
    let cp: Checkpoint<serde::de::IgnoredAny> = read_stamped(path, &CHECKPOINT, None)?;
    if !accept(&cp.fingerprint) {
        bail!(
            "{} {} was written by a different {}",
            CHECKPOINT.name,
            path.display(),
            CHECKPOINT.other_run
        );
    }
    Ok(())
}

/// Write to `path` the checkpoint a finished run of `job` leaves behind, every task finished with
/// its state of `states` (in task order): the same bytes as [`run`]'s last checkpoint, so a later
/// run resumed from it has nothing left to do. Merged shards become a cache this way.
pub fn write_finished<J: TaskJob>(job: &J, states: Vec<J::State>, path: &Path) -> Result<()> {
    if states.len() != job.len() {
        bail!("{} states for a job of {} tasks", states.len(), job.len());
    }
    let cp = Checkpoint {
        format: CHECKPOINT.format.to_string(),
        fingerprint: job.fingerprint(),
        tasks: states
            .into_iter()
            .enumerate()
            .map(|(i, s)| (i as u32, true, s))
            .collect(),
    };
    write_atomic(path, serde_json::to_string(&cp)?.as_bytes())
}

/// A worker pool of `threads` threads (`None`: one per core): the pool of every study.
pub fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool> {
    let mut b = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        b = b.num_threads(t.max(1));
    }
    b.build().context("cannot start worker threads")
}

/// Progress that goes nowhere.
struct Silent;

impl Progress for Silent {
    fn start(&self, _: u64, _: u64) {}
    fn rate(&self, _: f64) {}
    fn task_finished(&self) {}
    fn finish(&self) {}
}

/// The most indices [`ordered_speculative`] evaluates at once.
pub const MAX_AHEAD: u64 = 4096;

/// The sequential loop
///
/// ```text
/// while let Some(i) = next(state) {
///     let r = eval(i);
///     apply(state, i, r);
/// }
/// ```
///
/// with the `eval` calls run ahead of it in parallel, on the current rayon pool: from the index
/// `next` gives, the next `ahead(state)` indices are evaluated at once, then their results are
/// applied strictly in index order for as long as `next` still asks for exactly that index. When
/// the loop would stop (or move to another index) part-way, the results after that point are
/// thrown away and evaluation resumes, if at all, from the index `next` now gives.
///
/// `eval` must depend on the index only (not on the state, and with no side effect that the
/// state sees); then `apply` receives exactly the calls, arguments and order of the sequential
/// loop, so the final state is the same bit for bit whatever the thread count. This is how one
/// long task's work is spread over every core: nested inside [`run`]'s pool, rayon's work
/// stealing lets a worker with no task of its own left take a share of a chunk.
///
/// `ahead` sets how far to speculate: evaluations past the stopping point are lost work, so a
/// caller sizes it from what it expects is left (at least 1 is used). On a one-thread pool nothing
/// is gained from evaluating ahead, and each index is evaluated alone (exactly the plain loop).
///
/// Returns the number of `eval` calls made, applied or thrown away.
///
/// [`MAX_AHEAD`] bounds the chunk (a memory bound; sensible chunks are far smaller).
pub fn ordered_speculative<S, R>(
    state: &mut S,
    next: impl Fn(&S) -> Option<u64>,
    ahead: impl Fn(&S) -> u64,
    eval: impl Fn(u64) -> R + Sync,
    mut apply: impl FnMut(&mut S, u64, R),
) -> u64
where
    R: Send,
{
    let parallel = rayon::current_num_threads() > 1;
    let mut evaluated = 0;
    while let Some(first) = next(state) {
        let wanted = if parallel {
            ahead(state).clamp(1, MAX_AHEAD)
        } else {
            1
        };
        let count = first.saturating_add(wanted) - first;
        let results: Vec<R> = if count <= 1 {
            vec![eval(first)]
        } else {
            (0..count as usize)
                .into_par_iter()
                .map(|j| eval(first + j as u64))
                .collect()
        };
        evaluated += results.len() as u64;
        for (i, r) in (first..).zip(results) {
            if next(state) != Some(i) {
                break;
            }
            apply(state, i, r);
        }
    }
    evaluated
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
                s.sum += tasks::rng::word(1, task as u64, s.batches as u64 * 100 + i, 0) % 1000;
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
            format: CHECKPOINT.format.into(),
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
                s.sum += tasks::rng::word(2, task as u64, s.batches as u64, 0) % 1000;
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
        // Asking for fewer runs nothing; the saved states (5 batches) are kept, not cut, and the
        // checkpoint is not written again (a write replaces the file: a new inode).
        let written = identity(&cp);
        let fewer = job(2);
        let again = run(&fewer, &cfg).unwrap();
        assert_eq!(fewer.calls.load(Ordering::Relaxed), 0);
        assert_eq!(again, resumed);
        assert_eq!(
            identity(&cp),
            written,
            "a run with nothing to do rewrote its checkpoint"
        );
        run(&job(6), &cfg).unwrap();
        assert_ne!(
            identity(&cp),
            written,
            "a run that did work kept the old checkpoint"
        );
    }

    /// What tells one file at a path from its atomic replacement.
    fn identity(path: &std::path::Path) -> (u64, Vec<u8>) {
        #[cfg(unix)]
        let ino = std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(path).unwrap());
        #[cfg(not(unix))]
        let ino = 0;
        (ino, std::fs::read(path).unwrap())
    }

    /// A synthetic loop like solvability's: index i is "valid" (worth its value) or not; stop
    /// once `target` valid ones are counted or at index `cap`.
    #[derive(Clone, Debug, Default, PartialEq)]
    struct Count {
        next: u64,
        valid: u64,
        invalid: u64,
        sum: u64,
        applied: Vec<u64>,
    }

    fn value(i: u64) -> Option<u64> {
        let w = tasks::rng::word(3, 7, i, 0);
        (!w.is_multiple_of(3)).then_some(w % 1000)
    }

    fn count_apply(s: &mut Count, i: u64, r: Option<u64>) {
        s.next = i + 1;
        s.applied.push(i);
        match r {
            Some(v) => {
                s.valid += 1;
                s.sum += v;
            }
            None => s.invalid += 1,
        }
    }

    fn sequential(start: Count, target: u64, cap: u64) -> Count {
        let mut s = start;
        while s.valid < target && s.next < cap {
            let i = s.next;
            count_apply(&mut s, i, value(i));
        }
        s
    }

    fn speculative(
        start: Count,
        target: u64,
        cap: u64,
        ahead: u64,
        threads: usize,
    ) -> (Count, u64) {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut s = start;
        let evaluated = pool.install(|| {
            ordered_speculative(
                &mut s,
                |s| (s.valid < target && s.next < cap).then_some(s.next),
                |_| ahead,
                value,
                count_apply,
            )
        });
        (s, evaluated)
    }

    #[test]
    fn speculation_gives_the_sequential_loop() {
        for threads in [1, 2, 3] {
            for ahead in [0, 1, 2, 5, 16, 100, u64::MAX] {
                for (target, cap) in [(0, 50), (1, 50), (10, 50), (40, 50), (60, 50), (33, 1000)] {
                    for start in [0, 7] {
                        let s0 = sequential(Count::default(), start, 1000);
                        let want = sequential(s0.clone(), target, cap);
                        let (got, evaluated) = speculative(s0.clone(), target, cap, ahead, threads);
                        assert_eq!(got, want, "threads {threads} ahead {ahead} target {target}");
                        let used = want.next - s0.next;
                        assert!(evaluated >= used);
                        if threads == 1 {
                            assert_eq!(evaluated, used);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn speculation_stops_in_the_middle_of_a_chunk() {
        // Chunks of 10; the 5th valid index lies inside the first chunk.
        let (got, evaluated) = speculative(Count::default(), 5, 1000, 10, 2);
        let want = sequential(Count::default(), 5, 1000);
        assert!(want.next < 10, "{want:?}");
        assert_eq!(got, want);
        assert_eq!(got.applied, (0..want.next).collect::<Vec<_>>());
        // The rest of the chunk was evaluated and thrown away.
        assert_eq!(evaluated, 10);
        // The cap cuts a chunk too.
        let (got, evaluated) = speculative(Count::default(), 1000, 13, 10, 2);
        assert_eq!(got, sequential(Count::default(), 1000, 13));
        assert_eq!((got.next, evaluated), (13, 20));
    }

    #[test]
    fn speculation_follows_a_loop_that_jumps() {
        // `next` skips every index ending in 3: the chunk is dropped there and restarts.
        let next = |s: &Count| {
            let i = if s.next % 10 == 3 { s.next + 1 } else { s.next };
            (s.valid < 20).then_some(i)
        };
        let mut want = Count::default();
        while let Some(i) = next(&want) {
            count_apply(&mut want, i, value(i));
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let mut got = Count::default();
        pool.install(|| ordered_speculative(&mut got, next, |_| 6, value, count_apply));
        assert_eq!(got, want);
        assert!(!got.applied.iter().any(|i| i % 10 == 3));
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
            serde_json::json!({"format": CHECKPOINT.format, "fingerprint": "other", "tasks": []});
        std::fs::write(&cp, foreign.to_string()).unwrap();
        let err = run(&Toy, &cfg).unwrap_err().to_string();
        assert!(err.contains("different run"), "{err}");
    }
}
