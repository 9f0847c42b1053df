//! Aiming: the release that sends a bird through a point. A bird flies without drag under its
//! launch gravity, so its path is a parabola and the launch angle through a target has a closed
//! form (two arcs, low and high, when the target is in reach). The soundness search and the
//! agents that aim (the pig shooter) ask here; the world then decides what the shot does.
//!
//! All in fixed point, so the same targets give the same releases on every platform.

use super::play::{Game, Shot};
use super::rules::launch;
use engine::{sin_cos, Fixed, Vec2};

/// What the next bird's launch depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    /// Farthest release from the rest point (m); a longer drag is clamped to it.
    pub drag_radius: Fixed,
    /// Launch speed at a full drag (m/s); speed is proportional to the drag.
    pub full_speed: Fixed,
    /// Downward acceleration in flight (m/s², positive).
    pub gravity: Fixed,
    /// Whether the bird has a power to use at a tap.
    pub has_power: bool,
}

/// Which of the two arcs through a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arc {
    Low,
    High,
}

/// A release aimed at a point, and when the bird gets there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Aimed {
    /// The release offset from the rest point (m).
    pub release: Vec2,
    /// Seconds from the launch until the bird is above or below the target.
    pub flight_time: Fixed,
}

impl Aimed {
    /// This aim turned by `degrees` (counter-clockwise), the same drag.
    pub fn turned(&self, degrees: i32) -> Aimed {
        let (s, c) = sin_cos(crate::number::radians(Fixed::from_int(degrees)));
        let r = self.release;
        Aimed {
            release: Vec2::new(r.x * c - r.y * s, r.x * s + r.y * c),
            flight_time: self.flight_time,
        }
    }

    /// The shot of this aim, tapped `tap` seconds after the launch (or never).
    pub fn shot(&self, tap: Option<Fixed>) -> Shot {
        Shot {
            release: self.release,
            tap,
        }
    }
}

/// The release at `power` (the share of the drag radius, in (0, 1]) whose arc passes through
/// `target`, for a bird resting at `rest`; `None` when the target is behind the slingshot or
/// out of reach at that power.
pub fn aim(reach: &Reach, rest: Vec2, target: Vec2, power: Fixed, arc: Arc) -> Option<Aimed> {
    let power = power.clamp(Fixed::ratio(1, 100), Fixed::ONE);
    let speed = reach.full_speed * power;
    let drag = reach.drag_radius * power;
    // The bird leaves from the release point, a drag behind the rest point: solve from the
    // rest point, then again from the release that gives (a few rounds settle it to well under
    // a centimetre at the target).
    let mut from = rest;
    let mut found = None;
    for _ in 0..4 {
        let (dir, t) = direction(speed, reach.gravity, target - from, arc)?;
        found = Some(Aimed {
            release: Vec2::new(-dir.x, -dir.y).scale(drag),
            flight_time: t,
        });
        from = rest - dir.scale(drag);
    }
    found
}

/// Unit launch direction with speed `v` under gravity `g` through `d` (from the launch point),
/// and the flight time to it.
fn direction(v: Fixed, g: Fixed, d: Vec2, arc: Arc) -> Option<(Vec2, Fixed)> {
    // Too close to the slingshot's vertical for the closed form to be well conditioned.
    if d.x < Fixed::HALF || g <= Fixed::ZERO {
        return None;
    }
    let v2 = v * v;
    let disc = v2 * v2 - g * (g * d.x * d.x + (d.y * v2).mul_int(2));
    if disc.is_negative() {
        return None;
    }
    let root = disc.sqrt();
    let num = match arc {
        Arc::Low => v2 - root,
        Arc::High => v2 + root,
    };
    let tan = num / (g * d.x);
    let (dir, _) = Vec2::new(Fixed::ONE, tan).normalize_with_length()?;
    if dir.x <= Fixed::ZERO {
        return None;
    }
    Some((dir, d.x / (v * dir.x)))
}

impl Game {
    /// What the next bird's launch depends on, if a bird is left.
    pub fn next_reach(&self) -> Option<Reach> {
        let (drag_radius, has_power, gravity_scale) = self.next_bird_launch()?;
        Some(Reach {
            drag_radius,
            full_speed: self.max_launch_speed(),
            gravity: -(self.world().settings().gravity.y * gravity_scale),
            has_power,
        })
    }

    /// Seconds from the launch of the next bird released at `release` (offset from the rest
    /// point, m) until its drag-free arc comes down to the ground: the flight that a tap "at a
    /// share of the trajectory" refers to. `None` when no bird is left.
    pub fn flight_time(&self, release: Vec2) -> Option<Fixed> {
        let reach = self.next_reach()?;
        let (dragged, v) = launch(release, reach.drag_radius, reach.full_speed);
        let height = (self.rest_point() + dragged).y - self.ground_level();
        // height + v.y·t − g·t²/2 = 0, the later root.
        let g = reach.gravity.max(Fixed::ratio(1, 1000));
        let disc = (v.y * v.y + (g * height).mul_int(2)).max(Fixed::ZERO);
        Some(((v.y + disc.sqrt()) / g).max(Fixed::ZERO))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(v: f64) -> Fixed {
        Fixed::from_f64(v).unwrap()
    }

    /// Where a drag-free projectile launched with `vel` from `p` is after `t` seconds.
    fn fly(p: Vec2, vel: Vec2, g: Fixed, t: Fixed) -> Vec2 {
        Vec2::new(p.x + vel.x * t, p.y + vel.y * t - (g * t * t) * Fixed::HALF)
    }

    #[test]
    fn both_arcs_pass_through_the_target() {
        let reach = Reach {
            drag_radius: Fixed::ONE,
            full_speed: Fixed::from_int(10),
            gravity: f(9.81 * 0.48),
            has_power: false,
        };
        let rest = Vec2::new(f(-12.0), f(-1.7));
        let target = Vec2::new(f(-2.3), f(-1.0));
        for arc in [Arc::Low, Arc::High] {
            for power in [Fixed::ONE, f(0.8)] {
                let a = aim(&reach, rest, target, power, arc).expect("in reach");
                let release = rest + a.release;
                let vel = Vec2::new(-a.release.x, -a.release.y).scale(reach.full_speed);
                let at = fly(release, vel, reach.gravity, a.flight_time);
                assert!(
                    (at - target).length() < f(0.01),
                    "{arc:?} {power:?}: {at:?} vs {target:?}"
                );
                assert!((a.release.length() - reach.drag_radius * power).abs() < f(0.001));
            }
        }
        let low = aim(&reach, rest, target, Fixed::ONE, Arc::Low).unwrap();
        let high = aim(&reach, rest, target, Fixed::ONE, Arc::High).unwrap();
        assert!(high.flight_time > low.flight_time);
    }

    /// A turn is counter-clockwise and keeps the drag and the flight time: the release
    /// (−0.6, −0.8) turned 90° is (0.8, −0.6); turned −30° (cos 0.8660254, sin −0.5) it is
    /// (−0.6 · 0.8660254 − 0.8 · 0.5, 0.6 · 0.5 − 0.8 · 0.8660254) = (−0.9196152, −0.3928203).
    #[test]
    fn a_turned_aim_keeps_its_drag_and_flight_time() {
        let a = Aimed {
            release: Vec2::new(f(-0.6), f(-0.8)),
            flight_time: f(1.25),
        };
        for (degrees, x, y) in [(90, 0.8, -0.6), (-30, -0.919_615_2, -0.392_820_3)] {
            let t = a.turned(degrees);
            assert!(
                (t.release - Vec2::new(f(x), f(y))).length() < f(1e-6),
                "{degrees}°: {:?}",
                t.release
            );
            assert_eq!(t.flight_time, a.flight_time);
        }
    }

    /// The closed form is used from half a metre in front of the launch point on: at 10 m/s
    /// under 10 m/s², a point 0.5 m straight ahead is reached on the low arc at
    /// tan θ = (100 − √(10⁴ − 10 · 10 · 0.25)) / (10 · 0.5) = (100 − √9975) / 5 = 0.0250156,
    /// after 0.5 / (10 cos θ) = 0.0500156 s; one a hair nearer is refused.
    #[test]
    fn the_closed_form_starts_half_a_metre_ahead() {
        let (v, g) = (Fixed::from_int(10), Fixed::from_int(10));
        let (dir, t) = direction(v, g, Vec2::new(Fixed::HALF, Fixed::ZERO), Arc::Low).unwrap();
        assert!((dir.y / dir.x - f(0.025_015_6)).abs() < f(1e-6), "{dir:?}");
        assert!((t - f(0.050_015_6)).abs() < f(1e-6), "{t:?}");
        let nearer = Vec2::new(Fixed::HALF - Fixed::from_raw(1), Fixed::ZERO);
        assert_eq!(direction(v, g, nearer, Arc::Low), None);
    }

    #[test]
    fn out_of_reach_and_behind_give_none() {
        let reach = Reach {
            drag_radius: Fixed::ONE,
            full_speed: Fixed::from_int(10),
            gravity: f(4.7),
            has_power: false,
        };
        let rest = Vec2::ZERO;
        let in_reach =
            |x: f64| aim(&reach, rest, Vec2::new(f(x), f(0.0)), Fixed::ONE, Arc::Low).is_some();
        // Range at 10 m/s and 4.7 m/s² is about 21 m.
        assert!(!in_reach(30.0));
        assert!(!in_reach(-5.0));
        assert!(in_reach(15.0));
    }
}
