//! The broad phase, the step's first stage: candidate pairs of parts from their fat boxes, by
//! sort and sweep on x.
//!
//! The fat boxes themselves are body state (`Body::fat`, kept by `Body::synchronize_fat_boxes`
//! in `body.rs` whenever a body moves, as Box2D's `SynchronizeFixtures`): a part's box grown by a
//! margin and by twice its last displacement, replaced only when the part leaves it. The pairs
//! are a function of those boxes alone, so the world runs this stage only in steps where a fat
//! box was replaced.

use crate::body::Body;
use crate::contact::ContactKey;
use crate::shape::Aabb;

/// The broad phase's buffers. The pairs are kept between steps while no fat box changes (they
/// are a function of the boxes); the proxies are scratch space.
#[derive(Clone, Debug, Default)]
pub(crate) struct BroadPhase {
    proxies: Vec<Proxy>,
    pairs: Vec<ContactKey>,
}

impl BroadPhase {
    /// Recompute the candidate pairs if a fat box was replaced since the last update, and
    /// return whether it did.
    pub(crate) fn update(&mut self, bodies: &mut [Body]) -> bool {
        // The candidate pairs are a function of the fat boxes alone, which are replaced only
        // when a part leaves its box: while none was, last step's pairs are this step's.
        let pairs_changed = bodies.iter().any(|b| b.fat_changed);
        if pairs_changed {
            find_pairs(bodies, &mut self.proxies, &mut self.pairs);
            for b in bodies.iter_mut() {
                b.fat_changed = false;
            }
        }
        pairs_changed
    }

    /// A broad phase whose last pairs were `pairs` (sorted by key): for a world assembled from
    /// the states of others (`scene.rs`), whose contacts are then exactly these pairs.
    pub(crate) fn with_pairs(pairs: Vec<ContactKey>) -> BroadPhase {
        debug_assert!(pairs.windows(2).all(|w| w[0] < w[1]));
        BroadPhase {
            proxies: Vec::new(),
            pairs,
        }
    }

    /// The candidate pairs, sorted by key.
    #[inline]
    pub(crate) fn pairs(&self) -> &[ContactKey] {
        &self.pairs
    }
}

/// A part's bounding box, for the broad phase.
#[derive(Clone, Copy, Debug)]
struct Proxy {
    aabb: Aabb,
    body: u32,
    part: u16,
    dynamic: bool,
}

/// Candidate pairs: parts whose fat boxes overlap (see `Body::fat`), sorted by key. Pairs of two
/// static bodies, pairs within one body and pairs whose filters do not meet are skipped.
fn find_pairs(bodies: &[Body], proxies: &mut Vec<Proxy>, out: &mut Vec<ContactKey>) {
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
            if !bodies[p.body as usize].meets(&bodies[q.body as usize]) {
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
