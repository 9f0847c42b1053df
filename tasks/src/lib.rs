//! rephyre's PHYRE tasks.
//!
//! * the task model ([`Task`], [`TaskId`], [`Tier`], scene bodies in px as Q32.32) and its
//!   conversion to an engine world ([`Task::build_world`] → [`SimulationSetup`]: the world, the
//!   goal, per-body colours and object descriptors);
//! * the importer of the original `tasks.bin.lzma` ([`import`]) and rephyre's own versioned
//!   task-file format ([`store`], schema in `FORMAT.md`);
//! * the built-in 5,000 PHYRE-B/2B tasks, embedded in the crate ([`TaskSet::builtin`]);
//! * action validity and quantization ([`validate_action`]) and the stable-solution
//!   neighbourhood ([`stable_neighbours`]);
//! * an action's [`Status`] ([`status`]) and the stable-solution procedure ([`stability`]);
//! * the evaluation folds ([`folds::split`]);
//! * templates defined in Rust ([`template`]);
//! * simulating a validated action ([`outcome::simulate`]) and the shared counter-based random
//!   numbers for action sampling ([`rng`]);
//! * the witness file: one stable solution per built-in task, found by rephyre's search
//!   ([`witnesses`]).
//!
//! Floats enter rephyre here, at a few named boundaries (the importer, action validation,
//! template geometry), and are converted to Q32.32 once; everything else is integer or
//! fixed-point arithmetic.
#![deny(clippy::float_arithmetic)]

pub mod action;
pub mod checksum;
pub mod describe;
pub mod folds;
pub mod geometry;
pub mod id;
pub mod import;
mod import_error;
mod load;
pub mod model;
pub mod outcome;
pub mod rng;
pub mod simulation;
pub mod status;
pub mod store;
pub mod taskset;
pub mod template;
mod thrift;
pub mod witnesses;

pub use action::{
    check_action_space, check_occlusion, sample_action, stable_neighbours, validate_action,
    InvalidAction, ValidAction, NEIGHBOUR_SHIFTS,
};
pub use engine::BodyKind;
pub use folds::{Setup, Split};
pub use id::{ParseTaskIdError, TaskId};
pub use import::ImportError;
pub use load::LoadError;
pub use model::{
    ActionTier, Colour, Part, Relation, SceneBody, ShapeType, Task, TaskError, TaskGoal, Tier,
};
pub use outcome::{simulate, simulate_observed, simulate_scene, Outcome, SimOptions, TaskScene};
pub use simulation::{
    BuildError, ObjectDescriptor, SimulationSetup, UserBall, GOAL_HOLD_STEPS, MAX_STEPS, PHYRE_RUN,
};
pub use status::{
    simulated_status, stability, stability_of_solved, stability_of_valid, status,
    status_of_validated, ParseStatusError, Stability, Status,
};
pub use store::StoreError;
pub use taskset::{LookupError, TaskSet};
pub use thrift::{ThriftError, ThriftErrorKind};
