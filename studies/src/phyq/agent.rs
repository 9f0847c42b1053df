//! The agent a Phy-Q evaluation plays (feature `dqn`): a built-in agent by name, or the DQN,
//! read from its model file or trained first on the setting's training tasks
//! ([`crate::phyq_dqn`]: the collection checkpointed beside the run's checkpoint, in F.collect,
//! the training in F.train) and written to its model file. What happens on the way is told to
//! the caller as [`Event`]s, whose text it prints.

use super::types::{builtin, AgentName, Setting, SharedAgent};
use crate::phyq_dqn::{self, TrainCheckpoint};
use crate::runner::{Progress, RunConfig};
use agents::dqn::phyq::PhyqDqn;
use agents::dqn::TrainProgress;
use anyhow::{bail, Result};
use phyq::levelset::Entry;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// Which agent to play.
#[derive(Clone, Debug)]
pub enum AgentSpec {
    /// An agent that needs nothing else (random, pig-shooter, optimal).
    Builtin(AgentName),
    /// The learned agent.
    Dqn(DqnSpec),
}

/// The DQN: its model file and, when it must be trained, its training.
#[derive(Clone, Debug)]
pub struct DqnSpec {
    /// Read when it exists, else trained and written there (`None`: trained, kept in memory).
    pub model: Option<PathBuf>,
    /// The training when there is no model to read.
    pub params: phyq_dqn::Params,
    /// Stop once the model is written: no agent is returned.
    pub train_only: bool,
}

/// What the making of an agent tells its caller, one line each.
#[derive(Clone, Debug)]
pub enum Event {
    /// A model was read.
    ModelRead {
        path: PathBuf,
        digest: String,
        trained_on: String,
    },
    /// `train_only` with a model that exists already.
    NothingToTrain { path: PathBuf },
    /// The collection of experiences starts (its checkpoint accepted).
    Collecting { tasks: u64, setting: Setting },
    /// The training goes on from its checkpoint.
    TrainingResumed { path: PathBuf, updates: usize },
    /// Collected and trained.
    Trained {
        decisions: usize,
        experiences: usize,
        passing: usize,
        skipped: usize,
        seconds: f64,
    },
    /// The model was written.
    ModelWritten { path: PathBuf, digest: String },
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::ModelRead {
                path,
                digest,
                trained_on,
            } => write!(
                f,
                "dqn: model {} (digest {digest}; {trained_on})",
                path.display()
            ),
            Event::NothingToTrain { path } => write!(
                f,
                "dqn: {} exists already: nothing to train",
                path.display()
            ),
            Event::Collecting { tasks, setting } => write!(
                f,
                "dqn: collecting experiences on {tasks} training tasks of the {} setting",
                setting.word()
            ),
            Event::TrainingResumed { path, updates } => write!(
                f,
                "rephyre: resuming from checkpoint {}: {updates} DQN updates done",
                path.display()
            ),
            Event::Trained {
                decisions,
                experiences,
                passing,
                skipped,
                seconds,
            } => write!(
                f,
                "dqn: {decisions} decisions, {experiences} experiences ({passing} passing), {skipped} tasks skipped; trained in {seconds:.0} s all told"
            ),
            Event::ModelWritten { path, digest } => write!(
                f,
                "dqn: model written to {} (digest {digest})",
                path.display()
            ),
        }
    }
}

/// Where [`Event`]s go.
pub type Events = Arc<dyn Fn(&Event) + Send + Sync>;

/// The agent of `spec` on `entries` (the DQN trains on their training tasks of its setting).
/// `cfg` is the evaluation's runner configuration: its threads and progress serve the
/// collection, its checkpoint F names the collection's and the training's (F.collect, F.train).
/// `None` for a `train_only` DQN, once its model is written.
pub fn agent(
    entries: &[Entry],
    spec: &AgentSpec,
    cfg: &RunConfig,
    training: &dyn TrainProgress,
    events: &Events,
) -> Result<Option<SharedAgent>> {
    let d = match spec {
        AgentSpec::Builtin(name) => return builtin(*name).map(Some),
        AgentSpec::Dqn(d) => d,
    };
    if let Some(path) = d.model.as_deref().filter(|p| p.exists()) {
        let agent = PhyqDqn::load(path).map_err(anyhow::Error::msg)?;
        events(&Event::ModelRead {
            path: path.to_path_buf(),
            digest: agent.digest(),
            trained_on: agent.model.header.trained_on.clone(),
        });
        if d.train_only {
            events(&Event::NothingToTrain {
                path: path.to_path_buf(),
            });
            return Ok(None);
        }
        return Ok(Some(Arc::new(agent)));
    }
    let mut collect_cfg = cfg.clone();
    let mut train_ckpt = None;
    if let Some(path) = &cfg.checkpoint {
        let (collect, train) = phyq_dqn::checkpoint_files(path);
        collect_cfg.checkpoint = Some(collect);
        let (tell, shown) = (events.clone(), train.clone());
        train_ckpt = Some(TrainCheckpoint {
            path: train,
            resume: cfg.resume,
            every: cfg.checkpoint_every,
            on_resume: Some(Arc::new(move |updates| {
                tell(&Event::TrainingResumed {
                    path: shown.clone(),
                    updates,
                })
            })),
        });
    }
    collect_cfg.progress = Some(Arc::new(Collecting {
        setting: d.params.setting,
        events: events.clone(),
        bar: cfg.progress.clone(),
    }));
    let start = Instant::now();
    let trained = phyq_dqn::run(
        entries,
        &d.params,
        &collect_cfg,
        train_ckpt.as_ref(),
        training,
    )?;
    let data = &trained.data;
    events(&Event::Trained {
        decisions: data.observations.len(),
        experiences: data.experiences.len(),
        passing: data.experiences.iter().filter(|e| e.passed).count(),
        skipped: data.errors,
        seconds: start.elapsed().as_secs_f64(),
    });
    let agent = PhyqDqn::new(trained.model);
    if let Some(path) = &d.model {
        agent.model.save(path).map_err(anyhow::Error::msg)?;
        events(&Event::ModelWritten {
            path: path.clone(),
            digest: agent.digest(),
        });
    }
    if d.train_only {
        return Ok(None);
    }
    Ok(Some(Arc::new(agent)))
}

/// A shard of a dqn run evaluates a trained model: every shard training its own would train
/// the same model N times.
pub fn shard_needs_model(setting: Setting, model: Option<&Path>) -> Result<()> {
    let train = format!(
        "train it once first: rephyre phyq-eval --agent dqn --setting {} --model FILE --train-only",
        setting.word()
    );
    match model {
        Some(path) if path.exists() => Ok(()),
        Some(path) => bail!(
            "--shard with --agent dqn evaluates a trained model, and --model {} does not exist ({train})",
            path.display()
        ),
        None => bail!("--shard with --agent dqn evaluates a trained model: name it with --model ({train})"),
    }
}

/// The collection's progress: the event that says what it collects, once its checkpoint is
/// accepted (a refused one is the only line), then the bar if any.
struct Collecting {
    setting: Setting,
    events: Events,
    bar: Option<Arc<dyn Progress>>,
}

impl Progress for Collecting {
    fn start(&self, total: u64, finished: u64) {
        (self.events)(&Event::Collecting {
            tasks: total,
            setting: self.setting,
        });
        if let Some(b) = &self.bar {
            b.start(total, finished);
        }
    }
    fn rate(&self, sims_per_second: f64) {
        if let Some(b) = &self.bar {
            b.rate(sims_per_second);
        }
    }
    fn task_finished(&self) {
        if let Some(b) = &self.bar {
            b.task_finished();
        }
    }
    fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish();
        }
    }
}
