//! Rigid bodies: definitions given by callers and the state the world steps, including each
//! part's tight and fat bounding boxes, kept in step with the body's transform (the broad phase,
//! `broad_phase.rs`, reads the fat ones).

use crate::collide::WorldPolygon;
use crate::fixed::Fixed;
use crate::math::{body_origin, Rot, Sweep, Transform, Vec2};
use crate::settings;
use crate::shape::{Aabb, MassData, Shape};
use crate::toi::{motion_extent, Core};

/// Index of a body in its world: bodies are numbered 0, 1, 2, … in the order they were added.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BodyId(pub u32);

impl BodyId {
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BodyKind {
    /// Never moves; infinite mass.
    Static,
    /// Moved by gravity and contacts.
    Dynamic,
}

/// What a caller gives to [`crate::World::add_body`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BodyDef {
    pub kind: BodyKind,
    /// Position of the body origin (m).
    pub position: Vec2,
    /// Angle (rad, counter-clockwise).
    pub angle: Fixed,
    /// Convex parts in body coordinates (1 … [`crate::MAX_PARTS`]).
    pub parts: Vec<Shape>,
    pub density: Fixed,
    pub friction: Fixed,
    pub restitution: Fixed,
    pub linear_velocity: Vec2,
    pub angular_velocity: Fixed,
    /// Multiplies the world's gravity for this body (1: plain gravity, 0: none, negative: up).
    pub gravity_scale: Fixed,
    /// Linear damping (1/s, at least 0): the velocity is divided by `1 + dt · damping` every step.
    pub linear_damping: Fixed,
    /// Angular damping (1/s, at least 0), applied like the linear one.
    pub angular_damping: Fixed,
    /// A fast body that must not pass through dynamic bodies either: continuous collision takes
    /// it against every other dynamic body, not only the static ones (see `continuous.rs`).
    /// Only meaningful for dynamic bodies.
    pub bullet: bool,
    /// Which other bodies this one meets (default: all).
    pub filter: CollisionFilter,
}

/// Which bodies collide: two bodies meet when each one's category shares a bit with the other's
/// mask (the default, category 1 and every mask bit, meets everything).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CollisionFilter {
    pub category: u32,
    pub mask: u32,
}

impl Default for CollisionFilter {
    fn default() -> CollisionFilter {
        CollisionFilter {
            category: 1,
            mask: u32::MAX,
        }
    }
}

impl CollisionFilter {
    /// Whether bodies with these two filters collide (symmetric).
    pub fn meets(self, other: CollisionFilter) -> bool {
        self.category & other.mask != 0 && other.category & self.mask != 0
    }
}

impl BodyDef {
    /// A body with PHYRE's material (density 0.25, friction 0.5, restitution 0.2), at rest,
    /// with plain gravity (scale 1), the default damping ([`settings::LINEAR_DAMPING`],
    /// [`settings::ANGULAR_DAMPING`]) and not a bullet.
    pub fn new(kind: BodyKind, position: Vec2, angle: Fixed, parts: Vec<Shape>) -> BodyDef {
        BodyDef {
            kind,
            position,
            angle,
            parts,
            density: settings::DENSITY,
            friction: settings::FRICTION,
            restitution: settings::RESTITUTION,
            linear_velocity: Vec2::ZERO,
            angular_velocity: Fixed::ZERO,
            gravity_scale: Fixed::ONE,
            linear_damping: settings::LINEAR_DAMPING,
            angular_damping: settings::ANGULAR_DAMPING,
            bullet: false,
            filter: CollisionFilter::default(),
        }
    }
}

/// A body as the world holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Body {
    pub(crate) kind: BodyKind,
    pub(crate) parts: Vec<Shape>,
    pub(crate) friction: Fixed,
    pub(crate) restitution: Fixed,
    pub(crate) gravity_scale: Fixed,
    pub(crate) linear_damping: Fixed,
    pub(crate) angular_damping: Fixed,
    /// Continuous collision against dynamic bodies too (dynamic bodies only).
    pub(crate) bullet: bool,
    pub(crate) filter: CollisionFilter,
    /// Taken out of the world ([`crate::World::remove_body`]): no parts in the broad phase, no
    /// contacts, never awake; the slot keeps its id.
    pub(crate) removed: bool,
    /// Transform of the body origin.
    pub(crate) xf: Transform,
    /// Centre of mass and angle: the integrated state.
    pub(crate) sweep: Sweep,
    /// `Rot::from_angle(sweep.a0)`, kept with `a0` wherever it changes, so that the
    /// start-of-step transform (broad phase, continuous collision) needs no sin/cos.
    pub(crate) q0: Rot,
    pub(crate) v: Vec2,
    pub(crate) w: Fixed,
    pub(crate) mass: Fixed,
    pub(crate) inv_mass: Fixed,
    /// Inertia about the centre of mass.
    pub(crate) inertia: Fixed,
    pub(crate) inv_inertia: Fixed,
    pub(crate) awake: bool,
    pub(crate) sleep_time: Fixed,
    /// Bounding box of each part at `xf` (kept in step with the transform).
    pub(crate) aabbs: Vec<Aabb>,
    /// Box2D's "fat" boxes of the broad phase: a part's box grown by [`AABB_MARGIN`] and by
    /// twice its last displacement, replaced only when the part leaves it. Pairs of parts exist
    /// (as contacts, touching or not) while their fat boxes overlap, as in Box2D, which is what
    /// gives contacts the creation order the island solver follows.
    pub(crate) fat: Vec<Aabb>,
    /// A fat box was replaced since the broad phase last ran (its pairs may have changed).
    pub(crate) fat_changed: bool,
    /// The parts' boxes at the sweep's start, when known (a cache, see [`StartBoxes`]).
    pub(crate) start_boxes: StartBoxes,
    /// Every part turns in place ([`Shape::turns_in_place`]): the body's placement is a function
    /// of its centre alone.
    pub(crate) round: bool,
    /// Static bodies only (empty for dynamic ones): each part's core placed at `xf`, which a
    /// static body keeps for ever, for continuous collision against it.
    pub(crate) static_cores: Vec<Core>,
    /// Each part's reach beyond its radius from the centre of mass ([`motion_extent`]), a
    /// constant of the body kept for continuous collision's motion bound.
    pub(crate) motion_extents: Vec<Fixed>,
}

/// The parts' bounding boxes at the sweep's start transform, kept from the island solve, where
/// the start is the pose the boxes in [`Body::aabbs`] were computed at: the fat-box update and
/// continuous collision then need not place every part again. A box is a function of the part
/// and the start transform, which is a function of (`c0`, `a0`); `at` names the (`c0`, `a0`) the
/// boxes belong to, and any other start computes its boxes afresh, so the cache can never give
/// a box other than the one computed. Being derived data, it takes no part in equality.
#[derive(Clone, Debug, Default)]
pub(crate) struct StartBoxes {
    at: Option<(Vec2, Fixed)>,
    boxes: Vec<Aabb>,
}

impl PartialEq for StartBoxes {
    fn eq(&self, _: &StartBoxes) -> bool {
        true
    }
}

impl Eq for StartBoxes {}

/// Margin of the broad phase's fat boxes (Box2D's `b2_aabbMargin`, m).
pub const AABB_MARGIN: Fixed = Fixed::ratio(1, 10);
/// Box2D's `b2_aabbMultiplier`: fat boxes reach ahead by this many displacements.
const AABB_MULTIPLIER: i64 = 2;

fn grow(bb: Aabb, by: Fixed) -> Aabb {
    let m = Vec2::new(by, by);
    Aabb {
        lower: bb.lower - m,
        upper: bb.upper + m,
    }
}

impl Body {
    pub(crate) fn from_def(def: &BodyDef) -> Body {
        let mut md = MassData::default();
        if def.kind == BodyKind::Dynamic {
            // Parts are summed independently: overlapping parts count twice, as in PHYRE.
            let mut weighted = Vec2::ZERO;
            for p in &def.parts {
                let m = p.mass(def.density);
                md.mass += m.mass;
                weighted += m.center.scale(m.mass);
                md.inertia += m.inertia;
            }
            if md.mass.is_positive() {
                md.center = Vec2::new(weighted.x / md.mass, weighted.y / md.mass);
            }
        }
        let (mass, inv_mass, inertia, inv_inertia, center) =
            if def.kind == BodyKind::Dynamic && md.mass.is_positive() {
                let i_c = md.inertia - md.mass * md.center.length_squared();
                let inv_i = if i_c.is_positive() {
                    Fixed::ONE / i_c
                } else {
                    Fixed::ZERO
                };
                (md.mass, Fixed::ONE / md.mass, i_c, inv_i, md.center)
            } else {
                (
                    Fixed::ZERO,
                    Fixed::ZERO,
                    Fixed::ZERO,
                    Fixed::ZERO,
                    Vec2::ZERO,
                )
            };
        let xf = Transform::new(def.position, def.angle);
        let c = xf.apply(center);
        Body {
            kind: def.kind,
            parts: def.parts.clone(),
            friction: def.friction,
            restitution: def.restitution,
            gravity_scale: def.gravity_scale,
            linear_damping: def.linear_damping,
            angular_damping: def.angular_damping,
            bullet: def.bullet && def.kind == BodyKind::Dynamic,
            filter: def.filter,
            removed: false,
            xf,
            sweep: Sweep {
                local_center: center,
                c0: c,
                c,
                a0: def.angle,
                a: def.angle,
            },
            q0: xf.q,
            v: if def.kind == BodyKind::Dynamic {
                def.linear_velocity
            } else {
                Vec2::ZERO
            },
            w: if def.kind == BodyKind::Dynamic {
                def.angular_velocity
            } else {
                Fixed::ZERO
            },
            mass,
            inv_mass,
            inertia,
            inv_inertia,
            awake: def.kind == BodyKind::Dynamic,
            sleep_time: Fixed::ZERO,
            aabbs: def.parts.iter().map(|p| p.aabb(&xf)).collect(),
            fat: def
                .parts
                .iter()
                .map(|p| grow(p.aabb(&xf), AABB_MARGIN))
                .collect(),
            fat_changed: true,
            start_boxes: StartBoxes::default(),
            round: def.parts.iter().all(|p| p.turns_in_place(center)),
            static_cores: if def.kind != BodyKind::Dynamic {
                def.parts.iter().map(|p| Core::new(p, &xf)).collect()
            } else {
                Vec::new()
            },
            motion_extents: def.parts.iter().map(|p| motion_extent(p, center)).collect(),
        }
    }

    #[inline]
    pub fn kind(&self) -> BodyKind {
        self.kind
    }

    #[inline]
    pub fn is_dynamic(&self) -> bool {
        self.kind == BodyKind::Dynamic
    }

    /// The convex parts, in body coordinates.
    #[inline]
    pub fn parts(&self) -> &[Shape] {
        &self.parts
    }

    /// Transform of the body origin.
    #[inline]
    pub fn transform(&self) -> &Transform {
        &self.xf
    }

    /// Position of the body origin (m).
    #[inline]
    pub fn position(&self) -> Vec2 {
        self.xf.p
    }

    /// Angle (rad), as integrated (not wrapped).
    #[inline]
    pub fn angle(&self) -> Fixed {
        self.sweep.a
    }

    #[inline]
    pub fn rotation(&self) -> Rot {
        self.xf.q
    }

    /// Centre of mass in world coordinates.
    #[inline]
    pub fn world_center(&self) -> Vec2 {
        self.sweep.c
    }

    /// Centre of mass in body coordinates.
    #[inline]
    pub fn local_center(&self) -> Vec2 {
        self.sweep.local_center
    }

    #[inline]
    pub fn linear_velocity(&self) -> Vec2 {
        self.v
    }

    #[inline]
    pub fn angular_velocity(&self) -> Fixed {
        self.w
    }

    /// Mass (zero for static bodies).
    #[inline]
    pub fn mass(&self) -> Fixed {
        self.mass
    }

    /// Rotational inertia about the centre of mass.
    #[inline]
    pub fn inertia(&self) -> Fixed {
        self.inertia
    }

    /// Dynamic and not asleep (static and removed bodies are never awake).
    #[inline]
    pub fn is_awake(&self) -> bool {
        self.awake
    }

    /// The factor of the world's gravity this body feels ([`BodyDef::gravity_scale`]).
    #[inline]
    pub fn gravity_scale(&self) -> Fixed {
        self.gravity_scale
    }

    /// Linear damping (1/s).
    #[inline]
    pub fn linear_damping(&self) -> Fixed {
        self.linear_damping
    }

    /// Angular damping (1/s).
    #[inline]
    pub fn angular_damping(&self) -> Fixed {
        self.angular_damping
    }

    /// Whether continuous collision takes this body against dynamic bodies too (always false
    /// for static bodies).
    #[inline]
    pub fn filter(&self) -> CollisionFilter {
        self.filter
    }

    /// Whether this body and `other` may collide (their filters meet).
    pub(crate) fn meets(&self, other: &Body) -> bool {
        self.filter.meets(other.filter)
    }

    pub fn is_bullet(&self) -> bool {
        self.bullet
    }

    /// Whether the body was taken out of its world ([`crate::World::remove_body`]). A removed
    /// body keeps its id and its last state, which no longer changes.
    #[inline]
    pub fn is_removed(&self) -> bool {
        self.removed
    }

    /// The transform at the sweep's start (`c0`, `a0`).
    #[inline]
    pub(crate) fn start_transform(&self) -> Transform {
        debug_assert_eq!(self.q0, Rot::from_angle(self.sweep.a0));
        Transform {
            p: body_origin(self.sweep.c0, self.q0, self.sweep.local_center),
            q: self.q0,
        }
    }

    /// Recompute the origin transform (and the parts' boxes) from the sweep's current centre
    /// and angle, given `q = Rot::from_angle(sweep.a)`, which the caller (the solver) has at
    /// hand, usually without a new sine and cosine.
    #[inline]
    pub(crate) fn synchronize_transform(&mut self, q: Rot) {
        debug_assert_eq!(q, Rot::from_angle(self.sweep.a));
        self.xf = Transform {
            p: body_origin(self.sweep.c, q, self.sweep.local_center),
            q,
        };
        for (bb, part) in self.aabbs.iter_mut().zip(&self.parts) {
            *bb = part.aabb(&self.xf);
        }
    }

    /// Part `k` placed at `xf` when the body keeps it so (a static polygon), else `None`.
    #[inline]
    pub(crate) fn placed_polygon(&self, k: usize) -> Option<&WorldPolygon> {
        self.static_cores.get(k).and_then(Core::polygon)
    }

    /// The box of part `k` at the sweep's start transform `start` (= [`Body::start_transform`]).
    #[inline(always)]
    pub(crate) fn start_aabb(&self, k: usize, start: &Transform) -> Aabb {
        if self.start_boxes.at == Some((self.sweep.c0, self.sweep.a0)) {
            debug_assert_eq!(self.start_boxes.boxes[k], self.parts[k].aabb(start));
            self.start_boxes.boxes[k]
        } else {
            self.parts[k].aabb(start)
        }
    }

    /// Move the parts' current boxes to the start-box cache: only valid while the sweep's start
    /// is the current pose (`c0 = c`, `a0 = a`, as the island solve sets it), which is the pose
    /// the current boxes were computed at. The current boxes are recomputed by the next
    /// [`Body::synchronize_transform`].
    #[inline]
    pub(crate) fn keep_start_boxes(&mut self) {
        debug_assert!(self.sweep.c0 == self.sweep.c && self.sweep.a0 == self.sweep.a);
        debug_assert_eq!(self.xf, self.start_transform());
        std::mem::swap(&mut self.aabbs, &mut self.start_boxes.boxes);
        if self.aabbs.len() != self.parts.len() {
            // First use: the swapped-in buffer is empty; give it the right length (its contents
            // are overwritten by the next transform synchronisation).
            self.aabbs.clone_from(&self.start_boxes.boxes);
        }
        self.start_boxes.at = Some((self.sweep.c0, self.sweep.a0));
    }

    /// Box2D's `SynchronizeFixtures`: after a body moved from its sweep start (`c0`, `a0`) to
    /// its current pose, re-fatten the broad-phase box of every part that left its fat box.
    pub(crate) fn synchronize_fat_boxes(&mut self) {
        let start = self.start_transform();
        let d = (self.xf.p - start.p).scale(Fixed::from_int(AABB_MULTIPLIER as i32));
        for k in 0..self.parts.len() {
            let swept = self.start_aabb(k, &start).union(&self.aabbs[k]);
            let fat = &mut self.fat[k];
            let inside = fat.lower.x <= swept.lower.x
                && fat.lower.y <= swept.lower.y
                && swept.upper.x <= fat.upper.x
                && swept.upper.y <= fat.upper.y;
            if inside {
                continue;
            }
            let mut b = grow(swept, AABB_MARGIN);
            if d.x.is_negative() {
                b.lower.x += d.x;
            } else {
                b.upper.x += d.x;
            }
            if d.y.is_negative() {
                b.lower.y += d.y;
            } else {
                b.upper.y += d.y;
            }
            *fat = b;
            self.fat_changed = true;
        }
    }
}
