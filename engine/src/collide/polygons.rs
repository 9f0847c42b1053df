//! Two polygons: separating-axis test over the face normals of both, a reference face (on A
//! unless B's is clearly better), the most anti-parallel incident edge of the other polygon,
//! and clipping of that edge against the side planes of the reference face.

use super::world_polygon::{max_face_separation, midpoint, WorldPolygon};
use crate::fixed::Fixed;
use crate::manifold::{
    FeatureId, Manifold, ManifoldKind, ManifoldPoint, FEATURE_FACE, FEATURE_VERTEX,
};
use crate::math::{Transform, Vec2};
use crate::settings::LINEAR_SLOP;
use crate::shape::Polygon;

/// Reference-face hysteresis: B's face is used only when its separation exceeds A's by more than
/// this (0.1 · linear slop), so that the choice does not flicker between steps.
const REFERENCE_TOLERANCE: Fixed = Fixed::from_raw(LINEAR_SLOP.raw() / 10);

/// Two polygons, both placed (`wa` = `WorldPolygon::new(a, xf_a)`, `wb` likewise): up to two
/// points from clipping the incident edge against the reference face.
pub(super) fn collide_placed_polygons(
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
