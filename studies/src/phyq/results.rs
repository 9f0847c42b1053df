//! Per-task results: the rows of a run or of attempts played elsewhere, and their CSV.

use super::run::{Job, State};
use anyhow::Result;
use phyq::generator::template_of;
use phyq::LevelId;

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
