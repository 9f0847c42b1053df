//! A body as the solver holds it: its working state (pose, velocity, inverse mass), the cached
//! rotation that places its points, integration of velocities (the damping factor) and of
//! positions (with the per-step caps), and the write-back into the world's body.

use crate::body::Body;
use crate::fixed::Fixed;
use crate::math::{body_origin, Rot, Transform, Vec2};
use crate::settings::{MAX_ROTATION, MAX_TRANSLATION};

/// One body's working state during a solve (an island's or a continuous-collision sub-step's).
#[derive(Clone, Copy, Debug)]
pub(super) struct SolverBody {
    pub(super) c: Vec2,
    pub(super) a: Fixed,
    pub(super) v: Vec2,
    pub(super) w: Fixed,
    pub(super) inv_mass: Fixed,
    pub(super) inv_inertia: Fixed,
    pub(super) local_center: Vec2,
    /// Rotation cached for `q_angle` (recomputed only when the angle changes).
    pub(super) q: Rot,
    pub(super) q_angle: Fixed,
    /// [`Body::round`]: no point of the body moves with its rotation.
    pub(super) round: bool,
}

impl SolverBody {
    /// A body at its time of impact (its sweep's `c0`/`a0`), for a continuous-collision
    /// sub-step.
    pub(super) fn at_time_of_impact(b: &Body) -> SolverBody {
        SolverBody {
            c: b.sweep.c0,
            a: b.sweep.a0,
            v: b.v,
            w: b.w,
            inv_mass: b.inv_mass,
            inv_inertia: b.inv_inertia,
            local_center: b.sweep.local_center,
            q: b.q0,
            q_angle: b.sweep.a0,
            round: b.round,
        }
    }

    /// A motionless, massless body at `c` standing in for the static bodies of a
    /// continuous-collision sub-step's velocity solve: static bodies take no impulse, so one
    /// stand-in serves every static contact.
    pub(super) fn static_stand_in(c: Vec2) -> SolverBody {
        SolverBody {
            c,
            a: Fixed::ZERO,
            v: Vec2::ZERO,
            w: Fixed::ZERO,
            inv_mass: Fixed::ZERO,
            inv_inertia: Fixed::ZERO,
            local_center: Vec2::ZERO,
            q: Rot::IDENTITY,
            q_angle: Fixed::ZERO,
            round: false,
        }
    }

    /// The body's transform at its current centre and angle, as far as it places the body's
    /// points. A round body's rotation moves none of its points (they are all the origin, the
    /// centre of mass, and rotating the zero vector gives exactly zero), so its transform is
    /// its centre with whatever rotation is cached, and no sine or cosine is taken.
    #[inline]
    pub(super) fn transform(&mut self) -> Transform {
        if self.round {
            return Transform {
                p: self.c,
                q: self.q,
            };
        }
        self.rotation();
        Transform {
            p: body_origin(self.c, self.q, self.local_center),
            q: self.q,
        }
    }

    /// The exact rotation of the current angle (cached).
    #[inline]
    pub(super) fn rotation(&mut self) -> Rot {
        if self.q_angle != self.a {
            self.q = Rot::from_angle(self.a);
            self.q_angle = self.a;
        }
        self.q
    }
}

/// The Padé damping factor `1 / (1 + h·c)` of the last (time step, damping) asked for: bodies
/// almost always share their damping, so the division is made once, not per body. A cache of
/// a pure function, so it never changes a result.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct DampingFactor {
    /// (h, c) of `factor`, when computed.
    of: Option<(Fixed, Fixed)>,
    factor: Fixed,
}

impl DampingFactor {
    #[inline]
    pub(super) fn factor(&mut self, h: Fixed, c: Fixed) -> Fixed {
        if self.of != Some((h, c)) {
            self.factor = Fixed::ONE / (Fixed::ONE + h * c);
            self.of = Some((h, c));
        }
        self.factor
    }
}

/// Copy a solved body's state back into the world's body and refresh its transform and boxes.
/// `from_start`: the body's sweep starts at the pose its boxes were last computed at (the island
/// solve; not a continuous-collision sub-step, which moves the start), so those boxes are kept
/// as the start boxes.
#[inline]
pub(super) fn write_back(sb: &mut SolverBody, body: &mut Body, from_start: bool) {
    if from_start {
        body.keep_start_boxes();
    }
    body.sweep.c = sb.c;
    body.sweep.a = sb.a;
    body.v = sb.v;
    body.w = sb.w;
    body.synchronize_transform(sb.rotation());
    body.synchronize_fat_boxes();
}

/// Integrate a body's position over `h` with the per-step translation and rotation caps.
#[inline]
pub(super) fn integrate(sb: &mut SolverBody, h: Fixed) {
    let translation = sb.v.scale(h);
    if translation.length_squared() > MAX_TRANSLATION * MAX_TRANSLATION {
        let len = translation.length();
        sb.v = sb.v.scale(MAX_TRANSLATION / len);
    }
    let rotation = h * sb.w;
    if rotation * rotation > MAX_ROTATION * MAX_ROTATION {
        sb.w *= MAX_ROTATION / rotation.abs();
    }
    sb.c += sb.v.scale(h);
    sb.a += h * sb.w;
}

/// Whether a solver body can never move during this solve: zero inverse mass and inertia and
/// no velocity (static bodies, and the TOI stand-in). Every update of such a body is an exact
/// no-op in fixed point (`p · 0` and `0 · x` round to exactly 0), and its velocity terms are
/// exact zeros, so the solver may skip them without changing a bit.
#[inline]
pub(super) fn is_fixed(b: &SolverBody) -> bool {
    b.inv_mass.raw() == 0 && b.inv_inertia.raw() == 0 && b.v == Vec2::ZERO && b.w.raw() == 0
}
