//! The solve of one island in the regular step: its bodies' velocities integrated (gravity,
//! damping), velocity constraints from the manifolds (recording what contacts that began touching
//! measure), warm start, the velocity solve, impulses stored for the next step's warm start,
//! positions integrated with the per-step caps, position correction, and write-back.

use super::body::{integrate, is_fixed, write_back, SolverBody};
use super::constraint::{make_constraint, measure};
use super::pair::apply_impulse;
use super::position::{correct_positions, PositionContact, PositionTuning, SideB};
use super::IslandSolver;
use crate::body::Body;
use crate::contact::Contact;
use crate::events::ContactEvents;
use crate::fixed::Fixed;
use crate::math::Rot;
use crate::settings::StepSettings;

impl IslandSolver {
    /// Solve one island: `island_bodies` are world body indices (ascending; static bodies
    /// included), `island_contacts` indices of touching contacts in discovery order.
    /// Returns whether the position solver converged.
    pub(crate) fn solve(
        &mut self,
        bodies: &mut [Body],
        contacts: &mut [Contact],
        island_bodies: &[usize],
        island_contacts: &[usize],
        step: &StepSettings,
        events: &mut ContactEvents,
    ) -> bool {
        let h = step.dt();
        let gravity_step = step.gravity.scale(h);
        self.bodies.clear();
        for &bi in island_bodies {
            let b = &mut bodies[bi];
            b.sweep.c0 = b.sweep.c;
            b.sweep.a0 = b.sweep.a;
            // The transform is always kept at the current angle.
            debug_assert_eq!(b.xf.q, Rot::from_angle(b.sweep.a));
            b.q0 = b.xf.q;
            let mut v = b.v;
            let mut w = b.w;
            if b.is_dynamic() {
                // Gravity, then Padé damping, v ← v / (1 + h·c), as Box2D does. A scale of 1
                // takes the unscaled product (the same bits as scaling by one would give).
                if b.gravity_scale == Fixed::ONE {
                    v += gravity_step;
                } else {
                    v += step.gravity.scale(b.gravity_scale).scale(h);
                }
                v = v.scale(self.linear_damping.factor(h, b.linear_damping));
                w *= self.angular_damping.factor(h, b.angular_damping);
            }
            self.bodies.push(SolverBody {
                c: b.sweep.c,
                a: b.sweep.a,
                v,
                w,
                inv_mass: b.inv_mass,
                inv_inertia: b.inv_inertia,
                local_center: b.sweep.local_center,
                q: b.xf.q,
                q_angle: b.sweep.a,
                round: b.round,
            });
        }
        let local = |world_index: u32| {
            island_bodies
                .binary_search(&(world_index as usize))
                .unwrap_or(0)
        };

        // Velocity constraints from the manifolds at the start-of-step transforms; contacts
        // that began touching this step have their normal and approach speed recorded.
        let record = events.has_narrow_begins();
        self.constraints.clear();
        for (ci, &cidx) in island_contacts.iter().enumerate() {
            let c = &contacts[cidx];
            let ia = local(c.body_a);
            let ib = local(c.body_b);
            let ba = &bodies[c.body_a as usize];
            let bb = &bodies[c.body_b as usize];
            let ra_shape = ba.parts[c.part_a as usize].radius();
            let rb_shape = bb.parts[c.part_b as usize].radius();
            let sides = [(ia, &ba.xf, ra_shape), (ib, &bb.xf, rb_shape)];
            let material = (c.friction, c.restitution);
            let cc = make_constraint(&self.bodies, ci, sides, &c.manifold, material, true);
            if record {
                if let Some(e) = events.narrow_begin(c.key) {
                    let m = measure(&cc, &self.bodies);
                    // Events give the normal from the lower body id to the higher.
                    let flipped = c.body_a != c.key.body_lo;
                    e.normal = if flipped { -m.normal } else { m.normal };
                    e.approach_speed = m.approach_speed;
                }
            }
            self.constraints.push(cc);
        }

        // Warm start.
        for cc in &self.constraints {
            let t = cc.normal.cross_v1();
            for p in &cc.points {
                let imp = cc.normal.scale(p.normal_impulse) + t.scale(p.tangent_impulse);
                apply_impulse(&mut self.bodies, cc.a, cc.b, p.ra, p.rb, imp);
            }
        }

        self.solve_velocities(step.velocity_iterations);

        // Store impulses for the next step's warm start.
        for cc in &self.constraints {
            let m = &mut contacts[island_contacts[cc.contact]].manifold;
            for (j, mp) in m.points.iter_mut().enumerate() {
                if let Some(p) = cc.points.get(j) {
                    mp.normal_impulse = p.normal_impulse;
                    mp.tangent_impulse = p.tangent_impulse;
                } else {
                    mp.normal_impulse = Fixed::ZERO;
                    mp.tangent_impulse = Fixed::ZERO;
                }
            }
        }

        // Integrate positions with the per-step caps.
        for sb in &mut self.bodies {
            if is_fixed(sb) {
                continue;
            }
            integrate(sb, h);
        }

        // Position correction: both sides of every contact are solver bodies (an island holds
        // its static bodies too).
        let (world_bodies, world_contacts): (&[Body], &[Contact]) = (bodies, contacts);
        let constraints = &self.constraints;
        let solved = correct_positions(
            &mut self.bodies,
            &PositionTuning::step(step.position_iterations),
            constraints.len(),
            move |i| {
                let cc = &constraints[i];
                let c = &world_contacts[island_contacts[cc.contact]];
                let radius = |body: u32, part: u16| {
                    world_bodies[body as usize].parts[part as usize].radius()
                };
                PositionContact {
                    manifold: &c.manifold,
                    a: cc.a,
                    radius_a: radius(c.body_a, c.part_a),
                    b: SideB::Body(cc.b),
                    radius_b: radius(c.body_b, c.part_b),
                }
            },
        );

        // Write back.
        for (k, &bi) in island_bodies.iter().enumerate() {
            let b = &mut bodies[bi];
            if !b.is_dynamic() {
                continue;
            }
            write_back(&mut self.bodies[k], b, true);
        }
        solved
    }
}
