//! Contact manifolds: up to two points of contact between two convex shapes, stored in the
//! shapes' local frames so that the position solver can re-evaluate them as bodies move.
//!
//! Convention (as in Box2D's documented manifold format):
//! * [`ManifoldKind::Circles`]: `local_point` is the centre of circle A in A's frame; the single
//!   point's `local_point` is the centre of circle B in B's frame; `local_normal` is unused.
//! * [`ManifoldKind::FaceA`]: `local_normal` is the outward normal of A's reference face and
//!   `local_point` a point on that face, both in A's frame; each point's `local_point` is a
//!   clipped vertex of B (the incident shape) in B's frame.
//! * [`ManifoldKind::FaceB`]: the same with the roles of A and B exchanged (the reference face is
//!   on B, the points are on A).
//!
//! In world space the normal always points from A to B.

use arrayvec::ArrayVec;

use crate::fixed::Fixed;
use crate::math::{Transform, Vec2};

/// Which features of the two shapes produced a point: matched across steps for warm starting.
/// Packed as `index_a | index_b << 8 | type_a << 16 | type_b << 24` (type 0 vertex, 1 face).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FeatureId(pub u32);

pub const FEATURE_VERTEX: u8 = 0;
pub const FEATURE_FACE: u8 = 1;

impl FeatureId {
    #[inline]
    pub const fn new(index_a: u8, index_b: u8, type_a: u8, type_b: u8) -> FeatureId {
        FeatureId(
            index_a as u32 | (index_b as u32) << 8 | (type_a as u32) << 16 | (type_b as u32) << 24,
        )
    }

    /// The same feature seen from the other shape (A and B exchanged).
    #[inline]
    pub const fn swapped(self) -> FeatureId {
        let b = self.0.to_le_bytes();
        FeatureId::new(b[1], b[0], b[3], b[2])
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ManifoldKind {
    #[default]
    Circles,
    FaceA,
    FaceB,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ManifoldPoint {
    /// See the module documentation for the frame.
    pub local_point: Vec2,
    /// Accumulated normal impulse (kept for warm starting).
    pub normal_impulse: Fixed,
    /// Accumulated friction impulse (kept for warm starting).
    pub tangent_impulse: Fixed,
    pub id: FeatureId,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Manifold {
    pub kind: ManifoldKind,
    pub local_normal: Vec2,
    pub local_point: Vec2,
    /// 0, 1 or 2 points; none means not touching.
    pub points: ArrayVec<ManifoldPoint, 2>,
}

impl Manifold {
    #[inline]
    pub fn points(&self) -> &[ManifoldPoint] {
        &self.points
    }
}

/// A manifold evaluated in world space.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WorldManifold {
    /// Unit normal from A to B.
    pub normal: Vec2,
    /// Contact points, midway between the two surfaces.
    pub points: [Vec2; 2],
    /// Signed distances between the surfaces (negative: overlap).
    pub separations: [Fixed; 2],
}

impl WorldManifold {
    /// Evaluate `m` for shapes with collision radii `radius_a`, `radius_b` at the given transforms.
    pub fn new(
        m: &Manifold,
        xf_a: &Transform,
        radius_a: Fixed,
        xf_b: &Transform,
        radius_b: Fixed,
    ) -> WorldManifold {
        let mut wm = WorldManifold::default();
        if m.points.is_empty() {
            return wm;
        }
        match m.kind {
            ManifoldKind::Circles => {
                let (pa, pb, normal) = circle_centres(m, xf_a, xf_b);
                let ca = pa + normal.scale(radius_a);
                let cb = pb - normal.scale(radius_b);
                wm.normal = normal;
                wm.points[0] = (ca + cb).scale(Fixed::HALF);
                wm.separations[0] = (cb - ca).dot(normal);
            }
            ManifoldKind::FaceA => {
                wm.normal = wm.set_face_points(m, xf_a, radius_a, xf_b, radius_b);
            }
            ManifoldKind::FaceB => {
                // Keep the A → B convention.
                wm.normal = -wm.set_face_points(m, xf_b, radius_b, xf_a, radius_a);
            }
        }
        wm
    }

    /// The points and separations of a face manifold whose reference face is on the shape at
    /// `xf_ref` (radius `radius_ref`) and whose points are on the other, the incident shape;
    /// returns the face's normal, which points from the reference shape to the incident one.
    /// FaceA passes A as the reference, FaceB passes B.
    #[inline]
    fn set_face_points(
        &mut self,
        m: &Manifold,
        xf_ref: &Transform,
        radius_ref: Fixed,
        xf_inc: &Transform,
        radius_inc: Fixed,
    ) -> Vec2 {
        let (normal, plane) = reference_face(m, xf_ref);
        for (i, p) in m.points().iter().enumerate() {
            let clip = xf_inc.apply(p.local_point);
            let c_ref = clip + normal.scale(radius_ref - (clip - plane).dot(normal));
            let c_inc = clip - normal.scale(radius_inc);
            // Fixed addition wraps, so it commutes: FaceB's midpoint, once summed as
            // incident + reference, has the same bits.
            self.points[i] = (c_ref + c_inc).scale(Fixed::HALF);
            self.separations[i] = (c_inc - c_ref).dot(normal);
        }
        normal
    }
}

/// A circles manifold's two centres in world space and the unit normal from A's to B's
/// (+x when they coincide).
#[inline]
fn circle_centres(m: &Manifold, xf_a: &Transform, xf_b: &Transform) -> (Vec2, Vec2, Vec2) {
    let pa = xf_a.apply(m.local_point);
    let pb = xf_b.apply(m.points[0].local_point);
    let normal = (pb - pa)
        .normalize_with_length()
        .map_or(Vec2::new(Fixed::ONE, Fixed::ZERO), |(n, _)| n);
    (pa, pb, normal)
}

/// A face manifold's reference face in world space: its unit normal and a point on it, for the
/// shape at `xf_ref` that owns it.
#[inline]
fn reference_face(m: &Manifold, xf_ref: &Transform) -> (Vec2, Vec2) {
    (xf_ref.q.apply(m.local_normal), xf_ref.apply(m.local_point))
}

/// Point `index` of a face manifold (the incident shape at `xf_inc`) and its distance from the
/// reference face (the shape at `xf_ref`) along the face's normal, radii not included; with
/// that normal.
#[inline]
fn face_point(
    m: &Manifold,
    index: usize,
    xf_ref: &Transform,
    xf_inc: &Transform,
) -> (Vec2, Vec2, Fixed) {
    let (normal, plane) = reference_face(m, xf_ref);
    let clip = xf_inc.apply(m.points[index].local_point);
    (normal, clip, (clip - plane).dot(normal))
}

/// One point of a manifold re-evaluated for the position solver: normal (A → B), the point
/// between the surfaces, and the separation (negative: overlap), for point `index`.
pub fn position_point(
    m: &Manifold,
    index: usize,
    xf_a: &Transform,
    radius_a: Fixed,
    xf_b: &Transform,
    radius_b: Fixed,
) -> (Vec2, Vec2, Fixed) {
    match m.kind {
        ManifoldKind::Circles => {
            let (pa, pb, normal) = circle_centres(m, xf_a, xf_b);
            let point = (pa + pb).scale(Fixed::HALF);
            let sep = (pb - pa).dot(normal) - radius_a - radius_b;
            (normal, point, sep)
        }
        ManifoldKind::FaceA => {
            let (normal, clip, distance) = face_point(m, index, xf_a, xf_b);
            (normal, clip, distance - radius_a - radius_b)
        }
        ManifoldKind::FaceB => {
            let (normal, clip, distance) = face_point(m, index, xf_b, xf_a);
            (-normal, clip, distance - radius_a - radius_b)
        }
    }
}
