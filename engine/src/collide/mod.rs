//! Collision of two convex shapes: the contact manifolds that the narrow phase (`contact.rs`) and
//! continuous collision (`continuous.rs`) compute.
//!
//! The manifolds follow the convention documented in [`crate::manifold`]: `Circles` for two
//! circles, `FaceA` / `FaceB` when the reference face (or, for a polygon and a circle, the
//! reference vertex direction) belongs to shape A / B. The world normal always points from A
//! to B. Every function here is deterministic, uses only fixed-point arithmetic and never panics.
//!
//! The algorithms are the classical ones Box2D 2.3.2 uses, one file per shape pair:
//! * `circles.rs`, circle–circle: one point when the centres are within the sum of the radii;
//! * `polygon_circle.rs`: the face of greatest separation, then the Voronoi region of the circle
//!   centre (face interior or one of the face's two vertices);
//! * `polygons.rs`, polygon–polygon: separating-axis test over the face normals of both
//!   polygons, a reference face (on A unless B's is clearly better), the most anti-parallel
//!   incident edge of the other polygon, and clipping of that edge against the side planes of
//!   the reference face.
//!
//! `world_polygon.rs` holds the placed polygons they share with time of impact (`toi/`);
//! `tests.rs` the tests. Here: the dispatch on the shape kinds.

mod circles;
mod polygon_circle;
mod polygons;
#[cfg(test)]
mod tests;
mod world_polygon;

use circles::collide_circles;
use polygon_circle::collide_polygon_circle;
use polygons::collide_placed_polygons;
pub(crate) use world_polygon::{max_face_separation, WorldPolygon};

use crate::manifold::{Manifold, ManifoldKind};
use crate::math::Transform;
use crate::shape::{Polygon, Shape};

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
