//! What a collision does: which pairs of colliders began to touch, the callbacks of their two
//! bodies (damage by the general rule or a bird's, a bird's first hit, the egg's explosion),
//! and what follows from damage: destruction, points, explosions.

use super::{extra, Game, Motion, Role};
use crate::catalogue::{catalogue, BirdKind, Kind, Material};
use crate::game::rules::{bird_damage, collision_damage, explosion_effect, hit_points};
use crate::game::rules::{BLOCK_POINTS, PIG_POINTS};
use engine::{BodyId, Fixed, Vec2};
use std::collections::BTreeSet;

/// A pair of colliders: (lower body, its collider, higher body, its collider).
type ColliderPair = (BodyId, u8, BodyId, u8);

impl Game {
    pub(super) fn thing_of(&self, body: BodyId) -> Option<u32> {
        self.by_body.get(body.index()).copied().flatten()
    }

    /// The collider of a body's part (a body without a thing, the ground, is one collider).
    fn collider(&self, body: BodyId, part: u16) -> u8 {
        self.thing_of(body)
            .and_then(|t| {
                self.things[t as usize]
                    .colliders
                    .get(usize::from(part))
                    .copied()
            })
            .unwrap_or(0)
    }

    /// The pairs of colliders that began to touch in the last step, each once, in the order of
    /// their first part pair's begin. Unity calls `OnCollisionEnter2D` once per pair of
    /// colliders; the engine reports a begin per pair of convex parts (a pig's outline is 8–12
    /// of them), so a hit would otherwise count once per part. A pair that still touches by
    /// another of its parts, or whose touching parts stopped in this step, did not begin.
    pub(super) fn collider_begins(&self) -> Vec<(BodyId, BodyId)> {
        let begins = self.world.contact_begins();
        if begins.is_empty() {
            return Vec::new();
        }
        let pair = |a: BodyId, pa: u16, b: BodyId, pb: u16| -> ColliderPair {
            (a, self.collider(a, pa), b, self.collider(b, pb))
        };
        let began_parts: BTreeSet<(BodyId, u16, BodyId, u16)> = begins
            .iter()
            .map(|c| (c.body_a, c.part_a, c.body_b, c.part_b))
            .collect();
        // Touching before the step: a touching contact that did not begin in it, or one that
        // ended in it.
        let mut touched: BTreeSet<ColliderPair> = self
            .world
            .contacts()
            .filter(|c| {
                c.point_count > 0
                    && !began_parts.contains(&(c.body_a, c.part_a, c.body_b, c.part_b))
            })
            .map(|c| pair(c.body_a, c.part_a, c.body_b, c.part_b))
            .collect();
        touched.extend(
            self.world
                .contact_ends()
                .iter()
                .map(|c| pair(c.body_a, c.part_a, c.body_b, c.part_b)),
        );
        begins
            .iter()
            .map(|c| pair(c.body_a, c.part_a, c.body_b, c.part_b))
            // `insert` is false for a pair touching before, or one already counted.
            .filter(|p| touched.insert(*p))
            .map(|(a, _, b, _)| (a, b))
            .collect()
    }

    /// `this`'s collision callback for a contact with `other`.
    pub(super) fn collide(&mut self, this: BodyId, other: BodyId, before: &[Vec2]) {
        let Some(ti) = self.thing_of(this) else {
            return;
        };
        if !self.things[ti as usize].alive {
            return;
        }
        let rel = before[other.index()] - before[this.index()];
        let oi = self.thing_of(other);
        let t = &self.things[ti as usize];
        match t.role {
            Role::Platform => {}
            Role::Egg => {
                let (area, power, damage) = explosive(t.kind);
                let at = self.world.body(t.body).expect("live body").position();
                self.die(ti);
                self.explode(at, area, power, damage, ti);
            }
            Role::Bird => {
                let Some(f) = t.flight else { return };
                if f.collided.is_some() {
                    return;
                }
                let step = self.step;
                if let Some(fl) = self.things[ti as usize].flight.as_mut() {
                    fl.collided = Some(step);
                }
                // The black bird explodes on impact (the reference plays its "explode"
                // animation, whose event triggers the explosion; rephyre explodes at once).
                if f.bird == BirdKind::Black {
                    self.black_bird_explodes(ti);
                }
            }
            Role::Block(material)
                if oi.is_some_and(|o| self.things[o as usize].role == Role::Bird) =>
            {
                let o = &self.things[oi.unwrap() as usize];
                let bird_mass = self.world.body(o.body).expect("bird body").mass();
                let name = match material {
                    Material::Wood => "damage_wood",
                    Material::Stone => "damage_stone",
                    Material::Ice => "damage_ice",
                };
                let d = bird_damage(
                    rel,
                    bird_mass,
                    extra(o.kind, name),
                    self.damage_multiplier,
                    t.defence,
                );
                self.deal(ti, d);
                self.score_hit(ti, d);
            }
            Role::Pig | Role::Block(_) | Role::Tnt => {
                let motion = |body: BodyId| {
                    let b = self.world.body(body).expect("body");
                    Motion {
                        mass: b.mass(),
                        velocity: b.linear_velocity(),
                    }
                };
                let this_m = motion(this);
                let other_m = match oi {
                    None => None,
                    Some(o) if self.things[o as usize].role == Role::Platform => Some(Motion {
                        // A kinematic body: the prefab's mass, never moving.
                        mass: catalogue().entry(Kind::Platform).prefab_mass.value(),
                        velocity: Vec2::ZERO,
                    }),
                    Some(_) => Some(motion(other)),
                };
                let d = collision_damage(rel, this_m, other_m, self.damage_multiplier, t.defence);
                self.deal(ti, d);
                if oi.is_some_and(|o| self.things[o as usize].role == Role::Bird) {
                    self.score_hit(ti, d);
                }
            }
        }
    }

    pub(super) fn deal(&mut self, ti: u32, damage: Fixed) {
        let t = &mut self.things[ti as usize];
        if !t.alive || t.full_life.is_none() || damage == Fixed::ZERO {
            return;
        }
        t.life -= damage;
        if t.life <= Fixed::ZERO {
            let tnt = (t.role == Role::Tnt).then(|| explosive(t.kind));
            let at = self.world.body(t.body).expect("live body").position();
            self.die(ti);
            if let Some((area, power, dmg)) = tnt {
                self.explode(at, area, power, dmg, ti);
            }
        }
    }

    /// The points of a bird's hit ([`hit_points`]: none for a hit of no damage, nor for one
    /// that left the thing's life at or below the damage, a destroyed thing's among them).
    pub(super) fn score_hit(&mut self, ti: u32, damage: Fixed) {
        let life = self.things[ti as usize].life;
        self.points = self.points.saturating_add(hit_points(damage, life));
    }

    /// Removes a thing from the world (its collider disabled at once, as `Die` does).
    pub(super) fn die(&mut self, ti: u32) {
        let t = &mut self.things[ti as usize];
        if !t.alive {
            return;
        }
        t.alive = false;
        match t.role {
            Role::Pig => {
                self.pigs_left -= 1;
                self.points = self.points.saturating_add(PIG_POINTS);
            }
            Role::Block(_) => self.points = self.points.saturating_add(BLOCK_POINTS),
            _ => {}
        }
        self.world.remove_body(t.body).expect("a live body");
    }

    /// An explosion at `center`: every live dynamic thing but the explosive and the birds, in
    /// creation order, takes its damage and impulse (a TNT destroyed here explodes in turn,
    /// before the rest of this explosion's list, as in the reference).
    pub(super) fn explode(
        &mut self,
        center: Vec2,
        area: Fixed,
        power: Fixed,
        damage: Fixed,
        explosive: u32,
    ) {
        let targets: Vec<u32> = (0..self.things.len() as u32)
            .filter(|&i| {
                let t = &self.things[i as usize];
                i != explosive && t.alive && t.role != Role::Bird && t.role != Role::Platform
            })
            .collect();
        for i in targets {
            if !self.things[i as usize].alive {
                continue;
            }
            let body = self.things[i as usize].body;
            let b = self.world.body(body).expect("live body");
            let (d, impulse) = explosion_effect(b.position() - center, area, power, damage);
            let point = b.world_center();
            self.deal(i, d);
            if self.things[i as usize].alive && impulse != Vec2::ZERO {
                self.world
                    .apply_linear_impulse(body, impulse, point)
                    .expect("live body");
            }
        }
    }

    pub(super) fn black_bird_explodes(&mut self, ti: u32) {
        let t = &self.things[ti as usize];
        let (area, power, damage) = explosive(t.kind);
        let at = self.world.body(t.body).expect("live body").position();
        self.explode(at, area, power, damage, ti);
        self.die(ti);
    }
}

pub(super) fn explosive(kind: Kind) -> (Fixed, Fixed, Fixed) {
    (
        extra(kind, "explosion_area"),
        extra(kind, "explosion_power"),
        extra(kind, "explosion_damage"),
    )
}

#[cfg(test)]
mod tests {
    use super::{ColliderPair, Role};
    use crate::game::play::tests::red_bird_game;
    use crate::game::Game;
    use engine::{Fixed, Vec2};
    use std::collections::BTreeSet;

    /// The pairs of colliders touching now, read from the world's contacts.
    fn touching(g: &Game) -> BTreeSet<ColliderPair> {
        g.world
            .contacts()
            .filter(|c| c.point_count > 0)
            .map(|c| {
                let (a, b) = (c.body_a, c.body_b);
                (a, g.collider(a, c.part_a), b, g.collider(b, c.part_b))
            })
            .collect()
    }

    /// A pair of colliders begins to touch in a step when it touches after the step and did
    /// not before it, whatever its parts did (`OnCollisionEnter2D` once per pair of
    /// colliders). A small pig (a polygon outline of several parts) set rolling on the ground
    /// at 0.8 and 1 m/s rocks from part to part and hops: `collider_begins` agrees, step by
    /// step, with the touching pairs read before and after each step, and the rolls do pass
    /// through part begins of a pair that already touched (which must not count).
    #[test]
    fn a_pair_of_colliders_begins_when_it_first_touches() {
        let (mut pair_begins, mut part_begins_of_touching) = (0, 0);
        for tenths in [8, 10] {
            let mut g = red_bird_game(r#"<Pig type="BasicSmall" x="0" y="-3.2"/>"#);
            g.settle();
            let pig = g.things.iter().position(|t| t.role == Role::Pig).unwrap();
            let body = g.things[pig].body;
            let b = g.world.body(body).unwrap();
            let (lo, hi) = b
                .parts()
                .iter()
                .fold((Fixed::MAX, Fixed::MIN), |(lo, hi), p| {
                    let bounds = p.aabb(b.transform());
                    (lo.min(bounds.lower.y), hi.max(bounds.upper.y))
                });
            let v = Fixed::from_int(tenths).div_int(10);
            let spin = -(v / ((hi - lo) * Fixed::HALF));
            g.world
                .set_velocity(body, Vec2::new(v, Fixed::ZERO), spin)
                .unwrap();
            let mut before = touching(&g);
            for _ in 0..100 {
                g.step_idle();
                let now = touching(&g);
                let began: BTreeSet<(_, _)> = g.collider_begins().into_iter().collect();
                let expected: BTreeSet<(_, _)> = now
                    .difference(&before)
                    .map(|&(a, _, b, _)| (a, b))
                    .collect();
                assert_eq!(began, expected, "{tenths}/10 m/s, step {}", g.steps());
                pair_begins += began.len();
                part_begins_of_touching += g
                    .world
                    .contact_begins()
                    .iter()
                    .filter(|c| {
                        let (a, b) = (c.body_a, c.body_b);
                        before.contains(&(a, g.collider(a, c.part_a), b, g.collider(b, c.part_b)))
                    })
                    .count();
                before = now;
            }
        }
        assert!(pair_begins > 0, "the pig hops: a pair begins again");
        assert!(
            part_begins_of_touching > 0,
            "a part of a touching pair begins"
        );
    }
}
