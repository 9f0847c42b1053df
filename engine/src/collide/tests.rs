//! Collision tests: each shape pair against float geometry, feature ids, and random pairs.
#![allow(clippy::float_arithmetic)]

use super::collide_shapes;
use crate::f64geom;
use crate::fixed::Fixed;
use crate::manifold::{
    position_point, Manifold, ManifoldKind, WorldManifold, FEATURE_FACE, FEATURE_VERTEX,
};
use crate::math::{Transform, Vec2};
use crate::shape::{Circle, Polygon, Shape};
use crate::test_shapes::{ball, bx, fx, v, xf};
use proptest::prelude::*;

/// Tolerance of the geometric checks (m).
const TOL: f64 = 1e-6;
const SKIN: f64 = 0.01;

fn world(m: &Manifold, a: &Shape, xa: &Transform, b: &Shape, xb: &Transform) -> WorldManifold {
    WorldManifold::new(m, xa, a.radius(), xb, b.radius())
}

fn close(a: Fixed, b: f64, tol: f64) -> bool {
    (a.to_f64() - b).abs() <= tol
}

fn vclose(a: Vec2, x: f64, y: f64, tol: f64) -> bool {
    close(a.x, x, tol) && close(a.y, y, tol)
}

/// Checks that WorldManifold and position_point agree on every point, and that the normal is
/// a unit vector; returns the world manifold.
fn consistent(m: &Manifold, a: &Shape, xa: &Transform, b: &Shape, xb: &Transform) -> WorldManifold {
    let wm = world(m, a, xa, b, xb);
    if !m.points.is_empty() {
        assert!(
            close(wm.normal.length(), 1.0, 1e-8),
            "normal {:?}",
            wm.normal
        );
    }
    for i in 0..m.points.len() {
        let (n, _, s) = position_point(m, i, xa, a.radius(), xb, b.radius());
        assert!(
            vclose(n, wm.normal.x.to_f64(), wm.normal.y.to_f64(), 1e-8),
            "{n:?} vs {:?}",
            wm.normal
        );
        // WorldManifold projects through |n|² (≈ 1 to ~1e-9), position_point does not.
        let tol = 1e-8 * (1.0 + s.to_f64().abs());
        assert!(
            close(s, wm.separations[i].to_f64(), tol),
            "{s} vs {}",
            wm.separations[i]
        );
    }
    wm
}

#[test]
fn circles_touching_separated_overlapping_coincident() {
    let a = ball(0.5);
    let b = ball(0.3);
    // Exactly touching: one point, zero separation.
    let (xa, xb) = (xf(1.0, 2.0, 0.0), xf(1.8, 2.0, 0.0));
    let m = collide_shapes(&a, &xa, &b, &xb);
    assert_eq!((m.points.len(), m.kind), (1, ManifoldKind::Circles));
    let wm = consistent(&m, &a, &xa, &b, &xb);
    assert!(close(wm.separations[0], 0.0, TOL));
    // Separated by a hair: nothing.
    let m = collide_shapes(&a, &xa, &b, &xf(1.8001, 2.0, 0.0));
    assert_eq!(m.points.len(), 0);
    // Overlapping along a diagonal, centres offset inside rotated bodies.
    let ca = Shape::Circle(Circle {
        center: v(0.2, 0.0),
        radius: fx(0.5),
    });
    let xa = xf(0.0, 0.0, std::f64::consts::FRAC_PI_2); // centre at (0, 0.2)
    let xb = xf(0.3, 0.6, 0.0); // centre at (0.3, 0.6): distance 0.5
    let m = collide_shapes(&ca, &xa, &b, &xb);
    assert_eq!(m.points.len(), 1);
    let wm = consistent(&m, &ca, &xa, &b, &xb);
    assert!(close(wm.separations[0], 0.5 - 0.8, TOL));
    assert!(vclose(wm.normal, 0.6, 0.8, TOL));
    assert!(vclose(wm.points[0], 0.21, 0.48, TOL), "{:?}", wm.points[0]);
    // Coincident centres: a fixed fallback normal, full overlap, no panic.
    let m = collide_shapes(&a, &xa, &b, &xa);
    assert_eq!(m.points.len(), 1);
    let wm = consistent(&m, &a, &xa, &b, &xa);
    assert!(vclose(wm.normal, 1.0, 0.0, 0.0));
    assert!(close(wm.separations[0], -0.8, TOL));
}

/// A 1×1 box resting on a wide ground box with core gap `gap` (negative: overlap), both
/// rotated by `angle` about the origin, box shifted by `shift` along the ground.
fn resting(angle: f64, shift: f64, gap: f64) -> (Shape, Transform, Shape, Transform) {
    let (s, c) = angle.sin_cos();
    let ground = bx(5.0, 0.5);
    let xg = xf(1.0, -2.0, angle);
    // Local offset from the ground centre: (shift, 0.5 + 0.5 + gap).
    let (lx, ly) = (shift, 1.0 + gap);
    let xb = xf(1.0 + c * lx - s * ly, -2.0 + s * lx + c * ly, angle);
    (ground, xg, bx(0.5, 0.5), xb)
}

#[test]
fn box_resting_on_box_gives_two_points_with_overlap_separation() {
    for &(angle, gap) in &[(0.0, -0.004), (0.0, 0.0), (0.37, -0.003), (-2.1, 0.005)] {
        let (g, xg, b, xb) = resting(angle, 0.3, gap);
        let expect = gap - 2.0 * SKIN;
        let (s, c) = f64::sin_cos(angle);
        // Ground as A: reference face on A, normal = ground's up.
        let m = collide_shapes(&g, &xg, &b, &xb);
        assert_eq!(
            (m.points.len(), m.kind),
            (2, ManifoldKind::FaceA),
            "angle {angle}"
        );
        let wm = consistent(&m, &g, &xg, &b, &xb);
        assert!(vclose(wm.normal, -s, c, TOL));
        for i in 0..2 {
            assert!(
                close(wm.separations[i], expect, TOL),
                "{} vs {expect}",
                wm.separations[i]
            );
        }
        assert_ne!(m.points[0].id, m.points[1].id);
        // Box as A: both faces tie, so A (the box) is the reference; normal points down.
        let m = collide_shapes(&b, &xb, &g, &xg);
        assert_eq!((m.points.len(), m.kind), (2, ManifoldKind::FaceA));
        let wm = consistent(&m, &b, &xb, &g, &xg);
        assert!(vclose(wm.normal, s, -c, TOL));
        for i in 0..2 {
            assert!(
                close(wm.separations[i], expect, TOL),
                "{} vs {expect}",
                wm.separations[i]
            );
        }
    }
    // Exactly at the skin distance still touches; a little farther does not.
    let (g, xg, b, xb) = resting(0.0, 0.3, 2.0 * SKIN - 1e-7);
    assert_eq!(collide_shapes(&g, &xg, &b, &xb).points.len(), 2);
    let (g, xg, b, xb) = resting(0.0, 0.3, 2.0 * SKIN + 1e-4);
    assert_eq!(collide_shapes(&g, &xg, &b, &xb).points.len(), 0);
}

#[test]
fn box_hanging_over_an_edge_is_clipped_to_the_reference_face() {
    // Ground half-width 5 (x from −4 to 6 in ground coordinates shifted by 1); the box
    // centre at local x = 4.8 sticks out by 0.3: one point is clipped at the side plane
    // (ground edge + total radius).
    let (g, xg, b, xb) = resting(0.0, 4.8, -0.002);
    let m = collide_shapes(&g, &xg, &b, &xb);
    assert_eq!(m.points.len(), 2);
    let wm = consistent(&m, &g, &xg, &b, &xb);
    let mut xs = [wm.points[0].x.to_f64(), wm.points[1].x.to_f64()];
    xs.sort_by(f64::total_cmp);
    assert!((xs[0] - (1.0 + 4.3)).abs() < TOL, "{xs:?}");
    assert!((xs[1] - (1.0 + 5.0 + 2.0 * SKIN)).abs() < TOL, "{xs:?}");
    // The clipped point carries a (reference vertex, incident face) id.
    let clipped = m
        .points()
        .iter()
        .find(|p| p.id.0 >> 24 == FEATURE_FACE as u32);
    assert!(clipped.is_some(), "{:?}", m.points());
}

#[test]
fn rotated_box_corner_on_box_gives_one_point_on_faceb() {
    // A: unit box rotated 45°, its lowest corner 0.005 below B's (ground's) top face.
    let a = bx(0.5, 0.5);
    let half_diag = 0.5 * std::f64::consts::SQRT_2;
    let xa = xf(0.2, 0.5 + half_diag - 0.005, std::f64::consts::FRAC_PI_4);
    let g = bx(5.0, 0.5);
    let xg = xf(0.0, 0.0, 0.0);
    let m = collide_shapes(&a, &xa, &g, &xg);
    assert_eq!((m.points.len(), m.kind), (1, ManifoldKind::FaceB));
    let wm = consistent(&m, &a, &xa, &g, &xg);
    assert!(vclose(wm.normal, 0.0, -1.0, TOL), "{:?}", wm.normal);
    assert!(
        close(wm.separations[0], -0.005 - 2.0 * SKIN, TOL),
        "{}",
        wm.separations[0]
    );
    // Midway between the surfaces, below the corner at x = 0.2.
    // Midway between A's surface (corner − skin = 0.485) and B's (top + skin = 0.51).
    assert!(vclose(wm.points[0], 0.2, 0.4975, TOL), "{:?}", wm.points[0]);
    // The id describes A's vertex (the corner) against B's face: type_a vertex, type_b face.
    let id = m.points[0].id.0.to_le_bytes();
    assert_eq!((id[2], id[3]), (FEATURE_VERTEX, FEATURE_FACE));
    // Same pair in the other order: reference face on A now, normal up.
    let m = collide_shapes(&g, &xg, &a, &xa);
    assert_eq!((m.points.len(), m.kind), (1, ManifoldKind::FaceA));
    let wm = consistent(&m, &g, &xg, &a, &xa);
    assert!(vclose(wm.normal, 0.0, 1.0, TOL));
    assert!(close(wm.separations[0], -0.005 - 2.0 * SKIN, TOL));
    let id2 = m.points[0].id;
    assert_eq!(id2.swapped().0.to_le_bytes(), id);
}

#[test]
fn feature_ids_are_stable_while_a_box_slides() {
    let ids = |shift: f64, angle: f64| {
        let (g, xg, b, xb) = resting(angle, shift, -0.003);
        let m = collide_shapes(&g, &xg, &b, &xb);
        assert_eq!(m.points.len(), 2);
        let mut v: Vec<u32> = m.points().iter().map(|p| p.id.0).collect();
        v.sort_unstable();
        v
    };
    for &angle in &[0.0, 0.8] {
        let base = ids(0.3, angle);
        for k in 1..20 {
            assert_eq!(ids(0.3 + 0.01 * k as f64, angle), base, "shift step {k}");
        }
    }
    // And when B is the reference, ids still describe A then B.
    let a = bx(0.5, 0.5);
    let g = bx(5.0, 0.5);
    let idv = |x: f64| {
        let half_diag = 0.5 * std::f64::consts::SQRT_2;
        let xa = xf(x, 0.5 + half_diag - 0.004, std::f64::consts::FRAC_PI_4);
        collide_shapes(&a, &xa, &g, &Transform::IDENTITY).points[0].id
    };
    assert_eq!(idv(0.0), idv(0.05));
}

#[test]
fn polygon_circle_face_vertex_and_inside() {
    let p = bx(1.0, 1.0);
    let xp = xf(0.0, 0.0, 0.0);
    let r = 0.5;
    let total = r + SKIN;
    let c = ball(r);
    // Face region.
    let m = collide_shapes(&p, &xp, &c, &xf(0.3, 1.4, 0.0));
    assert_eq!((m.points.len(), m.kind), (1, ManifoldKind::FaceA));
    let wm = consistent(&m, &p, &xp, &c, &xf(0.3, 1.4, 0.0));
    assert!(vclose(wm.normal, 0.0, 1.0, TOL));
    assert!(close(wm.separations[0], 0.4 - total, TOL));
    // Face region, within the skin; and just beyond it.
    let m = collide_shapes(&p, &xp, &c, &xf(0.0, 1.505, 0.0));
    assert_eq!(m.points.len(), 1);
    assert!(close(
        consistent(&m, &p, &xp, &c, &xf(0.0, 1.505, 0.0)).separations[0],
        -0.005,
        TOL
    ));
    assert_eq!(
        collide_shapes(&p, &xp, &c, &xf(0.0, 1.5101, 0.0))
            .points
            .len(),
        0
    );
    // Vertex region: centre 0.5 from the corner (1, 1) along (0.6, 0.8).
    let xc = xf(1.3, 1.4, 0.0);
    let m = collide_shapes(&p, &xp, &c, &xc);
    assert_eq!((m.points.len(), m.kind), (1, ManifoldKind::FaceA));
    let wm = consistent(&m, &p, &xp, &c, &xc);
    assert!(vclose(wm.normal, 0.6, 0.8, TOL), "{:?}", wm.normal);
    assert!(close(wm.separations[0], 0.5 - total, TOL));
    assert!(vclose(m.local_point, 1.0, 1.0, TOL));
    // Vertex region out of reach (face separations are all within reach).
    assert_eq!(
        collide_shapes(&p, &xp, &c, &xf(1.4, 1.45, 0.0))
            .points
            .len(),
        0
    );
    // Centre inside: pushed out through the nearest face (top, 0.1 away).
    let xc = xf(0.2, 0.9, 0.0);
    let m = collide_shapes(&p, &xp, &c, &xc);
    let wm = consistent(&m, &p, &xp, &c, &xc);
    assert!(vclose(wm.normal, 0.0, 1.0, TOL));
    assert!(close(wm.separations[0], -0.1 - total, TOL));
    // Coincident centres: no panic, some face normal, depth = half-width + radii.
    let m = collide_shapes(&p, &xp, &c, &xp);
    let wm = consistent(&m, &p, &xp, &c, &xp);
    assert_eq!(m.points.len(), 1);
    assert!(close(wm.separations[0], -1.0 - total, TOL));
}

#[test]
fn polygon_circle_in_rotated_frames() {
    // Polygon rotated by 0.6 and translated; circle centre offset inside a rotated body.
    let p = bx(0.7, 0.4);
    let xp = xf(2.0, 1.0, 0.6);
    let c = Shape::Circle(Circle {
        center: v(0.1, -0.2),
        radius: fx(0.3),
    });
    for &(lx, ly) in &[
        (0.2, 0.65),
        (0.9, 0.6),
        (-0.8, -0.5),
        (0.75, 0.0),
        (0.1, 0.1),
    ] {
        // Place the circle centre at polygon-local (lx, ly).
        let w = f64geom::apply(&xp, v(lx, ly));
        let xc0 = xf(0.0, 0.0, -1.1);
        let off = f64geom::apply(&xc0, v(0.1, -0.2));
        let xc = xf(w.0 - off.0, w.1 - off.1, -1.1);
        let m = collide_shapes(&p, &xp, &c, &xc);
        let d = f64geom::signed_distance(&p, &xp, &c, &xc);
        assert_eq!(m.points.len(), 1, "at ({lx}, {ly}) distance {d}");
        let wm = consistent(&m, &p, &xp, &c, &xc);
        assert!(
            close(wm.separations[0], d, TOL),
            "at ({lx}, {ly}): {} vs {d}",
            wm.separations[0]
        );
    }
}

#[test]
fn circle_polygon_has_normal_from_a_to_b() {
    let c = ball(0.5);
    let p = bx(1.0, 1.0);
    let xp = xf(0.0, 0.0, 0.0);
    // Circle (A) above the box (B): the normal points down, from A to B.
    let xc = xf(0.3, 1.4, 0.0);
    let m = collide_shapes(&c, &xc, &p, &xp);
    assert_eq!((m.points.len(), m.kind), (1, ManifoldKind::FaceB));
    let wm = consistent(&m, &c, &xc, &p, &xp);
    assert!(vclose(wm.normal, 0.0, -1.0, TOL), "{:?}", wm.normal);
    assert!(close(wm.separations[0], 0.4 - 0.5 - SKIN, TOL));
    // Vertex region, and the two orders agree up to the normal's sign.
    let xc = xf(-1.3, -1.4, 0.0);
    let m = collide_shapes(&c, &xc, &p, &xp);
    let wm = consistent(&m, &c, &xc, &p, &xp);
    assert!(vclose(wm.normal, 0.6, 0.8, TOL), "{:?}", wm.normal);
    let m2 = collide_shapes(&p, &xp, &c, &xc);
    let wm2 = consistent(&m2, &p, &xp, &c, &xc);
    assert_eq!(wm2.normal, -wm.normal);
    assert_eq!(wm2.separations, wm.separations);
    assert_eq!(m.points[0].id, m2.points[0].id.swapped());
}

fn arb_shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        (
            0.02f64..3.0,
            0.02f64..3.0,
            -1.0f64..1.0,
            -1.0f64..1.0,
            -3.2f64..3.2
        )
            .prop_map(|(hx, hy, cx, cy, a)| {
                Shape::Polygon(Polygon::new_box(fx(hx), fx(hy), v(cx, cy), fx(a)).unwrap())
            }),
        (0.02f64..3.0, -1.0f64..1.0, -1.0f64..1.0).prop_map(|(r, cx, cy)| Shape::Circle(Circle {
            center: v(cx, cy),
            radius: fx(r)
        })),
        // Irregular convex polygons from a few points on a circle.
        (
            proptest::collection::vec(0.0f64..std::f64::consts::TAU, 3..8),
            0.1f64..2.0
        )
            .prop_filter_map("degenerate", |(angles, r)| {
                let pts: Vec<Vec2> = angles.iter().map(|a| v(r * a.cos(), r * a.sin())).collect();
                Polygon::new(&pts).ok().map(Shape::Polygon)
            }),
    ]
}

fn arb_xf() -> impl Strategy<Value = Transform> {
    prop_oneof![
        (-4.0f64..4.0, -4.0f64..4.0, -7.0f64..7.0).prop_map(|(x, y, a)| xf(x, y, a)),
        Just(Transform::IDENTITY),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn random_pairs_are_sane(a in arb_shape(), xa in arb_xf(), b in arb_shape(), xb in arb_xf()) {
        let m = collide_shapes(&a, &xa, &b, &xb);
        let wm = consistent(&m, &a, &xa, &b, &xb);
        let d = f64geom::signed_distance(&a, &xa, &b, &xb);
        let ra = a.radius().to_f64();
        let rb = b.radius().to_f64();
        match (&a, &b) {
            (Shape::Polygon(_), Shape::Polygon(_)) => {
                // Box2D's criterion: the separating-axis value against the skins.
                let (ca, _) = f64geom::core(&a, &xa);
                let (cb, _) = f64geom::core(&b, &xb);
                let sat = f64geom::sat(&ca, &cb);
                if sat > ra + rb + TOL {
                    prop_assert_eq!(m.points.len(), 0);
                }
                if sat < ra + rb - TOL {
                    prop_assert!(!m.points.is_empty(), "sat {} but no points", sat);
                }
                // Every point lies between the best axis' depth (with the reference-face
                // tolerance) and zero.
                for i in 0..m.points.len() {
                    let s = wm.separations[i].to_f64();
                    prop_assert!(s <= TOL, "separation {} > 0", s);
                    prop_assert!(s >= sat - ra - rb - 0.1 * 0.005 - TOL, "separation {} below {}", s, sat - ra - rb);
                }
            }
            _ => {
                // Circle pairs: exact.
                if d > TOL {
                    prop_assert_eq!(m.points.len(), 0);
                }
                if d < -TOL {
                    prop_assert_eq!(m.points.len(), 1);
                }
                if m.points.len() == 1 {
                    prop_assert!((wm.separations[0].to_f64() - d).abs() <= TOL, "{} vs {}", wm.separations[0], d);
                }
                // The reverse order gives the same contact with the normal reversed.
                let m2 = collide_shapes(&b, &xb, &a, &xa);
                prop_assert_eq!(m2.points.len(), m.points.len());
                if m.points.len() == 1 {
                    let wm2 = consistent(&m2, &b, &xb, &a, &xa);
                    prop_assert!((wm2.separations[0].to_f64() - d).abs() <= TOL);
                    // (Two circles with coincident centres both use the fallback normal.)
                    let (ca, _) = f64geom::core(&a, &xa);
                    let (cb, _) = f64geom::core(&b, &xb);
                    let centres_apart = ca.len() > 1 || cb.len() > 1 || f64geom::core_distance(&ca, &cb) > 1e-6;
                    if centres_apart {
                        prop_assert!(vclose(wm2.normal, -wm.normal.x.to_f64(), -wm.normal.y.to_f64(), 1e-6));
                    }
                }
            }
        }
    }

    #[test]
    fn extreme_inputs_never_panic(a in arb_shape(), b in arb_shape(),
                                  x in -2.0e9f64..2.0e9, y in -2.0e9f64..2.0e9, ang in -2.0e9f64..2.0e9) {
        let xb = xf(x, y, ang);
        let _ = collide_shapes(&a, &Transform::IDENTITY, &b, &xb);
        let _ = collide_shapes(&b, &xb, &a, &xb);
        let m = collide_shapes(&a, &xb, &b, &xb);
        let _ = world(&m, &a, &xb, &b, &xb);
    }
}
