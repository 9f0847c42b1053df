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
//!    (`solver/`) and its sleep state updated (`sleep.rs`) before the next island is built.
//! 4. **Continuous collision** (`continuous.rs`) of every awake dynamic body that moved against
//!    the static bodies, in body id order, with Box2D's sub-steps: advance to the time of
//!    impact, correct, solve, integrate the rest of the step; then of each bullet against the
//!    static bodies and the dynamic ones.
//!
//! The time step, iteration counts and gravity are the world's [`StepSettings`]. Beside the
//! stages, the contact events of the step are recorded (`events.rs`): the narrow phase's
//! touching changes, what the solver measures of the contacts that began, and the contacts
//! continuous collision solves; nothing the step reads comes from them.
//!
//! The stages see only the slices and buffers they are given, never the `World`; the optional
//! observer of `step_stages` runs between them (per-stage timing, and the hashes of
//! `trace.rs`), so it cannot change the step.

use crate::body::{Body, BodyDef, BodyId, BodyKind};
use crate::broad_phase::BroadPhase;
use crate::contact::{narrow_phase, update_contacts_in_place, Contact, ContactBirth};
use crate::continuous::{continuous_collision, Continuous, Report, StaticPart};
use crate::events::{ContactBegin, ContactEnd, ContactEvents};
use crate::fixed::Fixed;
#[cfg(doc)]
use crate::impulse::Falloff;
use crate::impulse::{self, RadialHit, RadialImpulse};
use crate::island::{solve_islands, Islands};
use crate::limits::WorldError;
use crate::limits::{MAX_BODIES, MAX_PARTS, MAX_PART_EXTENT, MAX_POSITION, MAX_SPEED};
use crate::math::Vec2;
use crate::settings::StepSettings;
use crate::shape::Shape;
use crate::sleep;
use crate::solver::IslandSolver;
use crate::trace::{self, StepTrace};

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
/// gives the same bits as the original run (and the same contact events).
#[derive(Clone, Debug, Default)]
pub struct World {
    /// Time step, iteration counts and gravity.
    pub(crate) settings: StepSettings,
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
    /// The last step's contact events (outputs: never read by the step).
    pub(crate) events: ContactEvents,
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
    pub(crate) continuous: Continuous,
}

impl World {
    /// An empty world with PHYRE's settings ([`StepSettings::default`]: 60 Hz, 15 velocity and
    /// 20 position iterations, gravity (0, −9.8) m/s²).
    pub fn new() -> World {
        World::default()
    }

    /// An empty world stepped with `settings`; an error when they are out of range (a rate of 0
    /// or above [`crate::settings::MAX_STEPS_PER_SECOND`], more than
    /// [`crate::settings::MAX_ITERATIONS`] iterations, gravity beyond ±[`MAX_SPEED`]).
    pub fn with_settings(settings: StepSettings) -> Result<World, WorldError> {
        let mut w = World::new();
        w.set_settings(settings)?;
        Ok(w)
    }

    /// Step with `settings` from the next step on (any time, also between steps); out-of-range
    /// settings are refused as by [`World::with_settings`] and change nothing.
    pub fn set_settings(&mut self, settings: StepSettings) -> Result<(), WorldError> {
        settings.check().map_err(WorldError::BadSettings)?;
        self.settings = settings;
        Ok(())
    }

    /// The settings the next step uses.
    #[inline]
    pub fn settings(&self) -> &StepSettings {
        &self.settings
    }

    /// Replace the gravity vector (m/s²) of the settings.
    pub fn set_gravity(&mut self, g: Vec2) {
        self.settings.gravity = g;
    }

    pub fn gravity(&self) -> Vec2 {
        self.settings.gravity
    }

    /// Add a body; bodies are numbered in the order they are added (removed bodies keep their
    /// numbers: see [`World::remove_body`]). Bodies may be added at any time, also after steps:
    /// a new body's boxes enter the next broad phase, its contacts are created there (numbered
    /// after every older contact), and a new dynamic body starts awake, seeding its own island.
    /// A new static body wakes nothing: dynamic bodies asleep where it appears stay asleep
    /// until something wakes them (as in Box2D).
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
        if def.gravity_scale.abs() > MAX_SPEED || def.gravity_scale == Fixed::MIN {
            return Err(WorldError::OutOfRange("gravity scale"));
        }
        let damping_ok = |d: Fixed| !d.is_negative() && d <= MAX_SPEED;
        if !damping_ok(def.linear_damping) || !damping_ok(def.angular_damping) {
            return Err(WorldError::OutOfRange("damping"));
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

    /// The body `id` (removed ones too: see [`Body::is_removed`]).
    #[inline]
    pub fn body(&self, id: BodyId) -> Option<&Body> {
        self.bodies.get(id.index())
    }

    /// Whether body `id` was removed (false for an unknown id).
    pub fn is_removed(&self, id: BodyId) -> bool {
        self.body(id).is_some_and(Body::is_removed)
    }

    /// Take body `id` out of the world, between steps. Its contacts are destroyed (each body it
    /// touched wakes, as in Box2D, and each touching contact's end is reported with the next
    /// step's [`World::contact_ends`]); it leaves the broad phase and continuous collision; it
    /// is never stepped, awake or in a contact again. Its slot stays, with its id and its last
    /// state, and ids are never reused: bodies added later are numbered after it, and every
    /// iteration over bodies keeps id order. [`World::state_hash`] hashes a removed slot as a
    /// fixed marker instead of its state (see `trace.rs`), so nothing before the removal
    /// distinguishes two worlds' hashes beyond it. An unknown id or a body removed already is
    /// an error, and changes nothing.
    pub fn remove_body(&mut self, id: BodyId) -> Result<(), WorldError> {
        match self.bodies.get(id.index()) {
            None => return Err(WorldError::UnknownBody(id)),
            Some(b) if b.removed => return Err(WorldError::RemovedBody(id)),
            Some(_) => {}
        }
        let mut partners: Vec<u32> = Vec::new();
        let events = &mut self.events;
        self.contacts.retain(|c| {
            if c.body_a != id.0 && c.body_b != id.0 {
                return true;
            }
            if c.is_touching() {
                events.destroyed(c.key);
                partners.push(if c.body_a == id.0 { c.body_b } else { c.body_a });
            }
            false
        });
        self.static_parts.retain(|sp| sp.body != id.0);
        let b = &mut self.bodies[id.index()];
        b.removed = true;
        b.awake = false;
        b.sleep_time = Fixed::ZERO;
        // No parts in the broad phase: its pairs go with the next broad phase, which this
        // change makes run.
        b.fat.clear();
        b.fat_changed = true;
        for p in partners {
            sleep::wake(&mut self.bodies, p as usize);
        }
        Ok(())
    }

    /// Apply the impulse `impulse` (N·s) at the world point `point` (m) to dynamic body `id`,
    /// between steps, as Box2D's `ApplyLinearImpulse`: the linear velocity changes by
    /// `impulse / mass` and the angular velocity by `(point − centre of mass) × impulse /
    /// inertia`; the body wakes. An error, changing nothing, for an unknown, removed or static
    /// body, an impulse or point out of range, or a resulting velocity beyond ±[`MAX_SPEED`].
    pub fn apply_linear_impulse(
        &mut self,
        id: BodyId,
        impulse: Vec2,
        point: Vec2,
    ) -> Result<(), WorldError> {
        impulse::apply_linear_impulse(&mut self.bodies, id, impulse, point)
    }

    /// Set the linear (m/s) and angular (rad/s) velocity of dynamic body `id`, between steps;
    /// the body wakes unless both are zero (as Box2D's setters). Errors as
    /// [`World::apply_linear_impulse`].
    pub fn set_velocity(
        &mut self,
        id: BodyId,
        linear: Vec2,
        angular: Fixed,
    ) -> Result<(), WorldError> {
        impulse::set_velocity(&mut self.bodies, id, linear, angular)
    }

    /// Push every dynamic body whose centre of mass lies strictly within `r.radius` of
    /// `r.center` with an impulse at its centre of mass of magnitude `r.strength` (times
    /// `1 − d / radius` for [`Falloff::Linear`], `d` its distance from the centre, the product
    /// computed exactly and truncated) along the unit vector from the centre to its centre of
    /// mass (normalised in integers, [`Vec2::normalize_with_length`]); a body at the centre
    /// (closer than 2⁻²⁴ m) is pushed along +y. Bodies are visited in id order; each wakes, its
    /// angular velocity is unchanged, and its velocity components saturate at ±[`MAX_SPEED`].
    /// Returns the bodies pushed and their impulses, in id order. Removed and static bodies are
    /// not pushed; a radius that is not positive, or a centre, radius or strength out of range,
    /// pushes nothing.
    pub fn apply_radial_impulse(&mut self, r: &RadialImpulse) -> Vec<RadialHit> {
        impulse::apply_radial_impulse(&mut self.bodies, r)
    }

    /// The contacts that began touching in the last step (see [`ContactBegin`]), sorted by
    /// (body a, body b, part a, part b); empty before the first step.
    #[inline]
    pub fn contact_begins(&self) -> &[ContactBegin] {
        &self.events.begins
    }

    /// The contacts that stopped touching in the last step, or whose body was removed before
    /// it, sorted like [`World::contact_begins`].
    #[inline]
    pub fn contact_ends(&self) -> &[ContactEnd] {
        &self.events.ends
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
        trace::state_hash(self.settings.gravity, &self.bodies, &self.contacts)
    }

    /// Count a step without computing it; only valid when [`World::is_at_rest`], where a step
    /// changes nothing else (the early exit of [`crate::run`]).
    pub fn advance_at_rest(&mut self) {
        debug_assert!(self.is_at_rest());
        self.steps += 1;
    }

    /// Advance the world by one step of the settings' time step ([`StepSettings::dt`]).
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
        self.events.start_step();
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
                &mut self.events.changes,
            );
        } else {
            update_contacts_in_place(
                &mut self.bodies,
                &mut self.contacts,
                self.scratch.broad_phase.pairs(),
                &mut self.events.changes,
            );
        }
        self.events.after_narrow_phase(&self.bodies, &self.contacts);
        stage_done(self, StepPhase::NarrowPhase);
        solve_islands(
            &mut self.scratch.islands,
            &mut self.bodies,
            &mut self.contacts,
            &mut self.scratch.solver,
            &self.settings,
            &mut self.events,
        );
        self.events.after_islands(&self.contacts);
        stage_done(self, StepPhase::Islands);
        continuous_collision(
            &mut self.bodies,
            &self.static_parts,
            &mut self.scratch.solver,
            &self.settings,
            &mut self.scratch.continuous,
            &mut Report {
                contacts: &self.contacts,
                events: &mut self.events,
            },
        );
        self.events.finish_step();
        stage_done(self, StepPhase::Continuous);
        self.steps += 1;
    }

    /// Positions of every body's centre of mass (for tests and tools).
    pub fn centers(&self) -> Vec<Vec2> {
        self.bodies.iter().map(|b| b.sweep.c).collect()
    }
}
