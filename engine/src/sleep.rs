//! Sleep: islands whose bodies all stayed slow for [`TIME_TO_SLEEP`] go to sleep (velocities
//! zeroed), and bodies wake when one of their contacts starts or stops touching.
//!
//! A sleeping body is neither solved nor integrated, and contacts between sleeping bodies keep
//! their manifolds, so a world where nothing is awake does not change when stepped (the early
//! exit of [`crate::run`] relies on it).

use crate::body::Body;
use crate::fixed::Fixed;
use crate::math::Vec2;
use crate::settings::{ANGULAR_SLEEP_TOLERANCE, LINEAR_SLEEP_TOLERANCE, TIME_TO_SLEEP};

/// Wake body `bi` (no-op for static bodies and bodies already awake).
pub(crate) fn wake(bodies: &mut [Body], bi: usize) {
    let b = &mut bodies[bi];
    if b.is_dynamic() && !b.awake {
        b.awake = true;
        b.sleep_time = Fixed::ZERO;
    }
}

/// After an island was solved: advance each dynamic body's sleep timer by the time step `dt`
/// (reset while it moves faster than the tolerances), and put the whole island to sleep once
/// every body's timer reached [`TIME_TO_SLEEP`] (seconds, whatever the rate) and the island's
/// position solve converged.
pub(crate) fn update_sleep(
    bodies: &mut [Body],
    island: &[usize],
    position_solved: bool,
    dt: Fixed,
) {
    let lin_tol2 = LINEAR_SLEEP_TOLERANCE * LINEAR_SLEEP_TOLERANCE;
    let ang_tol2 = ANGULAR_SLEEP_TOLERANCE * ANGULAR_SLEEP_TOLERANCE;
    let mut min_sleep = Fixed::MAX;
    for &bi in island {
        let b = &mut bodies[bi];
        if !b.is_dynamic() {
            continue;
        }
        if b.w * b.w > ang_tol2 || b.v.length_squared() > lin_tol2 {
            b.sleep_time = Fixed::ZERO;
            min_sleep = Fixed::ZERO;
        } else {
            b.sleep_time += dt;
            min_sleep = min_sleep.min(b.sleep_time);
        }
    }
    if min_sleep >= TIME_TO_SLEEP && position_solved {
        for &bi in island {
            let b = &mut bodies[bi];
            if b.is_dynamic() {
                b.awake = false;
                b.sleep_time = Fixed::ZERO;
                b.v = Vec2::ZERO;
                b.w = Fixed::ZERO;
            }
        }
    }
}
