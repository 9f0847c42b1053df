//! Shared scenes: many runs of one scene, each with its own extra bodies (PHYRE's user balls),
//! without stepping the scene again in every run.
//!
//! A world's first bodies are the *scene*; the bodies after them are *probes* (dynamic). Until
//! a probe's fat box first overlaps the fat box of a dynamic scene body, the scene bodies of
//! the whole world evolve bit for bit as the scene alone does, and the probes as they do in a
//! world of the probes and the scene's static bodies alone:
//!
//! * **pairs**: every broad-phase pair is scene–scene, probe–static or probe–probe, a function
//!   of the two bodies' fat boxes, so each lives in exactly one of the two worlds;
//! * **contacts**: each world creates the same contacts at the same steps as the whole world;
//!   contacts created in one step are numbered in key order, so a body's contacts keep their
//!   relative order (islands visit them by it), and the merge below gives every contact the
//!   very number the whole world would have given it;
//! * **islands**: no contact joins a probe and a dynamic scene body, so every island is all
//!   scene or all probes (plus static bodies, which islands neither move nor cross), and an
//!   island's solve and sleep update read and write only its own bodies and contacts: the order
//!   in which the two worlds' islands are solved does not matter;
//! * **continuous collision** is per body, against static parts only; **waking** touches only a
//!   contact's two bodies; the **goal** names two scene bodies.
//!
//! So the scene is stepped once, alone, and recorded ([`SceneRecording::record`]); a run
//! ([`SceneRecording::run`]) steps only the probes against the static bodies and reads the
//! scene's state and the goal's relation from the recording, until a probe's fat box meets a
//! dynamic scene body's (the test is the broad phase's own, and testing earlier than needed
//! would still be exact). Then the two states are merged into the world the plain run holds at
//! that step, contact numbers, broad-phase pairs and all, and the run goes on as [`crate::run`]
//! does. The outcome, `stepped` and `final_hash` included, is the plain run's (tested on PHYRE's
//! tasks in `studies/tests/shared_scenes.rs`).

use crate::body::Body;
use crate::broad_phase::BroadPhase;
use crate::contact::{Contact, ContactBirth, ContactKey};
use crate::continuous::StaticPart;
use crate::goal::{run_from, Decision, Goal, RunOptions, RunOutcome, Tracker};
use crate::shape::Aabb;
use crate::world::{Scratch, World};

/// Full states of the scene are kept every this many steps; a merge steps the scene alone from
/// the last one before it (at most this many steps less one). Keeping every step's state instead
/// made a recording about 8 times larger (1.4 MB on average over PHYRE's tasks) and slower to
/// make, for a saving of a few scene steps per run.
const SNAPSHOT_EVERY: u32 = 8;

/// The scene's state after some steps of its run alone.
#[derive(Clone, Debug)]
struct Snapshot {
    /// The dynamic scene bodies (`SceneRecording::dynamic` gives their ids); static bodies never
    /// change.
    dynamic: Vec<Body>,
    contacts: Vec<Contact>,
    next_contact_seq: u64,
}

/// A scene stepped alone once, step by step, to run many sets of probes against (see the
/// module documentation).
#[derive(Clone, Debug)]
pub struct SceneRecording {
    /// The scene before its first step.
    initial: World,
    goal: Goal,
    max_steps: u32,
    /// Ids of the dynamic scene bodies, ascending.
    dynamic: Vec<u32>,
    /// Steps recorded: after `last` steps the scene is at rest (nothing changes after it) or
    /// `max_steps` were taken.
    last: u32,
    /// Fat boxes of the dynamic scene bodies' parts after each step `0..=last`, `parts` per
    /// step, for the meeting test.
    parts: usize,
    fat: Vec<Aabb>,
    /// After each step `0..=last`: whether the goal's relation holds, and whether the scene is
    /// at rest.
    holds: Vec<bool>,
    at_rest: Vec<bool>,
    /// The state after steps `0, SNAPSHOT_EVERY, 2·SNAPSHOT_EVERY, …` up to `last`.
    snapshots: Vec<Snapshot>,
    /// Every contact birth of the scene's run, in creation order.
    births: Vec<ContactBirth>,
}

impl SceneRecording {
    /// Step `scene` (a world not yet stepped) alone for at most `max_steps` steps, or until it
    /// is at rest, recording what runs against it need. `None` when `scene` was already stepped,
    /// has a removed body, or `goal` names a body it does not have.
    pub fn record(scene: &World, goal: Goal, max_steps: u32) -> Option<SceneRecording> {
        let n = scene.bodies.len();
        if scene.steps != 0
            || goal.body_a.index() >= n
            || goal.body_b.index() >= n
            || scene.bodies.iter().any(Body::is_removed)
        {
            return None;
        }
        let dynamic: Vec<u32> = (0..n as u32)
            .filter(|&i| scene.bodies[i as usize].is_dynamic())
            .collect();
        let mut world = scene.clone();
        world.births = Some(Vec::new());
        let mut rec = SceneRecording {
            initial: scene.clone(),
            goal,
            max_steps,
            parts: dynamic
                .iter()
                .map(|&i| scene.bodies[i as usize].parts.len())
                .sum(),
            dynamic,
            last: 0,
            fat: Vec::new(),
            holds: Vec::new(),
            at_rest: Vec::new(),
            snapshots: Vec::new(),
            births: Vec::new(),
        };
        loop {
            let w = &world;
            rec.fat.extend(
                rec.dynamic
                    .iter()
                    .flat_map(|&i| w.bodies[i as usize].fat.iter().copied()),
            );
            rec.holds.push(goal.holds(w));
            rec.at_rest.push(w.is_at_rest());
            if w.steps == rec.snapshots.len() as u32 * SNAPSHOT_EVERY {
                rec.snapshots.push(Snapshot {
                    dynamic: rec
                        .dynamic
                        .iter()
                        .map(|&i| w.bodies[i as usize].clone())
                        .collect(),
                    contacts: w.contacts.clone(),
                    next_contact_seq: w.next_contact_seq,
                });
            }
            if world.steps >= max_steps || world.is_at_rest() {
                break;
            }
            world.step();
        }
        rec.last = world.steps;
        rec.births = world.births.take().unwrap_or_default();
        Some(rec)
    }

    /// Number of scene bodies.
    pub fn scene_bodies(&self) -> usize {
        self.initial.bodies.len()
    }

    /// Steps the scene took before it came to rest or reached the recording's length.
    pub fn recorded_steps(&self) -> u32 {
        self.last
    }

    /// The recorded step that stands for step `t` (the scene does not change after `last`).
    fn recorded(&self, t: u32) -> usize {
        t.min(self.last) as usize
    }

    /// Fat boxes of the dynamic scene parts after `t` steps.
    fn fat_after(&self, t: u32) -> &[Aabb] {
        let k = self.recorded(t);
        &self.fat[k * self.parts..(k + 1) * self.parts]
    }

    /// The scene alone after `t` steps: its last snapshot before, stepped on.
    fn scene_after(&self, t: u32) -> World {
        let t = self.recorded(t) as u32;
        let k = t / SNAPSHOT_EVERY;
        let snap = &self.snapshots[k as usize];
        let mut bodies = self.initial.bodies.clone();
        for (body, &i) in snap.dynamic.iter().zip(&self.dynamic) {
            bodies[i as usize] = body.clone();
        }
        let mut world = self.assemble(
            bodies,
            snap.contacts.clone(),
            snap.next_contact_seq,
            k * SNAPSHOT_EVERY,
        );
        while world.steps < t {
            world.step();
        }
        world
    }

    /// A world of the scene's settings and static bodies holding `bodies` and `contacts` (sorted
    /// by key) after `steps` steps, as a step leaves a world: the broad phase's last pairs are
    /// exactly the contacts' keys.
    fn assemble(
        &self,
        bodies: Vec<Body>,
        contacts: Vec<Contact>,
        next_contact_seq: u64,
        steps: u32,
    ) -> World {
        let pairs = contacts.iter().map(|c| c.key).collect();
        World {
            settings: self.initial.settings,
            bodies,
            contacts,
            next_contact_seq,
            static_parts: self.initial.static_parts.clone(),
            steps,
            births: None,
            events: Default::default(),
            scratch: Scratch {
                broad_phase: BroadPhase::with_pairs(pairs),
                ..Scratch::default()
            },
        }
    }

    /// [`crate::run`] of `world` — the recorded scene's bodies, unstepped, followed by dynamic
    /// probes — with the recorded goal, giving the same outcome bit for bit, and the number of
    /// steps in which the scene was read from the recording instead of stepped. `None` (run it
    /// with [`crate::run`] instead) when `world` is not that, the goal or the number of steps
    /// differ from the recording's, or a hash chain is asked for.
    pub fn run(&self, world: &World, goal: &Goal, opts: RunOptions) -> Option<(RunOutcome, u32)> {
        let n = self.scene_bodies();
        let extends_scene = world.steps == 0
            && world.contacts.is_empty()
            && world.settings == self.initial.settings
            && world.bodies.len() > n
            && world.bodies[..n] == self.initial.bodies[..]
            && world.bodies[n..]
                .iter()
                .all(|b| b.is_dynamic() && !b.is_removed());
        if !extends_scene
            || *goal != self.goal
            || opts.max_steps != self.max_steps
            || (opts.chain_hashes && !opts.status_only)
        {
            return None;
        }
        let mut probes = Probes::of(world, n);
        let mut tracker = Tracker::new(opts);
        for step in 1..=opts.max_steps {
            let scene_fat = self.fat_after(step - 1);
            let meets = probes.world.bodies[probes.first..]
                .iter()
                .flat_map(|b| b.fat.iter())
                .any(|p| scene_fat.iter().any(|s| s.overlaps(p)));
            if meets {
                let mut merged = self.merge(step - 1, &probes);
                let outcome = run_from(&mut merged, goal, &mut tracker, step, |_, _| {});
                return Some((outcome, step - 1));
            }
            probes.world.step();
            tracker.stepped += 1;
            let (holds, at_rest) = (
                self.holds[self.recorded(step)],
                self.at_rest[self.recorded(step)],
            );
            if opts.early_exit && at_rest && probes.world.is_at_rest() {
                let mut merged = self.merge(step, &probes);
                tracker.at_rest = true;
                tracker.rest_hash = merged.state_hash();
                let outcome = match tracker.observe(step, holds) {
                    Some(decision) => tracker.outcome(decision, &merged),
                    None => run_from(&mut merged, goal, &mut tracker, step + 1, |_, _| {}),
                };
                return Some((outcome, step));
            }
            if let Some(decision) = tracker.observe(step, holds) {
                let merged = self.merge(step, &probes);
                return Some((tracker.outcome(decision, &merged), step));
            }
        }
        let merged = self.merge(opts.max_steps, &probes);
        Some((tracker.outcome(Decision::RanOut, &merged), opts.max_steps))
    }

    /// The whole world after `t` steps: the scene alone after `t` steps and the probe world,
    /// with every contact numbered as the whole world numbers it: by (step, key) of birth over
    /// both worlds' births.
    fn merge(&self, t: u32, probes: &Probes) -> World {
        let scene = self.scene_after(t);
        let ids = &probes.ids;
        let mut bodies = scene.bodies;
        bodies.extend(probes.world.bodies[probes.first..].iter().cloned());

        // Both birth logs are in (step, key) order; the probe world's stays so under `ids`,
        // which is increasing. Merging them gives the whole world's creation order.
        let remap = |k: ContactKey| ContactKey {
            body_lo: ids[k.body_lo as usize],
            part_lo: k.part_lo,
            body_hi: ids[k.body_hi as usize],
            part_hi: k.part_hi,
        };
        let scene_births = &self.births[..scene.next_contact_seq as usize];
        let probe_births: Vec<ContactBirth> = probes
            .world
            .births
            .as_deref()
            .unwrap_or_default()
            .iter()
            .map(|b| ContactBirth {
                step: b.step,
                key: remap(b.key),
            })
            .collect();
        let mut scene_seq = vec![0u64; scene_births.len()];
        let mut probe_seq = vec![0u64; probe_births.len()];
        let (mut i, mut j) = (0, 0);
        let mut seq = 0u64;
        while i < scene_births.len() || j < probe_births.len() {
            seq += 1;
            let scene_first = j == probe_births.len()
                || (i < scene_births.len() && scene_births[i] < probe_births[j]);
            if scene_first {
                scene_seq[i] = seq;
                i += 1;
            } else {
                probe_seq[j] = seq;
                j += 1;
            }
        }

        let mut contacts: Vec<Contact> = scene
            .contacts
            .into_iter()
            .map(|c| Contact {
                seq: scene_seq[c.seq as usize - 1],
                ..c
            })
            .collect();
        contacts.extend(probes.world.contacts.iter().map(|c| Contact {
            key: remap(c.key),
            body_a: ids[c.body_a as usize],
            body_b: ids[c.body_b as usize],
            seq: probe_seq[c.seq as usize - 1],
            ..c.clone()
        }));
        contacts.sort_unstable_by_key(|c| c.key);
        self.assemble(bodies, contacts, seq, t)
    }
}

/// The probes of a world (its bodies from `n` on) with the static bodies among its first `n`,
/// as a world of their own that keeps contact births.
struct Probes {
    world: World,
    /// Each body's id in the whole world (increasing).
    ids: Vec<u32>,
    /// Index of the first probe in `world` (the static bodies come before).
    first: usize,
}

impl Probes {
    fn of(whole: &World, n: usize) -> Probes {
        let ids: Vec<u32> = (0..whole.bodies.len() as u32)
            .filter(|&i| i as usize >= n || !whole.bodies[i as usize].is_dynamic())
            .collect();
        let local = |id: u32| ids.binary_search(&id).unwrap_or(0) as u32;
        let world = World {
            settings: whole.settings,
            bodies: ids
                .iter()
                .map(|&i| whole.bodies[i as usize].clone())
                .collect(),
            static_parts: whole
                .static_parts
                .iter()
                .map(|sp| StaticPart {
                    body: local(sp.body),
                    ..*sp
                })
                .collect(),
            births: Some(Vec::new()),
            ..World::default()
        };
        let first = ids.len() - (whole.bodies.len() - n);
        Probes { world, ids, first }
    }
}
