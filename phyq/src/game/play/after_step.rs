//! What the game does after each physics step besides collisions: immortality ends, bodies
//! beyond the level's edges die, birds die of age or of rest.

use super::IMMORTAL_STEPS;
use super::{
    x_span, Game, Role, BIRD_CHECK_EVERY_STEPS, BIRD_FIRST_CHECK_STEPS, BIRD_LIFETIME_STEPS,
};
use engine::Fixed;

impl Game {
    pub(super) fn end_immortality(&mut self) {
        let step = self.step;
        for t in &mut self.things {
            if t.alive && step - t.born == IMMORTAL_STEPS {
                if let Some(l) = t.full_life {
                    t.life = l;
                }
            }
        }
    }

    /// `ABGameObject.DestroyIfOutScreen`: a body entirely left or right of the level dies (a
    /// pig so destroyed counts as destroyed).
    pub(super) fn remove_out_of_world(&mut self) {
        let mut out = Vec::new();
        for (i, t) in self.things.iter().enumerate() {
            if !t.alive || t.role == Role::Platform {
                continue;
            }
            let b = self.world.body(t.body).expect("live body");
            let x = b.position().x;
            // Entirely beyond an edge needs the origin beyond it: only then is the box needed
            // (the test below says the same for any origin inside, at the cost of every part's
            // box every step).
            if x.abs() <= self.half_width {
                continue;
            }
            let (lo, hi) = x_span(b);
            let half = (hi - lo) * Fixed::HALF;
            if x - half > self.half_width || x + half < -self.half_width {
                out.push(i as u32);
            }
        }
        for i in out {
            self.die(i);
        }
    }

    pub(super) fn bird_timers(&mut self) {
        let step = self.step;
        let mut dead = Vec::new();
        for (i, t) in self.things.iter().enumerate() {
            let Some(f) = t.flight else { continue };
            if !t.alive {
                continue;
            }
            let expired = step - f.since >= BIRD_LIFETIME_STEPS;
            let slow = f.collided.is_some_and(|c| {
                let since = step - c;
                // The checks fall on multiples of the period, the first included.
                since >= BIRD_FIRST_CHECK_STEPS
                    && since.is_multiple_of(BIRD_CHECK_EVERY_STEPS)
                    && self
                        .world
                        .body(t.body)
                        .expect("live body")
                        .linear_velocity()
                        .shorter_than(Fixed::ratio(1, 1000))
            });
            if expired || slow {
                dead.push(i as u32);
            }
        }
        for i in dead {
            self.die(i);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Role, BIRD_FIRST_CHECK_STEPS, BIRD_LIFETIME_STEPS, IMMORTAL_STEPS};
    use crate::game::play::tests::red_bird_game;
    use crate::game::{Game, Shot};
    use engine::{Fixed, Vec2};

    /// A level 35 m wide with one red bird and a small pig far to the right on the ground.
    fn game() -> Game {
        red_bird_game(r#"<Pig type="BasicSmall" x="8" y="-3.2"/>"#)
    }

    /// "Entirely beyond the edge" is strict, on both sides: a block whose near side lies
    /// exactly on the edge stays, one a raw unit (2⁻³² m) further out dies. The edge is moved to
    /// the block (the level's half width set to its box's side) rather than the block to it.
    #[test]
    fn a_body_whose_near_side_is_on_the_edge_stays() {
        for x in ["18", "-18"] {
            let mut g = red_bird_game(&format!(
                r#"<Pig type="BasicSmall" x="8" y="-3.2"/><Block type="RectSmall" material="wood" x="{x}" y="-3.3" rotation="0"/>"#
            ));
            let block = g
                .things
                .iter()
                .position(|t| matches!(t.role, Role::Block(_)))
                .unwrap();
            let b = g.world.body(g.things[block].body).unwrap();
            let bounds = b.parts()[0].aabb(b.transform());
            let near = if x.starts_with('-') {
                -bounds.upper.x
            } else {
                bounds.lower.x
            };
            g.half_width = near;
            g.remove_out_of_world();
            assert!(g.things[block].alive, "x = {x}: on the edge");
            g.half_width = near - Fixed::from_raw(1);
            g.remove_out_of_world();
            assert!(!g.things[block].alive, "x = {x}: beyond the edge");
        }
    }

    /// A thing's immortality lasts [`IMMORTAL_STEPS`] from its own creation (`ABGameObject`
    /// times it from its `Start`), not from the level's: a pig made at step 7 (as a bird or an
    /// egg made mid-level is) keeps its 10,000 until step 107, then has its catalogue life.
    #[test]
    fn immortality_ends_two_seconds_after_each_things_creation() {
        let mut g = game();
        for _ in 0..7 {
            g.step_idle();
        }
        let pig = g.things.iter().position(|t| t.role == Role::Pig).unwrap();
        g.things[pig].born = 7;
        let immortal = Some(Fixed::from_int(10_000));
        while g.steps() < 7 + IMMORTAL_STEPS - 1 {
            g.step_idle();
            assert_eq!(g.lives(), vec![immortal], "step {}", g.steps());
        }
        g.step_idle();
        assert_eq!(g.lives(), vec![Some(Fixed::ONE)], "step {}", g.steps());
    }

    /// The test level after `wait` idle steps, its bird then launched at full drag; and the
    /// bird's index.
    fn launched_after(wait: u32) -> (Game, usize) {
        let mut g = game();
        while g.steps() < wait {
            g.step_idle();
        }
        let full_drag = Shot {
            release: Vec2::new(-Fixed::ONE, Fixed::ZERO),
            tap: None,
        };
        assert!(g.launch(&full_drag).unwrap());
        let bird = g.things.iter().position(|t| t.role == Role::Bird).unwrap();
        (g, bird)
    }

    /// A bird at rest after its first collision dies at the first speed check, 3 s
    /// ([`BIRD_FIRST_CHECK_STEPS`], 150 steps) after that collision, not at an earlier
    /// whole second: here a launched bird held still, its collision moved back 0 to 150 steps.
    #[test]
    fn a_still_bird_lives_until_three_seconds_after_its_collision() {
        assert_eq!(BIRD_FIRST_CHECK_STEPS, 150);
        // Time enough before the launch to move its collision 150 steps back.
        let (mut g, bird) = launched_after(150);
        let body = g.things[bird].body;
        g.world.set_velocity(body, Vec2::ZERO, Fixed::ZERO).unwrap();
        for since in [0, 50, 100, 149] {
            g.things[bird].flight.as_mut().unwrap().collided = Some(g.step - since);
            g.bird_timers();
            assert!(g.things[bird].alive, "{since} steps after its collision");
        }
        g.things[bird].flight.as_mut().unwrap().collided = Some(g.step - 150);
        g.bird_timers();
        assert!(!g.things[bird].alive, "at the first check");
    }

    /// `ABBird.lifeTime`: a launched bird dies 20 s ([`BIRD_LIFETIME_STEPS`]) after it left
    /// the slingshot, whatever it is doing: here one still in its first flight, its launch
    /// moved back to 2 steps short of the lifetime.
    #[test]
    fn a_bird_dies_twenty_seconds_after_its_launch() {
        // 20 s of waiting first, so that the launch can be moved back a whole lifetime.
        let (mut g, bird) = launched_after(BIRD_LIFETIME_STEPS);
        let flight = g.things[bird].flight.as_mut().unwrap();
        flight.since = g.step + 2 - BIRD_LIFETIME_STEPS;
        g.step_idle();
        let t = &g.things[bird];
        assert!(
            t.alive && t.flight.unwrap().collided.is_none(),
            "in flight, alive"
        );
        g.step_idle();
        assert!(!g.things[bird].alive, "20 s after its launch");
    }
}
