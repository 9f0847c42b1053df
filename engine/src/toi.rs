//! Continuous collision: time of impact of a moving shape against a static one, by conservative
//! advancement.
//!
//! At the current fraction t of the sweep we find a unit axis `n` (from the moving shape A to the
//! fixed shape B) and the gap of the two shapes' projections on it,
//! `gap = min_{q∈B} n·q − max_{p∈A} n·p` (skins and radii included). For any unit axis the gap is
//! a lower bound of the signed distance between the shapes. With `n` held fixed and B static, the
//! gap can shrink over the rest of the sweep at most at the rate
//! `max(0, n·(c − c0)) + |a − a0| · extent` per unit of t, where `extent` is the largest distance of
//! a point of A's core (vertices / circle centre) from the sweep's centre of mass. Advancing t by
//! `(gap − target) / rate` therefore never passes the first moment the shapes come within
//! `target`; we repeat until the gap is within a small tolerance of `target`.
//!
//! The axis is the best of the polygons' face normals (the separating-axis test, exact for
//! overlapping polygons) and the direction between the closest points of the shapes' cores (exact
//! for separated shapes), so the bound is tight and the advancement converges in a few steps.

use crate::collide::{max_face_separation, WorldPolygon};
use crate::fixed::Fixed;
use crate::math::{Sweep, Transform, Vec2};
use crate::settings::LINEAR_SLOP;
use crate::shape::Shape;

/// Most conservative-advancement steps per query.
pub const MAX_TOI_ITERATIONS: usize = 30;

/// A hit is reported once the separation lower bound is below `target` + this (0.25 · slop).
pub const TOI_TOLERANCE: Fixed = Fixed::from_raw(LINEAR_SLOP.raw() / 4);

/// The target separation Box2D 2.3.2 aims for, as a surface distance (skins and radii included):
/// `max(slop − (r_a + r_b), −3·slop)`, i.e. −3 · slop for every shape pair PHYRE uses.
pub fn box2d_target(a: &Shape, b: &Shape) -> Fixed {
    (LINEAR_SLOP - a.radius() - b.radius()).max(-LINEAR_SLOP.mul_int(3))
}

/// First fraction t ∈ (0, 1) of the sweep at which `moving` comes within `target` separation
/// (surface distance, negative = overlap) of `fixed`; `None` when it stays farther apart over the
/// whole sweep, and also when it is already within `target` (+ [`TOI_TOLERANCE`]) at t = 0 (the
/// discrete contact handles that case).
///
/// At the returned t the shapes are at least `target` apart (up to rounding) and their separation
/// lower bound is below `target + TOI_TOLERANCE`. If [`MAX_TOI_ITERATIONS`] steps do not settle
/// the query, the last (still safe, not yet touching) fraction is returned, so that a fast body
/// can never tunnel.
pub fn time_of_impact(moving: &Shape, sweep: &Sweep, fixed: &Shape, xf_fixed: &Transform, target: Fixed) -> Option<Fixed> {
    let extent = (moving.extent_from(sweep.local_center) - moving.radius()).max(Fixed::ZERO);
    let dc = sweep.c - sweep.c0;
    let angular = (sweep.a - sweep.a0).abs() * extent;
    let mut t = Fixed::ZERO;
    for iter in 0..MAX_TOI_ITERATIONS {
        let xf = sweep.transform_at(t);
        let (n, gap) = separating_axis(moving, &xf, fixed, xf_fixed);
        if gap < target + TOI_TOLERANCE {
            return if iter == 0 { None } else { Some(t) };
        }
        let rate = n.dot(dc).max(Fixed::ZERO) + angular;
        if !rate.is_positive() {
            // The gap along this fixed axis cannot shrink: never within target.
            return None;
        }
        t += (gap - target) / rate;
        if t >= Fixed::ONE {
            return None;
        }
    }
    Some(t)
}

/// A lower bound of the signed distance between the two shapes (skins and radii included;
/// negative when they overlap). Exact for two circles, and (up to rounding) for any pair whose
/// cores are separated or, for polygons, overlapping.
pub fn separation_lower_bound(a: &Shape, xf_a: &Transform, b: &Shape, xf_b: &Transform) -> Fixed {
    separating_axis(a, xf_a, b, xf_b).1
}

/// A shape's core in world space: a point (circle centre) or a polygon, plus its radius.
enum Core {
    Point(Vec2),
    Poly(WorldPolygon),
}

impl Core {
    fn new(s: &Shape, xf: &Transform) -> Core {
        match s {
            Shape::Circle(c) => Core::Point(xf.apply(c.center)),
            Shape::Polygon(p) => Core::Poly(WorldPolygon::new(p, xf)),
        }
    }

    fn points(&self) -> &[Vec2] {
        match self {
            Core::Point(p) => core::slice::from_ref(p),
            Core::Poly(w) => w.vertices(),
        }
    }

    /// `max_p n·p` over the core.
    fn max_along(&self, n: Vec2) -> Fixed {
        self.points().iter().map(|&p| n.dot(p)).max().unwrap_or(Fixed::ZERO)
    }

    /// `min_p n·p` over the core.
    fn min_along(&self, n: Vec2) -> Fixed {
        self.points().iter().map(|&p| n.dot(p)).min().unwrap_or(Fixed::ZERO)
    }

    /// Closest point of the core's boundary (or the point itself) to `x`, with the distance.
    fn closest_to(&self, x: Vec2) -> (Vec2, Fixed) {
        match self {
            Core::Point(p) => (*p, (x - *p).length()),
            Core::Poly(w) => {
                let vs = w.vertices();
                let mut best = (vs[0], Fixed::MAX);
                for i in 0..vs.len() {
                    let q = closest_on_segment(vs[i], vs[(i + 1) % vs.len()], x);
                    let d = (x - q).length();
                    if d < best.1 {
                        best = (q, d);
                    }
                }
                best
            }
        }
    }
}

/// Closest point to `x` on the segment `v1 v2`.
fn closest_on_segment(v1: Vec2, v2: Vec2, x: Vec2) -> Vec2 {
    let e = v2 - v1;
    let num = (x - v1).dot(e);
    if !num.is_positive() {
        return v1;
    }
    let den = e.length_squared();
    if num >= den {
        return v2;
    }
    v1 + Vec2::new(e.x.mul_div(num, den), e.y.mul_div(num, den))
}

/// The best axis found (unit, from A to B) and the projected gap along it, radii included.
fn separating_axis(a: &Shape, xf_a: &Transform, b: &Shape, xf_b: &Transform) -> (Vec2, Fixed) {
    let ca = Core::new(a, xf_a);
    let cb = Core::new(b, xf_b);
    let radii = a.radius() + b.radius();
    let gap = |n: Vec2| cb.min_along(n) - ca.max_along(n) - radii;

    // Fallback for coincident circle centres.
    let mut best_n = Vec2::new(Fixed::ONE, Fixed::ZERO);
    let mut best = gap(best_n);
    let consider = |n: Vec2, best_n: &mut Vec2, best: &mut Fixed| {
        let g = gap(n);
        if g > *best {
            *best = g;
            *best_n = n;
        }
    };

    // Face normals (separating-axis test): A's outward normals, B's reversed.
    let mut cores_overlap = false;
    if let (Core::Poly(pa), Core::Poly(pb)) = (&ca, &cb) {
        let (fa, sa) = max_face_separation(pa, pb);
        let (fb, sb) = max_face_separation(pb, pa);
        consider(pa.normals[fa], &mut best_n, &mut best);
        consider(-pb.normals[fb], &mut best_n, &mut best);
        cores_overlap = !sa.is_positive() || !sb.is_positive();
    } else {
        if let Core::Poly(pa) = &ca {
            for &n in pa.normals() {
                consider(n, &mut best_n, &mut best);
            }
        }
        if let Core::Poly(pb) = &cb {
            for &n in pb.normals() {
                consider(-n, &mut best_n, &mut best);
            }
        }
    }

    // Direction between the closest points of the cores (vertex against feature, both ways).
    if !cores_overlap {
        let mut pair = (Vec2::ZERO, Vec2::ZERO);
        let mut dist = Fixed::MAX;
        for &p in ca.points() {
            let (q, d) = cb.closest_to(p);
            if d < dist {
                dist = d;
                pair = (p, q);
            }
        }
        for &q in cb.points() {
            let (p, d) = ca.closest_to(q);
            if d < dist {
                dist = d;
                pair = (p, q);
            }
        }
        if let Some((n, _)) = (pair.1 - pair.0).normalize_with_length() {
            consider(n, &mut best_n, &mut best);
        }
    }
    (best_n, best)
}
