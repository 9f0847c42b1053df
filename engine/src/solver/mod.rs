//! The solver, one file per part:
//! * `island.rs`: one island ([`IslandSolver::solve`], called by `island.rs` of the step):
//!   velocity integration (gravity, damping), velocity constraints, warm start, velocities,
//!   position integration with per-step caps, position correction, write-back.
//! * `time_of_impact.rs`: one continuous-collision sub-step ([`IslandSolver::solve_toi`] and
//!   [`IslandSolver::solve_toi_pair`], called by `continuous.rs`): one body against the static
//!   parts it touches, or a bullet and the body it hit; position correction, then velocities,
//!   then integration over the rest of the step.
//! * `body.rs`: a body's working state, its integration and its write-back.
//! * `constraint.rs`: the velocity constraints of the manifolds, and what contact events
//!   measure of them.
//! * `velocity.rs`: sequential impulses with friction, over `pair.rs` (a constraint's two
//!   bodies, specialised on which move) and `block.rs` (the 2-point block solver).
//! * `position.rs`: non-linear Gauss-Seidel position correction, one function for the island
//!   and the sub-steps, which differ only in their tuning and in static parts.
//!
//! Order (fixed): bodies in ascending id; contacts in the order the island search discovered
//! them, the same in every pass (warm start, each velocity iteration, each position iteration,
//! point by point); within a contact, friction before the normal constraint. Work that is an
//! exact no-op is skipped (the terms of bodies that cannot move, and velocity sweeps once
//! nothing changes), which leaves every bit as it was.

mod block;
mod body;
mod constraint;
mod island;
mod pair;
mod position;
mod time_of_impact;
mod velocity;

use body::{DampingFactor, SolverBody};
use constraint::ContactConstraint;
use velocity::{solve_velocities, SweepState};

/// Reusable buffers for solving islands and continuous-collision sub-steps.
#[derive(Clone, Debug, Default)]
pub(crate) struct IslandSolver {
    bodies: Vec<SolverBody>,
    constraints: Vec<ContactConstraint>,
    /// The velocity solver's record of its last two sweeps.
    sweep_states: [SweepState; 2],
    linear_damping: DampingFactor,
    angular_damping: DampingFactor,
}

impl IslandSolver {
    /// The velocity solve of the constraints built, over `iterations` sweeps.
    fn solve_velocities(&mut self, iterations: u32) {
        solve_velocities(
            &mut self.bodies,
            &mut self.constraints,
            &mut self.sweep_states,
            iterations,
        );
    }
}
