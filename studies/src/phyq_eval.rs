//! Phy-Q evaluation: an agent's pass rate on the test tasks of a generalization setting, per
//! task, template and scenario, and the Phy-Q score.
//!
//! Settings (the paper's §4): **local**, per template the first 80 tasks train and the last 20
//! test; **broad**, per scenario the paper's training templates train and its testing templates
//! test (Table 7, `phyq::templates::Role`); **all**, every given task tests (levels imported
//! without a template). Only the test tasks are played; the DQN learns on the training tasks
//! ([`train_tasks`]) beforehand (`studies::phyq_dqn`).
//!
//! A task is played `attempts` times (the paper: random 50, heuristics 5); its pass rate is the
//! share of attempts that pass. Each attempt's random numbers depend only on (seed, task id,
//! attempt), and one runner task is one level advanced one attempt at a time, so a run
//! checkpoints, resumes, shards and merges to the same bytes on any thread count. The DQN's
//! shards evaluate one trained model, whose digest and header their part files record; the
//! merge refuses parts of different models ([`check_same_model`]).
//!
//! The Phy-Q score (the paper's equations 1–2) is computed over scenarios 3–15 with the paper's
//! human means and standard deviations (`phyq::playdata`) and, for the random agent's Z, this
//! project's own random agent on this project's tasks ([`random_reference`]).

use crate::runner::{self, RunConfig, TaskJob};
use crate::shard::{self, arg, Args, Merged, Part, Shard};
use agents::phyq::{play, Draws, Optimal, PigShooter, Random, ShotAgent};
use anyhow::{bail, Result};
use phyq::game::{format_shots, Game, PixelShot, PlayError};
use phyq::generator::template_of;
use phyq::levelset::Entry;
use phyq::playdata::{humans, SCENARIOS};
use phyq::templates::{templates, Role, Template};
use phyq::{Level, LevelId};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;
use tasks::rng::fnv64;

/// The command its part files record.
pub const COMMAND: &str = "phyq-eval";
/// The seed of a run that names none.
pub const DEFAULT_SEED: u64 = 0;
/// Local generalization: tasks 1..=this of a template train, the rest test.
pub const LOCAL_TRAIN_TASKS: u32 = 80;
/// Attempts per task at most.
pub const MAX_ATTEMPTS: u32 = 1000;

/// The agents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentName {
    Random,
    PigShooter,
    Optimal,
    /// The learned agent (`agents::dqn::phyq`): its job needs a trained model
    /// ([`job_with`]).
    Dqn,
}

impl AgentName {
    pub const ALL: [AgentName; 4] = [
        AgentName::Random,
        AgentName::PigShooter,
        AgentName::Optimal,
        AgentName::Dqn,
    ];

    pub fn word(self) -> &'static str {
        match self {
            AgentName::Random => "random",
            AgentName::PigShooter => "pig-shooter",
            AgentName::Optimal => "optimal",
            AgentName::Dqn => "dqn",
        }
    }

    pub fn parse(text: &str) -> Result<AgentName> {
        match AgentName::ALL.iter().find(|a| a.word() == text) {
            Some(a) => Ok(*a),
            None => bail!(
                "unknown Phy-Q agent {text:?} (one of: {})",
                AgentName::ALL.map(|a| a.word()).join(", ")
            ),
        }
    }

    /// Attempts per task when none are given: the paper's 50 for the random agent and 5 for
    /// heuristics; the planner and the DQN are deterministic, one is enough.
    pub fn default_attempts(self) -> u32 {
        match self {
            AgentName::Random => 50,
            AgentName::PigShooter => 5,
            AgentName::Optimal | AgentName::Dqn => 1,
        }
    }

    /// The agent of a name alone (`None` for the DQN, which needs its model).
    pub fn agent(self) -> Option<&'static dyn ShotAgent> {
        match self {
            AgentName::Random => Some(&Random),
            AgentName::PigShooter => Some(&PigShooter),
            AgentName::Optimal => Some(&Optimal),
            AgentName::Dqn => None,
        }
    }
}

/// An agent a job plays.
pub type SharedAgent = Arc<dyn ShotAgent + Send>;

/// The agent of `name` when it needs nothing else.
pub fn builtin(name: AgentName) -> Result<SharedAgent> {
    match name {
        AgentName::Random => Ok(Arc::new(Random)),
        AgentName::PigShooter => Ok(Arc::new(PigShooter)),
        AgentName::Optimal => Ok(Arc::new(Optimal)),
        AgentName::Dqn => bail!("the dqn agent needs a trained model"),
    }
}

/// The generalization settings (module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setting {
    Local,
    Broad,
    All,
}

impl Setting {
    pub const ALL: [Setting; 3] = [Setting::Local, Setting::Broad, Setting::All];

    pub fn word(self) -> &'static str {
        match self {
            Setting::Local => "local",
            Setting::Broad => "broad",
            Setting::All => "all",
        }
    }

    pub fn parse(text: &str) -> Result<Setting> {
        match Setting::ALL.iter().find(|s| s.word() == text) {
            Some(s) => Ok(*s),
            None => bail!("unknown setting {text:?} (one of: local, broad, all)"),
        }
    }
}

/// What determines a run's results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    pub agent: AgentName,
    pub setting: Setting,
    pub attempts: u32,
    pub seed: u64,
}

impl Params {
    /// Checked parameters (`attempts`: the agent's default when `None`).
    pub fn new(
        agent: AgentName,
        setting: Setting,
        attempts: Option<u32>,
        seed: u64,
    ) -> Result<Params> {
        let attempts = attempts.unwrap_or(agent.default_attempts());
        if attempts == 0 || attempts > MAX_ATTEMPTS {
            bail!("--attempts must be 1 to {MAX_ATTEMPTS}, got {attempts}");
        }
        Ok(Params {
            agent,
            setting,
            attempts,
            seed,
        })
    }

    /// The canonical arguments a part file records.
    pub fn args(&self) -> Args {
        shard::args([
            ("agent", self.agent.word().to_string()),
            ("setting", self.setting.word().to_string()),
            ("attempts", self.attempts.to_string()),
            ("seed", self.seed.to_string()),
        ])
    }

    pub fn from_args(a: &Args) -> Result<Params> {
        Params::new(
            AgentName::parse(&arg::<String>(a, "agent")?)?,
            Setting::parse(&arg::<String>(a, "setting")?)?,
            Some(arg(a, "attempts")?),
            arg(a, "seed")?,
        )
    }
}

/// A level under test.
#[derive(Clone, Debug)]
pub struct EvalTask {
    pub id: LevelId,
    /// Its template, for a task of the tier (or named like one).
    pub template: Option<&'static Template>,
    pub level: Level,
}

/// The index of a coded task id (`phyq:L_C_K:NNNNN`).
fn index_of(id: &LevelId) -> Option<u32> {
    match id {
        LevelId::Coded { index, .. } => Some(*index),
        LevelId::Named(_) => None,
    }
}

/// The test tasks of `setting` among `entries`, in their order.
pub fn test_tasks(entries: &[Entry], setting: Setting) -> Result<Vec<EvalTask>> {
    tasks_of(entries, setting, true)
}

/// The training tasks of `setting` among `entries`, in their order: local, tasks 1 to 80 of
/// each template; broad, every task of the training templates; the all setting has none.
pub fn train_tasks(entries: &[Entry], setting: Setting) -> Result<Vec<EvalTask>> {
    if setting == Setting::All {
        bail!("the all setting has no training tasks (train in the local or broad setting)");
    }
    tasks_of(entries, setting, false)
}

fn tasks_of(entries: &[Entry], setting: Setting, test: bool) -> Result<Vec<EvalTask>> {
    let mut out = Vec::new();
    for e in entries {
        let template = template_of(&e.id);
        let tests = match setting {
            Setting::All => true,
            Setting::Local | Setting::Broad => {
                let Some(t) = template else {
                    bail!(
                        "task {} has no Phy-Q template, so it has no place in the {} setting (use --setting all)",
                        e.id,
                        setting.word()
                    );
                };
                let tests = match setting {
                    Setting::Local => index_of(&e.id).is_some_and(|i| i > LOCAL_TRAIN_TASKS),
                    _ => t.role == Role::Test,
                };
                tests == test
            }
        };
        if tests {
            out.push(EvalTask {
                id: e.id.clone(),
                template,
                level: e.level.clone(),
            });
        }
    }
    if out.is_empty() {
        bail!(
            "no {} task in the {} setting among the {} tasks given",
            if test { "test" } else { "training" },
            setting.word(),
            entries.len()
        );
    }
    Ok(out)
}

/// One task's progress (the runner's per-task state).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub attempts: u32,
    pub passes: u32,
    /// Shots and physics steps over all attempts.
    pub shots: u64,
    pub steps: u64,
    /// The shots of the first attempt that passed, as `--shots` takes them.
    pub first_pass: Option<String>,
    /// Why the level could not be played (its remaining attempts are not run).
    pub error: Option<String>,
}

/// A run's tasks.
pub struct Job {
    pub params: Params,
    pub tasks: Vec<EvalTask>,
    /// The agent of `params.agent`.
    pub agent: SharedAgent,
}

impl TaskJob for Job {
    type State = State;

    fn len(&self) -> usize {
        self.tasks.len()
    }

    fn fingerprint(&self) -> String {
        fingerprint_of(&self.params, &self.tasks, &self.agent.fingerprint())
    }

    fn advance(&self, task: usize, state: &mut State) -> bool {
        let t = &self.tasks[task];
        let stream = fnv64(t.id.to_string().as_bytes());
        let mut draws = Draws::new(self.params.seed, stream, u64::from(state.attempts));
        match play(self.agent.as_ref(), &t.level, &mut draws) {
            Ok(a) => {
                state.attempts += 1;
                state.shots += a.shots.len() as u64;
                state.steps += u64::from(a.steps);
                if a.passed {
                    state.passes += 1;
                    if state.first_pass.is_none() {
                        state.first_pass = Some(format_shots(&a.shots));
                    }
                }
                state.attempts >= self.params.attempts
            }
            Err(e) => {
                state.error = Some(e.to_string());
                true
            }
        }
    }

    fn simulations(&self, state: &State) -> u64 {
        state.shots
    }
}

/// The fingerprint of a job of `params` on `tasks` played by an agent of fingerprint `agent`.
fn fingerprint_of(params: &Params, tasks: &[EvalTask], agent: &str) -> String {
    let mut content = Vec::new();
    for t in tasks {
        content.extend_from_slice(t.id.to_string().as_bytes());
        content.extend(serde_json::to_vec(&t.level).unwrap_or_default());
    }
    let agent = if agent.is_empty() {
        String::new()
    } else {
        format!(" {agent}")
    };
    format!(
        "phyq-eval-1 {} agent {}{agent} setting {} attempts {} seed {} tasks {} {:016x}",
        env!("CARGO_PKG_VERSION"),
        params.agent.word(),
        params.setting.word(),
        params.attempts,
        params.seed,
        tasks.len(),
        fnv64(&content)
    )
}

/// Refuse, before the agent exists (a DQN to train or to read), the checkpoint of `cfg` that
/// the run (or its shard `shard`) would refuse on `--resume` for anything but the agent's own
/// fingerprint: its options and its tasks. A learned agent's run (its agent has a fingerprint
/// of its own) can so refuse it before any training; the agent's part is checked when the run
/// starts.
pub fn check_resume(
    entries: &[Entry],
    params: Params,
    shard: Option<Shard>,
    cfg: &RunConfig,
) -> Result<()> {
    let Some(path) = cfg.checkpoint.as_ref().filter(|_| cfg.resume) else {
        return Ok(());
    };
    // The agent's fingerprint is a hole: what is before and after it must match.
    const HOLE: &str = "\u{0}";
    let tasks = test_tasks(entries, params.setting)?;
    let want = fingerprint_of(&params, &tasks, HOLE);
    let want = match shard {
        Some(s) => shard::shard_fingerprint(&want, s),
        None => want,
    };
    let (before, after) = want.split_once(HOLE).unwrap_or((&want, ""));
    runner::check_checkpoint(path, |saved| {
        saved.len() >= before.len() + after.len()
            && saved.starts_with(before)
            && saved.ends_with(after)
    })
}

/// The job of `params` on the test tasks of its setting among `entries` (an agent defined by
/// its name).
pub fn job(entries: &[Entry], params: Params) -> Result<Job> {
    job_with(entries, params, builtin(params.agent)?)
}

/// The job of `params` with `agent` playing (e.g. a trained DQN).
pub fn job_with(entries: &[Entry], params: Params, agent: SharedAgent) -> Result<Job> {
    if agent.name() != params.agent.word() {
        bail!(
            "the {} agent given for a run of {}",
            agent.name(),
            params.agent.word()
        );
    }
    Ok(Job {
        params,
        tasks: test_tasks(entries, params.setting)?,
        agent,
    })
}

/// Runs the evaluation (checkpointed and resumable through `cfg`).
pub fn run(entries: &[Entry], params: Params, cfg: &RunConfig) -> Result<(Job, Vec<State>)> {
    run_with(entries, params, builtin(params.agent)?, cfg)
}

/// Runs the evaluation with `agent` playing.
pub fn run_with(
    entries: &[Entry],
    params: Params,
    agent: SharedAgent,
    cfg: &RunConfig,
) -> Result<(Job, Vec<State>)> {
    let job = job_with(entries, params, agent)?;
    let states = runner::run(&job, cfg)?;
    Ok((job, states))
}

/// Runs shard `shard` of the evaluation and returns its part.
pub fn run_shard(
    entries: &[Entry],
    params: Params,
    agent: SharedAgent,
    shard: Shard,
    cfg: &RunConfig,
) -> Result<Part<State>> {
    let job = job_with(entries, params, agent)?;
    let ids = job.tasks.iter().map(|t| t.id.to_string()).collect();
    let mut args = params.args();
    args.extend(job.agent.record());
    shard::run_shard_of(&job, COMMAND, args, ids, shard, cfg)
}

/// The agent of a merged run that its parts name by a record (the DQN: its model's digest):
/// in the rebuilt job it completes the fingerprint, which the merge checks; a merge plays
/// nothing, so it never shoots.
struct Recorded {
    name: &'static str,
    fingerprint: String,
}

impl ShotAgent for Recorded {
    fn name(&self) -> &'static str {
        self.name
    }

    fn fingerprint(&self) -> String {
        self.fingerprint.clone()
    }

    fn shot(&self, _: &Game, _: &Level, _: &mut Draws) -> Result<PixelShot, PlayError> {
        unreachable!("the agent of a merged run is known by its parts' record and plays nothing")
    }
}

/// The agent of the parts' arguments `args` of a run of `name`: the built-in one, or for the
/// DQN the model the parts recorded.
fn merged_agent(name: AgentName, args: &Args) -> Result<SharedAgent> {
    match name {
        AgentName::Dqn => Ok(Arc::new(Recorded {
            name: name.word(),
            fingerprint: format!("model {}", arg::<String>(args, "model")?),
        })),
        _ => builtin(name),
    }
}

/// Refuse parts of a dqn run evaluated with different models, naming the first part of
/// another model than the first (before [`shard::read_parts`], whose message would list both
/// models' headers).
pub fn check_same_model(paths: &[PathBuf]) -> Result<()> {
    let mut first: Option<(&PathBuf, Option<String>)> = None;
    for p in paths {
        let h = shard::read_header(p)?;
        if h.run.command != COMMAND || h.run.args.get("agent").map(String::as_str) != Some("dqn") {
            continue;
        }
        let model = h.run.args.get("model").cloned();
        match &first {
            None => first = Some((p, model)),
            Some((p0, m0)) if *m0 != model => {
                let name = |m: &Option<String>| m.as_deref().unwrap_or("none").to_string();
                bail!(
                    "part {} evaluates another DQN model (digest {}) than {} (digest {}); merge the parts of one model",
                    p.display(),
                    name(&model),
                    p0.display(),
                    name(m0)
                );
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// The parts of a sharded run (checked by [`shard::read_parts`]) merged into the job and
/// states of the single run, its levels looked up in `entries`.
pub fn merge(entries: &[Entry], parts: Vec<(PathBuf, Part<State>)>) -> Result<(Job, Vec<State>)> {
    let merged = Merged::new(parts);
    let params = Params::from_args(merged.args())?;
    let job = job_with(entries, params, merged_agent(params.agent, merged.args())?)?;
    let ids: Vec<String> = job.tasks.iter().map(|t| t.id.to_string()).collect();
    if ids != merged.run.task_ids {
        bail!(
            "the parts (e.g. {}) evaluate other tasks than the {} setting of these; merge with the shards' --tasks",
            merged.first().display(),
            params.setting.word()
        );
    }
    merged.check_rebuilt(&job)?;
    Ok((job, merged.states))
}

/// One task's result.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub task_id: String,
    /// Hierarchy code and paper number of its template (empty without one).
    pub template: String,
    pub paper: String,
    /// 0 without a template.
    pub scenario: u8,
    pub attempts: u32,
    pub passes: u32,
    pub shots: u64,
    pub steps: u64,
    pub first_pass: String,
    pub error: String,
}

impl Row {
    pub fn pass_rate(&self) -> f64 {
        if self.attempts == 0 {
            0.0
        } else {
            f64::from(self.passes) / f64::from(self.attempts)
        }
    }
}

/// The CSV header of [`csv_text`].
pub const HEADER: &str =
    "task_id,template,paper,scenario,attempts,passes,pass_rate,shots,steps,first_pass,error";

/// The rows of a finished run, in task order.
pub fn rows(job: &Job, states: &[State]) -> Vec<Row> {
    job.tasks
        .iter()
        .zip(states)
        .map(|(t, s)| Row {
            task_id: t.id.to_string(),
            template: t.template.map_or(String::new(), |t| t.code.clone()),
            paper: t.template.map_or(String::new(), |t| t.paper.clone()),
            scenario: t.template.map_or(0, |t| t.scenario),
            attempts: s.attempts,
            passes: s.passes,
            shots: s.shots,
            steps: s.steps,
            first_pass: s.first_pass.clone().unwrap_or_default(),
            error: s.error.clone().unwrap_or_default(),
        })
        .collect()
}

/// One level attempt played elsewhere (e.g. by an external agent through `rephyre
/// phyq-server`, whose record lists them): the task and whether it was passed, with its shots.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attempt {
    pub task_id: String,
    pub passed: bool,
    pub shots: u64,
}

/// Rows of attempts played elsewhere: one per task (attempts, passes, shots summed), tasks in
/// id order (an id that is not a Phy-Q level id after those, by text); a task of the tier (or
/// named like one) gets its template.
pub fn rows_from_attempts(attempts: &[Attempt]) -> Vec<Row> {
    let mut by_task: std::collections::BTreeMap<(Option<LevelId>, &str), Row> =
        std::collections::BTreeMap::new();
    for a in attempts {
        let id: Option<LevelId> = a.task_id.parse().ok();
        let template = id.as_ref().and_then(template_of);
        let r = by_task
            .entry((id.clone(), a.task_id.as_str()))
            .or_insert_with(|| Row {
                task_id: a.task_id.clone(),
                template: template.map_or(String::new(), |t| t.code.clone()),
                paper: template.map_or(String::new(), |t| t.paper.clone()),
                scenario: template.map_or(0, |t| t.scenario),
                attempts: 0,
                passes: 0,
                shots: 0,
                steps: 0,
                first_pass: String::new(),
                error: String::new(),
            });
        r.attempts += 1;
        r.passes += u32::from(a.passed);
        r.shots += a.shots;
    }
    // `None` (not an id) sorts first in a tuple: put those after the ids.
    let (ids, others): (Vec<_>, Vec<_>) =
        by_task.into_iter().partition(|((id, _), _)| id.is_some());
    ids.into_iter().chain(others).map(|(_, r)| r).collect()
}

/// The per-task CSV (fields quoted where they hold commas: the shots).
pub fn csv_text(rows: &[Row]) -> String {
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    let mut out = String::from(HEADER);
    out.push('\n');
    for r in rows {
        let record = [
            r.task_id.clone(),
            r.template.clone(),
            r.paper.clone(),
            r.scenario.to_string(),
            r.attempts.to_string(),
            r.passes.to_string(),
            r.pass_rate().to_string(),
            r.shots.to_string(),
            r.steps.to_string(),
            r.first_pass.clone(),
            r.error.replace('\n', " "),
        ];
        // Writing strings to memory cannot fail.
        w.write_record(&record).expect("CSV to memory");
    }
    let body = w.into_inner().expect("CSV to memory");
    out.push_str(&String::from_utf8_lossy(&body));
    out
}

/// Reads a CSV of [`csv_text`] (e.g. the committed random reference).
pub fn parse_csv(text: &str) -> Result<Vec<Row>, String> {
    if text.lines().next() != Some(HEADER) {
        return Err(format!("the first line is not {HEADER}"));
    }
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(text.as_bytes());
    reader
        .records()
        .enumerate()
        .map(|(i, rec)| {
            let bad = |what: &str| format!("line {}: {what}", i + 2);
            let f = rec.map_err(|e| bad(&e.to_string()))?;
            if f.len() != 11 {
                return Err(bad("expected 11 fields"));
            }
            let num = |k: usize| f[k].parse::<u64>().map_err(|_| bad("not a whole number"));
            let small = |k: usize| {
                num(k).and_then(|v| u32::try_from(v).map_err(|_| bad("number too large")))
            };
            Ok(Row {
                task_id: f[0].to_owned(),
                template: f[1].to_owned(),
                paper: f[2].to_owned(),
                scenario: u8::try_from(num(3)?).map_err(|_| bad("scenario"))?,
                attempts: small(4)?,
                passes: small(5)?,
                shots: num(7)?,
                steps: num(8)?,
                first_pass: f[9].to_owned(),
                error: f[10].to_owned(),
            })
        })
        .collect()
}

/// Mean pass rate over the tasks of each scenario (index 0: scenario 1; `None`: no task).
pub fn per_scenario(rows: &[Row]) -> [Option<f64>; SCENARIOS] {
    let mut sums = [(0.0f64, 0u32); SCENARIOS];
    for r in rows
        .iter()
        .filter(|r| (1..=SCENARIOS as u8).contains(&r.scenario))
    {
        let s = &mut sums[usize::from(r.scenario) - 1];
        s.0 += r.pass_rate();
        s.1 += 1;
    }
    sums.map(|(sum, n)| (n > 0).then(|| sum / f64::from(n)))
}

/// Mean pass rate over tasks.
pub fn pass_rate(rows: &[Row]) -> f64 {
    if rows.is_empty() {
        return 0.0;
    }
    rows.iter().map(Row::pass_rate).sum::<f64>() / rows.len() as f64
}

/// The scenarios of the Phy-Q score: 3..=15 (the paper leaves out 1 and 2, which every
/// heuristic passes).
pub const SCORED_SCENARIOS: std::ops::RangeInclusive<usize> = 3..=15;

/// Z of the paper's equation 1: the mean over scenarios 3–15 of (P_agent − P_human) / σ_human;
/// `None` unless every one of them has a rate.
pub fn z_score(per_scenario: &[Option<f64>; SCENARIOS]) -> Option<f64> {
    let h = humans();
    let mut sum = 0.0;
    for s in SCORED_SCENARIOS {
        let p = per_scenario[s - 1]?;
        sum += (p - h[s - 1].pass_rate) / h[s - 1].sd;
    }
    Some(sum / SCORED_SCENARIOS.count() as f64)
}

/// The Phy-Q score of equation 2, `100 + Z · 100 / |Z_random|`, with Z_random of `random`.
pub fn phyq_score(
    per_scenario: &[Option<f64>; SCENARIOS],
    random: &[Option<f64>; SCENARIOS],
) -> Option<f64> {
    let z = z_score(per_scenario)?;
    let zr = z_score(random)?;
    (zr != 0.0).then(|| 100.0 + z * 100.0 / zr.abs())
}

/// Per template (the paper's order): template, tasks, pass rate.
pub fn per_template(rows: &[Row]) -> Vec<(&'static Template, usize, f64)> {
    templates()
        .iter()
        .filter_map(|t| {
            let mine: Vec<&Row> = rows.iter().filter(|r| r.template == t.code).collect();
            (!mine.is_empty()).then(|| {
                let rate = mine.iter().map(|r| r.pass_rate()).sum::<f64>() / mine.len() as f64;
                (t, mine.len(), rate)
            })
        })
        .collect()
}

/// How close this project's rates come to the paper's for the same agent.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Agreement {
    /// What is compared: `template` (the Pig Shooter, the paper's local-generalization test)
    /// or `scenario` (the random agent, the paper's broad setting).
    pub by: &'static str,
    pub compared: usize,
    pub mean_abs_diff: f64,
    /// `None` when either side does not vary.
    pub pearson: Option<f64>,
    /// Templates (or scenarios) within 0.15 of the paper.
    pub within_0_15: usize,
}

/// The agreement of (this project, paper) rate pairs; `None` without a pair.
pub fn agreement(by: &'static str, pairs: &[(f64, f64)]) -> Option<Agreement> {
    if pairs.is_empty() {
        return None;
    }
    let n = pairs.len() as f64;
    let (mx, my) = (
        pairs.iter().map(|p| p.0).sum::<f64>() / n,
        pairs.iter().map(|p| p.1).sum::<f64>() / n,
    );
    let cov: f64 = pairs.iter().map(|(x, y)| (x - mx) * (y - my)).sum();
    let vx: f64 = pairs.iter().map(|(x, _)| (x - mx).powi(2)).sum();
    let vy: f64 = pairs.iter().map(|(_, y)| (y - my).powi(2)).sum();
    Some(Agreement {
        by,
        compared: pairs.len(),
        mean_abs_diff: pairs.iter().map(|(x, y)| (x - y).abs()).sum::<f64>() / n,
        pearson: (vx > 0.0 && vy > 0.0).then(|| cov / (vx * vy).sqrt()),
        within_0_15: pairs.iter().filter(|(x, y)| (x - y).abs() <= 0.15).count(),
    })
}

/// The paper's rate of `agent` in a template, where the paper gives one per template (the Pig
/// Shooter).
pub fn paper_template_rate(agent: AgentName, code: &str) -> Option<f64> {
    (agent == AgentName::PigShooter)
        .then(|| {
            phyq::playdata::pig_shooter_per_template()
                .iter()
                .find(|(c, _)| c == code)
                .map(|(_, r)| *r)
        })
        .flatten()
}

/// This run beside the paper's same agent: per template for the Pig Shooter, per scenario (the
/// broad setting's "Random Agent") for the random agent; `None` for the others.
pub fn paper_agreement(
    agent: AgentName,
    rows: &[Row],
    per_scenario: &[Option<f64>; SCENARIOS],
) -> Option<Agreement> {
    match agent {
        AgentName::PigShooter => {
            let pairs: Vec<(f64, f64)> = per_template(rows)
                .iter()
                .filter_map(|(t, _, r)| paper_template_rate(agent, &t.code).map(|p| (*r, p)))
                .collect();
            agreement("template", &pairs)
        }
        AgentName::Random => {
            let paper = phyq::playdata::paper_agents()
                .iter()
                .find(|a| a.name == "Random Agent")?;
            let pairs: Vec<(f64, f64)> = per_scenario
                .iter()
                .zip(paper.pass_rates)
                .filter_map(|(mine, p)| mine.map(|m| (m, p)))
                .collect();
            agreement("scenario", &pairs)
        }
        _ => None,
    }
}

/// The figures of a finished run.
#[derive(Clone, Debug, PartialEq)]
pub struct Figures {
    pub tasks: usize,
    pub pass_rate: f64,
    pub per_scenario: [Option<f64>; SCENARIOS],
    /// Per template (the paper's order): hierarchy code and pass rate.
    pub per_template: Vec<(String, f64)>,
    /// Broad setting with every scored scenario and a random reference: the Phy-Q score.
    pub phyq_score: Option<f64>,
    /// Beside the paper's same agent ([`paper_agreement`]).
    pub paper_agreement: Option<Agreement>,
}

/// The figures of `rows` under `params`; `random` is the random agent's per-scenario rates in
/// the broad setting (Z_random; a random broad run is its own reference, so it scores 0).
pub fn figures(params: &Params, rows: &[Row], random: &[Option<f64>; SCENARIOS]) -> Figures {
    let per = per_scenario(rows);
    let phyq_score = match (params.setting, params.agent) {
        (Setting::Broad, AgentName::Random) => phyq_score(&per, &per),
        (Setting::Broad, _) => phyq_score(&per, random),
        _ => None,
    };
    Figures {
        tasks: rows.len(),
        pass_rate: pass_rate(rows),
        per_scenario: per,
        per_template: per_template(rows)
            .into_iter()
            .map(|(t, _, r)| (t.code.clone(), r))
            .collect(),
        phyq_score,
        paper_agreement: paper_agreement(params.agent, rows, &per),
    }
}

/// The figures as one JSON object (the `--json` line).
pub fn json_line(params: &Params, f: &Figures) -> String {
    let per: serde_json::Map<String, serde_json::Value> = f
        .per_scenario
        .iter()
        .enumerate()
        .filter_map(|(i, r)| r.map(|r| ((i + 1).to_string(), serde_json::json!(r))))
        .collect();
    serde_json::json!({
        "agent": params.agent.word(),
        "setting": params.setting.word(),
        "attempts": params.attempts,
        "seed": params.seed,
        "tasks": f.tasks,
        "pass_rate": f.pass_rate,
        "per_scenario": per,
        "per_template": f
            .per_template
            .iter()
            .map(|(c, r)| (c.clone(), serde_json::json!(r)))
            .collect::<serde_json::Map<String, serde_json::Value>>(),
        "phyq_score": f.phyq_score,
        "paper_agreement": f.paper_agreement,
    })
    .to_string()
}

fn percent(r: f64) -> String {
    format!("{:.1}", r * 100.0)
}

/// The Markdown report: per scenario beside the paper's humans and agents (measured on the
/// original game), the score, and per template.
pub fn summary_markdown(params: &Params, rows: &[Row], f: &Figures) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Phy-Q evaluation: {} agent, {} setting\n\n{} test tasks, {} attempts each (seed {}); pass rate over tasks {} %.\n",
        params.agent.word(),
        params.setting.word(),
        f.tasks,
        params.attempts,
        params.seed,
        percent(f.pass_rate)
    );
    match f.phyq_score {
        Some(s) => {
            let _ = writeln!(out, "**Phy-Q score: {s:.1}** (humans 100, this project's random agent 0; scenarios 3–15).\n");
        }
        None if params.setting == Setting::Broad => {
            let _ = writeln!(out, "No Phy-Q score: it needs every scenario from 3 to 15 and the random agent's reference.\n");
        }
        None => {}
    }
    let paper = phyq::playdata::paper_agents();
    let _ = write!(out, "## Pass rate per scenario (%)\n\nThis agent on rephyre's tasks, then the paper's humans and agents on the original game (broad setting).\n\n| scenario | tasks | **{} (rephyre)** |", params.agent.word());
    for a in paper {
        let _ = write!(out, " {} (paper) |", a.name);
    }
    out.push_str("\n|---|---|---|");
    out.push_str(&"---|".repeat(paper.len()));
    out.push('\n');
    let names = scenario_names();
    for (s, name) in names.iter().enumerate() {
        let n = rows
            .iter()
            .filter(|r| usize::from(r.scenario) == s + 1)
            .count();
        let mine = f.per_scenario[s].map_or("–".to_string(), percent);
        let _ = write!(out, "| {} {name} | {n} | **{mine}** |", s + 1);
        for a in paper {
            let _ = write!(out, " {} |", percent(a.pass_rates[s]));
        }
        out.push('\n');
    }
    // The scores: this agent's against this project's random agent, the paper's against the
    // paper's random agent (each on its own game).
    let of_paper = |name: &str| {
        paper
            .iter()
            .find(|a| a.name == name)
            .map(|a| a.pass_rates.map(Some))
    };
    let paper_random = of_paper("Random Agent");
    let score_text = |s: Option<f64>| s.map_or("–".to_string(), |s| format!("{s:.1}"));
    let _ = write!(
        out,
        "| **Phy-Q score** | | **{}** |",
        score_text(f.phyq_score)
    );
    for a in paper {
        let s = paper_random
            .as_ref()
            .and_then(|r| phyq_score(&a.pass_rates.map(Some), r));
        let _ = write!(out, " {} |", score_text(s));
    }
    out.push('\n');
    if let Some(a) = f.paper_agreement.as_ref().filter(|a| a.by == "scenario") {
        let _ = writeln!(
            out,
            "\nBeside the paper's Random Agent per scenario: {} scenarios, mean |difference| {:.3}, Pearson {}, {} within 0.15.",
            a.compared,
            a.mean_abs_diff,
            a.pearson.map_or("–".to_string(), |p| format!("{p:.3}")),
            a.within_0_15
        );
    }
    let other = rows.iter().filter(|r| r.scenario == 0).count();
    if other > 0 {
        let _ = writeln!(
            out,
            "\n{other} tasks without a template are in the overall rate only."
        );
    }
    let with_paper = paper_template_rate(params.agent, "1_1_1").is_some();
    out.push_str("\n## Per template\n\n");
    if let Some(a) = f.paper_agreement.as_ref().filter(|a| a.by == "template") {
        let _ = writeln!(
            out,
            "Beside the paper's Pig Shooter per template (its local-generalization test on the original game: tasks 81–100, 5 attempts each): {} templates, mean |difference| {:.3}, Pearson {}, {} within 0.15.\n",
            a.compared,
            a.mean_abs_diff,
            a.pearson.map_or("–".to_string(), |p| format!("{p:.3}")),
            a.within_0_15
        );
    }
    out.push_str("| template | scenario | role | tasks | pass rate (%) |");
    out.push_str(if with_paper {
        " paper's Pig Shooter (%) |\n|---|---|---|---|---|---|\n"
    } else {
        "\n|---|---|---|---|---|\n"
    });
    for (t, n, rate) in per_template(rows) {
        let role = match t.role {
            Role::Train => "train",
            Role::Test => "test",
        };
        let _ = write!(
            out,
            "| {} ({}) | {} | {role} | {n} | {} |",
            t.paper,
            t.code,
            t.scenario,
            percent(rate)
        );
        if with_paper {
            let p = paper_template_rate(params.agent, &t.code);
            let _ = write!(out, " {} |", p.map_or("–".to_string(), percent));
        }
        out.push('\n');
    }
    let errors: Vec<&Row> = rows.iter().filter(|r| !r.error.is_empty()).collect();
    if !errors.is_empty() {
        let _ = writeln!(out, "\n{} tasks could not be played:", errors.len());
        for r in errors {
            let _ = writeln!(out, "- {}: {}", r.task_id, r.error);
        }
    }
    out
}

/// The scenarios' names, in order.
pub fn scenario_names() -> [&'static str; SCENARIOS] {
    let mut names = [""; SCENARIOS];
    for t in templates() {
        names[usize::from(t.scenario) - 1] = t.scenario_name.as_str();
    }
    names
}

/// This project's random agent in the broad setting: the committed run
/// (`rephyre phyq-eval --agent random --setting broad --out FILE`: 50 attempts, seed 0, on the
/// built-in tier), re-checked by the tests.
pub const RANDOM_REFERENCE: &str = include_str!("../data/phyq-random-broad.csv");

/// This project's random agent in the broad setting, per scenario: the zero of the Phy-Q score
/// ([`RANDOM_REFERENCE`]).
pub fn random_reference() -> [Option<f64>; SCENARIOS] {
    match parse_csv(RANDOM_REFERENCE) {
        Ok(rows) => per_scenario(&rows),
        // Embedded and checked by the tests: a failure is a bug in this crate.
        Err(e) => panic!("data/phyq-random-broad.csv: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use phyq::generator::builtin_tasks;

    fn tier() -> &'static [Entry] {
        builtin_tasks().entries()
    }

    #[test]
    fn settings_select_the_papers_test_tasks() {
        let local = test_tasks(tier(), Setting::Local).unwrap();
        assert_eq!(local.len(), 75 * 20);
        assert!(local
            .iter()
            .all(|t| index_of(&t.id).is_some_and(|i| (81..=100).contains(&i))));
        let broad = test_tasks(tier(), Setting::Broad).unwrap();
        // Table 7: 34 testing templates of the 75.
        assert_eq!(broad.len(), 34 * 100);
        assert!(broad.iter().all(|t| t.template.unwrap().role == Role::Test));
        let scenarios: std::collections::BTreeSet<u8> =
            broad.iter().map(|t| t.template.unwrap().scenario).collect();
        assert_eq!(scenarios.len(), 15, "every scenario tests");
        assert_eq!(test_tasks(tier(), Setting::All).unwrap().len(), 7500);
        // A level without a template has no place in local or broad.
        let mut named = tier()[0].clone();
        named.id = LevelId::Named("mine".into());
        let err = test_tasks(&[named.clone()], Setting::Broad).unwrap_err();
        assert!(err.to_string().contains("--setting all"), "{err}");
        assert_eq!(test_tasks(&[named], Setting::All).unwrap().len(), 1);
        // Tasks 1..=80 only: nothing to test locally.
        let err = test_tasks(&tier()[..80], Setting::Local).unwrap_err();
        assert!(err.to_string().contains("no test task"), "{err}");
    }

    #[test]
    fn humans_score_100_and_random_0() {
        let h: [Option<f64>; SCENARIOS] = humans().map(|h| Some(h.pass_rate));
        let random = random_reference();
        let s = phyq_score(&h, &random).unwrap();
        assert!((s - 100.0).abs() < 1e-9, "{s}");
        assert!(phyq_score(&random, &random).unwrap().abs() < 1e-9);
        // Passing nothing is below the random agent; a scenario missing gives no score.
        let nothing = [Some(0.0); SCENARIOS];
        assert!(phyq_score(&nothing, &random).unwrap() < 0.0);
        let mut gap = h;
        gap[14] = None;
        assert_eq!(phyq_score(&gap, &random), None);
        // Scenarios 1 and 2 do not count.
        let mut first_two = nothing;
        first_two[0] = Some(1.0);
        first_two[1] = Some(1.0);
        assert_eq!(
            phyq_score(&first_two, &random),
            phyq_score(&nothing, &random)
        );
    }

    #[test]
    fn the_random_reference_is_a_whole_broad_run() {
        let rows = parse_csv(RANDOM_REFERENCE).unwrap();
        let broad = test_tasks(tier(), Setting::Broad).unwrap();
        let ids: Vec<String> = broad.iter().map(|t| t.id.to_string()).collect();
        let mine: Vec<String> = rows.iter().map(|r| r.task_id.clone()).collect();
        assert_eq!(mine, ids);
        assert!(rows.iter().all(|r| r.attempts == 50 && r.error.is_empty()));
        // Every scenario in the paper's range for its random agent, about (0.5–13 %), as
        // measured: 0.7 % (14) to 14.8 % (2).
        for (s, r) in random_reference().iter().enumerate() {
            let r = r.unwrap();
            assert!((0.005..0.15).contains(&r), "scenario {}: {r}", s + 1);
        }
    }

    /// Rows of `tasks` played by `params`' agent on one thread.
    fn play_rows(tasks: Vec<EvalTask>, params: Params) -> Vec<Row> {
        let agent = builtin(params.agent).unwrap();
        let job = Job {
            params,
            tasks,
            agent,
        };
        let states: Vec<State> = (0..job.len())
            .map(|i| {
                let mut s = State::default();
                while !job.advance(i, &mut s) {}
                s
            })
            .collect();
        rows(&job, &states)
    }

    #[test]
    fn the_random_reference_replays() {
        // One task of each of six testing templates, all 50 attempts: the committed rows.
        let reference = parse_csv(RANDOM_REFERENCE).unwrap();
        let broad = test_tasks(tier(), Setting::Broad).unwrap();
        let picked: Vec<EvalTask> = broad.into_iter().step_by(577).collect();
        assert_eq!(picked.len(), 6);
        let want: Vec<Row> = picked
            .iter()
            .map(|t| {
                let id = t.id.to_string();
                reference.iter().find(|r| r.task_id == id).unwrap().clone()
            })
            .collect();
        let params = Params::new(AgentName::Random, Setting::Broad, None, DEFAULT_SEED).unwrap();
        assert_eq!(play_rows(picked, params), want);
    }

    #[test]
    fn the_csv_reads_back() {
        let params = Params::new(AgentName::PigShooter, Setting::Local, Some(2), 7).unwrap();
        let tasks: Vec<EvalTask> = test_tasks(tier(), Setting::Local)
            .unwrap()
            .into_iter()
            .step_by(300)
            .collect();
        let rows = play_rows(tasks, params);
        assert_eq!(parse_csv(&csv_text(&rows)).unwrap(), rows);
        assert!(parse_csv("task_id\n").is_err());
        let bad = csv_text(&rows).replace(",2,", ",two,");
        assert!(parse_csv(&bad).is_err());
    }

    #[test]
    fn params_round_trip_and_refuse() {
        let p = Params::new(AgentName::Optimal, Setting::Broad, None, 3).unwrap();
        assert_eq!(p.attempts, 1);
        assert_eq!(Params::from_args(&p.args()).unwrap(), p);
        assert_eq!(
            Params::new(AgentName::Random, Setting::Local, None, 0)
                .unwrap()
                .attempts,
            50
        );
        assert!(Params::new(AgentName::Random, Setting::Local, Some(0), 0).is_err());
        assert!(AgentName::parse("dqn2").is_err());
        assert!(Setting::parse("wide").is_err());
    }

    #[test]
    fn agreement_by_hand() {
        // (0.5, 0.4), (0.2, 0.4), (0.9, 0.6): |diff| 0.1, 0.2, 0.3 → mean 0.2; within 0.15: one.
        // Means 0.5333…, 0.4666…; deviations x: −0.0333, −0.3333, 0.3667; y: −0.0667, −0.0667,
        // 0.1333; cov 0.002222 + 0.022222 + 0.048889 = 0.073333; vx 0.246667; vy 0.026667;
        // Pearson 0.073333 / √(0.246667 · 0.026667) = 0.9042.
        let a = agreement("template", &[(0.5, 0.4), (0.2, 0.4), (0.9, 0.6)]).unwrap();
        assert_eq!((a.compared, a.within_0_15), (3, 1));
        assert!((a.mean_abs_diff - 0.2).abs() < 1e-12);
        assert!(
            (a.pearson.unwrap() - 0.904_194).abs() < 1e-5,
            "{:?}",
            a.pearson
        );
        assert_eq!(
            agreement("template", &[(0.1, 0.5), (0.2, 0.5)])
                .unwrap()
                .pearson,
            None
        );
        assert_eq!(agreement("template", &[]), None);
        assert_eq!(paper_template_rate(AgentName::Random, "1_1_1"), None);
        assert!(
            (paper_template_rate(AgentName::PigShooter, "1_1_4").unwrap() - 0.745_833).abs() < 1e-5
        );
    }
}
