//! The continuous-collision sub-steps, as Box2D solves a TOI island: the bodies at their time of
//! impact, position correction (tuned for the sub-step), velocities (no warm start, restitution
//! from the current approach speed), then integration over the rest of the step. Static parts
//! take part through one motionless, massless stand-in body.

use super::body::{integrate, write_back, SolverBody};
use super::constraint::{make_constraint, measure, normal_impulse};
use super::position::{correct_positions, PositionContact, PositionTuning, SideB};
use super::IslandSolver;
use crate::body::Body;
use crate::contact::{ToiContact, ToiPairContact, ToiSide};
use crate::fixed::Fixed;
use crate::shape::Shape;

impl IslandSolver {
    /// Box2D's TOI sub-step for one body against the static parts it touches at its time of
    /// impact (its sweep's `c0`/`a0`): position correction (Baumgarte 0.75, until the worst
    /// separation is above −1.5 slops), then velocities (no warm start, restitution from the
    /// current approach speed), then integration over the remaining time `h`.
    pub(crate) fn solve_toi(
        &mut self,
        body: &mut Body,
        hits: &mut [ToiContact],
        h: Fixed,
        velocity_iterations: u32,
    ) {
        self.bodies.clear();
        self.bodies.push(SolverBody::at_time_of_impact(body));
        let (parts, placed_hits): (&[Shape], &[ToiContact]) = (&body.parts, hits);
        correct_positions(
            &mut self.bodies,
            &PositionTuning::time_of_impact(),
            placed_hits.len(),
            move |i| {
                let hit = &placed_hits[i];
                PositionContact {
                    manifold: &hit.manifold,
                    a: 0,
                    radius_a: parts[hit.part].radius(),
                    b: SideB::Static(hit.static_xf),
                    radius_b: hit.static_radius,
                }
            },
        );
        let sb = &mut self.bodies[0];
        body.sweep.c0 = sb.c;
        body.sweep.a0 = sb.a;
        body.q0 = sb.rotation();
        // Velocities: the body (index 0) against the static bodies' stand-in (index 1).
        let stand_in = SolverBody::static_stand_in(sb.c);
        self.bodies.push(stand_in);
        let xa = self.bodies[0].transform();
        self.constraints.clear();
        for (i, hit) in hits.iter_mut().enumerate() {
            let ra_shape = body.parts[hit.part].radius();
            let sides = [(0, &xa, ra_shape), (1, &hit.static_xf, hit.static_radius)];
            let material = (hit.friction, hit.restitution);
            let cc = make_constraint(&self.bodies, i, sides, &hit.manifold, material, false);
            hit.measured = measure(&cc, &self.bodies);
            self.constraints.push(cc);
        }
        self.solve_velocities(velocity_iterations);
        for cc in &self.constraints {
            hits[cc.contact].measured.normal_impulse = normal_impulse(cc);
        }
        let sb = &mut self.bodies[0];
        integrate(sb, h);
        write_back(sb, body, false);
    }

    /// The TOI sub-step of two bodies, a bullet and the dynamic body it hit, both at the time of
    /// impact (their sweeps' `c0`/`a0`), with `contacts` between them and of each with static
    /// parts, as Box2D solves a TOI island: position correction of both bodies (Baumgarte 0.75,
    /// until the worst separation is above −1.5 slops), then velocities (no warm start,
    /// restitution from the current approach speed), then integration of both over the
    /// remaining time `h`. Static parts stand in as one motionless, massless body.
    pub(crate) fn solve_toi_pair(
        &mut self,
        mut pair: [&mut Body; 2],
        contacts: &mut [ToiPairContact],
        h: Fixed,
        velocity_iterations: u32,
    ) {
        self.bodies.clear();
        self.bodies.push(SolverBody::at_time_of_impact(pair[0]));
        self.bodies.push(SolverBody::at_time_of_impact(pair[1]));
        let (pair_parts, placed): ([&[Shape]; 2], &[ToiPairContact]) =
            ([&pair[0].parts, &pair[1].parts], contacts);
        correct_positions(
            &mut self.bodies,
            &PositionTuning::time_of_impact(),
            placed.len(),
            move |i| {
                let c = &placed[i];
                let (ia, ka) = c.a;
                let (b, radius_b) = match c.b {
                    ToiSide::Body(ib, kb) => (SideB::Body(ib), pair_parts[ib][kb].radius()),
                    ToiSide::Static { xf, radius, .. } => (SideB::Static(xf), radius),
                };
                PositionContact {
                    manifold: &c.manifold,
                    a: ia,
                    radius_a: pair_parts[ia][ka].radius(),
                    b,
                    radius_b,
                }
            },
        );
        for (k, body) in pair.iter_mut().enumerate() {
            let sb = &mut self.bodies[k];
            body.sweep.c0 = sb.c;
            body.sweep.a0 = sb.a;
            body.q0 = sb.rotation();
        }
        // Velocities: the pair (indices 0 and 1) and the static parts' stand-in (index 2).
        const STAND_IN: usize = 2;
        let stand_in = SolverBody::static_stand_in(self.bodies[0].c);
        self.bodies.push(stand_in);
        // Solver index and radius of each side of a contact.
        let sides = |pair: &[&mut Body; 2], c: &ToiPairContact| {
            let (ia, ka) = c.a;
            let ra = pair[ia].parts[ka].radius();
            let (ib, rb) = match c.b {
                ToiSide::Body(ib, kb) => (ib, pair[ib].parts[kb].radius()),
                ToiSide::Static { radius, .. } => (STAND_IN, radius),
            };
            (ia, ra, ib, rb)
        };
        let x = [self.bodies[0].transform(), self.bodies[1].transform()];
        self.constraints.clear();
        for (i, c) in contacts.iter_mut().enumerate() {
            let (ia, ra_shape, ib, rb_shape) = sides(&pair, c);
            let xb = match c.b {
                ToiSide::Body(..) => x[ib],
                ToiSide::Static { xf, .. } => xf,
            };
            let sides = [(ia, &x[ia], ra_shape), (ib, &xb, rb_shape)];
            let material = (c.friction, c.restitution);
            let cc = make_constraint(&self.bodies, i, sides, &c.manifold, material, false);
            c.measured = measure(&cc, &self.bodies);
            self.constraints.push(cc);
        }
        self.solve_velocities(velocity_iterations);
        for cc in &self.constraints {
            contacts[cc.contact].measured.normal_impulse = normal_impulse(cc);
        }
        for (k, body) in pair.iter_mut().enumerate() {
            let sb = &mut self.bodies[k];
            integrate(sb, h);
            write_back(sb, body, false);
        }
    }
}
