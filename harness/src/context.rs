//! What every command may need besides its own arguments: the tasks (`--tasks` or the built-in
//! ones, and the task an id names in them, through the `taskref` crate), the thread count,
//! progress and the runner configuration these ask for.

use crate::args::{CheckpointArgs, GlobalArgs, ResumeArgs};
use crate::parse::{check_outputs, select_tasks};
use anyhow::{bail, Result};
use phyq::levelset::Entry;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use studies::runner::RunConfig;
use taskref::{TaskFile, TaskRef};
use tasks::{Task, TaskSet, Tier};

/// What every command may need besides its own arguments.
#[derive(Clone, Debug)]
pub struct Ctx {
    /// `--tasks FILE`, or `None` for the built-in set.
    pub tasks_file: Option<PathBuf>,
    pub threads: Option<usize>,
    pub progress: bool,
    /// What `--tasks` holds, once read: kept for the process's lifetime, since what commands
    /// return borrows from it.
    loaded: OnceLock<&'static TaskFile>,
}

impl Ctx {
    pub fn new(global: &GlobalArgs) -> Ctx {
        let progress = if global.quiet {
            false
        } else {
            global.progress || std::io::stderr().is_terminal()
        };
        Ctx {
            tasks_file: global.tasks.clone(),
            threads: global.threads.map(|t| t as usize),
            progress,
            loaded: OnceLock::new(),
        }
    }

    /// The task set: the user's `--tasks` file, or the built-in PHYRE-B/2B tasks. Kept for the
    /// process's lifetime; not read again when [`Ctx::task_file`] has read it.
    pub fn task_set(&self) -> Result<&'static TaskSet> {
        let Some(path) = &self.tasks_file else {
            return Ok(TaskSet::builtin());
        };
        if let Some(TaskFile::Phyre(set, _)) = self.loaded.get() {
            return Ok(set);
        }
        // Read as PHYRE tasks whatever it holds: a level set is refused, saying so.
        Ok(Box::leak(Box::new(taskref::read_phyre_tasks(path)?)))
    }

    /// What `--tasks` holds (PHYRE tasks or Phy-Q levels), loaded once per process; `None`
    /// without `--tasks`.
    pub fn task_file(&self) -> Result<Option<&'static TaskFile>> {
        let Some(path) = &self.tasks_file else {
            return Ok(None);
        };
        if let Some(file) = self.loaded.get() {
            return Ok(Some(file));
        }
        let file: &'static TaskFile = Box::leak(Box::new(TaskFile::read(path)?));
        // Already set only by another thread that read the same file first.
        let _ = self.loaded.set(file);
        Ok(Some(file))
    }

    /// The Phy-Q levels commands list and draw: the `--tasks` level set, or the built-in tier
    /// (`None` when `--tasks` holds PHYRE tasks).
    pub fn phyq_levels(&self) -> Result<Option<&'static [Entry]>> {
        Ok(match self.task_file()? {
            None => Some(phyq::generator::builtin_tasks().entries()),
            Some(TaskFile::Phyq(set, _)) => Some(set.entries()),
            Some(TaskFile::Phyre(..)) => None,
        })
    }

    /// The task `id` names, in `--tasks` or the built-in tasks ([`taskref::resolve`]).
    pub fn resolve(&self, id: &str) -> Result<TaskRef<'static>> {
        taskref::resolve(id, self.task_file()?)
    }

    /// The opening of the sampling studies: check the output paths that are given (before any
    /// long work), load the task set, and select `tier`'s tasks (`--templates`, the first
    /// `--tasks-per-template` of each).
    pub fn study_tasks(
        &self,
        outputs: &[Option<&Path>],
        tier: Tier,
        templates: Option<&str>,
        per_template: Option<u32>,
    ) -> Result<Vec<&'static Task>> {
        check_outputs(outputs.iter().flatten().copied())?;
        select_tasks(self.task_set()?, tier, templates, per_template)
    }

    /// The runner configuration of a command without checkpoints: `--threads` and progress.
    pub fn run_config_plain(&self) -> RunConfig {
        RunConfig {
            threads: self.threads,
            progress: self.progress.then(crate::progress::bar),
            ..RunConfig::default()
        }
    }

    /// The runner configuration of a command with `--checkpoint`, `--resume` (checked: a
    /// positive interval between checkpoints).
    pub fn run_config(&self, c: &CheckpointArgs) -> Result<RunConfig> {
        self.resumable(&c.save, c.checkpoint_secs)
    }

    /// The runner configuration of `--checkpoint`, `--resume`, with `secs` between checkpoints
    /// (checked: positive).
    pub fn resumable(&self, c: &ResumeArgs, secs: f64) -> Result<RunConfig> {
        if !(secs > 0.0 && secs < 1e6) {
            bail!("--checkpoint-secs must be a positive number of seconds");
        }
        // A line on stderr when a run goes on from a checkpoint (e.g. a requeued array task).
        let on_resume = c.checkpoint.is_some().then(|| {
            std::sync::Arc::new(|path: &Path, finished: u64, in_progress: u64| {
                eprintln!(
                    "rephyre: resuming from checkpoint {}: {finished} work units finished, \
                     {in_progress} in progress",
                    path.display()
                )
            }) as studies::runner::OnResume
        });
        Ok(RunConfig {
            checkpoint: c.checkpoint.clone(),
            resume: c.resume,
            checkpoint_every: std::time::Duration::from_secs_f64(secs),
            on_resume,
            ..self.run_config_plain()
        })
    }

    /// A worker pool with `--threads` workers.
    pub fn pool(&self) -> Result<rayon::ThreadPool> {
        studies::runner::pool(self.threads)
    }
}
