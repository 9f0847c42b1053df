//! The world: bodies, contacts, and the step as a sequence of stages, each in its own file.
//!
//! One step (`World::step_stages`, behind `step`, `step_with_phases` and `step_traced`), in this
//! fixed order:
//! 1. **Broad phase** (`broad_phase.rs`): candidate pairs from the fat boxes (sort and sweep),
//!    recomputed only when a fat box was replaced.
//! 2. **Narrow phase** (`contact.rs`) on the current transforms: contacts created for new pairs
//!    (numbered in key order) and dropped for vanished ones; every contact with an awake body
//!    gets a new manifold (pairs with no awake body keep theirs), with impulses matched by
//!    feature id for warm starting; both bodies wake when a contact starts or stops touching.
//!    Touching therefore lags positions by one step, as in Box2D.
//! 3. **Islands** (`island.rs`): awake dynamic bodies connected by touching contacts, seeded
//!    from the newest body, each body's contacts visited newest first; each island is solved
//!    (`solver.rs`) and its sleep state updated (`sleep.rs`) before the next island is built.
//! 4. **Continuous collision** (`continuous.rs`) of every awake dynamic body that moved against
//!    the static bodies, in body id order, with Box2D's sub-steps: advance to the time of
//!    impact, correct, solve, integrate the rest of the step.
//!
//! The stages see only the slices and buffers they are given, never the `World`; the optional
//! observer of `step_stages` runs between them (per-stage timing, and the hashes of
//! `trace.rs`), so it cannot change the step.

use crate::body::{Body, BodyDef, BodyId, BodyKind};
use crate::broad_phase::BroadPhase;
use crate::contact::{narrow_phase, update_contacts_in_place, Contact, ContactBirth};
use crate::continuous::{continuous_collision, StaticPart};
use crate::fixed::Fixed;
use crate::island::{solve_islands, Islands};
use crate::math::Vec2;
use crate::settings::*;
use crate::shape::Shape;
use crate::solver::IslandSolver;
use crate::trace::{self, StepTrace};

/// Most convex parts in one body.
pub const MAX_PARTS: usize = 16;

/// The stages of a step, in order (see [`World::step_with_phases`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum StepPhase {
    /// Candidate pairs from the fat boxes (sort and sweep).
    BroadPhase,
    /// Contacts created, updated and matched for warm starting.
    NarrowPhase,
    /// Islands found, solved (velocities, integration, positions) and put to sleep.
    Islands,
    /// Continuous collision of moving bodies against static ones.
    Continuous,
}

impl StepPhase {
    /// Every stage, in step order.
    pub const ALL: [StepPhase; 4] = [
        StepPhase::BroadPhase,
        StepPhase::NarrowPhase,
        StepPhase::Islands,
        StepPhase::Continuous,
    ];

    /// A short lowercase name (benchmark ids).
    pub fn name(self) -> &'static str {
        match self {
            StepPhase::BroadPhase => "broad_phase",
            StepPhase::NarrowPhase => "narrow_phase",
            StepPhase::Islands => "islands",
            StepPhase::Continuous => "continuous",
        }
    }
}

/// Most bodies in one world.
pub const MAX_BODIES: usize = 4096;
/// Largest |coordinate| of a body position (m). With at most 2 m of travel per step a body
/// needs ~10^9 steps to approach the Q32.32 range, so no arithmetic wraps in a valid world.
pub const MAX_POSITION: Fixed = Fixed::from_int(1 << 20);
/// Largest |coordinate| of a part vertex or circle centre in body coordinates, and largest
/// radius (m): keeps mass and inertia (≈ size⁴) far inside the range.
pub const MAX_PART_EXTENT: Fixed = Fixed::from_int(1 << 10);
/// Largest |component| of an initial linear velocity (m/s) or angular velocity (rad/s).
pub const MAX_SPEED: Fixed = Fixed::from_int(1 << 16);

/// Why a body could not be added.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WorldError {
    NoParts,
    TooManyParts(usize),
    TooManyBodies,
    /// A circle with a radius that is not positive, or a non-positive density.
    BadShape(&'static str),
    /// A position, size or velocity outside the supported range.
    OutOfRange(&'static str),
}

impl core::fmt::Display for WorldError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            WorldError::NoParts => f.write_str("body has no parts"),
            WorldError::TooManyParts(n) => write!(f, "body has {n} parts (at most {MAX_PARTS})"),
            WorldError::TooManyBodies => write!(f, "world already holds {MAX_BODIES} bodies"),
            WorldError::BadShape(why) => write!(f, "bad shape: {why}"),
            WorldError::OutOfRange(what) => write!(f, "{what} is outside the supported range"),
        }
    }
}

impl std::error::Error for WorldError {}

/// What a caller can see of one contact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContactInfo {
    pub body_a: BodyId,
    pub part_a: u16,
    pub body_b: BodyId,
    pub part_b: u16,
    /// Manifold points (0 = not touching).
    pub point_count: u8,
}

/// A 2D rigid-body world. `Clone` is a complete snapshot: restoring a clone and stepping it
/// gives the same bits as the original run.
#[derive(Clone, Debug)]
pub struct World {
    pub(crate) gravity: Vec2,
    pub(crate) bodies: Vec<Body>,
    /// Sorted by key.
    pub(crate) contacts: Vec<Contact>,
    /// Sequence number of the last contact created.
    pub(crate) next_contact_seq: u64,
    /// Every part of every static body, in body id and part order (see [`StaticPart`]).
    pub(crate) static_parts: Vec<StaticPart>,
    pub(crate) steps: u32,
    /// When kept (worlds of `scene.rs`), every contact's birth in creation order, so that two
    /// worlds' contacts can be numbered as one world would have numbered them.
    pub(crate) births: Option<Vec<ContactBirth>>,
    // Scratch buffers: their contents never influence results across steps, except the
    // broad phase's pairs, kept while no fat box changes (they are a function of the boxes).
    pub(crate) scratch: Scratch,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct Scratch {
    pub(crate) contacts: Vec<Contact>,
    pub(crate) broad_phase: BroadPhase,
    pub(crate) solver: IslandSolver,
    pub(crate) islands: Islands,
}

impl Default for World {
    fn default() -> World {
        World {
            gravity: Vec2::new(Fixed::ZERO, GRAVITY_Y),
            bodies: Vec::new(),
            contacts: Vec::new(),
            next_contact_seq: 0,
            static_parts: Vec::new(),
            steps: 0,
            births: None,
            scratch: Scratch::default(),
        }
    }
}

impl World {
    /// An empty world with PHYRE's gravity, (0, −9.8) m/s².
    pub fn new() -> World {
        World::default()
    }

    /// Replace the gravity vector (m/s²).
    pub fn set_gravity(&mut self, g: Vec2) {
        self.gravity = g;
    }

    pub fn gravity(&self) -> Vec2 {
        self.gravity
    }

    /// Add a body; bodies are numbered in the order they are added.
    pub fn add_body(&mut self, def: &BodyDef) -> Result<BodyId, WorldError> {
        if def.parts.is_empty() {
            return Err(WorldError::NoParts);
        }
        if def.parts.len() > MAX_PARTS {
            return Err(WorldError::TooManyParts(def.parts.len()));
        }
        if self.bodies.len() >= MAX_BODIES {
            return Err(WorldError::TooManyBodies);
        }
        let within = |v: Vec2, m: Fixed| {
            v.x.abs() <= m && v.y.abs() <= m && v.x != Fixed::MIN && v.y != Fixed::MIN
        };
        if !within(def.position, MAX_POSITION)
            || def.angle.abs() > MAX_POSITION
            || def.angle == Fixed::MIN
        {
            return Err(WorldError::OutOfRange("body position or angle"));
        }
        if !within(def.linear_velocity, MAX_SPEED)
            || def.angular_velocity.abs() > MAX_SPEED
            || def.angular_velocity == Fixed::MIN
        {
            return Err(WorldError::OutOfRange("initial velocity"));
        }
        if def.density.abs() > MAX_SPEED
            || def.friction.abs() > MAX_SPEED
            || def.restitution.abs() > MAX_SPEED
        {
            return Err(WorldError::OutOfRange("material constant"));
        }
        for p in &def.parts {
            match p {
                Shape::Circle(c) => {
                    if !c.radius.is_positive() {
                        return Err(WorldError::BadShape("circle radius must be positive"));
                    }
                    if c.radius > MAX_PART_EXTENT || !within(c.center, MAX_PART_EXTENT) {
                        return Err(WorldError::OutOfRange("circle size or centre"));
                    }
                }
                Shape::Polygon(poly) => {
                    if !poly.vertices().iter().all(|&v| within(v, MAX_PART_EXTENT)) {
                        return Err(WorldError::OutOfRange("polygon vertex"));
                    }
                }
            }
        }
        if def.kind == BodyKind::Dynamic && !def.density.is_positive() {
            return Err(WorldError::BadShape("density must be positive"));
        }
        let id = BodyId(self.bodies.len() as u32);
        let body = Body::from_def(def);
        if !body.is_dynamic() {
            for (part, &aabb) in body.aabbs.iter().enumerate() {
                self.static_parts.push(StaticPart {
                    body: id.0,
                    part: part as u16,
                    aabb,
                });
            }
        }
        self.bodies.push(body);
        Ok(id)
    }

    #[inline]
    pub fn body(&self, id: BodyId) -> Option<&Body> {
        self.bodies.get(id.index())
    }

    /// All bodies, in id order.
    #[inline]
    pub fn bodies(&self) -> &[Body] {
        &self.bodies
    }

    /// Steps taken so far.
    #[inline]
    pub fn step_count(&self) -> u32 {
        self.steps
    }

    /// Every contact (touching or not), in canonical key order.
    pub fn contacts(&self) -> impl Iterator<Item = ContactInfo> + '_ {
        self.contacts.iter().map(|c| ContactInfo {
            body_a: BodyId(c.body_a),
            part_a: c.part_a,
            body_b: BodyId(c.body_b),
            part_b: c.part_b,
            point_count: c.manifold.points.len() as u8,
        })
    }

    /// Whether any part of `a` touches any part of `b` (at least one manifold point), as of the
    /// last narrow phase.
    pub fn touching(&self, a: BodyId, b: BodyId) -> bool {
        let (lo, hi) = if a <= b { (a.0, b.0) } else { (b.0, a.0) };
        let start = self.contacts.partition_point(|c| c.key.body_lo < lo);
        self.contacts[start..]
            .iter()
            .take_while(|c| c.key.body_lo == lo)
            .any(|c| c.key.body_hi == hi && c.is_touching())
    }

    /// True when no dynamic body is awake: stepping further changes nothing.
    pub fn is_at_rest(&self) -> bool {
        self.bodies.iter().all(|b| !b.awake)
    }

    /// A 64-bit hash of the complete simulation state (every body's integrated state, sleep
    /// state, and every contact's manifold and accumulated impulses) in canonical order.
    pub fn state_hash(&self) -> u64 {
        trace::state_hash(self.gravity, &self.bodies, &self.contacts)
    }

    /// Count a step without computing it; only valid when [`World::is_at_rest`], where a step
    /// changes nothing else (the early exit of [`crate::run`]).
    pub fn advance_at_rest(&mut self) {
        debug_assert!(self.is_at_rest());
        self.steps += 1;
    }

    /// Advance the world by one step of [`DT`].
    pub fn step(&mut self) {
        self.step_stages(|_, _| {});
    }

    /// [`World::step`], calling `phase_done` as each stage of the step ends (for profiling
    /// and the per-phase benchmarks; the step itself is the same).
    pub fn step_with_phases(&mut self, mut phase_done: impl FnMut(StepPhase)) {
        self.step_stages(|_, phase| phase_done(phase));
    }

    /// [`World::step`], also returning a hash of the state after each phase, to bisect a
    /// divergence between two builds or platforms. The hashes are taken between the stages and
    /// only read the world, so the step is the same as [`World::step`].
    pub fn step_traced(&mut self) -> StepTrace {
        let mut t = StepTrace::default();
        self.step_stages(|w, phase| match phase {
            StepPhase::BroadPhase => {
                t.broad_phase = trace::pairs_hash(w.scratch.broad_phase.pairs())
            }
            StepPhase::NarrowPhase => t.narrow_phase = trace::manifolds_hash(&w.contacts),
            StepPhase::Islands => {
                (t.solver, t.integration, t.sleep) = trace::islands_hashes(&w.bodies, &w.contacts)
            }
            StepPhase::Continuous => {
                t.continuous = trace::positions_hash(&w.bodies);
                t.state = w.state_hash();
            }
        });
        t
    }

    /// The step: its stages in order, with `stage_done(world, stage)` called as each ends.
    fn step_stages(&mut self, mut stage_done: impl FnMut(&World, StepPhase)) {
        let pairs_changed = self.scratch.broad_phase.update(&mut self.bodies);
        stage_done(self, StepPhase::BroadPhase);
        if pairs_changed {
            narrow_phase(
                &mut self.bodies,
                &mut self.contacts,
                &mut self.scratch.contacts,
                self.scratch.broad_phase.pairs(),
                &mut self.next_contact_seq,
                self.births.as_mut(),
                self.steps + 1,
            );
        } else {
            update_contacts_in_place(
                &mut self.bodies,
                &mut self.contacts,
                self.scratch.broad_phase.pairs(),
            );
        }
        stage_done(self, StepPhase::NarrowPhase);
        solve_islands(
            &mut self.scratch.islands,
            &mut self.bodies,
            &mut self.contacts,
            &mut self.scratch.solver,
            self.gravity,
        );
        stage_done(self, StepPhase::Islands);
        continuous_collision(
            &mut self.bodies,
            &self.static_parts,
            &mut self.scratch.solver,
        );
        stage_done(self, StepPhase::Continuous);
        self.steps += 1;
    }

    /// Positions of every body's centre of mass (for tests and tools).
    pub fn centers(&self) -> Vec<Vec2> {
        self.bodies.iter().map(|b| b.sweep.c).collect()
    }
}
