//! The game's rules as arithmetic: collision damage, explosion falloff, a bird's release
//! velocity. Each is one function of plain numbers, so tests can check them against values
//! computed by hand; `play` applies them to the world.
//!
//! Read from Science Birds' scripts (`unity/scripts/` of the reference), in Q32.32:
//! * **Collision damage** (`ABGameObject.OnCollisionEnter2D`): an object with a rigid body hit
//!   by anything takes `max(|v_rel| · m_attacker · 11.22 · 0.5 − defence, 0)`, where the
//!   attacker is the other body if it has a rigid body and "contributes more to the relative
//!   speed" (its velocity projected on `v_rel` exceeds this object's), else this object.
//! * **A bird hitting a block** (`ABBlock.OnCollisionEnter2D`): `max(|v_rel| · m_bird ·
//!   multiplier(material) · 11.22 − defence, 0)`, no ½ (the blue bird's ice multiplier is 4).
//! * **Explosions** (`ABTNT.Explode`, used by TNT, the black bird and the egg): every body with
//!   a rigid body other than the explosive and the birds, at distance `d` from the centre
//!   (object origins), takes `damage · max(1 − d/area, 0)` and an impulse of `power · max(1 −
//!   d/area, 0)` along the direction from the centre to it.
//! * **Launch** (`ABBird.LaunchBird`): from a release point `p` dragged at most `drag_radius`
//!   from the rest point `r`, the velocity is `(r − p) / drag_radius · 10`.
//! * **A tap** (`ABBird.IsInFrontOfSlingshot`, checked when the tap comes): the bird's power is
//!   used only if its origin's x plus its collider's width is past the rest point's x by more
//!   than two drag radii (and it flies: launched, alive, not yet collided).
//!
//! `v_rel` is Unity's `Collision2D.relativeVelocity`, read here as the other body's velocity
//! less this one's, both as they were when the contact began (before the step's solve); the
//! attacker test reads the velocities after the step, as the script does in its callback.

use engine::{Fixed, Vec2};

/// A body's side of a collision, as the damage rule sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Motion {
    pub mass: Fixed,
    /// Velocity after the step (what the script reads in its callback).
    pub velocity: Vec2,
}

/// The damage an object takes from a collision by the general rule. `other` is `None` when
/// the other collider has no rigid body (the ground).
pub fn collision_damage(
    relative_velocity: Vec2,
    this: Motion,
    other: Option<Motion>,
    multiplier: Fixed,
    defence: Fixed,
) -> Fixed {
    let attacker = match other {
        // v·r̂ compared as v·r (|r| > 0 scales both sides alike); with r = 0 Unity's angle is 0
        // and each projection is the speed itself.
        Some(o)
            if projection(o.velocity, relative_velocity)
                > projection(this.velocity, relative_velocity) =>
        {
            o
        }
        _ => this,
    };
    let raw = relative_velocity.length() * attacker.mass * multiplier * Fixed::HALF;
    (raw - defence).max(Fixed::ZERO)
}

fn projection(v: Vec2, r: Vec2) -> Fixed {
    if r == Vec2::ZERO {
        v.length()
    } else {
        v.dot(r)
    }
}

/// The damage a block takes from a bird: `bird_multiplier` is the bird's multiplier for the
/// block's material.
pub fn bird_damage(
    relative_velocity: Vec2,
    bird_mass: Fixed,
    bird_multiplier: Fixed,
    multiplier: Fixed,
    defence: Fixed,
) -> Fixed {
    let raw = relative_velocity.length() * bird_mass * bird_multiplier * multiplier;
    (raw - defence).max(Fixed::ZERO)
}

/// An explosion's falloff at distance `d`: `max(1 − d/area, 0)`.
pub fn falloff(distance: Fixed, area: Fixed) -> Fixed {
    if distance >= area {
        Fixed::ZERO
    } else {
        Fixed::ONE - distance / area
    }
}

/// What an explosion gives one body at `offset` (its origin less the centre): the damage and
/// the impulse. A body at the centre gets no push (Unity's `normalized` of a zero vector).
pub fn explosion_effect(offset: Vec2, area: Fixed, power: Fixed, damage: Fixed) -> (Fixed, Vec2) {
    let f = falloff(offset.length(), area);
    (damage * f, offset.normalize_or_zero().scale(power * f))
}

/// The release point actually used for a shot `offset` from the rest point (dragged no
/// further than `drag_radius`), and the launch velocity.
pub fn launch(offset: Vec2, drag_radius: Fixed, max_speed: Fixed) -> (Vec2, Vec2) {
    let dragged = match offset.normalize_with_length() {
        Some((dir, len)) if len > drag_radius => dir.scale(drag_radius),
        _ => offset,
    };
    let velocity = Vec2::new(-dragged.x, -dragged.y).scale(max_speed / drag_radius);
    (dragged, velocity)
}

/// Whether a bird whose origin is at `x`, with a collider `width` wide, is in front of the
/// slingshot (`ABBird.IsInFrontOfSlingshot`): `x + width > rest_x + 2 · drag_radius`.
pub fn in_front_of_slingshot(x: Fixed, width: Fixed, rest_x: Fixed, drag_radius: Fixed) -> bool {
    x + width > rest_x + drag_radius.mul_int(2)
}

/// Points for a destroyed pig (`ABPig.Die`).
pub const PIG_POINTS: u32 = 5_000;
/// Points for a destroyed block (`_points` of every block prefab; TNT and platforms give none).
pub const BLOCK_POINTS: u32 = 500;
/// Points for each bird left when a level ends, won or lost (`ABGameWorld`'s banners:
/// `10000 * _birds.Count`).
pub const BIRD_POINTS: u32 = 10_000;

/// The points a bird's hit gives an object it damages without destroying
/// (`ABGameObject.OnCollisionEnter2D`, `ABBlock.OnCollisionEnter2D`): `round(damage) · 10`, with
/// Unity's `Mathf.Round` (halves to even), when that is over 10 and the object's life after the
/// hit still exceeds the damage (the script subtracts the damage once more from the life it has
/// already reduced).
pub fn hit_points(damage: Fixed, life_after: Fixed) -> u32 {
    let points = round_half_even(damage).saturating_mul(10);
    if points > 10 && life_after - damage > Fixed::ZERO {
        u32::try_from(points).unwrap_or(u32::MAX)
    } else {
        0
    }
}

/// `Mathf.Round`: to the nearest integer, a half to the even one.
fn round_half_even(v: Fixed) -> i64 {
    let floor = v.floor_int();
    let frac = Fixed::from_raw(v.raw() & 0xFFFF_FFFF);
    if frac > Fixed::HALF || (frac == Fixed::HALF && floor % 2 != 0) {
        floor + 1
    } else {
        floor
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(v: f64) -> Fixed {
        Fixed::from_f64(v).unwrap()
    }
    fn v(x: f64, y: f64) -> Vec2 {
        Vec2::new(f(x), f(y))
    }
    fn close(a: Fixed, b: f64) {
        assert!((a.to_f64() - b).abs() < 1e-6, "{} vs {b}", a.to_f64());
    }

    #[test]
    fn a_falling_block_on_the_ground_is_its_own_attacker() {
        // 0.5 kg wood block landing at 3 m/s on the ground: 3 · 0.5 · 11.22 · 0.5 − 2.5 = 5.915.
        let this = Motion {
            mass: f(0.5),
            velocity: v(0.0, 0.0),
        };
        let d = collision_damage(v(0.0, 3.0), this, None, f(11.22), f(2.5));
        close(d, 5.915);
    }

    #[test]
    fn the_body_that_brings_the_speed_is_the_attacker() {
        // A 2 kg stone moving at (−4, 0) hits a 0.3 kg ice block at rest: the stone's projection
        // on v_rel = (−4, 0) is +4, the block's 0: damage to the block uses 2 kg:
        // 4 · 2 · 11.22 · 0.5 − 2 = 42.88.
        let block = Motion {
            mass: f(0.3),
            velocity: v(0.0, 0.0),
        };
        let stone = Motion {
            mass: f(2.0),
            velocity: v(-4.0, 0.0),
        };
        close(
            collision_damage(v(-4.0, 0.0), block, Some(stone), f(11.22), f(2.0)),
            42.88,
        );
        // From the stone's side v_rel = (4, 0): its own projection (−4, 0)·(4, 0) = −16 is below
        // the block's 0, so the block (0.3 kg) attacks: 4 · 0.3 · 11.22 · 0.5 − 15 < 0 → 0.
        close(
            collision_damage(v(4.0, 0.0), stone, Some(block), f(11.22), f(15.0)),
            0.0,
        );
    }

    #[test]
    fn a_body_knocked_faster_than_its_attacker_attacks_itself() {
        // A 2 kg stone at (−4, 0) hits a 0.3 kg block at rest; after the step the block moves
        // at (−6, 0), the stone at (−2, 0). From the block's side v_rel = (−4, 0): its own
        // projection 24 beats the stone's 8, so the block's 0.3 kg is the attacker:
        // 4 · 0.3 · 11.22 · 0.5 − 2 = 4.732 (with the stone's 2 kg it would be 42.88).
        let block = Motion {
            mass: f(0.3),
            velocity: v(-6.0, 0.0),
        };
        let stone = Motion {
            mass: f(2.0),
            velocity: v(-2.0, 0.0),
        };
        close(
            collision_damage(v(-4.0, 0.0), block, Some(stone), f(11.22), f(2.0)),
            4.732,
        );
    }

    #[test]
    fn on_equal_terms_a_body_is_its_own_attacker() {
        // Both at rest after the step: neither contributes more, so this body (0.5 kg) attacks:
        // 3 · 0.5 · 11.22 · 0.5 = 8.415 (the other's 2 kg would give 33.66).
        let still = |m: f64| Motion {
            mass: f(m),
            velocity: Vec2::ZERO,
        };
        close(
            collision_damage(
                v(0.0, -3.0),
                still(0.5),
                Some(still(2.0)),
                f(11.22),
                Fixed::ZERO,
            ),
            8.415,
        );
    }

    #[test]
    fn a_bird_damages_a_block_without_the_half() {
        // Red bird (0.5448 kg) at 8 m/s on wood: 8 · 0.5448 · 1 · 11.22 − 2.5 = 46.401248.
        close(
            bird_damage(v(8.0, 0.0), f(0.5448), Fixed::ONE, f(11.22), f(2.5)),
            46.401_248,
        );
        // Blue bird's ice multiplier 4.
        close(
            bird_damage(v(0.0, 2.0), f(0.1), f(4.0), f(11.22), f(2.0)),
            6.976,
        );
        // Below the defence: nothing.
        close(
            bird_damage(v(0.1, 0.0), f(0.1), Fixed::ONE, f(11.22), f(15.0)),
            0.0,
        );
    }

    #[test]
    fn explosions_fall_off_linearly_and_push_outward() {
        // TNT (area 2.5, power 4, damage 100) and a block 1.5 m to its right: factor 0.4.
        let (d, j) = explosion_effect(v(1.5, 0.0), f(2.5), f(4.0), f(100.0));
        close(d, 40.0);
        close(j.x, 1.6);
        close(j.y, 0.0);
        // At or beyond the area: nothing; at the centre: damage but no push.
        assert_eq!(
            explosion_effect(v(0.0, 2.5), f(2.5), f(4.0), f(100.0)).0,
            Fixed::ZERO
        );
        let (d0, j0) = explosion_effect(Vec2::ZERO, f(2.5), f(4.0), f(100.0));
        close(d0, 100.0);
        assert_eq!(j0, Vec2::ZERO);
    }

    #[test]
    fn the_launch_speed_scales_with_the_drag_over_the_radius() {
        // Every bird's drag radius is 1 m; the rule is (rest − release) / radius · max speed.
        // With a 0.5 m radius, a 0.25 m drag is half the radius: half of 10 m/s, 5 m/s (a
        // product with the radius instead would give 1.25).
        let (p, vel) = launch(v(-0.25, 0.0), f(0.5), f(10.0));
        close(p.x, -0.25);
        close(vel.x, 5.0);
        // Past the radius: clamped to it, full speed.
        let (p, vel) = launch(v(0.0, -2.0), f(0.5), f(10.0));
        close(p.y, -0.5);
        close(vel.y, 10.0);
    }

    #[test]
    fn a_launch_is_clamped_to_the_drag_radius() {
        // Dragged 0.5 m left: half speed to the right.
        let (p, vel) = launch(v(-0.5, 0.0), Fixed::ONE, f(10.0));
        close(p.x, -0.5);
        close(vel.x, 5.0);
        close(vel.y, 0.0);
        // Dragged (−3, −4) (5 m): clamped to 1 m along it, full speed 10 up and to the right.
        let (p, vel) = launch(v(-3.0, -4.0), Fixed::ONE, f(10.0));
        close(p.x, -0.6);
        close(p.y, -0.8);
        close(vel.x, 6.0);
        close(vel.y, 8.0);
    }

    #[test]
    fn hit_points_round_halves_to_even_and_need_life_left() {
        // 3.5 rounds to 4: 40 points; 2.5 to 2: 20; 1.4 to 1: 10, not over 10: none.
        assert_eq!(hit_points(f(3.5), f(100.0)), 40);
        assert_eq!(hit_points(f(2.5), f(100.0)), 20);
        assert_eq!(hit_points(f(4.5), f(100.0)), 40);
        assert_eq!(hit_points(f(1.4), f(100.0)), 0);
        // Life after the hit 5, damage 4.6: 5 − 4.6 > 0, 50 points; life 4 left: none.
        assert_eq!(hit_points(f(4.6), f(5.0)), 50);
        assert_eq!(hit_points(f(4.6), f(4.0)), 0);
        // Life left exactly the damage: not more, no points.
        assert_eq!(hit_points(f(5.0), f(5.0)), 0);
    }

    #[test]
    fn a_bird_is_in_front_of_the_slingshot_only_past_two_drag_radii() {
        // Rest point x −12.15, drag radius 1: in front once x + width > −10.15.
        let (rest, r) = (f(-12.15), Fixed::ONE);
        assert!(in_front_of_slingshot(f(-10.5), f(0.36), rest, r), "−10.14");
        // Exactly at −10.15: not past it (the original's `>`).
        assert!(!in_front_of_slingshot(f(-10.5), f(0.35), rest, r));
        assert!(!in_front_of_slingshot(f(-10.6), f(0.36), rest, r), "−10.24");
        // Twice the radius, not once: −11.14 with a radius of 1 is behind.
        assert!(!in_front_of_slingshot(f(-11.5), f(0.36), rest, r));
    }
}
