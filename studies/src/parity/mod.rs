//! Parity with the original PHYRE: run the original's fixed actions (outcomes-A.csv) through
//! rephyre and compare validity and solved/not-solved, overall and per template, plus the
//! per-template random-action solve and invalid rates beside the original's counts.

//!
//! [`reference`] reads the original's data, [`report`] folds per-row results into the report and
//! renders it, and [`run`] computes rephyre's side on the runner.

mod reference;
mod report;

pub use reference::{
    builtin_reference, parse_counts, parse_reference, OriginalCounts, ReferenceRow, RowKind,
    BUILTIN_COUNTS_CSV, BUILTIN_OUTCOMES_XZ, ORIGINAL_BATCH,
};
pub use report::{
    summarize, task_outliers, Confusion, OwnRates, ParityReport, ParitySummary, RateVerdict,
    TaskOutlier, TemplateParity, OUTLIER_P,
};

use crate::runner::{self, RunConfig, TaskJob};
use crate::selection::tasks_fingerprint;
use crate::shard::{self, arg, Merged, Part, Shard};
use anyhow::{Context, Result};
use serde::Serialize;
use std::collections::BTreeMap;
use tasks::Status;

/// Seed of the random actions behind rephyre's per-template rates (a documented constant so
/// the report is reproducible).
pub const RATE_SEED: u64 = 0x5048_5952_4501;

/// What a parity run covers besides the reference rows.
#[derive(Clone, Copy, Debug)]
pub struct Params {
    /// Random actions per ball-tier task for rephyre's own per-template rates.
    pub random_per_task: u32,
    /// The same for two-ball-tier tasks.
    pub random_per_task_2b: u32,
}

/// Random actions drawn per runner batch (a checkpoint never loses more than one batch a task).
const DRAWS_PER_BATCH: u32 = 25;

/// One task's share of the parity run (the runner's per-task state).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct TaskParityState {
    /// The first batch (reference rows and the scene) has run.
    pub started: bool,
    /// rephyre's status of each reference row of the task, in row order (PHYRE's codes,
    /// [`Status::phyre_code`]).
    pub reference: Vec<i8>,
    /// The scene, run with no action, solves itself (referenced tasks only).
    pub scene_solved: bool,
    /// Own random actions: drawn so far, next index of the task's stream, and their outcomes.
    pub draws: u32,
    pub next_index: u64,
    pub valid: u64,
    pub solved: u64,
    pub invalid: u64,
}

/// The next random action of a task's stream for rephyre's rates, from `*index` on (advanced
/// past every draw used), with its validation.
///
/// Like the original's random actions ([`tasks::sample_action`]): drawn uniformly, redrawing any
/// ball outside the scene and (two balls) any pair closer than the validity gap. None of
/// outcomes-A's 60,000 two-ball random rows has such a pair, where uniform in-scene draws give
/// 7 %. Actions that overlap a scene body are kept (and count as invalid, as in the original's
/// counts).
pub fn random_action(
    task: &tasks::Task,
    tier: tasks::Tier,
    stream: u64,
    index: &mut u64,
) -> (Vec<f64>, Result<tasks::ValidAction, tasks::InvalidAction>) {
    let a = tasks::sample_action(tier, RATE_SEED, stream, index);
    let validated = tasks::validate_action(task, tier, &a);
    (a, validated)
}

/// The parity run as a runner job: one runner task per task of the set.
struct ParityJob<'a> {
    tasks: &'a [tasks::Task],
    rows: &'a [ReferenceRow],
    /// Per task: its reference rows (indices into `rows`, in order).
    rows_of: Vec<Vec<u32>>,
    random_per_task: u32,
    random_per_task_2b: u32,
    fingerprint: String,
}

impl ParityJob<'_> {
    fn draws(&self, tier: tasks::Tier) -> u32 {
        match tier {
            tasks::Tier::Ball => self.random_per_task,
            tasks::Tier::TwoBalls => self.random_per_task_2b,
        }
    }
}

impl TaskJob for ParityJob<'_> {
    type State = TaskParityState;

    fn len(&self) -> usize {
        self.tasks.len()
    }

    fn fingerprint(&self) -> String {
        self.fingerprint.clone()
    }

    fn advance(&self, t: usize, s: &mut TaskParityState) -> bool {
        let task = &self.tasks[t];
        let tier = task.tier();
        let target = self.draws(tier);
        if !s.started {
            s.reference = self.rows_of[t]
                .iter()
                .map(|&i| {
                    let r = &self.rows[i as usize];
                    // Tiers were checked when the job was made.
                    let row_tier = tasks::Tier::parse(&r.tier).unwrap_or(tier);
                    tasks::status(task, row_tier, &r.action).phyre_code()
                })
                .collect();
            if !self.rows_of[t].is_empty() {
                s.scene_solved = tasks::simulate_scene(task, tasks::SimOptions::STATUS_ONLY)
                    .is_ok_and(|o| o.solved);
            }
            s.started = true;
            return s.draws >= target;
        }
        let stream = tasks::rng::stream_of(&task.id().to_string());
        let end = target.min(s.draws.saturating_add(DRAWS_PER_BATCH));
        let scene = tasks::TaskScene::new(task);
        while s.draws < end {
            let (_, validated) = random_action(task, tier, stream, &mut s.next_index);
            match scene.status_of_validated(&validated) {
                Status::Invalid => s.invalid += 1,
                Status::Solved => {
                    s.valid += 1;
                    s.solved += 1
                }
                Status::NotSolved => s.valid += 1,
            }
            s.draws += 1;
        }
        s.draws >= target
    }

    fn simulations(&self, s: &TaskParityState) -> u64 {
        s.reference
            .iter()
            .filter(|&&o| o != Status::Invalid.phyre_code())
            .count() as u64
            + s.valid
    }
}

/// The reference rows resolved against the task set: what a parity job is made of besides the
/// tasks.
struct Plan {
    rows: Vec<ReferenceRow>,
    counts: BTreeMap<(String, String), OriginalCounts>,
    /// Per task of the set: its reference rows (indices into `rows`, in order).
    rows_of: Vec<Vec<u32>>,
    fingerprint: String,
}

fn plan(task_set: &tasks::TaskSet, reference: &str, params: Params) -> Result<Plan> {
    let rows = parse_reference(reference)?;
    let counts = parse_counts(BUILTIN_COUNTS_CSV)?;
    let all = task_set.tasks();
    let position: BTreeMap<String, usize> = all
        .iter()
        .enumerate()
        .map(|(i, t)| (t.id().to_string(), i))
        .collect();
    let mut rows_of: Vec<Vec<u32>> = vec![Vec::new(); all.len()];
    for (i, r) in rows.iter().enumerate() {
        // Resolve every row first: a bad row is an error before any simulation.
        task_set
            .lookup(&r.task_id)
            .with_context(|| format!("reference row for {}", r.task_id))?;
        tasks::Tier::parse(&r.tier).with_context(|| {
            format!("reference row for {}: unknown tier {:?}", r.task_id, r.tier)
        })?;
        let t = *position
            .get(&r.task_id)
            .with_context(|| format!("reference row for {}: task not in the set", r.task_id))?;
        rows_of[t].push(u32::try_from(i).context("too many reference rows")?);
    }
    let refs: Vec<&tasks::Task> = all.iter().collect();
    let fingerprint = format!(
        "parity-2 rephyre-{} reference={:016x} random={}/{} seed={RATE_SEED:x} {}",
        env!("CARGO_PKG_VERSION"),
        tasks::rng::fnv64(reference.as_bytes()),
        params.random_per_task,
        params.random_per_task_2b,
        tasks_fingerprint(&refs)?
    );
    Ok(Plan {
        rows,
        counts,
        rows_of,
        fingerprint,
    })
}

fn job<'a>(all: &'a [tasks::Task], plan: &'a Plan, params: Params) -> ParityJob<'a> {
    ParityJob {
        tasks: all,
        rows: &plan.rows,
        rows_of: plan.rows_of.clone(),
        random_per_task: params.random_per_task,
        random_per_task_2b: params.random_per_task_2b,
        fingerprint: plan.fingerprint.clone(),
    }
}

/// Run every reference row (the text of an outcomes-A-format table), sample random actions per
/// task for the per-template rates, and run every referenced task's scene without an action, all
/// on the checkpointed runner; fold it all with the original's counts into the report.
pub fn run(
    task_set: &tasks::TaskSet,
    reference: &str,
    params: Params,
    cfg: &RunConfig,
) -> Result<ParityReport> {
    let plan = plan(task_set, reference, params)?;
    let states = runner::run(&job(task_set.tasks(), &plan, params), cfg)?;
    report(task_set.tasks(), &plan, &states)
}

/// The report of every task's final state (a whole run's or merged shards').
fn report(all: &[tasks::Task], plan: &Plan, states: &[TaskParityState]) -> Result<ParityReport> {
    let (rows, counts) = (&plan.rows, &plan.counts);
    // Scatter the per-task results back into row order and per-template sums.
    let mut ours = vec![Status::Invalid; rows.len()];
    let mut own: OwnRates = BTreeMap::new();
    let mut per_task_own: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    let mut self_solving = Vec::new();
    let mut scenes_run = 0u64;
    for ((task, s), rows_here) in all.iter().zip(states).zip(&plan.rows_of) {
        for (&i, &o) in rows_here.iter().zip(&s.reference) {
            ours[i as usize] =
                Status::from_phyre_code(o).context("corrupt checkpoint: a status")?;
        }
        let id = task.id().to_string();
        if !rows_here.is_empty() {
            scenes_run += 1;
            if s.scene_solved {
                self_solving.push(id.clone());
            }
        }
        let e = own
            .entry((task.tier().to_string(), id[..5].to_string()))
            .or_default();
        e.0 += s.valid;
        e.1 += s.solved;
        e.2 += s.invalid;
        per_task_own.insert(id, (s.valid, s.solved));
    }
    self_solving.sort();
    let mut report = summarize(rows, &ours, counts, &own);
    report.self_solving = self_solving;
    report.scenes_run = scenes_run;
    report.task_outliers = task_outliers(&per_task_own, counts);
    Ok(report)
}

/// The name of the study in part files.
pub const COMMAND: &str = "parity";

/// The study to `rephyre merge` (the Markdown report, and the JSON summary with `--json`) and
/// `rephyre slurm`.
pub const SLURM: crate::slurm::Study = crate::slurm::Study {
    report: "parity.md",
    json: true,
    ..crate::slurm::Study::checkpointed(COMMAND, "", &[])
};

/// Where the reference rows come from: the built-in copy, or a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReferenceSource {
    Builtin,
    File(std::path::PathBuf),
}

impl ReferenceSource {
    /// The reference text.
    pub fn read(&self) -> Result<String> {
        match self {
            ReferenceSource::Builtin => builtin_reference(),
            ReferenceSource::File(p) => std::fs::read_to_string(p)
                .with_context(|| format!("cannot read reference file {}", p.display())),
        }
    }

    fn arg(&self) -> Result<String> {
        match self {
            ReferenceSource::Builtin => Ok("builtin".into()),
            ReferenceSource::File(p) => {
                let abs = std::fs::canonicalize(p)
                    .with_context(|| format!("cannot read reference file {}", p.display()))?;
                Ok(format!("file:{}", abs.display()))
            }
        }
    }
}

/// Run shard `shard` of the parity study (one work unit per task of the set).
pub fn run_shard(
    task_set: &tasks::TaskSet,
    source: &ReferenceSource,
    params: Params,
    shard: Shard,
    cfg: &RunConfig,
) -> Result<Part<TaskParityState>> {
    let reference = source.read()?;
    let plan = plan(task_set, &reference, params)?;
    let all: Vec<&tasks::Task> = task_set.tasks().iter().collect();
    let args = shard::args([
        ("reference", source.arg()?),
        ("random_per_task", params.random_per_task.to_string()),
        ("random_per_task_2b", params.random_per_task_2b.to_string()),
    ]);
    shard::run_shard(
        &job(task_set.tasks(), &plan, params),
        COMMAND,
        args,
        &all,
        shard,
        cfg,
    )
}

/// Merge the parts of a sharded run (checked by [`shard::read_parts`]) into the single run's
/// report. The tasks must be the set's (`task_set`), and the reference file, if the shards had
/// one, must still be where they read it, unchanged (the fingerprint holds its hash).
pub fn merge(
    task_set: &tasks::TaskSet,
    parts: Vec<(std::path::PathBuf, Part<TaskParityState>)>,
) -> Result<ParityReport> {
    let merged = Merged::new(parts);
    let run = &merged.run;
    let source: String = arg(&run.args, "reference")?;
    let source = match source.strip_prefix("file:") {
        Some(p) => ReferenceSource::File(p.into()),
        None => ReferenceSource::Builtin,
    };
    let params = Params {
        random_per_task: arg(&run.args, "random_per_task")?,
        random_per_task_2b: arg(&run.args, "random_per_task_2b")?,
    };
    let all: Vec<String> = task_set
        .tasks()
        .iter()
        .map(|t| t.id().to_string())
        .collect();
    if all != run.task_ids {
        anyhow::bail!(
            "the parts (e.g. {}) ran on another task set (merge with the shards' --tasks FILE)",
            merged.first().display()
        );
    }
    let plan = plan(task_set, &source.read()?, params)?;
    merged.check_rebuilt(&job(task_set.tasks(), &plan, params))?;
    report(task_set.tasks(), &plan, &merged.states)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::wilson_95;

    fn st(code: i8) -> Status {
        Status::from_phyre_code(code).unwrap()
    }

    #[test]
    fn builtin_reference_parses() {
        let rows = parse_reference(&builtin_reference().unwrap()).unwrap();
        assert_eq!(rows.len(), 141_680);
        assert_eq!(
            rows.iter().filter(|r| r.kind == RowKind::Random).count(),
            120_000
        );
        assert!(rows
            .iter()
            .all(|r| r.action.len() == if r.tier == "ball" { 3 } else { 6 }));
        let counts = parse_counts(BUILTIN_COUNTS_CSV).unwrap();
        assert_eq!(counts.len(), 10_000);
    }

    #[test]
    fn summary_counts_agreement() {
        let row = |kind, status| ReferenceRow {
            task_id: "00000:001".into(),
            tier: "ball".into(),
            kind,
            index: 0,
            action: vec![0.5; 3],
            status: st(status),
        };
        let rows = vec![
            row(RowKind::Random, -1),
            row(RowKind::Random, 1),
            row(RowKind::Random, 0),
            row(RowKind::StableSolution, 1),
            row(RowKind::StableSolution, 1),
        ];
        let ours: Vec<Status> = [-1, -1, 0, 1, -1].map(st).to_vec();
        let rep = summarize(&rows, &ours, &BTreeMap::new(), &BTreeMap::new());
        let s = rep.summary();
        assert_eq!(s.rows, 5);
        assert_eq!(s.validity_agreement, 1.0);
        assert_eq!(s.status_agreement_random, 0.5);
        assert_eq!(s.stable_solution_recall, 0.5);
        assert!(parse_reference("a,b\n1,2\n").is_err());
        assert!(parse_reference(
            "task_id,tier,kind,index,action,status\n00000:000,ball,random,0,0.1 x,1\n"
        )
        .is_err());
    }

    #[test]
    fn wilson_interval_and_rate_verdicts() {
        // Hand-computed Wilson 95 % intervals.
        let (lo, hi) = wilson_95(10, 100);
        assert!(
            (lo - 0.05523).abs() < 1e-5 && (hi - 0.17437).abs() < 1e-5,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson_95(0, 1000);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.0038268).abs() < 1e-6, "{hi}");
        assert_eq!(wilson_95(0, 0), (0.0, 1.0));
        let t = |k, n| TemplateParity {
            original_solve_rate: 0.01,
            rephyre_valid_samples: n,
            rephyre_solved_samples: k,
            ..Default::default()
        };
        assert_eq!(t(1000, 100_000).verdict(1.5), RateVerdict::Within);
        assert_eq!(t(3000, 100_000).verdict(1.5), RateVerdict::Outside);
        assert_eq!(t(300, 100_000).verdict(1.5), RateVerdict::Outside);
        assert_eq!(t(3, 300).verdict(1.5), RateVerdict::Undetermined);
        assert_eq!(t(0, 0).verdict(1.5), RateVerdict::Undetermined);
    }

    #[test]
    fn random_actions_are_in_scene_and_apart_like_the_originals() {
        let set = tasks::TaskSet::builtin();
        let task = set.lookup("00100:000").unwrap();
        let (mut index, mut occluded) = (0u64, 0);
        for _ in 0..2_000 {
            let before = index;
            let (a, validated) = random_action(task, tasks::Tier::TwoBalls, 9, &mut index);
            assert!(index > before);
            let checked = tasks::validate_action(task, tasks::Tier::TwoBalls, &a);
            assert_eq!(checked.is_ok(), validated.is_ok(), "{a:?}");
            match checked {
                Ok(_) => {}
                Err(tasks::InvalidAction::Occluded { .. }) => occluded += 1,
                Err(e) => panic!("{a:?} drawn though {e:?}"),
            }
        }
        // About half of the in-scene, apart pairs overlap a body of this task.
        assert!((200..1_800).contains(&occluded), "{occluded}");
        // Redraws happened: more stream indices used than actions returned.
        assert!(index > 2_000 * 3 / 2, "{index}");
    }

    #[test]
    fn original_rates_undo_the_stopping_rule() {
        let c = |attempts: u64, valid: u64, unstable: u64, stable: u64| OriginalCounts {
            not_solved: valid - unstable - stable,
            invalid: attempts - valid,
            unstably_solved: unstable,
            stably_solved: stable,
        };
        // 00000:035 in the file: 6 batches where 2 give 10,000 valid, 3 stable: the run
        // ended on a stable solution, which does not count.
        let late = c(60_000, 54_652, 93, 3);
        assert!(late.stopped_by_solutions());
        assert!((late.solve_rate() - 95.0 / 54_652.0).abs() < 1e-15);
        // 00000:000: 2 batches, the 10,000-valid floor ended it: plain ratio.
        let floor = c(20_000, 17_824, 164, 3);
        assert!(!floor.stopped_by_solutions());
        assert!((floor.solve_rate() - 167.0 / 17_824.0).abs() < 1e-15);
        // A 30 % valid share needs 4 batches for the floor.
        assert!(!c(40_000, 12_000, 10, 3).stopped_by_solutions());
        assert!(c(50_000, 15_000, 10, 3).stopped_by_solutions());
    }

    /// The correction, checked by simulating the original's rule: batches of 10,000
    /// attempts (80 % valid) until ≥ 10,000 valid and ≥ 3 stable solutions.
    #[test]
    fn corrected_rate_is_unbiased_under_the_original_rule() {
        let p: f64 = 5e-5;
        let valid_per_batch = 8_000u64;
        let (mut plain, mut corrected) = (0.0, 0.0);
        let tasks = 4_000u64;
        for t in 0..tasks {
            // Positions of stable solutions among valid attempts: geometric gaps.
            let (mut pos, mut k, mut third) = (0u64, 0u64, 0u64);
            while k < 3 {
                let u = 1.0 - tasks::rng::unit_f64(tasks::rng::word(7, t, k, 0));
                pos += 1 + (u.ln() / (1.0 - p).ln()).floor() as u64;
                k += 1;
                third = pos;
            }
            let batches = third.div_ceil(valid_per_batch).max(2);
            let valid = batches * valid_per_batch;
            // Solutions after the third within its batch: continue the same stream.
            let mut stable = 3;
            loop {
                let u = 1.0 - tasks::rng::unit_f64(tasks::rng::word(7, t, k, 0));
                pos += 1 + (u.ln() / (1.0 - p).ln()).floor() as u64;
                k += 1;
                if pos > valid {
                    break;
                }
                stable += 1;
            }
            let counts = OriginalCounts {
                not_solved: valid - stable,
                invalid: batches * 10_000 - valid,
                unstably_solved: 0,
                stably_solved: stable,
            };
            plain += stable as f64 / valid as f64;
            corrected += counts.solve_rate();
        }
        let (plain, corrected) = (plain / tasks as f64 / p, corrected / tasks as f64 / p);
        assert!(plain > 1.25, "plain ratio bias {plain}");
        assert!((corrected - 1.0).abs() < 0.06, "corrected {corrected}");
    }

    #[test]
    fn template_rate_is_the_mean_of_task_rates_not_pooled_counts() {
        let row = |task: &str| ReferenceRow {
            task_id: task.into(),
            tier: "ball".into(),
            kind: RowKind::Random,
            index: 0,
            action: vec![0.5; 3],
            status: Status::NotSolved,
        };
        let rows = vec![row("00003:000"), row("00003:001")];
        let mut counts = BTreeMap::new();
        // A common-solution task (rate 0.1, 2 batches) and a rare one (3 stable solutions
        // in 1,000,000 valid attempts, the third ending the run): pooled, the rare task's
        // attempts would pull the template rate down to ≈ 0.0018.
        let easy = OriginalCounts {
            not_solved: 18_000,
            invalid: 0,
            unstably_solved: 1_000,
            stably_solved: 1_000,
        };
        let rare = OriginalCounts {
            not_solved: 999_997,
            invalid: 0,
            unstably_solved: 0,
            stably_solved: 3,
        };
        counts.insert(("00003:000".to_string(), "ball".to_string()), easy);
        counts.insert(("00003:001".to_string(), "ball".to_string()), rare);
        let rep = summarize(&rows, &[Status::NotSolved; 2], &counts, &BTreeMap::new());
        let t = &rep.templates[0];
        let want = (0.1 + 2.0 / 1_000_000.0) / 2.0;
        assert!(
            (t.original_solve_rate - want).abs() < 1e-12,
            "{}",
            t.original_solve_rate
        );
        assert!(t.original_solve_rate_se > 0.0 && t.original_solve_rate_se < 0.002);
    }

    #[test]
    fn task_outliers_flag_only_incompatible_rates() {
        let mut counts = BTreeMap::new();
        let c = OriginalCounts {
            not_solved: 9_200,
            invalid: 1_000,
            unstably_solved: 700,
            stably_solved: 100,
        }; // rate 0.08
        for t in ["00005:059", "00005:060", "00005:061"] {
            counts.insert((t.to_string(), "ball".to_string()), c);
        }
        let own: BTreeMap<String, (u64, u64)> = [
            ("00005:059".to_string(), (130, 0)), // P(0 | 130, 0.08) = 2e-5: not enough alone
            ("00005:060".to_string(), (400, 0)), // 3e-15: flagged
            ("00005:061".to_string(), (400, 33)), // expected 32: fine
            ("00006:000".to_string(), (400, 400)), // no original counts: skipped
        ]
        .into_iter()
        .collect();
        let out = task_outliers(&own, &counts);
        assert_eq!(out.len(), 1, "{out:?}");
        assert_eq!(out[0].task_id, "00005:060");
        assert!((out[0].original_solve_rate - 0.08).abs() < 1e-12);
        assert!(out[0].p_value < 1e-13);
    }
}
