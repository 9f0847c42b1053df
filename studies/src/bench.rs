//! Speed benchmarks of whole calls (validation and simulation), as CPU time per call on each
//! worker's thread CPU clock: the random-action workload ([`random_workload`], beside the
//! original's figures of SPEC §9, [`original_figures`]) and the rows of a reference table
//! ([`reference_rows`], the side-by-side measure against the original's timings). The actions are sampled like the original's discrete action set
//! ([`tasks::sample_action`]), so calls and the invalid share compare with its figures.

use anyhow::{Context, Result};
use rayon::prelude::*;
use serde::Serialize;
use std::time::Instant;
use tasks::rng::stream_of;
use tasks::{sample_action, validate_action, SimOptions, Status, Task, TaskScene, TaskSet, Tier};

/// Seed of the benchmark's actions (fixed, so every run does the same work).
const BENCH_SEED: u64 = 0xbe9c;

/// CPU time of the calling thread, nanoseconds.
fn thread_cpu_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; CLOCK_THREAD_CPUTIME_ID is supported on
    // every Linux and macOS the project builds on.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return 0;
    }
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// User + system CPU time of the whole process, nanoseconds.
fn process_cpu_ns() -> u64 {
    // SAFETY: an all-zero rusage is a valid value to be overwritten.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `ru` is a valid, writable rusage.
    let rc = unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) };
    if rc != 0 {
        return 0;
    }
    let tv = |t: libc::timeval| t.tv_sec as u64 * 1_000_000_000 + t.tv_usec as u64 * 1000;
    tv(ru.ru_utime) + tv(ru.ru_stime)
}

/// Counts and CPU nanoseconds of a workload.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Totals {
    pub calls: u64,
    pub valid: u64,
    pub invalid: u64,
    pub solved: u64,
    pub steps_stepped: u64,
    pub steps_covered: u64,
    pub solved_steps: u64,
    pub cpu_valid_ns: u64,
    pub cpu_invalid_ns: u64,
    /// XOR of the final hashes: the same work gives the same value on any thread count.
    pub hash_xor: u64,
}

impl Totals {
    fn add(mut self, o: Totals) -> Totals {
        self.calls += o.calls;
        self.valid += o.valid;
        self.invalid += o.invalid;
        self.solved += o.solved;
        self.steps_stepped += o.steps_stepped;
        self.steps_covered += o.steps_covered;
        self.solved_steps += o.solved_steps;
        self.cpu_valid_ns += o.cpu_valid_ns;
        self.cpu_invalid_ns += o.cpu_invalid_ns;
        self.hash_xor ^= o.hash_xor;
        self
    }
}

/// The figures `bench` prints (and its `--json` form).
#[derive(Debug, Serialize)]
pub struct WorkloadReport {
    pub tier: String,
    pub tasks: usize,
    pub threads: usize,
    pub totals: Totals,
    pub calls_per_cpu_s: f64,
    pub valid_sims_per_cpu_s: f64,
    pub ms_per_valid_sim: f64,
    pub ms_per_invalid_call: f64,
    pub invalid_share: f64,
    pub steps_stepped_per_valid: f64,
    pub steps_covered_per_valid: f64,
    pub solved_run_steps: f64,
    pub wall_s: f64,
    pub process_cpu_s: f64,
    pub calls_per_wall_s: f64,
    pub valid_sims_per_wall_s: f64,
}

/// The original's figures (SPEC §9): calls/s, valid sims/s, ms per valid run, ms per invalid
/// call, invalid share of its discrete action space, steps covered per valid run.
pub fn original_figures(
    tier: Tier,
) -> (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
) {
    match tier {
        Tier::Ball => ("≈ 620", "≈ 460", "≈ 2.2", "≈ 0.13", "27 %"),
        Tier::TwoBalls => ("≈ 590", "≈ 300", "≈ 3.1–3.4", "≈ 0.13", "50 %"),
    }
}

/// The random-action workload: `actions` actions per task of `tasks` (drawn like the
/// original's discrete action set), each call timed; on `threads` workers. Status-only, each
/// task's actions share its recorded scene as the jobs do (the recording's CPU time counts as
/// valid simulations' time).
pub fn random_workload(
    tasks: &[&Task],
    tier: Tier,
    actions: u32,
    status_only: bool,
    threads: Option<usize>,
) -> Result<WorkloadReport> {
    let pool = crate::runner::pool(threads)?;
    let threads = pool.current_num_threads();
    let actions = u64::from(actions);
    let opts = SimOptions {
        status_only,
        ..SimOptions::default()
    };
    let cpu0 = process_cpu_ns();
    let start = Instant::now();
    let totals = pool.install(|| {
        tasks
            .par_iter()
            .map(|task| {
                let stream = stream_of(&task.id().to_string());
                let mut t = Totals::default();
                let mut index = 0;
                let scene = if status_only {
                    let c0 = thread_cpu_ns();
                    let scene = TaskScene::new(task);
                    t.cpu_valid_ns += thread_cpu_ns().saturating_sub(c0);
                    scene
                } else {
                    TaskScene::plain(task)
                };
                for _ in 0..actions {
                    let action = sample_action(tier, BENCH_SEED, stream, &mut index);
                    let c0 = thread_cpu_ns();
                    let outcome = validate_action(task, tier, &action)
                        .ok()
                        .and_then(|v| scene.simulate(&v, opts).ok());
                    let dt = thread_cpu_ns().saturating_sub(c0);
                    t.calls += 1;
                    match outcome {
                        None => {
                            t.invalid += 1;
                            t.cpu_invalid_ns += dt;
                        }
                        Some(o) => {
                            t.valid += 1;
                            t.cpu_valid_ns += dt;
                            t.steps_stepped += o.stepped as u64;
                            t.steps_covered += o.steps as u64;
                            if o.solved {
                                t.solved += 1;
                                t.solved_steps += o.steps as u64;
                            }
                            t.hash_xor ^= o.final_hash;
                        }
                    }
                }
                t
            })
            .reduce(Totals::default, Totals::add)
    });
    let wall = start.elapsed().as_secs_f64();
    let process_cpu = process_cpu_ns().saturating_sub(cpu0) as f64 * 1e-9;
    let t = totals;
    let div = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };
    let cpu_all = (t.cpu_valid_ns + t.cpu_invalid_ns) as f64 * 1e-9;
    let cpu_valid = t.cpu_valid_ns as f64 * 1e-9;
    Ok(WorkloadReport {
        tier: tier.to_string(),
        tasks: tasks.len(),
        threads,
        totals: t,
        calls_per_cpu_s: div(t.calls as f64, cpu_all),
        valid_sims_per_cpu_s: div(t.valid as f64, cpu_valid),
        ms_per_valid_sim: div(t.cpu_valid_ns as f64 * 1e-6, t.valid as f64),
        ms_per_invalid_call: div(t.cpu_invalid_ns as f64 * 1e-6, t.invalid as f64),
        invalid_share: div(t.invalid as f64, t.calls as f64),
        steps_stepped_per_valid: div(t.steps_stepped as f64, t.valid as f64),
        steps_covered_per_valid: div(t.steps_covered as f64, t.valid as f64),
        solved_run_steps: div(t.solved_steps as f64, t.solved as f64),
        wall_s: wall,
        process_cpu_s: process_cpu,
        calls_per_wall_s: div(t.calls as f64, wall),
        valid_sims_per_wall_s: div(t.valid as f64, wall),
    })
}

/// One timed row of `bench --reference`.
#[derive(Clone, Copy, Debug)]
struct RowTiming {
    status: Status,
    cpu_ns: u64,
    stepped: u32,
    steps: u32,
    final_hash: u64,
}

/// The figures of `bench --reference` (and its `--json` form).
#[derive(Debug, Serialize)]
pub struct ReferenceReport {
    pub file: String,
    pub mode: &'static str,
    pub threads: usize,
    pub calls: u64,
    pub valid: u64,
    pub solved: u64,
    /// Sum of the calls' thread CPU seconds (validation included).
    pub cpu_s: f64,
    pub cpu_valid_s: f64,
    pub ms_per_call: f64,
    pub ms_per_valid_sim: f64,
    /// Share of rows whose status equals the file's `status` column.
    pub status_agreement: f64,
    pub steps_computed_per_valid: f64,
    pub steps_covered_per_valid: f64,
    /// Microseconds of CPU per computed step (valid calls only).
    pub us_per_computed_step: f64,
    pub wall_s: f64,
    /// XOR of the valid calls' final hashes (full runs; the same for any thread count).
    pub hash_xor: u64,
    /// Scenes recorded for runs of consecutive rows of one task (status-only).
    pub shared_scenes: u64,
}

/// Every row of an outcomes-A-format table (`text`, named `file` in the report), in order, each
/// call's validation and simulation timed on the worker's thread CPU clock; on `threads` workers.
/// Status-only, consecutive rows of one task share its recorded scene (see below).
pub fn reference_rows(
    set: &TaskSet,
    text: &str,
    file: &str,
    status_only: bool,
    threads: Option<usize>,
) -> Result<ReferenceReport> {
    let rows = crate::parity::parse_reference(text)?;
    // Resolve every row before timing anything: a bad row is an error, not a skipped call.
    let jobs = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let task = set
                .lookup(&r.task_id)
                .with_context(|| format!("reference line {}", i + 2))?;
            let tier = Tier::parse(&r.tier)
                .with_context(|| format!("reference line {}: unknown tier {:?}", i + 2, r.tier))?;
            Ok((task, tier, r.action.as_slice()))
        })
        .collect::<Result<Vec<_>>>()?;
    let pool = crate::runner::pool(threads)?;
    let threads = pool.current_num_threads();
    let opts = SimOptions {
        status_only,
        ..SimOptions::default()
    };
    // Status-only, consecutive rows of one task share its recorded scene (`tasks::TaskScene`,
    // the jobs' way of simulating many actions of a task), recorded inside the first call's
    // timing; a task's lone row is simulated on its own.
    let groups: Vec<&[(&Task, Tier, &[f64])]> =
        jobs.chunk_by(|a, b| std::ptr::eq(a.0, b.0)).collect();
    let shared_scenes = if status_only {
        groups.iter().filter(|g| g.len() > 1).count() as u64
    } else {
        0
    };
    let start = Instant::now();
    let timings: Vec<RowTiming> = pool.install(|| {
        groups
            .par_iter()
            .flat_map_iter(|group| {
                let mut scene: Option<TaskScene> = None;
                let share = status_only && group.len() > 1;
                group.iter().map(move |&(task, tier, action)| {
                    let c0 = thread_cpu_ns();
                    let scene = scene.get_or_insert_with(|| {
                        if share {
                            TaskScene::new(task)
                        } else {
                            TaskScene::plain(task)
                        }
                    });
                    let run = validate_action(task, tier, action)
                        .ok()
                        .map(|v| scene.simulate(&v, opts));
                    let cpu_ns = thread_cpu_ns().saturating_sub(c0);
                    let status = run.as_ref().map_or(Status::Invalid, Status::of_run);
                    let outcome = run.and_then(Result::ok);
                    RowTiming {
                        status,
                        cpu_ns,
                        stepped: outcome.as_ref().map_or(0, |o| o.stepped),
                        steps: outcome.as_ref().map_or(0, |o| o.steps),
                        final_hash: outcome.as_ref().map_or(0, |o| o.final_hash),
                    }
                })
            })
            .collect()
    });
    let wall_s = start.elapsed().as_secs_f64();
    let div = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };
    let valid: Vec<&RowTiming> = timings.iter().filter(|t| t.status.is_valid()).collect();
    let cpu_ns: u64 = timings.iter().map(|t| t.cpu_ns).sum();
    let cpu_valid_ns: u64 = valid.iter().map(|t| t.cpu_ns).sum();
    let stepped: u64 = valid.iter().map(|t| u64::from(t.stepped)).sum();
    let covered: u64 = valid.iter().map(|t| u64::from(t.steps)).sum();
    let agree = timings
        .iter()
        .zip(&rows)
        .filter(|(t, r)| t.status == r.status)
        .count();
    let n = timings.len() as f64;
    Ok(ReferenceReport {
        file: file.to_string(),
        mode: if status_only { "status-only" } else { "full" },
        threads,
        calls: timings.len() as u64,
        valid: valid.len() as u64,
        solved: valid.iter().filter(|t| t.status == Status::Solved).count() as u64,
        cpu_s: cpu_ns as f64 * 1e-9,
        cpu_valid_s: cpu_valid_ns as f64 * 1e-9,
        ms_per_call: div(cpu_ns as f64 * 1e-6, n),
        ms_per_valid_sim: div(cpu_valid_ns as f64 * 1e-6, valid.len() as f64),
        status_agreement: div(agree as f64, n),
        steps_computed_per_valid: div(stepped as f64, valid.len() as f64),
        steps_covered_per_valid: div(covered as f64, valid.len() as f64),
        us_per_computed_step: div(cpu_valid_ns as f64 * 1e-3, stepped as f64),
        wall_s,
        hash_xor: valid.iter().fold(0, |h, t| h ^ t.final_hash),
        shared_scenes,
    })
}
