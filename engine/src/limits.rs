//! The world's limits and the error a body or an operation outside them gets: shared by the
//! world and the impulses applied to its bodies, each of which checks them.

use crate::body::BodyId;
use crate::fixed::Fixed;

/// Most convex parts in one body.
pub const MAX_PARTS: usize = 16;

/// Most bodies in one world.
pub const MAX_BODIES: usize = 4096;
/// Largest |coordinate| of a body position (m). With at most 2 m of travel per step a body
/// needs ~10^9 steps to approach the Q32.32 range, so no arithmetic wraps in a valid world.
pub const MAX_POSITION: Fixed = Fixed::from_int(1 << 20);
/// Largest |coordinate| of a part vertex or circle centre in body coordinates, and largest
/// radius (m): keeps mass and inertia (≈ size⁴) far inside the range.
pub const MAX_PART_EXTENT: Fixed = Fixed::from_int(1 << 10);
/// Largest |component| of an initial linear velocity (m/s) or angular velocity (rad/s).
pub const MAX_SPEED: Fixed = Fixed::from_int(1 << 16);

/// Why a body could not be added.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WorldError {
    NoParts,
    TooManyParts(usize),
    TooManyBodies,
    /// A circle with a radius that is not positive, or a non-positive density.
    BadShape(&'static str),
    /// A position, size or velocity outside the supported range.
    OutOfRange(&'static str),
    /// Step settings out of range (see [`crate::World::set_settings`]).
    BadSettings(&'static str),
    /// No body has this id.
    UnknownBody(BodyId),
    /// The body was removed ([`crate::World::remove_body`]).
    RemovedBody(BodyId),
    /// The operation needs a dynamic body.
    NotDynamic(BodyId),
}

impl core::fmt::Display for WorldError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            WorldError::NoParts => f.write_str("body has no parts"),
            WorldError::TooManyParts(n) => write!(f, "body has {n} parts (at most {MAX_PARTS})"),
            WorldError::TooManyBodies => write!(f, "world already holds {MAX_BODIES} bodies"),
            WorldError::BadShape(why) => write!(f, "bad shape: {why}"),
            WorldError::OutOfRange(what) => write!(f, "{what} is outside the supported range"),
            WorldError::BadSettings(why) => write!(f, "bad step settings: {why}"),
            WorldError::UnknownBody(id) => write!(f, "no body {}", id.0),
            WorldError::RemovedBody(id) => write!(f, "body {} was removed", id.0),
            WorldError::NotDynamic(id) => write!(f, "body {} is not dynamic", id.0),
        }
    }
}

impl std::error::Error for WorldError {}
