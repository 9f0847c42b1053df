//! A level played on the engine: the world built from the level, shots taken one bird at a
//! time, collisions turned into damage, destruction, explosions and the birds' powers, the
//! world run to rest between birds.
//!
//! `Game::advance` lists what a step does, one file each for what follows the physics:
//! `collisions.rs` (the callbacks of contacts that began: damage, destruction,
//! explosions), `powers.rs` (a bird's power at its tap), `after_step.rs` (immortality ends,
//! bodies beyond the edges die, birds die of age or rest).

mod after_step;
mod collisions;
mod powers;

use super::body::{body_def, BodyError, ObjectBody};
use super::rules::{launch, Motion, BIRD_POINTS};
use crate::catalogue::{catalogue, BirdKind, Kind, Material};
use crate::level::{Level, ObjectKind};
use crate::number::radians;
use crate::scene::{Scene, SceneObject, Source};
use engine::{
    chain_hash, mix64, BodyDef, BodyId, BodyKind, Fixed, Polygon, Shape, StepSettings, Vec2, World,
};
use std::sync::Arc;

/// The physics clock: Unity's fixed time step, 0.02 s.
pub const STEPS_PER_SECOND: u32 = 50;
/// Objects take no damage for their first 2 s (`LEVEL_IMMORTAL_TIME`): the level runs this
/// long before the first shot.
pub const IMMORTAL_STEPS: u32 = 2 * STEPS_PER_SECOND;
/// A launched bird dies 20 s after it leaves the slingshot (`ABBird.lifeTime`).
const BIRD_LIFETIME_STEPS: u32 = 20 * STEPS_PER_SECOND;
/// After its first collision a bird checks its speed 3 s later, then every second, and dies
/// when it is under 0.001 m/s (`ABBird.CheckVelocityToDie`).
const BIRD_FIRST_CHECK_STEPS: u32 = 3 * STEPS_PER_SECOND;
const BIRD_CHECK_EVERY_STEPS: u32 = STEPS_PER_SECOND;
// The first check is a whole number of periods after the collision (`bird_timers` counts on it).
const _: () = assert!(BIRD_FIRST_CHECK_STEPS.is_multiple_of(BIRD_CHECK_EVERY_STEPS));
/// The longest a shot runs before the next bird (60 s of game time), when the world has not
/// come to rest by then.
pub const MAX_SHOT_STEPS: u32 = 60 * STEPS_PER_SECOND;

/// One shot: where the bird is released, relative to its rest point on the slingshot (m; at
/// most the bird's drag radius away, further is clamped), and when it is tapped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shot {
    pub release: Vec2,
    /// Seconds after the launch at which the bird's power is used; `None`: no tap.
    pub tap: Option<Fixed>,
}

/// How a level ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Every pig destroyed.
    Passed,
    /// Pigs left when the shots ran out.
    NotPassed,
    /// More shots than the level has birds: nothing was played.
    Invalid,
}

/// The result of playing shots on a level.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Outcome {
    pub status: Status,
    pub pigs_left: u32,
    /// Shots taken (the last is the one that destroyed the last pig, if any).
    pub shots: u32,
    /// Physics steps run in all (50 per second).
    pub steps: u32,
    /// Hash of the final state: the world's and every object's life.
    pub final_hash: u64,
}

/// Why a level could not be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    #[error(transparent)]
    Body(#[from] BodyError),
    #[error("the level has {0} objects; the engine holds at most {1} bodies")]
    TooManyBodies(usize, usize),
    #[error("tap time {0} s is negative (a tap comes after the launch)")]
    TapBeforeLaunch(String),
}

/// A bird in flight (or done flying).
#[derive(Clone, Copy, Debug)]
struct Flight {
    bird: BirdKind,
    /// Step at which it left the slingshot (or was split off).
    since: u32,
    /// Step of its first collision, if any (`IsDying`).
    collided: Option<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Pig,
    Block(Material),
    Platform,
    Tnt,
    Egg,
    Bird,
}

#[derive(Clone, Debug)]
struct Thing {
    body: BodyId,
    kind: Kind,
    role: Role,
    life: Fixed,
    /// Life after the immortal time, if the thing can be damaged.
    full_life: Option<Fixed>,
    defence: Fixed,
    alive: bool,
    /// Step at which it was created (immortality counts from there).
    born: u32,
    /// What it is in a scene: a level object's index, or the shot that brought it.
    source: Source,
    /// Its local scale (a platform's from the level, a bird's or egg's from its prefab).
    scale: Vec2,
    /// The kind's collider of each of its body's parts.
    colliders: Arc<[u8]>,
    flight: Option<Flight>,
}

/// The shot launched last (for [`Game::step_shot`] and [`Game::tap_now`]).
#[derive(Clone, Copy, Debug)]
struct ShotInFlight {
    launched_at: u32,
    bird: u32,
    tapped: bool,
}

/// A level in play. `Clone` is a complete snapshot (the search plays candidates from one).
#[derive(Clone)]
pub struct Game {
    world: World,
    things: Vec<Thing>,
    /// Thing index of each body (by body index; `None` for the ground).
    by_body: Vec<Option<u32>>,
    /// Half the level's width: beyond it a body is out of the world.
    half_width: Fixed,
    birds: Vec<BirdKind>,
    next_bird: usize,
    rest_point: Vec2,
    step: u32,
    /// The step before which the flying bird's power is used, and the bird.
    pending_tap: Option<(u32, u32)>,
    /// The last shot: the step it was launched at, its bird, and whether a tap was set for it.
    shot: Option<ShotInFlight>,
    pigs_left: u32,
    damage_multiplier: Fixed,
    max_launch_speed: Fixed,
    /// Science Birds' score so far: destroyed pigs and blocks, birds' damaging hits (not the
    /// bonus for birds left, which [`Game::score`] adds when the level has ended).
    points: u32,
}

/// The step after the launch at which a tap `seconds` after it is used: the nearest, at least
/// the one after the launch, at most [`MAX_SHOT_STEPS`].
pub(super) fn tap_step(seconds: Fixed) -> u32 {
    (seconds.mul_int(i64::from(STEPS_PER_SECOND)) + Fixed::HALF)
        .floor_int()
        .clamp(1, i64::from(MAX_SHOT_STEPS)) as u32
}

/// The engine settings of Science Birds (`Physics2DSettings.asset`, `TimeManager.asset`).
pub fn settings() -> StepSettings {
    let mut s = StepSettings::default().with_steps_per_second(STEPS_PER_SECOND);
    s.velocity_iterations = 100;
    s.position_iterations = 100;
    s.gravity = Vec2::new(Fixed::ZERO, Fixed::ratio(-981, 100));
    s
}

/// A body's horizontal span from its parts' boxes, (left, right): the width the reference
/// reads of a collider's bounds (a bird in front of the slingshot, a body beyond the level).
fn x_span(b: &engine::Body) -> (Fixed, Fixed) {
    let xf = b.transform();
    b.parts()
        .iter()
        .fold((Fixed::MAX, Fixed::MIN), |(lo, hi), p| {
            let bounds = p.aabb(xf);
            (lo.min(bounds.lower.x), hi.max(bounds.upper.x))
        })
}

/// A world constant of `N` numbers (the catalogue is embedded and tested: a missing or malformed
/// one is a bug).
fn world_constant<const N: usize>(name: &str) -> [Fixed; N] {
    let v = catalogue().world_numbers(name);
    v.try_into().unwrap_or_else(|v: Vec<Fixed>| {
        panic!("catalogue: {name} has {} numbers, not {N}", v.len())
    })
}

fn extra(kind: Kind, name: &str) -> Fixed {
    catalogue()
        .entry(kind)
        .extra
        .get(name)
        .unwrap_or_else(|| panic!("catalogue: {} has no {name}", kind.name()))
        .value()
}

impl Game {
    /// The level's world at its start: the ground, then the objects in the game's creation
    /// order (pigs, blocks, platforms, TNT).
    pub fn new(level: &Level) -> Result<Game, PlayError> {
        if level.objects.len() + 1 > engine::MAX_BODIES {
            return Err(PlayError::TooManyBodies(
                level.objects.len(),
                engine::MAX_BODIES,
            ));
        }
        let mut world =
            World::with_settings(settings()).expect("Science Birds' settings are valid");
        let cat = catalogue();
        let [level_width, _] = world_constant("level_original_size");
        let half_width = level_width.mul_int(i64::from(level.width)) * Fixed::HALF;
        // The ground: a static slab whose top is the ground level (the original generator's
        // `GROUND_LEVEL`, as the pictures draw it), wider than the level.
        let [ground_y] = world_constant("ground_level");
        let ground_half = half_width + Fixed::from_int(50);
        let slab = Polygon::new_box(
            ground_half,
            Fixed::from_int(5),
            Vec2::new(Fixed::ZERO, ground_y - Fixed::from_int(5)),
            Fixed::ZERO,
        )
        .expect("ground box");
        let mut ground = BodyDef::new(
            BodyKind::Static,
            Vec2::ZERO,
            Fixed::ZERO,
            vec![Shape::Polygon(slab)],
        );
        let default = cat
            .physics_material("Default")
            .expect("catalogue: Default material");
        ground.friction = default.friction.value();
        ground.restitution = default.bounciness.value();
        world.add_body(&ground).expect("ground body");
        let mut game = Game {
            world,
            things: Vec::new(),
            by_body: vec![None],
            half_width,
            birds: level.birds.clone(),
            next_bird: 0,
            rest_point: {
                let [sx, sy] = world_constant("sling_select_pos");
                Vec2::new(
                    level.slingshot.x.value() - sx,
                    level.slingshot.y.value() - sy,
                )
            },
            step: 0,
            pending_tap: None,
            shot: None,
            pigs_left: 0,
            damage_multiplier: world_constant::<1>("damage_multiplier")[0],
            max_launch_speed: world_constant::<1>("bird_max_launch_speed")[0],
            points: 0,
        };
        for i in level.creation_order() {
            let o = &level.objects[i as usize];
            let (role, material, scale) = match &o.kind {
                ObjectKind::Pig { .. } => (Role::Pig, None, Vec2::new(Fixed::ONE, Fixed::ONE)),
                ObjectKind::Block { material, .. } => (
                    Role::Block(*material),
                    Some(*material),
                    Vec2::new(Fixed::ONE, Fixed::ONE),
                ),
                ObjectKind::Platform { scale_x, scale_y } => (
                    Role::Platform,
                    None,
                    Vec2::new(scale_x.value(), scale_y.value()),
                ),
                ObjectKind::Tnt => (Role::Tnt, None, Vec2::new(Fixed::ONE, Fixed::ONE)),
            };
            let kind = o.kind.catalogue_kind();
            let position = Vec2::new(o.x.value(), o.y.value());
            let body = body_def(kind, material, scale, position, radians(o.rotation.value()))?;
            game.add(
                kind,
                role,
                material,
                body,
                Source::Object(i as usize),
                scale,
            );
        }
        game.pigs_left = game.things.iter().filter(|t| t.role == Role::Pig).count() as u32;
        Ok(game)
    }

    fn add(
        &mut self,
        kind: Kind,
        role: Role,
        material: Option<Material>,
        object: ObjectBody,
        source: Source,
        scale: Vec2,
    ) -> u32 {
        let body = self
            .world
            .add_body(&object.def)
            .expect("a body within the engine's limits");
        let cat = catalogue();
        // None for the platform: the catalogue gives it no life (it is never damaged).
        let full_life = cat.life(kind, material).map(|d| d.value());
        let defence = cat
            .defense(kind, material)
            .map_or(Fixed::ZERO, |d| d.value());
        let index = self.things.len() as u32;
        self.things.push(Thing {
            body,
            kind,
            role,
            life: Fixed::from_int(10_000),
            full_life,
            defence,
            alive: true,
            born: self.step,
            source,
            scale,
            colliders: object.colliders,
            flight: None,
        });
        let slot = body.index();
        if self.by_body.len() <= slot {
            self.by_body.resize(slot + 1, None);
        }
        self.by_body[slot] = Some(index);
        index
    }

    /// The engine world (for observation).
    pub fn world(&self) -> &World {
        &self.world
    }

    /// Pigs not yet destroyed.
    pub fn pigs_left(&self) -> u32 {
        self.pigs_left
    }

    /// The life the live pigs have left, summed (10,000 each while immortal).
    pub fn pig_life_left(&self) -> Fixed {
        self.things
            .iter()
            .filter(|t| t.alive && t.role == Role::Pig)
            .fold(Fixed::ZERO, |sum, t| sum + t.life)
    }

    /// The level's objects destroyed so far (pigs, blocks, TNT).
    pub fn destroyed(&self) -> u32 {
        self.things
            .iter()
            .filter(|t| !t.alive && matches!(t.role, Role::Pig | Role::Block(_) | Role::Tnt))
            .count() as u32
    }

    /// Science Birds' score (`rules`: [`PIG_POINTS`], [`BLOCK_POINTS`], birds' damaging hits),
    /// with [`BIRD_POINTS`] for every bird not launched once every pig is destroyed. (The game
    /// also counts them when a level ends with pigs left, which it does only with no bird left:
    /// nothing to count.)
    pub fn score(&self) -> u32 {
        let bonus = if self.pigs_left == 0 {
            BIRD_POINTS.saturating_mul(self.birds_left() as u32)
        } else {
            0
        };
        self.points.saturating_add(bonus)
    }

    /// Physics steps run so far.
    pub fn steps(&self) -> u32 {
        self.step
    }

    /// Birds not yet shot.
    pub fn birds_left(&self) -> usize {
        self.birds.len() - self.next_bird
    }

    /// The objects alive now: (kind, block material, body), in creation order.
    pub fn objects(&self) -> impl Iterator<Item = (Kind, Option<Material>, BodyId)> + '_ {
        self.things.iter().filter(|t| t.alive).map(|t| {
            let material = match t.role {
                Role::Block(m) => Some(m),
                _ => None,
            };
            (t.kind, material, t.body)
        })
    }

    /// The rest point of a bird on the slingshot (m).
    pub fn rest_point(&self) -> Vec2 {
        self.rest_point
    }

    /// What the level looks like now, for pictures and the symbolic representation: the
    /// slingshot, the level's objects still there (in document order), the birds waiting (as
    /// the game lines them up), then the birds and eggs in flight, each at its body's pose.
    pub fn scene(&self, level: &Level) -> Scene {
        let mut waiting = level.clone();
        waiting.birds = self.birds[self.next_bird..].to_vec();
        let mut scene = Scene::initial(&waiting);
        let pose = |t: &Thing| {
            let b = self.world.body(t.body).expect("live body");
            (b.position(), b.angle())
        };
        let mut live: Vec<Option<&Thing>> = vec![None; level.objects.len()];
        for t in &self.things {
            if let (Source::Object(i), true) = (t.source, t.alive) {
                live[i] = Some(t);
            }
        }
        scene.objects.retain_mut(|o| match o.source {
            Source::Object(i) => match live[i] {
                Some(t) => {
                    (o.position, o.angle) = pose(t);
                    true
                }
                None => false,
            },
            Source::Bird(i) => {
                o.source = Source::Bird(i + self.next_bird);
                true
            }
            _ => true,
        });
        for t in self.things.iter().filter(|t| t.alive) {
            if matches!(t.source, Source::Bird(_) | Source::Egg(_)) {
                let (position, angle) = pose(t);
                let mut o = SceneObject::at(t.source, t.kind, None, position, angle);
                o.scale = t.scale;
                scene.objects.push(o);
            }
        }
        scene.birds_left = waiting.birds;
        scene
    }

    /// Where each of the level's objects is now (creation order; `None` once destroyed).
    pub fn positions(&self) -> Vec<Option<Vec2>> {
        self.things
            .iter()
            .filter(|t| matches!(t.source, Source::Object(_)))
            .map(|t| {
                t.alive
                    .then(|| self.world.body(t.body).expect("live body").position())
            })
            .collect()
    }

    /// The life of each of the level's objects now (creation order, as [`Game::positions`];
    /// `None` once destroyed): 10,000 for an object's first 2 s (immortal), then its
    /// catalogue life less the damage taken since; a platform's stays 10,000 (it takes none).
    pub fn lives(&self) -> Vec<Option<Fixed>> {
        self.things
            .iter()
            .filter(|t| matches!(t.source, Source::Object(_)))
            .map(|t| t.alive.then_some(t.life))
            .collect()
    }

    /// The next bird's drag radius, whether it has a power to tap, and its gravity scale in
    /// flight, if a bird is left ([`Game::next_reach`] puts them together).
    pub(super) fn next_bird_launch(&self) -> Option<(Fixed, bool, Fixed)> {
        let kind = Kind::Bird(*self.birds.get(self.next_bird)?);
        Some((
            extra(kind, "drag_radius"),
            kind != Kind::Bird(BirdKind::Red),
            extra(kind, "launch_gravity"),
        ))
    }

    /// The kind of the next bird on the slingshot, if a bird is left.
    pub fn next_bird(&self) -> Option<BirdKind> {
        self.birds.get(self.next_bird).copied()
    }

    /// The ground's top (m): the level's lowest surface.
    pub(super) fn ground_level(&self) -> Fixed {
        let [y] = world_constant("ground_level");
        y
    }

    /// Launch speed at a full drag (m/s).
    pub(super) fn max_launch_speed(&self) -> Fixed {
        self.max_launch_speed
    }

    /// One step without a shot.
    pub fn step_idle(&mut self) {
        self.advance();
    }

    /// Runs the level's opening (the immortal time) before the first shot.
    pub fn settle(&mut self) {
        self.settle_observed(&mut |_| {});
    }

    /// [`Game::settle`], calling `after_step` after every step.
    pub fn settle_observed(&mut self, after_step: &mut dyn FnMut(&Game)) {
        while self.step < IMMORTAL_STEPS {
            self.advance();
            after_step(self);
        }
    }

    /// Launches the next bird and runs until the world is at rest, every pig is destroyed, or
    /// `MAX_SHOT_STEPS` have passed. Returns false, doing nothing, when no bird is left.
    pub fn shoot(&mut self, shot: &Shot) -> Result<bool, PlayError> {
        self.shoot_observed(shot, &mut |_| {})
    }

    /// [`Game::shoot`], calling `after_step` after every step.
    pub fn shoot_observed(
        &mut self,
        shot: &Shot,
        after_step: &mut dyn FnMut(&Game),
    ) -> Result<bool, PlayError> {
        if !self.launch(shot)? {
            return Ok(false);
        }
        while self.step_shot() {
            after_step(self);
        }
        Ok(true)
    }

    /// Whether the shot launched last still runs: it has run fewer than [`MAX_SHOT_STEPS`],
    /// a pig is left, and the world has not come to rest since its launch (at the launch it
    /// cannot be: the bird's new body starts awake).
    pub fn shot_running(&self) -> bool {
        let Some(shot) = self.shot else {
            return false;
        };
        let ran = self.step - shot.launched_at;
        ran < MAX_SHOT_STEPS && self.pigs_left > 0 && !self.world.is_at_rest()
    }

    /// One step of the shot launched last ([`Game::launch`]); false, doing nothing, once it
    /// has ended ([`Game::shot_running`]). Stepping until false is [`Game::shoot`].
    pub fn step_shot(&mut self) -> bool {
        if !self.shot_running() {
            return false;
        }
        self.advance();
        true
    }

    /// Whether [`Game::tap_now`] would tap: the shot runs, its bird has a power, is in front
    /// of the slingshot, and no tap was set for it. (A press before the bird is in front does
    /// nothing and spends nothing; a shot's tap time is checked once and spent either way.)
    pub fn can_tap(&self) -> bool {
        let Some(shot) = self.shot else {
            return false;
        };
        let t = &self.things[shot.bird as usize];
        let has_power = t.flight.is_some_and(|f| f.bird != BirdKind::Red);
        self.shot_running()
            && has_power
            && !shot.tapped
            && t.alive
            && self.in_front_of_slingshot(shot.bird)
    }

    /// Uses the flying bird's power before the next step, as a tap in the shot would, and
    /// returns that tap (seconds after the launch: a whole number of steps), so that the shot
    /// replays with it to the same bits. `None`, doing nothing, when [`Game::can_tap`] is
    /// false.
    pub fn tap_now(&mut self) -> Option<Fixed> {
        if !self.can_tap() {
            return None;
        }
        let shot = self.shot.as_mut()?;
        shot.tapped = true;
        let n = self.step - shot.launched_at + 1;
        self.pending_tap = Some((self.step, shot.bird));
        let seconds = Fixed::from_int(n as i32).div_int(i64::from(STEPS_PER_SECOND));
        debug_assert_eq!(tap_step(seconds), n);
        Some(seconds)
    }

    /// Launches the next bird (its tap, if any, comes during the following steps) without
    /// running the world. Returns false, doing nothing, when no bird is left.
    pub fn launch(&mut self, shot: &Shot) -> Result<bool, PlayError> {
        let tap_after = match shot.tap {
            Some(t) if t.is_negative() => {
                return Err(PlayError::TapBeforeLaunch(format!("{:.3}", t.to_f64())))
            }
            Some(t) => Some(tap_step(t)),
            None => None,
        };
        let Some(&bird) = self.birds.get(self.next_bird) else {
            return Ok(false);
        };
        self.next_bird += 1;
        let kind = Kind::Bird(bird);
        let drag_radius = extra(kind, "drag_radius");
        let (dragged, velocity) = launch(shot.release, drag_radius, self.max_launch_speed);
        let index = self.launch_bird(bird, self.rest_point + dragged, velocity)?;
        // The power is used before the step that ends `tap_after` steps after the launch.
        self.pending_tap = tap_after.map(|n| (self.step + n - 1, index));
        self.shot = Some(ShotInFlight {
            launched_at: self.step,
            bird: index,
            tapped: tap_after.is_some(),
        });
        Ok(true)
    }

    fn launch_bird(&mut self, bird: BirdKind, at: Vec2, velocity: Vec2) -> Result<u32, PlayError> {
        let kind = Kind::Bird(bird);
        let e = catalogue().entry(kind);
        let scale = Vec2::new(e.scale.0.value(), e.scale.1.value());
        let mut body = body_def(kind, None, scale, at, Fixed::ZERO)?;
        body.def.gravity_scale = extra(kind, "launch_gravity");
        body.def.linear_velocity = velocity;
        let shot = Source::Bird(self.next_bird - 1);
        let index = self.add(kind, Role::Bird, None, body, shot, scale);
        self.things[index as usize].flight = Some(Flight {
            bird,
            since: self.step,
            collided: None,
        });
        Ok(index)
    }

    /// One physics step and what the game does around it.
    fn advance(&mut self) {
        if let Some((at, i)) = self.pending_tap {
            if at == self.step {
                // Checked once, when the tap comes: a tap too early is spent for nothing.
                self.pending_tap = None;
                if self.in_front_of_slingshot(i) {
                    self.use_power(i);
                }
            }
        }
        // Velocities as each contact begins: before the step's solve.
        let before: Vec<Vec2> = self
            .world
            .bodies()
            .iter()
            .map(|b| b.linear_velocity())
            .collect();
        self.world.step();
        self.step += 1;
        for (a, b) in self.collider_begins() {
            self.collide(a, b, &before);
            self.collide(b, a, &before);
        }
        self.end_immortality();
        self.remove_out_of_world();
        self.bird_timers();
    }

    /// The state's hash: the world's, then every thing's life and liveness in order.
    pub fn state_hash(&self) -> u64 {
        let mut h = self.world.state_hash();
        for t in &self.things {
            h = chain_hash(h, mix64(t.life.raw() as u64 ^ (u64::from(t.alive) << 63)));
        }
        h
    }
}

/// Plays `shots` on `level`: the opening, then each shot to rest, stopping when every pig is
/// destroyed.
pub fn play(level: &Level, shots: &[Shot]) -> Result<Outcome, PlayError> {
    Ok(play_observed(level, shots, &mut |_| {})?.0)
}

/// [`play`], calling `after_step` with the game before the first step and after every step;
/// also returns the game as it ended.
pub fn play_observed(
    level: &Level,
    shots: &[Shot],
    after_step: &mut dyn FnMut(&Game),
) -> Result<(Outcome, Game), PlayError> {
    let mut game = Game::new(level)?;
    if shots.len() > level.birds.len() {
        let outcome = Outcome {
            status: Status::Invalid,
            pigs_left: game.pigs_left(),
            shots: 0,
            steps: 0,
            final_hash: game.state_hash(),
        };
        return Ok((outcome, game));
    }
    after_step(&game);
    game.settle_observed(after_step);
    let mut taken = 0;
    for shot in shots {
        if game.pigs_left() == 0 {
            break;
        }
        game.shoot_observed(shot, after_step)?;
        taken += 1;
    }
    let status = if game.pigs_left() == 0 {
        Status::Passed
    } else {
        Status::NotPassed
    };
    let outcome = Outcome {
        status,
        pigs_left: game.pigs_left(),
        shots: taken,
        steps: game.steps(),
        final_hash: game.state_hash(),
    };
    Ok((outcome, game))
}

#[cfg(test)]
mod tests;
