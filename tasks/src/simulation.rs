//! From a task and the user's balls to an engine world, its goal, and what the renderer and the
//! featurizer need (per-body colours and object descriptors).

use core::fmt;

use engine::settings::PX_PER_METRE;
use engine::Vec2;
use engine::{
    BodyDef, BodyId, BodyKind, Circle, Fixed, Goal, Polygon, PolygonError, RunOptions, Shape,
    TouchRule, World, WorldError,
};

use crate::model::{Colour, Part, ShapeType, Task};

/// A user ball in scene pixels: centre (`x`, `y`) and radius `r`.
///
/// Validated actions give integer centres and radii; the stable-solution neighbours shift the
/// centre by half a pixel, which [`Fixed`] holds exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UserBall {
    /// Centre x (px).
    pub x: Fixed,
    /// Centre y (px).
    pub y: Fixed,
    /// Radius (px).
    pub r: Fixed,
}

impl UserBall {
    /// A ball at integer pixel coordinates.
    pub const fn from_int(x: i32, y: i32, r: i32) -> UserBall {
        UserBall {
            x: Fixed::from_int(x),
            y: Fixed::from_int(y),
            r: Fixed::from_int(r),
        }
    }
}

/// What one object contributes to the object features (SPEC §5). Walls have none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ObjectDescriptor {
    /// The body in the world.
    pub body: BodyId,
    /// Ball, bar, jar or standing sticks (never [`ShapeType::Undefined`]).
    pub shape_type: ShapeType,
    /// Size feature in px (ball 2r; bar and sticks √(w² + h²); jar 320·scale).
    pub diameter: Fixed,
    /// The body's colour (one-hot colour feature).
    pub colour: Colour,
    /// The feature position is the body's centre of mass rather than its origin (true for jars,
    /// whose origin is the centre of the base plate; for the other, symmetric shapes the two
    /// coincide anyway).
    pub position_is_centre_of_mass: bool,
}

/// A world ready to simulate, with everything needed to judge and draw it.
///
/// Body order: the task's scene bodies in task order (for PHYRE tasks the 4 walls come first,
/// as in the original file), then the user balls in action order. `colours` has one entry per
/// body in that order; `objects` lists the bodies that have object features (walls excluded),
/// in the same order.
#[derive(Clone, Debug)]
pub struct SimulationSetup {
    /// The engine world: scene bodies, then user balls.
    pub world: World,
    /// The engine goal (body ids are world ids).
    pub goal: Goal,
    /// Pixel value of every body, indexed by `BodyId::index()` (0 = not drawn: the walls).
    pub colours: Vec<u8>,
    /// Object-feature descriptors: scene objects (walls excluded) then user balls.
    pub objects: Vec<ObjectDescriptor>,
    /// Number of scene bodies; user balls have ids `scene_bodies..`.
    pub scene_bodies: usize,
}

impl SimulationSetup {
    /// Ids of the user balls.
    pub fn user_bodies(&self) -> impl Iterator<Item = BodyId> + '_ {
        (self.scene_bodies..self.colours.len()).map(|i| BodyId(i as u32))
    }
}

/// Why a world could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildError {
    /// The engine rejected a polygon (after the px → m conversion, nearly coincident points are
    /// welded, which can leave too few).
    Polygon {
        body: usize,
        part: usize,
        error: PolygonError,
    },
    /// The engine rejected a body (index in world order: user balls follow the scene).
    Body { body: usize, error: WorldError },
    /// A user ball with a radius that is not positive.
    UserBallRadius { ball: usize },
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Polygon { body, part, error } => {
                write!(f, "body {body} part {part}: {error}")
            }
            BuildError::Body { body, error } => write!(f, "body {body}: {error}"),
            BuildError::UserBallRadius { ball } => {
                write!(f, "user ball {ball} has a radius that is not positive")
            }
        }
    }
}

impl std::error::Error for BuildError {}

/// Pixels to metres: the exact quotient by [`PX_PER_METRE`] rounded to the nearest Q32.32 value,
/// ties away from zero. Rounding (rather than truncating) halves the error, and rounding
/// symmetrically keeps mirrored geometry (e.g. the two jar walls) mirrored in metres.
pub fn px_to_metres(v: Fixed) -> Fixed {
    let raw = v.raw();
    let q = raw / PX_PER_METRE;
    let rem = raw % PX_PER_METRE;
    let q = if 2 * rem.abs() >= PX_PER_METRE {
        q + raw.signum()
    } else {
        q
    };
    Fixed::from_raw(q)
}

fn vec_to_metres(v: Vec2) -> Vec2 {
    Vec2::new(px_to_metres(v.x), px_to_metres(v.y))
}

/// PHYRE's goal rule (SPEC §2): a task is solved once its goal relation has held after this many
/// consecutive steps (3 s at 60 steps per second).
pub const GOAL_HOLD_STEPS: u32 = 180;
/// Steps in a full PHYRE simulation.
pub const MAX_STEPS: u32 = 1000;
/// The engine run of a PHYRE simulation: [`GOAL_HOLD_STEPS`] within [`MAX_STEPS`], a full run
/// with the early exit on and no hash chain (callers switch the other options as they need).
pub const PHYRE_RUN: RunOptions = RunOptions::new(GOAL_HOLD_STEPS, MAX_STEPS);

/// Touching margin of the ball–ball special case: 0.1 px = 1/60 m.
pub fn ball_touch_margin() -> Fixed {
    Fixed::ratio(1, 10 * PX_PER_METRE)
}

impl Task {
    /// Build the engine world for this task with the user's balls added.
    ///
    /// Scene bodies keep their task order (walls included, so [`BodyId`] `i` is scene body `i`),
    /// then come the user balls (dynamic circles, red). The goal uses
    /// [`TouchRule::CentreDistance`] with a 0.1 px margin when both goal bodies are balls, else
    /// [`TouchRule::Contact`] (SPEC §2).
    ///
    /// The balls are not validity-checked here: use [`crate::validate_action`] first (an invalid
    /// action is never simulated).
    pub fn build_world(&self, user_balls: &[UserBall]) -> Result<SimulationSetup, BuildError> {
        let mut world = World::new();
        let mut colours = Vec::with_capacity(self.bodies().len() + user_balls.len());
        let mut objects = Vec::with_capacity(self.bodies().len() + user_balls.len());
        for (i, b) in self.bodies().iter().enumerate() {
            let mut parts = Vec::with_capacity(b.parts.len());
            for (k, p) in b.parts.iter().enumerate() {
                parts.push(match p {
                    Part::Circle { center, radius } => Shape::Circle(Circle {
                        center: vec_to_metres(*center),
                        radius: px_to_metres(*radius),
                    }),
                    Part::Polygon { vertices } => {
                        let m: Vec<Vec2> = vertices.iter().map(|&v| vec_to_metres(v)).collect();
                        Shape::Polygon(Polygon::new(&m).map_err(|error| BuildError::Polygon {
                            body: i,
                            part: k,
                            error,
                        })?)
                    }
                });
            }
            let def = BodyDef::new(b.kind, vec_to_metres(b.position), b.angle, parts);
            let id = world
                .add_body(&def)
                .map_err(|error| BuildError::Body { body: i, error })?;
            let colour = self.colour(i);
            colours.push(colour.code());
            if b.shape_type != ShapeType::Undefined {
                objects.push(ObjectDescriptor {
                    body: id,
                    shape_type: b.shape_type,
                    diameter: b.diameter,
                    colour,
                    position_is_centre_of_mass: b.shape_type == ShapeType::Jar,
                });
            }
        }
        let scene_bodies = colours.len();
        for (k, ball) in user_balls.iter().enumerate() {
            if !ball.r.is_positive() {
                return Err(BuildError::UserBallRadius { ball: k });
            }
            let def = BodyDef::new(
                BodyKind::Dynamic,
                Vec2::new(px_to_metres(ball.x), px_to_metres(ball.y)),
                Fixed::ZERO,
                vec![Shape::Circle(Circle {
                    center: Vec2::ZERO,
                    radius: px_to_metres(ball.r),
                })],
            );
            let id = world.add_body(&def).map_err(|error| BuildError::Body {
                body: scene_bodies + k,
                error,
            })?;
            colours.push(Colour::Red.code());
            objects.push(ObjectDescriptor {
                body: id,
                shape_type: ShapeType::Ball,
                diameter: ball.r.mul_int(2),
                colour: Colour::Red,
                position_is_centre_of_mass: false,
            });
        }
        let g = self.goal();
        let both_balls = self.bodies()[g.body1].shape_type == ShapeType::Ball
            && self.bodies()[g.body2].shape_type == ShapeType::Ball;
        let rule = if both_balls {
            TouchRule::CentreDistance {
                margin: ball_touch_margin(),
            }
        } else {
            TouchRule::Contact
        };
        let goal = Goal {
            body_a: BodyId(g.body1 as u32),
            body_b: BodyId(g.body2 as u32),
            rule,
        };
        Ok(SimulationSetup {
            world,
            goal,
            colours,
            objects,
            scene_bodies,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn px_to_metres_rounds_to_nearest_symmetrically() {
        assert_eq!(px_to_metres(Fixed::from_int(6)), Fixed::ONE);
        assert_eq!(px_to_metres(Fixed::from_int(-3)), -Fixed::HALF);
        // 1/6 of raw 1..5: 0, 0, 1 (tie 0.5 away from zero), 1, 1.
        let r: Vec<i64> = (1..=5)
            .map(|k| px_to_metres(Fixed::from_raw(k)).raw())
            .collect();
        assert_eq!(r, [0, 0, 1, 1, 1]);
        let r: Vec<i64> = (1..=5)
            .map(|k| px_to_metres(Fixed::from_raw(-k)).raw())
            .collect();
        assert_eq!(r, [0, 0, -1, -1, -1]);
        // Truncation would give ratio(1, 60) exactly; rounding may differ by at most one ulp.
        let tenth = Fixed::ratio(1, 10);
        assert!((px_to_metres(tenth) - ball_touch_margin()).raw().abs() <= 1);
    }
}
