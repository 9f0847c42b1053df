//! Training the Phy-Q DQN (`agents::dqn::phyq`): experiences collected on the training tasks of
//! a setting with the simulator, then the network trained on them. The only place the DQN's
//! data touches the simulator; the agent it makes plays from the picture alone.
//!
//! Collection: each training task is played `episodes` times. At each bird's decision the
//! observation is recorded, `explore` distinct shots of the action set (drawn per (seed, task,
//! episode)) are each simulated from a copy of the game, and each gives an experience (the
//! shot, whether the level is passed after it); the episode goes on with the shot that left the
//! fewest pigs (the first drawn of equals), until the level is passed or no bird is left. One
//! training task is one task of the runner ([`Collection`]): tasks are collected in parallel,
//! saved to the collection's checkpoint as each one finishes, and concatenated in task order, so
//! the experiences, and with a seed the model, are the same on any thread count and after any
//! resume.
//!
//! Training: [`agents::dqn::phyq::train_from`], its [`Snapshot`] (weights, Adam's state, losses)
//! written to the training's checkpoint every few seconds and after the last update; a resumed
//! training goes on from it to the same model bytes. Both checkpoints carry the fingerprint of
//! every option and of the training tasks ([`fingerprint`]); a resume with other ones is refused.

use crate::files::write_atomic;
use crate::phyq::{train_tasks, EvalTask, Setting};
use crate::runner::{self, RunConfig, TaskJob};
use agents::dqn::phyq::{
    action_shot, observe, train_from, Config, Experience, Hooks, Model, Snapshot, ACTIONS,
};
use agents::dqn::TrainProgress;
use agents::phyq::Draws;
use anyhow::{bail, Context, Result};
use phyq::game::Game;
use phyq::levelset::Entry;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tasks::rng::fnv64;

/// How the experiences are collected (module doc), with the defaults the command line shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CollectionOptions {
    /// Attempts per training task.
    pub episodes: u32,
    /// Shots tried per decision (1..=ACTIONS).
    pub explore: u32,
    /// Collect on every `stride`-th training task only (1: all).
    pub stride: usize,
}

impl CollectionOptions {
    /// The defaults: 1 episode, 8 shots per decision, every task.
    pub const DEFAULT: CollectionOptions = CollectionOptions {
        episodes: 1,
        explore: 8,
        stride: 1,
    };
}

/// What determines a trained model.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    pub setting: Setting,
    pub collection: CollectionOptions,
    /// The network and its training (its seed is the run's).
    pub config: Config,
}

impl Params {
    /// The defaults ([`CollectionOptions::DEFAULT`], [`Config::new`]) on `setting` with `seed`.
    pub fn new(setting: Setting, seed: u64) -> Params {
        Params {
            setting,
            collection: CollectionOptions::DEFAULT,
            config: Config::new(seed),
        }
    }

    /// Refuse options that cannot make a model (before any work), in the command line's terms
    /// for the collection's; the network's rules are agents' ([`Config::check`]).
    pub fn check(&self) -> Result<()> {
        let c = &self.collection;
        if c.episodes == 0 || c.episodes > 1000 {
            bail!("--dqn-episodes must be 1 to 1000, got {}", c.episodes);
        }
        if c.explore == 0 || c.explore as usize > ACTIONS {
            bail!("--dqn-explore must be 1 to {ACTIONS}, got {}", c.explore);
        }
        if c.stride == 0 {
            bail!("--dqn-stride must be at least 1");
        }
        self.config.check().map_err(anyhow::Error::msg)
    }
}

/// The experiences of a run: observations and what was tried on each.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Experiences {
    pub observations: Vec<Vec<u8>>,
    pub experiences: Vec<Experience>,
    /// Simulated shots.
    pub shots: u64,
    /// Tasks that could not be played (skipped).
    pub errors: usize,
}

/// Random stream offset of the collection's draws ("PQ-EXPL").
const EXPLORE: u64 = 0x0050_512d_4558_504c;

/// The experiences of one task (module doc); `Err` when the level cannot be played.
pub fn collect_task(task: &EvalTask, params: &Params) -> Result<Experiences, String> {
    let level = &task.level;
    let stream = fnv64(task.id.to_string().as_bytes()) ^ EXPLORE;
    let mut out = Experiences::default();
    for episode in 0..params.collection.episodes {
        let mut draws = Draws::new(params.config.seed, stream, u64::from(episode));
        let mut game = Game::new(level).map_err(|e| e.to_string())?;
        game.settle();
        while game.pigs_left() > 0 && game.birds_left() > 0 {
            // `explore` distinct actions: a partial Fisher-Yates shuffle of the action set.
            let mut order: Vec<u16> = (0..ACTIONS as u16).collect();
            let k = params.collection.explore as usize;
            for i in 0..k {
                let j = draws.int_in(i as i64, ACTIONS as i64 - 1) as usize;
                order.swap(i, j);
            }
            let obs = out.observations.len() as u32;
            out.observations.push(observe(&game, level));
            let mut best: Option<(u32, Game)> = None;
            for &a in &order[..k] {
                let mut g = game.clone();
                let shot = action_shot(&g, level, usize::from(a)).to_shot(level);
                g.shoot(&shot).map_err(|e| e.to_string())?;
                out.shots += 1;
                out.experiences.push(Experience {
                    obs,
                    action: a,
                    passed: g.pigs_left() == 0,
                });
                if best.as_ref().is_none_or(|(p, _)| g.pigs_left() < *p) {
                    best = Some((g.pigs_left(), g));
                }
            }
            match best {
                Some((_, g)) => game = g,
                None => break,
            }
        }
    }
    Ok(out)
}

/// One training task's collection: the runner's state of a [`Collection`] task and what its
/// checkpoint holds of it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Collected {
    /// The task's observations, each [`pack`]ed.
    observations: Vec<String>,
    /// (observation of this task, action, passed) of each experience, in order.
    experiences: Vec<(u32, u16, bool)>,
    /// Simulated shots.
    shots: u64,
    /// Why the level could not be played (it gives no experience).
    error: Option<String>,
}

impl Collected {
    fn of(result: Result<Experiences, String>) -> Collected {
        match result {
            Ok(e) => Collected {
                observations: e.observations.iter().map(|o| pack(o)).collect(),
                experiences: e
                    .experiences
                    .iter()
                    .map(|x| (x.obs, x.action, x.passed))
                    .collect(),
                shots: e.shots,
                error: None,
            },
            Err(why) => Collected {
                error: Some(why),
                ..Collected::default()
            },
        }
    }
}

/// An observation as text: two hex digits per byte, a run of `n` zero bytes as `z{n};` (most
/// of an observation's cells are empty).
pub fn pack(bytes: &[u8]) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == 0 {
            let run = bytes[i..].iter().take_while(|&&b| b == 0).count();
            out.push_str(&format!("z{run};"));
            i += run;
        } else {
            out.push_str(&format!("{:02x}", bytes[i]));
            i += 1;
        }
    }
    out
}

/// The bytes of a [`pack`]ed observation; `None` when the text is not one.
pub fn unpack(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut rest = text.as_bytes();
    while let Some(&first) = rest.first() {
        if first == b'z' {
            let end = rest.iter().position(|&b| b == b';')?;
            let run: usize = std::str::from_utf8(&rest[1..end]).ok()?.parse().ok()?;
            if run == 0 || run > agents::dqn::phyq::OBS_LEN {
                return None;
            }
            out.resize(out.len() + run, 0);
            rest = &rest[end + 1..];
        } else {
            let pair = std::str::from_utf8(rest.get(..2)?).ok()?;
            out.push(u8::from_str_radix(pair, 16).ok()?);
            rest = &rest[2..];
        }
    }
    Some(out)
}

/// The fingerprint of a training: the crate version, every option of `params` and the training
/// tasks' ids and content. Both checkpoints of a run carry it.
pub fn fingerprint(params: &Params, tasks: &[EvalTask]) -> String {
    let mut content = Vec::new();
    for t in tasks {
        content.extend_from_slice(t.id.to_string().as_bytes());
        content.extend(serde_json::to_vec(&t.level).unwrap_or_default());
    }
    let (collection, config) = (&params.collection, &params.config);
    format!(
        "phyq-dqn-1 {} setting {} episodes {} explore {} stride {} hidden {} updates {} lr {:?} seed {} tasks {} {:016x}",
        env!("CARGO_PKG_VERSION"),
        params.setting.word(),
        collection.episodes,
        collection.explore,
        collection.stride,
        config.hidden,
        config.updates,
        config.lr,
        config.seed,
        tasks.len(),
        fnv64(&content)
    )
}

/// The training tasks of `params.setting` among `entries` that the run collects on (every
/// `stride`-th).
pub fn collection_tasks(entries: &[Entry], params: &Params) -> Result<Vec<EvalTask>> {
    params.check()?;
    Ok(train_tasks(entries, params.setting)?
        .into_iter()
        .step_by(params.collection.stride)
        .collect())
}

/// The collection as a job of the runner: one task per training task.
pub struct Collection<'a> {
    pub params: &'a Params,
    pub tasks: Vec<EvalTask>,
    fingerprint: String,
}

impl<'a> Collection<'a> {
    pub fn new(entries: &[Entry], params: &'a Params) -> Result<Collection<'a>> {
        let tasks = collection_tasks(entries, params)?;
        Ok(Collection {
            fingerprint: fingerprint(params, &tasks),
            params,
            tasks,
        })
    }

    /// The experiences of the finished tasks' states, concatenated in task order.
    pub fn experiences(&self, states: &[Collected]) -> Result<Experiences> {
        let mut all = Experiences::default();
        for (task, s) in self.tasks.iter().zip(states) {
            if s.error.is_some() {
                all.errors += 1;
                continue;
            }
            let base = all.observations.len() as u32;
            for o in &s.observations {
                let bytes = unpack(o).filter(|b| b.len() == agents::dqn::phyq::OBS_LEN);
                all.observations.push(bytes.with_context(|| {
                    format!(
                        "the collection's state of {} holds a bad observation",
                        task.id
                    )
                })?);
            }
            for &(obs, action, passed) in &s.experiences {
                if obs as usize >= s.observations.len() || usize::from(action) >= ACTIONS {
                    bail!(
                        "the collection's state of {} holds a bad experience",
                        task.id
                    );
                }
                all.experiences.push(Experience {
                    obs: obs + base,
                    action,
                    passed,
                });
            }
            all.shots += s.shots;
        }
        Ok(all)
    }
}

impl TaskJob for Collection<'_> {
    type State = Collected;

    fn len(&self) -> usize {
        self.tasks.len()
    }

    fn fingerprint(&self) -> String {
        self.fingerprint.clone()
    }

    fn advance(&self, task: usize, state: &mut Collected) -> bool {
        *state = Collected::of(collect_task(&self.tasks[task], self.params));
        true
    }

    fn simulations(&self, state: &Collected) -> u64 {
        state.shots
    }
}

/// The experiences of every training task of `params.setting` among `entries` (every
/// `stride`-th), run as `cfg` says (threads, progress, checkpoint and resume); the result does
/// not depend on the thread count or on a resume.
pub fn collect(entries: &[Entry], params: &Params, cfg: &RunConfig) -> Result<Experiences> {
    let job = Collection::new(entries, params)?;
    let states = runner::run(&job, cfg)?;
    job.experiences(&states)
}

/// Where the training's snapshots go: written every `every` and after the last update, read
/// back on `resume` when the file exists.
#[derive(Clone)]
pub struct TrainCheckpoint {
    pub path: PathBuf,
    pub resume: bool,
    pub every: Duration,
    /// Told, when a training goes on from the file, after how many updates.
    pub on_resume: Option<Arc<dyn Fn(usize) + Send + Sync>>,
}

/// The two checkpoint files of a DQN training checkpointed at `path`: the collection's
/// (`PATH.collect`) and the training's (`PATH.train`); `path` itself is the evaluation's.
pub fn checkpoint_files(path: &Path) -> (PathBuf, PathBuf) {
    let with = |suffix: &str| {
        let mut p = path.as_os_str().to_owned();
        p.push(suffix);
        PathBuf::from(p)
    };
    (with(".collect"), with(".train"))
}

/// Read the training's snapshot at `path`, refusing one of another run.
pub fn read_snapshot(path: &Path, fingerprint: &str) -> Result<Snapshot> {
    let bytes = std::fs::read(path)
        .with_context(|| format!("cannot read checkpoint {}", path.display()))?;
    let (written_by, snapshot) = Snapshot::from_bytes(&bytes).map_err(|why| {
        anyhow::anyhow!(
            "checkpoint {} is not a Phy-Q DQN training checkpoint: {why}",
            path.display()
        )
    })?;
    if written_by != fingerprint {
        bail!(
            "checkpoint {} was written by a different run (options or tasks differ)",
            path.display()
        );
    }
    Ok(snapshot)
}

/// The training's hooks: progress, and snapshots written to the checkpoint when due.
struct Saving<'a> {
    checkpoint: Option<&'a TrainCheckpoint>,
    fingerprint: &'a str,
    updates: usize,
    last: Instant,
    progress: &'a dyn TrainProgress,
    error: Option<anyhow::Error>,
}

impl Hooks for Saving<'_> {
    fn updated(&mut self, _: usize, loss: f32) {
        self.progress.update(loss);
    }

    fn snapshot_due(&mut self, done: usize) -> bool {
        self.checkpoint
            .is_some_and(|c| done == self.updates || self.last.elapsed() >= c.every)
    }

    fn snapshot(&mut self, snapshot: Snapshot) -> Result<(), String> {
        let Some(c) = self.checkpoint else {
            return Ok(());
        };
        self.last = Instant::now();
        write_atomic(&c.path, &snapshot.to_bytes(self.fingerprint)).map_err(|e| {
            let text = format!("{e:#}");
            self.error = Some(e);
            text
        })
    }
}

/// A trained model and what it was trained on.
pub struct Trained {
    pub model: Model,
    pub data: Experiences,
}

/// Collect (as `collect_cfg` says: threads, progress, the collection's checkpoint), then train
/// (snapshots to `checkpoint`, progress to `progress`): the model of `params`, the same bytes
/// whatever the thread count and however often the run was stopped and resumed. Its header
/// says what it was trained on.
pub fn run(
    entries: &[Entry],
    params: &Params,
    collect_cfg: &RunConfig,
    checkpoint: Option<&TrainCheckpoint>,
    progress: &dyn TrainProgress,
) -> Result<Trained> {
    let job = Collection::new(entries, params)?;
    let fingerprint = job.fingerprint();
    // The training's checkpoint first: a resume of other options is refused before any work.
    let start = match checkpoint {
        Some(c) if c.resume && c.path.exists() => Some(read_snapshot(&c.path, &fingerprint)?),
        _ => None,
    };
    let states = runner::run(&job, collect_cfg)?;
    let data = job.experiences(&states)?;
    if let (Some(s), Some(tell)) = (&start, checkpoint.and_then(|c| c.on_resume.as_ref())) {
        tell(s.updates);
    }
    let updates = params.config.updates;
    progress.planned((updates - start.as_ref().map_or(0, |s| s.updates.min(updates))) as u64);
    let mut hooks = Saving {
        checkpoint,
        fingerprint: &fingerprint,
        updates,
        last: Instant::now(),
        progress,
        error: None,
    };
    let trained = train_from(
        &params.config,
        &data.observations,
        &data.experiences,
        start,
        &mut hooks,
    );
    progress.finish();
    let mut model = match (trained, hooks.error) {
        (Ok(m), _) => m,
        (Err(_), Some(e)) => return Err(e),
        (Err(e), None) => bail!("cannot train the Phy-Q DQN: {e}"),
    };
    model.header.trained_on = format!(
        "{} setting training tasks (every {}), {} episodes, {} shots per decision: {} decisions, {} shots simulated",
        params.setting.word(),
        params.collection.stride,
        params.collection.episodes,
        params.collection.explore,
        data.observations.len(),
        data.shots
    );
    Ok(Trained { model, data })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phyq::test_tasks;

    fn tiny(setting: Setting) -> Params {
        let mut p = Params::new(setting, 9);
        p.collection.explore = 3;
        p.collection.stride = 997;
        p.config.hidden = 8;
        p.config.updates = 10;
        p
    }

    #[test]
    fn training_tasks_are_the_settings_other_side() {
        let entries = phyq::generator::builtin_tasks().entries();
        for setting in [Setting::Local, Setting::Broad] {
            let train: Vec<String> = train_tasks(entries, setting)
                .expect("tasks")
                .iter()
                .map(|t| t.id.to_string())
                .collect();
            let test = test_tasks(entries, setting).expect("tasks");
            assert_eq!(train.len() + test.len(), entries.len());
            assert!(test.iter().all(|t| !train.contains(&t.id.to_string())));
            if setting == Setting::Local {
                assert_eq!(train.len(), 75 * 80);
            }
        }
        assert!(train_tasks(entries, Setting::All).is_err());
    }

    fn threads(n: usize) -> RunConfig {
        RunConfig {
            threads: Some(n),
            ..RunConfig::default()
        }
    }

    fn trained(entries: &[Entry], p: &Params, n: usize) -> (Vec<u8>, Experiences) {
        let t = run(entries, p, &threads(n), None, &agents::dqn::NoProgress).expect("runs");
        (t.model.to_bytes(), t.data)
    }

    #[test]
    fn a_tiny_run_is_the_same_on_any_thread_count() {
        let entries = phyq::generator::builtin_tasks().entries();
        let p = tiny(Setting::Broad);
        let (one, data_one) = trained(entries, &p, 1);
        let (two, data_two) = trained(entries, &p, 2);
        assert_eq!(data_one, data_two);
        assert_eq!(one, two);
        assert!(!data_one.experiences.is_empty());
        assert_eq!(data_one.shots, data_one.experiences.len() as u64);
        // Every decision tried `explore` distinct shots.
        for d in data_one.experiences.chunks(3) {
            assert!(d.iter().all(|e| e.obs == d[0].obs));
            assert!(d[0].action != d[1].action && d[1].action != d[2].action);
        }
        let mut other = p.clone();
        other.config.seed += 1;
        let (three, _) = trained(entries, &other, 2);
        assert_ne!(one, three);
    }

    #[test]
    fn observations_pack_and_unpack() {
        let entries = phyq::generator::builtin_tasks().entries();
        let task = &collection_tasks(entries, &tiny(Setting::Local)).expect("tasks")[0];
        let e = collect_task(task, &tiny(Setting::Local)).expect("plays");
        for o in &e.observations {
            let packed = pack(o);
            assert!(packed.len() < o.len(), "{} for {}", packed.len(), o.len());
            assert_eq!(unpack(&packed).as_ref(), Some(o));
        }
        for bytes in [vec![], vec![0], vec![0, 0, 7], vec![255, 0], vec![1, 2, 3]] {
            assert_eq!(unpack(&pack(&bytes)), Some(bytes));
        }
        for bad in ["z", "z0;", "z3", "0", "zz;", "g0", "z99999999;"] {
            assert_eq!(unpack(bad), None, "{bad}");
        }
    }

    /// The first `k` tasks of a collection under its fingerprint: the checkpoint it leaves is
    /// the one a run killed after finishing them leaves.
    struct FirstOf<'a>(&'a Collection<'a>, usize);

    impl TaskJob for FirstOf<'_> {
        type State = Collected;
        fn len(&self) -> usize {
            self.1
        }
        fn fingerprint(&self) -> String {
            self.0.fingerprint()
        }
        fn advance(&self, task: usize, state: &mut Collected) -> bool {
            self.0.advance(task, state)
        }
        fn simulations(&self, state: &Collected) -> u64 {
            self.0.simulations(state)
        }
    }

    /// Counts the tasks a run does.
    #[derive(Default)]
    struct Count(std::sync::Mutex<(u64, u64)>);

    impl runner::Progress for Count {
        fn start(&self, _: u64, finished: u64) {
            self.0.lock().expect("no poisoning").0 = finished;
        }
        fn rate(&self, _: f64) {}
        fn task_finished(&self) {
            self.0.lock().expect("no poisoning").1 += 1;
        }
        fn finish(&self) {}
    }

    #[test]
    fn a_collection_resumed_from_its_checkpoint_is_the_uninterrupted_one() {
        let dir = tempfile::tempdir().expect("temp dir");
        let ckpt = dir.path().join("c.ckpt.collect");
        let entries = phyq::generator::builtin_tasks().entries();
        let mut p = tiny(Setting::Local);
        p.collection.stride = 600; // 10 tasks
        let whole = collect(entries, &p, &threads(1)).expect("collects");
        let job = Collection::new(entries, &p).expect("a job");
        assert_eq!(job.len(), 10);
        // Stopped after 4 tasks (on two threads) ...
        let cfg = |n: usize| RunConfig {
            checkpoint: Some(ckpt.clone()),
            resume: true,
            ..threads(n)
        };
        runner::run(&FirstOf(&job, 4), &cfg(2)).expect("runs");
        // ... resumed on one: only the other 6 are collected, and the experiences are the same.
        let count = Arc::new(Count::default());
        let resumed = RunConfig {
            progress: Some(count.clone()),
            ..cfg(1)
        };
        assert_eq!(collect(entries, &p, &resumed).expect("resumes"), whole);
        assert_eq!(*count.0.lock().expect("no poisoning"), (4, 6));
        // The finished checkpoint resumes with nothing to do, on three threads.
        let count = Arc::new(Count::default());
        let again = RunConfig {
            progress: Some(count.clone()),
            ..cfg(3)
        };
        assert_eq!(collect(entries, &p, &again).expect("resumes"), whole);
        assert_eq!(*count.0.lock().expect("no poisoning"), (10, 0));
        // A checkpoint of other options is refused, whichever option it is.
        let changes: [fn(&mut Params); 5] = [
            |p: &mut Params| p.collection.explore += 1,
            |p: &mut Params| p.config.seed += 1,
            |p: &mut Params| p.config.updates += 1,
            |p: &mut Params| p.config.hidden += 1,
            |p: &mut Params| p.setting = Setting::Broad,
        ];
        for change in changes {
            let mut other = p.clone();
            change(&mut other);
            let e = collect(entries, &other, &cfg(1)).unwrap_err().to_string();
            assert!(e.contains("was written by a different run"), "{e}");
        }
        // So is one of other tasks (the same ids, another level).
        let mut changed = entries.to_vec();
        changed[0].level.width += 1;
        let e = collect(&changed, &p, &cfg(1)).unwrap_err().to_string();
        assert!(e.contains("was written by a different run"), "{e}");
    }

    /// Training progress that stops the run (a panic, as a kill) after `at` updates.
    struct StopAfter(usize, std::sync::atomic::AtomicUsize);

    impl TrainProgress for StopAfter {
        fn planned(&self, _: u64) {}
        fn update(&self, _: f32) {
            let done = self.1.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            if done > self.0 {
                panic!("stopped after {} updates", self.0);
            }
        }
    }

    #[test]
    fn a_training_resumed_from_its_checkpoint_gives_the_same_model() {
        let dir = tempfile::tempdir().expect("temp dir");
        let (collect_path, train_path) = checkpoint_files(&dir.path().join("run.ckpt"));
        assert!(train_path.to_string_lossy().ends_with("run.ckpt.train"));
        let entries = phyq::generator::builtin_tasks().entries();
        let p = tiny(Setting::Local);
        let (whole, _) = trained(entries, &p, 1);
        let collect_cfg = RunConfig {
            checkpoint: Some(collect_path.clone()),
            resume: true,
            ..threads(2)
        };
        let resumed_at = Arc::new(std::sync::Mutex::new(None));
        let told = resumed_at.clone();
        let ckpt = TrainCheckpoint {
            path: train_path.clone(),
            resume: true,
            every: Duration::ZERO,
            on_resume: Some(Arc::new(move |u| {
                *told.lock().expect("no poisoning") = Some(u);
            })),
        };
        // Stopped after 6 of 10 updates: the checkpoint holds the first 6.
        let stop = StopAfter(6, Default::default());
        let killed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            run(entries, &p, &collect_cfg, Some(&ckpt), &stop)
        }));
        assert!(killed.is_err(), "the training was not stopped");
        let (fp, snapshot) =
            Snapshot::from_bytes(&std::fs::read(&train_path).expect("a file")).expect("a snapshot");
        assert_eq!(snapshot.updates, 6);
        let job = Collection::new(entries, &p).expect("a job");
        assert_eq!(fp, job.fingerprint());
        // Resumed (on one thread): the 4 other updates, the same model bytes.
        let resumed = run(
            entries,
            &p,
            &RunConfig {
                threads: Some(1),
                ..collect_cfg.clone()
            },
            Some(&ckpt),
            &StopAfter(4, Default::default()),
        )
        .expect("resumes");
        assert_eq!(resumed.model.to_bytes(), whole, "resumed model differs");
        assert_eq!(*resumed_at.lock().expect("no poisoning"), Some(6));
        // The last checkpoint is the finished training: resumed, nothing is left to do.
        let again = run(
            entries,
            &p,
            &collect_cfg,
            Some(&ckpt),
            &StopAfter(0, Default::default()),
        )
        .expect("nothing to do");
        assert_eq!(again.model.to_bytes(), whole);
        // A training checkpoint of other options is refused, before any collection (the
        // collection's own checkpoint, which would refuse it first, is removed).
        std::fs::remove_file(&collect_path).expect("remove");
        let refusal = |params: &Params| {
            run(
                entries,
                params,
                &collect_cfg,
                Some(&ckpt),
                &StopAfter(0, Default::default()),
            )
            .err()
            .expect("refused")
            .to_string()
        };
        let mut other = p.clone();
        other.config.lr *= 2.0;
        let e = refusal(&other);
        assert!(
            e.contains("run.ckpt.train was written by a different run"),
            "{e}"
        );
        assert!(!collect_path.exists(), "a refused run collected");
        // A damaged one says so.
        std::fs::write(&train_path, b"rephyre-phyq-dqn-training 1\n{}\n").expect("write");
        let e = refusal(&p);
        assert!(e.contains("is not a Phy-Q DQN training checkpoint"), "{e}");
    }

    #[test]
    fn bad_params_are_refused() {
        let entries = phyq::generator::builtin_tasks().entries();
        let mut p = tiny(Setting::Local);
        p.collection.explore = 0;
        assert!(collect(entries, &p, &threads(1)).is_err());
        p.collection.explore = ACTIONS as u32 + 1;
        assert!(collect(entries, &p, &threads(1)).is_err());
        // The network's rules are agents', asked before any work.
        let mut p = tiny(Setting::Local);
        p.config.updates = 0;
        let e = collect(entries, &p, &threads(1)).unwrap_err().to_string();
        assert!(e.contains("at least one update"), "{e}");
    }
}
