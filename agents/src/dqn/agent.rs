//! DQN and DQN-O as [`Agent`]s: score the action set on each test task, attempt it in
//! descending score (ties by action index); DQN-O trains on each finished task's attempts.

use super::config::TrainConfig;
use super::data::{mirror_action, Example, Observations, Pools, TaskPools};
use super::device::{on_plain_threads, single_threaded};
use super::file;
use super::scoring::{mean_scores, Ranker, Scorer};
use super::training::{
    self, draw_batch, Draw, Examples, Hooks, Snapshot, TrainProgress, TrainSummary, Trainer,
};
use crate::protocol::{Agent, Simulator, Status};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What every DQN of one tier shares: the tasks' observations (indexed like the status table's
/// rows) and the action set.
pub struct DqnContext {
    pub obs: Observations,
    /// The actions the DQNs train on; the agents rank the first `ranked` of them.
    pub actions: Vec<Vec<f64>>,
    ranked: usize,
    /// The ranked actions as f32, row-major (the network's input), and mirrored.
    flat_ranked: Vec<f32>,
    flat_ranked_mirrored: Vec<f32>,
}

impl DqnContext {
    /// `ranked` is capped at the number of actions.
    pub fn new(obs: Observations, actions: Vec<Vec<f64>>, ranked: usize) -> DqnContext {
        let ranked = ranked.min(actions.len());
        let flat_ranked = actions[..ranked]
            .iter()
            .flatten()
            .map(|&v| v as f32)
            .collect();
        let flat_ranked_mirrored = actions[..ranked]
            .iter()
            .flat_map(|a| mirror_action(a))
            .map(|v| v as f32)
            .collect();
        DqnContext {
            obs,
            actions,
            ranked,
            flat_ranked,
            flat_ranked_mirrored,
        }
    }

    /// What ranking needs of this context, with `scorer` (none: every action scores 0) and
    /// `mirror` ([`TrainConfig::mirror_ranking`]).
    fn ranker<'a>(&'a self, scorer: Option<&'a Scorer>, mirror: bool) -> Ranker<'a> {
        Ranker {
            scorer,
            obs: &self.obs,
            actions: &self.flat_ranked,
            mirrored_actions: &self.flat_ranked_mirrored,
            ranked: self.ranked,
            mirror,
        }
    }
}

/// The DQN agent (`online: false`) or DQN-O (`online: true`).
pub struct Dqn {
    ctx: Arc<DqnContext>,
    pub config: TrainConfig,
    online: bool,
    progress: Arc<dyn TrainProgress>,
    /// Kernels run here: one thread, so results do not depend on the machine's core count.
    pool: Option<rayon::ThreadPool>,
    trainer: Option<Trainer>,
    scorer: Option<Scorer>,
    pub summary: TrainSummary,
    /// Training examples (DQN-O mixes them into its online batches).
    pools: Pools,
    /// `pools` by task (DQN-O's grouped online batches; built on first use).
    pools_by_task: Option<TaskPools>,
    online_pools: Pools,
    /// `online_pools` by task, kept up to date task by task (grouped online batches).
    online_by_task: TaskPools,
    online_done: u64,
    task: usize,
    proposals: Proposals,
    tried_now: Vec<(usize, Status)>,
    ahead: RankAhead,
    /// How often a training with a model file writes its snapshot beside it.
    snapshot_every: Duration,
}

/// How often a training with a model file writes its [`Snapshot`] (its `.train` file), unless
/// told otherwise ([`Dqn::snapshot_every`]): a killed run loses at most this much training.
pub const SNAPSHOT_EVERY: Duration = Duration::from_secs(60);

impl Dqn {
    pub fn new(
        ctx: Arc<DqnContext>,
        config: TrainConfig,
        online: bool,
        progress: Arc<dyn TrainProgress>,
    ) -> Dqn {
        Dqn {
            online_by_task: training::task_pools(&config, &Pools::default(), &ctx.actions),
            ctx,
            config,
            online,
            progress,
            pool: rayon::ThreadPoolBuilder::new().num_threads(1).build().ok(),
            trainer: None,
            scorer: None,
            summary: TrainSummary::default(),
            pools: Pools::default(),
            pools_by_task: None,
            online_pools: Pools::default(),
            online_done: 0,
            task: 0,
            proposals: Proposals::default(),
            tried_now: Vec::new(),
            ahead: RankAhead::default(),
            snapshot_every: SNAPSHOT_EVERY,
        }
    }

    /// Write the training's snapshot this often (default [`SNAPSHOT_EVERY`]; zero: after every
    /// update).
    pub fn snapshot_every(&mut self, every: Duration) {
        self.snapshot_every = every;
    }

    fn on_one_thread<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        match &self.pool {
            Some(p) => p.install(f),
            None => single_threaded(f),
        }
    }

    /// Train on `train`'s rows of `sim` (every action of the context), or load the model at
    /// `model` when that file exists (its training configuration must be this agent's); a newly
    /// trained model is saved there. While it trains, its [`Snapshot`] is written beside it
    /// ([`snapshot_path`]) every [`Dqn::snapshot_every`]; a training that finds one of the same
    /// training there goes on from it, to the model the uninterrupted training gives, bit for
    /// bit. The snapshot is removed once the model is saved.
    pub fn fit(
        &mut self,
        sim: &dyn Simulator,
        train_tasks: &[usize],
        model: Option<&PathBuf>,
        trained_on: &str,
    ) -> Result<(), String> {
        if self.ctx.obs.size != self.config.net.obs_size {
            return Err(format!(
                "the observations are {0}×{0} but the network takes {1}×{1}",
                self.ctx.obs.size, self.config.net.obs_size
            ));
        }
        self.pools = Pools::from_table(sim, train_tasks, self.ctx.actions.len());
        if let Some(path) = model.filter(|p| p.exists()) {
            let (header, net) = file::load(path)?;
            if !header.config.trains_like(&self.config) {
                return Err(format!(
                    "{} was trained with another configuration; remove it or choose another models directory",
                    path.display()
                ));
            }
            if header.trained_on != trained_on {
                return Err(format!(
                    "{} was trained on {}, not on {trained_on}",
                    path.display(),
                    header.trained_on
                ));
            }
            self.summary = header.summary;
            let cfg = self.config.clone();
            let (trainer, scorer) = self.on_one_thread(|| {
                let trainer = Trainer::from_net(&cfg.net, net, cfg.weight_decay);
                let scorer = trainer.scorer();
                (trainer, scorer)
            });
            self.trainer = Some(trainer);
            self.scorer = Some(scorer);
            return Ok(());
        }
        let fingerprint = training_fingerprint(&self.config, trained_on, &self.pools);
        let snapshots = model.map(|m| snapshot_path(m));
        let start = match &snapshots {
            Some(p) if p.exists() => Some(read_snapshot(p, &fingerprint)?),
            _ => None,
        };
        let done = start.as_ref().map_or(0, |s| s.updates);
        self.progress
            .planned(self.config.updates.saturating_sub(done) as u64);
        let mut hooks = SnapshotFile {
            path: snapshots.clone(),
            fingerprint: &fingerprint,
            every: self.snapshot_every,
            last: Instant::now(),
            total: self.config.updates,
        };
        let (ctx, cfg, pools, progress) = (&self.ctx, &self.config, &self.pools, &self.progress);
        let (trainer, summary, scorer) = self.on_one_thread(|| {
            let (trainer, summary) = training::train_from(
                cfg,
                &cfg.net,
                &ctx.obs,
                &ctx.actions,
                pools,
                progress.as_ref(),
                start,
                &mut hooks,
            )?;
            let scorer = trainer.scorer();
            Ok::<_, String>((trainer, summary, scorer))
        })?;
        if let Some(path) = model {
            file::save(path, trainer.net(), &self.config, trained_on, &summary)?;
        }
        if let Some(p) = &snapshots {
            match std::fs::remove_file(p) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    return Err(format!("cannot remove {}: {e}", p.display()))
                }
                _ => {}
            }
        }
        self.summary = summary;
        self.trainer = Some(trainer);
        self.scorer = Some(scorer);
        Ok(())
    }

    /// The network's logit for every ranked action on task `task` (fitted agents only); with
    /// `mirror_ranking`, the mean of the logits of the scene and of the mirrored scene (with
    /// the mirrored actions), so the score of a mirrored task is the same, bit for bit.
    pub fn scores(&self, task: usize) -> Vec<f32> {
        let ranker = self.ranker();
        self.on_one_thread(|| ranker.scores(task))
    }

    fn ranker(&self) -> Ranker<'_> {
        self.ctx
            .ranker(self.scorer.as_ref(), self.config.mirror_ranking)
    }

    /// Rank test tasks on `threads` threads at once (DQN only: DQN-O's network changes from task
    /// to task). Each task is still ranked on one thread, so its scores and the results are the
    /// same, bit for bit, whatever `threads` is.
    pub fn rank_on(&mut self, threads: usize) {
        self.ahead.threads = threads;
    }

    /// A test task begins: its attempts are collected for DQN-O's update at its end.
    fn begin_task(&mut self, task: usize) {
        self.task = task;
        self.tried_now.clear();
    }

    /// The trained network (its burn type stays inside the crate).
    #[cfg(test)]
    pub(crate) fn net(&self) -> Option<&super::network::Net> {
        self.trainer.as_ref().map(Trainer::net)
    }

    /// The trained network's weights (parameters and batch-norm statistics), in file order.
    pub fn weights(&self) -> Vec<(Vec<usize>, Vec<f32>)> {
        match &self.trainer {
            Some(t) => self.on_one_thread(|| super::network::tensors(t.net())),
            None => Vec::new(),
        }
    }
}

/// Test tasks ranked ahead of their turn, several at once, for an agent whose scores depend
/// only on its trained network. Tasks are ranked a chunk at a time (a few per thread), so the
/// scores held at once stay small whatever the number of tasks.
#[derive(Default)]
struct RankAhead {
    /// Threads to rank on; 0 or 1 ranks each task at its turn, on the agent's own pool.
    threads: usize,
    /// The test tasks in evaluation order; `plan[next..]` are not ranked yet.
    plan: Vec<usize>,
    next: usize,
    ready: Vec<(usize, Vec<f32>)>,
}

/// Tasks per thread in one chunk: enough to even out the threads' finishing times.
const TASKS_PER_THREAD: usize = 4;

impl RankAhead {
    fn plan(&mut self, tasks: &[usize]) {
        self.plan = if self.threads > 1 {
            tasks.to_vec()
        } else {
            Vec::new()
        };
        self.next = 0;
        self.ready.clear();
    }

    /// `task`'s scores if they are or can be ranked ahead: when `task` is the next planned one,
    /// the next chunk of planned tasks is ranked by `score` on `threads` threads, each task on
    /// a one-thread kernel pool. `None` for a task out of plan (the caller ranks it itself).
    fn take(&mut self, task: usize, score: impl Fn(usize) -> Vec<f32> + Sync) -> Option<Vec<f32>> {
        if let Some(i) = self.ready.iter().position(|(t, _)| *t == task) {
            return Some(self.ready.swap_remove(i).1);
        }
        if self.plan.get(self.next) != Some(&task) {
            return None;
        }
        let end = (self.next + self.threads * TASKS_PER_THREAD).min(self.plan.len());
        let chunk = &self.plan[self.next..end];
        let scores = on_plain_threads(chunk, self.threads, |&t| single_threaded(|| score(t)));
        self.ready = chunk
            .iter()
            .zip(scores)
            .filter_map(|(&t, s)| Some((t, s?)))
            .collect();
        self.next = end;
        let i = self.ready.iter().position(|(t, _)| *t == task)?;
        Some(self.ready.swap_remove(i).1)
    }
}

/// A task's actions in descending score (ties by index), proposed one after another.
#[derive(Default)]
struct Proposals {
    order: Vec<usize>,
    next: usize,
}

impl Proposals {
    fn by_score(scores: &[f32]) -> Proposals {
        let mut order: Vec<usize> = (0..scores.len()).collect();
        order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
        Proposals { order, next: 0 }
    }

    fn next(&mut self) -> Option<usize> {
        let a = self.order.get(self.next).copied();
        self.next += 1;
        a
    }
}

/// DQN or DQN-O as an ensemble: networks trained alike but for their seeds rank by their mean
/// logit (in member order, so the sum's rounding is fixed); DQN-O's members each learn from
/// every attempt.
pub struct DqnEnsemble {
    members: Vec<Dqn>,
    proposals: Proposals,
    ahead: RankAhead,
}

impl DqnEnsemble {
    /// `members` must be fitted and non-empty.
    pub fn new(members: Vec<Dqn>) -> DqnEnsemble {
        assert!(!members.is_empty(), "an ensemble has members");
        DqnEnsemble {
            members,
            proposals: Proposals::default(),
            ahead: RankAhead::default(),
        }
    }

    /// The mean logit of the members for every ranked action on task `task`.
    pub fn scores(&self, task: usize) -> Vec<f32> {
        let members: Vec<Ranker<'_>> = self.members.iter().map(Dqn::ranker).collect();
        self.members[0].on_one_thread(|| mean_scores(&members, task))
    }

    /// Rank test tasks on `threads` threads at once (as [`Dqn::rank_on`]; not for DQN-O).
    pub fn rank_on(&mut self, threads: usize) {
        self.ahead.threads = threads;
    }
}

impl Agent for DqnEnsemble {
    fn name(&self) -> &'static str {
        self.members[0].name()
    }

    fn train(&mut self, sim: &dyn Simulator, train: &[usize], dev: &[usize]) {
        for m in &mut self.members {
            m.train(sim, train, dev);
        }
    }

    fn refit(&mut self, sim: &dyn Simulator, tasks: &[usize]) {
        for m in &mut self.members {
            m.refit(sim, tasks);
        }
    }

    fn will_evaluate(&mut self, tasks: &[usize]) {
        if !self.members.iter().any(|m| m.online) {
            self.ahead.plan(tasks);
        }
    }

    fn start_task(&mut self, _: &dyn Simulator, task: usize) {
        let members: Vec<Ranker<'_>> = self.members.iter().map(Dqn::ranker).collect();
        let scores = match self.ahead.take(task, |t| mean_scores(&members, t)) {
            Some(s) => s,
            None => self.members[0].on_one_thread(|| mean_scores(&members, task)),
        };
        self.proposals = Proposals::by_score(&scores);
        for m in &mut self.members {
            m.begin_task(task);
        }
    }

    fn propose(&mut self) -> Option<usize> {
        self.proposals.next()
    }

    fn observe(&mut self, action: usize, status: Status) {
        for m in &mut self.members {
            m.observe(action, status);
        }
    }

    fn end_task(&mut self, solved: bool) {
        for m in &mut self.members {
            m.end_task(solved);
        }
    }
}

impl Agent for Dqn {
    fn name(&self) -> &'static str {
        if self.online {
            "DQN-O"
        } else {
            "DQN"
        }
    }

    fn train(&mut self, sim: &dyn Simulator, train: &[usize], _dev: &[usize]) {
        // Without a file to load or save, fitting cannot fail.
        let _ = self.fit(sim, train, None, "");
    }

    /// Trains afresh on `tasks` (the DQN chooses nothing on the dev tasks at run time).
    fn refit(&mut self, sim: &dyn Simulator, tasks: &[usize]) {
        let _ = self.fit(sim, tasks, None, "");
    }

    fn will_evaluate(&mut self, tasks: &[usize]) {
        if !self.online {
            self.ahead.plan(tasks);
        }
    }

    fn start_task(&mut self, _: &dyn Simulator, task: usize) {
        // Built from the fields (not `self.ranker()`) so that `self.ahead` can be borrowed apart.
        let ranker = self
            .ctx
            .ranker(self.scorer.as_ref(), self.config.mirror_ranking);
        let scores = match self.ahead.take(task, |t| ranker.scores(t)) {
            Some(s) => s,
            None => self.on_one_thread(|| ranker.scores(task)),
        };
        self.proposals = Proposals::by_score(&scores);
        self.begin_task(task);
    }

    fn propose(&mut self) -> Option<usize> {
        self.proposals.next()
    }

    fn observe(&mut self, action: usize, status: Status) {
        self.tried_now.push((action, status));
    }

    fn end_task(&mut self, _: bool) {
        if !self.online || self.config.online_updates == 0 {
            return;
        }
        let task = self.task;
        let (mut solved, mut not_solved) = (Vec::new(), Vec::new());
        for &(action, status) in &self.tried_now {
            self.online_pools.add(Example { task, action }, status);
            match status {
                Status::Solved => solved.push(action),
                Status::NotSolved => not_solved.push(action),
                Status::Invalid => {}
            }
        }
        self.online_by_task.add_task(task, &solved, &not_solved);
        let Some(mut trainer) = self.trainer.take() else {
            return;
        };
        if training::grouped(&self.config) && self.pools_by_task.is_none() {
            self.pools_by_task = Some(training::task_pools(
                &self.config,
                &self.pools,
                &self.ctx.actions,
            ));
        }
        let (ctx, cfg) = (&self.ctx, &self.config);
        let draw = Draw::Online {
            training: Examples {
                pools: &self.pools,
                by_task: self.pools_by_task.as_ref(),
            },
            attempts: Examples {
                pools: &self.online_pools,
                by_task: Some(&self.online_by_task),
            },
        };
        let first = self.online_done;
        let scorer = self.on_one_thread(|| {
            for i in 0..cfg.online_updates as u64 {
                let batch = draw_batch(cfg, draw, first + i, &ctx.obs, &ctx.actions);
                trainer.step(&batch, cfg.online_lr);
            }
            trainer.scorer()
        });
        self.online_done += self.config.online_updates as u64;
        self.trainer = Some(trainer);
        self.scorer = Some(scorer);
    }
}

/// Where the training of the model at `model` keeps its snapshot: beside it, `.train` for
/// `.model`.
pub fn snapshot_path(model: &Path) -> PathBuf {
    model.with_extension("train")
}

/// What a snapshot must have been taken of to be trained on: the configuration, what the model
/// is trained on, and the examples themselves (their digest).
fn training_fingerprint(cfg: &TrainConfig, trained_on: &str, pools: &Pools) -> String {
    let mut bytes = Vec::new();
    for (label, pool) in [(1u8, &pools.solved), (0, &pools.not_solved)] {
        for e in pool.iter() {
            bytes.push(label);
            bytes.extend_from_slice(&(e.task as u64).to_le_bytes());
            bytes.extend_from_slice(&(e.action as u64).to_le_bytes());
        }
    }
    format!(
        "{} | {trained_on} | {} solved and {} not solved examples, digest {:016x}",
        serde_json::to_string(cfg).unwrap_or_default(),
        pools.solved.len(),
        pools.not_solved.len(),
        tasks::rng::fnv64(&bytes)
    )
}

/// The snapshot at `path`, refusing one of another training.
fn read_snapshot(path: &Path, fingerprint: &str) -> Result<Snapshot, String> {
    let bytes = file::read(path)?;
    let (written_by, snapshot) = Snapshot::from_bytes(&bytes).map_err(|why| {
        format!(
            "{} is not a rephyre DQN training snapshot ({why}); remove it to train from the start",
            path.display()
        )
    })?;
    if written_by != fingerprint {
        return Err(format!(
            "{} is the snapshot of another training (other options or data); remove it to train from the start",
            path.display()
        ));
    }
    Ok(snapshot)
}

/// Writes the training's snapshot to its file when due.
struct SnapshotFile<'a> {
    path: Option<PathBuf>,
    fingerprint: &'a str,
    every: Duration,
    last: Instant,
    total: usize,
}

impl Hooks for SnapshotFile<'_> {
    fn snapshot_due(&mut self, done: usize) -> bool {
        // None after the last update: the model file follows at once.
        self.path.is_some() && done < self.total && self.last.elapsed() >= self.every
    }

    fn snapshot(&mut self, snapshot: Snapshot) -> Result<(), String> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        file::write_atomic(path, "train.tmp", &snapshot.to_bytes(self.fingerprint))?;
        self.last = Instant::now();
        Ok(())
    }
}
