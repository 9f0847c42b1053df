//! rephyre's engine: a deterministic 2D rigid-body engine on Q32.32 fixed-point arithmetic,
//! behaving like Box2D 2.3.2 as PHYRE configured it (60 Hz, 15 velocity / 20 position iterations).
//!
//! No floating point is used on the simulation path: floats appear only in the explicitly named
//! boundary conversions [`Fixed::from_f64`] and [`Fixed::to_f64`]. The same inputs give the same
//! bits on every platform, thread count and build profile.
//!
//! Units are metres, kilograms, seconds and radians; the scene's pixels are 1/6 m
//! ([`settings::PX_PER_METRE`]).
#![deny(clippy::float_arithmetic)]

pub mod body;
mod broad_phase;
pub mod collide;
pub mod contact;
mod continuous;
pub mod fixed;
pub mod goal;
pub mod hash;
mod island;
pub mod manifold;
pub mod math;
pub mod settings;
pub mod shape;
mod sleep;
mod solver;
pub mod testbed;
pub mod toi;
mod trace;
pub mod world;

pub use body::{Body, BodyDef, BodyId, BodyKind};
pub use fixed::Fixed;
pub use goal::{run, Goal, RunOptions, RunOutcome, TouchRule};
pub use math::{Rot, Sweep, Transform, Vec2};
pub use shape::{Aabb, Circle, MassData, Polygon, PolygonError, Shape};
pub use trace::StepTrace;
pub use world::{ContactInfo, StepPhase, World, WorldError};
