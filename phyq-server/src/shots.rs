//! A protocol shot as a game shot: the release point from screen pixels to the game's metres
//! relative to the bird's rest point, and the tap time.
//!
//! Cartesian: `(x, y)` is where the bird is let go, in screen pixels of the 640 × 480 view
//! (x right, y down), as the original client sends it (the Java agents add their drag to the
//! slingshot point before sending). Polar (the AIBirds convention): the bird is pulled `r`
//! pixels back from its rest point, opposite to the launch angle `theta` in hundredths of a
//! degree (counter-clockwise from +x, y up). `t1` is ignored, as the original game ignores it.
//! `t2` is the tap time in milliseconds of game time after the launch; 0 or less: no tap. The
//! original fires the power on the first frame at least `t2` ms after the release (a wall-clock
//! stopwatch divided by the simulation speed); rephyre taps at the first physics step whose time
//! since the launch is at least `t2` (20 ms a step). The game clamps the drag to the bird's drag
//! radius (1 m, about 18 pixels), as Science Birds does.

use crate::wire::{Aim, ShotArgs};
use engine::{sin_cos, Fixed, Vec2};
use phyq::game::{Game, Shot, MAX_SHOT_STEPS, STEPS_PER_SECOND};
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
    let per_pixel = framing.width.div_int(WIDTH as i64);
    let release = match input.aim {
        Aim::Cartesian => {
            // The screen point (pixel centre) in the world, then relative to the rest point.
            let x = framing.left + per_pixel.mul_int(i64::from(a));
            let y = framing.top - per_pixel.mul_int(i64::from(b));
            Vec2::new(x, y) - game.rest_point()
        }
        Aim::Polar => {
            if b < 0 {
                return Err(format!("polar shot radius {b} is negative"));
            }
            let theta = Fixed::from_int(a)
                .div_int(100)
                .mul_div(Fixed::PI, Fixed::from_int(180));
            let (s, c) = sin_cos(theta);
            let r = per_pixel.mul_int(i64::from(b));
            Vec2::new(-(c * r), -(s * r))
        }
    };
    let step_ms = 1000 / i64::from(STEPS_PER_SECOND);
    let max_ms = i64::from(MAX_SHOT_STEPS) * step_ms;
    let tap = match i64::from(t2) {
        ms if ms <= 0 => None,
        ms if ms > max_ms => {
            return Err(format!(
                "tap time {ms} ms is out of range (at most {max_ms} ms after the launch)"
            ))
        }
        // The first whole step at or after it, in seconds (exact: a step is 1/50 s).
        ms => {
            let steps = (ms + step_ms - 1) / step_ms;
            Some(Fixed::from_int(steps as i32).div_int(i64::from(STEPS_PER_SECOND)))
        }
    };
    Ok(Shot { release, tap })
}
