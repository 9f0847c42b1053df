//! The physical constants PHYRE configured Box2D 2.3.2 with (SPEC §1), in metres, kilograms and
//! seconds. Decimal constants are exact ratios truncated toward zero to Q32.32.
//!
//! What a world may change at run time (the time step, the iteration counts and gravity) is a
//! [`StepSettings`], whose default is these constants; the engine reads the time step and the
//! iteration counts only from a world's settings, never from [`DT`], [`STEPS_PER_SECOND`],
//! [`VELOCITY_ITERATIONS`] or [`POSITION_ITERATIONS`] directly. Every other constant here is
//! per step or per second as its comment says: the sleep timer counts seconds ([`TIME_TO_SLEEP`]
//! whatever the rate), while [`MAX_TRANSLATION`], [`MAX_ROTATION`], [`BAUMGARTE`] and
//! [`MAX_LINEAR_CORRECTION`] are per step, as in Box2D (at 50 Hz a body's speed is capped at
//! 100 m/s instead of 120 m/s).

use crate::fixed::Fixed;
use crate::math::Vec2;

/// Scene pixels per metre (the engine itself works in metres).
pub const PX_PER_METRE: i64 = 6;
/// Time step of [`StepSettings::default`]: 1/60 s.
pub const DT: Fixed = Fixed::ratio(1, 60);
/// Steps per second of [`StepSettings::default`].
pub const STEPS_PER_SECOND: i64 = 60;
/// Gravity of [`StepSettings::default`] (m/s²), y up.
pub const GRAVITY_Y: Fixed = Fixed::ratio(-98, 10);
/// Velocity iterations of [`StepSettings::default`].
pub const VELOCITY_ITERATIONS: u32 = 15;
/// Position iterations of [`StepSettings::default`].
pub const POSITION_ITERATIONS: u32 = 20;
/// Position iterations of a continuous-collision sub-step, whatever the world's settings
/// (Box2D 2.3.2 fixes them at 20 too; its TOI sub-steps take the world's velocity iterations).
pub const TOI_POSITION_ITERATIONS: u32 = 20;
/// Allowed penetration, 0.005 m.
pub const LINEAR_SLOP: Fixed = Fixed::ratio(5, 1000);
/// Polygon skin, 2 · slop.
pub const POLYGON_RADIUS: Fixed = Fixed::ratio(10, 1000);
/// 2° in radians.
pub const ANGULAR_SLOP: Fixed = Fixed::from_raw(149_922_641);
pub const BAUMGARTE: Fixed = Fixed::ratio(2, 10);
pub const MAX_LINEAR_CORRECTION: Fixed = Fixed::ratio(2, 10);
/// Largest translation of a body in one step (m).
pub const MAX_TRANSLATION: Fixed = Fixed::TWO;
/// Largest rotation of a body in one step (rad).
pub const MAX_ROTATION: Fixed = Fixed::FRAC_PI_2;
/// Restitution applies only above this approach speed (m/s).
pub const VELOCITY_THRESHOLD: Fixed = Fixed::ONE;
/// Default material.
pub const FRICTION: Fixed = Fixed::HALF;
pub const RESTITUTION: Fixed = Fixed::ratio(2, 10);
pub const DENSITY: Fixed = Fixed::ratio(1, 4);
/// Default damping of a body ([`crate::BodyDef::new`]), per second: velocities are divided by
/// `1 + dt · damping` every step.
pub const LINEAR_DAMPING: Fixed = Fixed::ZERO;
pub const ANGULAR_DAMPING: Fixed = Fixed::ratio(1, 100);
/// An island sleeps after this long (s) with every body under both tolerances.
pub const TIME_TO_SLEEP: Fixed = Fixed::HALF;
pub const LINEAR_SLEEP_TOLERANCE: Fixed = Fixed::ratio(1, 100);
/// 2°/s.
pub const ANGULAR_SLEEP_TOLERANCE: Fixed = ANGULAR_SLOP;
/// The 2-point block solver is used while the condition number of K stays below this.
pub const MAX_CONDITION_NUMBER: i64 = 1000;

/// Most steps per second a world accepts (a time step of at least 1/100000 s).
pub const MAX_STEPS_PER_SECOND: u32 = 100_000;
/// Most velocity or position iterations a world accepts.
pub const MAX_ITERATIONS: u32 = 10_000;

/// What a world may vary at run time (see [`crate::World::with_settings`] and
/// [`crate::World::set_settings`]): the time step, the solver's iteration counts and gravity.
///
/// The time step is always `1 / steps_per_second` s, truncated to Q32.32 ([`Fixed::ratio`]), so
/// the two cannot disagree: set it with [`StepSettings::with_steps_per_second`]. The other
/// fields are public, with builders too, e.g. Box2D-style 50 Hz settings:
/// `StepSettings::default().with_steps_per_second(50).with_iterations(30, 30)`.
///
/// `StepSettings::default()` is PHYRE's configuration, the constants of this module exactly:
/// 60 Hz ([`DT`]), 15 velocity and 20 position iterations, gravity (0, −9.8) m/s².
///
/// None of these is hashed by [`crate::World::state_hash`] except gravity (as before they were
/// settings): two worlds stepped under different settings differ in their bodies' states.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StepSettings {
    steps_per_second: u32,
    dt: Fixed,
    /// Sweeps of sequential impulses per step (and per continuous-collision sub-step).
    pub velocity_iterations: u32,
    /// Most position-correction sweeps per step (the island solve stops early once the worst
    /// overlap is within 3 · [`LINEAR_SLOP`]).
    pub position_iterations: u32,
    /// Gravity (m/s²), y up.
    pub gravity: Vec2,
}

impl Default for StepSettings {
    fn default() -> StepSettings {
        StepSettings {
            steps_per_second: STEPS_PER_SECOND as u32,
            dt: DT,
            velocity_iterations: VELOCITY_ITERATIONS,
            position_iterations: POSITION_ITERATIONS,
            gravity: Vec2::new(Fixed::ZERO, GRAVITY_Y),
        }
    }
}

impl StepSettings {
    /// These settings at `steps_per_second` steps per second: a time step of exactly
    /// `Fixed::ratio(1, steps_per_second)` s (e.g. 50 gives 1/50 s). A rate of 0 or above
    /// [`MAX_STEPS_PER_SECOND`] is kept here and refused by the world.
    pub fn with_steps_per_second(self, steps_per_second: u32) -> StepSettings {
        StepSettings {
            steps_per_second,
            dt: Fixed::ratio(1, steps_per_second as i64),
            ..self
        }
    }

    /// These settings with `velocity` velocity and `position` position iterations.
    pub fn with_iterations(self, velocity: u32, position: u32) -> StepSettings {
        StepSettings {
            velocity_iterations: velocity,
            position_iterations: position,
            ..self
        }
    }

    /// These settings with gravity `gravity` (m/s²).
    pub fn with_gravity(self, gravity: Vec2) -> StepSettings {
        StepSettings { gravity, ..self }
    }

    /// The time step (s): `1 / steps_per_second`, truncated to Q32.32.
    #[inline]
    pub fn dt(&self) -> Fixed {
        self.dt
    }

    #[inline]
    pub fn steps_per_second(&self) -> u32 {
        self.steps_per_second
    }

    /// Why these settings cannot drive a world, if they cannot.
    pub(crate) fn check(&self) -> Result<(), &'static str> {
        if self.steps_per_second == 0 || self.steps_per_second > MAX_STEPS_PER_SECOND {
            return Err("steps per second must be in 1..=100000");
        }
        if self.velocity_iterations > MAX_ITERATIONS || self.position_iterations > MAX_ITERATIONS {
            return Err("at most 10000 velocity and position iterations");
        }
        let limit = Fixed::from_int(1 << 16);
        let g = self.gravity;
        if g.x.abs() > limit || g.y.abs() > limit || g.x == Fixed::MIN || g.y == Fixed::MIN {
            return Err("gravity components must be within ±65536 m/s²");
        }
        Ok(())
    }
}
