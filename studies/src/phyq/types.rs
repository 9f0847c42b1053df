//! The run's inputs: the agents by name, the generalization settings, the parameters that
//! determine a run's results, and the limits.

use crate::shard::{self, arg, Args};
use agents::phyq::{Optimal, PigShooter, Random, ShotAgent};
use anyhow::{bail, Result};
use std::sync::Arc;

/// The command its part files record.
pub const COMMAND: &str = "phyq-eval";

/// The study to `rephyre merge` (the CSV, the report, the plot, `--json`) and `rephyre slurm`
/// (a dqn's shards read its `--model`).
pub const SLURM: crate::slurm::Study = crate::slurm::Study {
    json: true,
    input_files: &["--model"],
    ..crate::slurm::Study::checkpointed(
        COMMAND,
        "phyq-eval.csv",
        &[
            (crate::slurm::Extra::Summary, "phyq-eval.md"),
            (crate::slurm::Extra::Plot, "phyq-eval.svg"),
        ],
    )
};
/// The seed of a run that names none.
pub const DEFAULT_SEED: u64 = 0;
/// Local generalization: tasks 1..=this of a template train, the rest test.
pub const LOCAL_TRAIN_TASKS: u32 = 80;
/// Attempts per task at most.
pub const MAX_ATTEMPTS: u32 = 1000;

/// The agents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentName {
    Random,
    PigShooter,
    Optimal,
    /// The learned agent (`agents::dqn::phyq`): its job needs a trained model
    /// ([`job_with`]).
    Dqn,
}

impl AgentName {
    pub const ALL: [AgentName; 4] = [
        AgentName::Random,
        AgentName::PigShooter,
        AgentName::Optimal,
        AgentName::Dqn,
    ];

    pub fn word(self) -> &'static str {
        match self {
            AgentName::Random => "random",
            AgentName::PigShooter => "pig-shooter",
            AgentName::Optimal => "optimal",
            AgentName::Dqn => "dqn",
        }
    }

    pub fn parse(text: &str) -> Result<AgentName> {
        match AgentName::ALL.iter().find(|a| a.word() == text) {
            Some(a) => Ok(*a),
            None => bail!(
                "unknown Phy-Q agent {text:?} (one of: {})",
                AgentName::ALL.map(|a| a.word()).join(", ")
            ),
        }
    }

    /// Attempts per task when none are given: the paper's 50 for the random agent and 5 for
    /// heuristics; the planner and the DQN are deterministic, one is enough.
    pub fn default_attempts(self) -> u32 {
        match self {
            AgentName::Random => 50,
            AgentName::PigShooter => 5,
            AgentName::Optimal | AgentName::Dqn => 1,
        }
    }

    /// The agent of a name alone (`None` for the DQN, which needs its model).
    pub fn agent(self) -> Option<&'static dyn ShotAgent> {
        match self {
            AgentName::Random => Some(&Random),
            AgentName::PigShooter => Some(&PigShooter),
            AgentName::Optimal => Some(&Optimal),
            AgentName::Dqn => None,
        }
    }
}

/// An agent a job plays.
pub type SharedAgent = Arc<dyn ShotAgent + Send>;

/// The agent of `name` when it needs nothing else.
pub fn builtin(name: AgentName) -> Result<SharedAgent> {
    match name {
        AgentName::Random => Ok(Arc::new(Random)),
        AgentName::PigShooter => Ok(Arc::new(PigShooter)),
        AgentName::Optimal => Ok(Arc::new(Optimal)),
        AgentName::Dqn => bail!("the dqn agent needs a trained model"),
    }
}

/// The generalization settings (module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setting {
    Local,
    Broad,
    All,
}

impl Setting {
    pub const ALL: [Setting; 3] = [Setting::Local, Setting::Broad, Setting::All];

    pub fn word(self) -> &'static str {
        match self {
            Setting::Local => "local",
            Setting::Broad => "broad",
            Setting::All => "all",
        }
    }

    pub fn parse(text: &str) -> Result<Setting> {
        match Setting::ALL.iter().find(|s| s.word() == text) {
            Some(s) => Ok(*s),
            None => bail!("unknown setting {text:?} (one of: local, broad, all)"),
        }
    }
}

/// What determines a run's results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    pub agent: AgentName,
    pub setting: Setting,
    pub attempts: u32,
    pub seed: u64,
}

impl Params {
    /// Checked parameters (`attempts`: the agent's default when `None`).
    pub fn new(
        agent: AgentName,
        setting: Setting,
        attempts: Option<u32>,
        seed: u64,
    ) -> Result<Params> {
        let attempts = attempts.unwrap_or(agent.default_attempts());
        if attempts == 0 || attempts > MAX_ATTEMPTS {
            bail!("--attempts must be 1 to {MAX_ATTEMPTS}, got {attempts}");
        }
        Ok(Params {
            agent,
            setting,
            attempts,
            seed,
        })
    }

    /// The canonical arguments a part file records.
    pub fn args(&self) -> Args {
        shard::args([
            ("agent", self.agent.word().to_string()),
            ("setting", self.setting.word().to_string()),
            ("attempts", self.attempts.to_string()),
            ("seed", self.seed.to_string()),
        ])
    }

    pub fn from_args(a: &Args) -> Result<Params> {
        Params::new(
            AgentName::parse(&arg::<String>(a, "agent")?)?,
            Setting::parse(&arg::<String>(a, "setting")?)?,
            Some(arg(a, "attempts")?),
            arg(a, "seed")?,
        )
    }
}
