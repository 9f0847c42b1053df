//! The outcome tables: the status of every (task, action) pair of a tier's fixed action set,
//! computed once on the runner (checkpointed and resumable) and shared by every agent, setup
//! and fold; sharded (`--shard K/N`) and merged into the cache a single run leaves.

use crate::runner::{self, RunConfig, TaskJob};
use crate::selection::tasks_fingerprint;
use crate::shard::{self, arg, parse_tier, Merged, Part, Shard};
use agents::ActionSet;
use anyhow::{bail, Result};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use tasks::{Setup, Task, TaskSet, Tier};

/// Computing one tier's status table: one runner task per PHYRE task, batches of actions.
pub(super) struct TableJob<'a> {
    tasks: Vec<&'a Task>,
    set: ActionSet,
    tier: Tier,
    /// Names everything that determines the table's columns, see [`TableJob::new`].
    fingerprint: String,
}

impl<'a> TableJob<'a> {
    pub(super) fn new(tasks: Vec<&'a Task>, set: ActionSet, tier: Tier) -> Result<TableJob<'a>> {
        // The action count is left out: a set is a prefix of every larger set of the same seed
        // and tier, so a table of N actions is the first N columns of a larger one, and a cache
        // serves any --actions (computing only the columns it lacks). The tasks' full content
        // is in, so a --tasks file with the same ids and other scenes is not served stale rows.
        let fingerprint = format!(
            "eval-table-3 rephyre-{} tier {} seed {} {}",
            env!("CARGO_PKG_VERSION"),
            tier,
            set.seed,
            tasks_fingerprint(&tasks)?
        );
        Ok(TableJob {
            tasks,
            set,
            tier,
            fingerprint,
        })
    }
}

/// One task's row of an outcome table: the status code of each action, in order.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Row {
    pub codes: Vec<u8>,
}

const BATCH: usize = 64;

impl TaskJob for TableJob<'_> {
    type State = Row;
    fn len(&self) -> usize {
        self.tasks.len()
    }
    fn fingerprint(&self) -> String {
        self.fingerprint.clone()
    }
    fn advance(&self, task: usize, row: &mut Row) -> bool {
        let t = self.tasks[task];
        let end = (row.codes.len() + BATCH).min(self.set.len()) as u64;
        // The batch's actions are simulated in parallel (all of them are used) and stored in
        // order.
        let scene = tasks::TaskScene::new(t);
        runner::ordered_speculative(
            row,
            |row| (row.codes.len() < end as usize).then_some(row.codes.len() as u64),
            |row| end - row.codes.len() as u64,
            |a| {
                scene
                    .status(self.tier, &self.set.actions[a as usize])
                    .code()
            },
            |row, _, code| row.codes.push(code),
        );
        row.codes.len() >= self.set.len()
    }
    fn simulations(&self, row: &Row) -> u64 {
        row.codes.len() as u64
    }
    fn restored_finished(&self, _: usize, _: bool, row: &Row) -> bool {
        row.codes.len() >= self.set.len()
    }
}

/// The outcome tables of several tiers as one job: the tiers' tasks one after the other.
struct Tables<'a> {
    jobs: Vec<TableJob<'a>>,
}

impl Tables<'_> {
    /// (job, task in it) of task `t`.
    fn locate(&self, mut t: usize) -> (&TableJob<'_>, usize) {
        for j in &self.jobs {
            if t < j.len() {
                return (j, t);
            }
            t -= j.len();
        }
        unreachable!("task {t} out of range")
    }
}

impl TaskJob for Tables<'_> {
    type State = Row;
    fn len(&self) -> usize {
        self.jobs.iter().map(|j| j.len()).sum()
    }
    fn fingerprint(&self) -> String {
        let f: Vec<String> = self.jobs.iter().map(|j| j.fingerprint()).collect();
        f.join(" | ")
    }
    fn advance(&self, t: usize, row: &mut Row) -> bool {
        let (j, t) = self.locate(t);
        j.advance(t, row)
    }
    fn simulations(&self, row: &Row) -> u64 {
        row.codes.len() as u64
    }
    fn restored_finished(&self, t: usize, saved: bool, row: &Row) -> bool {
        let (j, t) = self.locate(t);
        j.restored_finished(t, saved, row)
    }
}

/// The tiers whose outcome tables the setups need, in the order [`run`] computes them.
///
/// [`run`]: super::run()
pub fn table_tiers(setups: &[Setup]) -> Vec<Tier> {
    let mut tiers: Vec<Tier> = setups.iter().map(|s| s.tier()).collect();
    tiers.dedup();
    tiers
}

/// The name of the outcome tables' shards in part files.
pub const TABLES_COMMAND: &str = "eval-tables";

/// The outcome tables to `rephyre merge` and `rephyre slurm`: run by `eval`, their shards'
/// checkpoint is their `--cache`, which always resumes; the merge writes the cache
/// `eval.<tier>.ckpt`.
pub const TABLES_SLURM: crate::slurm::Study = crate::slurm::Study {
    command: "eval",
    report: "eval",
    checkpoint: ("--cache", false),
    ..crate::slurm::Study::checkpointed(TABLES_COMMAND, "", &[])
};

fn tables<'a>(set: &'a TaskSet, tiers: &[Tier], actions: usize, seed: u64) -> Result<Tables<'a>> {
    if actions == 0 {
        bail!("--actions must be at least 1");
    }
    let jobs = tiers
        .iter()
        .map(|&tier| {
            let tier_tasks: Vec<&Task> = set.tier(tier).collect();
            if tier_tasks.is_empty() {
                bail!("the task set has no {tier} tasks");
            }
            TableJob::new(tier_tasks, ActionSet::new(seed, tier, actions), tier)
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Tables { jobs })
}

/// Compute shard `shard` of the outcome tables of `tiers` (`actions` actions of seed `seed`):
/// one work unit per task of each tier. `rephyre merge` turns the parts into the cache that
/// [`run`] reads (`cache.<tier>.ckpt`).
///
/// [`run`]: super::run()
pub fn table_shard(
    set: &TaskSet,
    tiers: &[Tier],
    actions: usize,
    seed: u64,
    shard: Shard,
    cfg: &RunConfig,
) -> Result<Part<Row>> {
    let job = tables(set, tiers, actions, seed)?;
    let names: Vec<String> = tiers.iter().map(|t| t.to_string()).collect();
    let args = shard::args([
        ("tiers", names.join(",")),
        ("actions", actions.to_string()),
        ("seed", seed.to_string()),
    ]);
    let ids: Vec<&Task> = job.jobs.iter().flat_map(|j| j.tasks.clone()).collect();
    shard::run_shard(&job, TABLES_COMMAND, args, &ids, shard, cfg)
}

/// Merge the parts of sharded outcome tables (checked by [`shard::read_parts`]) into the cache
/// of [`Params::cache`]: `cache.<tier>.ckpt` for each tier, the same bytes a single `run` with
/// that cache leaves. Returns the files written.
///
/// [`Params::cache`]: super::Params::cache
pub fn merge_tables(
    set: &TaskSet,
    parts: Vec<(PathBuf, Part<Row>)>,
    cache: &Path,
) -> Result<Vec<PathBuf>> {
    let merged = Merged::new(parts);
    let tiers: String = arg(merged.args(), "tiers")?;
    let tiers: Vec<Tier> = tiers.split(',').map(parse_tier).collect::<Result<_>>()?;
    let job = tables(
        set,
        &tiers,
        arg(merged.args(), "actions")?,
        arg(merged.args(), "seed")?,
    )?;
    merged.check_rebuilt(&job)?;
    let mut states = merged.states;
    let mut written = Vec::new();
    for j in &job.jobs {
        let rest = states.split_off(j.len());
        let path = cache.with_extension(format!("{}.ckpt", j.tier));
        runner::write_finished(j, std::mem::replace(&mut states, rest), &path)?;
        written.push(path);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sharded outcome tables merge into the cache files a single run leaves, byte for byte.
    #[test]
    fn merged_table_shards_are_the_single_runs_cache() {
        let dir = tempfile::tempdir().unwrap();
        let builtin = TaskSet::builtin();
        let few: Vec<Task> = [
            "00000:000",
            "00001:001",
            "00002:007",
            "00100:000",
            "00101:002",
        ]
        .iter()
        .map(|id| builtin.lookup(id).unwrap().clone())
        .collect();
        let set = TaskSet::from_tasks(few).unwrap();
        let tiers = [Tier::Ball, Tier::TwoBalls];
        let (actions, seed) = (12, 5);
        // The single run: each tier's table job on the runner, checkpointed to cache.<tier>.ckpt.
        let single = dir.path().join("single");
        for &tier in &tiers {
            let tasks: Vec<&Task> = set.tier(tier).collect();
            let job = TableJob::new(tasks, ActionSet::new(seed, tier, actions), tier).unwrap();
            let cfg = RunConfig {
                checkpoint: Some(single.with_extension(format!("{tier}.ckpt"))),
                resume: true,
                ..RunConfig::default()
            };
            runner::run(&job, &cfg).unwrap();
        }
        for n in [1, 2, 4] {
            let parts: Vec<(PathBuf, Part<Row>)> = (1..=n)
                .map(|k| {
                    let shard = Shard::new(k, n).unwrap();
                    let part =
                        table_shard(&set, &tiers, actions, seed, shard, &RunConfig::default())
                            .unwrap();
                    (PathBuf::from(format!("part-{k}")), part)
                })
                .collect();
            let merged = dir.path().join(format!("merged{n}"));
            let files = merge_tables(&set, parts, &merged).unwrap();
            assert_eq!(files.len(), 2);
            for tier in tiers {
                let ext = format!("{tier}.ckpt");
                assert_eq!(
                    std::fs::read(merged.with_extension(&ext)).unwrap(),
                    std::fs::read(single.with_extension(&ext)).unwrap(),
                    "{n} shards, {tier}"
                );
            }
        }
    }
}
