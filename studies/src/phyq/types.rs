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
        parse_word(&AgentName::ALL, AgentName::word, "Phy-Q agent", text)
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

    /// When a task's attempts stop when none is given: the Pig Shooter's at its first pass, as
    /// the paper's data of it were made ([`AttemptRule::UntilPass`]); the others' never.
    pub fn default_attempt_rule(self) -> AttemptRule {
        match self {
            AgentName::PigShooter => AttemptRule::UntilPass,
            AgentName::Random | AgentName::Optimal | AgentName::Dqn => AttemptRule::Every,
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
        parse_word(&Setting::ALL, Setting::word, "setting", text)
    }
}

/// Which of a task's attempts are played; its pass rate is always passes / attempts played.
///
/// The paper's per-template rates of its Pig Shooter were made by the original Python agent
/// framework's `MaxAttempts(5)` level selection: a level is played again only while it is
/// unsolved, so a task passed at attempt k counts 1/k. Their fractions show it: 26 of its 31
/// non-zero template rates are not whole hundredths, as 20 tasks × 5 attempts would give, but all
/// but two are whole 1/1200ths (20 tasks × lcm(1..5); the two fit 19 and 18 tasks); the Java
/// heuristics' rates (Bambirds, DataLab, Eagle's Wing) are whole hundredths but for 6 of 156.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttemptRule {
    /// Every attempt is played: the rate is the share that pass (the paper's random agent and
    /// its Java heuristics).
    Every,
    /// Attempts stop at the first pass: a task passed at attempt k has rate 1/k (the paper's
    /// Pig Shooter).
    UntilPass,
}

impl AttemptRule {
    pub const ALL: [AttemptRule; 2] = [AttemptRule::Every, AttemptRule::UntilPass];

    pub fn word(self) -> &'static str {
        match self {
            AttemptRule::Every => "every",
            AttemptRule::UntilPass => "until-pass",
        }
    }

    pub fn parse(text: &str) -> Result<AttemptRule> {
        parse_word(&AttemptRule::ALL, AttemptRule::word, "attempt rule", text)
    }
}

/// The value of `all` whose word is `text`, or an error naming `what` and every word.
fn parse_word<T: Copy>(
    all: &[T],
    word: fn(T) -> &'static str,
    what: &str,
    text: &str,
) -> Result<T> {
    match all.iter().find(|v| word(**v) == text) {
        Some(v) => Ok(*v),
        None => {
            let words: Vec<&str> = all.iter().map(|v| word(*v)).collect();
            bail!("unknown {what} {text:?} (one of: {})", words.join(", "))
        }
    }
}

/// What determines a run's results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    pub agent: AgentName,
    pub setting: Setting,
    /// Attempts per task (at most, under [`AttemptRule::UntilPass`]).
    pub attempts: u32,
    pub attempt_rule: AttemptRule,
    pub seed: u64,
}

impl Params {
    /// Checked parameters (`attempts` and `attempt_rule`: the agent's defaults when `None`).
    pub fn new(
        agent: AgentName,
        setting: Setting,
        attempts: Option<u32>,
        attempt_rule: Option<AttemptRule>,
        seed: u64,
    ) -> Result<Params> {
        let attempts = attempts.unwrap_or(agent.default_attempts());
        let attempt_rule = attempt_rule.unwrap_or(agent.default_attempt_rule());
        if attempts == 0 || attempts > MAX_ATTEMPTS {
            bail!("--attempts must be 1 to {MAX_ATTEMPTS}, got {attempts}");
        }
        Ok(Params {
            agent,
            setting,
            attempts,
            attempt_rule,
            seed,
        })
    }

    /// The canonical arguments a part file records.
    pub fn args(&self) -> Args {
        shard::args([
            ("agent", self.agent.word().to_string()),
            ("setting", self.setting.word().to_string()),
            ("attempts", self.attempts.to_string()),
            ("attempt_rule", self.attempt_rule.word().to_string()),
            ("seed", self.seed.to_string()),
        ])
    }

    pub fn from_args(a: &Args) -> Result<Params> {
        Params::new(
            AgentName::parse(&arg::<String>(a, "agent")?)?,
            Setting::parse(&arg::<String>(a, "setting")?)?,
            Some(arg(a, "attempts")?),
            Some(AttemptRule::parse(&arg::<String>(a, "attempt_rule")?)?),
            arg(a, "seed")?,
        )
    }
}
