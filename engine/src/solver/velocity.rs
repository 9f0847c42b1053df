//! The velocity solver: sequential impulses over an island's (or a sub-step's) contact
//! constraints, sweep after sweep, each contact's friction before its normal constraint (the
//! 2-point normal constraint in `block.rs`), with the body terms specialised on which bodies
//! move (`pair.rs`), and the sweeps that can only repeat an earlier state skipped.

use super::block::solve_block;
use super::body::SolverBody;
use super::constraint::ContactConstraint;
use super::pair::{InverseMasses, PairVelocities};
use crate::fixed::Fixed;
use crate::math::Vec2;

/// The part of a velocity solve that sweeps change: every body's velocity and every
/// constraint's accumulated impulses (everything else a sweep reads is fixed during the solve).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct SweepState {
    values: Vec<Fixed>,
}

impl SweepState {
    fn capture(&mut self, bodies: &[SolverBody], constraints: &[ContactConstraint]) {
        self.values.clear();
        for b in bodies {
            self.values.extend([b.v.x, b.v.y, b.w]);
        }
        for cc in constraints {
            for p in &cc.points {
                self.values.extend([p.normal_impulse, p.tangent_impulse]);
            }
        }
    }

    /// Whether the solve is in this state now.
    fn matches(&self, bodies: &[SolverBody], constraints: &[ContactConstraint]) -> bool {
        let mut it = self.values.iter();
        let mut same = |x: Fixed| it.next() == Some(&x);
        bodies
            .iter()
            .all(|b| same(b.v.x) && same(b.v.y) && same(b.w))
            && constraints.iter().all(|cc| {
                cc.points
                    .iter()
                    .all(|p| same(p.normal_impulse) && same(p.tangent_impulse))
            })
    }

    /// Sets the solve back to this state, captured earlier in the same solve (the same bodies
    /// and points, so the same number of values).
    fn restore(&self, bodies: &mut [SolverBody], constraints: &mut [ContactConstraint]) {
        let mut it = self.values.iter().copied();
        let mut next = || it.next().unwrap_or(Fixed::ZERO);
        for b in bodies {
            b.v = Vec2::new(next(), next());
            b.w = next();
        }
        for cc in constraints {
            for p in &mut cc.points {
                p.normal_impulse = next();
                p.tangent_impulse = next();
            }
        }
    }
}

/// `iterations` sweeps of sequential impulses over the constraints, in order.
///
/// A sweep is a function of the velocities and accumulated impulses alone, so once a sweep
/// ends where an earlier one ended the rest repeats bit for bit and is skipped: a sweep that
/// changes nothing ends every later one there too, and one that returns to the state of two
/// sweeps before (fixed point rounding swinging one unit back and forth) alternates between
/// two states to the end, which one is known from the number of sweeps left. The result is
/// the same as running them all.
pub(super) fn solve_velocities(
    bodies: &mut [SolverBody],
    constraints: &mut [ContactConstraint],
    last_sweeps: &mut [SweepState; 2],
    iterations: u32,
) {
    // The states after the sweep before the last one and after the last one.
    let [two_back, one_back] = last_sweeps;
    #[cfg(test)]
    if tests::EVERY_SWEEP.get() {
        for _ in 0..iterations {
            for cc in constraints.iter_mut() {
                solve_velocity(bodies, cc);
            }
        }
        return;
    }
    for sweep in 0..iterations {
        let mut changed = false;
        for cc in constraints.iter_mut() {
            changed |= solve_velocity(bodies, cc);
        }
        if !changed {
            return;
        }
        if sweep >= 2 && two_back.matches(bodies, constraints) {
            #[cfg(test)]
            tests::SWINGS_CUT.set(tests::SWINGS_CUT.get() + 1);
            if (iterations - sweep - 1) % 2 == 1 {
                one_back.restore(bodies, constraints);
            }
            return;
        }
        two_back.capture(bodies, constraints);
        std::mem::swap(two_back, one_back);
    }
}

/// One velocity iteration of a contact constraint, dispatched on which of its bodies move.
/// Returns whether any accumulated impulse changed (if none did, no velocity changed either).
fn solve_velocity(bodies: &mut [SolverBody], cc: &mut ContactConstraint) -> bool {
    match (cc.a_moves, cc.b_moves) {
        (true, true) => solve_velocity_m::<true, true>(bodies, cc),
        (false, true) => solve_velocity_m::<false, true>(bodies, cc),
        (true, false) => solve_velocity_m::<true, false>(bodies, cc),
        // Two fixed bodies: every impulse is an exact no-op on them.
        (false, false) => solve_velocity_m::<false, false>(bodies, cc),
    }
}

#[inline(always)]
fn solve_velocity_m<const MA: bool, const MB: bool>(
    bodies: &mut [SolverBody],
    cc: &mut ContactConstraint,
) -> bool {
    let (a, b) = (cc.a, cc.b);
    let inv = InverseMasses::of(bodies, a, b);
    let mut pv = PairVelocities::load::<MA, MB>(bodies, a, b);
    let changed = solve_points::<MA, MB>(&mut pv, &inv, cc);
    pv.store::<MA, MB>(bodies, a, b);
    changed
}

#[inline(always)]
fn solve_points<const MA: bool, const MB: bool>(
    pv: &mut PairVelocities,
    inv: &InverseMasses,
    cc: &mut ContactConstraint,
) -> bool {
    let n = cc.normal;
    let t = n.cross_v1();
    let mut changed = false;
    // Friction first: non-penetration matters more, so it goes last.
    for p in cc.points.iter_mut() {
        let vt = pv.relative::<MA, MB>(p.ra, p.rb).dot(t);
        let lambda = -(p.tangent_mass * vt);
        let max_f = cc.friction * p.normal_impulse;
        let new_impulse = (p.tangent_impulse + lambda).clamp(-max_f, max_f);
        let d = new_impulse - p.tangent_impulse;
        changed |= d.raw() != 0;
        p.tangent_impulse = new_impulse;
        pv.apply::<MA, MB>(inv, p.ra, p.rb, t.scale(d));
    }
    if let [p] = cc.points.as_mut_slice() {
        let vn = pv.relative::<MA, MB>(p.ra, p.rb).dot(n);
        let lambda = -(p.normal_mass * (vn - p.velocity_bias));
        let new_impulse = (p.normal_impulse + lambda).max(Fixed::ZERO);
        let d = new_impulse - p.normal_impulse;
        p.normal_impulse = new_impulse;
        pv.apply::<MA, MB>(inv, p.ra, p.rb, n.scale(d));
        return changed | (d.raw() != 0);
    }
    changed | solve_block::<MA, MB>(pv, inv, cc)
}

#[cfg(test)]
mod tests {
    use crate::testbed::pile;
    use crate::World;
    use std::cell::Cell;

    thread_local! {
        /// Solve every sweep, skipping nothing (the reference the skips must equal).
        pub(super) static EVERY_SWEEP: Cell<bool> = const { Cell::new(false) };
        /// How many solves ended early on a two-sweep swing.
        pub(super) static SWINGS_CUT: Cell<u32> = const { Cell::new(0) };
    }

    /// The hash after each of `steps` steps of the test bed's pile at 100 velocity iterations (as
    /// the Phy-Q game runs: enough for fixed-point rounding to settle into swings).
    fn chain(every_sweep: bool, steps: u32) -> Vec<u64> {
        EVERY_SWEEP.set(every_sweep);
        let mut w: World = pile();
        let s = w.settings().with_iterations(100, 100);
        w.set_settings(s).expect("valid settings");
        let hashes = (0..steps)
            .map(|_| {
                w.step();
                w.state_hash()
            })
            .collect();
        EVERY_SWEEP.set(false);
        hashes
    }

    #[test]
    fn skipped_sweeps_change_no_bit() {
        SWINGS_CUT.set(0);
        let skipping = chain(false, 240);
        let cut = SWINGS_CUT.get();
        assert!(
            cut > 0,
            "the pyramid never swung: the test exercises nothing"
        );
        assert_eq!(skipping, chain(true, 240));
    }
}
