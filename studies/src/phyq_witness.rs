//! Phy-Q witnesses: every generated task sound, with the shots that prove it.
//!
//! A task of the generator (template, index, seed) is drawn from attempt 0. A draw is sound when
//! it starts at rest and the search of `phyq::game::soundness` finds shots that pass it; a draw
//! that is not is refused and the next valid draw of the generator's rules is checked
//! (`phyq::generator::regenerate` from the refused attempt + 1), at most [`Params::max_redraws`]
//! times. Nothing is dropped: a task whose draws all fail stays in the file without a witness.
//! One task is one runner task advanced one draw at a time, so a run checkpoints, resumes and
//! writes the same bytes on any thread count.
//!
//! The levels of a level set (`tasks import-levels`) are checked as they are, once each: an
//! imported level has no generator to draw again from, so one that is not sound is left without
//! a witness, its one refusal saying why (attempt 0).
//!
//! The file (`phyq/data/witnesses.csv` for the built-in tier) has one row per task:
//! `task_id,template,attempt,found,refused,shots_tried,steps,shots`, with `attempt` the draw
//! kept, `refused` the draws refused before it (`attempt:rest` or `attempt:search`, space
//! separated), what the search cost over all draws, and `shots` exactly as
//! `rephyre simulate ID --shots` takes them. The built-in tier reads `attempt` from it.

use crate::runner::{self, RunConfig, TaskJob};
use anyhow::{bail, Context, Result};
use phyq::game::format_shots;
use phyq::game::soundness::{check, verify_witness, Unsound};
use phyq::generator::{regenerate, task_id, template_of, TASKS_PER_TEMPLATE};
use phyq::levelset::Entry;
use phyq::templates::{templates, Template};
pub use phyq::witnesses::{parse, Row, HEADER};
use phyq::LevelId;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use tasks::rng::fnv64;

/// What a run covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    /// The generator's seed (the built-in tier: `phyq::generator::BUILTIN_SEED`).
    pub seed: u64,
    /// Tasks 1..=this of each template.
    pub per_template: u32,
    /// Only these templates (hierarchy codes), or all 75.
    pub templates: Option<Vec<String>>,
    /// Draws refused per task at most before it is left without a witness.
    pub max_redraws: u32,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            seed: phyq::generator::BUILTIN_SEED,
            per_template: TASKS_PER_TEMPLATE,
            templates: None,
            max_redraws: 20,
        }
    }
}

/// One task's progress (the runner's per-task state).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The next attempt to draw from (after a witness: the attempt kept).
    pub attempt: u32,
    /// Draws refused: (attempt, why).
    pub refused: Vec<(u32, Unsound)>,
    /// The witness, as `--shots` takes it.
    pub shots: Option<String>,
    pub shots_tried: u64,
    pub steps: u64,
}

/// One task of a run.
#[derive(Clone, Copy, Debug)]
pub enum WitnessTask {
    /// Task `index` of a template, drawn by the generator (and drawn again when refused).
    Drawn(&'static Template, u32),
    /// A level of a level set, checked as it is.
    Level(&'static Entry),
}

/// The tasks of a run.
pub struct Job {
    pub params: Params,
    pub tasks: Vec<WitnessTask>,
}

impl Job {
    pub fn new(params: Params) -> Result<Job> {
        if params.per_template == 0 || params.per_template > phyq::generator::MAX_INDEX {
            bail!(
                "tasks per template must be 1 to {}",
                phyq::generator::MAX_INDEX
            );
        }
        let chosen: Vec<&'static Template> = match &params.templates {
            None => templates().iter().collect(),
            Some(codes) => codes
                .iter()
                .map(|c| {
                    phyq::templates::find(c).with_context(|| {
                        format!("unknown Phy-Q template {c:?} (e.g. 1_1_4 or 1.1)")
                    })
                })
                .collect::<Result<_>>()?,
        };
        let tasks = chosen
            .into_iter()
            .flat_map(|t| (1..=params.per_template).map(move |i| WitnessTask::Drawn(t, i)))
            .collect();
        Ok(Job { params, tasks })
    }

    /// The levels of a level set, or those of `templates` (codes) among them.
    pub fn of_levels(entries: &'static [Entry], templates: Option<&[String]>) -> Result<Job> {
        let wanted: Option<Vec<&'static Template>> = templates
            .map(|codes| {
                codes
                    .iter()
                    .map(|c| {
                        phyq::templates::find(c).with_context(|| {
                            format!("unknown Phy-Q template {c:?} (e.g. 1_1_4 or 1.1)")
                        })
                    })
                    .collect::<Result<_>>()
            })
            .transpose()?;
        let tasks: Vec<WitnessTask> = entries
            .iter()
            .filter(|e| {
                wanted.as_ref().is_none_or(|w| {
                    template_of(&e.id).is_some_and(|t| w.iter().any(|x| x.code == t.code))
                })
            })
            .map(WitnessTask::Level)
            .collect();
        if tasks.is_empty() {
            bail!("no level of the set is of the templates given");
        }
        Ok(Job {
            params: Params {
                templates: templates.map(<[String]>::to_vec),
                ..Params::default()
            },
            tasks,
        })
    }
}

impl TaskJob for Job {
    type State = State;

    fn len(&self) -> usize {
        self.tasks.len()
    }

    fn fingerprint(&self) -> String {
        let mut codes: Vec<&str> = Vec::new();
        let mut levels: Vec<String> = Vec::new();
        for t in &self.tasks {
            match t {
                WitnessTask::Drawn(t, _) => codes.push(t.code.as_str()),
                WitnessTask::Level(e) => levels.push(format!(
                    "{} {:016x}",
                    e.id,
                    fnv64(format!("{:?}", e.level).as_bytes())
                )),
            }
        }
        if !levels.is_empty() {
            return format!(
                "phyq-witness-levels-1 {:016x}",
                fnv64(levels.join(",").as_bytes())
            );
        }
        format!(
            "phyq-witness-2 seed {} per {} redraws {} templates {:016x}",
            self.params.seed,
            self.params.per_template,
            self.params.max_redraws,
            fnv64(codes.join(",").as_bytes())
        )
    }

    fn advance(&self, task: usize, state: &mut State) -> bool {
        let (template, index) = match self.tasks[task] {
            WitnessTask::Drawn(t, i) => (t, i),
            WitnessTask::Level(e) => {
                check_level(&e.level, state);
                return true;
            }
        };
        let drawn = match regenerate(template, index, self.params.seed, state.attempt) {
            Ok(g) => g,
            // The generator's own bound on attempts: nothing more to draw.
            Err(_) => return true,
        };
        state.attempt = drawn.attempt;
        let Ok(verdict) = check(&drawn.level) else {
            // A generated level the game cannot build is a bug the generator's tests catch;
            // the task is left without a witness rather than the run stopped.
            return true;
        };
        if let Some(s) = &verdict.search {
            state.shots_tried += s.shots_tried;
            state.steps += s.steps;
        }
        match verdict.witness() {
            Ok(shots) => {
                state.shots = Some(format_shots(shots));
                true
            }
            Err(why) => {
                state.refused.push((drawn.attempt, why));
                state.attempt += 1;
                state.refused.len() as u32 > self.params.max_redraws
            }
        }
    }

    fn simulations(&self, state: &State) -> u64 {
        state.shots_tried
    }
}

/// One imported level's check: its witness, or its one refusal (attempt 0) and why.
fn check_level(level: &phyq::Level, state: &mut State) {
    let Ok(verdict) = check(level) else {
        // A level the game cannot build was refused when the set was imported.
        return;
    };
    if let Some(s) = &verdict.search {
        state.shots_tried += s.shots_tried;
        state.steps += s.steps;
    }
    match verdict.witness() {
        Ok(shots) => state.shots = Some(format_shots(shots)),
        Err(why) => state.refused.push((0, why)),
    }
}

/// Runs the job to the end (checkpointed and resumable through `cfg`).
pub fn run(params: Params, cfg: &RunConfig) -> Result<(Job, Vec<State>)> {
    run_job(Job::new(params)?, cfg)
}

/// Runs a job made by [`Job::new`] or [`Job::of_levels`] to the end.
pub fn run_job(job: Job, cfg: &RunConfig) -> Result<(Job, Vec<State>)> {
    let states = runner::run(&job, cfg)?;
    Ok((job, states))
}

/// The rows of a finished run, in task order.
pub fn rows(job: &Job, states: &[State]) -> Vec<Row> {
    job.tasks
        .iter()
        .zip(states)
        .map(|(task, s)| {
            let (task_id, template, index) = match *task {
                WitnessTask::Drawn(t, index) => {
                    (task_id(t, index).to_string(), t.code.clone(), index)
                }
                WitnessTask::Level(e) => (
                    e.id.to_string(),
                    template_of(&e.id).map_or_else(String::new, |t| t.code.clone()),
                    match e.id {
                        LevelId::Coded { index, .. } => index,
                        LevelId::Named(_) => 0,
                    },
                ),
            };
            (task_id, template, index, s)
        })
        .map(|(task_id, template, index, s)| Row {
            task_id,
            template,
            index,
            attempt: if s.shots.is_some() { s.attempt } else { 0 },
            found: s.shots.is_some(),
            refused: s.refused.clone(),
            shots_tried: s.shots_tried,
            steps: s.steps,
            shots: s.shots.clone().unwrap_or_default(),
        })
        .collect()
}

/// The witness file of `rows`.
pub fn csv_text(rows: &[Row]) -> String {
    let mut out = String::from(HEADER);
    out.push('\n');
    for r in rows {
        out.push_str(&r.line());
        out.push('\n');
    }
    out
}

/// Re-checks every witness of `rows` drawn under `seed`: the kept draw is the generator's first
/// valid one from its attempt, it starts at rest, and its shots pass it. Returns one message per
/// failing row (empty: all good), in row order, computed on `pool`.
pub fn verify(rows: &[Row], seed: u64, pool: &rayon::ThreadPool) -> Vec<String> {
    let one = |r: &Row| -> Result<(), String> {
        if !r.found {
            return Ok(());
        }
        let t = phyq::templates::find(&r.template)
            .ok_or_else(|| format!("unknown template {}", r.template))?;
        let g = regenerate(t, r.index, seed, r.attempt).map_err(|e| e.to_string())?;
        if g.attempt != r.attempt {
            return Err(format!(
                "attempt {} is not a valid draw (the next is {})",
                r.attempt, g.attempt
            ));
        }
        if task_id(t, r.index).to_string() != r.task_id {
            return Err(format!(
                "id {} is not task {} of {}",
                r.task_id, r.index, t.code
            ));
        }
        let shots = phyq::game::parse_shots(&r.shots).map_err(|e| e.to_string())?;
        verify_witness(&g.level, &shots)
    };
    failures(rows, pool, one)
}

/// One message per row that `one` finds wrong, in row order, computed on `pool`.
fn failures(
    rows: &[Row],
    pool: &rayon::ThreadPool,
    one: impl Fn(&Row) -> Result<(), String> + Sync,
) -> Vec<String> {
    pool.install(|| {
        rows.par_iter()
            .map(|r| one(r).err().map(|e| format!("{}: {e}", r.task_id)))
            .collect::<Vec<_>>()
    })
    .into_iter()
    .flatten()
    .collect()
}

/// Re-checks every witness of `rows` against the levels of a level set: the row's level is in
/// the set, it starts at rest and the shots pass it. Messages as [`verify`]'s.
pub fn verify_levels(rows: &[Row], entries: &[Entry], pool: &rayon::ThreadPool) -> Vec<String> {
    let one = |r: &Row| -> Result<(), String> {
        if !r.found {
            return Ok(());
        }
        let e = entries
            .iter()
            .find(|e| e.id.to_string() == r.task_id)
            .ok_or_else(|| "not a level of the set".to_string())?;
        let shots = phyq::game::parse_shots(&r.shots).map_err(|e| e.to_string())?;
        verify_witness(&e.level, &shots)
    };
    failures(rows, pool, one)
}

/// Per template: tasks, sound at the first draw, sound in the end, draws refused (at rest /
/// search), and what the search cost, as a Markdown table in the paper's order; the levels of a
/// level set that carry no template on one line after them.
pub fn summary_markdown(rows: &[Row]) -> String {
    let mut out = String::from(
        "| template | scenario | tasks | sound at the first draw | sound | refused: not at rest | refused: no pass found | shots tried per task | steps per task |\n|---|---|---|---|---|---|---|---|---|\n",
    );
    let mut totals = [0u64; 7];
    let mut groups: Vec<(String, String, Vec<&Row>)> = templates()
        .iter()
        .map(|t| {
            (
                format!("{} ({})", t.paper, t.code),
                format!("{} {}", t.scenario, t.scenario_name),
                rows.iter().filter(|r| r.template == t.code).collect(),
            )
        })
        .collect();
    groups.push((
        "levels without a template".into(),
        String::new(),
        rows.iter().filter(|r| r.template.is_empty()).collect(),
    ));
    for (name, scenario, mine) in groups {
        if mine.is_empty() {
            continue;
        }
        let n = mine.len() as u64;
        let first = mine
            .iter()
            .filter(|r| r.found && r.refused.is_empty())
            .count() as u64;
        let sound = mine.iter().filter(|r| r.found).count() as u64;
        let count = |u: Unsound| {
            mine.iter()
                .flat_map(|r| &r.refused)
                .filter(|(_, w)| *w == u)
                .count() as u64
        };
        let (rest, search) = (count(Unsound::NotAtRest), count(Unsound::NoPassFound));
        let tried: u64 = mine.iter().map(|r| r.shots_tried).sum();
        let steps: u64 = mine.iter().map(|r| r.steps).sum();
        for (a, v) in totals
            .iter_mut()
            .zip([n, first, sound, rest, search, tried, steps])
        {
            *a += v;
        }
        let _ = writeln!(
            out,
            "| {name} | {scenario} | {n} | {first} | {sound} | {rest} | {search} | {} | {} |",
            tried / n,
            steps / n
        );
    }
    let [n, first, sound, rest, search, tried, steps] = totals;
    if let (Some(t), Some(st)) = (tried.checked_div(n), steps.checked_div(n)) {
        let _ = writeln!(
            out,
            "| all | | {n} | {first} | {sound} | {rest} | {search} | {t} | {st} |"
        );
    }
    out
}
