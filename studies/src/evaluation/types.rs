//! The choices an evaluation is made of, shared by all its parts: which agents
//! ([`AgentKind`]), on which split of a fold ([`EvalSplit`]), learning from which tasks
//! ([`LearnFrom`]).

use agents::{Agent, Mem, MemO, Optimal, Rand};
use tasks::Setup;

/// The agents of the paper's Table 1 that rephyre has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum AgentKind {
    Rand,
    Mem,
    MemO,
    Optimal,
    /// The paper's learned baseline (trained per fold; `--agent all` leaves it out, it costs
    /// minutes per fold).
    #[cfg(feature = "dqn")]
    Dqn,
    /// DQN that keeps training on the test tasks' attempts.
    #[cfg(feature = "dqn")]
    DqnO,
}

impl AgentKind {
    /// Every baseline that needs no training, in the order of the paper's table.
    pub const ALL: [AgentKind; 4] = [
        AgentKind::Rand,
        AgentKind::Mem,
        AgentKind::MemO,
        AgentKind::Optimal,
    ];

    /// A fresh agent of this kind for `setup`; `None` for the DQNs, which are trained or loaded
    /// by `dqn::fitted`.
    pub(super) fn make(self, setup: Setup, actions: usize, seed: u64) -> Option<Box<dyn Agent>> {
        Some(match self {
            AgentKind::Rand => Box::new(Rand::new(seed, actions)),
            AgentKind::Mem => Box::new(Mem::new(actions, !setup.is_cross_template())),
            AgentKind::MemO => Box::new(MemO::new(actions, !setup.is_cross_template())),
            AgentKind::Optimal => Box::new(Optimal::new(actions)),
            #[cfg(feature = "dqn")]
            AgentKind::Dqn | AgentKind::DqnO => return None,
        })
    }

    /// Whether this agent trains a network (DQN, DQN-O): only these use the DQN parameters
    /// and the compute device.
    #[cfg(feature = "dqn")]
    pub fn is_dqn(self) -> bool {
        matches!(self, AgentKind::Dqn | AgentKind::DqnO)
    }
}

/// Which of a fold's tasks the agents are evaluated on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalSplit {
    Test,
    Dev,
    /// The tasks the agents learn from: how well an agent fits them, to set beside how well
    /// it generalizes (dev, test). Agents learn from the training tasks alone, as for dev.
    Train,
}

impl EvalSplit {
    /// Its name in the results (`test`, `dev`).
    pub fn name(self) -> &'static str {
        match self {
            EvalSplit::Test => "test",
            EvalSplit::Dev => "dev",
            EvalSplit::Train => "train",
        }
    }
}

/// What the trained agents (MEM, MEM-O, DQN, DQN-O) learn from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LearnFrom {
    /// The fold's training tasks alone.
    Train,
    /// The training and dev tasks together, as the original trained the agents it evaluated
    /// on the test tasks (its `--use-test-split`); what an agent chooses on the dev tasks
    /// (MEM-O's online weight) is still chosen with the training tasks alone. Only for the
    /// test split.
    TrainAndDev,
}

impl LearnFrom {
    /// The original's choice for `split`: training and dev tasks for the test split, the
    /// training tasks otherwise.
    pub fn default_for(split: EvalSplit) -> LearnFrom {
        match split {
            EvalSplit::Test => LearnFrom::TrainAndDev,
            EvalSplit::Dev | EvalSplit::Train => LearnFrom::Train,
        }
    }

    /// Its name on the command line and in reports (`train`, `train-dev`).
    pub fn name(self) -> &'static str {
        match self {
            LearnFrom::Train => "train",
            LearnFrom::TrainAndDev => "train-dev",
        }
    }
}
