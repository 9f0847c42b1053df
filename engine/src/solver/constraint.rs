//! Velocity constraints: one per contact, built from its manifold in world space (lever arms,
//! effective masses, the restitution bias, K and its inverse for the block solver), and what
//! contact events read of them (normal, approach speed, normal impulse).

use arrayvec::ArrayVec;

use super::body::{is_fixed, SolverBody};
use crate::contact::Measured;
use crate::fixed::Fixed;
use crate::manifold::{Manifold, WorldManifold};
use crate::math::{Transform, Vec2};
use crate::settings::{MAX_CONDITION_NUMBER, VELOCITY_THRESHOLD};

/// One manifold point of a velocity constraint.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct PointConstraint {
    pub(super) ra: Vec2,
    pub(super) rb: Vec2,
    pub(super) normal_impulse: Fixed,
    pub(super) tangent_impulse: Fixed,
    pub(super) normal_mass: Fixed,
    pub(super) tangent_mass: Fixed,
    pub(super) velocity_bias: Fixed,
}

/// The velocity constraint of one contact.
#[derive(Clone, Debug)]
pub(super) struct ContactConstraint {
    /// Index into the island's contact list.
    pub(super) contact: usize,
    pub(super) a: usize,
    pub(super) b: usize,
    /// Whether each body can move in this solve (see [`is_fixed`]).
    pub(super) a_moves: bool,
    pub(super) b_moves: bool,
    pub(super) normal: Vec2,
    /// The points solved this step: the manifold's (the block solver may drop the second one).
    pub(super) points: ArrayVec<PointConstraint, 2>,
    pub(super) friction: Fixed,
    /// K and its inverse for the block solver, when there are two points.
    pub(super) k: [Fixed; 3],
    pub(super) k_inv: [Fixed; 4],
}

/// One side of a contact as its constraint is built: the solver body's index, where the touching
/// part is placed and the part's radius.
pub(super) type Side<'a> = (usize, &'a Transform, Fixed);

/// A velocity constraint for one manifold between the solver bodies of sides `a` and `b`, from
/// its manifold in world space at the sides' placements, with the contact's `(friction,
/// restitution)`; `warm` keeps the manifold's accumulated impulses for warm starting.
pub(super) fn make_constraint(
    bodies: &[SolverBody],
    contact: usize,
    [(ia, xa, radius_a), (ib, xb, radius_b)]: [Side; 2],
    manifold: &Manifold,
    (friction, restitution): (Fixed, Fixed),
    warm: bool,
) -> ContactConstraint {
    let wm = &WorldManifold::new(manifold, xa, radius_a, xb, radius_b);
    let (sa, sb) = (bodies[ia], bodies[ib]);
    let mut cc = ContactConstraint {
        contact,
        a: ia,
        b: ib,
        a_moves: !is_fixed(&sa),
        b_moves: !is_fixed(&sb),
        normal: wm.normal,
        points: ArrayVec::new(),
        friction,
        k: [Fixed::ZERO; 3],
        k_inv: [Fixed::ZERO; 4],
    };
    let n = wm.normal;
    let t = n.cross_v1();
    let m_sum = sa.inv_mass + sb.inv_mass;
    for (j, mp) in manifold.points.iter().enumerate() {
        let ra = wm.points[j] - sa.c;
        let rb = wm.points[j] - sb.c;
        let rna = ra.cross(n);
        let rnb = rb.cross(n);
        let kn = m_sum + sa.inv_inertia * rna * rna + sb.inv_inertia * rnb * rnb;
        let rta = ra.cross(t);
        let rtb = rb.cross(t);
        let kt = m_sum + sa.inv_inertia * rta * rta + sb.inv_inertia * rtb * rtb;
        let dv = sb.v + Vec2::cross_sv(sb.w, rb) - sa.v - Vec2::cross_sv(sa.w, ra);
        let vrel = n.dot(dv);
        let velocity_bias = if vrel < -VELOCITY_THRESHOLD {
            -(restitution * vrel)
        } else {
            Fixed::ZERO
        };
        let (normal_impulse, tangent_impulse) = if warm {
            (mp.normal_impulse, mp.tangent_impulse)
        } else {
            (Fixed::ZERO, Fixed::ZERO)
        };
        cc.points.push(PointConstraint {
            ra,
            rb,
            normal_impulse,
            tangent_impulse,
            normal_mass: if kn.is_positive() {
                Fixed::ONE / kn
            } else {
                Fixed::ZERO
            },
            tangent_mass: if kt.is_positive() {
                Fixed::ONE / kt
            } else {
                Fixed::ZERO
            },
            velocity_bias,
        });
    }
    if let [p1, p2] = cc.points.as_slice() {
        let rn1a = p1.ra.cross(n);
        let rn1b = p1.rb.cross(n);
        let rn2a = p2.ra.cross(n);
        let rn2b = p2.rb.cross(n);
        let k11 = m_sum + sa.inv_inertia * rn1a * rn1a + sb.inv_inertia * rn1b * rn1b;
        let k22 = m_sum + sa.inv_inertia * rn2a * rn2a + sb.inv_inertia * rn2b * rn2b;
        let k12 = m_sum + sa.inv_inertia * rn1a * rn2a + sb.inv_inertia * rn1b * rn2b;
        let det = k11 * k22 - k12 * k12;
        if k11 * k11 < det.mul_int(MAX_CONDITION_NUMBER) && det.is_positive() {
            cc.k = [k11, k12, k22];
            // Inverse of [[k11, k12], [k12, k22]].
            cc.k_inv = [k22 / det, -(k12 / det), -(k12 / det), k11 / det];
        } else {
            // Nearly redundant points: solve the first one only.
            cc.points.truncate(1);
        }
    }
    cc
}

/// A constraint's normal (A to B) and its bodies' approach speed along it, the largest over its
/// points of `−n · (v_b + w_b × r_b − v_a − w_a × r_a)`, from the solver bodies' velocities now
/// (called as the constraint is built, before any impulse). Only read for contact events.
pub(super) fn measure(cc: &ContactConstraint, bodies: &[SolverBody]) -> Measured {
    let (sa, sb) = (&bodies[cc.a], &bodies[cc.b]);
    let mut approach: Option<Fixed> = None;
    for p in &cc.points {
        let dv = sb.v + Vec2::cross_sv(sb.w, p.rb) - sa.v - Vec2::cross_sv(sa.w, p.ra);
        let s = -cc.normal.dot(dv);
        approach = Some(approach.map_or(s, |a| a.max(s)));
    }
    Measured {
        normal: cc.normal,
        approach_speed: approach.unwrap_or(Fixed::ZERO),
        normal_impulse: Fixed::ZERO,
    }
}

/// The sum of a constraint's accumulated normal impulses.
pub(super) fn normal_impulse(cc: &ContactConstraint) -> Fixed {
    cc.points
        .iter()
        .fold(Fixed::ZERO, |s, p| s + p.normal_impulse)
}
