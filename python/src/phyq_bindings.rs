//! Phy-Q in the extension module (`rephyre.phyq` wraps it): thin PyO3 wrappers over
//! [`crate::phyq_core`]. A task is a `PhyqTask` (a built-in one by id, or a level-set file's);
//! functions that take a task also take a built-in id. Bad input is a one-line `ValueError`
//! before any work; simulations run with the GIL released.

use std::path::PathBuf;
use std::sync::Arc;

use numpy::{PyArray1, PyArrayMethods};
use phyq::game::PixelShot;
use phyq::levelset::Entry;
use phyq::picture::{HEIGHT, WIDTH};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};

use crate::phyq_core::{self as core, Session};

fn bad(message: impl Into<String>) -> PyErr {
    PyValueError::new_err(message.into())
}

/// A Phy-Q task: its id, where it came from, and its level.
#[pyclass(frozen, name = "PhyqTask", module = "rephyre._native")]
struct PyTask {
    entry: Arc<Entry>,
}

#[pymethods]
impl PyTask {
    /// The id (`phyq:L_C_K:NNNNN`, or `phyq:NAME` for an imported level not so named).
    #[getter]
    fn id(&self) -> String {
        self.entry.id.to_string()
    }

    /// Where the level came from (the generator's draw, or the imported file).
    #[getter]
    fn source(&self) -> &str {
        &self.entry.source
    }

    /// The birds in launch order (`BirdRed`, `BirdBlue`, …).
    #[getter]
    fn birds(&self) -> Vec<&'static str> {
        self.entry.level.birds.iter().map(|b| b.name()).collect()
    }

    /// The template's code (`1_1_4`) when the id names one, else None.
    #[getter]
    fn template(&self) -> Option<String> {
        phyq::generator::template_of(&self.entry.id).map(|t| t.code.clone())
    }

    fn __repr__(&self) -> String {
        format!("PhyqTask('{}')", self.entry.id)
    }
}

/// The task an argument names: a `PhyqTask`, or the id of a built-in one.
fn entry_of(task: &Bound<'_, PyAny>) -> PyResult<Arc<Entry>> {
    if let Ok(t) = task.downcast::<PyTask>() {
        return Ok(t.get().entry.clone());
    }
    if task.is_instance_of::<PyString>() {
        let id: String = task.extract()?;
        return core::builtin(&id).map_err(bad);
    }
    Err(PyTypeError::new_err(format!(
        "a Phy-Q task is a task id (str) or a PhyqTask, not {}",
        task.get_type().name()?
    )))
}

/// Shots as `--shots` text (`"x,y,tap;…"`) or as rows of three numbers.
fn shots_of(shots: &Bound<'_, PyAny>) -> PyResult<Vec<PixelShot>> {
    if shots.is_instance_of::<PyString>() {
        let text: String = shots.extract()?;
        return phyq::game::parse_shots(&text).map_err(|e| bad(e.to_string()));
    }
    let rows_iter = shots
        .try_iter()
        .map_err(|_| bad("shots must be a list of (x, y, tap) or the text \"x,y,tap;x,y,tap…\""))?;
    let mut rows = Vec::new();
    for (index, row) in rows_iter.enumerate() {
        if index > phyq::game::MAX_SHOTS {
            break; // parse_shots says "more than … shots"
        }
        let row = row?;
        let fields = match row.try_iter() {
            Ok(f) if !row.is_instance_of::<PyString>() => f,
            _ => {
                return Err(bad(format!(
                    "shot {index}: expected 3 numbers x,y,tap, got {}",
                    row.get_type().name()?
                )))
            }
        };
        let mut numbers = Vec::with_capacity(3);
        for (k, field) in fields.enumerate() {
            let field = field?;
            let what = ["x", "y", "tap"].get(k).copied().unwrap_or("number");
            let value: f64 = field.extract().map_err(|_| {
                let text: String = field
                    .repr()
                    .map(|r| r.to_string())
                    .unwrap_or_default()
                    .chars()
                    .take(40)
                    .collect();
                bad(format!("shot {index}: {what} {text} is not a number"))
            })?;
            numbers.push(value);
        }
        rows.push(numbers);
    }
    core::shots_from_rows(&rows).map_err(|e| bad(e.to_string()))
}

fn picture_array<'py>(py: Python<'py>, pixels: Vec<u8>) -> PyResult<Bound<'py, PyAny>> {
    Ok(PyArray1::from_vec(py, pixels)
        .reshape([HEIGHT, WIDTH])?
        .into_any())
}

/// Ids of the built-in `phyq` tier (or of one template's tasks), sorted.
#[pyfunction]
#[pyo3(signature = (template=None))]
fn phyq_task_ids(template: Option<&str>) -> PyResult<Vec<String>> {
    core::task_ids(template).map_err(bad)
}

/// The 75 templates in the paper's order: (scenario, scenario name, paper number, code, role,
/// strategy).
#[pyfunction]
fn phyq_templates() -> Vec<(u8, String, String, String, &'static str, String)> {
    phyq::templates::templates()
        .iter()
        .map(|t| {
            let role = match t.role {
                phyq::templates::Role::Train => "train",
                phyq::templates::Role::Test => "test",
            };
            (
                t.scenario,
                t.scenario_name.clone(),
                t.paper.clone(),
                t.code.clone(),
                role,
                t.strategy.clone(),
            )
        })
        .collect()
}

/// A task: a built-in id, or a `PhyqTask` (returned as is).
#[pyfunction]
fn phyq_task(task: &Bound<'_, PyAny>) -> PyResult<PyTask> {
    Ok(PyTask {
        entry: entry_of(task)?,
    })
}

/// The tasks of a level-set file, sorted by id.
#[pyfunction]
fn phyq_load(py: Python<'_>, path: PathBuf) -> PyResult<Vec<PyTask>> {
    let entries = py.allow_threads(|| core::load(&path)).map_err(bad)?;
    Ok(entries.into_iter().map(|entry| PyTask { entry }).collect())
}

/// Shots played on a task as `rephyre simulate ID --shots …` plays them: (status, pigs left,
/// shots taken, steps, final hash (hex), final picture or None, final symbolic JSON or None).
#[pyfunction]
#[pyo3(signature = (task, shots, picture, symbolic))]
fn phyq_simulate<'py>(
    py: Python<'py>,
    task: &Bound<'py, PyAny>,
    shots: &Bound<'py, PyAny>,
    picture: bool,
    symbolic: bool,
) -> PyResult<Bound<'py, PyTuple>> {
    let entry = entry_of(task)?;
    let shots = shots_of(shots)?;
    let (outcome, pixels, json) = py
        .allow_threads(|| {
            let (outcome, game) = core::simulate(&entry, &shots)?;
            let pixels = picture.then(|| core::picture(&game, &entry));
            let json = symbolic.then(|| core::symbolic(&game, &entry));
            Ok::<_, String>((outcome, pixels, json))
        })
        .map_err(bad)?;
    let pixels = match pixels {
        Some(p) => picture_array(py, p)?,
        None => py.None().into_bound(py),
    };
    let elements: [Bound<'py, PyAny>; 7] = [
        core::status_name(outcome.status)
            .into_pyobject(py)?
            .into_any(),
        outcome.pigs_left.into_pyobject(py)?.into_any(),
        outcome.shots.into_pyobject(py)?.into_any(),
        outcome.steps.into_pyobject(py)?.into_any(),
        core::hash_hex(outcome.final_hash)
            .into_pyobject(py)?
            .into_any(),
        pixels,
        json.into_pyobject(py)?.into_any(),
    ];
    PyTuple::new(py, elements)
}

/// The level as written, before any step: (picture, symbolic JSON), as `rephyre render ID` and
/// `rephyre tasks show ID --json` give them.
#[pyfunction]
fn phyq_observe<'py>(
    py: Python<'py>,
    task: &Bound<'py, PyAny>,
) -> PyResult<(Bound<'py, PyAny>, String)> {
    let entry = entry_of(task)?;
    let (pixels, json) = py.allow_threads(|| core::observe(&entry));
    Ok((picture_array(py, pixels)?, json))
}

/// The palette of the colour codes: 256 × 3 uint8 (`RRRGGGBB` decoded).
#[pyfunction]
fn phyq_palette(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    let flat: Vec<u8> = phyq::colours::palette().into_iter().flatten().collect();
    Ok(PyArray1::from_vec(py, flat).reshape([256, 3])?.into_any())
}

/// A Phy-Q task in play, one bird at a time (`rephyre.phyq.Game`): `Game(task)` runs the
/// level's 2 s opening; `shoot(x, y, tap=0.0)` shoots the next bird and runs the world until it
/// is at rest, every pig is destroyed, or 60 s have passed. `status` is "playing", "passed" or
/// "not_passed"; `pigs_left`, `birds_left`, `shots`, `steps`, `state_hash` (hex: after the same
/// shots, `simulate`'s `final_hash`), `picture()` and `symbolic()` (JSON text) say where it
/// stands. A malformed shot, or one on a finished game, raises ValueError and changes nothing.
#[pyclass(name = "PhyqGame", module = "rephyre._native")]
struct PyGame {
    session: Session,
}

#[pymethods]
impl PyGame {
    /// The task's game after its 2 s opening, before the first shot.
    #[new]
    fn new(py: Python<'_>, task: &Bound<'_, PyAny>) -> PyResult<PyGame> {
        let entry = entry_of(task)?;
        let session = py.allow_threads(|| Session::new(entry)).map_err(bad)?;
        Ok(PyGame { session })
    }

    /// Shoots the next bird (`x`, `y`: release point from the slingshot in pixels, y up;
    /// `tap`: seconds after the launch, 0 for none) and runs the world to rest.
    #[pyo3(signature = (x, y, tap=0.0))]
    fn shoot(&mut self, py: Python<'_>, x: f64, y: f64, tap: f64) -> PyResult<()> {
        let shot = self.session.check(x, y, tap).map_err(bad)?;
        let session = &mut self.session;
        py.allow_threads(|| session.shoot(shot)).map_err(bad)
    }

    #[getter]
    fn task_id(&self) -> String {
        self.session.entry().id.to_string()
    }

    /// "playing", "passed" or "not_passed".
    #[getter]
    fn status(&self) -> &'static str {
        self.session.status().name()
    }

    #[getter]
    fn pigs_left(&self) -> u32 {
        self.session.game().pigs_left()
    }

    #[getter]
    fn birds_left(&self) -> usize {
        self.session.game().birds_left()
    }

    /// Shots taken.
    #[getter]
    fn shots(&self) -> u32 {
        self.session.shots()
    }

    /// Physics steps run so far (the opening's 100 included).
    #[getter]
    fn steps(&self) -> u32 {
        self.session.game().steps()
    }

    /// Science Birds' score so far (pigs 5,000, blocks 500, a bird's damaging hit, 10,000 for
    /// each bird left once the level has ended), as `simulate`'s `score` after the same shots.
    #[getter]
    fn score(&self) -> u32 {
        self.session.game().score()
    }

    /// The state's hash (hex), as `simulate`'s `final_hash` after the same shots.
    #[getter]
    fn state_hash(&self) -> String {
        core::hash_hex(self.session.game().state_hash())
    }

    /// The picture now: 480 × 640 uint8 colour codes, row 0 at the top.
    fn picture<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let session = &self.session;
        let pixels = py.allow_threads(|| session.picture());
        picture_array(py, pixels)
    }

    /// The symbolic representation now (JSON text).
    fn symbolic(&self, py: Python<'_>) -> String {
        let session = &self.session;
        py.allow_threads(|| session.symbolic())
    }

    fn __repr__(&self) -> String {
        format!(
            "PhyqGame('{}', status='{}', shots={}, pigs_left={}, birds_left={})",
            self.task_id(),
            self.status(),
            self.shots(),
            self.pigs_left(),
            self.birds_left()
        )
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyTask>()?;
    m.add_class::<PyGame>()?;
    m.add_function(wrap_pyfunction!(phyq_task_ids, m)?)?;
    m.add_function(wrap_pyfunction!(phyq_templates, m)?)?;
    m.add_function(wrap_pyfunction!(phyq_task, m)?)?;
    m.add_function(wrap_pyfunction!(phyq_load, m)?)?;
    m.add_function(wrap_pyfunction!(phyq_simulate, m)?)?;
    m.add_function(wrap_pyfunction!(phyq_observe, m)?)?;
    m.add_function(wrap_pyfunction!(phyq_palette, m)?)?;
    Ok(())
}
