//! Actions: from the user's numbers in [0, 1] to validated user balls (SPEC §4), and the
//! half-pixel neighbourhood of the stable-solution test (SPEC §8).
//!
//! This is a boundary module: actions arrive as f64, so the validity rule is evaluated in f64.
//! It stays deterministic on every platform because it uses only IEEE-754 operations that are
//! correctly rounded (`+ − × ÷ √`, comparisons, `trunc`, `round_ties_even`) — no libm function
//! whose last bit may differ between platforms. The scene geometry it tests against is the
//! task's Q32.32 geometry (rotated once, with the engine's deterministic sine and cosine, when
//! the task was made), converted to f64 exactly (|raw| < 2^53).
//!
//! Decisions checked against the original's outcomes on 141,680 actions
//! (`tests/validity.rs`): the in-scene and two-ball distance rules use the unquantized values;
//! the occlusion test uses the **quantized** ball (truncated centre, radius rounded half to
//! even). Testing occlusion on the unquantized ball disagrees with the original on about 2,000
//! of those actions (862 in the ball tier alone, `occlusion_must_use_the_quantized_ball`); the
//! quantized ball agrees on all of them. The closest call in that data is 3.8e-6 px from the
//! 1e-5 margin, far above any rounding here, so no agreement rests on a float tie.
#![allow(clippy::float_arithmetic)]

use core::fmt;

use engine::Fixed;

use crate::model::{all_strictly_one_side, cross_exact, ActionTier, Occluder, Task};
use crate::simulation::UserBall;

/// Scene size (px).
const SCENE: f64 = 256.0;
/// Overlap tolerance of the occlusion test (px): exactly touching is not an overlap.
const OCCLUSION_EPS: f64 = 1e-5;
/// Smallest gap between two user balls (px), on unquantized values.
const MIN_BALL_GAP: f64 = 1.0;

/// Why an action is invalid (it is then never simulated and does not count as an attempt).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InvalidAction {
    /// The action has the wrong number of components for its tier.
    WrongLength { expected: usize, found: usize },
    /// Component `component` is NaN or infinite.
    NotFinite { component: usize },
    /// Component `component` is outside [0, 1].
    OutOfRange { component: usize },
    /// Ball `ball` (unquantized) does not lie inside the 256 × 256 scene.
    OutsideScene { ball: usize },
    /// The two balls (unquantized) are closer than 1 px.
    BallsTooClose,
    /// Ball `ball` (quantized) overlaps scene body `body` (walls included).
    Occluded { ball: usize, body: usize },
}

impl fmt::Display for InvalidAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InvalidAction::WrongLength { expected, found } => {
                write!(
                    f,
                    "action has {found} components, the tier takes {expected}"
                )
            }
            InvalidAction::NotFinite { component } => {
                write!(f, "component {component} is NaN or infinite")
            }
            InvalidAction::OutOfRange { component } => {
                write!(f, "component {component} is outside [0, 1]")
            }
            InvalidAction::OutsideScene { ball } => {
                write!(f, "ball {ball} is not inside the scene")
            }
            InvalidAction::BallsTooClose => {
                f.write_str("the two balls overlap or are closer than 1 px")
            }
            InvalidAction::Occluded { ball, body } => {
                write!(f, "ball {ball} overlaps scene body {body}")
            }
        }
    }
}

impl std::error::Error for InvalidAction {}

/// A valid action: the user balls to add to the scene (px), in action order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ValidAction {
    tier: ActionTier,
    balls: Vec<UserBall>,
}

impl ValidAction {
    /// The tier the action was validated for.
    pub fn tier(&self) -> ActionTier {
        self.tier
    }

    /// The balls, ready for [`Task::build_world`].
    pub fn balls(&self) -> &[UserBall] {
        &self.balls
    }
}

/// One ball of an action, mapped to px but not yet quantized.
#[derive(Clone, Copy)]
struct RawBall {
    x: f64,
    y: f64,
    r: f64,
}

/// Validate `action` (tier `tier`) for `task` and quantize it (SPEC §4).
///
/// Rules, in this order (the first that fails is the reason):
/// 1. the action has 3 (`ball`) or 6 (`two_balls`) components;
/// 2. every component is finite and in [0, 1] (−0.0 counts as 0);
/// 3. mapping x = 255·a0, y = 255·a1, r = 2 + 30·a2, each ball lies in the scene:
///    r ≤ x ≤ 256 − r and r ≤ y ≤ 256 − r (unquantized);
/// 4. `two_balls`: centre distance ≥ r1 + r2 + 1 px (unquantized);
/// 5. quantized (x, y truncated, r rounded half to even), no ball overlaps a scene body
///    ([`check_occlusion`]).
///
/// Rules 1–4 do not depend on the task ([`check_action_space`]); only rule 5 looks at the scene.
/// `tier` is the tier of the action; it is usually, but need not be, the task's tier.
pub fn validate_action(
    task: &Task,
    tier: ActionTier,
    action: &[f64],
) -> Result<ValidAction, InvalidAction> {
    let balls: Vec<UserBall> = map_action(tier, action)?.iter().map(quantize).collect();
    check_occlusion(task, &balls)?;
    Ok(ValidAction { tier, balls })
}

/// Rules 1–4 of [`validate_action`], the ones that do not depend on the scene: the action is
/// well formed and its balls lie in the scene and apart. The original's action mapper applies
/// exactly these when it samples (`valid_only`), so its random actions never fail them; only
/// occlusion makes one of its random actions invalid.
pub fn check_action_space(tier: ActionTier, action: &[f64]) -> Result<(), InvalidAction> {
    map_action(tier, action).map(|_| ())
}

/// The `*index`-th and following draws of the counter-based stream (seed, stream), the first
/// that passes [`check_action_space`]: the original's way of sampling a random action (uniform
/// in [0, 1]^d, redrawing until its balls lie in the scene and apart). `*index` is left just past
/// the draw returned, so calling again gives the next action of the stream.
///
/// 76 % of uniform draws pass in the ball tier and 54 % in the two-ball tier, so the loop ends
/// after 1.3 or 1.8 draws on average.
pub fn sample_action(tier: ActionTier, seed: u64, stream: u64, index: &mut u64) -> Vec<f64> {
    loop {
        let a = crate::rng::uniform_vector(seed, stream, *index, tier.action_len());
        *index += 1;
        if check_action_space(tier, &a).is_ok() {
            return a;
        }
    }
}

/// Rules 1–4: the action's balls in px, unquantized.
fn map_action(tier: ActionTier, action: &[f64]) -> Result<Vec<RawBall>, InvalidAction> {
    if action.len() != tier.action_len() {
        return Err(InvalidAction::WrongLength {
            expected: tier.action_len(),
            found: action.len(),
        });
    }
    for (component, &a) in action.iter().enumerate() {
        if !a.is_finite() {
            return Err(InvalidAction::NotFinite { component });
        }
        // -0.0 >= 0.0 holds: negative zero is a valid 0.
        if !(0.0..=1.0).contains(&a) {
            return Err(InvalidAction::OutOfRange { component });
        }
    }
    let raw: Vec<RawBall> = action
        .chunks_exact(3)
        .map(|a| RawBall {
            x: 255.0 * a[0],
            y: 255.0 * a[1],
            r: 2.0 + 30.0 * a[2],
        })
        .collect();
    for (ball, b) in raw.iter().enumerate() {
        let inside = b.r <= b.x && b.x <= SCENE - b.r && b.r <= b.y && b.y <= SCENE - b.r;
        if !inside {
            return Err(InvalidAction::OutsideScene { ball });
        }
    }
    if let [a, b] = raw[..] {
        let (dx, dy) = (a.x - b.x, a.y - b.y);
        if (dx * dx + dy * dy).sqrt() < a.r + b.r + MIN_BALL_GAP {
            return Err(InvalidAction::BallsTooClose);
        }
    }
    Ok(raw)
}

/// Quantize: centre truncated to whole pixels, radius rounded half to even. The inputs are
/// in [0, 255] and [2, 32] here, so the integer conversions are exact.
fn quantize(b: &RawBall) -> UserBall {
    UserBall {
        x: Fixed::from_int(b.x.trunc() as i32),
        y: Fixed::from_int(b.y.trunc() as i32),
        r: Fixed::from_int(b.r.round_ties_even() as i32),
    }
}

/// The occlusion rule alone: `Err(Occluded)` for the first ball (in order) that overlaps a scene
/// body (walls included; first body in task order).
///
/// Against a circle part: overlap when centre distance + 1e-5 < r_user + r_part. Against a
/// polygon part: overlap when the centre is strictly inside it (exact test) or its distance to
/// the polygon + 1e-5 < r_user. Exactly touching is valid.
pub fn check_occlusion(task: &Task, balls: &[UserBall]) -> Result<(), InvalidAction> {
    for (ball, b) in balls.iter().enumerate() {
        if let Some(body) = occluding_body(task, b) {
            return Err(InvalidAction::Occluded { ball, body });
        }
    }
    Ok(())
}

fn occluding_body(task: &Task, b: &UserBall) -> Option<usize> {
    let (px, py, r) = (b.x.to_f64(), b.y.to_f64(), b.r.to_f64());
    for (body, occ) in task.occluders() {
        let hit = match occ {
            Occluder::Circle { center, radius } => {
                let (dx, dy) = (px - center.x.to_f64(), py - center.y.to_f64());
                (dx * dx + dy * dy).sqrt() + OCCLUSION_EPS < r + radius.to_f64()
            }
            Occluder::Polygon { vertices } => {
                strictly_inside(vertices, engine::Vec2::new(b.x, b.y))
                    || polygon_distance(vertices, px, py) + OCCLUSION_EPS < r
            }
        };
        if hit {
            return Some(*body);
        }
    }
    None
}

/// Centre strictly inside a convex polygon of either winding (exact integer arithmetic).
fn strictly_inside(vs: &[engine::Vec2], p: engine::Vec2) -> bool {
    let n = vs.len();
    all_strictly_one_side((0..n).map(|i| cross_exact(vs[i], vs[(i + 1) % n], p)))
}

/// Distance from (px, py) to the polygon's boundary (the nearest edge).
fn polygon_distance(vs: &[engine::Vec2], px: f64, py: f64) -> f64 {
    let n = vs.len();
    let mut best = f64::INFINITY;
    for i in 0..n {
        let (ax, ay) = (vs[i].x.to_f64(), vs[i].y.to_f64());
        let (bx, by) = (vs[(i + 1) % n].x.to_f64(), vs[(i + 1) % n].y.to_f64());
        let (ex, ey) = (bx - ax, by - ay);
        let len2 = ex * ex + ey * ey;
        let t = if len2 > 0.0 {
            (((px - ax) * ex + (py - ay) * ey) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let (qx, qy) = (ax + t * ex - px, ay + t * ey - py);
        let d = (qx * qx + qy * qy).sqrt();
        if d < best {
            best = d;
        }
    }
    best
}

/// The 8 shifts of the stable-solution test, in half pixels: dx outer, dy inner, each in
/// {−½, 0, +½}, (0, 0) left out.
pub const NEIGHBOUR_SHIFTS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// The 8 neighbours of a quantized action for the stable-solution test (SPEC §8): every user
/// ball moved by the same (dx, dy), dx, dy ∈ {−0.5, 0, +0.5} px, in [`NEIGHBOUR_SHIFTS`] order.
/// Each neighbour is checked for occlusion again and may be invalid; an invalid neighbour does
/// not spoil stability. (The in-scene and two-ball rules are not re-applied: a ball pushed out
/// of the scene meets a wall, and a common shift keeps the balls' distance.)
pub fn stable_neighbours(
    task: &Task,
    action: &ValidAction,
) -> [Result<ValidAction, InvalidAction>; 8] {
    NEIGHBOUR_SHIFTS.map(|(hx, hy)| {
        let (dx, dy) = (
            Fixed::HALF.mul_int(i64::from(hx)),
            Fixed::HALF.mul_int(i64::from(hy)),
        );
        let balls: Vec<UserBall> = action
            .balls
            .iter()
            .map(|b| UserBall {
                x: b.x + dx,
                y: b.y + dy,
                r: b.r,
            })
            .collect();
        check_occlusion(task, &balls)?;
        Ok(ValidAction {
            tier: action.tier,
            balls,
        })
    })
}
