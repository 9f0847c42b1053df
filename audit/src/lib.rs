//! The determinism audit: for every task, a fixed set of valid actions drawn from a documented
//! seed; for each run the status, steps, solved step, final state hash and the chained per-step
//! state hash sampled at regular checkpoints. A golden file of these records, compared on
//! another build, profile or platform, shows the first (task, action, step window) that differs;
//! [`trace`] then prints per-phase hashes for that run to bisect the divergence.
//!
//! Golden file format (text, one run per line, `#` comments):
//! `task_id action_index status steps solved_step final_hash c1,c2,…` where status is
//! `SOLVED`/`NOT_SOLVED`, solved_step is `-` when not solved, hashes are 16 hex digits and the
//! `c_k` are the low 32 bits (8 hex digits) of the hash chain after step k·stride (up to the
//! last step covered).
//!
//! Phy-Q runs ([`phyq_audit`]) share the file; their lines start with the level id (`phyq:`):
//! `task_id status pigs_left shots steps shot_ends final_hash c1,c2,…` where status is
//! `PASSED`/`NOT_PASSED`, steps counts every step from the level's start (the 2 s opening
//! included), shot_ends lists the step count at the end of each shot (`-` when no shot was
//! taken), and the `c_k` are as above over the game's state hash. For example
//! `phyq:1_1_1:00001 PASSED 0 1 234 234 0123456789abcdef 1dbc5e8e,…`.

// Nothing the audit records may depend on float rounding (the actions it draws are the tasks
// crate's exact conversions; the Phy-Q shots are integer draws).
#![deny(clippy::float_arithmetic)]

use engine::chain_hash;
use engine::StepTrace;
use std::fmt;
use std::fmt::Write as _;
use taskref::Benchmark;
use tasks::{Status, Task, TaskSet};

pub mod phyq_audit;
pub use phyq_audit::{PhyqAuditError, PhyqRecord};

/// Seed of the audit's actions (documented: changing it changes every golden file).
pub const AUDIT_SEED: u64 = 0x0A0D_17ED;

/// Which runs an audit covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AuditPlan {
    /// Valid actions per task.
    pub actions_per_task: u32,
    /// Keep every `task_stride`-th task of each template (1 = all tasks).
    pub task_stride: u32,
    /// Checkpoint stride of the hash chain (steps), PHYRE and Phy-Q.
    pub checkpoint_stride: u32,
    /// Phy-Q: tasks 1, 1 + stride, 1 + 2·stride, … of each of the 75 templates (0 = none).
    pub phyq_task_stride: u32,
}

impl AuditPlan {
    /// The default audit: all 5,000 tasks, 2 actions each, and Phy-Q tasks 1, 11, …, 91 of
    /// every template (750); checkpoints every 50 steps.
    pub const FULL: AuditPlan = AuditPlan {
        actions_per_task: 2,
        task_stride: 1,
        checkpoint_stride: 50,
        phyq_task_stride: 10,
    };
    /// The CI subset: every 10th task (500 tasks), 1 action each, and Phy-Q task 1 of every
    /// template (75); checkpoints every 10 steps.
    pub const CI: AuditPlan = AuditPlan {
        actions_per_task: 1,
        task_stride: 10,
        checkpoint_stride: 10,
        phyq_task_stride: 100,
    };

    /// The golden committed for this plan on the built-in tasks (tests/golden/audit-full.txt,
    /// audit-ci.txt); `None` for a plan of other numbers.
    pub fn committed_golden(&self) -> Option<&'static str> {
        if *self == AuditPlan::FULL {
            Some(include_str!("../../tests/golden/audit-full.txt"))
        } else if *self == AuditPlan::CI {
            Some(include_str!("../../tests/golden/audit-ci.txt"))
        } else {
            None
        }
    }

    pub fn by_name(name: &str) -> Option<AuditPlan> {
        match name {
            "full" => Some(AuditPlan::FULL),
            "ci" => Some(AuditPlan::CI),
            _ => None,
        }
    }

    /// The tasks this plan covers, in task-set order.
    pub fn tasks<'a>(&self, set: &'a TaskSet) -> Vec<&'a Task> {
        set.tasks()
            .iter()
            .filter(|t| t.id().index() % self.task_stride.max(1) == 0)
            .collect()
    }
}

/// One audited run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunRecord {
    pub task_id: String,
    /// Index of the action in the task's random stream.
    pub action_index: u64,
    pub solved: bool,
    pub steps: u32,
    pub solved_step: Option<u32>,
    pub final_hash: u64,
    /// Low 32 bits of the hash chain after every `checkpoint_stride` steps.
    pub checkpoints: Vec<u32>,
}

/// Action `index` of `task`'s audit stream, in the task's own tier (valid or not): the one rule
/// behind every audited run and every `--trace`.
pub fn audit_action(task: &Task, index: u64) -> Vec<f64> {
    tasks::rng::uniform_vector(
        AUDIT_SEED,
        tasks::rng::stream_of(&task.id().to_string()),
        index,
        task.tier().action_len(),
    )
}

/// The first `n` valid actions of `task`'s audit stream (in its own tier), with their indices.
/// Gives up after 1000·n draws (tasks where nearly every action is invalid).
pub fn audit_actions(task: &Task, n: u32) -> Vec<(u64, tasks::ValidAction)> {
    let tier = task.tier();
    let mut out = Vec::new();
    let mut i = 0u64;
    while out.len() < n as usize && i < 1000 * n as u64 {
        if let Ok(v) = tasks::validate_action(task, tier, &audit_action(task, i)) {
            out.push((i, v));
        }
        i += 1;
    }
    out
}

/// Every run of `plan` on one task, in action order (the unit of work of a parallel audit).
pub fn audit_task(task: &Task, plan: AuditPlan) -> Vec<RunRecord> {
    audit_actions(task, plan.actions_per_task)
        .into_iter()
        .map(|(i, a)| audit_run(task, i, &a, plan.checkpoint_stride))
        .collect()
}

/// Simulate one audited action, recording the checkpoints of the hash chain.
pub fn audit_run(
    task: &Task,
    action_index: u64,
    action: &tasks::ValidAction,
    stride: u32,
) -> RunRecord {
    let mut setup = task
        .build_world(action.balls())
        .expect("PHYRE task worlds always build");
    let mut chain_h = 0u64;
    let mut checkpoints = Vec::new();
    let opts = engine::RunOptions {
        chain_hashes: false,
        ..tasks::PHYRE_RUN
    };
    let stride = stride.max(1);
    let r = engine::run(&mut setup.world, &setup.goal, opts, |step, w| {
        chain_h = chain_hash(chain_h, w.state_hash());
        if step % stride == 0 {
            checkpoints.push(chain_h as u32);
        }
    });
    RunRecord {
        task_id: task.id().to_string(),
        action_index,
        solved: r.solved,
        steps: r.steps,
        solved_step: r.solved_step,
        final_hash: r.final_hash,
        checkpoints,
    }
}

/// Every run of `plan`, sequentially, in task order: over `set`, then the Phy-Q levels.
pub fn audit_all(set: &TaskSet, plan: AuditPlan) -> Result<Golden, PhyqAuditError> {
    Ok(Golden {
        phyre: plan
            .tasks(set)
            .into_iter()
            .flat_map(|task| audit_task(task, plan))
            .collect(),
        phyq: phyq_audit::audit_phyq(plan)?,
    })
}

/// The records of an audit or of a golden file: PHYRE runs, then Phy-Q runs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Golden {
    pub phyre: Vec<RunRecord>,
    pub phyq: Vec<PhyqRecord>,
}

impl Golden {
    /// How many runs of each kind, for a person (`502 runs, 75 Phy-Q runs`).
    pub fn counts(&self) -> String {
        format!("{} runs, {} Phy-Q runs", self.phyre.len(), self.phyq.len())
    }

    /// The first difference between this golden and a fresh audit `got`: the PHYRE runs'
    /// first, then the Phy-Q runs'.
    pub fn first_mismatch(&self, got: &Golden, stride: u32) -> Option<String> {
        first_mismatch(&self.phyre, &got.phyre, stride)
            .or_else(|| phyq_audit::first_phyq_mismatch(&self.phyq, &got.phyq, stride))
    }
}

/// Why a golden file's line cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoldenError {
    /// Not 6 or 7 fields (7 or 8 for a Phy-Q line).
    Fields { count: usize, line: String },
    /// A field that does not parse (`what` names it).
    BadField { what: &'static str, line: String },
}

impl fmt::Display for GoldenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GoldenError::Fields { count, line } => {
                write!(f, "golden line has {count} fields: {line:?}")
            }
            GoldenError::BadField { what, line } => write!(f, "golden line: bad {what}: {line:?}"),
        }
    }
}

impl std::error::Error for GoldenError {}

impl RunRecord {
    /// The run's status (an audited action is valid: solved or not solved).
    pub fn status(&self) -> Status {
        Status::of_solved(self.solved)
    }

    pub fn to_line(&self) -> String {
        let mut s = format!(
            "{} {} {} {} {} {:016x} ",
            self.task_id,
            self.action_index,
            self.status().name(),
            self.steps,
            self.solved_step.map_or("-".to_string(), |s| s.to_string()),
            self.final_hash
        );
        for (k, c) in self.checkpoints.iter().enumerate() {
            if k > 0 {
                s.push(',');
            }
            let _ = write!(s, "{c:08x}");
        }
        s
    }

    pub fn parse_line(line: &str) -> Result<RunRecord, GoldenError> {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() != 7 && f.len() != 6 {
            return Err(GoldenError::Fields {
                count: f.len(),
                line: line.to_string(),
            });
        }
        let bad = |what: &'static str| GoldenError::BadField {
            what,
            line: line.to_string(),
        };
        Ok(RunRecord {
            task_id: f[0].to_string(),
            action_index: f[1].parse().map_err(|_| bad("action index"))?,
            solved: match f[2].parse::<Status>() {
                Ok(Status::Solved) => true,
                Ok(Status::NotSolved) => false,
                Ok(Status::Invalid) | Err(_) => return Err(bad("status")),
            },
            steps: f[3].parse().map_err(|_| bad("steps"))?,
            solved_step: if f[4] == "-" {
                None
            } else {
                Some(f[4].parse().map_err(|_| bad("solved step"))?)
            },
            final_hash: u64::from_str_radix(f[5], 16).map_err(|_| bad("final hash"))?,
            checkpoints: match f.get(6) {
                Some(c) => c
                    .split(',')
                    .map(|h| u32::from_str_radix(h, 16).map_err(|_| bad("checkpoint")))
                    .collect::<Result<_, _>>()?,
                None => Vec::new(),
            },
        })
    }
}

/// Render a golden file.
pub fn golden_text(plan: AuditPlan, records: &Golden) -> String {
    let mut s = format!(
        "# rephyre audit golden: {}; actions_per_task {} task_stride {} phyq_task_stride {} checkpoint_stride {} seed {:#x}\n",
        records.counts(),
        plan.actions_per_task,
        plan.task_stride,
        plan.phyq_task_stride,
        plan.checkpoint_stride,
        AUDIT_SEED
    );
    for r in &records.phyre {
        s.push_str(&r.to_line());
        s.push('\n');
    }
    for r in &records.phyq {
        s.push_str(&r.to_line());
        s.push('\n');
    }
    s
}

/// Parse a golden file (a line whose id is a Phy-Q level's is a Phy-Q run).
pub fn parse_golden(text: &str) -> Result<Golden, GoldenError> {
    let mut g = Golden::default();
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        if Benchmark::of_id(line.trim_start()) == Benchmark::Phyq {
            g.phyq.push(PhyqRecord::parse_line(line)?);
        } else {
            g.phyre.push(RunRecord::parse_line(line)?);
        }
    }
    Ok(g)
}

/// The first difference between a golden and a fresh audit, described for a person.
pub fn first_mismatch(golden: &[RunRecord], got: &[RunRecord], stride: u32) -> Option<String> {
    if golden.len() != got.len() {
        return Some(format!(
            "golden has {} runs, this audit {}",
            golden.len(),
            got.len()
        ));
    }
    for (g, o) in golden.iter().zip(got) {
        if g == o {
            continue;
        }
        if g.task_id != o.task_id || g.action_index != o.action_index {
            return Some(format!(
                "run list differs at task {} action {} (got task {} action {})",
                g.task_id, g.action_index, o.task_id, o.action_index
            ));
        }
        let k = g
            .checkpoints
            .iter()
            .zip(&o.checkpoints)
            .position(|(a, b)| a != b);
        let window = match k {
            Some(k) => format!(
                "steps {}..={}",
                k as u32 * stride + 1,
                (k as u32 + 1) * stride
            ),
            None => "after the last checkpoint (final state or status)".to_string(),
        };
        return Some(format!(
            "task {} action {}: first difference {window}; golden {} step {} vs {} step {}",
            g.task_id,
            g.action_index,
            g.status(),
            g.steps,
            o.status(),
            o.steps
        ));
    }
    None
}

/// Per-step, per-phase hashes of one run (for bisecting a divergence between two platforms:
/// diff the two traces).
pub fn trace(task: &Task, action: &tasks::ValidAction, max_steps: u32) -> Vec<(u32, StepTrace)> {
    let mut setup = task
        .build_world(action.balls())
        .expect("PHYRE task worlds always build");
    (1..=max_steps)
        .map(|s| (s, setup.world.step_traced()))
        .collect()
}

/// Format a trace as text lines.
pub fn trace_text(t: &[(u32, StepTrace)]) -> String {
    let mut s =
        String::from("step broad_phase narrow_phase solver integration sleep continuous state\n");
    for (step, p) in t {
        let _ = writeln!(
            s,
            "{step} {:016x} {:016x} {:016x} {:016x} {:016x} {:016x} {:016x}",
            p.broad_phase, p.narrow_phase, p.solver, p.integration, p.sleep, p.continuous, p.state
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(checkpoints: Vec<u32>, solved: bool) -> RunRecord {
        RunRecord {
            task_id: "00012:092".into(),
            action_index: 7,
            solved,
            steps: if solved { 640 } else { 1000 },
            solved_step: solved.then_some(640),
            final_hash: 0x0123_4567_89ab_cdef,
            checkpoints,
        }
    }

    #[test]
    fn golden_lines_round_trip_and_reject_garbage() {
        for r in [record(vec![1, 0xdead_beef, 3], true), record(vec![], false)] {
            assert_eq!(RunRecord::parse_line(&r.to_line()).unwrap(), r);
        }
        let phyq = PhyqRecord::parse_line(
            "phyq:1_1_1:00001 PASSED 0 1 150 150 0123456789abcdef 1,2,3,4,5,6,7,8,9,a,b,c,d,e,f",
        )
        .unwrap();
        let both = Golden {
            phyre: vec![record(vec![5], false)],
            phyq: vec![phyq],
        };
        let text = golden_text(AuditPlan::CI, &both);
        assert_eq!(parse_golden(&text).unwrap(), both);
        // A tampered Phy-Q line is a mismatch of the whole golden, named by its task.
        let mut other = both.clone();
        other.phyq[0].pigs_left = 1;
        let m = both.first_mismatch(&other, 10).unwrap();
        assert!(m.contains("phyq:1_1_1:00001"), "{m}");
        assert!(both.first_mismatch(&both, 10).is_none());
        assert!(RunRecord::parse_line("00000:000 x NOT_SOLVED 1000 - 00 0").is_err());
        assert!(RunRecord::parse_line("00000:000 1 MAYBE 1000 - 00 0").is_err());
        assert!(RunRecord::parse_line("too few").is_err());
    }

    #[test]
    fn first_mismatch_names_the_run_and_step_window() {
        let a = record(vec![1, 2, 3], false);
        let b = record(vec![1, 2, 4], false);
        let golden = std::slice::from_ref(&a);
        let m = first_mismatch(golden, &[b], 10).unwrap();
        assert!(
            m.contains("00012:092 action 7") && m.contains("steps 21..=30"),
            "{m}"
        );
        assert!(first_mismatch(golden, golden, 10).is_none());
        assert!(first_mismatch(golden, &[], 10).unwrap().contains("1 runs"));
    }
}
