//! Impulses and velocities set from outside the step, between steps: a linear impulse at a
//! point ([`crate::World::apply_linear_impulse`]), velocities set outright
//! ([`crate::World::set_velocity`]) and a radial impulse over every dynamic body near a point
//! ([`crate::World::apply_radial_impulse`]).
//!
//! The arithmetic is the engine's own (Q32.32 products rounded to nearest), carried in 128 bits
//! so that no intermediate wraps; a velocity is never left outside ±[`MAX_SPEED`]: the single
//! impulse and the set velocity are refused beyond it, the radial impulse saturates there.

use crate::body::{Body, BodyId};
use crate::fixed::Fixed;
use crate::limits::{WorldError, MAX_POSITION, MAX_SPEED};
use crate::math::Vec2;
use crate::sleep;

/// How a radial impulse's strength falls off with the distance `d` of a body's centre of mass
/// from its centre.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Falloff {
    /// The full strength everywhere within the radius.
    Constant,
    /// `strength · (1 − d / radius)`: full at the centre, zero at the radius.
    Linear,
}

/// An impulse pushing every dynamic body whose centre of mass lies within `radius` of `center`
/// away from it (an explosion, a shock wave): see [`crate::World::apply_radial_impulse`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RadialImpulse {
    /// Centre (m).
    pub center: Vec2,
    /// Reach (m): bodies whose centre of mass is strictly closer than this are pushed.
    pub radius: Fixed,
    /// Impulse magnitude at the centre (N·s); negative pulls toward the centre.
    pub strength: Fixed,
    pub falloff: Falloff,
}

/// One body a radial impulse pushed, and the impulse it received (N·s, at its centre of mass).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RadialHit {
    pub body: BodyId,
    pub impulse: Vec2,
}

/// `a · b` rounded to nearest as [`Fixed`]'s product rounds it, in raw units, without wrapping.
#[inline]
fn mul_wide(a: i128, b: i128) -> i128 {
    (a * b + (1 << 31)) >> 32
}

/// A raw value as a velocity component, if within ±[`MAX_SPEED`].
#[inline]
fn speed(raw: i128) -> Option<Fixed> {
    (raw.abs() <= MAX_SPEED.raw() as i128).then(|| Fixed::from_raw(raw as i64))
}

/// A raw value clamped to ±[`MAX_SPEED`].
#[inline]
fn clamp_speed(raw: i128) -> Fixed {
    let m = MAX_SPEED.raw() as i128;
    Fixed::from_raw(raw.clamp(-m, m) as i64)
}

/// Whether `v` is a valid coordinate pair within ±`m`.
#[inline]
pub(crate) fn within(v: Vec2, m: Fixed) -> bool {
    v.x.abs() <= m && v.y.abs() <= m && v.x != Fixed::MIN && v.y != Fixed::MIN
}

/// The velocities of `b` after the impulse `j` at the world point `p`:
/// `v + j / m` and `w + (p − c) × j / I`, in raw units (unbounded).
fn after_impulse(b: &Body, j: Vec2, p: Vec2) -> (i128, i128, i128) {
    let im = b.inv_mass.raw() as i128;
    let vx = b.v.x.raw() as i128 + mul_wide(j.x.raw() as i128, im);
    let vy = b.v.y.raw() as i128 + mul_wide(j.y.raw() as i128, im);
    let rx = p.x.raw() as i128 - b.sweep.c.x.raw() as i128;
    let ry = p.y.raw() as i128 - b.sweep.c.y.raw() as i128;
    let torque = mul_wide(rx, j.y.raw() as i128) - mul_wide(ry, j.x.raw() as i128);
    let w = b.w.raw() as i128 + mul_wide(b.inv_inertia.raw() as i128, torque);
    (vx, vy, w)
}

/// The dynamic, present body `id`, or why there is none.
pub(crate) fn dynamic_body(bodies: &mut [Body], id: BodyId) -> Result<&mut Body, WorldError> {
    let b = bodies
        .get_mut(id.index())
        .ok_or(WorldError::UnknownBody(id))?;
    if b.removed {
        return Err(WorldError::RemovedBody(id));
    }
    if !b.is_dynamic() {
        return Err(WorldError::NotDynamic(id));
    }
    Ok(b)
}

/// [`crate::World::apply_linear_impulse`].
pub(crate) fn apply_linear_impulse(
    bodies: &mut [Body],
    id: BodyId,
    impulse: Vec2,
    point: Vec2,
) -> Result<(), WorldError> {
    let b = dynamic_body(bodies, id)?;
    if !within(impulse, MAX_SPEED) || !within(point, MAX_POSITION) {
        return Err(WorldError::OutOfRange("impulse or point"));
    }
    let (vx, vy, w) = after_impulse(b, impulse, point);
    let (Some(vx), Some(vy), Some(w)) = (speed(vx), speed(vy), speed(w)) else {
        return Err(WorldError::OutOfRange("velocity after the impulse"));
    };
    b.v = Vec2::new(vx, vy);
    b.w = w;
    sleep::wake(bodies, id.index());
    Ok(())
}

/// [`crate::World::set_velocity`].
pub(crate) fn set_velocity(
    bodies: &mut [Body],
    id: BodyId,
    linear: Vec2,
    angular: Fixed,
) -> Result<(), WorldError> {
    let b = dynamic_body(bodies, id)?;
    if !within(linear, MAX_SPEED) || angular.abs() > MAX_SPEED || angular == Fixed::MIN {
        return Err(WorldError::OutOfRange("velocity"));
    }
    b.v = linear;
    b.w = angular;
    if linear != Vec2::ZERO || angular != Fixed::ZERO {
        sleep::wake(bodies, id.index());
    }
    Ok(())
}

/// [`crate::World::apply_radial_impulse`].
pub(crate) fn apply_radial_impulse(bodies: &mut [Body], r: &RadialImpulse) -> Vec<RadialHit> {
    let mut hits = Vec::new();
    let reach = 2 * MAX_POSITION.raw() as i128;
    if !r.radius.is_positive()
        || r.radius.raw() as i128 > reach
        || !within(r.center, MAX_POSITION)
        || r.strength.abs() > MAX_SPEED
        || r.strength == Fixed::MIN
    {
        return hits;
    }
    let r2 = (r.radius.raw() as i128 * r.radius.raw() as i128) as u128;
    for bi in 0..bodies.len() {
        let b = &bodies[bi];
        if !b.is_dynamic() || b.removed {
            continue;
        }
        // Positions are within ±MAX_POSITION (plus a step's travel), so the offset fits.
        let d = b.sweep.c - r.center;
        if d.length_squared_exact() >= r2 {
            continue;
        }
        // A body at the centre (too close to normalise the offset) is pushed along +y.
        let (dir, dist) = d
            .normalize_with_length()
            .unwrap_or((Vec2::new(Fixed::ZERO, Fixed::ONE), d.length()));
        let magnitude = match r.falloff {
            Falloff::Constant => r.strength,
            Falloff::Linear => r.strength.mul_div(r.radius - dist, r.radius),
        };
        let impulse = dir.scale(magnitude);
        let (vx, vy, w) = after_impulse(b, impulse, b.sweep.c);
        let b = &mut bodies[bi];
        b.v = Vec2::new(clamp_speed(vx), clamp_speed(vy));
        b.w = clamp_speed(w);
        sleep::wake(bodies, bi);
        hits.push(RadialHit {
            body: BodyId(bi as u32),
            impulse,
        });
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wide_product_rounds_as_a_fixed_product_does() {
        // 3 raw units × ½ = 1.5 units: to nearest, halves up, as `Fixed`'s product rounds.
        assert_eq!(mul_wide(3, 1 << 31), 2);
        assert_eq!(mul_wide(-3, 1 << 31), -1);
        let half = 1i64 << 31;
        for (a, b) in [
            (3, half),
            (-3, half),
            (1, 2_863_311_531),
            (-5, 2_863_311_531),
        ] {
            let fixed = Fixed::from_raw(a) * Fixed::from_raw(b);
            assert_eq!(
                mul_wide(a.into(), b.into()),
                fixed.raw().into(),
                "{a} · {b}"
            );
        }
    }
}
