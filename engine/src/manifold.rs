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
                let pa = xf_a.apply(m.local_point);
                let pb = xf_b.apply(m.points[0].local_point);
                let normal = (pb - pa)
                    .normalize_with_length()
                    .map_or(Vec2::new(Fixed::ONE, Fixed::ZERO), |(n, _)| n);
                let ca = pa + normal.scale(radius_a);
                let cb = pb - normal.scale(radius_b);
                wm.normal = normal;
                wm.points[0] = (ca + cb).scale(Fixed::HALF);
                wm.separations[0] = (cb - ca).dot(normal);
            }
            ManifoldKind::FaceA => {
                let normal = xf_a.q.apply(m.local_normal);
                let plane = xf_a.apply(m.local_point);
                for (i, p) in m.points().iter().enumerate() {
                    let clip = xf_b.apply(p.local_point);
                    let ca = clip + normal.scale(radius_a - (clip - plane).dot(normal));
                    let cb = clip - normal.scale(radius_b);
                    wm.points[i] = (ca + cb).scale(Fixed::HALF);
                    wm.separations[i] = (cb - ca).dot(normal);
                }
                wm.normal = normal;
            }
            ManifoldKind::FaceB => {
                let normal = xf_b.q.apply(m.local_normal);
                let plane = xf_b.apply(m.local_point);
                for (i, p) in m.points().iter().enumerate() {
                    let clip = xf_a.apply(p.local_point);
                    let cb = clip + normal.scale(radius_b - (clip - plane).dot(normal));
                    let ca = clip - normal.scale(radius_a);
                    wm.points[i] = (ca + cb).scale(Fixed::HALF);
                    wm.separations[i] = (ca - cb).dot(normal);
                }
                // Keep the A → B convention.
                wm.normal = -normal;
            }
        }
        wm
    }
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
            let pa = xf_a.apply(m.local_point);
            let pb = xf_b.apply(m.points[0].local_point);
            let normal = (pb - pa)
                .normalize_with_length()
                .map_or(Vec2::new(Fixed::ONE, Fixed::ZERO), |(n, _)| n);
            let point = (pa + pb).scale(Fixed::HALF);
            let sep = (pb - pa).dot(normal) - radius_a - radius_b;
            (normal, point, sep)
        }
        ManifoldKind::FaceA => {
            let normal = xf_a.q.apply(m.local_normal);
            let plane = xf_a.apply(m.local_point);
            let clip = xf_b.apply(m.points[index].local_point);
            let sep = (clip - plane).dot(normal) - radius_a - radius_b;
            (normal, clip, sep)
        }
        ManifoldKind::FaceB => {
            let normal = xf_b.q.apply(m.local_normal);
            let plane = xf_b.apply(m.local_point);
            let clip = xf_a.apply(m.points[index].local_point);
            let sep = (clip - plane).dot(normal) - radius_a - radius_b;
            (-normal, clip, sep)
        }
    }
}
