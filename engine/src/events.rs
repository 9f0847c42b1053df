//! Contact events: which contacts began and which ended touching in the last step
//! ([`crate::World::contact_begins`], [`crate::World::contact_ends`]).
//!
//! Recording them reads the step and never writes anything the step reads, so a world steps to
//! the same bits whether or not anyone looks at its events. Where they come from:
//!
//! * the **narrow phase** (`contact.rs`) reports each contact whose touching state changed (and
//!   each touching contact dropped with its pair); a begin then gets the normal and approach
//!   speed of its velocity constraint as the island solver builds it (`solver/island.rs`,
//!   before warm starting), and its normal impulse once the islands are solved (the sum of its
//!   manifold points' accumulated impulses);
//! * **continuous collision** (`continuous.rs`) reports each contact a sub-step solves whose
//!   contact in the world was not touching (or did not exist) at the narrow phase, with the
//!   sub-step's normal, approach speed and impulse. The next narrow phase then either finds the
//!   contact touching (no second begin) or not (an end), so begins and ends alternate for every
//!   pair of parts;
//! * **removing a body** ([`crate::World::remove_body`]) ends its touching contacts; those ends
//!   are reported with the next step, as are the ends of its continuous begins not yet
//!   confirmed (the next narrow phase finds them gone).
//!
//! Both lists are sorted by (body a, body b, part a, part b), body a being the lower id: every
//! pair of parts appears at most once in each list, so the order is total. A pair can be in
//! both lists of one step: it stopped touching at the narrow phase and was struck again during
//! continuous collision.

use crate::body::{Body, BodyId};
use crate::contact::{Contact, ContactKey, TouchChange};
use crate::fixed::Fixed;
use crate::math::Vec2;

/// A contact between two parts that started touching in the last step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ContactBegin {
    /// The lower body id of the two, and its part.
    pub body_a: BodyId,
    pub part_a: u16,
    /// The higher body id, and its part.
    pub body_b: BodyId,
    pub part_b: u16,
    /// Unit contact normal, from body a to body b, as the solver used it.
    pub normal: Vec2,
    /// Speed (m/s) at which the bodies approached along the normal before the solver ran
    /// (positive: approaching): the largest over the contact's points of `−n · (v_b − v_a)` at
    /// the point, from the velocities at the start of the velocity solve (gravity and damping
    /// of the step applied, no contact impulse yet). Zero if the contact was not solved.
    pub approach_speed: Fixed,
    /// Masses of the two bodies (kg; zero for a static body).
    pub mass_a: Fixed,
    pub mass_b: Fixed,
    /// Normal impulse (N·s) the solver applied to the contact in the step: the sum over its
    /// points of the accumulated normal impulses after the velocity iterations.
    pub normal_impulse: Fixed,
    /// Whether the contact began during continuous collision (a sub-step after a time of
    /// impact) rather than at the narrow phase.
    pub continuous: bool,
}

impl ContactBegin {
    #[inline]
    fn key(&self) -> ContactKey {
        ContactKey {
            body_lo: self.body_a.0,
            part_lo: self.part_a,
            body_hi: self.body_b.0,
            part_hi: self.part_b,
        }
    }

    /// The report order: (body a, body b, part a, part b).
    #[inline]
    fn order(&self) -> (u32, u32, u16, u16) {
        (self.body_a.0, self.body_b.0, self.part_a, self.part_b)
    }
}

/// A contact between two parts that stopped touching in the last step (or whose body was
/// removed before it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ContactEnd {
    /// The lower body id of the two, and its part.
    pub body_a: BodyId,
    pub part_a: u16,
    /// The higher body id, and its part.
    pub body_b: BodyId,
    pub part_b: u16,
}

impl ContactEnd {
    fn of(key: ContactKey) -> ContactEnd {
        ContactEnd {
            body_a: BodyId(key.body_lo),
            part_a: key.part_lo,
            body_b: BodyId(key.body_hi),
            part_b: key.part_hi,
        }
    }

    #[inline]
    fn order(&self) -> (u32, u32, u16, u16) {
        (self.body_a.0, self.body_b.0, self.part_a, self.part_b)
    }
}

/// The events of the last step and what the next step needs to report its own.
#[derive(Clone, Debug, Default)]
pub(crate) struct ContactEvents {
    /// The last step's begins: during the step, those of the narrow phase in key order
    /// (the solver fills them in by key), then those of continuous collision.
    pub begins: Vec<ContactBegin>,
    pub ends: Vec<ContactEnd>,
    /// The narrow phase's changes (scratch).
    pub changes: Vec<TouchChange>,
    /// Ends of contacts removed between steps, reported with the next step.
    pending_ends: Vec<ContactEnd>,
    /// Keys of the contacts continuous collision reported as begun in the last step (sorted):
    /// the next narrow phase confirms them (no second begin) or ends them.
    toi_begun: Vec<ContactKey>,
    /// Where this step's continuous begins start in `begins`.
    narrow_count: usize,
}

impl ContactEvents {
    /// Before a step: forget the last step's events; the ends pending from removals are this
    /// step's.
    #[inline]
    pub(crate) fn start_step(&mut self) {
        self.begins.clear();
        self.ends.clear();
        self.ends.append(&mut self.pending_ends);
        self.changes.clear();
    }

    /// After the narrow phase: its changes become begins (with the bodies' masses) and ends,
    /// except that a contact continuous collision reported as begun in the last step is not
    /// begun again, and ends now if it does not touch.
    #[inline]
    pub(crate) fn after_narrow_phase(&mut self, bodies: &[Body], contacts: &[Contact]) {
        if self.changes.is_empty() && self.toi_begun.is_empty() {
            self.narrow_count = self.begins.len();
        } else {
            self.record_narrow_phase(bodies, contacts);
        }
    }

    fn record_narrow_phase(&mut self, bodies: &[Body], contacts: &[Contact]) {
        for ch in &self.changes {
            let confirmed = self.toi_begun.binary_search(&ch.key).is_ok();
            if ch.touching {
                if !confirmed {
                    self.begins.push(begin_of(bodies, ch.key));
                }
            } else {
                self.ends.push(ContactEnd::of(ch.key));
            }
        }
        for &key in &self.toi_begun {
            // Not touching at the last narrow phase, so a change of it can only be to touching
            // (confirmed above); one not touching now ends, a removed body's among them (its
            // contacts are gone).
            let touching = contacts
                .binary_search_by_key(&key, |c| c.key)
                .is_ok_and(|i| contacts[i].is_touching());
            if !touching {
                self.ends.push(ContactEnd::of(key));
            }
        }
        self.toi_begun.clear();
        self.narrow_count = self.begins.len();
    }

    /// Whether the narrow phase of this step reported a begin.
    #[inline]
    pub(crate) fn has_narrow_begins(&self) -> bool {
        self.narrow_count > 0
    }

    /// The narrow phase's begin of the contact with `key`, if any (for the solver).
    #[inline]
    pub(crate) fn narrow_begin(&mut self, key: ContactKey) -> Option<&mut ContactBegin> {
        let begins = &mut self.begins[..self.narrow_count];
        match begins.binary_search_by_key(&key, |b| b.key()) {
            Ok(i) => Some(&mut begins[i]),
            Err(_) => None,
        }
    }

    /// After the islands were solved: each narrow-phase begin's normal impulse.
    #[inline]
    pub(crate) fn after_islands(&mut self, contacts: &[Contact]) {
        if self.narrow_count > 0 {
            self.record_impulses(contacts);
        }
    }

    fn record_impulses(&mut self, contacts: &[Contact]) {
        for b in &mut self.begins[..self.narrow_count] {
            if let Ok(i) = contacts.binary_search_by_key(&b.key(), |c| c.key) {
                b.normal_impulse = contacts[i]
                    .manifold
                    .points()
                    .iter()
                    .fold(Fixed::ZERO, |s, p| s + p.normal_impulse);
            }
        }
    }

    /// A begin found by continuous collision, between part `part_x` of body `x` and part
    /// `part_y` of body `y`, with the normal from x to y: reported unless the contact in the
    /// world touches already or this step reported it already.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn continuous_begin(
        &mut self,
        bodies: &[Body],
        contacts: &[Contact],
        (x, part_x): (usize, usize),
        (y, part_y): (usize, usize),
        normal: Vec2,
        approach_speed: Fixed,
        normal_impulse: Fixed,
    ) {
        let (lo, hi, normal) = if x < y {
            ((x, part_x), (y, part_y), normal)
        } else {
            ((y, part_y), (x, part_x), -normal)
        };
        let key = ContactKey {
            body_lo: lo.0 as u32,
            part_lo: lo.1 as u16,
            body_hi: hi.0 as u32,
            part_hi: hi.1 as u16,
        };
        let touching = contacts
            .binary_search_by_key(&key, |c| c.key)
            .is_ok_and(|i| contacts[i].is_touching());
        if touching || self.begins.iter().any(|b| b.key() == key) {
            return;
        }
        self.begins.push(ContactBegin {
            normal,
            approach_speed,
            normal_impulse,
            continuous: true,
            ..begin_of(bodies, key)
        });
    }

    /// After the step: both lists in report order; the continuous begins to confirm next step.
    #[inline]
    pub(crate) fn finish_step(&mut self) {
        if !self.begins.is_empty() || !self.ends.is_empty() {
            self.sort();
        }
    }

    fn sort(&mut self) {
        self.toi_begun.extend(
            self.begins[self.narrow_count..]
                .iter()
                .map(ContactBegin::key),
        );
        self.toi_begun.sort_unstable();
        self.begins.sort_unstable_by_key(ContactBegin::order);
        self.ends.sort_unstable_by_key(ContactEnd::order);
    }

    /// A touching contact destroyed between steps (its body removed): an end next step.
    pub(crate) fn destroyed(&mut self, key: ContactKey) {
        self.pending_ends.push(ContactEnd::of(key));
    }
}

/// A begin of the contact `key` with the bodies' masses and nothing measured yet.
fn begin_of(bodies: &[Body], key: ContactKey) -> ContactBegin {
    ContactBegin {
        body_a: BodyId(key.body_lo),
        part_a: key.part_lo,
        body_b: BodyId(key.body_hi),
        part_b: key.part_hi,
        normal: Vec2::ZERO,
        approach_speed: Fixed::ZERO,
        mass_a: bodies[key.body_lo as usize].mass,
        mass_b: bodies[key.body_hi as usize].mass,
        normal_impulse: Fixed::ZERO,
        continuous: false,
    }
}
