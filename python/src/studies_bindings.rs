//! The studies library from Python (`rephyre.studies`): solvability, diversity and parity, each
//! [`studies`]' own function on the built-in tasks, run with the GIL released on its worker
//! pool (results do not depend on the thread count). Solvability and diversity also run one
//! shard of a sharded run (`shard`, `part`), and [`merge`] combines the parts of either, told
//! apart by the command their part files record (the same parts `rephyre merge` reads).

use std::path::PathBuf;

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use studies::runner::RunConfig;
use studies::shard::{read_header, read_parts, write_part, Shard};
use tasks::{Task, TaskSet, Tier};

fn tier(name: &str) -> PyResult<Tier> {
    crate::core::parse_tier(name).map_err(PyValueError::new_err)
}

/// The built-in tasks of `ids` (sorted by id, so that a template's tasks are together), or all
/// the tasks of `tier` when `ids` is None.
fn select(ids: Option<Vec<String>>, tier: Tier) -> PyResult<Vec<&'static Task>> {
    let set = TaskSet::builtin();
    match ids {
        None => Ok(set.tier(tier).collect()),
        Some(ids) => {
            let mut tasks = ids
                .iter()
                .map(|id| {
                    set.lookup(id).map_err(|e| {
                        PyValueError::new_err(format!(
                            "unknown task id {:?} ({e})",
                            id.chars().take(64).collect::<String>()
                        ))
                    })
                })
                .collect::<PyResult<Vec<_>>>()?;
            tasks.sort_by_key(|t| t.id());
            tasks.dedup_by_key(|t| t.id());
            Ok(tasks)
        }
    }
}

fn config(threads: Option<i64>, checkpoint: Option<PathBuf>, resume: bool) -> PyResult<RunConfig> {
    let threads = match threads {
        None => None,
        Some(n) if n >= 1 => Some(n as usize),
        Some(n) => {
            return Err(PyValueError::new_err(format!(
                "num_threads must be at least 1, got {n}"
            )))
        }
    };
    Ok(RunConfig {
        threads,
        checkpoint,
        resume,
        ..RunConfig::default()
    })
}

fn failed(e: anyhow::Error) -> PyErr {
    PyRuntimeError::new_err(format!("{e:#}"))
}

fn bad_input(e: anyhow::Error) -> PyErr {
    PyValueError::new_err(format!("{e:#}"))
}

/// `shard="K/N"` with the `part` file it writes, or neither.
fn shard_and_part(
    shard: Option<&str>,
    part: Option<PathBuf>,
) -> PyResult<Option<(Shard, PathBuf)>> {
    match (shard, part) {
        (None, None) => Ok(None),
        (Some(k_of_n), Some(part)) => Ok(Some((Shard::parse(k_of_n).map_err(bad_input)?, part))),
        (Some(_), None) => Err(PyValueError::new_err("shard needs part, the file to write")),
        (None, Some(_)) => Err(PyValueError::new_err(
            "part is written by a shard: give shard='K/N'",
        )),
    }
}

/// SPEC §8's solvability test per task: a list of dicts, one per task.
#[pyfunction]
#[pyo3(signature = (tier_name, task_ids, p0, alpha, min_valid, min_solutions, max_valid, batch, seed, num_threads, checkpoint, resume, shard, part))]
#[allow(clippy::too_many_arguments)]
fn solvability<'py>(
    py: Python<'py>,
    tier_name: &str,
    task_ids: Option<Vec<String>>,
    p0: Option<f64>,
    alpha: f64,
    min_valid: u64,
    min_solutions: u64,
    max_valid: Option<u64>,
    batch: u64,
    seed: u64,
    num_threads: Option<i64>,
    checkpoint: Option<PathBuf>,
    resume: bool,
    shard: Option<&str>,
    part: Option<PathBuf>,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let t = tier(tier_name)?;
    let request = studies::solvability::Request {
        tier: t,
        p0,
        alpha,
        min_valid,
        min_solutions,
        max_valid,
        batch,
        seed,
    };
    let params = request.params().map_err(bad_input)?;
    let tasks = select(task_ids, t)?;
    let cfg = config(num_threads, checkpoint, resume)?;
    if let Some((shard, path)) = shard_and_part(shard, part)? {
        let part = py
            .allow_threads(|| studies::solvability::run_shard(tasks, params, shard, &cfg))
            .map_err(failed)?;
        write_part(&path, &part).map_err(failed)?;
        return Ok(Vec::new());
    }
    let rows = py
        .allow_threads(|| studies::solvability::run(tasks, params, &cfg))
        .map_err(failed)?;
    solvability_rows(py, &rows)
}

/// A solvability run's rows as Python dicts.
fn solvability_rows<'py>(
    py: Python<'py>,
    rows: &[studies::solvability::Row],
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    rows.iter()
        .map(|r| {
            let d = PyDict::new(py);
            d.set_item("task_id", &r.task_id)?;
            d.set_item("template", &r.template)?;
            d.set_item("valid", r.state.valid)?;
            d.set_item("invalid", r.state.invalid)?;
            d.set_item("solved", r.state.solved)?;
            d.set_item("stable", r.state.stable)?;
            d.set_item("neighbour_simulations", r.state.neighbour_sims)?;
            d.set_item("p_solvable", r.p_solvable)?;
            d.set_item("p_unsolvable", r.p_unsolvable)?;
            d.set_item("p_stable_solvable", r.p_stable_solvable)?;
            d.set_item("p_stable_unsolvable", r.p_stable_unsolvable)?;
            d.set_item("good", r.good)?;
            d.set_item("bad", r.bad)?;
            d.set_item("good_stable", r.good_stable)?;
            d.set_item("bad_stable", r.bad_stable)?;
            d.set_item("trivial", r.trivial)?;
            d.set_item("flags", r.flags())?;
            d.set_item("samples_needed", r.samples_needed)?;
            d.set_item("solutions", r.solutions.clone())?;
            Ok(d)
        })
        .collect()
}

/// Solution diversity: per template, how many actions solve exactly k of its tasks.
#[pyfunction]
#[pyo3(signature = (tier_name, task_ids, samples, seed, num_threads, shard, part))]
#[allow(clippy::too_many_arguments)]
fn diversity(
    py: Python<'_>,
    tier_name: &str,
    task_ids: Option<Vec<String>>,
    samples: u64,
    seed: u64,
    num_threads: Option<i64>,
    shard: Option<&str>,
    part: Option<PathBuf>,
) -> PyResult<Vec<(String, usize, Vec<u64>)>> {
    let t = tier(tier_name)?;
    if samples == 0 {
        return Err(PyValueError::new_err("samples must be at least 1"));
    }
    let tasks = select(task_ids, t)?;
    let cfg = config(num_threads, None, false)?;
    let params = studies::diversity::Params {
        tier: t,
        seed,
        samples,
    };
    if let Some((shard, path)) = shard_and_part(shard, part)? {
        let part = py
            .allow_threads(|| studies::diversity::run_shard(tasks, params, shard, &cfg))
            .map_err(failed)?;
        write_part(&path, &part).map_err(failed)?;
        return Ok(Vec::new());
    }
    let report = py
        .allow_threads(|| studies::diversity::run(tasks, params, &cfg))
        .map_err(failed)?;
    Ok(histograms(report))
}

/// A diversity report's histograms: (template, tasks, actions solving exactly k of them).
fn histograms(report: studies::diversity::Report) -> Vec<(String, usize, Vec<u64>)> {
    report
        .templates
        .into_iter()
        .map(|h| (h.template, h.tasks, h.hist))
        .collect()
}

/// The parts of a sharded solvability or diversity run (`rephyre.studies.solvability(...,
/// shard=..., part=...)`, or the command line's `--shard`) merged into the single run's
/// result: (the study's name, what the unsharded call returns). The parts are checked as
/// `rephyre merge` checks them.
#[pyfunction]
fn merge(py: Python<'_>, parts: Vec<PathBuf>) -> PyResult<(String, PyObject)> {
    let first = parts
        .first()
        .ok_or_else(|| PyValueError::new_err("no part files given"))?;
    let command = read_header(first).map_err(bad_input)?.run.command;
    let set = TaskSet::builtin();
    let merged = match command.as_str() {
        studies::solvability::COMMAND => {
            let parts = read_parts(&parts).map_err(bad_input)?;
            let (_, rows) = py
                .allow_threads(|| studies::solvability::merge(set, parts))
                .map_err(bad_input)?;
            solvability_rows(py, &rows)?.into_pyobject(py)?.into_any()
        }
        studies::diversity::COMMAND => {
            let parts = read_parts(&parts).map_err(bad_input)?;
            let report = py
                .allow_threads(|| studies::diversity::merge(set, parts))
                .map_err(bad_input)?;
            histograms(report).into_pyobject(py)?.into_any()
        }
        other => {
            let path = first.display();
            let message =
                format!("{path} is a part of `{other}`, which rephyre.studies does not merge");
            return Err(PyValueError::new_err(format!(
                "{message} (use `rephyre merge`)"
            )));
        }
    };
    Ok((command, merged.unbind()))
}

/// Parity with the original on a reference table (outcomes-A CSV text; None = the built-in
/// 141,680 rows): (summary as JSON text, Markdown report).
#[pyfunction]
#[pyo3(signature = (reference, random_per_task, random_per_task_2b, num_threads))]
fn parity(
    py: Python<'_>,
    reference: Option<String>,
    random_per_task: u32,
    random_per_task_2b: u32,
    num_threads: Option<i64>,
) -> PyResult<(String, String)> {
    let cfg = config(num_threads, None, false)?;
    let text = match reference {
        Some(t) => t,
        None => studies::parity::builtin_reference().map_err(failed)?,
    };
    // Reject a malformed table as bad input before any simulation.
    studies::parity::parse_reference(&text).map_err(|e| PyValueError::new_err(format!("{e:#}")))?;
    let params = studies::parity::Params {
        random_per_task,
        random_per_task_2b,
    };
    let report = py
        .allow_threads(|| studies::parity::run(TaskSet::builtin(), &text, params, &cfg))
        .map_err(|e| PyValueError::new_err(format!("{e:#}")))?;
    let summary = serde_json::to_string(&report.summary())
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    Ok((summary, report.to_markdown()))
}

/// Add the studies' functions to the extension module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solvability, m)?)?;
    m.add_function(wrap_pyfunction!(diversity, m)?)?;
    m.add_function(wrap_pyfunction!(parity, m)?)?;
    m.add_function(wrap_pyfunction!(merge, m)?)?;
    Ok(())
}
