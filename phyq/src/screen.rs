//! The screen as the original's agents read it: each object's contours in whole pixels of the
//! 640 × 480 view, the slingshot as the game's rectangle of its two sprites, which objects the
//! game leaves out as off the screen, and the boxes the agents' state reader makes of them.
//!
//! The ground truth the agent server sends and the agents that plan as the original's do (the
//! pig shooter of `agents`) both read a scene through this module, so they see the same pixels.
//!
//! The slingshot is the rectangle the game makes of its two sprites' bounds
//! (`SymbolicGameState.cs`: x from `slingshot_front`'s left to `slingshot_back`'s right, y from
//! the back's bottom to the front's top), [`SLING_BOUNDS`] from the level's slingshot point: the
//! agents' trajectory planner measures its reference point and its scale from this rectangle, so
//! it must be the game's, not the slingshot's collider. A bird's circle is the polygon of
//! [`CIRCLE_POINTS`] points on it (the game gives its polygon collider's points).

use crate::catalogue::Kind;
use crate::picture::{Framing, HEIGHT, WIDTH};
use crate::scene::{Outline, Scene, SceneObject};
use engine::{sin_cos, Fixed, Vec2};

/// Picture units in a pixel ([`Framing::units`]).
pub const UNITS_PER_PIXEL: i64 = 1 << 16;

/// The slingshot's rectangle from the level's slingshot point (world units: x from, x to, y
/// from, y to, as fractions): the sprites' bounds. `slingshot_back` (`effects_19`, 40 × 201 px
/// at 100 px a unit, pivot centred, at (0, 0)) spans x −0.2..0.2, y −1.005..1.005;
/// `slingshot_front` (`effects_20`, 45 × 126 px, at (−0.26, 0.42)) spans x −0.485..−0.035, y
/// −0.21..1.05 (the Phy-Q game's `Slingshot.prefab` and `Sprites/Effects/effects.png.meta`).
pub const SLING_BOUNDS: [(i32, i32); 4] = [(-485, 1000), (200, 1000), (-1005, 1000), (1050, 1000)];

/// Points on a bird's circle.
pub const CIRCLE_POINTS: i32 = 16;

/// An object's contours in picture units (1/65,536 px, x right, y down), the outline first and
/// then its holes; the slingshot as its rectangle's four corners.
pub fn contour_units(o: &SceneObject, framing: &Framing) -> Vec<Vec<(i64, i64)>> {
    if o.kind == Kind::Slingshot {
        let b = SLING_BOUNDS.map(|(n, d)| Fixed::from_int(n).div_int(i64::from(d)));
        let corner = |x: Fixed, y: Fixed| framing.units(o.position + Vec2::new(x, y));
        return vec![vec![
            corner(b[0], b[2]),
            corner(b[0], b[3]),
            corner(b[1], b[3]),
            corner(b[1], b[2]),
        ]];
    }
    let mut out = Vec::new();
    for outline in o.outlines() {
        let paths = match outline {
            Outline::Polygon { paths } => paths,
            Outline::Circle { centre, radius } => vec![circle_points(centre, radius)],
        };
        out.extend(
            paths
                .iter()
                .map(|p| p.iter().map(|&v| framing.units(v)).collect::<Vec<_>>()),
        );
    }
    out
}

/// Picture units to whole pixels, to nearest, ties up ([`Framing::pixel`]'s rounding).
pub fn round_units(u: i64) -> i64 {
    (u + UNITS_PER_PIXEL / 2).div_euclid(UNITS_PER_PIXEL)
}

/// An object's contours in whole pixels (the noise-free ground truth's).
pub fn contours(o: &SceneObject, framing: &Framing) -> Vec<Vec<[i64; 2]>> {
    contour_units(o, framing)
        .into_iter()
        .map(|p| {
            p.into_iter()
                .map(|(x, y)| [round_units(x), round_units(y)])
                .collect()
        })
        .collect()
}

/// The screen row of the ground's surface (the ground truth's `yindex`).
pub fn ground_row(scene: &Scene, framing: &Framing) -> i64 {
    framing.pixel(Vec2::new(framing.left, scene.ground_y)).1
}

/// Whether a contour set is entirely off the screen, as the game leaves such an object out:
/// left of it, right of it, above it, or below the ground's row (or the screen's bottom, if
/// higher).
pub fn off_screen(contours: &[Vec<[i64; 2]>], ground_row: i64) -> bool {
    let pts = || contours.iter().flatten();
    let bottom = ground_row.min(HEIGHT as i64);
    pts().next().is_none()
        || pts().all(|p| p[0] < 0)
        || pts().all(|p| p[0] > WIDTH as i64)
        || pts().all(|p| p[1] < 0)
        || pts().all(|p| p[1] > bottom)
}

/// A circle as [`CIRCLE_POINTS`] world points, counter-clockwise from angle 0.
pub fn circle_points(centre: Vec2, radius: Fixed) -> Vec<Vec2> {
    (0..CIRCLE_POINTS)
        .map(|k| {
            let angle = Fixed::PI
                .mul_int(2 * i64::from(k))
                .div_int(i64::from(CIRCLE_POINTS));
            let (s, c) = sin_cos(angle);
            centre + Vec2::new(c * radius, s * radius)
        })
        .collect()
}

/// The box the original's state reader makes of an object (`SymbolicStateDevReader._getRect`):
/// the smallest and largest x and y of its first contour's points, in whole pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PixelBox {
    pub min_x: i64,
    pub min_y: i64,
    pub max_x: i64,
    pub max_y: i64,
}

impl PixelBox {
    /// The box of `contours`' first contour; `None` when it has no point.
    pub fn of(contours: &[Vec<[i64; 2]>]) -> Option<PixelBox> {
        let first = contours.first()?;
        let xs = || first.iter().map(|p| p[0]);
        let ys = || first.iter().map(|p| p[1]);
        Some(PixelBox {
            min_x: xs().min()?,
            min_y: ys().min()?,
            max_x: xs().max()?,
            max_y: ys().max()?,
        })
    }
}

/// What an agent of the original reads of a scene: the slingshot's box and the pigs' boxes, in
/// the ground truth's order, each pig on the screen (the game leaves the others out).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentView {
    pub slingshot: Option<PixelBox>,
    pub pigs: Vec<PixelBox>,
}

impl AgentView {
    /// The view of `scene` in `framing`.
    pub fn of(scene: &Scene, framing: &Framing) -> AgentView {
        let row = ground_row(scene, framing);
        let mut view = AgentView {
            slingshot: None,
            pigs: Vec::new(),
        };
        for o in &scene.objects {
            let is_pig = matches!(o.kind, Kind::Pig(_));
            if !is_pig && o.kind != Kind::Slingshot {
                continue;
            }
            let cs = contours(o, framing);
            if off_screen(&cs, row) {
                continue;
            }
            match (is_pig, PixelBox::of(&cs)) {
                (true, Some(b)) => view.pigs.push(b),
                (false, Some(b)) => view.slingshot = view.slingshot.or(Some(b)),
                _ => {}
            }
        }
        view
    }
}
