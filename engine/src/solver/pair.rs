//! The two bodies of one velocity constraint as the velocity solver works on them: their
//! velocities held in locals and their inverse masses, specialised at compile time on which of
//! them move.

use super::body::SolverBody;
use crate::fixed::Fixed;
use crate::math::Vec2;

/// The velocities of a constraint's two bodies, held in locals while one constraint is solved
/// (read once before, written once after), so the impulse chain runs in registers instead of
/// through memory. The arithmetic and its order are exactly those of updating the bodies in
/// place.
#[derive(Clone, Copy)]
pub(super) struct PairVelocities {
    va: Vec2,
    wa: Fixed,
    vb: Vec2,
    wb: Fixed,
}

impl PairVelocities {
    #[inline(always)]
    pub(super) fn load<const MA: bool, const MB: bool>(
        bodies: &[SolverBody],
        a: usize,
        b: usize,
    ) -> Self {
        let (mut va, mut wa, mut vb, mut wb) = (Vec2::ZERO, Fixed::ZERO, Vec2::ZERO, Fixed::ZERO);
        if MA {
            va = bodies[a].v;
            wa = bodies[a].w;
        }
        if MB {
            vb = bodies[b].v;
            wb = bodies[b].w;
        }
        PairVelocities { va, wa, vb, wb }
    }

    #[inline(always)]
    pub(super) fn store<const MA: bool, const MB: bool>(
        self,
        bodies: &mut [SolverBody],
        a: usize,
        b: usize,
    ) {
        if MA {
            bodies[a].v = self.va;
            bodies[a].w = self.wa;
        }
        if MB {
            bodies[b].v = self.vb;
            bodies[b].w = self.wb;
        }
    }

    /// `apply_impulse` specialised on which bodies move (`MA`, `MB`): the terms of a body that
    /// cannot move are exact zeros, and leaving them out keeps every bit.
    #[inline(always)]
    pub(super) fn apply<const MA: bool, const MB: bool>(
        &mut self,
        inv: &InverseMasses,
        ra: Vec2,
        rb: Vec2,
        p: Vec2,
    ) {
        if MA {
            self.va -= p.scale(inv.ma);
            self.wa -= inv.ia * ra.cross(p);
        }
        if MB {
            self.vb += p.scale(inv.mb);
            self.wb += inv.ib * rb.cross(p);
        }
    }

    /// `vb + wb×rb − va − wa×ra`, specialised like [`PairVelocities::apply`].
    #[inline(always)]
    pub(super) fn relative<const MA: bool, const MB: bool>(&self, ra: Vec2, rb: Vec2) -> Vec2 {
        // Same operation order as the general form; a fixed body's terms are exact zeros, and
        // subtracting zero changes nothing.
        let mut v = Vec2::ZERO;
        if MB {
            v = self.vb + Vec2::cross_sv(self.wb, rb);
        }
        if MA {
            v = v - self.va - Vec2::cross_sv(self.wa, ra);
        }
        v
    }
}

/// The inverse masses and inertias of a constraint's two bodies.
#[derive(Clone, Copy)]
pub(super) struct InverseMasses {
    ma: Fixed,
    ia: Fixed,
    mb: Fixed,
    ib: Fixed,
}

impl InverseMasses {
    #[inline(always)]
    pub(super) fn of(bodies: &[SolverBody], a: usize, b: usize) -> InverseMasses {
        InverseMasses {
            ma: bodies[a].inv_mass,
            ia: bodies[a].inv_inertia,
            mb: bodies[b].inv_mass,
            ib: bodies[b].inv_inertia,
        }
    }
}

#[inline]
pub(super) fn apply_impulse(
    bodies: &mut [SolverBody],
    a: usize,
    b: usize,
    ra: Vec2,
    rb: Vec2,
    p: Vec2,
) {
    let inv = InverseMasses::of(bodies, a, b);
    let mut pv = PairVelocities::load::<true, true>(bodies, a, b);
    pv.apply::<true, true>(&inv, ra, rb, p);
    pv.store::<true, true>(bodies, a, b);
}
