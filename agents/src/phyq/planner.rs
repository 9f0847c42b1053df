//! The paper's pig shooter as it ran: its planner, its choices and what the environment wrapper
//! did to its shot, on the boxes its state reader makes of the ground truth
//! ([`phyq::screen::AgentView`]). Sources, read not copied: the Phy-Q framework's
//! `Utils/trajectory_planner.py` (itself the AIBirds Java planner), `HeuristicAgents/PigShooter.py`
//! and `SBEnvironment/SBEnvironmentWrapper.py`.
//!
//! The planner's model, in screen pixels (x right, y down), of the slingshot's box with its sides
//! swapped as the pig shooter swaps them (`w` its x extent, `h` its y extent, `(x, y)` its top
//! left corner):
//!
//! * reference point: `(⌊x + 0.45 w⌋, ⌊y + 0.35 w⌋)` (both from `w`);
//! * scale `s = w + h`, launch speed `v = 9.5/2.7 · s`, gravity `g = 0.48 · 9.81/2.7 · s` per
//!   planner time unit;
//! * a pig's target point: its box's corner plus half its extents, each from the other axis
//!   (the reader's `get_centre_point` mixes them; equal for a round pig);
//! * the two launch angles of a drag-free projectile at speed `v` through the target, each raised
//!   by a term the original adds against its rounding (1e-4 and 5e-5 times the distance in
//!   pixels); the release point `5 h` pixels from the reference point, opposite to the angle,
//!   truncated to whole pixels; the pig shooter takes either at random; when neither exists,
//!   the release point `(−600, 560)`;
//! * a tap at a share `p` of the way: the x `⌊x + p·(target x − x)⌋` on the screen, and the time
//!   the model takes to get there, in milliseconds (815 a planner time unit), truncated; a red
//!   or black bird no tap; yellow 65–89 %, white 50–69 %, blue 65–84 % (the pig shooter's
//!   intervals).
//!
//! The pig shooter writes its shot from the box's top-left corner and the wrapper adds it to the
//! reference point: the release the game receives lies `(⌊x + 0.45 w⌋ − x, ⌊y + 0.35 w⌋ − y)`
//! pixels (about (5, 4)) right of and below the planned one. A tap time of 0 becomes, for a
//! yellow, white or blue bird, a random 65–89, 50–69 or 65–84 *milliseconds* (the wrapper reuses
//! the shares as times), so the bird taps near the slingshot, where the game refuses a tap.
//!
//! The planner is a float model: it runs in `f64` with the `libm` crate's functions (the same
//! code, so the same bits, on every platform); what leaves this module is whole pixels and
//! milliseconds. Where the original would raise a math domain error (a rounding that pushes a
//! cosine past 1, a target on the reference point), this planner says no arc reaches the pig.
#![allow(clippy::float_arithmetic)] // the original planner's float model (module doc)

use phyq::screen::{AgentView, PixelBox};
use phyq::BirdKind;

/// The release point the pig shooter uses when no arc reaches its pig (screen pixels).
pub const NO_ARC_RELEASE: (i64, i64) = (-600, 560);
/// Planner time units to milliseconds.
const TIME_UNIT_MS: f64 = 815.0;
/// The model's launch speed per pixel of scale, and its gravity (Science Birds' 0.48 g).
const SPEED: f64 = 9.5 / 2.7;
const GRAVITY: f64 = 0.48 * 9.81 / 2.7;

/// The slingshot's box as the pig shooter holds it (module doc): top-left corner, `w` the x
/// extent, `h` the y extent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sling {
    pub x: i64,
    pub y: i64,
    pub w: i64,
    pub h: i64,
}

impl Sling {
    /// The pig shooter's slingshot from the reader's box.
    pub fn of(b: PixelBox) -> Sling {
        Sling {
            x: b.min_x,
            y: b.min_y,
            w: b.max_x - b.min_x,
            h: b.max_y - b.min_y,
        }
    }

    /// The reference point the planner measures from and the wrapper adds shots to.
    pub fn reference(&self) -> (i64, i64) {
        let w = self.w as f64;
        (
            (self.x as f64 + 0.45 * w) as i64,
            (self.y as f64 + 0.35 * w) as i64,
        )
    }

    fn scale(&self) -> f64 {
        (self.h + self.w) as f64
    }

    /// The release point at `theta` radians (counter-clockwise from +x) at full drag.
    fn release_at(&self, theta: f64) -> (i64, i64) {
        let (rx, ry) = self.reference();
        let mag = (self.h * 5) as f64;
        (
            (rx as f64 - mag * libm::cos(theta)) as i64,
            (ry as f64 + mag * libm::sin(theta)) as i64,
        )
    }
}

/// The point the pig shooter aims at on a pig's box (module doc).
pub fn pig_target(b: PixelBox) -> (f64, f64) {
    let x_extent = (b.max_x - b.min_x) as f64;
    let y_extent = (b.max_y - b.min_y) as f64;
    (
        b.min_x as f64 + y_extent / 2.0,
        b.min_y as f64 + x_extent / 2.0,
    )
}

/// The release points of the two arcs through `target`, the lower first; `None` when neither
/// reaches it.
pub fn launch_points(sling: &Sling, target: (f64, f64)) -> Option<[(i64, i64); 2]> {
    let scale = sling.scale();
    let (rx, ry) = sling.reference();
    let x = target.0 - rx as f64;
    let y = -(target.1 - ry as f64);
    let g = GRAVITY * scale;
    let v = SPEED * scale;
    let (x2, y2, v2) = (x * x, y * y, v * v);
    let room = libm::pow(v, 4.0) - g * g * x2 - 2.0 * y * g * v2;
    if room < 0.0 {
        return None;
    }
    let root = room.sqrt();
    let below = 2.0 * v2 * (x2 + y2);
    let cos_low = ((x2 * v2 - x2 * y * g + x2 * root) / below).sqrt();
    let cos_high = ((x2 * v2 - x2 * y * g - x2 * root) / below).sqrt();
    let distance = (x2 + y2).sqrt();
    let low = libm::acos(cos_low) + distance * 0.0001;
    let high = libm::acos(cos_high) + distance * 0.00005;
    if !(low.is_finite() && high.is_finite()) {
        return None;
    }
    Some([sling.release_at(low), sling.release_at(high)])
}

/// The tap time, in milliseconds after the launch, of a tap at `share_percent` % of the way to
/// `target` after a release at `release`; 0 for a share of 0 (no tap).
pub fn tap_time_ms(
    sling: &Sling,
    release: (i64, i64),
    target: (f64, f64),
    share_percent: i64,
) -> i64 {
    if share_percent == 0 {
        return 0;
    }
    let share = share_percent as f64 / 100.0;
    let tap_x = ((target.0 - sling.x as f64) * share + sling.x as f64) as i64;
    let (rx, ry) = sling.reference();
    let theta = libm::atan2((release.1 - ry) as f64, (rx - release.0) as f64);
    let scale = sling.scale();
    let pullback = scale * 0.4 * libm::cos(theta);
    let way = ((tap_x - rx) as f64 + pullback) / scale;
    (way / (SPEED * libm::cos(theta)) * TIME_UNIT_MS) as i64
}

/// The share of the way (percent) at which the pig shooter taps a bird: the smallest and the
/// number of further choices (`65 + randint(0, 24)` for a yellow bird); `None`: no tap. The
/// wrapper draws a tap time in milliseconds from the same numbers when the pig shooter's is 0.
pub fn tap_choices(bird: BirdKind) -> Option<(i64, i64)> {
    match bird {
        BirdKind::Red | BirdKind::Black => None,
        BirdKind::Yellow => Some((65, 24)),
        BirdKind::White => Some((50, 19)),
        BirdKind::Blue => Some((65, 19)),
    }
}

/// The pig shooter's random choices for one shot: which pig (an index into the view's pigs),
/// which arc, its tap's share of the way, and the wrapper's tap time should the pig shooter's be
/// 0 (each as the original's `random.randint` would give it; the tap numbers are ignored for a
/// bird without a tap).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choices {
    pub pig: usize,
    pub high: bool,
    pub tap_share: i64,
    pub wrapper_tap_ms: i64,
}

/// A shot as the game receives it: the release point in screen pixels and the tap time in
/// milliseconds (0 or less: no tap).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScreenShot {
    pub x: i64,
    pub y: i64,
    pub tap_ms: i64,
}

/// The shot the pig shooter, through the wrapper, sends for `bird` on `view` (module doc);
/// `None` when the view has no slingshot or no pig (the original agent then asks its
/// environment for a random action, which the wrapper does not have).
pub fn pig_shooter_shot(view: &AgentView, bird: BirdKind, choices: &Choices) -> Option<ScreenShot> {
    let sling = Sling::of(view.slingshot?);
    let pig = *view.pigs.get(choices.pig)?;
    let target = pig_target(pig);
    let release = match launch_points(&sling, target) {
        None => NO_ARC_RELEASE,
        Some([low, high]) => {
            if choices.high {
                high
            } else {
                low
            }
        }
    };
    let tapped = tap_choices(bird).is_some();
    let share = if tapped { choices.tap_share } else { 0 };
    let mut tap_ms = tap_time_ms(&sling, release, target, share);
    if tap_ms == 0 && tapped {
        tap_ms = choices.wrapper_tap_ms;
    }
    // Written from the box's corner by the pig shooter, added to the reference point by the
    // wrapper.
    let (rx, ry) = sling.reference();
    Some(ScreenShot {
        x: rx + (release.0 - sling.x),
        y: ry - (sling.y - release.1),
        tap_ms,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The slingshot's box of every built-in task (12 × 38 pixels at (92, 248)).
    const SLING: PixelBox = PixelBox {
        min_x: 92,
        min_y: 248,
        max_x: 104,
        max_y: 286,
    };

    fn view(pig_x: i64) -> AgentView {
        AgentView {
            slingshot: Some(SLING),
            pigs: vec![PixelBox {
                min_x: pig_x,
                min_y: 270,
                max_x: pig_x + 10,
                max_y: 280,
            }],
        }
    }

    #[test]
    fn the_reference_point_and_the_wrappers_offset() {
        let s = Sling::of(SLING);
        assert_eq!((s.w, s.h), (12, 38));
        // ⌊92 + 0.45·12⌋ = ⌊97.4⌋, ⌊248 + 0.35·12⌋ = ⌊252.2⌋.
        assert_eq!(s.reference(), (97, 252));
        // Out of reach: the fixed release point, moved by the wrapper by (97 − 92, 252 − 248).
        let c = Choices {
            pig: 0,
            high: false,
            tap_share: 0,
            wrapper_tap_ms: 0,
        };
        let shot = pig_shooter_shot(&view(5_000), BirdKind::Red, &c).unwrap();
        assert_eq!((shot.x, shot.y, shot.tap_ms), (-595, 564, 0));
        assert_eq!(
            pig_shooter_shot(&view(5_000), BirdKind::Red, &Choices { pig: 1, ..c }),
            None
        );
    }

    #[test]
    fn a_tap_time_of_zero_becomes_the_wrappers_milliseconds() {
        // A pig whose tap point lies where the model's time is 0 ms (left of the slingshot: the
        // tap point x ⌊92 + 0.65·(target − 92)⌋ then lies about the model's pull-back behind the
        // reference point): the pig shooter sends 0, the wrapper its own draw for a bird with a
        // power, nothing for a red or black bird.
        let s = Sling::of(SLING);
        let share = 65;
        let pig_x = (0..100)
            .find(|&x| {
                let t = pig_target(view(x).pigs[0]);
                launch_points(&s, t).is_some_and(|[low, _]| tap_time_ms(&s, low, t, share) == 0)
            })
            .expect("a pig near the slingshot");
        let c = Choices {
            pig: 0,
            high: false,
            tap_share: share,
            wrapper_tap_ms: 77,
        };
        assert_eq!(
            pig_shooter_shot(&view(pig_x), BirdKind::Yellow, &c)
                .unwrap()
                .tap_ms,
            77
        );
        assert_eq!(
            pig_shooter_shot(&view(pig_x), BirdKind::Black, &c)
                .unwrap()
                .tap_ms,
            0
        );
        // Farther, the model's own time, growing with the share.
        let far = |share| {
            pig_shooter_shot(
                &view(400),
                BirdKind::Blue,
                &Choices {
                    tap_share: share,
                    ..c
                },
            )
            .unwrap()
            .tap_ms
        };
        assert!(far(65) > 0 && far(84) > far(65), "{} {}", far(65), far(84));
    }
}
