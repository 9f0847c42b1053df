//! A polygon and a circle: the face of greatest separation, then the Voronoi region of the
//! circle centre (face interior or one of the face's two vertices).

use super::world_polygon::midpoint;
use crate::fixed::Fixed;
use crate::manifold::{FeatureId, Manifold, ManifoldKind, ManifoldPoint};
use crate::math::Transform;
use crate::shape::{Circle, Polygon};

/// Below this separation (m) the circle centre counts as inside the polygon core
/// (≈ the single-precision epsilon, 2^-23).
const INSIDE_EPSILON: Fixed = Fixed::from_raw(512);

/// A polygon (A) and a circle (B). The result is always `FaceA` (or empty): the normal is the
/// face normal when the circle centre projects onto the face (or lies inside the polygon), and
/// the direction from the nearest vertex to the centre in the vertex regions.
pub(super) fn collide_polygon_circle(
    a: &Polygon,
    xf_a: &Transform,
    b: &Circle,
    xf_b: &Transform,
) -> Manifold {
    let mut m = Manifold::default();
    // Circle centre in A's frame.
    let c = xf_a.apply_inv(xf_b.apply(b.center));
    let total = a.radius() + b.radius;
    let vs = a.vertices();
    let ns = a.normals();
    let n = vs.len();

    let mut face = 0usize;
    let mut sep = Fixed::MIN;
    for i in 0..n {
        let s = ns[i].dot(c - vs[i]);
        if s > total {
            // A separating axis: no contact.
            return m;
        }
        if s > sep {
            sep = s;
            face = i;
        }
    }
    let v1 = vs[face];
    let v2 = vs[(face + 1) % n];
    let mid = midpoint(v1, v2);

    let (normal, point) = if sep < INSIDE_EPSILON {
        // The centre is inside the polygon core (or on its boundary): push out along the face.
        (ns[face], mid)
    } else {
        let u1 = (c - v1).dot(v2 - v1);
        let u2 = (c - v2).dot(v1 - v2);
        if u1 <= Fixed::ZERO || u2 <= Fixed::ZERO {
            // Vertex region of v1 (u1 ≤ 0) or v2.
            let v = if u1 <= Fixed::ZERO { v1 } else { v2 };
            let d = c - v;
            if d.length() > total {
                return m;
            }
            // `sep` ≥ epsilon guarantees |d| ≥ epsilon, but keep a fallback for safety.
            let dir = d.normalize_with_length().map_or(ns[face], |(u, _)| u);
            (dir, v)
        } else {
            // Face region.
            if ns[face].dot(c - mid) > total {
                return m;
            }
            (ns[face], mid)
        }
    };
    m.kind = ManifoldKind::FaceA;
    m.local_normal = normal;
    m.local_point = point;
    m.points.push(ManifoldPoint {
        local_point: b.center,
        id: FeatureId(0),
        ..ManifoldPoint::default()
    });
    m
}
