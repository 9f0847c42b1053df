//! The extension module `rephyre._native`: thin PyO3 wrappers over [`crate::core`]. Bad input
//! is answered with `ValueError` / `IndexError` before any work; the simulations run with the
//! GIL released.

use numpy::ndarray::{Array2, ArrayView2};
use numpy::{IntoPyArray, PyArray1, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use tasks::{Task, Tier};

use crate::core::{self, Request, FEATURES};

fn tier(name: &str) -> PyResult<Tier> {
    core::parse_tier(name).map_err(PyValueError::new_err)
}

fn tasks() -> &'static [Task] {
    core::builtin().tasks()
}

fn task(index: usize) -> PyResult<&'static Task> {
    tasks().get(index).ok_or_else(|| {
        PyIndexError::new_err(format!(
            "task index {index} is out of range ({} built-in tasks)",
            tasks().len()
        ))
    })
}

fn unknown_task(id: &str, why: &tasks::LookupError) -> PyErr {
    let short: String = id.chars().take(64).collect();
    PyValueError::new_err(format!(
        "unknown task id {short:?} ({why}; the built-in tasks are the 5,000 PHYRE-B and \
         PHYRE-2B tasks, templates 00000-00024 and 00100-00124)"
    ))
}

/// Checks shared by every action: length and finiteness (range is a status, not an error).
fn check_action(tier: Tier, action: &[f64]) -> PyResult<()> {
    if action.len() != tier.action_len() {
        return Err(PyValueError::new_err(format!(
            "an action of tier '{tier}' has {} numbers, got {}",
            tier.action_len(),
            action.len()
        )));
    }
    if let Some(k) = action.iter().position(|a| !a.is_finite()) {
        return Err(PyValueError::new_err(format!(
            "action component {k} is {} (actions must be finite numbers)",
            action[k]
        )));
    }
    Ok(())
}

/// Ids of the built-in tasks, sorted (`TTTTT:III`).
#[pyfunction]
fn all_task_ids() -> Vec<String> {
    tasks().iter().map(|t| t.id().to_string()).collect()
}

/// Index in the built-in set of each id; `ValueError` naming the first unknown one.
#[pyfunction]
fn task_indices(ids: Vec<String>) -> PyResult<Vec<usize>> {
    let set = core::builtin();
    ids.iter()
        .map(|id| {
            let t = set.lookup(id).map_err(|e| unknown_task(id, &e))?;
            // The built-in tasks are sorted by id.
            set.tasks()
                .binary_search_by_key(&t.id(), |x| x.id())
                .map_err(|_| PyValueError::new_err(format!("task {id:?} is not indexed")))
        })
        .collect()
}

/// (train, dev, test) task ids of fold `fold` of `setup`.
#[pyfunction]
fn get_fold(setup: &str, fold: i64) -> PyResult<(Vec<String>, Vec<String>, Vec<String>)> {
    let s: tasks::Setup = setup
        .parse()
        .map_err(|e: tasks::folds::FoldError| PyValueError::new_err(e.to_string()))?;
    let fold = u32::try_from(fold).map_err(|_| {
        PyValueError::new_err(format!("fold {fold} does not exist (folds are 0 to 9)"))
    })?;
    let split = tasks::folds::split(s, fold).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let names = |v: Vec<tasks::TaskId>| v.iter().map(|id| id.to_string()).collect();
    Ok((names(split.train), names(split.dev), names(split.test)))
}

/// The action tier of an evaluation setup.
#[pyfunction]
fn setup_tier(setup: &str) -> PyResult<&'static str> {
    let s: tasks::Setup = setup
        .parse()
        .map_err(|e: tasks::folds::FoldError| PyValueError::new_err(e.to_string()))?;
    Ok(s.tier().name())
}

/// Goal of each task: (body1, relation, body2) rows, body indices into the scene bodies (walls
/// included, as in the original file); relation 5 = TOUCHING.
#[pyfunction]
fn goals<'py>(py: Python<'py>, indices: Vec<usize>) -> PyResult<Bound<'py, PyAny>> {
    let mut rows = Vec::with_capacity(indices.len() * 3);
    for &i in &indices {
        let g = task(i)?.goal();
        rows.extend([g.body1 as i64, 5, g.body2 as i64]);
    }
    Ok(PyArray1::from_vec(py, rows)
        .reshape([indices.len(), 3])?
        .into_any())
}

/// Observations (N × 256 × 256 uint8, row 0 = bottom) and object features (a list of
/// 1 × objects × 14 float32 arrays) of the tasks' scenes before any action.
#[pyfunction]
fn initial_scenes<'py>(
    py: Python<'py>,
    indices: Vec<usize>,
) -> PyResult<(Bound<'py, PyAny>, Vec<Bound<'py, PyAny>>)> {
    let chosen: Vec<&Task> = indices.iter().map(|&i| task(i)).collect::<PyResult<_>>()?;
    let scenes = py.allow_threads(|| {
        chosen
            .iter()
            .map(|t| core::initial_scene(t))
            .collect::<Result<Vec<_>, String>>()
    });
    let scenes = scenes.map_err(PyValueError::new_err)?;
    let mut images = Vec::with_capacity(scenes.len() * core::PIXELS);
    let mut features = Vec::with_capacity(scenes.len());
    for (img, f, n) in scenes {
        images.extend_from_slice(&img);
        features.push(
            PyArray1::from_vec(py, f)
                .reshape([1, n, FEATURES])?
                .into_any(),
        );
    }
    let images = PyArray1::from_vec(py, images)
        .reshape([indices.len(), 256, 256])?
        .into_any();
    Ok((images, features))
}

/// Whether an action lies in the action space (components in [0, 1], balls inside the scene
/// and apart): the original's `valid_only` sampling rule, which ignores the scene's bodies.
#[pyfunction]
fn in_action_space(tier_name: &str, action: PyReadonlyArray1<'_, f64>) -> PyResult<bool> {
    let t = tier(tier_name)?;
    let a = action.as_array().to_vec();
    Ok(tasks::check_action_space(t, &a).is_ok())
}

/// One action on one task: (status, images or None, features or None, solved step or None).
#[pyfunction]
#[pyo3(signature = (task_index, tier_name, action, need_images, need_featurized_objects, stride, stable))]
#[allow(clippy::too_many_arguments)]
fn simulate<'py>(
    py: Python<'py>,
    task_index: i64,
    tier_name: &str,
    action: PyReadonlyArray1<'py, f64>,
    need_images: bool,
    need_featurized_objects: bool,
    stride: i64,
    stable: bool,
) -> PyResult<Bound<'py, PyTuple>> {
    let t = tier(tier_name)?;
    let index = usize::try_from(task_index)
        .map_err(|_| PyIndexError::new_err(format!("task index {task_index} is negative")))?;
    let task = task(index)?;
    let view = action.as_array();
    let owned;
    let a: &[f64] = match view.as_slice() {
        Some(s) => s,
        None => {
            owned = view.to_vec();
            &owned
        }
    };
    check_action(t, a)?;
    if !(1..=i64::from(u32::MAX)).contains(&stride) {
        return Err(PyValueError::new_err(format!(
            "stride must be a positive number of steps, got {stride}"
        )));
    }
    let req = Request {
        images: need_images,
        features: need_featurized_objects,
        stride: stride as u32,
        stable,
    };
    let r = py.allow_threads(|| core::rollout(task, t, a, req));
    let valid = r.status != core::code::INVALID_INPUT;
    let images = if need_images && valid {
        PyArray1::from_vec(py, r.images)
            .reshape([r.frames, 256, 256])?
            .into_any()
    } else {
        py.None().into_bound(py)
    };
    let features = if need_featurized_objects && valid {
        PyArray1::from_vec(py, r.features)
            .reshape([r.frames, r.objects, FEATURES])?
            .into_any()
    } else {
        py.None().into_bound(py)
    };
    let elements: [Bound<'py, PyAny>; 4] = [
        r.status.into_pyobject(py)?.into_any(),
        images,
        features,
        r.solved_step.into_pyobject(py)?.into_any(),
    ];
    PyTuple::new(py, elements)
}

/// Statuses of many (task, action) pairs in parallel: (statuses int8[n], solved steps
/// int32[n], −1 where not solved).
#[pyfunction]
#[pyo3(signature = (task_indices, tier_name, actions, stable, num_threads))]
fn simulate_batch<'py>(
    py: Python<'py>,
    task_indices: PyReadonlyArray1<'py, i64>,
    tier_name: &str,
    actions: PyReadonlyArray2<'py, f64>,
    stable: bool,
    num_threads: Option<i64>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let t = tier(tier_name)?;
    let n = tasks().len();
    let indices: Vec<usize> = task_indices
        .as_array()
        .iter()
        .enumerate()
        .map(|(k, &i)| {
            usize::try_from(i).ok().filter(|&i| i < n).ok_or_else(|| {
                PyIndexError::new_err(format!(
                    "task index {i} at position {k} is out of range ({n} tasks)"
                ))
            })
        })
        .collect::<PyResult<_>>()?;
    let view: ArrayView2<'_, f64> = actions.as_array();
    if view.nrows() != indices.len() {
        return Err(PyValueError::new_err(format!(
            "{} task indices but {} actions",
            indices.len(),
            view.nrows()
        )));
    }
    if view.ncols() != t.action_len() {
        return Err(PyValueError::new_err(format!(
            "an action of tier '{t}' has {} numbers, got rows of {}",
            t.action_len(),
            view.ncols()
        )));
    }
    let flat: Vec<f64> = view.iter().copied().collect();
    if let Some(k) = flat.iter().position(|a| !a.is_finite()) {
        return Err(PyValueError::new_err(format!(
            "action {} component {} is {} (actions must be finite numbers)",
            k / t.action_len(),
            k % t.action_len(),
            flat[k]
        )));
    }
    let threads = match num_threads {
        None => None,
        Some(k) if k >= 1 => Some(k as usize),
        Some(k) => {
            return Err(PyValueError::new_err(format!(
                "num_threads must be at least 1, got {k}"
            )))
        }
    };
    let out = py
        .allow_threads(|| core::batch(tasks(), &indices, t, &flat, stable, threads))
        .map_err(PyValueError::new_err)?;
    let statuses: Vec<i8> = out.iter().map(|r| r.0).collect();
    let steps: Vec<i32> = out.iter().map(|r| r.1.map_or(-1, |s| s as i32)).collect();
    Ok((
        statuses.into_pyarray(py).into_any(),
        steps.into_pyarray(py).into_any(),
    ))
}

/// Status codes the Rust library gives, one by one and without the batch machinery (tests use
/// it to check the Python API against the library).
#[pyfunction]
fn reference_statuses(
    task_ids: Vec<String>,
    tier_name: &str,
    actions: PyReadonlyArray2<'_, f64>,
) -> PyResult<Vec<i8>> {
    let t = tier(tier_name)?;
    let view = actions.as_array();
    if view.nrows() != task_ids.len() {
        return Err(PyValueError::new_err("one action per task id expected"));
    }
    let rows: Array2<f64> = view.to_owned();
    let set = core::builtin();
    task_ids
        .iter()
        .zip(rows.rows())
        .map(|(id, a)| {
            let task = set.lookup(id).map_err(|e| unknown_task(id, &e))?;
            Ok(tasks::status(task, t, &a.to_vec()).phyre_code())
        })
        .collect()
}

/// Draw the `index`-th and following actions of rephyre's counter-based stream (seed, stream)
/// until one lies in the action space: (action, next index).
#[pyfunction]
fn sample_action<'py>(
    py: Python<'py>,
    tier_name: &str,
    seed: u64,
    stream: u64,
    index: u64,
) -> PyResult<(Bound<'py, PyAny>, u64)> {
    let t = tier(tier_name)?;
    let mut i = index;
    let a = tasks::sample_action(t, seed, stream, &mut i);
    Ok((a.into_pyarray(py).into_any(), i))
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(all_task_ids, m)?)?;
    m.add_function(wrap_pyfunction!(task_indices, m)?)?;
    m.add_function(wrap_pyfunction!(get_fold, m)?)?;
    m.add_function(wrap_pyfunction!(setup_tier, m)?)?;
    m.add_function(wrap_pyfunction!(goals, m)?)?;
    m.add_function(wrap_pyfunction!(initial_scenes, m)?)?;
    m.add_function(wrap_pyfunction!(in_action_space, m)?)?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(simulate_batch, m)?)?;
    m.add_function(wrap_pyfunction!(reference_statuses, m)?)?;
    m.add_function(wrap_pyfunction!(sample_action, m)?)?;
    crate::studies_bindings::register(m)?;
    crate::phyq_bindings::register(m)?;
    Ok(())
}
