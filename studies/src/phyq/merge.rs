//! Sharded runs merged: the agent the parts name, one model for all parts, the parts' states.

use super::run::{job_with, Job, State};
use super::types::{builtin, AgentName, Params, SharedAgent, COMMAND};
use crate::shard::{self, arg, Args, Merged, Part};
use agents::phyq::{Draws, ShotAgent};
use anyhow::{bail, Result};
use phyq::game::{Game, PixelShot, PlayError};
use phyq::levelset::Entry;
use phyq::Level;

use std::path::PathBuf;
use std::sync::Arc;

/// The agent of a merged run that its parts name by a record (the DQN: its model's digest):
/// in the rebuilt job it completes the fingerprint, which the merge checks; a merge plays
/// nothing, so it never shoots.
struct Recorded {
    name: &'static str,
    fingerprint: String,
}

impl ShotAgent for Recorded {
    fn name(&self) -> &'static str {
        self.name
    }

    fn fingerprint(&self) -> String {
        self.fingerprint.clone()
    }

    fn shot(&self, _: &Game, _: &Level, _: &mut Draws) -> Result<PixelShot, PlayError> {
        unreachable!("the agent of a merged run is known by its parts' record and plays nothing")
    }
}

/// The agent of the parts' arguments `args` of a run of `name`: the built-in one, or for the
/// DQN the model the parts recorded.
fn merged_agent(name: AgentName, args: &Args) -> Result<SharedAgent> {
    match name {
        AgentName::Dqn => Ok(Arc::new(Recorded {
            name: name.word(),
            fingerprint: format!("model {}", arg::<String>(args, "model")?),
        })),
        _ => builtin(name),
    }
}

/// Refuse parts of a dqn run evaluated with different models, naming the first part of
/// another model than the first (before [`shard::read_parts`], whose message would list both
/// models' headers).
pub fn check_same_model(paths: &[PathBuf]) -> Result<()> {
    let mut first: Option<(&PathBuf, Option<String>)> = None;
    for p in paths {
        let h = shard::read_header(p)?;
        if h.run.command != COMMAND || h.run.args.get("agent").map(String::as_str) != Some("dqn") {
            continue;
        }
        let model = h.run.args.get("model").cloned();
        match &first {
            None => first = Some((p, model)),
            Some((p0, m0)) if *m0 != model => {
                let name = |m: &Option<String>| m.as_deref().unwrap_or("none").to_string();
                bail!(
                    "part {} evaluates another DQN model (digest {}) than {} (digest {}); merge the parts of one model",
                    p.display(),
                    name(&model),
                    p0.display(),
                    name(m0)
                );
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// The parts of a sharded run (checked by [`shard::read_parts`]) merged into the job and
/// states of the single run, its levels looked up in `entries`.
pub fn merge(entries: &[Entry], parts: Vec<(PathBuf, Part<State>)>) -> Result<(Job, Vec<State>)> {
    let merged = Merged::new(parts);
    let params = Params::from_args(merged.args())?;
    let job = job_with(entries, params, merged_agent(params.agent, merged.args())?)?;
    let ids: Vec<String> = job.tasks.iter().map(|t| t.id.to_string()).collect();
    if ids != merged.run.task_ids {
        bail!(
            "the parts (e.g. {}) evaluate other tasks than the {} setting of these; merge with the shards' --tasks",
            merged.first().display(),
            params.setting.word()
        );
    }
    merged.check_rebuilt(&job)?;
    Ok((job, merged.states))
}
