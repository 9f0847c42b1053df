//! The physical constants PHYRE configured Box2D 2.3.2 with (SPEC §1), in metres, kilograms and
//! seconds. Decimal constants are exact ratios truncated toward zero to Q32.32.

use crate::fixed::Fixed;

/// Scene pixels per metre (the engine itself works in metres).
pub const PX_PER_METRE: i64 = 6;
/// Time step: 1/60 s.
pub const DT: Fixed = Fixed::ratio(1, 60);
/// Steps per second.
pub const STEPS_PER_SECOND: i64 = 60;
/// Gravity (m/s²), y up.
pub const GRAVITY_Y: Fixed = Fixed::ratio(-98, 10);
pub const VELOCITY_ITERATIONS: u32 = 15;
pub const POSITION_ITERATIONS: u32 = 20;
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
pub const LINEAR_DAMPING: Fixed = Fixed::ZERO;
pub const ANGULAR_DAMPING: Fixed = Fixed::ratio(1, 100);
/// An island sleeps after this long (s) with every body under both tolerances.
pub const TIME_TO_SLEEP: Fixed = Fixed::HALF;
pub const LINEAR_SLEEP_TOLERANCE: Fixed = Fixed::ratio(1, 100);
/// 2°/s.
pub const ANGULAR_SLEEP_TOLERANCE: Fixed = ANGULAR_SLOP;
/// The 2-point block solver is used while the condition number of K stays below this.
pub const MAX_CONDITION_NUMBER: i64 = 1000;
