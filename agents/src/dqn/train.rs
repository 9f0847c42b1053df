//! The training loop: balanced batches, binary cross-entropy, Adam with a cosine learning-rate
//! schedule; single-threaded kernels so that the weights do not depend on the thread count.

use super::data::{
    batch_of, batch_of_grouped, sample, sample_grouped, Mirror, Observations, Pools, TaskPools,
};
use super::model::{NetConfig, Trainer};
use super::TrainConfig;

/// Told how training goes (a progress bar).
pub trait TrainProgress: Send + Sync {
    /// `updates` more updates are planned.
    fn planned(&self, updates: u64);
    /// One update is done; `loss` is its batch's loss.
    fn update(&self, loss: f32);
}

/// A progress sink that shows nothing.
pub struct NoProgress;

impl TrainProgress for NoProgress {
    fn planned(&self, _: u64) {}
    fn update(&self, _: f32) {}
}

/// Cosine decay from `base` to 0 over `total` updates (update `i` counted from 0).
pub fn cosine_lr(base: f64, i: usize, total: usize) -> f64 {
    if total == 0 {
        return base;
    }
    0.5 * base * (1.0 + (std::f64::consts::PI * i as f64 / total as f64).cos())
}

/// Run `f` with burn's kernels on one thread. The flex backend splits work across the current
/// rayon pool; a one-thread pool makes every float reduction run in one fixed order, so the
/// same seed gives the same weights whatever the machine's core count (parallelism comes from
/// training several folds at once instead).
pub fn single_threaded<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    match rayon::ThreadPoolBuilder::new().num_threads(1).build() {
        Ok(pool) => pool.install(f),
        // Without a pool of our own we cannot pin the thread count: still correct, and
        // deterministic whenever the caller's pool has one thread.
        Err(_) => f(),
    }
}

/// `f` over `items` on up to `threads` plain threads (each takes the next item), results in
/// `items`' order. Plain threads, not a rayon pool: a rayon worker waiting on a DQN's one-thread
/// kernel pool would start the next item meanwhile, so every item would run at once whatever
/// `threads` says; plain threads just wait. A worker that panics leaves `None` in its slot.
pub fn on_plain_threads<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<Option<R>> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let slots: Vec<std::sync::Mutex<Option<R>>> =
        items.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, items.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                let r = f(item);
                if let Ok(mut slot) = slots[i].lock() {
                    *slot = Some(r);
                }
            });
        }
    });
    slots
        .into_iter()
        .map(|m| m.into_inner().ok().flatten())
        .collect()
}

/// Statistics of a finished training run.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TrainSummary {
    pub updates: usize,
    pub solved_examples: usize,
    pub not_solved_examples: usize,
    /// Mean loss of the last 10 % of updates.
    pub final_loss: f64,
}

/// Train a fresh network on `pools` (indices into `obs` and `actions`) per `cfg`.
pub fn train(
    cfg: &TrainConfig,
    net: &NetConfig,
    obs: &Observations,
    actions: &[Vec<f64>],
    pools: &Pools,
    progress: &dyn TrainProgress,
) -> (Trainer, TrainSummary) {
    let mut trainer = Trainer::new(net, cfg.seed, cfg.weight_decay);
    let losses = run_updates(
        &mut trainer,
        cfg,
        obs,
        actions,
        pools,
        0,
        cfg.updates,
        progress,
        |i| cosine_lr(cfg.lr, i, cfg.updates),
    );
    let tail = (losses.len() / 10).max(1).min(losses.len());
    let final_loss = if losses.is_empty() {
        f64::NAN
    } else {
        losses[losses.len() - tail..]
            .iter()
            .map(|&l| f64::from(l))
            .sum::<f64>()
            / tail as f64
    };
    (
        trainer,
        TrainSummary {
            updates: cfg.updates,
            solved_examples: pools.solved.len(),
            not_solved_examples: pools.not_solved.len(),
            final_loss,
        },
    )
}

/// `pools` by task for grouped batches, with each task's near misses among `actions` when `cfg`
/// draws some of its negatives there.
pub fn task_pools(cfg: &TrainConfig, pools: &Pools, actions: &[Vec<f64>]) -> TaskPools {
    let by_task = TaskPools::new(pools);
    if cfg.near_misses > 0 {
        by_task.with_near_misses(actions)
    } else {
        by_task
    }
}

/// Updates `first..first + count` (their batches are keyed by these numbers) on `pools`; returns
/// their losses. With no example at all there is nothing to learn and nothing is done.
#[allow(clippy::too_many_arguments)]
pub fn run_updates(
    trainer: &mut Trainer,
    cfg: &TrainConfig,
    obs: &Observations,
    actions: &[Vec<f64>],
    pools: &Pools,
    first: u64,
    count: usize,
    progress: &dyn TrainProgress,
    lr: impl Fn(usize) -> f64,
) -> Vec<f32> {
    if pools.is_empty() {
        return Vec::new();
    }
    let mut losses = Vec::with_capacity(count);
    let by_task = (cfg.actions_per_scene > 1).then(|| task_pools(cfg, pools, actions));
    for i in 0..count {
        let update = first + i as u64;
        let mirror = cfg.mirror.then_some(Mirror {
            seed: cfg.seed,
            update,
        });
        let batch = match &by_task {
            Some(by_task) => {
                let examples = sample_grouped(
                    by_task,
                    cfg.batch,
                    cfg.actions_per_scene,
                    cfg.balanced,
                    cfg.near_misses,
                    cfg.seed,
                    update,
                );
                batch_of_grouped(&examples, cfg.actions_per_scene, obs, actions, mirror)
            }
            None => batch_of(
                &sample(pools, cfg.batch, cfg.balanced, cfg.seed, update),
                obs,
                actions,
                mirror,
            ),
        };
        let loss = trainer.step(&batch, lr(i));
        progress.update(loss);
        losses.push(loss);
    }
    losses
}
