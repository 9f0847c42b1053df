//! Continuous collision, the step's last stage: sub-steps of each moving body against the static
//! bodies, so that a fast body cannot pass through a thin static part in one step, and of each
//! bullet against every other dynamic body too.
//!
//! [`crate::toi`] finds the times of impact; this file drives the sub-steps and
//! [`IslandSolver::solve_toi`] / [`IslandSolver::solve_toi_pair`] solve each one. Two passes:
//!
//! 1. every awake, moving dynamic body that is not a bullet, in id order, against the static
//!    parts (Box2D 2.3.2's handling of bodies that are not bullets; PHYRE has no bullets, and
//!    without bullets this pass is the whole stage);
//! 2. every awake, moving bullet, in id order, against the static parts and against every other
//!    dynamic body (bullet or not, awake or asleep) over the part of the step both sweeps still
//!    cover. A hit on a dynamic body advances both bodies to the time of impact and solves the
//!    two together (their contact and the static parts either touches), so the struck body takes
//!    its share of the momentum; a sleeping body struck wakes; the struck body, if not a bullet,
//!    then gets its own static sub-steps for the rest of the step.
//!
//! Each body's sweep covers the step from a fraction `alpha0` (0 before its first sub-step) to
//! 1: a pair query first advances both sweeps to the later of their two starts. Simplification
//! against Box2D's single earliest-first loop over all impacts: a bullet cannot hit a body at a
//! time before that body's own earlier sub-step in this step (the pair is only tested from the
//! later start on), and bodies struck by a bullet do not drag along the dynamic bodies they
//! touch (those meet them at the next step's discrete solve, as non-bullets do).

use crate::body::Body;
use crate::collide::collide_shapes_placed;
use crate::contact::{mix_materials, Contact, Measured, ToiContact, ToiPairContact, ToiSide};
use crate::events::ContactEvents;
use crate::fixed::Fixed;
use crate::math::{Rot, Sweep};
use crate::settings::{StepSettings, LINEAR_SLOP};
use crate::shape::Aabb;
use crate::solver::IslandSolver;
use crate::toi::{time_of_impact_pair, time_of_impact_placed, PairToiQuery, SweptShape, ToiQuery};

/// A part of a static body and its box (fixed for ever, as static bodies never move): the
/// world lists them in body id and part order, so continuous collision scans them in the same
/// order as every body's parts without visiting the dynamic ones.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StaticPart {
    pub body: u32,
    pub part: u16,
    pub aabb: Aabb,
}

/// Most continuous-collision sub-steps of one body in one step (Box2D's `b2_maxSubSteps`).
pub const MAX_TOI_SUBSTEPS: usize = 8;

/// The stage's scratch space: each body's sweep start as a fraction of the step (only kept in
/// steps with an awake bullet).
#[derive(Clone, Debug, Default)]
pub(crate) struct Continuous {
    alpha0: Vec<Fixed>,
}

/// Where continuous collision reports the contacts it solves that begin touching: the world's
/// contacts as of the narrow phase (read only) and the step's events.
pub(crate) struct Report<'a> {
    pub contacts: &'a [Contact],
    pub events: &'a mut ContactEvents,
}

/// The separation continuous collision aims for (Box2D's target for PHYRE's shapes).
fn toi_target() -> Fixed {
    -(LINEAR_SLOP.mul_int(3))
}

/// Continuous collision: pass 1 (non-bullets against static parts), then, in steps with an awake
/// bullet, pass 2 (bullets against static parts and dynamic bodies); see the module comment.
pub(crate) fn continuous_collision(
    bodies: &mut [Body],
    static_parts: &[StaticPart],
    solver: &mut IslandSolver,
    step: &StepSettings,
    scratch: &mut Continuous,
    report: &mut Report,
) {
    let bullets = bodies.iter().any(|b| b.bullet && b.awake);
    if bullets {
        scratch.alpha0.clear();
        scratch.alpha0.resize(bodies.len(), Fixed::ZERO);
    }
    for bi in 0..bodies.len() {
        // (Checked here too, not only in the sub-step loop: most bodies take no sub-step, and
        // skipping them before the call keeps this pass as cheap as it was inline.)
        if bodies[bi].bullet || !moving(&bodies[bi]) {
            continue;
        }
        let alpha0 = static_substeps(bodies, static_parts, solver, step, bi, Fixed::ZERO, report);
        if bullets {
            scratch.alpha0[bi] = alpha0;
        }
    }
    if bullets {
        for bi in 0..bodies.len() {
            if bodies[bi].bullet {
                let alpha0 = &mut scratch.alpha0;
                bullet_substeps(bodies, static_parts, solver, step, bi, alpha0, report);
            }
        }
    }
}

/// Whether body `b` takes continuous sub-steps at all: awake, dynamic, and moved this step.
#[inline]
fn moving(b: &Body) -> bool {
    b.awake && b.is_dynamic() && !(b.sweep.c == b.sweep.c0 && b.sweep.a == b.sweep.a0)
}

/// Continuous collision of body `bi` against static bodies, as Box2D does for non-bullet bodies:
/// find the earliest time of impact of the body's sweep with a static part; advance the body
/// there; solve the rest of the step for the body and the static parts it touches (position
/// correction first, then velocities without warm starting, then integration over the
/// remaining time); repeat from the new sweep, at most [`MAX_TOI_SUBSTEPS`] times. Bodies
/// are independent here (only static partners), so processing them in id order is the same
/// as Box2D's global earliest-first order. `alpha0` is the fraction of the step at which the
/// body's sweep starts; returns the fraction it starts at afterwards.
fn static_substeps(
    bodies: &mut [Body],
    static_parts: &[StaticPart],
    solver: &mut IslandSolver,
    step: &StepSettings,
    bi: usize,
    mut alpha0: Fixed,
    report: &mut Report,
) -> Fixed {
    let target = toi_target();
    // Static parts whose time of impact gave no touching manifold this step.
    let mut skipped: Vec<(usize, usize)> = Vec::new();
    for _ in 0..MAX_TOI_SUBSTEPS {
        if !moving(&bodies[bi]) {
            break;
        }
        let Some(hit) = first_static_hit(bodies, bi, static_parts, &skipped, target) else {
            break;
        };
        match resolve_static_hit(bodies, static_parts, solver, step, bi, alpha0, hit, report) {
            Some(alpha) => alpha0 = alpha,
            None => skipped.push((hit.2, hit.3)),
        }
    }
    alpha0
}

/// Part `k` of body `b` swept by `sweep` (whose start rotation is `q0`), with the extent the
/// body keeps for it.
fn swept_part<'a>(b: &'a Body, k: usize, sweep: &'a Sweep, q0: Rot) -> SweptShape<'a> {
    SweptShape {
        shape: &b.parts[k],
        extent: b.motion_extents[k],
        sweep,
        q0,
    }
}

/// The earliest time of impact (fraction of the body's sweep), the body's part and the static
/// body and part of body `bi`'s sweep against the static parts not in `skipped`.
fn first_static_hit(
    bodies: &[Body],
    bi: usize,
    static_parts: &[StaticPart],
    skipped: &[(usize, usize)],
    target: Fixed,
) -> Option<(Fixed, usize, usize, usize)> {
    let b = &bodies[bi];
    let sweep = b.sweep;
    let q0 = b.q0;
    let start = b.start_transform();
    let mut first: Option<(Fixed, usize, usize, usize)> = None;
    for (k, now) in b.aabbs.iter().enumerate() {
        let swept: Aabb = b.start_aabb(k, &start).union(now);
        for sp in static_parts {
            let (si, pi) = (sp.body as usize, sp.part as usize);
            if !sp.aabb.overlaps(&swept) || skipped.contains(&(si, pi)) || !b.meets(&bodies[si]) {
                continue;
            }
            let s = &bodies[si];
            let query = ToiQuery {
                moving: swept_part(b, k, &sweep, q0),
                fixed: &s.parts[pi],
                fixed_core: &s.static_cores[pi],
                target,
            };
            if let Some(t) = time_of_impact_placed(&query) {
                if first.is_none_or(|(ft, ..)| t < ft) {
                    first = Some((t, k, si, pi));
                }
            }
        }
    }
    first
}

/// Advance body `bi` (its sweep starting at fraction `alpha0` of the step) to the time of impact
/// `hit` = (t, part, static body, static part) found by [`first_static_hit`] and solve the rest
/// of the step there. Returns the new sweep start (fraction of the step), or `None`, with the
/// body unchanged, when the parts do not really touch at that time (Box2D then disables the
/// contact for the rest of the step).
#[allow(clippy::too_many_arguments)]
fn resolve_static_hit(
    bodies: &mut [Body],
    static_parts: &[StaticPart],
    solver: &mut IslandSolver,
    step: &StepSettings,
    bi: usize,
    alpha0: Fixed,
    (t, k_toi, si, pi): (Fixed, usize, usize, usize),
    report: &mut Report,
) -> Option<Fixed> {
    let dt = step.dt();
    // Advance the sweep's start to the time of impact.
    let b = &mut bodies[bi];
    let backup = (b.sweep, b.q0);
    advance_by(b, t);
    let at_toi = b.start_transform();
    let alpha = alpha0 + (Fixed::ONE - alpha0) * t;
    // Manifolds with every static part the body touches at the time of impact.
    let mut hits: Vec<ToiContact> = Vec::new();
    let b = &bodies[bi];
    let toi_touching = {
        let s = &bodies[si];
        let placed = s.placed_polygon(pi);
        !collide_shapes_placed(&b.parts[k_toi], &at_toi, None, &s.parts[pi], &s.xf, placed)
            .points
            .is_empty()
    };
    if !toi_touching {
        (bodies[bi].sweep, bodies[bi].q0) = backup;
        return None;
    }
    for (k, part) in b.parts.iter().enumerate() {
        let near = part.aabb(&at_toi);
        for sp in static_parts {
            if !sp.aabb.overlaps(&near) {
                continue;
            }
            let (s, pi) = (&bodies[sp.body as usize], sp.part as usize);
            let placed = s.placed_polygon(pi);
            let shape = &s.parts[pi];
            let m = collide_shapes_placed(part, &at_toi, None, shape, &s.xf, placed);
            if !m.points.is_empty() {
                let (friction, restitution) = mix_materials(b, s);
                hits.push(ToiContact {
                    manifold: m,
                    part: k,
                    static_part: (sp.body as usize, pi),
                    static_xf: s.xf,
                    static_radius: shape.radius(),
                    friction,
                    restitution,
                    measured: Measured::default(),
                });
            }
        }
    }
    let h = dt - dt * alpha;
    solver.solve_toi(&mut bodies[bi], &mut hits, h, step.velocity_iterations);
    for hit in &hits {
        report_begin(
            report,
            bodies,
            (bi, hit.part),
            hit.static_part,
            &hit.measured,
        );
    }
    Some(alpha)
}

/// Report a contact a sub-step solved between part `x.1` of body `x.0` and part `y.1` of body
/// `y.0` (the measured normal from x to y) as begun, unless it touched already.
fn report_begin(
    report: &mut Report,
    bodies: &[Body],
    x: (usize, usize),
    y: (usize, usize),
    m: &Measured,
) {
    report.events.continuous_begin(
        bodies,
        report.contacts,
        x,
        y,
        m.normal,
        m.approach_speed,
        m.normal_impulse,
    );
}

/// Move a body's sweep start to fraction `t` of its sweep (Box2D's `b2Sweep::Advance` in the
/// sweep's own time).
#[inline]
fn advance_by(b: &mut Body, t: Fixed) {
    b.sweep.c0 = b.sweep.c0 + (b.sweep.c - b.sweep.c0).scale(t);
    let a0 = b.sweep.a0 + (b.sweep.a - b.sweep.a0) * t;
    if a0 != b.sweep.a0 {
        b.q0 = Rot::from_angle(a0);
    }
    b.sweep.a0 = a0;
}

/// A body's sweep for continuous collision from fraction `from` of the step on, given that its
/// sweep starts at fraction `alpha0` (`from` ≥ `alpha0`), with the rotation of its start. A
/// sleeping body has not moved: its sweep stays at its pose.
fn sweep_from(b: &Body, alpha0: Fixed, from: Fixed) -> (Sweep, Rot) {
    if !b.awake {
        let s = Sweep {
            local_center: b.sweep.local_center,
            c0: b.sweep.c,
            c: b.sweep.c,
            a0: b.sweep.a,
            a: b.sweep.a,
        };
        return (s, b.xf.q);
    }
    if from == alpha0 {
        return (b.sweep, b.q0);
    }
    let beta = (from - alpha0) / (Fixed::ONE - alpha0);
    let mut s = b.sweep;
    s.c0 = s.c0 + (s.c - s.c0).scale(beta);
    let a0 = s.a0 + (s.a - s.a0) * beta;
    let q0 = if a0 == s.a0 {
        b.q0
    } else {
        Rot::from_angle(a0)
    };
    s.a0 = a0;
    (s, q0)
}

/// The box of part `k` of body `b` over its whole sweep (the union of its boxes at the sweep's
/// two ends, as the static pass uses), or at its pose when it sleeps.
fn swept_box(b: &Body, k: usize) -> Aabb {
    if !b.awake {
        return b.aabbs[k];
    }
    b.start_aabb(k, &b.start_transform()).union(&b.aabbs[k])
}

/// A bullet's time of impact with a dynamic body: the fraction of the step, the bullet's part,
/// the other body and its part, and the later of the two sweep starts the query ran from.
#[derive(Clone, Copy, Debug)]
struct DynamicHit {
    alpha: Fixed,
    part: usize,
    other: usize,
    other_part: usize,
    from: Fixed,
    /// The fraction of the query's sweeps (from `from` on) at which they meet.
    t: Fixed,
}

/// The earliest impact of bullet `bi` with another dynamic body (not removed), over the part of
/// the step both sweeps cover, skipping the (body, part) pairs in `skipped`. Ties go to the
/// first found: other bodies in id order, the bullet's parts, then the other's parts.
fn first_dynamic_hit(
    bodies: &[Body],
    bi: usize,
    alpha0: &[Fixed],
    skipped: &[(usize, usize)],
    target: Fixed,
) -> Option<DynamicHit> {
    let b = &bodies[bi];
    let own: Vec<Aabb> = (0..b.parts.len()).map(|k| swept_box(b, k)).collect();
    let mut reach = own[0];
    for bb in &own[1..] {
        reach = reach.union(bb);
    }
    let mut first: Option<DynamicHit> = None;
    for (oi, o) in bodies.iter().enumerate() {
        if oi == bi || !o.is_dynamic() || o.removed || !b.meets(o) {
            continue;
        }
        let other: Vec<(usize, Aabb)> = (0..o.parts.len())
            .map(|m| (m, swept_box(o, m)))
            .filter(|(m, bb)| bb.overlaps(&reach) && !skipped.contains(&(oi, *m)))
            .collect();
        if other.is_empty() {
            continue;
        }
        let from = alpha0[bi].max(alpha0[oi]);
        let (sweep_a, q0_a) = sweep_from(b, alpha0[bi], from);
        let (sweep_b, q0_b) = sweep_from(o, alpha0[oi], from);
        for (k, own_box) in own.iter().enumerate() {
            for &(m, bb) in &other {
                if !own_box.overlaps(&bb) {
                    continue;
                }
                let query = PairToiQuery {
                    a: swept_part(b, k, &sweep_a, q0_a),
                    b: swept_part(o, m, &sweep_b, q0_b),
                    target,
                };
                if let Some(t) = time_of_impact_pair(&query) {
                    let alpha = from + (Fixed::ONE - from) * t;
                    if first.is_none_or(|f| alpha < f.alpha) {
                        first = Some(DynamicHit {
                            alpha,
                            part: k,
                            other: oi,
                            other_part: m,
                            from,
                            t,
                        });
                    }
                }
            }
        }
    }
    first
}

/// Continuous collision of bullet `bi` against static parts and dynamic bodies (pass 2), the
/// earliest impact first, at most [`MAX_TOI_SUBSTEPS`] sub-steps. `alpha0` holds every body's
/// sweep start (fraction of the step) and is kept up to date for the bodies moved here.
fn bullet_substeps(
    bodies: &mut [Body],
    static_parts: &[StaticPart],
    solver: &mut IslandSolver,
    step: &StepSettings,
    bi: usize,
    alpha0: &mut [Fixed],
    report: &mut Report,
) {
    let target = toi_target();
    let mut skipped_static: Vec<(usize, usize)> = Vec::new();
    let mut skipped_dynamic: Vec<(usize, usize)> = Vec::new();
    for _ in 0..MAX_TOI_SUBSTEPS {
        if !moving(&bodies[bi]) {
            break;
        }
        let a0 = alpha0[bi];
        let on_static = first_static_hit(bodies, bi, static_parts, &skipped_static, target);
        let on_dynamic = first_dynamic_hit(bodies, bi, alpha0, &skipped_dynamic, target);
        // The earlier of the two, as fractions of the step; a tie goes to the static part.
        let static_first = match (on_static, on_dynamic) {
            (None, None) => break,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (Some((t, ..)), Some(d)) => a0 + (Fixed::ONE - a0) * t <= d.alpha,
        };
        if static_first {
            let hit = on_static.expect("chosen");
            match resolve_static_hit(bodies, static_parts, solver, step, bi, a0, hit, report) {
                Some(alpha) => alpha0[bi] = alpha,
                None => skipped_static.push((hit.2, hit.3)),
            }
            continue;
        }
        let hit = on_dynamic.expect("chosen");
        if resolve_dynamic_hit(bodies, static_parts, solver, step, bi, alpha0, hit, report) {
            let oi = hit.other;
            alpha0[bi] = hit.alpha;
            alpha0[oi] = hit.alpha;
            // The struck body's own static sub-steps for the rest of the step, unless it is a
            // bullet still to come (its pass 2 does them).
            if !bodies[oi].bullet || oi < bi {
                alpha0[oi] =
                    static_substeps(bodies, static_parts, solver, step, oi, hit.alpha, report);
            }
        } else {
            skipped_dynamic.push((hit.other, hit.other_part));
        }
    }
}

/// Two distinct bodies of the slice, mutably.
fn two_mut(bodies: &mut [Body], i: usize, j: usize) -> (&mut Body, &mut Body) {
    debug_assert_ne!(i, j);
    if i < j {
        let (lo, hi) = bodies.split_at_mut(j);
        (&mut lo[i], &mut hi[0])
    } else {
        let (lo, hi) = bodies.split_at_mut(i);
        (&mut hi[0], &mut lo[j])
    }
}

/// Advance bullet `bi` and the body it hits to the time of impact and solve the two together
/// for the rest of the step (see [`IslandSolver::solve_toi_pair`]); a sleeping body hit wakes.
/// Returns false, with both bodies unchanged, when the parts do not really touch there.
#[allow(clippy::too_many_arguments)]
fn resolve_dynamic_hit(
    bodies: &mut [Body],
    static_parts: &[StaticPart],
    solver: &mut IslandSolver,
    step: &StepSettings,
    bi: usize,
    alpha0: &[Fixed],
    hit: DynamicHit,
    report: &mut Report,
) -> bool {
    let oi = hit.other;
    let (sweep_a, q0_a) = sweep_from(&bodies[bi], alpha0[bi], hit.from);
    let (sweep_b, q0_b) = sweep_from(&bodies[oi], alpha0[oi], hit.from);
    let backup = (
        bodies[bi].sweep,
        bodies[bi].q0,
        bodies[oi].sweep,
        bodies[oi].q0,
    );
    {
        let (a, o) = two_mut(bodies, bi, oi);
        (a.sweep, a.q0) = (sweep_a, q0_a);
        (o.sweep, o.q0) = (sweep_b, q0_b);
        advance_by(a, hit.t);
        advance_by(o, hit.t);
    }
    let (a, o) = (&bodies[bi], &bodies[oi]);
    let (xa, xo) = (a.start_transform(), o.start_transform());
    let touching = !collide_shapes_placed(
        &a.parts[hit.part],
        &xa,
        None,
        &o.parts[hit.other_part],
        &xo,
        None,
    )
    .points
    .is_empty();
    if !touching {
        let (a, o) = two_mut(bodies, bi, oi);
        (a.sweep, a.q0, o.sweep, o.q0) = backup;
        return false;
    }
    // Every touching manifold of the two bodies at the time of impact: between them (the
    // bullet as A), and of each with the static parts (the static part as B).
    let mut contacts: Vec<ToiPairContact> = Vec::new();
    for (k, pa) in a.parts.iter().enumerate() {
        for (m, po) in o.parts.iter().enumerate() {
            let m_ab = collide_shapes_placed(pa, &xa, None, po, &xo, None);
            if !m_ab.points.is_empty() {
                let (friction, restitution) = mix_materials(a, o);
                contacts.push(ToiPairContact {
                    manifold: m_ab,
                    a: (0, k),
                    b: ToiSide::Body(1, m),
                    friction,
                    restitution,
                    measured: Measured::default(),
                });
            }
        }
    }
    for (index, body, xf) in [(0, a, &xa), (1, o, &xo)] {
        for (k, part) in body.parts.iter().enumerate() {
            let near = part.aabb(xf);
            for sp in static_parts {
                if !sp.aabb.overlaps(&near) {
                    continue;
                }
                let (s, pi) = (&bodies[sp.body as usize], sp.part as usize);
                let shape = &s.parts[pi];
                let m = collide_shapes_placed(part, xf, None, shape, &s.xf, s.placed_polygon(pi));
                if !m.points.is_empty() {
                    let (friction, restitution) = mix_materials(body, s);
                    contacts.push(ToiPairContact {
                        manifold: m,
                        a: (index, k),
                        b: ToiSide::Static {
                            body: sp.body as usize,
                            part: pi,
                            xf: s.xf,
                            radius: shape.radius(),
                        },
                        friction,
                        restitution,
                        measured: Measured::default(),
                    });
                }
            }
        }
    }
    let dt = step.dt();
    let h = dt - dt * hit.alpha;
    let (a, o) = two_mut(bodies, bi, oi);
    if !o.awake {
        o.awake = true;
        o.sleep_time = Fixed::ZERO;
    }
    solver.solve_toi_pair([a, o], &mut contacts, h, step.velocity_iterations);
    let ids = [bi, oi];
    for c in &contacts {
        let x = (ids[c.a.0], c.a.1);
        let y = match c.b {
            ToiSide::Body(j, m) => (ids[j], m),
            ToiSide::Static { body, part, .. } => (body, part),
        };
        report_begin(report, bodies, x, y, &c.measured);
    }
    true
}
