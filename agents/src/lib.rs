//! Baseline agents and their evaluation for rephyre (the paper's §3.2 protocol and §4 agents).
//!
//! * [`protocol`]: the agent interface, the 100-attempt evaluator, the fixed action set and the
//!   shared table of (task, action) outcomes;
//! * [`baselines`]: RAND, MEM, MEM-O and the OPTIMAL oracle;
//! * [`auccess`]: success curves and AUCCESS (the one-sided Wilcoxon test that compares agents
//!   over folds is `studies::stats::wilcoxon`);
//! * [`phyq`]: the Phy-Q agents (RANDOM, PIG SHOOTER and the OPTIMAL planner), one shot per
//!   bird;
//! * [`witness`]: a guided search for one stable solution per task (a constructive proof of
//!   solvability) and the stable-solution test.

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
