//! The evaluation as a runner job: one task's attempts, the run's fingerprint and resume check,
//! whole runs and shards.

use super::selection::{test_tasks, EvalTask};
use super::types::{builtin, AttemptRule, Params, SharedAgent, COMMAND};
use crate::runner::{self, RunConfig, TaskJob};
use crate::shard::{self, Part, Shard};
use agents::phyq::{play, Draws};
use anyhow::{bail, Result};
use phyq::game::format_shots;
use phyq::levelset::Entry;
use serde::{Deserialize, Serialize};
use tasks::rng::fnv64;

/// One task's progress (the runner's per-task state).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub attempts: u32,
    pub passes: u32,
    /// Shots and physics steps over all attempts.
    pub shots: u64,
    pub steps: u64,
    /// The shots of the first attempt that passed, as `--shots` takes them.
    pub first_pass: Option<String>,
    /// Why the level could not be played (its remaining attempts are not run).
    pub error: Option<String>,
}

/// A run's tasks.
pub struct Job {
    pub params: Params,
    pub tasks: Vec<EvalTask>,
    /// The agent of `params.agent`.
    pub agent: SharedAgent,
}

impl TaskJob for Job {
    type State = State;

    fn len(&self) -> usize {
        self.tasks.len()
    }

    fn fingerprint(&self) -> String {
        fingerprint_of(&self.params, &self.tasks, &self.agent.fingerprint())
    }

    fn advance(&self, task: usize, state: &mut State) -> bool {
        let t = &self.tasks[task];
        let stream = fnv64(t.id.to_string().as_bytes());
        let mut draws = Draws::new(self.params.seed, stream, u64::from(state.attempts));
        match play(self.agent.as_ref(), &t.level, &mut draws) {
            Ok(a) => {
                state.attempts += 1;
                state.shots += a.shots.len() as u64;
                state.steps += u64::from(a.steps);
                if a.passed {
                    state.passes += 1;
                    if state.first_pass.is_none() {
                        state.first_pass = Some(format_shots(&a.shots));
                    }
                }
                let stop_at_pass = self.params.attempt_rule == AttemptRule::UntilPass;
                state.attempts >= self.params.attempts || (stop_at_pass && a.passed)
            }
            Err(e) => {
                state.error = Some(e.to_string());
                true
            }
        }
    }

    fn simulations(&self, state: &State) -> u64 {
        state.shots
    }
}

/// The fingerprint of a job of `params` on `tasks` played by an agent of fingerprint `agent`.
fn fingerprint_of(params: &Params, tasks: &[EvalTask], agent: &str) -> String {
    let mut content = Vec::new();
    for t in tasks {
        content.extend_from_slice(t.id.to_string().as_bytes());
        content.extend(serde_json::to_vec(&t.level).unwrap_or_default());
    }
    let agent = if agent.is_empty() {
        String::new()
    } else {
        format!(" {agent}")
    };
    format!(
        "phyq-eval-1 {} agent {}{agent} setting {} attempts {} {} seed {} tasks {} {:016x}",
        env!("CARGO_PKG_VERSION"),
        params.agent.word(),
        params.setting.word(),
        params.attempts,
        params.attempt_rule.word(),
        params.seed,
        tasks.len(),
        fnv64(&content)
    )
}

/// Refuse, before the agent exists (a DQN to train or to read), the checkpoint of `cfg` that
/// the run (or its shard `shard`) would refuse on `--resume` for anything but the agent's own
/// fingerprint: its options and its tasks. A learned agent's run (its agent has a fingerprint
/// of its own) can so refuse it before any training; the agent's part is checked when the run
/// starts.
pub fn check_resume(
    entries: &[Entry],
    params: Params,
    shard: Option<Shard>,
    cfg: &RunConfig,
) -> Result<()> {
    let Some(path) = cfg.checkpoint.as_ref().filter(|_| cfg.resume) else {
        return Ok(());
    };
    // The agent's fingerprint is a hole: what is before and after it must match.
    const HOLE: &str = "\u{0}";
    let tasks = test_tasks(entries, params.setting)?;
    let want = fingerprint_of(&params, &tasks, HOLE);
    let want = match shard {
        Some(s) => shard::shard_fingerprint(&want, s),
        None => want,
    };
    let (before, after) = want.split_once(HOLE).unwrap_or((&want, ""));
    runner::check_checkpoint(path, |saved| {
        saved.len() >= before.len() + after.len()
            && saved.starts_with(before)
            && saved.ends_with(after)
    })
}

/// The job of `params` on the test tasks of its setting among `entries` (an agent defined by
/// its name).
pub fn job(entries: &[Entry], params: Params) -> Result<Job> {
    job_with(entries, params, builtin(params.agent)?)
}

/// The job of `params` with `agent` playing (e.g. a trained DQN).
pub fn job_with(entries: &[Entry], params: Params, agent: SharedAgent) -> Result<Job> {
    if agent.name() != params.agent.word() {
        bail!(
            "the {} agent given for a run of {}",
            agent.name(),
            params.agent.word()
        );
    }
    Ok(Job {
        params,
        tasks: test_tasks(entries, params.setting)?,
        agent,
    })
}

/// Runs the evaluation (checkpointed and resumable through `cfg`).
pub fn run(entries: &[Entry], params: Params, cfg: &RunConfig) -> Result<(Job, Vec<State>)> {
    run_with(entries, params, builtin(params.agent)?, cfg)
}

/// Runs the evaluation with `agent` playing.
pub fn run_with(
    entries: &[Entry],
    params: Params,
    agent: SharedAgent,
    cfg: &RunConfig,
) -> Result<(Job, Vec<State>)> {
    let job = job_with(entries, params, agent)?;
    let states = runner::run(&job, cfg)?;
    Ok((job, states))
}

/// Runs shard `shard` of the evaluation and returns its part.
pub fn run_shard(
    entries: &[Entry],
    params: Params,
    agent: SharedAgent,
    shard: Shard,
    cfg: &RunConfig,
) -> Result<Part<State>> {
    let job = job_with(entries, params, agent)?;
    let ids = job.tasks.iter().map(|t| t.id.to_string()).collect();
    let mut args = params.args();
    args.extend(job.agent.record());
    shard::run_shard_of(&job, COMMAND, args, ids, shard, cfg)
}
