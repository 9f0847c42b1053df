//! rephyre's engine: a deterministic 2D rigid-body engine on Q32.32 fixed-point arithmetic,
//! behaving like Box2D 2.3.2 as PHYRE configured it (60 Hz, 15 velocity / 20 position iterations)
//! by default; a world's rate, iterations and gravity are its [`StepSettings`].
//!
//! No floating point is used on the simulation path: floats appear only in the explicitly named
//! boundary conversions [`Fixed::from_f64`] and [`Fixed::to_f64`]. The same inputs give the same
//! bits on every platform, thread count and build profile.
//!
//! Units are metres, kilograms, seconds and radians; the scene's pixels are 1/6 m
//! ([`settings::PX_PER_METRE`]).
//!
//! The modules are private and what callers use is re-exported here, so the stages of the step
//! (`broad_phase`, `contact`, `island`, `sleep`, `solver`, `continuous`) and the geometry behind
//! them (`collide`, `manifold`, `toi`) can change without touching any caller. `events` (contact
//! begin and end events) and `impulse` (impulses and velocities set between steps) serve the
//! world's API. `settings` stays public: it holds the documented physical constants and
//! [`StepSettings`], what a world may vary at run time (time step, iterations, gravity). `testbed`, the standard test
//! scenes, exists only with the `testbed` feature (tests, benchmarks, fuzzing).
#![deny(clippy::float_arithmetic)]

mod body;
mod broad_phase;
mod collide;
mod contact;
mod continuous;
mod events;
#[cfg(test)]
mod f64geom;
mod fixed;
mod goal;
mod hash;
mod impulse;
mod island;
mod limits;
mod manifold;
mod math;
mod scene;
pub mod settings;
mod shape;
mod sleep;
mod solver;
#[cfg(test)]
mod test_shapes;
#[cfg(feature = "testbed")]
pub mod testbed;
mod toi;
mod trace;
mod world;

pub use body::{Body, BodyDef, BodyId, BodyKind, CollisionFilter};
pub use events::{ContactBegin, ContactEnd};
#[cfg(feature = "count-multiplies")]
pub use fixed::multiplies;
pub use fixed::{Fixed, FromFloatError, FRAC_BITS};
pub use goal::{run, Goal, RunOptions, RunOutcome, TouchRule};
pub use hash::{chain as chain_hash, mix64};
pub use impulse::{Falloff, RadialHit, RadialImpulse};
pub use limits::{WorldError, MAX_BODIES, MAX_PARTS, MAX_PART_EXTENT, MAX_POSITION, MAX_SPEED};
pub use math::{sin_cos, Rot, Sweep, Transform, Vec2};
pub use scene::SceneRecording;
pub use settings::StepSettings;
pub use shape::{Aabb, Circle, MassData, Polygon, PolygonError, Shape, MAX_POLYGON_VERTICES};
pub use trace::StepTrace;
pub use world::{ContactInfo, StepPhase, World};
