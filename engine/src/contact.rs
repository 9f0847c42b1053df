//! Contacts between parts of two bodies and the narrow phase, the step's second stage: each
//! contact's manifold recomputed at the current transforms, with warm-start matching of the
//! accumulated impulses by feature id, and the materials of the two bodies mixed once.
//!
//! Also the contacts of continuous collision ([`ToiContact`]), which the sub-step driver
//! (`continuous.rs`) builds and the solver consumes: kept here, beside [`Contact`], so that the
//! solver depends on no stage that calls it.

use crate::body::Body;
use crate::collide::collide_shapes_placed;
use crate::fixed::Fixed;
use crate::manifold::Manifold;
use crate::math::Transform;
use crate::shape::Shape;
use crate::sleep;

/// A change of a contact's touching state seen by the narrow phase, in key order (the events
/// turn these into begins and ends).
#[derive(Clone, Copy, Debug)]
pub(crate) struct TouchChange {
    pub key: ContactKey,
    pub touching: bool,
}

/// Canonical identity of a contact: the lower body id first. Contacts are kept sorted by it,
/// which fixes every iteration order that depends on contacts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ContactKey {
    pub body_lo: u32,
    pub part_lo: u16,
    pub body_hi: u32,
    pub part_hi: u16,
}

/// When and for which pair a contact was created: the step being computed (1-based) and the
/// key. Within a step contacts are created in key order, so (step, key) order is creation order
/// (see `scene.rs`, which merges the creation logs of two worlds).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct ContactBirth {
    pub step: u32,
    pub key: ContactKey,
}

/// A potentially touching pair of parts and its manifold.
///
/// The manifold's A/B roles are `(body_a, part_a)` / `(body_b, part_b)`; they equal the key's
/// lo/hi order except for circle–polygon pairs, which are collided with the polygon as A.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Contact {
    pub key: ContactKey,
    pub body_a: u32,
    pub part_a: u16,
    pub body_b: u32,
    pub part_b: u16,
    pub manifold: Manifold,
    pub friction: Fixed,
    pub restitution: Fixed,
    /// Creation sequence number (contacts created in the same step are numbered in key order).
    /// Islands visit a body's contacts newest first, as Box2D's contact lists do.
    pub seq: u64,
}

impl Contact {
    /// At least one manifold point: the bodies touch (possibly within the polygon skins).
    #[inline]
    pub fn is_touching(&self) -> bool {
        !self.manifold.points.is_empty()
    }
}

/// A contact of a body with a static part during a continuous-collision sub-step.
#[derive(Clone, Debug)]
pub(crate) struct ToiContact {
    /// A = the body's part, B = the static part.
    pub manifold: Manifold,
    pub part: usize,
    /// The static body and its part.
    pub static_part: (usize, usize),
    pub static_xf: Transform,
    pub static_radius: Fixed,
    pub friction: Fixed,
    pub restitution: Fixed,
    /// What the sub-step's solve measured (for contact events).
    pub measured: Measured,
}

/// What a continuous-collision sub-step measured of one of its contacts, for its begin event
/// (`events.rs`): the normal (A to B), the approach speed along it before the velocity solve,
/// and the normal impulse the solve applied.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Measured {
    pub normal: crate::math::Vec2,
    pub approach_speed: Fixed,
    pub normal_impulse: Fixed,
}

/// The B side of a [`ToiPairContact`].
#[derive(Clone, Debug)]
pub(crate) enum ToiSide {
    /// Part `.1` of body `.0` of the pair (0: the bullet, 1: the body it hit).
    Body(usize, usize),
    /// Part `part` of static body `body`, placed at `xf`, with its skin or circle radius.
    Static {
        body: usize,
        part: usize,
        xf: Transform,
        radius: Fixed,
    },
}

/// A contact of a continuous-collision sub-step of two bodies (a bullet and the body it hit):
/// between them, or of one of them with a static part (always B).
#[derive(Clone, Debug)]
pub(crate) struct ToiPairContact {
    pub manifold: Manifold,
    /// A side: body of the pair (0 or 1) and its part.
    pub a: (usize, usize),
    pub b: ToiSide,
    pub friction: Fixed,
    pub restitution: Fixed,
    /// What the sub-step's solve measured (for contact events).
    pub measured: Measured,
}

/// Build the contact for `key` (no manifold yet).
pub(crate) fn new_contact(bodies: &[Body], key: ContactKey) -> Contact {
    let lo = &bodies[key.body_lo as usize];
    let hi = &bodies[key.body_hi as usize];
    let lo_shape = &lo.parts[key.part_lo as usize];
    let hi_shape = &hi.parts[key.part_hi as usize];
    // Collide circle–polygon as polygon–circle: the polygon is A.
    let flip = matches!((lo_shape, hi_shape), (Shape::Circle(_), Shape::Polygon(_)));
    let (body_a, part_a, body_b, part_b) = if flip {
        (key.body_hi, key.part_hi, key.body_lo, key.part_lo)
    } else {
        (key.body_lo, key.part_lo, key.body_hi, key.part_hi)
    };
    let (friction, restitution) = mix_materials(&bodies[body_a as usize], &bodies[body_b as usize]);
    Contact {
        key,
        body_a,
        part_a,
        body_b,
        part_b,
        manifold: Manifold::default(),
        friction,
        restitution,
        seq: 0,
    }
}

/// Friction and restitution of a contact between two bodies' materials: friction the geometric
/// mean, restitution the larger of the two (Box2D's mixing rules). Both are symmetric in `a` and
/// `b` bit for bit (the fixed-point product rounds the exact product; `max` picks one of the two
/// values), so the order the callers pass the bodies in does not matter.
#[inline]
pub(crate) fn mix_materials(a: &Body, b: &Body) -> (Fixed, Fixed) {
    (
        (a.friction * b.friction).sqrt(),
        a.restitution.max(b.restitution),
    )
}

/// Recompute the manifold of `c` at the bodies' current transforms, carrying accumulated
/// impulses over from the previous manifold for points with the same feature id.
/// Returns whether the touching state changed.
pub(crate) fn update_contact(c: &mut Contact, bodies: &[Body]) -> bool {
    let a = &bodies[c.body_a as usize];
    let b = &bodies[c.body_b as usize];
    let mut m = collide_shapes_placed(
        &a.parts[c.part_a as usize],
        &a.xf,
        a.placed_polygon(c.part_a as usize),
        &b.parts[c.part_b as usize],
        &b.xf,
        b.placed_polygon(c.part_b as usize),
    );
    let old = &c.manifold;
    for p in m.points.iter_mut() {
        p.normal_impulse = Fixed::ZERO;
        p.tangent_impulse = Fixed::ZERO;
        if let Some(o) = old.points().iter().find(|o| o.id == p.id) {
            p.normal_impulse = o.normal_impulse;
            p.tangent_impulse = o.tangent_impulse;
        }
    }
    let changed = old.points.is_empty() != m.points.is_empty();
    c.manifold = m;
    changed
}

/// The narrow phase, the step's second stage, in a step where the broad phase ran: the contact
/// list becomes one contact per candidate pair in `pairs` (sorted by key), keeping the existing
/// contacts (with their creation numbers and impulses) and creating the new ones, numbered from
/// `next_contact_seq` in key order. Every contact with an awake body gets a new manifold; pairs
/// with no awake body keep theirs, as in Box2D, which skips them. When a contact starts or stops
/// touching, both its bodies wake, after the whole list was updated. `spare` is scratch space.
/// `births`, when kept, gets each new contact's [`ContactBirth`] (`step` is the step computed).
/// `changes` gets every change of a contact's touching state, in key order, a touching contact
/// dropped with its pair included (as no longer touching).
#[allow(clippy::too_many_arguments)]
pub(crate) fn narrow_phase(
    bodies: &mut [Body],
    contacts: &mut Vec<Contact>,
    spare: &mut Vec<Contact>,
    pairs: &[ContactKey],
    next_contact_seq: &mut u64,
    mut births: Option<&mut Vec<ContactBirth>>,
    step: u32,
    changes: &mut Vec<TouchChange>,
) {
    let mut old = std::mem::take(contacts);
    let mut merged = std::mem::take(spare);
    merged.clear();
    let mut oi = 0;
    let mut wake: Vec<u32> = Vec::new();
    for &key in pairs {
        // Both lists are sorted by key: a merge join keeps existing contacts (and their
        // impulses for warm starting) and creates the new ones.
        while oi < old.len() && old[oi].key < key {
            // Dropped with its pair (contacts already taken are default, not touching).
            if old[oi].is_touching() {
                changes.push(TouchChange {
                    key: old[oi].key,
                    touching: false,
                });
            }
            oi += 1;
        }
        let mut c = if oi < old.len() && old[oi].key == key {
            std::mem::take(&mut old[oi])
        } else {
            *next_contact_seq += 1;
            if let Some(log) = births.as_deref_mut() {
                log.push(ContactBirth { step, key });
            }
            Contact {
                seq: *next_contact_seq,
                ..new_contact(bodies, key)
            }
        };
        let awake = bodies[c.body_a as usize].awake || bodies[c.body_b as usize].awake;
        if awake && update_contact(&mut c, bodies) {
            wake.push(c.body_a);
            wake.push(c.body_b);
            changes.push(TouchChange {
                key,
                touching: c.is_touching(),
            });
        }
        merged.push(c);
    }
    for c in &old[oi..] {
        if c.is_touching() {
            changes.push(TouchChange {
                key: c.key,
                touching: false,
            });
        }
    }
    // Keep the old vector's allocation for the next step.
    old.clear();
    *spare = old;
    *contacts = merged;
    for bi in wake {
        sleep::wake(bodies, bi as usize);
    }
}

/// [`narrow_phase`] when the pairs are last step's: then the contact list already holds exactly
/// one contact per pair, in key order, and the merge would keep every one in place, so they are
/// updated where they are.
pub(crate) fn update_contacts_in_place(
    bodies: &mut [Body],
    contacts: &mut [Contact],
    pairs: &[ContactKey],
    changes: &mut Vec<TouchChange>,
) {
    debug_assert!(contacts.iter().map(|c| c.key).eq(pairs.iter().copied()));
    let mut wake: Vec<u32> = Vec::new();
    for c in contacts.iter_mut() {
        let awake = bodies[c.body_a as usize].awake || bodies[c.body_b as usize].awake;
        if awake && update_contact(c, bodies) {
            wake.push(c.body_a);
            wake.push(c.body_b);
            changes.push(TouchChange {
                key: c.key,
                touching: c.is_touching(),
            });
        }
    }
    for bi in wake {
        sleep::wake(bodies, bi as usize);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::{BodyDef, BodyKind};
    use crate::math::Vec2;
    use crate::testbed::ball_shape;

    fn body(friction: Fixed, restitution: Fixed) -> Body {
        let mut def = BodyDef::new(
            BodyKind::Dynamic,
            Vec2::ZERO,
            Fixed::ZERO,
            vec![ball_shape(5, 1)],
        );
        def.friction = friction;
        def.restitution = restitution;
        Body::from_def(&def)
    }

    #[test]
    fn two_different_materials_mix_the_same_in_both_orders() {
        // A rough, dull body against a slippery, bouncy one: friction is the geometric mean,
        // restitution the larger, whichever body comes first.
        let rough = body(Fixed::ratio(8, 10), Fixed::ratio(1, 10));
        let bouncy = body(Fixed::ratio(3, 10), Fixed::ratio(1, 2));
        let ab = mix_materials(&rough, &bouncy);
        let ba = mix_materials(&bouncy, &rough);
        assert_eq!(ab, ba, "mixing depends on the bodies' order");
        assert_eq!(ab.1, Fixed::ratio(1, 2));
        assert_eq!(ab.0, (Fixed::ratio(8, 10) * Fixed::ratio(3, 10)).sqrt());
        // sqrt(0.24) = 0.48989794855663561964; the result is that to within 2^-31.
        let want = Fixed::from_raw(2_104_095_667);
        assert!((ab.0 - want).raw().abs() <= 2, "{} against {}", ab.0, want);
        // The larger restitution wins when it is the first body's too.
        let bouncier_first = mix_materials(&body(Fixed::ratio(1, 10), Fixed::ratio(9, 10)), &rough);
        assert_eq!(bouncier_first.1, Fixed::ratio(9, 10));
        // A frictionless body makes a frictionless contact, in either order.
        let ice = body(Fixed::ZERO, Fixed::ZERO);
        assert_eq!(
            mix_materials(&ice, &rough),
            (Fixed::ZERO, Fixed::ratio(1, 10))
        );
        assert_eq!(
            mix_materials(&rough, &ice),
            (Fixed::ZERO, Fixed::ratio(1, 10))
        );
    }
}
