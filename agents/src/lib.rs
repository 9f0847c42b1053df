//! Baseline agents and their evaluation for rephyre (the paper's §3.2 protocol and §4 agents).
//!
//! * [`protocol`]: the agent interface, the 100-attempt evaluator, the fixed action set and the
//!   shared table of (task, action) outcomes;
//! * [`baselines`]: RAND, MEM, MEM-O and the OPTIMAL oracle;
//! * [`auccess`]: success curves and AUCCESS (the one-sided Wilcoxon test that compares agents
//!   over folds is `studies::stats::wilcoxon`);
//! * [`phyq`]: the Phy-Q agents (RANDOM, PIG SHOOTER and the OPTIMAL planner), one shot per
//!   bird;
//! * `dqn` (feature `dqn`): the learned agents, PHYRE's DQN and DQN-O and the Phy-Q DQN (burn's
//!   CPU backend; feature `gpu` adds a GPU through Vulkan).
//!
//! The guided search for one stable solution per task (a constructive proof of solvability) is
//! `studies::witness`.

pub mod auccess;
pub mod baselines;
#[cfg(feature = "dqn")]
pub mod dqn;
pub mod phyq;
pub mod protocol;

pub use baselines::{Mem, MemO, Optimal, Rand};
pub use protocol::{
    evaluate, ActionSet, Agent, AttemptError, Attempts, Simulator, Status, StatusTable,
    MAX_ATTEMPTS,
};
