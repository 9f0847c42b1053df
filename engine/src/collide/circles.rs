//! Two circles: one point when the centres are within the sum of the radii.

use crate::manifold::{FeatureId, Manifold, ManifoldKind, ManifoldPoint};
use crate::math::{Transform, Vec2};
use crate::shape::Circle;

/// Two circles: one point when the centre distance is at most the sum of the radii.
pub(super) fn collide_circles(
    a: &Circle,
    xf_a: &Transform,
    b: &Circle,
    xf_b: &Transform,
) -> Manifold {
    let mut m = Manifold::default();
    let pa = xf_a.apply(a.center);
    let pb = xf_b.apply(b.center);
    let dist = (pb - pa).length();
    if dist > a.radius + b.radius {
        return m;
    }
    m.kind = ManifoldKind::Circles;
    m.local_point = a.center;
    m.local_normal = Vec2::ZERO;
    m.points.push(ManifoldPoint {
        local_point: b.center,
        id: FeatureId(0),
        ..ManifoldPoint::default()
    });
    m
}
