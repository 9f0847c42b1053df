//! Collision of two convex shapes: the contact manifolds that the narrow phase (`contact.rs`) and
//! continuous collision (`continuous.rs`) compute.
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
use crate::manifold::{
    FeatureId, Manifold, ManifoldKind, ManifoldPoint, FEATURE_FACE, FEATURE_VERTEX,
};
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
    m.points.push(ManifoldPoint {
        local_point: b.center,
        id: FeatureId(0),
        ..ManifoldPoint::default()
    });
    m
}

/// A polygon (A) and a circle (B). The result is always `FaceA` (or empty): the normal is the
/// face normal when the circle centre projects onto the face (or lies inside the polygon), and
/// the direction from the nearest vertex to the centre in the vertex regions.
pub fn collide_polygon_circle(
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

/// Two polygons, both placed (`wa` = `WorldPolygon::new(a, xf_a)`, `wb` likewise): up to two
/// points from clipping the incident edge against the reference face.
fn collide_placed_polygons(
    a: &Polygon,
    wa: &WorldPolygon,
    b: &Polygon,
    wb: &WorldPolygon,
    xf_a: &Transform,
    xf_b: &Transform,
) -> Manifold {
    let mut m = Manifold::default();
    let total = a.radius() + b.radius();

    let (face_a, sep_a) = max_face_separation(wa, wb);
    if sep_a > total {
        return m;
    }
    let (face_b, sep_b) = max_face_separation(wb, wa);
    if sep_b > total {
        return m;
    }

    // Prefer A's face; B's only when clearly better.
    let flip = sep_b > sep_a + REFERENCE_TOLERANCE;
    let (rp, rw, rface, iw, ixf) = if flip {
        (b, wb, face_b, wa, xf_a)
    } else {
        (a, wa, face_a, wb, xf_b)
    };

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
        ClipVertex {
            v: iw.vertices[inc],
            id: FeatureId::new(i1 as u8, inc as u8, FEATURE_FACE, FEATURE_VERTEX),
        },
        ClipVertex {
            v: iw.vertices[inc2],
            id: FeatureId::new(i1 as u8, inc2 as u8, FEATURE_FACE, FEATURE_VERTEX),
        },
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

    for cv in &clip2 {
        let s = normal.dot(cv.v) - front;
        if s <= total {
            // At most the two clipped points: within the capacity.
            m.points.push(ManifoldPoint {
                local_point: ixf.apply_inv(cv.v),
                id: if flip { cv.id.swapped() } else { cv.id },
                ..ManifoldPoint::default()
            });
        }
    }
    m.kind = if flip {
        ManifoldKind::FaceB
    } else {
        ManifoldKind::FaceA
    };
    m.local_normal = rp.normals()[rface];
    m.local_point = midpoint(rp.vertices()[i1], rp.vertices()[i2]);
    m
}

/// Dispatch on the shape kinds. A circle–polygon pair is collided as polygon–circle with the
/// result's A/B exchanged (see [`crate::manifold`] for the convention).
#[cfg(test)]
pub fn collide_shapes(a: &Shape, xf_a: &Transform, b: &Shape, xf_b: &Transform) -> Manifold {
    collide_shapes_placed(a, xf_a, None, b, xf_b, None)
}

/// [`collide_shapes`] where a polygon may come already placed (`placed_a` =
/// `WorldPolygon::new(a, xf_a)`, likewise for B; static bodies keep theirs): the same
/// manifold, bit for bit.
pub(crate) fn collide_shapes_placed(
    a: &Shape,
    xf_a: &Transform,
    placed_a: Option<&WorldPolygon>,
    b: &Shape,
    xf_b: &Transform,
    placed_b: Option<&WorldPolygon>,
) -> Manifold {
    match (a, b) {
        (Shape::Circle(ca), Shape::Circle(cb)) => collide_circles(ca, xf_a, cb, xf_b),
        (Shape::Polygon(pa), Shape::Circle(cb)) => collide_polygon_circle(pa, xf_a, cb, xf_b),
        (Shape::Circle(ca), Shape::Polygon(pb)) => {
            let mut m = collide_polygon_circle(pb, xf_b, ca, xf_a);
            // The polygon (reference) is B, the circle's point lies in A's frame.
            if !m.points.is_empty() {
                m.kind = ManifoldKind::FaceB;
                for p in m.points.iter_mut() {
                    p.id = p.id.swapped();
                }
            }
            m
        }
        (Shape::Polygon(pa), Shape::Polygon(pb)) => {
            let (mut own_a, mut own_b) = (None, None);
            let wa = placed_or_place(placed_a, &mut own_a, pa, xf_a);
            let wb = placed_or_place(placed_b, &mut own_b, pb, xf_b);
            collide_placed_polygons(pa, wa, pb, wb, xf_a, xf_b)
        }
    }
}

/// `placed` when given, else `p` placed at `xf` into `own`.
#[inline]
fn placed_or_place<'a>(
    placed: Option<&'a WorldPolygon>,
    own: &'a mut Option<WorldPolygon>,
    p: &Polygon,
    xf: &Transform,
) -> &'a WorldPolygon {
    match placed {
        Some(w) => w,
        None => own.insert(WorldPolygon::new(p, xf)),
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
// Fixed arrays and a count, as `Polygon` (see there: the ArrayVec form measured slower).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
fn clip_segment(
    input: &[ClipVertex; 2],
    normal: Vec2,
    offset: Fixed,
    ref_vertex: u8,
) -> Option<[ClipVertex; 2]> {
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
        out[n] = ClipVertex {
            v: p,
            id: FeatureId::new(ref_vertex, index_b, FEATURE_VERTEX, FEATURE_FACE),
        };
        n += 1;
    }
    (n == 2).then_some(out)
}

/// Float geometry used only by tests (here and in `toi`): exact signed distances between shapes.
#[cfg(test)]
#[allow(clippy::float_arithmetic)]
pub(crate) mod f64geom {
    use crate::math::{Transform, Vec2};
    use crate::shape::Shape;

    pub type P = (f64, f64);

    /// Body-local point → world, in f64 with the transform's own (fixed) sine and cosine.
    pub fn apply(xf: &Transform, v: Vec2) -> P {
        let (x, y) = (v.x.to_f64(), v.y.to_f64());
        let (s, c) = (xf.q.s.to_f64(), xf.q.c.to_f64());
        (
            c * x - s * y + xf.p.x.to_f64(),
            s * x + c * y + xf.p.y.to_f64(),
        )
    }

    /// The core (circle centre or polygon vertices) in world space, and the radius.
    pub fn core(s: &Shape, xf: &Transform) -> (Vec<P>, f64) {
        match s {
            Shape::Circle(c) => (vec![apply(xf, c.center)], c.radius.to_f64()),
            Shape::Polygon(p) => (
                p.vertices().iter().map(|&v| apply(xf, v)).collect(),
                p.radius().to_f64(),
            ),
        }
    }

    fn dot(a: P, b: P) -> f64 {
        a.0 * b.0 + a.1 * b.1
    }

    fn sub(a: P, b: P) -> P {
        (a.0 - b.0, a.1 - b.1)
    }

    /// max over the faces of polygon `a` of min over the points of `b` of n·(w − v).
    pub fn face_sep(a: &[P], b: &[P]) -> f64 {
        let mut best = f64::NEG_INFINITY;
        for i in 0..a.len() {
            let e = sub(a[(i + 1) % a.len()], a[i]);
            let l = dot(e, e).sqrt();
            let n = (e.1 / l, -e.0 / l);
            let s = b
                .iter()
                .map(|&w| dot(n, sub(w, a[i])))
                .fold(f64::INFINITY, f64::min);
            best = best.max(s);
        }
        best
    }

    pub fn seg_dist(p: P, v1: P, v2: P) -> f64 {
        let e = sub(v2, v1);
        let t = (dot(sub(p, v1), e) / dot(e, e)).clamp(0.0, 1.0);
        let q = (v1.0 + e.0 * t, v1.1 + e.1 * t);
        let d = sub(p, q);
        dot(d, d).sqrt()
    }

    fn boundary_dist(p: P, poly: &[P]) -> f64 {
        (0..poly.len())
            .map(|i| seg_dist(p, poly[i], poly[(i + 1) % poly.len()]))
            .fold(f64::INFINITY, f64::min)
    }

    /// Separating-axis value of two polygon cores (max face separation over both).
    pub fn sat(a: &[P], b: &[P]) -> f64 {
        face_sep(a, b).max(face_sep(b, a))
    }

    /// Exact signed distance between the cores (negative: minus the penetration depth).
    pub fn core_distance(a: &[P], b: &[P]) -> f64 {
        match (a.len(), b.len()) {
            (1, 1) => {
                let d = sub(b[0], a[0]);
                dot(d, d).sqrt()
            }
            (1, _) => {
                let s = face_sep(b, a);
                if s <= 0.0 {
                    s
                } else {
                    boundary_dist(a[0], b)
                }
            }
            (_, 1) => core_distance(b, a),
            _ => {
                let s = sat(a, b);
                if s <= 0.0 {
                    s
                } else {
                    let ab = a
                        .iter()
                        .map(|&p| boundary_dist(p, b))
                        .fold(f64::INFINITY, f64::min);
                    let ba = b
                        .iter()
                        .map(|&p| boundary_dist(p, a))
                        .fold(f64::INFINITY, f64::min);
                    ab.min(ba)
                }
            }
        }
    }

    /// Exact signed distance between the shapes, skins and radii included.
    pub fn signed_distance(a: &Shape, xf_a: &Transform, b: &Shape, xf_b: &Transform) -> f64 {
        let (ca, ra) = core(a, xf_a);
        let (cb, rb) = core(b, xf_b);
        core_distance(&ca, &cb) - ra - rb
    }
}

#[cfg(test)]
#[allow(clippy::float_arithmetic)]
mod tests {
    use super::f64geom;
    use super::*;
    use crate::manifold::{position_point, WorldManifold};
    use crate::test_shapes::{ball, bx, fx, v, xf};
    use proptest::prelude::*;

    /// Tolerance of the geometric checks (m).
    const TOL: f64 = 1e-6;
    const SKIN: f64 = 0.01;

    fn world(m: &Manifold, a: &Shape, xa: &Transform, b: &Shape, xb: &Transform) -> WorldManifold {
        WorldManifold::new(m, xa, a.radius(), xb, b.radius())
    }

    fn close(a: Fixed, b: f64, tol: f64) -> bool {
        (a.to_f64() - b).abs() <= tol
    }

    fn vclose(a: Vec2, x: f64, y: f64, tol: f64) -> bool {
        close(a.x, x, tol) && close(a.y, y, tol)
    }

    /// Checks that WorldManifold and position_point agree on every point, and that the normal is
    /// a unit vector; returns the world manifold.
    fn consistent(
        m: &Manifold,
        a: &Shape,
        xa: &Transform,
        b: &Shape,
        xb: &Transform,
    ) -> WorldManifold {
        let wm = world(m, a, xa, b, xb);
        if !m.points.is_empty() {
            assert!(
                close(wm.normal.length(), 1.0, 1e-8),
                "normal {:?}",
                wm.normal
            );
        }
        for i in 0..m.points.len() {
            let (n, _, s) = position_point(m, i, xa, a.radius(), xb, b.radius());
            assert!(
                vclose(n, wm.normal.x.to_f64(), wm.normal.y.to_f64(), 1e-8),
                "{n:?} vs {:?}",
                wm.normal
            );
            // WorldManifold projects through |n|² (≈ 1 to ~1e-9), position_point does not.
            let tol = 1e-8 * (1.0 + s.to_f64().abs());
            assert!(
                close(s, wm.separations[i].to_f64(), tol),
                "{s} vs {}",
                wm.separations[i]
            );
        }
        wm
    }

    #[test]
    fn circles_touching_separated_overlapping_coincident() {
        let a = ball(0.5);
        let b = ball(0.3);
        // Exactly touching: one point, zero separation.
        let (xa, xb) = (xf(1.0, 2.0, 0.0), xf(1.8, 2.0, 0.0));
        let m = collide_shapes(&a, &xa, &b, &xb);
        assert_eq!((m.points.len(), m.kind), (1, ManifoldKind::Circles));
        let wm = consistent(&m, &a, &xa, &b, &xb);
        assert!(close(wm.separations[0], 0.0, TOL));
        // Separated by a hair: nothing.
        let m = collide_shapes(&a, &xa, &b, &xf(1.8001, 2.0, 0.0));
        assert_eq!(m.points.len(), 0);
        // Overlapping along a diagonal, centres offset inside rotated bodies.
        let ca = Shape::Circle(Circle {
            center: v(0.2, 0.0),
            radius: fx(0.5),
        });
        let xa = xf(0.0, 0.0, std::f64::consts::FRAC_PI_2); // centre at (0, 0.2)
        let xb = xf(0.3, 0.6, 0.0); // centre at (0.3, 0.6): distance 0.5
        let m = collide_shapes(&ca, &xa, &b, &xb);
        assert_eq!(m.points.len(), 1);
        let wm = consistent(&m, &ca, &xa, &b, &xb);
        assert!(close(wm.separations[0], 0.5 - 0.8, TOL));
        assert!(vclose(wm.normal, 0.6, 0.8, TOL));
        assert!(vclose(wm.points[0], 0.21, 0.48, TOL), "{:?}", wm.points[0]);
        // Coincident centres: a fixed fallback normal, full overlap, no panic.
        let m = collide_shapes(&a, &xa, &b, &xa);
        assert_eq!(m.points.len(), 1);
        let wm = consistent(&m, &a, &xa, &b, &xa);
        assert!(vclose(wm.normal, 1.0, 0.0, 0.0));
        assert!(close(wm.separations[0], -0.8, TOL));
    }

    /// A 1×1 box resting on a wide ground box with core gap `gap` (negative: overlap), both
    /// rotated by `angle` about the origin, box shifted by `shift` along the ground.
    fn resting(angle: f64, shift: f64, gap: f64) -> (Shape, Transform, Shape, Transform) {
        let (s, c) = angle.sin_cos();
        let ground = bx(5.0, 0.5);
        let xg = xf(1.0, -2.0, angle);
        // Local offset from the ground centre: (shift, 0.5 + 0.5 + gap).
        let (lx, ly) = (shift, 1.0 + gap);
        let xb = xf(1.0 + c * lx - s * ly, -2.0 + s * lx + c * ly, angle);
        (ground, xg, bx(0.5, 0.5), xb)
    }

    #[test]
    fn box_resting_on_box_gives_two_points_with_overlap_separation() {
        for &(angle, gap) in &[(0.0, -0.004), (0.0, 0.0), (0.37, -0.003), (-2.1, 0.005)] {
            let (g, xg, b, xb) = resting(angle, 0.3, gap);
            let expect = gap - 2.0 * SKIN;
            let (s, c) = f64::sin_cos(angle);
            // Ground as A: reference face on A, normal = ground's up.
            let m = collide_shapes(&g, &xg, &b, &xb);
            assert_eq!(
                (m.points.len(), m.kind),
                (2, ManifoldKind::FaceA),
                "angle {angle}"
            );
            let wm = consistent(&m, &g, &xg, &b, &xb);
            assert!(vclose(wm.normal, -s, c, TOL));
            for i in 0..2 {
                assert!(
                    close(wm.separations[i], expect, TOL),
                    "{} vs {expect}",
                    wm.separations[i]
                );
            }
            assert_ne!(m.points[0].id, m.points[1].id);
            // Box as A: both faces tie, so A (the box) is the reference; normal points down.
            let m = collide_shapes(&b, &xb, &g, &xg);
            assert_eq!((m.points.len(), m.kind), (2, ManifoldKind::FaceA));
            let wm = consistent(&m, &b, &xb, &g, &xg);
            assert!(vclose(wm.normal, s, -c, TOL));
            for i in 0..2 {
                assert!(
                    close(wm.separations[i], expect, TOL),
                    "{} vs {expect}",
                    wm.separations[i]
                );
            }
        }
        // Exactly at the skin distance still touches; a little farther does not.
        let (g, xg, b, xb) = resting(0.0, 0.3, 2.0 * SKIN - 1e-7);
        assert_eq!(collide_shapes(&g, &xg, &b, &xb).points.len(), 2);
        let (g, xg, b, xb) = resting(0.0, 0.3, 2.0 * SKIN + 1e-4);
        assert_eq!(collide_shapes(&g, &xg, &b, &xb).points.len(), 0);
    }

    #[test]
    fn box_hanging_over_an_edge_is_clipped_to_the_reference_face() {
        // Ground half-width 5 (x from −4 to 6 in ground coordinates shifted by 1); the box
        // centre at local x = 4.8 sticks out by 0.3: one point is clipped at the side plane
        // (ground edge + total radius).
        let (g, xg, b, xb) = resting(0.0, 4.8, -0.002);
        let m = collide_shapes(&g, &xg, &b, &xb);
        assert_eq!(m.points.len(), 2);
        let wm = consistent(&m, &g, &xg, &b, &xb);
        let mut xs = [wm.points[0].x.to_f64(), wm.points[1].x.to_f64()];
        xs.sort_by(f64::total_cmp);
        assert!((xs[0] - (1.0 + 4.3)).abs() < TOL, "{xs:?}");
        assert!((xs[1] - (1.0 + 5.0 + 2.0 * SKIN)).abs() < TOL, "{xs:?}");
        // The clipped point carries a (reference vertex, incident face) id.
        let clipped = m
            .points()
            .iter()
            .find(|p| p.id.0 >> 24 == FEATURE_FACE as u32);
        assert!(clipped.is_some(), "{:?}", m.points());
    }

    #[test]
    fn rotated_box_corner_on_box_gives_one_point_on_faceb() {
        // A: unit box rotated 45°, its lowest corner 0.005 below B's (ground's) top face.
        let a = bx(0.5, 0.5);
        let half_diag = 0.5 * std::f64::consts::SQRT_2;
        let xa = xf(0.2, 0.5 + half_diag - 0.005, std::f64::consts::FRAC_PI_4);
        let g = bx(5.0, 0.5);
        let xg = xf(0.0, 0.0, 0.0);
        let m = collide_shapes(&a, &xa, &g, &xg);
        assert_eq!((m.points.len(), m.kind), (1, ManifoldKind::FaceB));
        let wm = consistent(&m, &a, &xa, &g, &xg);
        assert!(vclose(wm.normal, 0.0, -1.0, TOL), "{:?}", wm.normal);
        assert!(
            close(wm.separations[0], -0.005 - 2.0 * SKIN, TOL),
            "{}",
            wm.separations[0]
        );
        // Midway between the surfaces, below the corner at x = 0.2.
        // Midway between A's surface (corner − skin = 0.485) and B's (top + skin = 0.51).
        assert!(vclose(wm.points[0], 0.2, 0.4975, TOL), "{:?}", wm.points[0]);
        // The id describes A's vertex (the corner) against B's face: type_a vertex, type_b face.
        let id = m.points[0].id.0.to_le_bytes();
        assert_eq!((id[2], id[3]), (FEATURE_VERTEX, FEATURE_FACE));
        // Same pair in the other order: reference face on A now, normal up.
        let m = collide_shapes(&g, &xg, &a, &xa);
        assert_eq!((m.points.len(), m.kind), (1, ManifoldKind::FaceA));
        let wm = consistent(&m, &g, &xg, &a, &xa);
        assert!(vclose(wm.normal, 0.0, 1.0, TOL));
        assert!(close(wm.separations[0], -0.005 - 2.0 * SKIN, TOL));
        let id2 = m.points[0].id;
        assert_eq!(id2.swapped().0.to_le_bytes(), id);
    }

    #[test]
    fn feature_ids_are_stable_while_a_box_slides() {
        let ids = |shift: f64, angle: f64| {
            let (g, xg, b, xb) = resting(angle, shift, -0.003);
            let m = collide_shapes(&g, &xg, &b, &xb);
            assert_eq!(m.points.len(), 2);
            let mut v: Vec<u32> = m.points().iter().map(|p| p.id.0).collect();
            v.sort_unstable();
            v
        };
        for &angle in &[0.0, 0.8] {
            let base = ids(0.3, angle);
            for k in 1..20 {
                assert_eq!(ids(0.3 + 0.01 * k as f64, angle), base, "shift step {k}");
            }
        }
        // And when B is the reference, ids still describe A then B.
        let a = bx(0.5, 0.5);
        let g = bx(5.0, 0.5);
        let idv = |x: f64| {
            let half_diag = 0.5 * std::f64::consts::SQRT_2;
            let xa = xf(x, 0.5 + half_diag - 0.004, std::f64::consts::FRAC_PI_4);
            collide_shapes(&a, &xa, &g, &Transform::IDENTITY).points[0].id
        };
        assert_eq!(idv(0.0), idv(0.05));
    }

    #[test]
    fn polygon_circle_face_vertex_and_inside() {
        let p = bx(1.0, 1.0);
        let xp = xf(0.0, 0.0, 0.0);
        let r = 0.5;
        let total = r + SKIN;
        let c = ball(r);
        // Face region.
        let m = collide_shapes(&p, &xp, &c, &xf(0.3, 1.4, 0.0));
        assert_eq!((m.points.len(), m.kind), (1, ManifoldKind::FaceA));
        let wm = consistent(&m, &p, &xp, &c, &xf(0.3, 1.4, 0.0));
        assert!(vclose(wm.normal, 0.0, 1.0, TOL));
        assert!(close(wm.separations[0], 0.4 - total, TOL));
        // Face region, within the skin; and just beyond it.
        let m = collide_shapes(&p, &xp, &c, &xf(0.0, 1.505, 0.0));
        assert_eq!(m.points.len(), 1);
        assert!(close(
            consistent(&m, &p, &xp, &c, &xf(0.0, 1.505, 0.0)).separations[0],
            -0.005,
            TOL
        ));
        assert_eq!(
            collide_shapes(&p, &xp, &c, &xf(0.0, 1.5101, 0.0))
                .points
                .len(),
            0
        );
        // Vertex region: centre 0.5 from the corner (1, 1) along (0.6, 0.8).
        let xc = xf(1.3, 1.4, 0.0);
        let m = collide_shapes(&p, &xp, &c, &xc);
        assert_eq!((m.points.len(), m.kind), (1, ManifoldKind::FaceA));
        let wm = consistent(&m, &p, &xp, &c, &xc);
        assert!(vclose(wm.normal, 0.6, 0.8, TOL), "{:?}", wm.normal);
        assert!(close(wm.separations[0], 0.5 - total, TOL));
        assert!(vclose(m.local_point, 1.0, 1.0, TOL));
        // Vertex region out of reach (face separations are all within reach).
        assert_eq!(
            collide_shapes(&p, &xp, &c, &xf(1.4, 1.45, 0.0))
                .points
                .len(),
            0
        );
        // Centre inside: pushed out through the nearest face (top, 0.1 away).
        let xc = xf(0.2, 0.9, 0.0);
        let m = collide_shapes(&p, &xp, &c, &xc);
        let wm = consistent(&m, &p, &xp, &c, &xc);
        assert!(vclose(wm.normal, 0.0, 1.0, TOL));
        assert!(close(wm.separations[0], -0.1 - total, TOL));
        // Coincident centres: no panic, some face normal, depth = half-width + radii.
        let m = collide_shapes(&p, &xp, &c, &xp);
        let wm = consistent(&m, &p, &xp, &c, &xp);
        assert_eq!(m.points.len(), 1);
        assert!(close(wm.separations[0], -1.0 - total, TOL));
    }

    #[test]
    fn polygon_circle_in_rotated_frames() {
        // Polygon rotated by 0.6 and translated; circle centre offset inside a rotated body.
        let p = bx(0.7, 0.4);
        let xp = xf(2.0, 1.0, 0.6);
        let c = Shape::Circle(Circle {
            center: v(0.1, -0.2),
            radius: fx(0.3),
        });
        for &(lx, ly) in &[
            (0.2, 0.65),
            (0.9, 0.6),
            (-0.8, -0.5),
            (0.75, 0.0),
            (0.1, 0.1),
        ] {
            // Place the circle centre at polygon-local (lx, ly).
            let w = f64geom::apply(&xp, v(lx, ly));
            let xc0 = xf(0.0, 0.0, -1.1);
            let off = f64geom::apply(&xc0, v(0.1, -0.2));
            let xc = xf(w.0 - off.0, w.1 - off.1, -1.1);
            let m = collide_shapes(&p, &xp, &c, &xc);
            let d = f64geom::signed_distance(&p, &xp, &c, &xc);
            assert_eq!(m.points.len(), 1, "at ({lx}, {ly}) distance {d}");
            let wm = consistent(&m, &p, &xp, &c, &xc);
            assert!(
                close(wm.separations[0], d, TOL),
                "at ({lx}, {ly}): {} vs {d}",
                wm.separations[0]
            );
        }
    }

    #[test]
    fn circle_polygon_has_normal_from_a_to_b() {
        let c = ball(0.5);
        let p = bx(1.0, 1.0);
        let xp = xf(0.0, 0.0, 0.0);
        // Circle (A) above the box (B): the normal points down, from A to B.
        let xc = xf(0.3, 1.4, 0.0);
        let m = collide_shapes(&c, &xc, &p, &xp);
        assert_eq!((m.points.len(), m.kind), (1, ManifoldKind::FaceB));
        let wm = consistent(&m, &c, &xc, &p, &xp);
        assert!(vclose(wm.normal, 0.0, -1.0, TOL), "{:?}", wm.normal);
        assert!(close(wm.separations[0], 0.4 - 0.5 - SKIN, TOL));
        // Vertex region, and the two orders agree up to the normal's sign.
        let xc = xf(-1.3, -1.4, 0.0);
        let m = collide_shapes(&c, &xc, &p, &xp);
        let wm = consistent(&m, &c, &xc, &p, &xp);
        assert!(vclose(wm.normal, 0.6, 0.8, TOL), "{:?}", wm.normal);
        let m2 = collide_shapes(&p, &xp, &c, &xc);
        let wm2 = consistent(&m2, &p, &xp, &c, &xc);
        assert_eq!(wm2.normal, -wm.normal);
        assert_eq!(wm2.separations, wm.separations);
        assert_eq!(m.points[0].id, m2.points[0].id.swapped());
    }

    fn arb_shape() -> impl Strategy<Value = Shape> {
        prop_oneof![
            (
                0.02f64..3.0,
                0.02f64..3.0,
                -1.0f64..1.0,
                -1.0f64..1.0,
                -3.2f64..3.2
            )
                .prop_map(|(hx, hy, cx, cy, a)| {
                    Shape::Polygon(Polygon::new_box(fx(hx), fx(hy), v(cx, cy), fx(a)).unwrap())
                }),
            (0.02f64..3.0, -1.0f64..1.0, -1.0f64..1.0).prop_map(|(r, cx, cy)| Shape::Circle(
                Circle {
                    center: v(cx, cy),
                    radius: fx(r)
                }
            )),
            // Irregular convex polygons from a few points on a circle.
            (
                proptest::collection::vec(0.0f64..std::f64::consts::TAU, 3..8),
                0.1f64..2.0
            )
                .prop_filter_map("degenerate", |(angles, r)| {
                    let pts: Vec<Vec2> =
                        angles.iter().map(|a| v(r * a.cos(), r * a.sin())).collect();
                    Polygon::new(&pts).ok().map(Shape::Polygon)
                }),
        ]
    }

    fn arb_xf() -> impl Strategy<Value = Transform> {
        prop_oneof![
            (-4.0f64..4.0, -4.0f64..4.0, -7.0f64..7.0).prop_map(|(x, y, a)| xf(x, y, a)),
            Just(Transform::IDENTITY),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        #[test]
        fn random_pairs_are_sane(a in arb_shape(), xa in arb_xf(), b in arb_shape(), xb in arb_xf()) {
            let m = collide_shapes(&a, &xa, &b, &xb);
            let wm = consistent(&m, &a, &xa, &b, &xb);
            let d = f64geom::signed_distance(&a, &xa, &b, &xb);
            let ra = a.radius().to_f64();
            let rb = b.radius().to_f64();
            match (&a, &b) {
                (Shape::Polygon(_), Shape::Polygon(_)) => {
                    // Box2D's criterion: the separating-axis value against the skins.
                    let (ca, _) = f64geom::core(&a, &xa);
                    let (cb, _) = f64geom::core(&b, &xb);
                    let sat = f64geom::sat(&ca, &cb);
                    if sat > ra + rb + TOL {
                        prop_assert_eq!(m.points.len(), 0);
                    }
                    if sat < ra + rb - TOL {
                        prop_assert!(!m.points.is_empty(), "sat {} but no points", sat);
                    }
                    // Every point lies between the best axis' depth (with the reference-face
                    // tolerance) and zero.
                    for i in 0..m.points.len() {
                        let s = wm.separations[i].to_f64();
                        prop_assert!(s <= TOL, "separation {} > 0", s);
                        prop_assert!(s >= sat - ra - rb - 0.1 * 0.005 - TOL, "separation {} below {}", s, sat - ra - rb);
                    }
                }
                _ => {
                    // Circle pairs: exact.
                    if d > TOL {
                        prop_assert_eq!(m.points.len(), 0);
                    }
                    if d < -TOL {
                        prop_assert_eq!(m.points.len(), 1);
                    }
                    if m.points.len() == 1 {
                        prop_assert!((wm.separations[0].to_f64() - d).abs() <= TOL, "{} vs {}", wm.separations[0], d);
                    }
                    // The reverse order gives the same contact with the normal reversed.
                    let m2 = collide_shapes(&b, &xb, &a, &xa);
                    prop_assert_eq!(m2.points.len(), m.points.len());
                    if m.points.len() == 1 {
                        let wm2 = consistent(&m2, &b, &xb, &a, &xa);
                        prop_assert!((wm2.separations[0].to_f64() - d).abs() <= TOL);
                        // (Two circles with coincident centres both use the fallback normal.)
                        let (ca, _) = f64geom::core(&a, &xa);
                        let (cb, _) = f64geom::core(&b, &xb);
                        let centres_apart = ca.len() > 1 || cb.len() > 1 || f64geom::core_distance(&ca, &cb) > 1e-6;
                        if centres_apart {
                            prop_assert!(vclose(wm2.normal, -wm.normal.x.to_f64(), -wm.normal.y.to_f64(), 1e-6));
                        }
                    }
                }
            }
        }

        #[test]
        fn extreme_inputs_never_panic(a in arb_shape(), b in arb_shape(),
                                      x in -2.0e9f64..2.0e9, y in -2.0e9f64..2.0e9, ang in -2.0e9f64..2.0e9) {
            let xb = xf(x, y, ang);
            let _ = collide_shapes(&a, &Transform::IDENTITY, &b, &xb);
            let _ = collide_shapes(&b, &xb, &a, &xb);
            let m = collide_shapes(&a, &xb, &b, &xb);
            let _ = world(&m, &a, &xb, &b, &xb);
        }
    }
}
