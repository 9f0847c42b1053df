//! Witnesses: one stable solution per task, found by the search of [`search`], as a CSV that
//! proves every listed task solvable in rephyre, and the re-check of such a file.
//!
//! Seeds are the original PHYRE's stored solutions (built-in outcomes-A rows of the same action
//! tier): the task's own first, then those of its template's other tasks, nearest index first;
//! with `--retry FILE`, each other task's witness in FILE comes before its stored solutions
//! (a solution that is stable in rephyre for a sibling is the best first guess). After all of
//! those come the siblings' solutions carried over to this task
//! ([`search::transfer_solution`]: each ball moved with the body it is nearest to, and
//! mirrored). Without seeds (`--no-seeds`) the search starts from random actions only. One task
//! is one runner task, so a run checkpoints, resumes and gives the same bytes on any thread count.

pub mod search;

pub use search::{
    find_witness, lattice_action, lattice_of, stability, transfer_solution, LatticeBall, Origin,
    SearchParams, Stability, Witness,
};

use crate::action_text;
use crate::parity::{builtin_reference, parse_reference, RowKind};
use crate::runner::{self, RunConfig, TaskJob};
use crate::selection::{check_templates, tasks_fingerprint};
use crate::shard::{self, arg, parse_tier, Args, Merged, Part, Shard};
use crate::slurm::{Extra, Study};
use anyhow::{bail, Context, Result};
use derive_more::AddAssign;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::ops::AddAssign;
use std::path::{Path, PathBuf};
use tasks::rng::fnv64;
use tasks::{validate_action, Task, TaskId, TaskSet, Tier};

/// Seeds tried per task at most.
pub const MAX_SEEDS: usize = 256;

/// The result of one task's search (the runner's per-task state).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WitnessState {
    pub found: bool,
    pub balls: Vec<LatticeBall>,
    /// "seed" or "random" (empty when nothing was found).
    pub origin_kind: String,
    pub origin_index: u64,
    pub refinements: u32,
    pub simulations: u64,
    pub candidates: u64,
    pub solved: u64,
}

/// The job: tasks, the action tier of each, their seeds and the search parameters.
pub struct Job<'a> {
    pub tasks: Vec<(&'a Task, Tier)>,
    /// Each task's seeds.
    seeds: Vec<Seeds>,
    /// Results kept from a previous file (`--retry`): these tasks are not searched again.
    kept: Vec<Option<WitnessState>>,
    budget: Option<u64>,
    seed: u64,
    fingerprint: String,
}

impl<'a> Job<'a> {
    pub fn params(&self, tier: Tier) -> SearchParams {
        let mut p = SearchParams::for_tier(tier);
        if let Some(b) = self.budget {
            p.budget = b;
        }
        p.seed = self.seed;
        p
    }
}

impl TaskJob for Job<'_> {
    type State = WitnessState;

    fn len(&self) -> usize {
        self.tasks.len()
    }

    fn fingerprint(&self) -> String {
        self.fingerprint.clone()
    }

    fn advance(&self, t: usize, s: &mut WitnessState) -> bool {
        if let Some(kept) = &self.kept[t] {
            *s = kept.clone();
            return true;
        }
        let (task, tier) = self.tasks[t];
        let r = find_witness(task, tier, &self.seeds[t].actions, &self.params(tier));
        *s = WitnessState {
            found: r.witness.is_some(),
            simulations: r.simulations,
            candidates: r.candidates,
            solved: r.solved,
            ..WitnessState::default()
        };
        if let Some(w) = r.witness {
            s.balls = w.balls;
            s.refinements = w.refinements;
            (s.origin_kind, s.origin_index) = match w.origin {
                Origin::Seed(n) if u64::from(n) >= self.seeds[t].plain => {
                    ("carried".to_string(), u64::from(n))
                }
                Origin::Seed(n) => ("seed".to_string(), u64::from(n)),
                Origin::Random(n) => ("random".to_string(), n),
            };
        }
        true
    }

    fn simulations(&self, s: &WitnessState) -> u64 {
        s.simulations
    }
}

/// Tasks with the action tier to search them in.
pub type TaskTiers<'a> = Vec<(&'a Task, Tier)>;

/// The tasks of a search: the given templates (default: every template of the set), the first
/// `per_template` tasks of each; each with `tier`, or its own tier.
pub fn select_tasks<'a>(
    set: &'a TaskSet,
    templates: Option<&[u32]>,
    per_template: Option<u32>,
    tier: Option<Tier>,
) -> Result<TaskTiers<'a>> {
    let templates = match templates {
        Some(list) => {
            check_templates(set, list)?;
            list.to_vec()
        }
        None => set.templates(),
    };
    let mut out = Vec::new();
    for t in templates {
        let tasks = set.template(t);
        let n = per_template.map_or(tasks.len(), |n| (n as usize).min(tasks.len()));
        out.extend(
            tasks[..n]
                .iter()
                .map(|task| (task, tier.unwrap_or(task.tier()))),
        );
    }
    Ok(out)
}

/// Seeds per task: the original's stored solutions of the same action tier (own stable, own
/// unstable), then, nearest index first, each other task of the template: its rephyre witness
/// (given in `witnesses`, e.g. the rows of a `--retry` file) before its stored solutions, stable
/// before unstable (at most [`MAX_SEEDS`] of these "plain" seeds); then the other tasks'
/// solutions among them carried over to this task.
#[derive(Clone, Debug, Default)]
struct Seeds {
    /// The seed actions, in the order the search tries them.
    actions: Vec<Vec<f64>>,
    /// How many come first as the task's own stored solutions.
    own: u64,
    /// How many are plain (the rest are carried over from siblings).
    plain: u64,
}

/// A found witness usable as a seed for its template's other tasks.
pub struct SiblingWitness<'w> {
    pub task_id: &'w str,
    pub tier: Tier,
    pub action: &'w [f64],
}

fn seeds_for(
    set: &TaskSet,
    tasks: &[(&Task, Tier)],
    reference: &str,
    witnesses: &[SiblingWitness],
) -> Result<Vec<Seeds>> {
    let rows = parse_reference(reference)?;
    let id_of = |id: &str, line: String| -> Result<TaskId> {
        id.parse()
            .with_context(|| format!("{line}: bad task id {id:?}"))
    };
    // (template, tier) -> [(task index, source, row order, action)]; source 0 is a rephyre
    // witness, then the original's stable and unstable solutions.
    type Stored<'r> = Vec<(u32, u8, usize, &'r [f64])>;
    let mut by_template: BTreeMap<(u32, String), Stored> = BTreeMap::new();
    for (i, r) in rows.iter().enumerate() {
        let source = match r.kind {
            RowKind::Random => continue,
            RowKind::StableSolution => 1,
            RowKind::UnstableSolution => 2,
        };
        let id = id_of(&r.task_id, format!("reference row {}", i + 2))?;
        by_template
            .entry((id.template(), r.tier.clone()))
            .or_default()
            .push((id.index(), source, i, &r.action));
    }
    for (i, w) in witnesses.iter().enumerate() {
        let id = id_of(w.task_id, format!("witness row {}", i + 2))?;
        by_template
            .entry((id.template(), w.tier.to_string()))
            .or_default()
            .push((id.index(), 0, i, w.action));
    }
    Ok(tasks
        .iter()
        .map(|(task, tier)| {
            let id = task.id();
            let key = (id.template(), tier.to_string());
            let Some(rows) = by_template.get(&key) else {
                return Seeds::default();
            };
            let own = id.index();
            let mut order: Vec<_> = rows
                .iter()
                // A task's own witness is no seed: it would be found already.
                .filter(|&&(index, source, _, _)| !(index == own && source == 0))
                .map(|&(index, source, row, action)| {
                    let sibling = index != own;
                    ((sibling, own.abs_diff(index), source, index, row), action)
                })
                .collect();
            order.sort_by_key(|a| a.0); // (source, row) is unique: a total order
            order.truncate(MAX_SEEDS);
            let own_count = order.iter().filter(|(k, _)| !k.0).count() as u64;
            // Then the siblings' solutions carried over to this task (each ball moved with the
            // body it is nearest to), in the same order: tried after every plain seed, so a
            // task a plain seed solves is searched exactly as before.
            let carried: Vec<Vec<f64>> = order
                .iter()
                .filter(|(k, _)| k.0)
                .flat_map(|&((_, _, _, index, _), a)| {
                    TaskId::new(id.template(), index)
                        .and_then(|sid| set.get(&sid))
                        .map(|from| transfer_solution(from, task, a))
                        .unwrap_or_default()
                })
                .collect();
            let mut actions: Vec<Vec<f64>> = order.into_iter().map(|(_, a)| a.to_vec()).collect();
            let plain = actions.len() as u64;
            actions.extend(carried);
            Seeds {
                actions,
                own: own_count,
                plain,
            }
        })
        .collect())
}

fn balls_text(balls: &[LatticeBall]) -> String {
    balls
        .iter()
        .map(|b| format!("{} {} {}", b[0], b[1], b[2]))
        .collect::<Vec<_>>()
        .join(" ")
}

use tasks::witnesses::HEADER;

/// The CSV report: one row per task, in task order.
pub fn csv_bytes(job: &Job, states: &[WitnessState]) -> Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(HEADER)?;
    for ((task, tier), s) in job.tasks.iter().zip(states) {
        let origin = if s.found {
            format!("{}:{}", s.origin_kind, s.origin_index)
        } else {
            String::new()
        };
        let action = if s.found {
            action_text(&lattice_action(&s.balls), " ")
        } else {
            String::new()
        };
        w.write_record([
            task.id().to_string(),
            tier.to_string(),
            s.found.to_string(),
            origin,
            s.refinements.to_string(),
            s.simulations.to_string(),
            s.candidates.to_string(),
            balls_text(&s.balls),
            action,
        ])?;
    }
    w.into_inner()
        .map_err(|e| e.into_error())
        .context("cannot write the CSV")
}

/// Per-template Markdown summary and the list of tasks without a witness.
pub fn summary_markdown(job: &Job, states: &[WitnessState]) -> String {
    /// A template's counts, or all templates'; adding two adds each count.
    #[derive(Default, Clone, Copy, AddAssign)]
    struct Agg {
        tasks: u64,
        found: u64,
        own_seed: u64,
        template_seed: u64,
        carried: u64,
        random: u64,
        refined: u64,
        sims: u64,
        max_sims: Max,
    }
    /// The most simulations of one task: adding one keeps the larger.
    #[derive(Default, Clone, Copy)]
    struct Max(u64);
    impl AddAssign for Max {
        fn add_assign(&mut self, o: Max) {
            self.0 = self.0.max(o.0);
        }
    }
    let mut by: BTreeMap<(String, String), Agg> = BTreeMap::new();
    let mut missing = Vec::new();
    for (((task, tier), s), seeds) in job.tasks.iter().zip(states).zip(&job.seeds) {
        let own = seeds.own;
        let a = by
            .entry((task.id().template_str(), tier.to_string()))
            .or_default();
        a.tasks += 1;
        a.sims += s.simulations;
        a.max_sims += Max(s.simulations);
        if !s.found {
            missing.push(format!(
                "| {} | {} | {} | {} |",
                task.id(),
                tier,
                s.simulations,
                s.candidates
            ));
            continue;
        }
        a.found += 1;
        if s.refinements > 0 {
            a.refined += 1;
        }
        match s.origin_kind.as_str() {
            "random" => a.random += 1,
            "carried" => a.carried += 1,
            // Own seeds come first, so a seed's number tells whose solution it was.
            _ => {
                if s.origin_index < own {
                    a.own_seed += 1;
                } else {
                    a.template_seed += 1;
                }
            }
        }
    }
    let mut out = String::from(
        "| template | tier | tasks | with witness | from own stored solution | from template's \
         solutions | carried over from a sibling | from random actions | refined | \
         simulations, mean | simulations, max |\n\
         |---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let mut total = Agg::default();
    for ((t, tier), a) in &by {
        let _ = writeln!(
            out,
            "| {t} | {tier} | {} | {} | {} | {} | {} | {} | {} | {:.0} | {} |",
            a.tasks,
            a.found,
            a.own_seed,
            a.template_seed,
            a.carried,
            a.random,
            a.refined,
            a.sims as f64 / a.tasks.max(1) as f64,
            a.max_sims.0
        );
        total += *a;
    }
    let _ = writeln!(
        out,
        "| **all** | | {} | {} | {} | {} | {} | {} | {} | {:.0} | {} |",
        total.tasks,
        total.found,
        total.own_seed,
        total.template_seed,
        total.carried,
        total.random,
        total.refined,
        total.sims as f64 / total.tasks.max(1) as f64,
        total.max_sims.0
    );
    if missing.is_empty() {
        out.push_str("\nEvery task has a witness.\n");
    } else {
        let _ = write!(
            out,
            "\nTasks without a witness ({}):\n\n| task | tier | simulations | candidates |\n\
             |---|---|---:|---:|\n{}\n",
            missing.len(),
            missing.join("\n")
        );
    }
    out
}

/// One row of a witness file.
#[derive(Clone, Debug, PartialEq)]
pub struct WitnessRow {
    pub task_id: String,
    pub tier: Tier,
    pub found: bool,
    pub balls: Vec<LatticeBall>,
    pub action: Vec<f64>,
    /// The search's record for this task, as the file gives it.
    pub state: WitnessState,
}

/// Read the witness CSV at `path` ([`parse_witnesses`]).
pub fn read_witnesses(path: &std::path::Path) -> Result<Vec<WitnessRow>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    parse_witnesses(&text).with_context(|| format!("in {}", path.display()))
}

/// Read a witness CSV (the columns [`csv_bytes`] writes; the format is
/// [`tasks::witnesses`]'s).
pub fn parse_witnesses(text: &str) -> Result<Vec<WitnessRow>> {
    let rows = tasks::witnesses::parse(text).map_err(anyhow::Error::msg)?;
    Ok(rows
        .into_iter()
        .map(|r| {
            let (origin_kind, origin_index) = r.origin.unwrap_or_default();
            let state = WitnessState {
                found: r.found,
                balls: r.balls.clone(),
                origin_kind,
                origin_index,
                refinements: r.refinements,
                simulations: r.simulations,
                candidates: r.candidates,
                solved: 0,
            };
            WitnessRow {
                task_id: r.task_id,
                tier: r.tier,
                found: r.found,
                balls: r.balls,
                action: r.action,
                state,
            }
        })
        .collect())
}

/// Why a witness failed its re-check.
#[derive(Clone, Debug, PartialEq)]
pub enum VerifyFailure {
    /// The action validates to other balls than the file says.
    BallsDiffer(Vec<LatticeBall>),
    /// The stable-solution test does not pass.
    NotStable(Stability),
}

/// Re-check one witness row: its action validates to its balls and passes the stable-solution
/// test. `Ok(None)` for a row without a witness.
pub fn verify_row(set: &TaskSet, row: &WitnessRow) -> Result<Option<VerifyFailure>> {
    if !row.found {
        return Ok(None);
    }
    let task = set.lookup(&row.task_id)?;
    match validate_action(task, row.tier, &row.action) {
        Ok(v) if lattice_of(&v) != row.balls => {
            return Ok(Some(VerifyFailure::BallsDiffer(lattice_of(&v))))
        }
        _ => {}
    }
    let mut sims = 0;
    Ok(match stability(task, row.tier, &row.action, &mut sims) {
        Stability::Stable => None,
        other => Some(VerifyFailure::NotStable(other)),
    })
}

/// Re-check every row of a witness file ([`verify_row`]) on `threads` workers; the failures in
/// row order.
pub fn verify_rows(
    set: &TaskSet,
    rows: &[WitnessRow],
    threads: Option<usize>,
) -> Result<Vec<Option<VerifyFailure>>> {
    runner::pool(threads)?.install(|| rows.par_iter().map(|r| verify_row(set, r)).collect())
}

/// What a search covers.
#[derive(Clone, Debug)]
pub struct Params {
    /// The action tier asked for (`None`: each task's own), for the fingerprint.
    pub tier: Option<Tier>,
    /// Most simulations per task (`None`: the tier's default of [`SearchParams::for_tier`]).
    pub budget: Option<u64>,
    /// Seed of the search's random actions.
    pub seed: u64,
    /// Do not seed the search with the original PHYRE's stored solutions.
    pub no_seeds: bool,
}

/// The tasks of a `--retry` of a witness file: every row's task and tier, and the rows kept as
/// they are (found, or already searched with this budget: searching again would repeat the same
/// steps and fail).
pub fn retry_tasks<'a>(
    set: &'a TaskSet,
    rows: &[WitnessRow],
    budget: Option<u64>,
) -> Result<(TaskTiers<'a>, Vec<Option<WitnessState>>)> {
    let mut tasks = Vec::with_capacity(rows.len());
    let mut kept = Vec::with_capacity(rows.len());
    for r in rows {
        tasks.push((set.lookup(&r.task_id)?, r.tier));
        let budget = budget.unwrap_or(SearchParams::for_tier(r.tier).budget);
        let done = r.found || r.state.simulations >= budget;
        kept.push(done.then(|| r.state.clone()));
    }
    Ok((tasks, kept))
}

/// The witnesses of a witness file's rows, as seeds for a `--retry`: each task is also seeded
/// with the witnesses its template's other tasks have.
pub fn sibling_witnesses(rows: &[WitnessRow]) -> Vec<SiblingWitness<'_>> {
    rows.iter()
        .filter(|r| r.found)
        .map(|r| SiblingWitness {
            task_id: &r.task_id,
            tier: r.tier,
            action: &r.action,
        })
        .collect()
}

/// Search a witness for every task of `tasks` (with its tier); `kept[t]` (same length) is a row
/// kept from a previous file instead of a search, and `siblings` are witnesses of the tasks'
/// template siblings to seed with. Returns the job (for the reports) and one state per task.
pub fn search<'a>(
    set: &TaskSet,
    tasks: Vec<(&'a Task, Tier)>,
    kept: Vec<Option<WitnessState>>,
    siblings: &[SiblingWitness],
    params: &Params,
    cfg: &RunConfig,
) -> Result<(Job<'a>, Vec<WitnessState>)> {
    let job = job(set, tasks, kept, siblings, params)?;
    let states = runner::run(&job, cfg)?;
    Ok((job, states))
}

/// The job of [`search`].
fn job<'a>(
    set: &TaskSet,
    tasks: Vec<(&'a Task, Tier)>,
    kept: Vec<Option<WitnessState>>,
    siblings: &[SiblingWitness],
    params: &Params,
) -> Result<Job<'a>> {
    if params.budget == Some(0) {
        bail!("--budget must be positive");
    }
    if kept.len() != tasks.len() {
        bail!("one kept row (or none) is needed per task");
    }
    let text = builtin_reference()?;
    let mut seeds = seeds_for(set, &tasks, &text, siblings)?;
    let reference_hash = if params.no_seeds {
        // No actions to try; the counts still classify kept rows' origins in the summary.
        for s in &mut seeds {
            s.actions.clear();
        }
        0
    } else {
        fnv64(text.as_bytes())
    };
    let kept_hash = fnv64(format!("{kept:?}").as_bytes());
    let only: Vec<&Task> = tasks.iter().map(|(t, _)| *t).collect();
    let fingerprint = format!(
        "witness-2 rephyre-{} tier={:?} budget={:?} seed={} seeds={:016x} kept={:016x} {}",
        env!("CARGO_PKG_VERSION"),
        params.tier,
        // The effective budgets (defaults included), so a checkpoint of other budgets is refused.
        [Tier::Ball, Tier::TwoBalls]
            .map(|t| params.budget.unwrap_or(SearchParams::for_tier(t).budget)),
        params.seed,
        reference_hash,
        kept_hash,
        tasks_fingerprint(&only)?
    );
    let job = Job {
        tasks,
        seeds,
        budget: params.budget,
        seed: params.seed,
        fingerprint,
        kept,
    };
    Ok(job)
}

/// The name of the study in part files.
pub const COMMAND: &str = "witness";

/// The study to `rephyre merge` and `rephyre slurm`.
pub const SLURM: Study =
    Study::checkpointed(COMMAND, "witness.csv", &[(Extra::Summary, "witness.md")]);

/// The canonical arguments of a witness run: the parameters, each task's tier and, for a
/// `--retry`, the file (absolute path and a hash of its text, checked again by the merge).
fn witness_args(tasks: &[(&Task, Tier)], params: &Params, retry: Option<&Path>) -> Result<Args> {
    let tiers: Vec<String> = tasks.iter().map(|(_, t)| t.to_string()).collect();
    let (file, hash) = match retry {
        None => (String::new(), String::new()),
        Some(p) => {
            let abs =
                std::fs::canonicalize(p).with_context(|| format!("cannot read {}", p.display()))?;
            let text =
                std::fs::read(&abs).with_context(|| format!("cannot read {}", abs.display()))?;
            (abs.display().to_string(), format!("{:016x}", fnv64(&text)))
        }
    };
    Ok(shard::args([
        ("tier", params.tier.map_or(String::new(), |t| t.to_string())),
        (
            "budget",
            params.budget.map_or(String::new(), |b| b.to_string()),
        ),
        ("seed", params.seed.to_string()),
        ("no_seeds", params.no_seeds.to_string()),
        ("tiers", tiers.join(",")),
        ("retry", file),
        ("retry_hash", hash),
    ]))
}

/// Run shard `shard` of a search (the arguments of [`search()`], and the `--retry` file if any).
#[allow(clippy::too_many_arguments)]
pub fn run_shard(
    set: &TaskSet,
    tasks: Vec<(&Task, Tier)>,
    kept: Vec<Option<WitnessState>>,
    siblings: &[SiblingWitness],
    params: &Params,
    retry: Option<&Path>,
    shard: Shard,
    cfg: &RunConfig,
) -> Result<Part<WitnessState>> {
    let only: Vec<&Task> = tasks.iter().map(|(t, _)| *t).collect();
    let args = witness_args(&tasks, params, retry)?;
    let job = job(set, tasks, kept, siblings, params)?;
    shard::run_shard(&job, COMMAND, args, &only, shard, cfg)
}

/// Merge the parts of a sharded search (checked by [`shard::read_parts`]) into the job and the
/// states of the single run (for [`csv_bytes`] and [`summary_markdown`]). A `--retry` file must
/// still be where the shards read it, unchanged.
pub fn merge(
    set: &TaskSet,
    parts: Vec<(PathBuf, Part<WitnessState>)>,
) -> Result<(Job<'_>, Vec<WitnessState>)> {
    let merged = Merged::new(parts);
    let run = &merged.run;
    let opt = |name: &str| -> Result<Option<String>> {
        let v: String = arg(&run.args, name)?;
        Ok((!v.is_empty()).then_some(v))
    };
    let tier = opt("tier")?.as_deref().map(parse_tier).transpose()?;
    let budget = match opt("budget")? {
        Some(b) => Some(b.parse().context("part file with a bad budget")?),
        None => None,
    };
    let params = Params {
        tier,
        budget,
        seed: arg(&run.args, "seed")?,
        no_seeds: arg(&run.args, "no_seeds")?,
    };
    let job = match opt("retry")? {
        Some(path) => {
            let text = std::fs::read(&path).with_context(|| {
                format!("cannot read the shards' --retry file {path} (the merge needs it)")
            })?;
            if Some(format!("{:016x}", fnv64(&text))) != opt("retry_hash")? {
                bail!("the shards' --retry file {path} has changed since they ran");
            }
            let text = String::from_utf8(text).context("the --retry file is not UTF-8")?;
            let rows = parse_witnesses(&text).with_context(|| format!("in {path}"))?;
            let (tasks, kept) = retry_tasks(set, &rows, budget)?;
            job(set, tasks, kept, &sibling_witnesses(&rows), &params)?
        }
        None => {
            let tiers: String = arg(&run.args, "tiers")?;
            let tiers: Vec<Tier> = tiers
                .split(',')
                .filter(|t| !t.is_empty())
                .map(parse_tier)
                .collect::<Result<_>>()?;
            let tasks = merged.tasks(set)?;
            if tiers.len() != tasks.len() {
                bail!(
                    "part file {} has one tier per task",
                    merged.first().display()
                );
            }
            let n = tasks.len();
            job(
                set,
                tasks.into_iter().zip(tiers).collect(),
                vec![None; n],
                &[],
                &params,
            )?
        }
    };
    merged.check_rebuilt(&job)?;
    Ok((job, merged.states))
}
