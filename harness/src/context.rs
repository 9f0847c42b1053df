//! What every command may need besides its own arguments: the task set, the thread count, progress
//! and the runner configuration these ask for.

use crate::cli::{CheckpointArgs, Cli};
use crate::parse::{check_outputs, select_tasks};
use anyhow::{bail, Context, Result};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use studies::runner::RunConfig;
use tasks::{Task, TaskSet, Tier};

/// What every command may need besides its own arguments.
#[derive(Clone, Debug)]
pub struct Ctx {
    /// `--tasks FILE`, or `None` for the built-in set.
    pub tasks_file: Option<PathBuf>,
    pub threads: Option<usize>,
    pub progress: bool,
}

impl Ctx {
    pub fn from_cli(cli: &Cli) -> Ctx {
        let progress = if cli.quiet {
            false
        } else {
            cli.progress || std::io::stderr().is_terminal()
        };
        Ctx {
            tasks_file: cli.tasks.clone(),
            threads: cli.threads.map(|t| t as usize),
            progress,
        }
    }

    /// The task set: the user's `--tasks` file, or the built-in PHYRE-B/2B tasks. Loaded once per
    /// process and kept for its lifetime.
    pub fn task_set(&self) -> Result<&'static TaskSet> {
        match &self.tasks_file {
            None => Ok(TaskSet::builtin()),
            Some(path) => {
                let set = TaskSet::load(path).with_context(|| {
                    if std::fs::read(path).is_ok_and(|b| b.trim_ascii_start().starts_with(b"{")) {
                        format!(
                            "--tasks {} is a Phy-Q level set, and this command takes PHYRE tasks",
                            path.display()
                        )
                    } else {
                        format!("cannot load --tasks {}", path.display())
                    }
                })?;
                if set.is_empty() {
                    bail!("--tasks {} holds no tasks", path.display());
                }
                Ok(Box::leak(Box::new(set)))
            }
        }
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
        if !(c.checkpoint_secs > 0.0 && c.checkpoint_secs < 1e6) {
            bail!("--checkpoint-secs must be a positive number of seconds");
        }
        // A line on stderr when a run goes on from a checkpoint (e.g. a requeued array task).
        let on_resume = c.checkpoint.clone().map(|path| {
            std::sync::Arc::new(move |finished: u64, in_progress: u64| {
                eprintln!(
                    "rephyre: resuming from checkpoint {}: {finished} work units finished, \
                     {in_progress} in progress",
                    path.display()
                )
            }) as std::sync::Arc<dyn Fn(u64, u64) + Send + Sync>
        });
        Ok(RunConfig {
            checkpoint: c.checkpoint.clone(),
            resume: c.resume,
            checkpoint_every: std::time::Duration::from_secs_f64(c.checkpoint_secs),
            on_resume,
            ..self.run_config_plain()
        })
    }

    /// A worker pool with `--threads` workers.
    pub fn pool(&self) -> Result<rayon::ThreadPool> {
        studies::runner::pool(self.threads)
    }
}
