//! Contacts between parts of two bodies: the deterministic broad phase (sort and sweep) and the
//! narrow-phase update with warm-start matching by feature id.

use crate::body::Body;
use crate::collide::collide_shapes;
use crate::fixed::Fixed;
use crate::manifold::Manifold;
use crate::shape::{Aabb, Shape};

/// Canonical identity of a contact: the lower body id first. Contacts are kept sorted by it,
/// which fixes every iteration order that depends on contacts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ContactKey {
    pub body_lo: u32,
    pub part_lo: u16,
    pub body_hi: u32,
    pub part_hi: u16,
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
        self.manifold.count > 0
    }
}

/// A part's bounding box, for the broad phase.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Proxy {
    aabb: Aabb,
    body: u32,
    part: u16,
    dynamic: bool,
}

/// Candidate pairs: parts whose fat boxes overlap (see `Body::fat`), sorted by key. Pairs of two
/// static bodies and pairs within one body are skipped.
pub(crate) fn find_pairs(bodies: &[Body], proxies: &mut Vec<Proxy>, out: &mut Vec<ContactKey>) {
    out.clear();
    proxies.clear();
    for (bi, b) in bodies.iter().enumerate() {
        for (pi, bb) in b.fat.iter().enumerate() {
            proxies.push(Proxy {
                aabb: *bb,
                body: bi as u32,
                part: pi as u16,
                dynamic: b.is_dynamic(),
            });
        }
    }
    // Sort and sweep on x; ties broken by (body, part) so the order is total.
    proxies.sort_unstable_by_key(|p| (p.aabb.lower.x, p.body, p.part));
    for i in 0..proxies.len() {
        let p = &proxies[i];
        for q in &proxies[i + 1..] {
            if q.aabb.lower.x > p.aabb.upper.x {
                break;
            }
            if q.body == p.body || (!p.dynamic && !q.dynamic) {
                continue;
            }
            if p.aabb.lower.y > q.aabb.upper.y || q.aabb.lower.y > p.aabb.upper.y {
                continue;
            }
            let (lo, hi) = if (p.body, p.part) < (q.body, q.part) {
                (p, q)
            } else {
                (q, p)
            };
            out.push(ContactKey {
                body_lo: lo.body,
                part_lo: lo.part,
                body_hi: hi.body,
                part_hi: hi.part,
            });
        }
    }
    out.sort_unstable();
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
    let old = c.manifold;
    let mut m = collide_shapes(
        &a.parts[c.part_a as usize],
        &a.xf,
        &b.parts[c.part_b as usize],
        &b.xf,
    );
    for i in 0..m.count as usize {
        let id = m.points[i].id;
        m.points[i].normal_impulse = Fixed::ZERO;
        m.points[i].tangent_impulse = Fixed::ZERO;
        if let Some(o) = old.points().iter().find(|o| o.id == id) {
            m.points[i].normal_impulse = o.normal_impulse;
            m.points[i].tangent_impulse = o.tangent_impulse;
        }
    }
    let changed = (old.count > 0) != (m.count > 0);
    c.manifold = m;
    changed
}
