//! The paper's agents on the evaluation setups and folds (AUCCESS, success@10), and the
//! one-sided Wilcoxon comparison of two agents over paired folds.
//!
//! Every agent here acts on one fixed action set per tier (`actions` actions from `seed`). The
//! status of every (task, action) pair of the tier (the outcome table) is computed once, in
//! parallel, checkpointed and resumable (`cache`), and shared by every agent, setup and fold.
//!
//! The parts, each importing only parts listed before it: `types` (the agents, the splits, what
//! the agents learn from), `tables` (the outcome tables, their shards and merge), `dqn` (how
//! DQN and DQN-O train, their models), `results` (the per-fold results, their Markdown table,
//! the comparison of two agents), `checkpoint` (finished folds saved as they finish) and `run`
//! (the evaluation itself and its report). Their public items are re-exported here.

mod checkpoint;
/// DQN and DQN-O in the evaluation.
#[cfg(feature = "dqn")]
pub mod dqn;
mod results;
mod run;
mod tables;
mod types;

pub use checkpoint::{is_checkpoint, merge_checkpoints, MergedCheckpoints};
pub use results::{check_one_agent, compare, read_results, table_markdown, Comparison, FoldResult};
pub use run::{run, Params, Report, TableSummary, TaskResult};
pub use tables::{merge_tables, table_shard, table_tiers, Row, TABLES_COMMAND, TABLES_SLURM};
pub use types::{AgentKind, EvalSplit, LearnFrom};
