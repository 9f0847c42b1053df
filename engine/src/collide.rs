//! Narrow phase: contact manifolds between pairs of convex shapes.
//!
//! The manifolds follow the convention documented in [`crate::manifold`]: `Circles` for two
//! circles, `FaceA` / `FaceB` when the reference face (or, for a polygon and a circle, the
//! reference vertex direction) belongs to shape A / B. The world normal always points from A
//! to B. Every function here is deterministic, uses only fixed-point arithmetic and never panics.
//!
//! The algorithms are the classical ones Box2D 2.3.2 uses:
//! * circle–circle: one point when the centres are within the sum of the radii;
//! * polygon–circle: the face of greatest separation, then the Voronoi region of the circle
//!   centre (face interior or one of the face's two vertices);
//! * polygon–polygon: separating-axis test over the face normals of both polygons, a reference
//!   face (on A unless B's is clearly better), the most anti-parallel incident edge of the other
//!   polygon, and clipping of that edge against the side planes of the reference face.

use crate::fixed::Fixed;
use crate::manifold::{FeatureId, Manifold, ManifoldKind, ManifoldPoint, FEATURE_FACE, FEATURE_VERTEX};
use crate::math::{Transform, Vec2};
use crate::settings::LINEAR_SLOP;
use crate::shape::{Circle, Polygon, Shape, MAX_POLYGON_VERTICES};

/// Below this separation (m) the circle centre counts as inside the polygon core
/// (≈ the single-precision epsilon, 2^-23).
const INSIDE_EPSILON: Fixed = Fixed::from_raw(512);

/// Reference-face hysteresis: B's face is used only when its separation exceeds A's by more than
/// this (0.1 · linear slop), so that the choice does not flicker between steps.
const REFERENCE_TOLERANCE: Fixed = Fixed::from_raw(LINEAR_SLOP.raw() / 10);

/// Two circles: one point when the centre distance is at most the sum of the radii.
pub fn collide_circles(a: &Circle, xf_a: &Transform, b: &Circle, xf_b: &Transform) -> Manifold {
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
    m.points[0] = ManifoldPoint { local_point: b.center, id: FeatureId(0), ..ManifoldPoint::default() };
    m.count = 1;
    m
}

/// A polygon (A) and a circle (B). The result is always `FaceA` (or empty): the normal is the
/// face normal when the circle centre projects onto the face (or lies inside the polygon), and
/// the direction from the nearest vertex to the centre in the vertex regions.
pub fn collide_polygon_circle(a: &Polygon, xf_a: &Transform, b: &Circle, xf_b: &Transform) -> Manifold {
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
    m.points[0] = ManifoldPoint { local_point: b.center, id: FeatureId(0), ..ManifoldPoint::default() };
    m.count = 1;
    m
}

/// Two polygons: up to two points from clipping the incident edge against the reference face.
pub fn collide_polygons(a: &Polygon, xf_a: &Transform, b: &Polygon, xf_b: &Transform) -> Manifold {
    let mut m = Manifold::default();
    let total = a.radius() + b.radius();
    let wa = WorldPolygon::new(a, xf_a);
    let wb = WorldPolygon::new(b, xf_b);

    let (face_a, sep_a) = max_face_separation(&wa, &wb);
    if sep_a > total {
        return m;
    }
    let (face_b, sep_b) = max_face_separation(&wb, &wa);
    if sep_b > total {
        return m;
    }

    // Prefer A's face; B's only when clearly better.
    let flip = sep_b > sep_a + REFERENCE_TOLERANCE;
    let (rp, rw, rface, iw, ixf) = if flip { (b, &wb, face_b, &wa, xf_a) } else { (a, &wa, face_a, &wb, xf_b) };

    let rn = rw.count;
    let i1 = rface;
    let i2 = (rface + 1) % rn;
    let normal = rw.normals[rface];
    let tangent = normal.perp();
    let v11 = rw.vertices[i1];
    let v12 = rw.vertices[i2];

    // Incident edge: the edge of the other polygon most anti-parallel to the reference normal.
    let inn = iw.count;
    let mut inc = 0usize;
    let mut best = Fixed::MAX;
    for j in 0..inn {
        let d = normal.dot(iw.normals[j]);
        if d < best {
            best = d;
            inc = j;
        }
    }
    let inc2 = (inc + 1) % inn;
    let incident = [
        ClipVertex { v: iw.vertices[inc], id: FeatureId::new(i1 as u8, inc as u8, FEATURE_FACE, FEATURE_VERTEX) },
        ClipVertex { v: iw.vertices[inc2], id: FeatureId::new(i1 as u8, inc2 as u8, FEATURE_FACE, FEATURE_VERTEX) },
    ];

    let front = normal.dot(v11);
    let side1 = -tangent.dot(v11) + total;
    let side2 = tangent.dot(v12) + total;

    let Some(clip1) = clip_segment(&incident, -tangent, side1, i1 as u8) else {
        return m;
    };
    let Some(clip2) = clip_segment(&clip1, tangent, side2, i2 as u8) else {
        return m;
    };

    let mut count = 0usize;
    for cv in &clip2 {
        let s = normal.dot(cv.v) - front;
        if s <= total {
            m.points[count] = ManifoldPoint {
                local_point: ixf.apply_inv(cv.v),
                id: if flip { cv.id.swapped() } else { cv.id },
                ..ManifoldPoint::default()
            };
            count += 1;
        }
    }
    m.kind = if flip { ManifoldKind::FaceB } else { ManifoldKind::FaceA };
    m.local_normal = rp.normals()[rface];
    m.local_point = midpoint(rp.vertices()[i1], rp.vertices()[i2]);
    m.count = count as u8;
    m
}

/// Dispatch on the shape kinds. A circle–polygon pair is collided as polygon–circle with the
/// result's A/B exchanged (see [`crate::manifold`] for the convention).
pub fn collide_shapes(a: &Shape, xf_a: &Transform, b: &Shape, xf_b: &Transform) -> Manifold {
    match (a, b) {
        (Shape::Circle(ca), Shape::Circle(cb)) => collide_circles(ca, xf_a, cb, xf_b),
        (Shape::Polygon(pa), Shape::Circle(cb)) => collide_polygon_circle(pa, xf_a, cb, xf_b),
        (Shape::Circle(ca), Shape::Polygon(pb)) => {
            let mut m = collide_polygon_circle(pb, xf_b, ca, xf_a);
            // The polygon (reference) is B, the circle's point lies in A's frame.
            if m.count > 0 {
                m.kind = ManifoldKind::FaceB;
                for p in m.points.iter_mut() {
                    p.id = p.id.swapped();
                }
            }
            m
        }
        (Shape::Polygon(pa), Shape::Polygon(pb)) => collide_polygons(pa, xf_a, pb, xf_b),
    }
}

// ---------------------------------------------------------------------------------------------
// Helpers (also used by the time-of-impact code).

/// The midpoint of two points.
#[inline]
fn midpoint(a: Vec2, b: Vec2) -> Vec2 {
    a + (b - a).scale(Fixed::HALF)
}

/// A polygon's vertices and normals in world space.
#[derive(Clone, Copy, Debug)]
pub struct WorldPolygon {
    pub count: usize,
    pub vertices: [Vec2; MAX_POLYGON_VERTICES],
    pub normals: [Vec2; MAX_POLYGON_VERTICES],
}

impl WorldPolygon {
    /// `p` placed by `xf`.
    pub fn new(p: &Polygon, xf: &Transform) -> WorldPolygon {
        let mut w = WorldPolygon {
            count: p.count(),
            vertices: [Vec2::ZERO; MAX_POLYGON_VERTICES],
            normals: [Vec2::ZERO; MAX_POLYGON_VERTICES],
        };
        for (i, (&v, &n)) in p.vertices().iter().zip(p.normals()).enumerate() {
            w.vertices[i] = xf.apply(v);
            w.normals[i] = xf.q.apply(n);
        }
        w
    }

    #[inline]
    pub fn vertices(&self) -> &[Vec2] {
        &self.vertices[..self.count]
    }

    #[inline]
    pub fn normals(&self) -> &[Vec2] {
        &self.normals[..self.count]
    }
}

/// The face of `p1` whose plane separates the cores of `p1` and `p2` the most: its index and the
/// separation `min_j n_i · (w_j − v_i)` (negative when the cores overlap along that normal).
/// Ties keep the lowest index.
pub fn max_face_separation(p1: &WorldPolygon, p2: &WorldPolygon) -> (usize, Fixed) {
    let mut best = 0usize;
    let mut best_sep = Fixed::MIN;
    for i in 0..p1.count {
        let n = p1.normals[i];
        let v = p1.vertices[i];
        let mut s = Fixed::MAX;
        for &w in p2.vertices() {
            let d = n.dot(w - v);
            if d < s {
                s = d;
            }
        }
        if s > best_sep {
            best_sep = s;
            best = i;
        }
    }
    (best, best_sep)
}

#[derive(Clone, Copy, Debug)]
struct ClipVertex {
    v: Vec2,
    id: FeatureId,
}

/// Keep the part of segment `input` on the side `normal · x ≤ offset`. A point created at the
/// plane gets the feature id (reference vertex `ref_vertex`, incident face). `None` when fewer
/// than two points remain.
fn clip_segment(input: &[ClipVertex; 2], normal: Vec2, offset: Fixed, ref_vertex: u8) -> Option<[ClipVertex; 2]> {
    let d0 = normal.dot(input[0].v) - offset;
    let d1 = normal.dot(input[1].v) - offset;
    let mut out = [input[0]; 2];
    let mut n = 0usize;
    if d0 <= Fixed::ZERO {
        out[n] = input[0];
        n += 1;
    }
    if d1 <= Fixed::ZERO {
        out[n] = input[1];
        n += 1;
    }
    let crosses = (d0.is_negative() && d1.is_positive()) || (d0.is_positive() && d1.is_negative());
    if crosses && n < 2 {
        // Fraction d0 / (d0 − d1) ∈ (0, 1) along the segment, applied with one rounding.
        let e = input[1].v - input[0].v;
        let den = d0 - d1;
        let p = input[0].v + Vec2::new(e.x.mul_div(d0, den), e.y.mul_div(d0, den));
        let index_b = input[0].id.0.to_le_bytes()[1];
        out[n] = ClipVertex { v: p, id: FeatureId::new(ref_vertex, index_b, FEATURE_VERTEX, FEATURE_FACE) };
        n += 1;
    }
    (n == 2).then_some(out)
}
