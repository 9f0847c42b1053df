//! Float geometry used only by tests (of collision and of time of impact): exact signed
//! distances between shapes.
#![allow(clippy::float_arithmetic)]

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
