//! Convex shapes (circles and polygons with a skin), their mass properties and bounding boxes.

use crate::fixed::Fixed;
use crate::math::{Transform, Vec2};
use crate::settings::{LINEAR_SLOP, POLYGON_RADIUS};

/// Most vertices a convex polygon may have.
pub const MAX_POLYGON_VERTICES: usize = 8;

/// A circle centred at `center` in body coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Circle {
    pub center: Vec2,
    pub radius: Fixed,
}

/// A convex polygon in body coordinates, counter-clockwise, with outward unit edge normals and a
/// skin of [`POLYGON_RADIUS`] (collision treats it as rounded by that much).
// The vertices and normals stay fixed arrays with one hand-kept count, not two
// `arrayvec::ArrayVec`s: measured 2026-11-28, the ArrayVec form (this type and `WorldPolygon`)
// made the ball timing pairs about 2 % slower (docs/engine.md); it would also keep two lengths
// equal by hand, and take `Copy` away from `Polygon` and `Shape`. Entries past `count` are zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Polygon {
    count: u8,
    vertices: [Vec2; MAX_POLYGON_VERTICES],
    normals: [Vec2; MAX_POLYGON_VERTICES],
    centroid: Vec2,
}

/// Why a polygon could not be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolygonError {
    /// Fewer than 3 distinct, non-collinear points (after welding points closer than half a slop).
    Degenerate,
    /// More than [`MAX_POLYGON_VERTICES`] hull vertices.
    TooManyVertices,
}

impl core::fmt::Display for PolygonError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            PolygonError::Degenerate => {
                f.write_str("polygon is degenerate (fewer than 3 hull points)")
            }
            PolygonError::TooManyVertices => write!(
                f,
                "polygon hull has more than {MAX_POLYGON_VERTICES} vertices"
            ),
        }
    }
}

impl std::error::Error for PolygonError {}

/// Mass properties of a shape or body, about the body origin.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MassData {
    pub mass: Fixed,
    /// Centre of mass in body coordinates.
    pub center: Vec2,
    /// Rotational inertia about the body origin.
    pub inertia: Fixed,
}

impl Polygon {
    /// The convex hull of `points` (gift wrapping; points closer than half a linear slop are
    /// welded; collinear points dropped). Deterministic for any input order.
    pub fn new(points: &[Vec2]) -> Result<Polygon, PolygonError> {
        // Weld near-duplicates, keeping the first occurrence.
        let weld = (LINEAR_SLOP.div_int(2)) * (LINEAR_SLOP.div_int(2));
        let mut ps: Vec<Vec2> = Vec::with_capacity(points.len());
        for &p in points {
            if ps.iter().all(|&q| (p - q).length_squared() > weld) {
                ps.push(p);
            }
        }
        if ps.len() < 3 {
            return Err(PolygonError::Degenerate);
        }
        // Start at the rightmost point (lowest y on ties).
        let mut start = 0;
        for (i, p) in ps.iter().enumerate() {
            let s = ps[start];
            if p.x > s.x || (p.x == s.x && p.y < s.y) {
                start = i;
            }
        }
        let mut hull: Vec<usize> = Vec::new();
        let mut current = start;
        loop {
            if hull.len() > ps.len() {
                return Err(PolygonError::Degenerate);
            }
            hull.push(current);
            let mut next = if current == 0 { 1 } else { 0 };
            for j in 0..ps.len() {
                if j == current || j == next {
                    continue;
                }
                let r = ps[next] - ps[current];
                let v = ps[j] - ps[current];
                let c = r.cross(v);
                // j is to the right of current→next: it wraps tighter; collinear: farther wins.
                if c < Fixed::ZERO || (c == Fixed::ZERO && v.length_squared() > r.length_squared())
                {
                    next = j;
                }
            }
            current = next;
            if current == start {
                break;
            }
        }
        if hull.len() < 3 {
            return Err(PolygonError::Degenerate);
        }
        if hull.len() > MAX_POLYGON_VERTICES {
            return Err(PolygonError::TooManyVertices);
        }
        let mut vertices = [Vec2::ZERO; MAX_POLYGON_VERTICES];
        for (k, &i) in hull.iter().enumerate() {
            vertices[k] = ps[i];
        }
        let n = hull.len();
        let mut normals = [Vec2::ZERO; MAX_POLYGON_VERTICES];
        for i in 0..n {
            let e = vertices[(i + 1) % n] - vertices[i];
            let (u, _) = Vec2::new(e.y, -e.x)
                .normalize_with_length()
                .ok_or(PolygonError::Degenerate)?;
            normals[i] = u;
        }
        let mut poly = Polygon {
            count: n as u8,
            vertices,
            normals,
            centroid: Vec2::ZERO,
        };
        let md = poly.mass(Fixed::ONE);
        if md.mass.raw() <= 0 {
            return Err(PolygonError::Degenerate);
        }
        poly.centroid = md.center;
        Ok(poly)
    }

    /// An axis-aligned box of half-extents `hx`, `hy` centred at `center` and rotated by `angle`.
    pub fn new_box(
        hx: Fixed,
        hy: Fixed,
        center: Vec2,
        angle: Fixed,
    ) -> Result<Polygon, PolygonError> {
        let xf = Transform::new(center, angle);
        let corners = [
            Vec2::new(-hx, -hy),
            Vec2::new(hx, -hy),
            Vec2::new(hx, hy),
            Vec2::new(-hx, hy),
        ];
        Polygon::new(&corners.map(|c| xf.apply(c)))
    }

    #[inline]
    pub fn count(&self) -> usize {
        self.count as usize
    }

    #[inline]
    pub fn vertices(&self) -> &[Vec2] {
        &self.vertices[..self.count as usize]
    }

    #[inline]
    pub fn normals(&self) -> &[Vec2] {
        &self.normals[..self.count as usize]
    }

    /// Area centroid in body coordinates.
    #[inline]
    pub fn centroid(&self) -> Vec2 {
        self.centroid
    }

    /// The skin radius ([`POLYGON_RADIUS`]).
    #[inline]
    pub fn radius(&self) -> Fixed {
        POLYGON_RADIUS
    }

    /// Mass properties at `density` (the skin is not counted, as in Box2D).
    pub fn mass(&self, density: Fixed) -> MassData {
        let vs = self.vertices();
        let r = vs[0];
        let mut area = Fixed::ZERO;
        let mut c = Vec2::ZERO; // Σ area·(e1 + e2), divided by 3·area at the end
        let mut i_ref = Fixed::ZERO; // Σ D·(∫x² + ∫y²) terms, divided by 12 at the end
        for i in 1..vs.len() - 1 {
            let e1 = vs[i] - r;
            let e2 = vs[i + 1] - r;
            let d = e1.cross(e2);
            area += d;
            c += (e1 + e2).scale(d);
            let ix = e1.x * e1.x + e2.x * e1.x + e2.x * e2.x;
            let iy = e1.y * e1.y + e2.y * e1.y + e2.y * e2.y;
            i_ref += d * (ix + iy);
        }
        // area holds 2·A; c holds Σ 2A_t·(e1+e2) so centroid offset = c / (3·2A).
        if area.raw() <= 0 {
            return MassData::default();
        }
        let offset = Vec2::new(c.x / area.mul_int(3), c.y / area.mul_int(3));
        let a = area.div_int(2);
        let mass = density * a;
        // ∫ r² over the polygon about the reference point = Σ D/12·(ix + iy).
        let inertia_ref = density * i_ref.div_int(12);
        let center = r + offset;
        // Shift: about the centroid, then about the body origin.
        let inertia_c = inertia_ref - mass * offset.length_squared();
        let inertia = inertia_c + mass * center.length_squared();
        MassData {
            mass,
            center,
            inertia,
        }
    }

    /// Bounding box of the polygon (with its skin) under `xf`.
    pub fn aabb(&self, xf: &Transform) -> Aabb {
        let vs = self.vertices();
        let mut lo = xf.apply(vs[0]);
        let mut hi = lo;
        for &v in &vs[1..] {
            let w = xf.apply(v);
            lo = lo.min(w);
            hi = hi.max(w);
        }
        let r = Vec2::new(POLYGON_RADIUS, POLYGON_RADIUS);
        Aabb {
            lower: lo - r,
            upper: hi + r,
        }
    }
}

impl Circle {
    pub fn mass(&self, density: Fixed) -> MassData {
        let r2 = self.radius * self.radius;
        let mass = density * Fixed::PI * r2;
        let inertia = mass * (r2.div_int(2) + self.center.length_squared());
        MassData {
            mass,
            center: self.center,
            inertia,
        }
    }

    pub fn aabb(&self, xf: &Transform) -> Aabb {
        let p = xf.apply(self.center);
        let r = Vec2::new(self.radius, self.radius);
        Aabb {
            lower: p - r,
            upper: p + r,
        }
    }
}

/// One convex part of a body.
// Polygons are stored inline: parts are read in the narrow phase every step, and an extra
// indirection there costs more than the memory a circle wastes.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    Circle(Circle),
    Polygon(Polygon),
}

impl Shape {
    pub fn mass(&self, density: Fixed) -> MassData {
        match self {
            Shape::Circle(c) => c.mass(density),
            Shape::Polygon(p) => p.mass(density),
        }
    }

    pub fn aabb(&self, xf: &Transform) -> Aabb {
        match self {
            Shape::Circle(c) => c.aabb(xf),
            Shape::Polygon(p) => p.aabb(xf),
        }
    }

    /// Whether a body with its centre of mass at `local_center` places this shape by its centre
    /// alone: a circle centred on the body origin, which is the centre of mass. The body's
    /// rotation then moves no point of the shape (rotating the zero vector gives exactly zero in
    /// fixed point), so its rotation may be left out wherever it only places this shape.
    pub(crate) fn turns_in_place(&self, local_center: Vec2) -> bool {
        local_center == Vec2::ZERO && matches!(self, Shape::Circle(c) if c.center == Vec2::ZERO)
    }

    /// Collision radius: the circle's radius or the polygon skin.
    pub fn radius(&self) -> Fixed {
        match self {
            Shape::Circle(c) => c.radius,
            Shape::Polygon(_) => POLYGON_RADIUS,
        }
    }

    /// Largest distance of any point of the shape from the body-local point `c` (for motion bounds).
    pub fn extent_from(&self, c: Vec2) -> Fixed {
        match self {
            Shape::Circle(ci) => (ci.center - c).length() + ci.radius,
            Shape::Polygon(p) => {
                p.vertices()
                    .iter()
                    .map(|&v| (v - c).length())
                    .max()
                    .unwrap_or(Fixed::ZERO)
                    + POLYGON_RADIUS
            }
        }
    }
}

/// Axis-aligned bounding box.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Aabb {
    pub lower: Vec2,
    pub upper: Vec2,
}

impl Aabb {
    #[inline]
    pub fn overlaps(&self, o: &Aabb) -> bool {
        self.lower.x <= o.upper.x
            && o.lower.x <= self.upper.x
            && self.lower.y <= o.upper.y
            && o.lower.y <= self.upper.y
    }

    #[inline]
    pub fn union(&self, o: &Aabb) -> Aabb {
        Aabb {
            lower: self.lower.min(o.lower),
            upper: self.upper.max(o.upper),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f64, y: f64) -> Vec2 {
        Vec2::from_f64(x, y).unwrap()
    }

    #[allow(clippy::float_arithmetic)]
    #[test]
    fn box_mass_matches_closed_form() {
        // 2 × 1 box centred at (3, 0): m = ρ·2, I_origin = m·(4 + 1)/12 + m·9.
        let p = Polygon::new_box(Fixed::ONE, Fixed::HALF, v(3.0, 0.0), Fixed::ZERO).unwrap();
        let md = p.mass(Fixed::from_f64(0.25).unwrap());
        assert_eq!(md.mass, Fixed::from_f64(0.5).unwrap());
        assert!((md.center.x.to_f64() - 3.0).abs() < 1e-8 && md.center.y.to_f64().abs() < 1e-8);
        let expect = 0.5 * 5.0 / 12.0 + 0.5 * 9.0;
        assert!(
            (md.inertia.to_f64() - expect).abs() < 1e-7,
            "{} vs {expect}",
            md.inertia
        );
    }

    #[test]
    fn hull_orders_counter_clockwise_and_drops_interior_and_collinear_points() {
        let p = Polygon::new(&[
            v(0.0, 0.0),
            v(1.0, 1.0),
            v(1.0, 0.0),
            v(0.0, 1.0),
            v(0.5, 0.5),
            v(0.5, 0.0),
        ])
        .unwrap();
        assert_eq!(p.count(), 4);
        let vs = p.vertices();
        for i in 0..4 {
            let e1 = vs[(i + 1) % 4] - vs[i];
            let e2 = vs[(i + 2) % 4] - vs[(i + 1) % 4];
            assert!(e1.cross(e2).is_positive());
        }
        assert_eq!(
            Polygon::new(&[v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0)]),
            Err(PolygonError::Degenerate)
        );
        assert_eq!(
            Polygon::new(&[v(0.0, 0.0), v(0.001, 0.0), v(0.0, 0.001)]),
            Err(PolygonError::Degenerate)
        );
    }

    #[allow(clippy::float_arithmetic)]
    #[test]
    fn circle_mass_matches_closed_form() {
        let c = Circle {
            center: v(1.0, 0.0),
            radius: Fixed::TWO,
        };
        let md = c.mass(Fixed::ONE);
        let m = std::f64::consts::PI * 4.0;
        assert!((md.mass.to_f64() - m).abs() < 1e-8);
        assert!((md.inertia.to_f64() - m * (2.0 + 1.0)).abs() < 1e-7);
    }
}
