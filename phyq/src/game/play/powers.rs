//! A bird's power at its tap (`SpecialAttack` of each bird's script), used only in front of
//! the slingshot.

use super::{body_def, extra, x_span, Flight, Game, Role};
use crate::catalogue::{catalogue, BirdKind, Kind};
use crate::game::rules::in_front_of_slingshot;
use crate::number::radians;
use crate::scene::Source;
use engine::{sin_cos, Fixed, Vec2};

impl Game {
    /// Whether bird `ti` is in front of the slingshot ([`in_front_of_slingshot`]): its
    /// collider's width from its parts' bounds.
    pub(super) fn in_front_of_slingshot(&self, ti: u32) -> bool {
        let t = &self.things[ti as usize];
        let b = self.world.body(t.body).expect("a bird's body");
        let (lo, hi) = x_span(b);
        in_front_of_slingshot(
            b.position().x,
            hi - lo,
            self.rest_point.x,
            extra(t.kind, "drag_radius"),
        )
    }

    /// The bird's power at a tap: only while it flies (launched, not yet collided, alive).
    pub(super) fn use_power(&mut self, ti: u32) {
        let t = &self.things[ti as usize];
        let Some(f) = t.flight else { return };
        if !t.alive || f.collided.is_some() {
            return;
        }
        let body = t.body;
        let shot = match t.source {
            Source::Bird(i) => i,
            _ => unreachable!("a flying thing is a bird"),
        };
        let b = self.world.body(body).expect("live body");
        let (position, velocity) = (b.position(), b.linear_velocity());
        let point = b.world_center();
        let kind = t.kind;
        match f.bird {
            BirdKind::Red => {}
            BirdKind::Yellow => {
                let force = extra(kind, "power.attack_force");
                let j = velocity.normalize_or_zero().scale(force);
                self.world
                    .apply_linear_impulse(body, j, point)
                    .expect("live body");
            }
            BirdKind::Black => self.black_bird_explodes(ti),
            BirdKind::White => {
                let egg_force = extra(kind, "power.egg_force");
                let push_up = extra(kind, "power.push_up_force");
                let egg_def = body_def(
                    Kind::Egg,
                    None,
                    Vec2::new(Fixed::ONE, Fixed::ONE),
                    position,
                    Fixed::ZERO,
                )
                .expect("the egg's body");
                let one = Vec2::new(Fixed::ONE, Fixed::ONE);
                let egg = self.add(Kind::Egg, Role::Egg, None, egg_def, Source::Egg(shot), one);
                let egg_body = self.things[egg as usize].body;
                let egg_point = self.world.body(egg_body).expect("egg").world_center();
                self.world
                    .apply_linear_impulse(egg_body, Vec2::new(Fixed::ZERO, -egg_force), egg_point)
                    .expect("egg");
                self.world
                    .apply_linear_impulse(body, Vec2::new(Fixed::ZERO, push_up), point)
                    .expect("live body");
            }
            BirdKind::Blue => {
                let children = extra(kind, "power.children").floor_int();
                let between = radians(extra(kind, "power.angle_between"));
                let gravity_scale = extra(kind, "launch_gravity");
                let speed = velocity.length();
                let dir = velocity.normalize_or_zero();
                let e = catalogue().entry(kind);
                let scale = Vec2::new(e.scale.0.value(), e.scale.1.value());
                // The first child turns by between · ½ · children, each next one by −between.
                let mut angle = between.mul_int(children) * Fixed::HALF;
                self.die(ti);
                for _ in 0..children {
                    let (s, c) = sin_cos(angle);
                    let d = Vec2::new(dir.x * c - dir.y * s, dir.x * s + dir.y * c);
                    let mut body =
                        body_def(kind, None, scale, position, Fixed::ZERO).expect("a blue bird");
                    body.def.gravity_scale = gravity_scale;
                    body.def.linear_velocity = d.scale(speed);
                    let child = self.add(kind, Role::Bird, None, body, Source::Bird(shot), scale);
                    self.things[child as usize].flight = Some(Flight {
                        bird: BirdKind::Blue,
                        since: self.step,
                        collided: None,
                    });
                    angle -= between;
                }
            }
        }
    }
}
