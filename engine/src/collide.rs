//! Narrow phase: contact manifolds between pairs of convex shapes.
//! (Being written; see the manifold conventions in `manifold.rs`.)

use crate::manifold::Manifold;
use crate::math::Transform;
use crate::shape::{Circle, Polygon, Shape};

pub fn collide_circles(_a: &Circle, _xf_a: &Transform, _b: &Circle, _xf_b: &Transform) -> Manifold {
    Manifold::default()
}

pub fn collide_polygon_circle(_a: &Polygon, _xf_a: &Transform, _b: &Circle, _xf_b: &Transform) -> Manifold {
    Manifold::default()
}

pub fn collide_polygons(_a: &Polygon, _xf_a: &Transform, _b: &Polygon, _xf_b: &Transform) -> Manifold {
    Manifold::default()
}

/// Dispatch on the shape kinds. A circle–polygon pair is collided as polygon–circle with the
/// result's A/B exchanged (see [`crate::manifold`] for the convention).
pub fn collide_shapes(_a: &Shape, _xf_a: &Transform, _b: &Shape, _xf_b: &Transform) -> Manifold {
    Manifold::default()
}
