//! Polygons placed in world space and the face of one that best separates it from another
//! (the polygon collisions and time of impact use both), and the midpoint of a face.

use crate::fixed::Fixed;
use crate::math::{Transform, Vec2};
use crate::shape::{Polygon, MAX_POLYGON_VERTICES};

/// The midpoint of two points (a face's vertices: the manifolds' reference point).
#[inline]
pub(super) fn midpoint(a: Vec2, b: Vec2) -> Vec2 {
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
