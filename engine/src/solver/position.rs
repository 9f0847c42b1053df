//! Position correction (non-linear Gauss-Seidel), written once for the island solve and the
//! continuous-collision sub-steps: they differ only in their [`PositionTuning`] and in whether
//! the B side of a contact is a solver body or a static part ([`SideB`]).

use super::body::SolverBody;
use crate::fixed::Fixed;
use crate::manifold::{position_point, Manifold};
use crate::math::Transform;
use crate::settings::{BAUMGARTE, LINEAR_SLOP, MAX_LINEAR_CORRECTION, TOI_POSITION_ITERATIONS};

/// How position correction is tuned: Box2D's values for the regular step and for the
/// continuous-collision sub-step, which pushes harder and settles for less overlap.
#[derive(Clone, Copy, Debug)]
pub(super) struct PositionTuning {
    /// The share of a point's overlap (beyond the slop) removed at each visit.
    baumgarte: Fixed,
    /// A sweep whose worst separation is at least this ends the correction.
    enough: Fixed,
    /// The most sweeps over the contacts.
    iterations: u32,
}

impl PositionTuning {
    /// The regular step's: Baumgarte 0.2, until the worst separation is above −3 slops.
    pub(super) fn step(iterations: u32) -> PositionTuning {
        PositionTuning {
            baumgarte: BAUMGARTE,
            enough: -(LINEAR_SLOP.mul_int(3)),
            iterations,
        }
    }

    /// A continuous-collision sub-step's: Baumgarte 0.75, until the worst separation is above
    /// −1.5 slops, at most [`TOI_POSITION_ITERATIONS`] sweeps.
    pub(super) fn time_of_impact() -> PositionTuning {
        PositionTuning {
            baumgarte: Fixed::ratio(75, 100),
            enough: -(LINEAR_SLOP + LINEAR_SLOP.div_int(2)),
            iterations: TOI_POSITION_ITERATIONS,
        }
    }
}

/// The B side of a contact in position correction.
#[derive(Clone, Copy, Debug)]
pub(super) enum SideB {
    /// A solver body, which takes its share of each correction (an exact zero when it cannot
    /// move).
    Body(usize),
    /// A static part placed at this transform (continuous collision): it takes no share, so
    /// the correction is A's alone.
    Static(Transform),
}

/// One contact as position correction sees it: the manifold between solver body `a` and the
/// `b` side, with the shapes' radii.
#[derive(Clone, Copy, Debug)]
pub(super) struct PositionContact<'m> {
    pub(super) manifold: &'m Manifold,
    pub(super) a: usize,
    pub(super) radius_a: Fixed,
    pub(super) b: SideB,
    pub(super) radius_b: Fixed,
}

/// Non-linear Gauss-Seidel position correction, written once for the island solve and the
/// continuous-collision sub-steps: sweeps over contacts `0..count` (`contact(i)` describes
/// contact `i`), point by point, each pushing the bodies apart along the normal re-evaluated at
/// their current poses, until the worst separation of a sweep is at least `tuning.enough` or
/// `tuning.iterations` sweeps have run. Returns whether it stopped for the separation.
pub(super) fn correct_positions<'m>(
    bodies: &mut [SolverBody],
    tuning: &PositionTuning,
    count: usize,
    contact: impl Fn(usize) -> PositionContact<'m>,
) -> bool {
    for _ in 0..tuning.iterations {
        let mut min_sep = Fixed::ZERO;
        for i in 0..count {
            let c = contact(i);
            for j in 0..c.manifold.points.len() {
                let xa = bodies[c.a].transform();
                let xb = match c.b {
                    SideB::Body(b) => bodies[b].transform(),
                    SideB::Static(xf) => xf,
                };
                let (n, point, sep) =
                    position_point(c.manifold, j, &xa, c.radius_a, &xb, c.radius_b);
                min_sep = min_sep.min(sep);
                let corr = (tuning.baumgarte * (sep + LINEAR_SLOP))
                    .clamp(-MAX_LINEAR_CORRECTION, Fixed::ZERO);
                if corr.raw() == 0 {
                    // A zero correction gives a zero impulse: every update below would be an
                    // exact no-op.
                    continue;
                }
                let sa = &bodies[c.a];
                let ra = point - sa.c;
                let rna = ra.cross(n);
                // The effective mass along the normal, and B's index and lever arm when it is
                // a body.
                let (k, b) = match c.b {
                    SideB::Body(b) => {
                        let sb = &bodies[b];
                        let rb = point - sb.c;
                        let rnb = rb.cross(n);
                        let k = sa.inv_mass
                            + sb.inv_mass
                            + sa.inv_inertia * rna * rna
                            + sb.inv_inertia * rnb * rnb;
                        (k, Some((b, rb)))
                    }
                    SideB::Static(_) => (sa.inv_mass + sa.inv_inertia * rna * rna, None),
                };
                let impulse = if k.is_positive() {
                    -(corr / k)
                } else {
                    Fixed::ZERO
                };
                let p = n.scale(impulse);
                let sa = &mut bodies[c.a];
                sa.c -= p.scale(sa.inv_mass);
                sa.a -= sa.inv_inertia * ra.cross(p);
                if let Some((b, rb)) = b {
                    let sb = &mut bodies[b];
                    sb.c += p.scale(sb.inv_mass);
                    sb.a += sb.inv_inertia * rb.cross(p);
                }
            }
        }
        if min_sep >= tuning.enough {
            return true;
        }
    }
    false
}
