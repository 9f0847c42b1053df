//! The task model: scene bodies in pixels (Q32.32 [`Fixed`]), the goal, the tier and the id.
//!
//! Units: every length and position here is in scene pixels (the scene is 256 × 256 px, origin
//! bottom-left, y up); angles are radians, counter-clockwise. The conversion to the engine's
//! metres happens once, in [`Task::build_world`](crate::Task::build_world).
//!
//! A [`Task`] is validated when it is made ([`Task::new`]): every later step (building a world,
//! checking actions, drawing) may rely on the invariants listed there.

use core::fmt;

use engine::{BodyKind, Fixed};
use engine::{Transform, Vec2};

use crate::id::TaskId;

/// The action tier of a task: how many user balls an action places.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tier {
    /// `ball`: one ball, actions of 3 numbers (x, y, r).
    Ball,
    /// `two_balls`: two balls, actions of 6 numbers (x1, y1, r1, x2, y2, r2).
    TwoBalls,
}

/// The tier of an action: the same two tiers as tasks have (a `ball` task takes `ball`
/// actions, a `two_balls` task `two_balls` actions).
pub type ActionTier = Tier;

impl Tier {
    /// Both tiers, in a fixed order.
    pub const ALL: [Tier; 2] = [Tier::Ball, Tier::TwoBalls];

    /// The tier PHYRE's numbering gives a task: templates below 100 are PHYRE-B (ball),
    /// from 100 on PHYRE-2B (two balls). A loaded task knows its own tier ([`Task::tier`]).
    pub const fn of_phyre_id(id: TaskId) -> Tier {
        if id.template() < 100 {
            Tier::Ball
        } else {
            Tier::TwoBalls
        }
    }

    /// The tier's name as PHYRE spells it in its API (`ball`, `two_balls`).
    pub const fn name(self) -> &'static str {
        match self {
            Tier::Ball => "ball",
            Tier::TwoBalls => "two_balls",
        }
    }

    /// Number of user balls an action of this tier places.
    pub const fn ball_count(self) -> usize {
        match self {
            Tier::Ball => 1,
            Tier::TwoBalls => 2,
        }
    }

    /// Number of components of an action of this tier (3 per ball).
    pub const fn action_len(self) -> usize {
        3 * self.ball_count()
    }

    /// Parse `ball` / `two_balls` (also the task file's `BALL` / `TWO_BALLS`).
    pub fn parse(s: &str) -> Option<Tier> {
        match s {
            "ball" | "BALL" => Some(Tier::Ball),
            "two_balls" | "TWO_BALLS" => Some(Tier::TwoBalls),
            _ => None,
        }
    }
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A fieldless enum whose variants stand for fixed byte codes, with `code` and `from_code`:
/// written once for the enums below, so that `from_code` is generated from the variant list
/// and cannot miss a variant or disagree with a discriminant.
macro_rules! coded_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $($(#[$variant_meta:meta])* $variant:ident = $code:literal,)+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[repr(u8)]
        pub enum $name {
            $($(#[$variant_meta])* $variant = $code,)+
        }

        impl $name {
            /// The code (see the type's documentation).
            pub const fn code(self) -> u8 {
                self as u8
            }

            #[doc = concat!("The `", stringify!($name), "` of a code, if it is one.")]
            pub const fn from_code(code: i64) -> Option<$name> {
                match code {
                    $($code => Some($name::$variant),)+
                    _ => None,
                }
            }
        }
    };
}

coded_enum! {
    /// What kind of object a body is (PHYRE's `shapeType`); it decides the object features. The
    /// code is the one of PHYRE's task file and of rephyre's store.
    pub enum ShapeType {
        /// No object type: the four invisible walls. Such bodies are never drawn, never goal
        /// bodies and have no object features.
        Undefined = 0,
        /// A single circle.
        Ball = 1,
        /// A thin box.
        Bar = 2,
        /// Three convex quads: a base plate and two slanted walls.
        Jar = 3,
        /// Two thin boxes crossing at the origin.
        StandingSticks = 4,
    }
}

coded_enum! {
    /// Observation colours (SPEC §5): the code is the byte value of a pixel of that colour.
    pub enum Colour {
        /// White background; also the "colour" of the invisible walls (not drawn).
        Background = 0,
        /// User bodies.
        Red = 1,
        /// Goal body 1.
        Green = 2,
        /// Goal body 2 when dynamic.
        Blue = 3,
        /// Goal body 2 when static.
        Purple = 4,
        /// Other dynamic bodies.
        Gray = 5,
        /// Other static bodies.
        Black = 6,
    }
}

/// One convex part of a body, in body coordinates (px).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    /// A circle: centre (body coordinates, px) and radius (px, positive).
    Circle {
        /// Centre in body coordinates (px); PHYRE's balls have it at the origin.
        center: Vec2,
        /// Radius (px).
        radius: Fixed,
    },
    /// A strictly convex polygon, 3 to [`MAX_POLYGON_VERTICES`] vertices, either winding.
    Polygon {
        /// Vertices in body coordinates (px), in order around the polygon.
        vertices: Vec<Vec2>,
    },
}

/// A body of a task's scene (walls included).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SceneBody {
    /// Static (never moves) or dynamic.
    pub kind: BodyKind,
    /// The object type; [`ShapeType::Undefined`] for the walls.
    pub shape_type: ShapeType,
    /// Position of the body origin (px). For a jar this is the centre of its base plate.
    pub position: Vec2,
    /// Angle (rad, counter-clockwise).
    pub angle: Fixed,
    /// The object's size feature (px): ball 2r; bar and sticks √(w² + h²); jar 320·scale.
    pub diameter: Fixed,
    /// Convex parts (1 to [`MAX_PARTS`]).
    pub parts: Vec<Part>,
}

impl SceneBody {
    /// Distance (px) from scene point `p` to the nearest of the body's parts: negative inside a
    /// part. For a polygon it is the largest signed distance to its edges' lines, exact inside
    /// and along an edge and at most a little short near a corner (enough to tell which body a
    /// point is nearest to; action validity has its own, exact rule in [`crate::action`]).
    pub fn signed_distance(&self, p: Vec2) -> Fixed {
        let local = engine::Transform::new(self.position, self.angle).apply_inv(p);
        self.parts
            .iter()
            .map(|part| match part {
                Part::Circle { center, radius } => (local - *center).length() - *radius,
                Part::Polygon { vertices } => {
                    let n = vertices.len();
                    // Twice the signed area gives the winding, hence which side is outside.
                    let area: Fixed = (0..n)
                        .map(|k| vertices[k].cross(vertices[(k + 1) % n]))
                        .fold(Fixed::ZERO, |a, c| a + c);
                    (0..n)
                        .filter_map(|k| {
                            let (a, b) = (vertices[k], vertices[(k + 1) % n]);
                            let (dir, _) = (b - a).normalize_with_length()?;
                            let d = dir.cross(local - a);
                            Some(if area.is_negative() { d } else { -d })
                        })
                        .max()
                        .unwrap_or(Fixed::ZERO)
                }
            })
            .min()
            .unwrap_or(Fixed::MAX)
    }
}

/// The only relation B/2B tasks use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relation {
    /// Body 1 touches body 2 for 3 s (SPEC §2).
    Touching,
}

/// The goal of a task: `body1` (always dynamic) TOUCHING `body2`; indices into the scene bodies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TaskGoal {
    /// Index of goal body 1 (dynamic; green).
    pub body1: usize,
    /// Always [`Relation::Touching`].
    pub relation: Relation,
    /// Index of goal body 2 (blue when dynamic, purple when static).
    pub body2: usize,
}

/// Most parts in one body (the engine's limit).
pub const MAX_PARTS: usize = engine::MAX_PARTS;
/// Most vertices of one polygon part (the engine's limit).
pub const MAX_POLYGON_VERTICES: usize = engine::MAX_POLYGON_VERTICES;
/// Most scene bodies in one task (the original's largest B/2B task has 65).
pub const MAX_SCENE_BODIES: usize = 1024;
/// Largest |coordinate| of a body position (px); far outside the scene, far inside the engine's
/// range.
pub const MAX_POSITION_PX: i32 = 1 << 16;
/// Largest |coordinate| of a part vertex or circle centre, and largest radius, in body
/// coordinates (px).
pub const MAX_PART_EXTENT_PX: i32 = 4096;
/// Largest |angle| (rad).
pub const MAX_ANGLE: i32 = 1 << 16;
/// Longest task description (bytes).
pub const MAX_DESCRIPTION_LEN: usize = 4096;

/// Why a task is not valid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TaskError {
    NoBodies,
    TooManyBodies(usize),
    /// Body `body` has no parts or more than [`MAX_PARTS`].
    PartCount {
        body: usize,
        count: usize,
    },
    /// A polygon with fewer than 3 or more than [`MAX_POLYGON_VERTICES`] vertices.
    VertexCount {
        body: usize,
        part: usize,
        count: usize,
    },
    /// A polygon that is not strictly convex (or is degenerate or self-intersecting).
    NotConvex {
        body: usize,
        part: usize,
    },
    /// A circle radius that is not positive.
    BadRadius {
        body: usize,
        part: usize,
    },
    /// A position, angle, size or diameter outside the supported range.
    OutOfRange {
        body: usize,
        what: &'static str,
    },
    /// A body without object type that is dynamic (only the static walls have none).
    DynamicWithoutType {
        body: usize,
    },
    /// A goal body index that is not a scene body.
    GoalBodyMissing {
        body: usize,
        bodies: usize,
    },
    /// Goal body 1 and body 2 are the same body.
    GoalSameBody,
    /// Goal body 1 must be dynamic.
    GoalBody1Static,
    /// A wall (body without object type) cannot be a goal body.
    GoalBodyIsWall {
        body: usize,
    },
    DescriptionTooLong(usize),
}

impl fmt::Display for TaskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TaskError::NoBodies => f.write_str("task has no bodies"),
            TaskError::TooManyBodies(n) => {
                write!(f, "task has {n} bodies (at most {MAX_SCENE_BODIES})")
            }
            TaskError::PartCount { body, count } => {
                write!(f, "body {body} has {count} parts (1 to {MAX_PARTS})")
            }
            TaskError::VertexCount { body, part, count } => write!(
                f,
                "body {body} part {part}: polygon has {count} vertices (3 to {MAX_POLYGON_VERTICES})"
            ),
            TaskError::NotConvex { body, part } => {
                write!(f, "body {body} part {part}: polygon is not strictly convex")
            }
            TaskError::BadRadius { body, part } => {
                write!(f, "body {body} part {part}: circle radius is not positive")
            }
            TaskError::OutOfRange { body, what } => {
                write!(f, "body {body}: {what} is outside the supported range")
            }
            TaskError::DynamicWithoutType { body } => {
                write!(f, "body {body} is dynamic but has no object type (walls are static)")
            }
            TaskError::GoalBodyMissing { body, bodies } => {
                write!(f, "goal body {body} does not exist (the scene has {bodies} bodies)")
            }
            TaskError::GoalSameBody => f.write_str("goal body 1 and body 2 are the same body"),
            TaskError::GoalBody1Static => f.write_str("goal body 1 must be dynamic"),
            TaskError::GoalBodyIsWall { body } => {
                write!(f, "goal body {body} is a wall (no object type)")
            }
            TaskError::DescriptionTooLong(n) => {
                write!(f, "description is {n} bytes (at most {MAX_DESCRIPTION_LEN})")
            }
        }
    }
}

impl std::error::Error for TaskError {}

/// A scene body in world coordinates (px), kept for the action validity check.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Occluder {
    Circle { center: Vec2, radius: Fixed },
    Polygon { vertices: Vec<Vec2> },
}

/// One PHYRE task: a scene, a goal and the tier of actions it takes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Task {
    id: TaskId,
    tier: Tier,
    description: String,
    bodies: Vec<SceneBody>,
    goal: TaskGoal,
    /// Every part of every body in world coordinates (px), in body order: computed once here
    /// with the engine's deterministic rotation so that validity checks are cheap and the same
    /// on every platform.
    occluders: Vec<(usize, Occluder)>,
}

impl Task {
    /// Make and validate a task.
    ///
    /// Invariants checked: 1 to [`MAX_SCENE_BODIES`] bodies; every body has 1 to
    /// [`MAX_PARTS`] parts; polygons are strictly convex with 3 to [`MAX_POLYGON_VERTICES`]
    /// vertices; radii are positive; coordinates, sizes and angles are inside generous bounds;
    /// bodies without object type (walls) are static; the goal names two different existing
    /// bodies that are not walls, body 1 dynamic.
    pub fn new(
        id: TaskId,
        tier: Tier,
        description: String,
        bodies: Vec<SceneBody>,
        goal: TaskGoal,
    ) -> Result<Task, TaskError> {
        if bodies.is_empty() {
            return Err(TaskError::NoBodies);
        }
        if bodies.len() > MAX_SCENE_BODIES {
            return Err(TaskError::TooManyBodies(bodies.len()));
        }
        if description.len() > MAX_DESCRIPTION_LEN {
            return Err(TaskError::DescriptionTooLong(description.len()));
        }
        for (i, b) in bodies.iter().enumerate() {
            validate_body(i, b)?;
        }
        let n = bodies.len();
        for body in [goal.body1, goal.body2] {
            if body >= n {
                return Err(TaskError::GoalBodyMissing { body, bodies: n });
            }
            if bodies[body].shape_type == ShapeType::Undefined {
                return Err(TaskError::GoalBodyIsWall { body });
            }
        }
        if goal.body1 == goal.body2 {
            return Err(TaskError::GoalSameBody);
        }
        if bodies[goal.body1].kind != BodyKind::Dynamic {
            return Err(TaskError::GoalBody1Static);
        }
        let occluders = bodies
            .iter()
            .enumerate()
            .flat_map(|(i, b)| {
                let xf = Transform::new(b.position, b.angle);
                b.parts.iter().map(move |p| {
                    let o = match p {
                        Part::Circle { center, radius } => Occluder::Circle {
                            center: xf.apply(*center),
                            radius: *radius,
                        },
                        Part::Polygon { vertices } => Occluder::Polygon {
                            vertices: vertices.iter().map(|&v| xf.apply(v)).collect(),
                        },
                    };
                    (i, o)
                })
            })
            .collect();
        Ok(Task {
            id,
            tier,
            description,
            bodies,
            goal,
            occluders,
        })
    }

    /// The task's id, `TTTTT:III`.
    pub fn id(&self) -> TaskId {
        self.id
    }

    /// The tier of the actions the task is meant for.
    pub fn tier(&self) -> Tier {
        self.tier
    }

    /// The task's text, e.g. "Make sure the green ball is touching the blue ball."
    pub fn description(&self) -> &str {
        &self.description
    }

    /// Scene bodies in task order (for PHYRE's tasks: the 4 walls first, then the objects).
    pub fn bodies(&self) -> &[SceneBody] {
        &self.bodies
    }

    /// The goal relation.
    pub fn goal(&self) -> TaskGoal {
        self.goal
    }

    /// Colour of scene body `body` by its role (SPEC §5): goal body 1 green; goal body 2 blue
    /// when dynamic, purple when static; other dynamic bodies gray, other static bodies black;
    /// walls (no object type) background, i.e. not drawn.
    ///
    /// # Panics
    /// If `body` is not a scene body index.
    pub fn colour(&self, body: usize) -> Colour {
        let b = &self.bodies[body];
        let dynamic = b.kind == BodyKind::Dynamic;
        if b.shape_type == ShapeType::Undefined {
            Colour::Background
        } else if body == self.goal.body1 {
            Colour::Green
        } else if body == self.goal.body2 {
            if dynamic {
                Colour::Blue
            } else {
                Colour::Purple
            }
        } else if dynamic {
            Colour::Gray
        } else {
            Colour::Black
        }
    }

    /// Every scene part in world coordinates (px), with its body index.
    pub(crate) fn occluders(&self) -> &[(usize, Occluder)] {
        &self.occluders
    }
}

fn validate_body(i: usize, b: &SceneBody) -> Result<(), TaskError> {
    let out = |what| TaskError::OutOfRange { body: i, what };
    let pos_max = Fixed::from_int(MAX_POSITION_PX);
    let ext_max = Fixed::from_int(MAX_PART_EXTENT_PX);
    let within = |v: Vec2, m: Fixed| {
        v.x.abs() <= m && v.y.abs() <= m && v.x != Fixed::MIN && v.y != Fixed::MIN
    };
    if !within(b.position, pos_max) {
        return Err(out("position"));
    }
    if b.angle.abs() > Fixed::from_int(MAX_ANGLE) || b.angle == Fixed::MIN {
        return Err(out("angle"));
    }
    if b.diameter.is_negative() || b.diameter > pos_max {
        return Err(out("diameter"));
    }
    if b.kind == BodyKind::Dynamic && b.shape_type == ShapeType::Undefined {
        return Err(TaskError::DynamicWithoutType { body: i });
    }
    if b.parts.is_empty() || b.parts.len() > MAX_PARTS {
        return Err(TaskError::PartCount {
            body: i,
            count: b.parts.len(),
        });
    }
    for (k, p) in b.parts.iter().enumerate() {
        match p {
            Part::Circle { center, radius } => {
                if !radius.is_positive() {
                    return Err(TaskError::BadRadius { body: i, part: k });
                }
                if *radius > ext_max || !within(*center, ext_max) {
                    return Err(out("circle size or centre"));
                }
            }
            Part::Polygon { vertices } => {
                if vertices.len() < 3 || vertices.len() > MAX_POLYGON_VERTICES {
                    return Err(TaskError::VertexCount {
                        body: i,
                        part: k,
                        count: vertices.len(),
                    });
                }
                if !vertices.iter().all(|&v| within(v, ext_max)) {
                    return Err(out("polygon vertex"));
                }
                if !strictly_convex(vertices) {
                    return Err(TaskError::NotConvex { body: i, part: k });
                }
            }
        }
    }
    Ok(())
}

/// Exact cross product of `b − a` and `c − a` on the raw Q32.32 values (no rounding: the
/// coordinates are below 2^45 raw, so the products fit easily in i128).
pub(crate) fn cross_exact(a: Vec2, b: Vec2, c: Vec2) -> i128 {
    let (ux, uy) = (
        i128::from(b.x.raw()) - i128::from(a.x.raw()),
        i128::from(b.y.raw()) - i128::from(a.y.raw()),
    );
    let (vx, vy) = (
        i128::from(c.x.raw()) - i128::from(a.x.raw()),
        i128::from(c.y.raw()) - i128::from(a.y.raw()),
    );
    ux * vy - uy * vx
}

/// Every vertex that is not an endpoint of an edge lies strictly on the inner side of that edge
/// (for the winding of the polygon). This rejects collinear and repeated vertices,
/// degenerate polygons and self-intersecting (star-shaped) ones, for either winding.
fn strictly_convex(vs: &[Vec2]) -> bool {
    let n = vs.len();
    all_strictly_one_side((0..n).flat_map(|i| {
        let (a, b) = (vs[i], vs[(i + 1) % n]);
        vs.iter()
            .enumerate()
            .filter(move |&(j, _)| j != i && j != (i + 1) % n)
            .map(move |(_, &c)| cross_exact(a, b, c))
    }))
}

/// Whether every one of the cross products is non-zero and all have one sign (lazily: it stops
/// at the first zero or change of sign). The one test behind "strictly convex" and "strictly
/// inside a convex polygon".
pub(crate) fn all_strictly_one_side(crosses: impl IntoIterator<Item = i128>) -> bool {
    let mut sign = 0;
    for c in crosses {
        let s = c.signum();
        if s == 0 || (sign != 0 && s != sign) {
            return false;
        }
        sign = s;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn px(v: i32) -> Fixed {
        Fixed::from_int(v)
    }

    fn v(x: i32, y: i32) -> Vec2 {
        Vec2::new(px(x), px(y))
    }

    fn ball(x: i32, y: i32, kind: BodyKind) -> SceneBody {
        SceneBody {
            kind,
            shape_type: ShapeType::Ball,
            position: v(x, y),
            angle: Fixed::ZERO,
            diameter: px(10),
            parts: vec![Part::Circle {
                center: Vec2::ZERO,
                radius: px(5),
            }],
        }
    }

    fn task(bodies: Vec<SceneBody>, body1: usize, body2: usize) -> Result<Task, TaskError> {
        Task::new(
            TaskId::new(1, 2).unwrap(),
            Tier::Ball,
            String::new(),
            bodies,
            TaskGoal {
                body1,
                relation: Relation::Touching,
                body2,
            },
        )
    }

    #[test]
    fn convexity_check_rejects_bad_polygons() {
        assert!(strictly_convex(&[v(0, 0), v(2, 0), v(2, 1), v(0, 1)]));
        assert!(strictly_convex(&[v(0, 1), v(2, 1), v(2, 0), v(0, 0)]));
        // Collinear, repeated, bow-tie and pentagram.
        assert!(!strictly_convex(&[v(0, 0), v(1, 0), v(2, 0), v(0, 1)]));
        assert!(!strictly_convex(&[v(0, 0), v(0, 0), v(1, 0), v(0, 1)]));
        assert!(!strictly_convex(&[v(0, 0), v(2, 1), v(2, 0), v(0, 1)]));
        let star = [v(0, 10), v(6, -8), v(-9, 3), v(9, 3), v(-6, -8)];
        assert!(!strictly_convex(&star));
    }

    #[test]
    fn goal_and_body_rules_are_enforced() {
        let d = BodyKind::Dynamic;
        let s = BodyKind::Static;
        assert!(task(vec![ball(10, 10, d), ball(50, 10, s)], 0, 1).is_ok());
        assert_eq!(
            task(vec![ball(10, 10, s), ball(50, 10, d)], 0, 1),
            Err(TaskError::GoalBody1Static)
        );
        assert_eq!(
            task(vec![ball(10, 10, d)], 0, 0),
            Err(TaskError::GoalSameBody)
        );
        assert_eq!(
            task(vec![ball(10, 10, d)], 0, 3),
            Err(TaskError::GoalBodyMissing { body: 3, bodies: 1 })
        );
        let mut wall = ball(50, 10, s);
        wall.shape_type = ShapeType::Undefined;
        assert_eq!(
            task(vec![ball(10, 10, d), wall.clone()], 0, 1),
            Err(TaskError::GoalBodyIsWall { body: 1 })
        );
        wall.kind = d;
        assert_eq!(
            task(vec![ball(10, 10, d), ball(50, 10, s), wall], 0, 1),
            Err(TaskError::DynamicWithoutType { body: 2 })
        );
        let mut far = ball(10, 10, d);
        far.position.x = px(MAX_POSITION_PX + 1);
        assert!(matches!(
            task(vec![far, ball(50, 10, s)], 0, 1),
            Err(TaskError::OutOfRange { body: 0, .. })
        ));
        let mut flat = ball(10, 10, d);
        flat.parts = vec![Part::Circle {
            center: Vec2::ZERO,
            radius: Fixed::ZERO,
        }];
        assert_eq!(
            task(vec![flat, ball(50, 10, s)], 0, 1),
            Err(TaskError::BadRadius { body: 0, part: 0 })
        );
    }

    #[test]
    fn colours_follow_roles() {
        let d = BodyKind::Dynamic;
        let s = BodyKind::Static;
        let mut wall = ball(0, 0, s);
        wall.shape_type = ShapeType::Undefined;
        let t = task(
            vec![
                wall,
                ball(10, 10, d),
                ball(30, 10, s),
                ball(50, 10, d),
                ball(70, 10, s),
            ],
            1,
            2,
        )
        .unwrap();
        let cs: Vec<Colour> = (0..5).map(|i| t.colour(i)).collect();
        assert_eq!(
            cs,
            [
                Colour::Background,
                Colour::Green,
                Colour::Purple,
                Colour::Gray,
                Colour::Black
            ]
        );
        let t = task(vec![ball(10, 10, d), ball(30, 10, d)], 0, 1).unwrap();
        assert_eq!(t.colour(1), Colour::Blue);
    }
}
