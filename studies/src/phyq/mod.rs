//! Phy-Q evaluation: an agent's pass rate on the test tasks of a generalization setting, per
//! task, template and scenario, and the Phy-Q score.
//!
//! Settings (the paper's §4): **local**, per template the first 80 tasks train and the last 20
//! test; **broad**, per scenario the paper's training templates train and its testing templates
//! test (Table 7, `phyq::templates::Role`); **all**, every given task tests (levels imported
//! without a template). Only the test tasks are played; the DQN learns on the training tasks
//! ([`train_tasks`]) beforehand (`studies::phyq_dqn`).
//!
//! A task is played `attempts` times (the paper: random 50, heuristics 5), or until its first
//! pass (the paper's Pig Shooter: [`AttemptRule`]); its pass rate is the share of the attempts
//! played that pass. Each attempt's random numbers depend only on (seed, task id,
//! attempt), and one runner task is one level advanced one attempt at a time, so a run
//! checkpoints, resumes, shards and merges to the same bytes on any thread count. The DQN's
//! shards evaluate one trained model, whose digest and header their part files record; the
//! merge refuses parts of different models ([`check_same_model`]).
//!
//! The Phy-Q score (the paper's equations 1–2) is computed over scenarios 3–15 with the paper's
//! human means and standard deviations (`phyq::playdata`) and, for the random agent's Z, this
//! project's own random agent on this project's tasks ([`random_reference`]).
//!
//! The stages, each importing only those before it: [`types`] (agents by name, settings,
//! parameters), [`selection`] (the test and training tasks), [`run`] (the runner job, resume,
//! shards), [`merge`] (shards merged), [`results`] (per-task rows and their CSV), [`score`] (pass
//! rates, the Phy-Q score, the paper's agreement) and [`report`] (the `--json` line and the
//! Markdown summary). Their public items are re-exported here.

#[cfg(feature = "dqn")]
mod agent;
mod merge;
mod report;
mod results;
mod run;
mod score;
mod selection;
mod types;

#[cfg(feature = "dqn")]
pub use agent::{agent, shard_needs_model, AgentSpec, DqnSpec, Event, Events};
pub use merge::{check_same_model, merge};
pub use report::{figures, json_line, scenario_series, summary_markdown, Figures};
pub use results::{csv_text, parse_csv, rows, rows_from_attempts, Attempt, Row, HEADER};
pub use run::{check_resume, job, job_with, run, run_shard, run_with, Job, State};
pub use score::{
    agreement, paper_agreement, paper_template_rate, pass_rate, per_scenario, per_template,
    phyq_score, random_reference, scenario_names, z_score, Agreement, RANDOM_REFERENCE,
    SCORED_SCENARIOS,
};
pub use selection::{test_tasks, train_tasks, EvalTask};
pub use types::{
    builtin, AgentName, AttemptRule, Params, Setting, SharedAgent, COMMAND, DEFAULT_SEED,
    LOCAL_TRAIN_TASKS, MAX_ATTEMPTS, SLURM,
};

#[cfg(test)]
mod tests;
