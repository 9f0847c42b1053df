//! Templates, first version: a template is a parameter grid plus a function from one grid point
//! to a scene; building it yields a deterministic, stable list of tasks.
//!
//! ```
//! use tasks::geometry::{ball, bar};
//! use tasks::template::{Scene, Template};
//! use tasks::{BodyKind::{Dynamic, Static}, Tier};
//!
//! let tasks = Template::new(50_900, Tier::Ball, "Make sure the green ball touches the floor.")
//!     .axis("x", &[64.0, 128.0, 192.0])
//!     .axis("height", &[100.0, 150.0])
//!     .build(|p| {
//!         let mut s = Scene::new();
//!         let green = s.add(ball(0.1)?, p["x"], p["height"], 0.0, Dynamic)?;
//!         let floor = s.add(bar(1.0)?, 128.0, 2.56, 0.0, Static)?;
//!         s.goal(green, floor);
//!         Ok(Some(s))
//!     })
//!     .unwrap();
//! assert_eq!(tasks.len(), 6);
//! assert_eq!(tasks[0].id().to_string(), "50900:000");
//! ```
//!
//! Order: grid points are visited with the first axis outermost and each axis's values in the
//! order given; tasks are numbered 0, 1, 2, … in that order, skipping the points whose scene
//! function returns `None` (e.g. a combination that would overlap). The same definition
//! therefore always gives the same ids for the same scenes.
#![allow(clippy::float_arithmetic)]

use core::fmt;
use core::ops::Index;

use engine::BodyKind;

use crate::geometry::{self, ShapeError, ShapeParts};
use crate::id::{TaskId, MAX_INDEX};
use crate::model::{Relation, SceneBody, Task, TaskError, TaskGoal, Tier};

/// Why a template could not be built.
#[derive(Clone, Debug, PartialEq)]
pub enum TemplateError {
    /// The template number does not fit the 5-digit id.
    BadNumber(u32),
    /// Two axes with the same name, or an axis without values.
    BadAxis(String),
    /// More than 1,000 tasks (the 3-digit index).
    TooManyTasks,
    /// A shape could not be made (bad scale, position or angle).
    Shape(ShapeError),
    /// The scene function built a scene without a goal.
    NoGoal { point: Vec<f64> },
    /// A scene breaks a task invariant.
    Task { point: Vec<f64>, error: TaskError },
}

impl fmt::Display for TemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TemplateError::BadNumber(n) => write!(f, "template number {n} has more than 5 digits"),
            TemplateError::BadAxis(a) => write!(f, "axis {a:?} is duplicated or has no values"),
            TemplateError::TooManyTasks => {
                write!(f, "template yields more than {} tasks", MAX_INDEX + 1)
            }
            TemplateError::Shape(e) => write!(f, "{e}"),
            TemplateError::NoGoal { point } => write!(f, "scene at {point:?} has no goal"),
            TemplateError::Task { point, error } => write!(f, "scene at {point:?}: {error}"),
        }
    }
}

impl std::error::Error for TemplateError {}

impl From<ShapeError> for TemplateError {
    fn from(e: ShapeError) -> TemplateError {
        TemplateError::Shape(e)
    }
}

/// A template definition: number, tier, description and parameter grid.
#[derive(Clone, Debug, PartialEq)]
pub struct Template {
    number: u32,
    tier: Tier,
    description: String,
    axes: Vec<(String, Vec<f64>)>,
}

/// One grid point: a value per axis, looked up by name (`p["x"]`).
#[derive(Clone, Debug)]
pub struct Params<'a> {
    names: &'a [(String, Vec<f64>)],
    values: Vec<f64>,
}

impl Params<'_> {
    /// The value of axis `name`, if the template has it.
    pub fn get(&self, name: &str) -> Option<f64> {
        self.names
            .iter()
            .position(|(n, _)| n == name)
            .map(|i| self.values[i])
    }

    /// The values in axis order.
    pub fn values(&self) -> &[f64] {
        &self.values
    }
}

impl Index<&str> for Params<'_> {
    type Output = f64;

    /// # Panics
    /// When the template has no axis `name` (a mistake in the template's code).
    fn index(&self, name: &str) -> &f64 {
        let i = self
            .names
            .iter()
            .position(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("template has no axis {name:?}"));
        &self.values[i]
    }
}

impl Template {
    /// A template with no axes yet (one grid point); its tasks get ids `number:000`, … .
    pub fn new(number: u32, tier: Tier, description: impl Into<String>) -> Template {
        Template {
            number,
            tier,
            description: description.into(),
            axes: Vec::new(),
        }
    }

    /// Add a parameter axis (its values are visited in this order).
    pub fn axis(mut self, name: &str, values: &[f64]) -> Template {
        self.axes.push((name.to_owned(), values.to_vec()));
        self
    }

    /// Number of grid points.
    pub fn grid_size(&self) -> usize {
        self.axes.iter().map(|(_, v)| v.len()).product()
    }

    /// Build the tasks: `scene` is called for every grid point and returns the scene, or `None`
    /// to skip the point.
    pub fn build<F>(&self, scene: F) -> Result<Vec<Task>, TemplateError>
    where
        F: Fn(&Params) -> Result<Option<Scene>, TemplateError>,
    {
        if TaskId::new(self.number, 0).is_none() {
            return Err(TemplateError::BadNumber(self.number));
        }
        for (i, (name, values)) in self.axes.iter().enumerate() {
            if values.is_empty() || self.axes[..i].iter().any(|(n, _)| n == name) {
                return Err(TemplateError::BadAxis(name.clone()));
            }
        }
        let mut tasks = Vec::new();
        let mut counter = vec![0usize; self.axes.len()];
        'grid: loop {
            let params = Params {
                names: &self.axes,
                values: counter
                    .iter()
                    .zip(&self.axes)
                    .map(|(&k, (_, v))| v[k])
                    .collect(),
            };
            if let Some(s) = scene(&params)? {
                let id = TaskId::new(self.number, tasks.len() as u32)
                    .ok_or(TemplateError::TooManyTasks)?;
                let point = params.values.clone();
                let (body1, body2) = s.goal.ok_or(TemplateError::NoGoal {
                    point: point.clone(),
                })?;
                let goal = TaskGoal {
                    body1,
                    relation: Relation::Touching,
                    body2,
                };
                let task = Task::new(id, self.tier, self.description.clone(), s.bodies, goal)
                    .map_err(|error| TemplateError::Task { point, error })?;
                tasks.push(task);
            }
            // Odometer increment, last axis fastest.
            for i in (0..counter.len()).rev() {
                counter[i] += 1;
                if counter[i] < self.axes[i].1.len() {
                    continue 'grid;
                }
                counter[i] = 0;
            }
            break;
        }
        Ok(tasks)
    }
}

/// A scene under construction: starts with the four walls (bodies 0–3, as in the original's
/// tasks); objects are added in order and referred to by the index each method returns.
/// Positions are the body origin in px (a jar's origin is the centre of its base plate).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scene {
    bodies: Vec<SceneBody>,
    goal: Option<(usize, usize)>,
}

impl Default for Scene {
    fn default() -> Scene {
        Scene::new()
    }
}

impl Scene {
    /// A scene holding only the four walls.
    pub fn new() -> Scene {
        Scene {
            bodies: geometry::walls(),
            goal: None,
        }
    }

    fn push(&mut self, body: SceneBody) -> usize {
        self.bodies.push(body);
        self.bodies.len() - 1
    }

    /// Add `shape` (one of [`geometry`]'s: ball, bar, jar, standing sticks) with its origin at
    /// (x, y) px, rotated by `angle` rad; returns the new body's index.
    pub fn add(
        &mut self,
        shape: ShapeParts,
        x: f64,
        y: f64,
        angle: f64,
        kind: BodyKind,
    ) -> Result<usize, TemplateError> {
        Ok(self.push(geometry::place(shape, x, y, angle, kind)?))
    }

    /// The goal: `body1` (dynamic) touches `body2`.
    pub fn goal(&mut self, body1: usize, body2: usize) {
        self.goal = Some((body1, body2));
    }

    /// The bodies so far.
    pub fn bodies(&self) -> &[SceneBody] {
        &self.bodies
    }
}

/// rephyre's own templates (numbers from 50000 on, clear of the original's).
pub mod examples {
    use super::*;
    use crate::geometry::{ball, bar, jar, standing_sticks};
    use BodyKind::{Dynamic, Static};

    /// Template 50000 (ball tier): a green ball rests on a black ledge; make it touch the
    /// purple floor. Grid: ledge centre x and height, ledge length, ball size, and where on the
    /// ledge the ball rests (3 × 3 × 2 × 2 × 3 = 108 points).
    pub fn ball_off_ledge() -> Result<Vec<Task>, TemplateError> {
        Template::new(
            50_000,
            Tier::Ball,
            "Make sure the green ball touches the purple floor.",
        )
        .axis("ledge_x", &[64.0, 128.0, 192.0])
        .axis("ledge_y", &[80.0, 120.0, 160.0])
        .axis("ledge_scale", &[0.3, 0.4])
        .axis("ball_scale", &[0.08, 0.12])
        .axis("ball_at", &[-0.25, 0.0, 0.25])
        .build(|p| {
            let mut s = Scene::new();
            let half = 128.0 * p["ledge_scale"];
            let r = (128.0 * p["ball_scale"]).trunc() + 0.5;
            let floor = s.add(bar(1.0)?, 128.0, 2.56, 0.0, Static)?;
            s.add(
                bar(p["ledge_scale"])?,
                p["ledge_x"],
                p["ledge_y"],
                0.0,
                Static,
            )?;
            let ball_x = p["ledge_x"] + p["ball_at"] * 2.0 * half;
            let ball_y = p["ledge_y"] + 2.56 + r;
            let green = s.add(ball(p["ball_scale"])?, ball_x, ball_y, 0.0, Dynamic)?;
            s.goal(green, floor);
            Ok(Some(s))
        })
    }

    /// Template 50100 (two-balls tier): a green ball rests on a ledge above a black jar that
    /// holds a blue ball; make the two balls touch. Grid: ledge height, which side the ledge
    /// is on, jar scale and its distance from the ledge (3 × 2 × 2 × 4 = 48 points, of which
    /// the 12 where the jar would overlap the gray standing sticks on the far side are
    /// skipped: 36 tasks).
    pub fn ball_into_jar() -> Result<Vec<Task>, TemplateError> {
        Template::new(
            50_100,
            Tier::TwoBalls,
            "Make sure the green ball touches the blue ball.",
        )
        .axis("ledge_y", &[110.0, 150.0, 190.0])
        .axis("side", &[-1.0, 1.0])
        .axis("jar_scale", &[0.3, 0.4])
        .axis("jar_offset", &[50.0, 70.0, 90.0, 130.0])
        .build(|p| {
            let mut s = Scene::new();
            let side = p["side"];
            let ledge_x = 128.0 - side * 70.0;
            s.add(bar(0.3)?, ledge_x, p["ledge_y"], 0.0, Static)?;
            let green = s.add(
                ball(0.08)?,
                ledge_x,
                p["ledge_y"] + 2.56 + 10.5,
                0.0,
                Dynamic,
            )?;
            let (_, _, _, t) = geometry::jar_dimensions(p["jar_scale"]);
            let jar_x = ledge_x + side * p["jar_offset"];
            s.add(jar(p["jar_scale"])?, jar_x, t / 2.0, 0.0, Static)?;
            let blue = s.add(ball(0.06)?, jar_x, t + 8.5, 0.0, Dynamic)?;
            let sticks_x = 128.0 + side * 100.0;
            if (sticks_x - jar_x).abs() < 60.0 {
                return Ok(None); // the sticks would overlap the jar
            }
            s.add(standing_sticks(0.15)?, sticks_x, 12.7, 0.0, Dynamic)?;
            s.goal(green, blue);
            Ok(Some(s))
        })
    }

    /// Both example templates' tasks, sorted by id.
    pub fn all() -> Result<Vec<Task>, TemplateError> {
        let mut v = ball_off_ledge()?;
        v.extend(ball_into_jar()?);
        Ok(v)
    }
}
