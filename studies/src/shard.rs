//! Sharded runs: one long job split into N parts that run anywhere (a Slurm job array's tasks),
//! each writing a part file, and the merge of the parts into the report of a single run.
//!
//! A job is a list of runner tasks ([`TaskJob`]); shard K of N owns the runner tasks whose index
//! i (0-based, in the job's canonical order) has i mod N = K - 1. The split depends on (K, N,
//! the job) only, never on the machine or the thread count. Each runner task's final state depends
//! only on (job, task), so the states a shard computes are the states a single run computes for
//! those tasks; [`Merged`] puts every part's states back in task order, and the study turns
//! them into its report with the code the single run uses: the bytes are the same by
//! construction, whatever N.
//!
//! A part file records the command, its canonical arguments (everything that determines the
//! results: not `--shard`, `--out`, `--threads` or the checkpoint), the tasks' ids, the job's
//! fingerprint (crate version, parameters, the tasks' content), K and N. The merge refuses parts
//! of different runs, a missing or duplicate shard, and states outside a shard's tasks, each with
//! an error naming the file.

use crate::files::{read_stamped, write_atomic, FileKind, Stamped};
use crate::runner::{self, RunConfig, TaskJob};
use anyhow::{bail, Context, Result};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use tasks::Tier;

/// Part files.
const PART: FileKind = FileKind {
    name: "part file",
    format: "rephyre-part-1",
    // Parts are compared with one another (`check_headers`), not with a fingerprint.
    other_run: "run",
};

/// Shard `index` of `count` (1-based: 1 ..= count).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    /// The shard `K/N` (1 <= K <= N).
    pub fn new(index: u32, count: u32) -> Result<Shard> {
        if count == 0 {
            bail!("--shard K/N needs N >= 1, got {index}/{count}");
        }
        if index == 0 || index > count {
            bail!("--shard K/N needs 1 <= K <= N, got {index}/{count}");
        }
        Ok(Shard { index, count })
    }

    /// Parse `K/N`.
    pub fn parse(s: &str) -> Result<Shard> {
        let Some((k, n)) = s.split_once('/') else {
            bail!("--shard must be K/N (e.g. 3/16), got {s:?}");
        };
        let num = |x: &str| -> Result<u32> {
            x.trim()
                .parse::<u32>()
                .ok()
                .with_context(|| format!("--shard must be K/N with whole numbers, got {s:?}"))
        };
        Shard::new(num(k)?, num(n)?)
    }

    /// Whether runner task `task` belongs to this shard.
    pub fn owns(&self, task: u64) -> bool {
        task % self.count as u64 == (self.index - 1) as u64
    }

    /// This shard's runner tasks among `total`, in order.
    pub fn tasks(&self, total: u64) -> Vec<u64> {
        (self.index as u64 - 1..total)
            .step_by(self.count as usize)
            .collect()
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// A job restricted to one shard's tasks (local index -> the job's task).
struct Sharded<'a, J> {
    job: &'a J,
    shard: Shard,
    tasks: Vec<u64>,
}

impl<J: TaskJob> TaskJob for Sharded<'_, J> {
    type State = J::State;

    fn len(&self) -> usize {
        self.tasks.len()
    }

    fn fingerprint(&self) -> String {
        shard_fingerprint(&self.job.fingerprint(), self.shard)
    }

    fn advance(&self, task: usize, state: &mut J::State) -> bool {
        self.job.advance(self.tasks[task] as usize, state)
    }

    fn simulations(&self, state: &J::State) -> u64 {
        self.job.simulations(state)
    }

    fn restored_finished(&self, task: usize, saved: bool, state: &J::State) -> bool {
        self.job
            .restored_finished(self.tasks[task] as usize, saved, state)
    }
}

/// The fingerprint of shard `shard` of a job of fingerprint `job` (its checkpoint's).
pub fn shard_fingerprint(job: &str, shard: Shard) -> String {
    format!("{job} shard={shard}")
}

/// What identifies a run: the command, its canonical arguments and its tasks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunId {
    /// The command (`solvability`, `diversity`, ...).
    pub command: String,
    /// Canonical arguments, name -> value (exact text: floats in Rust's round-trip form).
    pub args: BTreeMap<String, String>,
    /// The tasks' ids, in the job's order.
    pub task_ids: Vec<String>,
}

/// One shard's result.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Part<S> {
    #[serde(flatten)]
    pub header: PartHeader,
    /// (runner task, final state) of this shard's tasks, in task order.
    pub states: Vec<(u64, S)>,
}

/// What a part file says of itself (read alone to learn its command before its states).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PartHeader {
    pub format: String,
    pub version: String,
    #[serde(flatten)]
    pub run: RunId,
    /// The job's fingerprint (crate version, parameters, the tasks' content).
    pub fingerprint: String,
    pub shard: u32,
    pub shards: u32,
    /// Runner tasks of the whole job.
    pub units: u64,
}

/// Run shard `shard` of `job` (checkpointed and resumable like a whole run: `cfg`'s checkpoint
/// holds only this shard's tasks) and return its part. The part names the run: the study's
/// `command`, its canonical `args` and the ids of its `tasks`.
pub fn run_shard<J: TaskJob>(
    job: &J,
    command: &str,
    args: Args,
    tasks: &[&tasks::Task],
    shard: Shard,
    cfg: &RunConfig,
) -> Result<Part<J::State>>
where
    J::State: Serialize,
{
    let ids = tasks.iter().map(|t| t.id().to_string()).collect();
    run_shard_of(job, command, args, ids, shard, cfg)
}

/// [`run_shard`] for a job whose tasks are named by `task_ids` (in the job's order) rather than
/// PHYRE tasks (Phy-Q levels).
pub fn run_shard_of<J: TaskJob>(
    job: &J,
    command: &str,
    args: Args,
    task_ids: Vec<String>,
    shard: Shard,
    cfg: &RunConfig,
) -> Result<Part<J::State>>
where
    J::State: Serialize,
{
    let units = job.len() as u64;
    let sharded = Sharded {
        job,
        shard,
        tasks: shard.tasks(units),
    };
    let states = runner::run(&sharded, cfg)?;
    Ok(Part {
        header: PartHeader {
            format: PART.format.to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            run: RunId {
                command: command.to_string(),
                args,
                task_ids,
            },
            fingerprint: job.fingerprint(),
            shard: shard.index,
            shards: shard.count,
            units,
        },
        states: sharded.tasks.into_iter().zip(states).collect(),
    })
}

/// Write a part file (atomically).
pub fn write_part<S: Serialize>(path: &Path, part: &Part<S>) -> Result<()> {
    write_atomic(path, serde_json::to_string(part)?.as_bytes())
}

/// Read the header of the part file `path`.
pub fn read_header(path: &Path) -> Result<PartHeader> {
    read_stamped(path, &PART, None)
}

/// Read every part file, checking that they are all parts of one run (same command, arguments,
/// tasks, fingerprint and N), that together they are shards 1 ..= N exactly once, and that each
/// holds exactly its shard's tasks.
pub fn read_parts<S: DeserializeOwned>(paths: &[PathBuf]) -> Result<Vec<(PathBuf, Part<S>)>> {
    if paths.is_empty() {
        bail!("no part files given");
    }
    // The headers first, alone: a part of another run (whose states have another shape) is
    // then refused for what differs, not for a state it cannot parse.
    let headers = paths
        .iter()
        .map(|p| Ok((p.clone(), read_header(p)?)))
        .collect::<Result<Vec<_>>>()?;
    check_headers(&headers)?;
    let mut parts: Vec<(PathBuf, Part<S>)> = Vec::new();
    for p in paths {
        let part: Part<S> = read_stamped(p, &PART, None)?;
        let h = &part.header;
        let want = Shard::new(h.shard, h.shards)?.tasks(h.units);
        if !part.states.iter().map(|(t, _)| *t).eq(want) {
            bail!(
                "part {} (shard {}/{}) does not hold exactly its shard's tasks",
                p.display(),
                h.shard,
                h.shards
            );
        }
        parts.push((p.clone(), part));
    }
    Ok(parts)
}

impl Stamped for PartHeader {
    fn format(&self) -> &str {
        &self.format
    }
    fn fingerprint(&self) -> &str {
        &self.fingerprint
    }
}

impl<S> Stamped for Part<S> {
    fn format(&self) -> &str {
        &self.header.format
    }
    fn fingerprint(&self) -> &str {
        &self.header.fingerprint
    }
}

fn check_headers(parts: &[(PathBuf, PartHeader)]) -> Result<()> {
    let (p0, first) = &parts[0];
    for (p, part) in parts {
        let differs = if part.version != first.version {
            Some(format!(
                "rephyre version {} instead of {}",
                part.version, first.version
            ))
        } else if part.run.command != first.run.command {
            Some(format!(
                "command {} instead of {}",
                part.run.command, first.run.command
            ))
        } else if part.run.args != first.run.args {
            let diff: Vec<String> = part
                .run
                .args
                .iter()
                .filter(|(k, v)| first.run.args.get(*k) != Some(*v))
                .map(|(k, v)| format!("{k}={v}"))
                .chain(
                    first
                        .run
                        .args
                        .keys()
                        .filter(|k| !part.run.args.contains_key(*k))
                        .map(|k| format!("no {k}")),
                )
                .collect();
            Some(format!("arguments differ: {}", diff.join(", ")))
        } else if part.run.task_ids != first.run.task_ids {
            Some("its tasks differ".to_string())
        } else if part.fingerprint != first.fingerprint {
            Some("its fingerprint (tasks' content) differs".to_string())
        } else if part.shards != first.shards {
            Some(format!(
                "it is one of {} shards, not {}",
                part.shards, first.shards
            ))
        } else if part.units != first.units {
            Some("its job size differs".to_string())
        } else {
            None
        };
        if let Some(why) = differs {
            bail!(
                "part {} is from a different run than {}: {why}",
                p.display(),
                p0.display()
            );
        }
    }
    let n = first.shards;
    let mut seen: BTreeMap<u32, &Path> = BTreeMap::new();
    for (p, part) in parts {
        let shard = Shard::new(part.shard, part.shards)
            .with_context(|| format!("part {} has a bad shard number", p.display()))?;
        if let Some(other) = seen.insert(part.shard, p) {
            bail!(
                "parts {} and {} are both shard {shard}",
                other.display(),
                p.display()
            );
        }
    }
    let missing: Vec<String> = (1..=n)
        .filter(|k| !seen.contains_key(k))
        .map(|k| format!("{k}/{n}"))
        .collect();
    if !missing.is_empty() {
        let shown: Vec<&str> = missing.iter().take(10).map(String::as_str).collect();
        bail!(
            "missing part{}: shard {}{} of the run of {}",
            if missing.len() > 1 { "s" } else { "" },
            shown.join(", "),
            if missing.len() > 10 { ", ..." } else { "" },
            p0.display()
        );
    }
    Ok(())
}

/// The parts of one sharded run (checked by [`read_parts`]) put back together: the run they
/// belong to and the final states of every runner task in task order. A study rebuilds its job
/// from [`Merged::args`] and [`Merged::tasks`], checks it with [`Merged::check_rebuilt`], and
/// turns the states into its report with the code the single run uses.
pub struct Merged<S> {
    pub run: RunId,
    fingerprint: String,
    /// The first part's file, to name in errors.
    first: PathBuf,
    pub states: Vec<S>,
}

impl<S> Merged<S> {
    pub fn new(parts: Vec<(PathBuf, Part<S>)>) -> Merged<S> {
        let first = parts[0].0.clone();
        let header = parts[0].1.header.clone();
        let mut slots: Vec<Option<S>> = (0..header.units).map(|_| None).collect();
        for (_, part) in parts {
            for (t, s) in part.states {
                slots[t as usize] = Some(s);
            }
        }
        let states = slots
            .into_iter()
            .map(|s| s.expect("read_parts checked that the shards cover every task"))
            .collect();
        Merged {
            run: header.run,
            fingerprint: header.fingerprint,
            first,
            states,
        }
    }

    /// The run's canonical arguments.
    pub fn args(&self) -> &Args {
        &self.run.args
    }

    /// The first part's file (for errors).
    pub fn first(&self) -> &Path {
        &self.first
    }

    /// The run's tasks, looked up in `set`.
    pub fn tasks<'a>(&self, set: &'a tasks::TaskSet) -> Result<Vec<&'a tasks::Task>> {
        self.run
            .task_ids
            .iter()
            .map(|id| {
                set.lookup(id).map_err(|_| {
                    anyhow::anyhow!(
                        "the parts name task {id}, which is not in the task set (merge with \
                         the shards' --tasks FILE)"
                    )
                })
            })
            .collect()
    }

    /// Check that a job rebuilt from the run's arguments and tasks is the job the parts ran
    /// (same fingerprint: crate version, parameters, tasks' content).
    pub fn check_rebuilt<J: TaskJob>(&self, job: &J) -> Result<()> {
        if job.fingerprint() != self.fingerprint {
            bail!(
                "the parts (e.g. {}) were written by a different rephyre build or task set \
                 (fingerprint {:?}, this one {:?}); merge with the same build and --tasks",
                self.first.display(),
                self.fingerprint,
                job.fingerprint()
            );
        }
        Ok(())
    }
}

/// Canonical arguments, built and read back by the studies.
pub type Args = BTreeMap<String, String>;

/// Canonical arguments from (name, value) pairs.
pub fn args<const N: usize>(pairs: [(&str, String); N]) -> Args {
    pairs
        .into_iter()
        .map(|(name, value)| (name.to_owned(), value))
        .collect()
}

/// Argument `name` of a part, parsed.
pub fn arg<T: std::str::FromStr>(args: &Args, name: &str) -> Result<T> {
    let v = args
        .get(name)
        .with_context(|| format!("part file without argument {name}"))?;
    v.parse()
        .ok()
        .with_context(|| format!("part file with a bad argument {name}={v:?}"))
}

/// A tier as a part file writes it (its `Display` form).
pub fn parse_tier(text: &str) -> Result<Tier> {
    Tier::parse(text).with_context(|| format!("part file with tier {text:?}"))
}

/// Argument `name` of a part, a tier.
pub fn tier_arg(args: &Args, name: &str) -> Result<Tier> {
    parse_tier(&arg::<String>(args, name)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_tasks() {
        for n in 1..=9u32 {
            for total in [0u64, 1, 5, 17, 40] {
                let mut all: Vec<u64> = (1..=n)
                    .flat_map(|k| Shard::new(k, n).unwrap().tasks(total))
                    .collect();
                all.sort();
                assert_eq!(all, (0..total).collect::<Vec<_>>(), "{n} shards");
                for k in 1..=n {
                    let s = Shard::new(k, n).unwrap();
                    assert!(s.tasks(total).iter().all(|&t| s.owns(t)));
                }
            }
        }
    }

    #[test]
    fn shard_parsing() {
        assert_eq!(Shard::parse("3/16").unwrap(), Shard::new(3, 16).unwrap());
        for bad in ["0/4", "5/4", "1/0", "x/4", "3", "-1/4", "1/4/5"] {
            let e = Shard::parse(bad).unwrap_err().to_string();
            assert!(e.starts_with("--shard"), "{bad}: {e}");
        }
    }
}
