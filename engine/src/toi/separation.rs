//! A lower bound of the distance between two shapes, as conservative advancement needs it: the
//! best of the candidate axes (the polygons' face normals, the direction between the closest
//! points of the cores) and the gap of the shapes' projections along it, skins and radii
//! included; and the shapes' cores in world space that it searches.

use crate::collide::{max_face_separation, WorldPolygon};
use crate::fixed::Fixed;
use crate::math::{length_of_squared, Transform, Vec2};
use crate::shape::Shape;

/// A lower bound of the signed distance between the two shapes (skins and radii included;
/// negative when they overlap). Exact for two circles, and (up to rounding) for any pair whose
/// cores are separated or, for polygons, overlapping. (Only the tests ask for it alone.)
#[cfg(test)]
fn separation_lower_bound(a: &Shape, xf_a: &Transform, b: &Shape, xf_b: &Transform) -> Fixed {
    separating_axis(a, xf_a, b, xf_b).1
}

/// The best axis found (unit, from A to B) and the projected gap along it, radii included.
#[cfg(test)]
fn separating_axis(a: &Shape, xf_a: &Transform, b: &Shape, xf_b: &Transform) -> (Vec2, Fixed) {
    separating_axis_until(a, xf_a, b, &Core::new(b, xf_b), Fixed::MAX)
        .expect("never stops early at MAX")
}

/// A shape's core in world space: a single point (circle centre) or a polygon.
// Unboxed on purpose: boxing the polygon would allocate on every conservative-advancement step.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Core {
    Point([Vec2; 1]),
    Polygon(WorldPolygon),
}

impl Core {
    pub(crate) fn new(s: &Shape, xf: &Transform) -> Core {
        match s {
            Shape::Circle(c) => Core::Point([xf.apply(c.center)]),
            Shape::Polygon(p) => Core::Polygon(WorldPolygon::new(p, xf)),
        }
    }

    pub(crate) fn polygon(&self) -> Option<&WorldPolygon> {
        match self {
            Core::Point(_) => None,
            Core::Polygon(w) => Some(w),
        }
    }

    fn points(&self) -> &[Vec2] {
        match self {
            Core::Point(p) => p,
            Core::Polygon(w) => w.vertices(),
        }
    }

    /// `max_p n·p` over the core.
    fn max_along(&self, n: Vec2) -> Fixed {
        self.points()
            .iter()
            .map(|&p| n.dot(p))
            .max()
            .unwrap_or(Fixed::ZERO)
    }

    /// `min_p n·p` over the core.
    fn min_along(&self, n: Vec2) -> Fixed {
        self.points()
            .iter()
            .map(|&p| n.dot(p))
            .min()
            .unwrap_or(Fixed::ZERO)
    }

    /// Closest point of the core's boundary (or the point itself) to `x`, with the distance: the
    /// first candidate (in vertex order) of least [`Vec2::length`].
    fn closest_to(&self, x: Vec2) -> (Vec2, Nearest) {
        let vs = self.points();
        let mut best = (vs[0], Nearest::FAR);
        if self.polygon().is_none() {
            best.1.offer(x - vs[0]);
            return best;
        }
        for i in 0..vs.len() {
            let q = closest_on_segment(vs[i], vs[(i + 1) % vs.len()], x);
            if best.1.offer(x - q) {
                best.0 = q;
            }
        }
        best
    }
}

/// The least length offered so far. Offers are compared by [`Vec2::length`] (the floor of the
/// exact root of [`Vec2::length_squared_exact`], saturated) with the first of equal lengths kept,
/// exactly as comparing the lengths themselves would, but almost always without a square root:
/// a larger or equal square cannot have a smaller length (the root is monotone), and a square
/// smaller by at least 2·√S + 1 than the best's S certainly has one. Only a smaller square
/// closer than that, where both could floor to the same length, takes the roots.
#[derive(Clone, Copy)]
struct Nearest {
    squared: u128,
}

impl Nearest {
    /// Nothing offered yet: any offer whose length is not saturated is less.
    const FAR: Nearest = Nearest { squared: u128::MAX };

    /// Offer `v`'s length; true if it is strictly less than the best so far (and now the best).
    fn offer(&mut self, v: Vec2) -> bool {
        self.offer_squared(v.length_squared_exact())
    }

    fn offer_squared(&mut self, squared: u128) -> bool {
        // At or beyond this square the length saturates to Fixed::MAX: never less than the best.
        const SATURATED: u128 = (i64::MAX as u128) * (i64::MAX as u128);
        if squared >= self.squared || squared >= SATURATED {
            return false;
        }
        // √S < 2^h with h = ⌈bits(S) / 2⌉, so 2·⌊√S⌋ + 1 < 2^(h+1).
        let h = (128 - self.squared.leading_zeros()).div_ceil(2);
        let certain = self.squared - squared >= 1u128 << (h + 1).min(127);
        if certain || length_of_squared(squared) < length_of_squared(self.squared) {
            self.squared = squared;
            true
        } else {
            false
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

/// [`separating_axis`], except that it returns `None` as soon as a candidate axis shows a gap
/// of at least `enough` (the best gap is then at least `enough` too), before the costlier
/// closest-point axis. Otherwise the same axis and gap, bit for bit.
pub(super) fn separating_axis_until(
    a: &Shape,
    xf_a: &Transform,
    b: &Shape,
    cb: &Core,
    enough: Fixed,
) -> Option<(Vec2, Fixed)> {
    let ca = Core::new(a, xf_a);
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
    if let (Some(pa), Some(pb)) = (ca.polygon(), cb.polygon()) {
        let (fa, sa) = max_face_separation(pa, pb);
        let (fb, sb) = max_face_separation(pb, pa);
        consider(pa.normals[fa], &mut best_n, &mut best);
        consider(-pb.normals[fb], &mut best_n, &mut best);
        cores_overlap = !sa.is_positive() || !sb.is_positive();
    } else {
        if let Some(pa) = ca.polygon() {
            for &n in pa.normals() {
                consider(n, &mut best_n, &mut best);
            }
        }
        if let Some(pb) = cb.polygon() {
            for &n in pb.normals() {
                consider(-n, &mut best_n, &mut best);
            }
        }
    }

    if best >= enough {
        return None;
    }
    // Direction between the closest points of the cores (vertex against feature, both ways).
    if !cores_overlap {
        let mut pair = (Vec2::ZERO, Vec2::ZERO);
        let mut dist = Nearest::FAR;
        for &p in ca.points() {
            let (q, d) = cb.closest_to(p);
            if dist.offer_squared(d.squared) {
                pair = (p, q);
            }
        }
        for &q in cb.points() {
            let (p, d) = ca.closest_to(q);
            if dist.offer_squared(d.squared) {
                pair = (p, q);
            }
        }
        if let Some((n, _)) = (pair.1 - pair.0).normalize_with_length() {
            consider(n, &mut best_n, &mut best);
        }
    }
    Some((best_n, best))
}

#[cfg(test)]
#[allow(clippy::float_arithmetic)]
mod tests {
    use super::*;
    use crate::f64geom;
    use crate::test_shapes::{arb_box_or_ball, ball, bx, xf};
    use proptest::prelude::*;

    /// The index [`Nearest`] settles on: the first offer of least [`Vec2::length`].
    fn nearest_index(squares: &[u128]) -> Option<usize> {
        let mut n = Nearest::FAR;
        let mut at = None;
        for (i, &s) in squares.iter().enumerate() {
            if n.offer_squared(s) {
                at = Some(i);
            }
        }
        at
    }

    /// The same by comparing the lengths themselves.
    fn naive_index(squares: &[u128]) -> Option<usize> {
        let mut best = Fixed::MAX;
        let mut at = None;
        for (i, &s) in squares.iter().enumerate() {
            let l = length_of_squared(s);
            if l < best {
                best = l;
                at = Some(i);
            }
        }
        at
    }

    #[test]
    fn nearest_agrees_with_comparing_lengths_at_bucket_edges() {
        // Squares that floor to the same root (k², k² + 2k) and straddle an edge ((k+1)² − 1,
        // (k+1)²), offered in both orders, and saturated ones.
        let sat = (i64::MAX as u128) * (i64::MAX as u128);
        for k in [1u128, 7, 1 << 20, 3 << 31, 1 << 40, (1 << 62) + 12345] {
            let cases = [
                vec![k * k + 2 * k, k * k],
                vec![k * k, k * k + 2 * k],
                vec![(k + 1) * (k + 1), (k + 1) * (k + 1) - 1],
                vec![(k + 1) * (k + 1) - 1, (k + 1) * (k + 1)],
                vec![sat, k * k, sat - 1, k * k + 1],
            ];
            for c in cases {
                assert_eq!(nearest_index(&c), naive_index(&c), "{c:?}");
            }
        }
        assert_eq!(nearest_index(&[sat, u128::MAX]), None);
        assert_eq!(nearest_index(&[sat - 1]), naive_index(&[sat - 1]));
    }

    proptest! {
        #[test]
        fn nearest_agrees_with_comparing_lengths(
            base in 0u128..(1u128 << 100),
            deltas in proptest::collection::vec(0u128..(1u128 << 36), 1..12),
        ) {
            // Offers clustered within a few buckets of each other, where the roots can tie.
            let squares: Vec<u128> = deltas.iter().map(|d| base + d).collect();
            prop_assert_eq!(nearest_index(&squares), naive_index(&squares));
        }
    }

    #[test]
    fn lower_bound_is_exact_for_corner_to_corner_boxes() {
        // Two unit boxes whose nearest corners are (0.3, 0.4) apart: distance 0.5 − skins,
        // whereas the face normals alone only show 0.4.
        let a = bx(0.5, 0.5);
        let xa = xf(0.0, 0.0, 0.0);
        let xb = xf(1.3, 1.4, 0.0);
        let d = separation_lower_bound(&a, &xa, &a, &xb).to_f64();
        assert!((d - (0.5 - 0.02)).abs() < 1e-6, "{d}");
        // Circles: exact, also when overlapping.
        let d = separation_lower_bound(&ball(0.5), &xa, &ball(0.25), &xf(0.3, 0.4, 1.0)).to_f64();
        assert!((d - (0.5 - 0.75)).abs() < 1e-6, "{d}");
        // Overlapping boxes: minus the penetration depth.
        let d = separation_lower_bound(&a, &xa, &a, &xf(0.9, 0.3, 0.0)).to_f64();
        assert!((d - (-0.1 - 0.02)).abs() < 1e-6, "{d}");
        // Coincident circles: no panic, minus the radii.
        let d = separation_lower_bound(&ball(0.5), &xa, &ball(0.25), &xa).to_f64();
        assert!((d + 0.75).abs() < 1e-6, "{d}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1500))]
        #[test]
        fn lower_bound_never_exceeds_true_distance(a in arb_box_or_ball(), b in arb_box_or_ball(),
                                                   x in -5.0f64..5.0, y in -5.0f64..5.0, ang in -4.0f64..4.0) {
            let xa = xf(0.1, -0.2, 0.3);
            let xb = xf(x, y, ang);
            let lb = separation_lower_bound(&a, &xa, &b, &xb).to_f64();
            let d = f64geom::signed_distance(&a, &xa, &b, &xb);
            prop_assert!(lb <= d + 1e-6, "bound {} > distance {}", lb, d);
            // And tight: exact up to rounding (vertex–vertex included).
            prop_assert!(lb >= d - 1e-6, "bound {} far below distance {}", lb, d);
        }
    }
}
