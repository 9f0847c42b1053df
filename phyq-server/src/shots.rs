//! A protocol shot as a game shot: the release point from screen pixels to the game's metres
//! relative to the bird's rest point, and the tap time.
//!
//! Cartesian: `(x, y)` is where the bird is let go, in screen pixels of the 640 × 480 view
//! (x right, y down), as the original client sends it (the Java agents add their drag to the
//! slingshot point before sending). Polar (the AIBirds convention): the bird is pulled `r`
//! pixels back from its rest point, opposite to the launch angle `theta` in hundredths of a
//! degree (counter-clockwise from +x, y up). `t1` is ignored, as the original game ignores it.
//! `t2` is the tap time in milliseconds of game time after the launch; 0 or less: no tap (the
//! original's stopwatch is wall-clock time divided by the simulation speed; rephyre's rule is
//! [`phyq::game::screen_shot`]'s). The game clamps the drag to the bird's drag
//! radius (1 m, about 18 pixels), as Science Birds does.

use crate::wire::{Aim, ShotArgs};
use engine::{sin_cos, Fixed, Vec2};
use phyq::game::{screen_shot, Game, Shot, MAX_TAP_MS};
use phyq::picture::{Framing, WIDTH};

/// Largest release coordinate accepted, in pixels either way (far beyond any screen; the game
/// clamps the drag to about 18 pixels anyway).
pub const MAX_COORDINATE: i32 = 100_000;

/// A shot as received.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShotInput {
    pub aim: Aim,
    pub args: ShotArgs,
}

/// The game's shot for a protocol shot, or why there is none.
pub fn shot_of(input: &ShotInput, game: &Game, framing: &Framing) -> Result<Shot, String> {
    let ShotArgs { a, b, t2, .. } = input.args;
    for (what, v) in [("x", a), ("y", b)] {
        if v.unsigned_abs() > MAX_COORDINATE as u32 {
            return Err(format!(
                "release {what} = {v} is out of range (at most {MAX_COORDINATE} pixels either way)"
            ));
        }
    }
    if i64::from(t2) > MAX_TAP_MS {
        return Err(format!(
            "tap time {t2} ms is out of range (at most {MAX_TAP_MS} ms after the launch)"
        ));
    }
    let rest = game.rest_point();
    match input.aim {
        Aim::Cartesian => Ok(screen_shot(
            i64::from(a),
            i64::from(b),
            i64::from(t2),
            rest,
            framing,
        )),
        Aim::Polar => {
            if b < 0 {
                return Err(format!("polar shot radius {b} is negative"));
            }
            let theta = Fixed::from_int(a)
                .div_int(100)
                .mul_div(Fixed::PI, Fixed::from_int(180));
            let (s, c) = sin_cos(theta);
            let r = framing.width.div_int(WIDTH as i64).mul_int(i64::from(b));
            // The tap as a Cartesian shot takes it; the release from the pull.
            let tap = screen_shot(0, 0, i64::from(t2), rest, framing).tap;
            Ok(Shot {
                release: Vec2::new(-(c * r), -(s * r)),
                tap,
            })
        }
    }
}
