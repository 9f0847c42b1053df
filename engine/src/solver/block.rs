//! The block solver: a contact's two normal constraints solved together.

use super::constraint::ContactConstraint;
use super::pair::{InverseMasses, PairVelocities};
use crate::fixed::Fixed;

/// The 2-point normal constraint solved as a linear complementarity problem by enumerating
/// its four cases (both active, only 1, only 2, none).
/// Returns whether an accumulated impulse changed.
#[inline(always)]
pub(super) fn solve_block<const MA: bool, const MB: bool>(
    pv: &mut PairVelocities,
    inv: &InverseMasses,
    cc: &mut ContactConstraint,
) -> bool {
    let n = cc.normal;
    // Every constraint has a point (its manifold touches): not one here means two.
    let &[p1, p2] = cc.points.as_slice() else {
        return false;
    };
    let a1 = p1.normal_impulse;
    let a2 = p2.normal_impulse;
    let vn1 = pv.relative::<MA, MB>(p1.ra, p1.rb).dot(n);
    let vn2 = pv.relative::<MA, MB>(p2.ra, p2.rb).dot(n);
    let [k11, k12, k22] = cc.k;
    // b = vn − bias − K·a
    let b1 = vn1 - p1.velocity_bias - (k11 * a1 + k12 * a2);
    let b2 = vn2 - p2.velocity_bias - (k12 * a1 + k22 * a2);
    let [i11, i12, i21, i22] = cc.k_inv;
    let zero = Fixed::ZERO;
    let candidates = || -> Option<(Fixed, Fixed)> {
        // Case 1: both points active.
        let x1 = -(i11 * b1 + i12 * b2);
        let x2 = -(i21 * b1 + i22 * b2);
        if x1 >= zero && x2 >= zero {
            return Some((x1, x2));
        }
        // Case 2: only point 1 active.
        let x1 = -(p1.normal_mass * b1);
        let v2 = k12 * x1 + b2;
        if x1 >= zero && v2 >= zero {
            return Some((x1, zero));
        }
        // Case 3: only point 2 active.
        let x2 = -(p2.normal_mass * b2);
        let v1 = k12 * x2 + b1;
        if x2 >= zero && v1 >= zero {
            return Some((zero, x2));
        }
        // Case 4: neither.
        if b1 >= zero && b2 >= zero {
            return Some((zero, zero));
        }
        None
    };
    if let Some((x1, x2)) = candidates() {
        let d1 = x1 - a1;
        let d2 = x2 - a2;
        pv.apply::<MA, MB>(inv, p1.ra, p1.rb, n.scale(d1));
        pv.apply::<MA, MB>(inv, p2.ra, p2.rb, n.scale(d2));
        if let [q1, q2] = cc.points.as_mut_slice() {
            q1.normal_impulse = x1;
            q2.normal_impulse = x2;
        }
        return d1.raw() != 0 || d2.raw() != 0;
    }
    false
}
