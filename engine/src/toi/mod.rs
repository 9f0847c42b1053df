//! Continuous collision: time of impact of a moving shape against a static one, by conservative
//! advancement.
//!
//! At the current fraction t of the sweep we find a unit axis `n` (from the moving shape A to the
//! fixed shape B) and the gap of the two shapes' projections on it,
//! `gap = min_{q∈B} n·q − max_{p∈A} n·p` (skins and radii included). For any unit axis the gap is
//! a lower bound of the signed distance between the shapes. With `n` held fixed and B static, the
//! gap can shrink over the rest of the sweep at most at the rate
//! `max(0, n·(c − c0)) + |a − a0| · extent` per unit of t, where `extent` is the largest distance of
//! a point of A's core (vertices / circle centre) from the sweep's centre of mass. Advancing t by
//! `(gap − target) / rate` therefore never passes the first moment the shapes come within
//! `target`; we repeat until the gap is within a small tolerance of `target`.
//!
//! The axis is the best of the polygons' face normals (the separating-axis test, exact for
//! overlapping polygons) and the direction between the closest points of the shapes' cores (exact
//! for separated shapes), so the bound is tight and the advancement converges in a few steps.
//! That search is `separation.rs`; here, the advancement over it.

mod separation;

use separation::separating_axis_until;
pub(crate) use separation::Core;

use crate::fixed::Fixed;
use crate::math::{Rot, Sweep, Transform, Vec2};
use crate::settings::LINEAR_SLOP;
use crate::shape::Shape;

/// Most conservative-advancement steps per query.
pub const MAX_TOI_ITERATIONS: usize = 30;

/// A hit is reported once the separation lower bound is below `target` + this (0.25 · slop).
pub const TOI_TOLERANCE: Fixed = Fixed::from_raw(LINEAR_SLOP.raw() / 4);

/// The target separation Box2D 2.3.2 aims for, as a surface distance (skins and radii included):
/// `max(slop − (r_a + r_b), −3·slop)`, i.e. −3 · slop for every shape pair PHYRE uses, which is
/// the constant the continuous-collision driver passes (so only the tests call this).
#[cfg(test)]
pub fn box2d_target(a: &Shape, b: &Shape) -> Fixed {
    (LINEAR_SLOP - a.radius() - b.radius()).max(-LINEAR_SLOP.mul_int(3))
}

/// A shape swept over a step, with what the driver keeps of it instead of recomputing it per
/// query: `extent`, its [`motion_extent`] about `sweep.local_center`, and `q0`, the rotation of
/// `sweep.a0`.
#[derive(Clone, Copy)]
pub(crate) struct SweptShape<'a> {
    pub shape: &'a Shape,
    pub extent: Fixed,
    pub sweep: &'a Sweep,
    pub q0: Rot,
}

impl<'a> SweptShape<'a> {
    /// The shape with `extent` and `q0` computed here (the tests' form).
    #[cfg(test)]
    fn new(shape: &'a Shape, sweep: &'a Sweep) -> SweptShape<'a> {
        SweptShape {
            shape,
            extent: motion_extent(shape, sweep.local_center),
            sweep,
            q0: Rot::from_angle(sweep.a0),
        }
    }

    /// The most the gap along any axis can shrink per unit of t through the turning:
    /// `|a − a0| · extent`.
    fn angular_rate(&self) -> Fixed {
        debug_assert_eq!(
            self.extent,
            motion_extent(self.shape, self.sweep.local_center)
        );
        (self.sweep.a - self.sweep.a0).abs() * self.extent
    }
}

/// One time-of-impact query: `moving` against the static shape `fixed`, for the separation
/// `target`. The continuous-collision driver takes `fixed_core` from the static body, which
/// keeps it.
#[derive(Clone, Copy)]
pub(crate) struct ToiQuery<'a> {
    pub moving: SweptShape<'a>,
    pub fixed: &'a Shape,
    /// `Core::new(fixed, xf_fixed)`.
    pub fixed_core: &'a Core,
    /// Surface distance (skins and radii included, negative = overlap) to stop at.
    pub target: Fixed,
}

#[cfg(test)]
impl<'a> ToiQuery<'a> {
    /// The query with `moving`'s extent and rotation computed here (the tests' form).
    fn new(
        moving: &'a Shape,
        sweep: &'a Sweep,
        fixed: &'a Shape,
        fixed_core: &'a Core,
        target: Fixed,
    ) -> ToiQuery<'a> {
        ToiQuery {
            moving: SweptShape::new(moving, sweep),
            fixed,
            fixed_core,
            target,
        }
    }
}

/// [`time_of_impact_placed`] for `fixed` at `xf_fixed`, computing the rest of the query: the
/// tests' entry point.
#[cfg(test)]
pub fn time_of_impact(
    moving: &Shape,
    sweep: &Sweep,
    fixed: &Shape,
    xf_fixed: &Transform,
    target: Fixed,
) -> Option<Fixed> {
    let fixed_core = Core::new(fixed, xf_fixed);
    time_of_impact_placed(&ToiQuery::new(moving, sweep, fixed, &fixed_core, target))
}

/// First fraction t ∈ (0, 1) of the query's sweep at which `moving` comes within `target`
/// separation (surface distance, negative = overlap) of `fixed`; `None` when it stays farther
/// apart over the whole sweep, and also when it is already within `target` (+
/// [`TOI_TOLERANCE`]) at t = 0 (the discrete contact handles that case).
///
/// At the returned t the shapes are at least `target` apart (up to rounding) and their separation
/// lower bound is below `target + TOI_TOLERANCE`. If [`MAX_TOI_ITERATIONS`] steps do not settle
/// the query, the last (still safe, not yet touching) fraction is returned, so that a fast body
/// can never tunnel.
pub(crate) fn time_of_impact_placed(query: &ToiQuery) -> Option<Fixed> {
    advance(query, true).0
}

/// A time-of-impact query between two moving shapes, `a` and `b` swept over the same time
/// interval (t from 0 to 1), for the separation `target`.
#[derive(Clone, Copy)]
pub(crate) struct PairToiQuery<'a> {
    pub a: SweptShape<'a>,
    pub b: SweptShape<'a>,
    pub target: Fixed,
}

/// [`time_of_impact_placed`] for two moving shapes, by the same conservative advancement: with
/// the axis `n` from A to B held fixed, the gap shrinks at most at the rate
/// `max(0, n·(Δc_a − Δc_b)) + |Δa_a|·extent_a + |Δa_b|·extent_b` per unit of t (each core point
/// of B moves along `n` by at least `n·Δc_b − |Δa_b|·extent_b`, each of A by at most the
/// mirror), so advancing by `(gap − target) / rate` never passes the first moment the shapes
/// come within `target`. Same answers as [`time_of_impact_placed`] when B does not move, up to
/// the early stop that one takes at t = 0.
pub(crate) fn time_of_impact_pair(query: &PairToiQuery) -> Option<Fixed> {
    let PairToiQuery { a, b, target } = *query;
    let dc = (a.sweep.c - a.sweep.c0) - (b.sweep.c - b.sweep.c0);
    let angular = a.angular_rate() + b.angular_rate();
    let mut t = Fixed::ZERO;
    for iter in 0..MAX_TOI_ITERATIONS {
        let xa = a.sweep.transform_at_from(t, a.q0);
        let xb = b.sweep.transform_at_from(t, b.q0);
        let core_b = Core::new(b.shape, &xb);
        let (n, gap) = separating_axis_until(a.shape, &xa, b.shape, &core_b, Fixed::MAX)?;
        if gap < target + TOI_TOLERANCE {
            return if iter == 0 { None } else { Some(t) };
        }
        let rate = n.dot(dc).max(Fixed::ZERO) + angular;
        if !rate.is_positive() {
            return None;
        }
        t += (gap - target) / rate;
        if t >= Fixed::ONE {
            return None;
        }
    }
    Some(t)
}

/// How far any point of `moving` reaches beyond its radius from the body-local centre of mass
/// `local_center`: the rotation's share of the motion bound. A constant of the body's part.
pub(crate) fn motion_extent(moving: &Shape, local_center: Vec2) -> Fixed {
    (moving.extent_from(local_center) - moving.radius()).max(Fixed::ZERO)
}

/// Conservative advancement; also returns the number of steps taken (for tests).
/// `stop_early: false` runs the t = 0 search in full (the tests' reference).
fn advance(query: &ToiQuery, stop_early: bool) -> (Option<Fixed>, usize) {
    let ToiQuery {
        moving,
        fixed,
        fixed_core,
        target,
    } = *query;
    let SweptShape { sweep, q0, .. } = moving;
    let dc = sweep.c - sweep.c0;
    let angular = moving.angular_rate();
    // At t = 0 the answer is `None` unless gap − target < rate. Every rate is below
    // `rate_bound` (the axis is a unit vector up to a few ulps), so once a candidate axis of
    // the search shows gap − target ≥ rate_bound (the best gap is at least that candidate's),
    // the answer is `None` whatever the rest of the search finds: it stops there.
    let manhattan = dc.x.abs() + dc.y.abs();
    let rate_bound =
        manhattan + Fixed::from_raw(manhattan.raw() >> 26) + angular + Fixed::from_raw(64);
    // A shape that turns in place is placed by the centre alone, so no sine or cosine of the
    // interpolated angle is needed; the rotation passed along is then never used.
    let round = moving.shape.turns_in_place(sweep.local_center);
    let mut t = Fixed::ZERO;
    for iter in 0..MAX_TOI_ITERATIONS {
        let xf = if round {
            Transform {
                p: sweep.c0 + (sweep.c - sweep.c0).scale(t),
                q: q0,
            }
        } else {
            sweep.transform_at_from(t, q0)
        };
        let enough = if iter == 0 && stop_early {
            target + rate_bound
        } else {
            Fixed::MAX
        };
        let Some((n, gap)) = separating_axis_until(moving.shape, &xf, fixed, fixed_core, enough)
        else {
            return (None, iter);
        };
        if gap < target + TOI_TOLERANCE {
            return (if iter == 0 { None } else { Some(t) }, iter);
        }
        let rate = n.dot(dc).max(Fixed::ZERO) + angular;
        if !rate.is_positive() {
            // The gap along this fixed axis cannot shrink: never within target.
            return (None, iter);
        }
        t += (gap - target) / rate;
        if t >= Fixed::ONE {
            return (None, iter);
        }
    }
    (Some(t), MAX_TOI_ITERATIONS)
}

#[cfg(test)]
#[allow(clippy::float_arithmetic)]
mod tests {
    use super::*;
    use crate::f64geom;
    use crate::shape::Polygon;
    use crate::test_shapes::{arb_box_or_ball, ball, bx, fx, v, xf};
    use proptest::prelude::*;

    fn sweep(lc: Vec2, c0: (f64, f64), c: (f64, f64), a0: f64, a: f64) -> Sweep {
        Sweep {
            local_center: lc,
            c0: v(c0.0, c0.1),
            c: v(c.0, c.1),
            a0: fx(a0),
            a: fx(a),
        }
    }

    const SLOP: f64 = 0.005;

    #[test]
    fn box2d_target_is_minus_three_slop_for_phyre_shapes() {
        assert_eq!(
            box2d_target(&bx(1.0, 1.0), &bx(1.0, 1.0)),
            -LINEAR_SLOP.mul_int(3)
        );
        assert_eq!(
            box2d_target(&ball(0.3), &bx(1.0, 1.0)),
            -LINEAR_SLOP.mul_int(3)
        );
        // Two tiny circles: slop minus their radii.
        assert_eq!(
            box2d_target(&ball(0.001), &ball(0.001)),
            LINEAR_SLOP - fx(0.001) - fx(0.001)
        );
    }

    #[test]
    fn fast_ball_hits_thick_box_at_the_right_fraction() {
        // Ball r = 0.1 from x = 0 to x = 2 in one step; static box 0.8 thick spanning x ∈ [1.1, 1.9].
        let ball = ball(0.1);
        let wall = bx(0.4, 1.0);
        let xw = xf(1.5, 0.0, 0.0);
        let s = sweep(Vec2::ZERO, (0.0, 0.0), (2.0, 0.0), 0.0, 0.3);
        for target in [fx(-3.0 * SLOP), Fixed::ZERO, fx(0.05)] {
            let t = time_of_impact(&ball, &s, &wall, &xw, target).expect("must hit");
            // Contact when the ball's right edge reaches the skin minus the target.
            let x_hit = 1.1 - 0.01 - 0.1 - target.to_f64();
            let expect = x_hit / 2.0;
            assert!(
                (t.to_f64() - expect).abs() <= 0.01 * expect,
                "t = {t}, expected {expect}"
            );
            // And it stops within the tolerance band, not past the target.
            let d = f64geom::signed_distance(&ball, &s.transform_at(t), &wall, &xw);
            assert!(
                d >= target.to_f64() - 1e-6 && d <= target.to_f64() + 0.25 * SLOP + 1e-6,
                "d = {d}"
            );
        }
    }

    #[test]
    fn ball_moving_parallel_or_away_does_not_hit() {
        let ball = ball(0.1);
        let wall = bx(0.4, 1.0);
        let xw = xf(1.5, 0.0, 0.0);
        let target = fx(-3.0 * SLOP);
        // Parallel to the wall's face, 0.5 m away.
        let s = sweep(Vec2::ZERO, (0.5, -1.0), (0.5, 1.0), 0.0, 0.0);
        assert_eq!(time_of_impact(&ball, &s, &wall, &xw, target), None);
        // Moving away.
        let s = sweep(Vec2::ZERO, (0.5, 0.0), (-1.5, 0.0), 0.0, 1.0);
        assert_eq!(time_of_impact(&ball, &s, &wall, &xw, target), None);
        // Toward it but stopping short.
        let s = sweep(Vec2::ZERO, (-1.0, 0.0), (0.95, 0.0), 0.0, 0.0);
        assert_eq!(time_of_impact(&ball, &s, &wall, &xw, target), None);
        // Passing just over its top corner (clears the rounded corner by ~1 cm).
        let s = sweep(Vec2::ZERO, (0.0, 1.13), (3.0, 1.13), 0.0, 0.0);
        assert_eq!(time_of_impact(&ball, &s, &wall, &xw, target), None);
        // ... and just clipping it.
        let s = sweep(Vec2::ZERO, (0.0, 1.09), (3.0, 1.09), 0.0, 0.0);
        assert!(time_of_impact(&ball, &s, &wall, &xw, target).is_some());
    }

    #[test]
    fn already_touching_at_the_start_gives_none() {
        let ball = ball(0.5);
        let ground = bx(5.0, 0.5);
        let xg = xf(0.0, 0.0, 0.0);
        // Overlapping the ground by 2 cm and moving down fast.
        let s = sweep(Vec2::ZERO, (0.0, 0.99), (0.0, -1.0), 0.0, 0.0);
        assert_eq!(
            time_of_impact(&ball, &s, &ground, &xg, fx(-3.0 * SLOP)),
            None
        );
        // Just above the target band it is a hit at a small t.
        let s = sweep(Vec2::ZERO, (0.0, 1.0), (0.0, -1.0), 0.0, 0.0);
        let t = time_of_impact(&ball, &s, &ground, &xg, fx(-3.0 * SLOP)).unwrap();
        assert!(t.is_positive() && t.to_f64() < 0.01, "{t}");
    }

    /// The first sampled fraction (of `n` + 1 samples) at which the shapes are within `target`.
    fn first_contact(
        m: &Shape,
        s: &Sweep,
        f: &Shape,
        xfix: &Transform,
        target: f64,
        n: usize,
    ) -> Option<f64> {
        (0..=n)
            .map(|k| k as f64 / n as f64)
            .find(|&t| f64geom::signed_distance(m, &s.transform_at(fx(t)), f, xfix) < target)
    }

    #[test]
    fn spinning_bar_hits_a_post() {
        // A 2 m bar (body origin at one end's quarter, centre of mass (0.5, 0) local) spinning a
        // quarter turn about its centre of mass, which stays at the world origin, sweeps into a
        // small post at 54.5° from its start; only the angular bound moves it.
        let bar =
            Shape::Polygon(Polygon::new_box(fx(1.0), fx(0.05), v(0.5, 0.0), Fixed::ZERO).unwrap());
        let s = sweep(
            v(0.5, 0.0),
            (0.0, 0.0),
            (0.0, 0.0),
            0.0,
            std::f64::consts::FRAC_PI_2,
        );
        let post = bx(0.05, 0.05);
        let xp = xf(0.5, 0.7, 0.0);
        let target = fx(-3.0 * SLOP);
        let post_core = Core::new(&post, &xp);
        let (toi, iters) = advance(&ToiQuery::new(&bar, &s, &post, &post_core, target), true);
        let t = toi.expect("the bar sweeps over the post");
        assert!(iters < MAX_TOI_ITERATIONS);
        let d = f64geom::signed_distance(&bar, &s.transform_at(t), &post, &xp);
        assert!(
            d >= target.to_f64() - 1e-6 && d <= target.to_f64() + 0.25 * SLOP + 1e-6,
            "d = {d} at {t}"
        );
        let first = first_contact(&bar, &s, &post, &xp, target.to_f64(), 20_000).unwrap();
        assert!(
            t.to_f64() <= first && t.to_f64() > first - 0.01,
            "t = {t}, first contact {first}"
        );
    }

    #[test]
    fn advancement_converges_for_random_sweeps() {
        // A fixed pseudo-random family of sweeps (boxes and balls, up to 2 m and π/2 per step)
        // against a bar: the advancement must settle well within the iteration cap.
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut rnd = |lo: f64, hi: f64| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            lo + (hi - lo) * ((seed >> 11) as f64 / (1u64 << 53) as f64)
        };
        let bar = bx(3.0, 0.1);
        let xbar = xf(0.0, 0.0, 0.2);
        let bar_core = Core::new(&bar, &xbar);
        let (mut hits, mut capped, mut total_iters) = (0, 0, 0);
        for i in 0..2000 {
            let m = if i % 2 == 0 {
                bx(rnd(0.05, 0.6), rnd(0.05, 0.6))
            } else {
                ball(rnd(0.05, 0.6))
            };
            let c0 = (rnd(-2.0, 2.0), rnd(0.9, 2.5));
            let s = sweep(
                v(rnd(-0.2, 0.2), rnd(-0.2, 0.2)),
                c0,
                (c0.0 + rnd(-2.0, 2.0), c0.1 - rnd(0.0, 2.0)),
                0.0,
                rnd(-1.5, 1.5),
            );
            let query = ToiQuery::new(&m, &s, &bar, &bar_core, box2d_target(&m, &bar));
            let (toi, iters) = advance(&query, true);
            hits += usize::from(toi.is_some());
            capped += usize::from(iters == MAX_TOI_ITERATIONS);
            total_iters += iters;
        }
        assert!(hits > 200, "only {hits} hits");
        assert!(
            capped <= 20,
            "{capped} of 2000 queries hit the iteration cap"
        );
        assert!(total_iters < 2000 * 8, "{total_iters} iterations in all");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1500))]

        /// The t = 0 search that stops once the answer must be `None` gives the same answer
        /// as the full search: random shapes resting on, near, or sweeping past a fixed shape,
        /// with displacements from micrometres to metres.
        #[test]
        fn stopping_the_first_search_early_changes_no_answer(
            m in arb_box_or_ball(), f in arb_box_or_ball(),
            c0 in (-3.0f64..3.0, -3.0f64..3.0), scale in 0usize..4,
            dc in (-1.0f64..1.0, -1.0f64..1.0), a0 in -3.0f64..3.0, da in -1.0f64..1.0,
            lc in (-0.5f64..0.5, -0.5f64..0.5), fxf in (-1.0f64..1.0, -1.0f64..1.0, -3.0f64..3.0),
        ) {
            let k = [1e-5, 1e-3, 0.05, 2.0][scale];
            let s = sweep(v(lc.0, lc.1), c0, (c0.0 + k * dc.0, c0.1 + k * dc.1), a0, a0 + k * da);
            let xfix = xf(fxf.0, fxf.1, fxf.2);
            let f_core = Core::new(&f, &xfix);
            for target in [box2d_target(&m, &f), fx(-0.5), fx(0.2)] {
                let query = ToiQuery::new(&m, &s, &f, &f_core, target);
                let fast = advance(&query, true);
                let full = advance(&query, false);
                prop_assert_eq!(fast.0, full.0);
                if fast.0.is_some() {
                    prop_assert_eq!(fast.1, full.1);
                }
            }
        }

        #[test]
        fn toi_never_tunnels(m in arb_box_or_ball(), f in arb_box_or_ball(),
                             c0 in (-4.0f64..4.0, -4.0f64..4.0), dc in (-2.0f64..2.0, -2.0f64..2.0),
                             a0 in -3.0f64..3.0, da in -1.57f64..1.57, lc in (-0.5f64..0.5, -0.5f64..0.5),
                             fxf in (-1.0f64..1.0, -1.0f64..1.0, -3.0f64..3.0)) {
            let s = sweep(v(lc.0, lc.1), c0, (c0.0 + dc.0, c0.1 + dc.1), a0, a0 + da);
            let xfix = xf(fxf.0, fxf.1, fxf.2);
            let target = box2d_target(&m, &f);
            let tf = target.to_f64();
            let d0 = f64geom::signed_distance(&m, &s.transform_at(Fixed::ZERO), &f, &xfix);
            let toi = time_of_impact(&m, &s, &f, &xfix, target);
            let end = match toi {
                Some(t) => {
                    prop_assert!(t.is_positive() && t < Fixed::ONE);
                    let d = f64geom::signed_distance(&m, &s.transform_at(t), &f, &xfix);
                    prop_assert!(d >= tf - 1e-6, "stopped inside the target: {} at {}", d, t);
                    t.to_f64()
                }
                None if d0 < tf + 0.25 * SLOP + 1e-6 => return Ok(()),
                None => 1.0,
            };
            // No sampled instant before the reported time (or the end) is inside the target.
            for k in 0..=200 {
                let tk = fx(end * k as f64 / 200.0);
                let d = f64geom::signed_distance(&m, &s.transform_at(tk), &f, &xfix);
                prop_assert!(d >= tf - 1e-6, "inside the target ({}) at t = {} before {}", d, tk, end);
            }
        }
    }
}
