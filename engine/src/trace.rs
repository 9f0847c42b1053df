//! What the hashes of the simulation state cover: [`state_hash`] (behind
//! `World::state_hash`) and the per-stage hashes of a traced step ([`StepTrace`], behind
//! `World::step_traced`). None of this runs inside the step: a traced step is a plain step whose
//! stage observer calls these functions between the stages.

use crate::body::Body;
use crate::contact::{Contact, ContactKey};
use crate::hash::{chain, StateHasher};
use crate::math::Vec2;

/// Hashes of the state after each phase of one step (see
/// [`World::step_traced`](crate::World::step_traced)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StepTrace {
    /// Candidate pairs.
    pub broad_phase: u64,
    /// Manifolds (geometry and feature ids).
    pub narrow_phase: u64,
    /// Velocities and accumulated impulses after the velocity solver.
    pub solver: u64,
    /// Positions after integration and position correction.
    pub integration: u64,
    /// Sleep flags and timers.
    pub sleep: u64,
    /// Positions after continuous collision.
    pub continuous: u64,
    /// [`World::state_hash`](crate::World::state_hash) at the end of the step.
    pub state: u64,
}

/// What [`state_hash`] hashes for a removed body's slot instead of its state (ASCII "REMOVED").
/// As a live body's first word, its centre's x in Q32.32 raw units, it would be 5.4·10⁶ m, past
/// [`crate::MAX_POSITION`]: no live body hashes a first word equal to it.
const REMOVED_SLOT: u64 = 0x0052_454d_4f56_4544;

/// The complete simulation state (every body's integrated state and sleep state, every
/// contact's identity, manifold and accumulated impulses) in canonical order. A removed body's
/// slot counts in the number of bodies and adds one fixed word ([`REMOVED_SLOT`]) in its place;
/// it has no contacts. With nothing removed the hash is what it always was.
pub(crate) fn state_hash(gravity: Vec2, bodies: &[Body], contacts: &[Contact]) -> u64 {
    let mut h = StateHasher::new();
    h.vec2(gravity);
    h.u32(bodies.len() as u32);
    for b in bodies {
        if b.removed {
            // A removed slot: one fixed word, whatever state the body had when removed.
            h.u64(REMOVED_SLOT);
            continue;
        }
        h.vec2(b.sweep.c);
        h.fixed(b.sweep.a);
        h.vec2(b.v);
        h.fixed(b.w);
        h.u32(b.awake as u32);
        h.fixed(b.sleep_time);
    }
    h.u32(contacts.len() as u32);
    for c in contacts {
        h.u32(c.key.body_lo);
        h.u32(c.key.part_lo as u32);
        h.u32(c.key.body_hi);
        h.u32(c.key.part_hi as u32);
        h.u64(c.seq);
        // The point count as a u32 (0, 1 or 2), as always.
        h.u32(c.manifold.points.len() as u32);
        for p in c.manifold.points() {
            h.u32(p.id.0);
            h.vec2(p.local_point);
            h.fixed(p.normal_impulse);
            h.fixed(p.tangent_impulse);
        }
    }
    h.finish()
}

/// [`StepTrace::broad_phase`]: the candidate pairs.
pub(crate) fn pairs_hash(pairs: &[ContactKey]) -> u64 {
    let mut h = StateHasher::new();
    for k in pairs {
        h.u32(k.body_lo);
        h.u32(k.part_lo as u32);
        h.u32(k.body_hi);
        h.u32(k.part_hi as u32);
    }
    h.finish()
}

/// [`StepTrace::narrow_phase`]: every contact's manifold geometry and feature ids.
pub(crate) fn manifolds_hash(contacts: &[Contact]) -> u64 {
    let mut m = StateHasher::new();
    for c in contacts {
        m.u32(c.manifold.points.len() as u32);
        m.vec2(c.manifold.local_normal);
        m.vec2(c.manifold.local_point);
        for p in c.manifold.points() {
            m.u32(p.id.0);
            m.vec2(p.local_point);
        }
    }
    m.finish()
}

/// [`StepTrace::solver`], [`StepTrace::integration`] and [`StepTrace::sleep`], after the
/// islands were solved.
pub(crate) fn islands_hashes(bodies: &[Body], contacts: &[Contact]) -> (u64, u64, u64) {
    let (mut v, mut p, mut s, mut imp) = (
        StateHasher::new(),
        StateHasher::new(),
        StateHasher::new(),
        StateHasher::new(),
    );
    for b in bodies {
        v.vec2(b.v);
        v.fixed(b.w);
        p.vec2(b.sweep.c);
        p.fixed(b.sweep.a);
        s.u32(b.awake as u32);
        s.fixed(b.sleep_time);
    }
    for c in contacts {
        for pt in c.manifold.points() {
            imp.fixed(pt.normal_impulse);
            imp.fixed(pt.tangent_impulse);
        }
    }
    (chain(v.finish(), imp.finish()), p.finish(), s.finish())
}

/// [`StepTrace::continuous`]: every body's position after continuous collision.
pub(crate) fn positions_hash(bodies: &[Body]) -> u64 {
    let mut p = StateHasher::new();
    for b in bodies {
        p.vec2(b.sweep.c);
        p.fixed(b.sweep.a);
    }
    p.finish()
}
