//! Continuous collision, the step's last stage: sub-steps of each moving body against the static
//! bodies, so that a fast body cannot pass through a thin static part in one step.
//!
//! [`crate::toi`] finds the times of impact; this file drives the sub-steps and
//! [`IslandSolver::solve_toi`] solves each one. Only dynamic-versus-static impacts are handled,
//! as Box2D 2.3.2 does for bodies that are not bullets (PHYRE has none).

use crate::body::Body;
use crate::collide::collide_shapes_placed;
use crate::contact::{mix_materials, ToiContact};
use crate::fixed::Fixed;
use crate::math::Rot;
use crate::settings::{DT, LINEAR_SLOP};
use crate::shape::Aabb;
use crate::solver::IslandSolver;
use crate::toi::{time_of_impact_placed, ToiQuery};

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

/// Continuous collision against static bodies, as Box2D does for non-bullet bodies: find the
/// earliest time of impact of the body's sweep with a static part; advance the body there;
/// solve the rest of the step for the body and the static parts it touches (position
/// correction first, then velocities without warm starting, then integration over the
/// remaining time); repeat from the new sweep, at most [`MAX_TOI_SUBSTEPS`] times. Bodies
/// are independent here (only static partners), so processing them in id order is the same
/// as Box2D's global earliest-first order.
pub(crate) fn continuous_collision(
    bodies: &mut [Body],
    static_parts: &[StaticPart],
    solver: &mut IslandSolver,
) {
    let target = -(LINEAR_SLOP.mul_int(3));
    for bi in 0..bodies.len() {
        let mut alpha0 = Fixed::ZERO;
        // Static parts whose time of impact gave no touching manifold this step.
        let mut skipped: Vec<(usize, usize)> = Vec::new();
        for _ in 0..MAX_TOI_SUBSTEPS {
            let b = &bodies[bi];
            if !b.awake || !b.is_dynamic() || (b.sweep.c == b.sweep.c0 && b.sweep.a == b.sweep.a0) {
                break;
            }
            let sweep = b.sweep;
            let q0 = b.q0;
            let start = b.start_transform();
            let mut first: Option<(Fixed, usize, usize, usize)> = None;
            for (k, ((part, now), &extent)) in b
                .parts
                .iter()
                .zip(&b.aabbs)
                .zip(&b.motion_extents)
                .enumerate()
            {
                let swept: Aabb = b.start_aabb(k, &start).union(now);
                for sp in static_parts {
                    let (si, pi) = (sp.body as usize, sp.part as usize);
                    if !sp.aabb.overlaps(&swept) || skipped.contains(&(si, pi)) {
                        continue;
                    }
                    let s = &bodies[si];
                    let query = ToiQuery {
                        moving: part,
                        extent,
                        sweep: &sweep,
                        q0,
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
            let Some((t, k_toi, si, pi)) = first else {
                break;
            };
            // Advance the sweep's start to the time of impact.
            let b = &mut bodies[bi];
            let backup = (b.sweep, b.q0);
            b.sweep.c0 = b.sweep.c0 + (b.sweep.c - b.sweep.c0).scale(t);
            let a0 = b.sweep.a0 + (b.sweep.a - b.sweep.a0) * t;
            if a0 != b.sweep.a0 {
                b.q0 = Rot::from_angle(a0);
            }
            b.sweep.a0 = a0;
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
                // Not really touching (Box2D disables the contact for the rest of the step).
                (bodies[bi].sweep, bodies[bi].q0) = backup;
                skipped.push((si, pi));
                continue;
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
                            static_xf: s.xf,
                            static_radius: shape.radius(),
                            friction,
                            restitution,
                        });
                    }
                }
            }
            let h = DT - DT * alpha;
            solver.solve_toi(&mut bodies[bi], &mut hits, h);
            alpha0 = alpha;
        }
    }
}
