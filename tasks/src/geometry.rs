//! PHYRE's body vocabulary (SPEC §3): the parts of balls, bars, jars and standing sticks, and
//! the four walls, in px.
//!
//! This is a boundary module: shapes are defined from a float `scale` like PHYRE's templates
//! define them, and computed in f64 with correctly rounded IEEE operations only (`+ − × ÷ √`)
//! plus [`ln`] written here from those operations and the engine's deterministic sine and
//! cosine — never the platform's libm — so a template builds bit-identical tasks everywhere.
//! Each result is converted to Q32.32 exactly once.
#![allow(clippy::float_arithmetic)]

use engine::{sin_cos, Vec2};
use engine::{BodyKind, Fixed};

use crate::model::{Part, SceneBody, ShapeType};

/// Thickness of bars and sticks at any scale (px).
pub const BAR_THICKNESS: f64 = 5.12;
/// Side of the scene (px).
pub const SCENE_SIZE: f64 = 256.0;

/// Why a shape could not be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShapeError {
    /// A scale, position or angle that is NaN, infinite or outside its range.
    BadNumber(&'static str),
}

impl core::fmt::Display for ShapeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ShapeError::BadNumber(what) => write!(f, "{what} is not a usable number"),
        }
    }
}

impl std::error::Error for ShapeError {}

/// Natural logarithm from correctly rounded operations only (deterministic everywhere):
/// x = m·2^e with m in [√½, √2), ln x = e·ln 2 + 2·atanh((m − 1)/(m + 1)) by its series, which
/// converges fast since |u| ≤ 0.172. Accurate to a few ulps; for x ≤ 0 or non-finite x it
/// returns NaN (callers reject it).
pub fn ln(x: f64) -> f64 {
    if !(x.is_finite() && x > 0.0) {
        return f64::NAN;
    }
    const LN_2: f64 = core::f64::consts::LN_2;
    let (mut m, mut e) = (x, 0i32);
    // Bring subnormals into the normal range first (exact: multiplication by a power of two).
    if m < f64::MIN_POSITIVE {
        m *= 2f64.powi(64);
        e -= 64;
    }
    let bits = m.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32 - 1023;
    m = f64::from_bits((bits & !(0x7ff << 52)) | (1023 << 52)); // mantissa in [1, 2)
    e += exp;
    if m > core::f64::consts::SQRT_2 {
        m /= 2.0;
        e += 1;
    }
    let u = (m - 1.0) / (m + 1.0);
    let u2 = u * u;
    let mut term = u;
    let mut sum = 0.0;
    let mut k = 1.0;
    while k < 80.0 {
        let add = term / k;
        if add == 0.0 || (sum + add) == sum {
            break;
        }
        sum += add;
        term *= u2;
        k += 2.0;
    }
    f64::from(e) * LN_2 + 2.0 * sum
}

/// Sine and cosine of `angle` (rad) through the engine's deterministic Q32.32 routine.
fn sin_cos_f64(angle: f64) -> Result<(f64, f64), ShapeError> {
    let a = Fixed::from_f64(angle).map_err(|_| ShapeError::BadNumber("angle"))?;
    let (s, c) = sin_cos(a);
    Ok((s.to_f64(), c.to_f64()))
}

fn px(v: f64, what: &'static str) -> Result<Fixed, ShapeError> {
    Fixed::from_f64(v).map_err(|_| ShapeError::BadNumber(what))
}

fn polygon(points: &[(f64, f64)]) -> Result<Part, ShapeError> {
    let vertices = points
        .iter()
        .map(|&(x, y)| Ok(Vec2::new(px(x, "vertex")?, px(y, "vertex")?)))
        .collect::<Result<Vec<_>, ShapeError>>()?;
    Ok(Part::Polygon { vertices })
}

/// Counter-clockwise corners of a w × h box centred at the origin, starting top right (the
/// order of the original's boxes).
fn box_points(w: f64, h: f64) -> [(f64, f64); 4] {
    let (x, y) = (w / 2.0, h / 2.0);
    [(x, y), (-x, y), (-x, -y), (x, -y)]
}

fn check_scale(scale: f64) -> Result<(), ShapeError> {
    if scale.is_finite() && scale > 0.0 && scale <= 4.0 {
        Ok(())
    } else {
        Err(ShapeError::BadNumber("scale (must be in (0, 4])"))
    }
}

/// A shape of the vocabulary: its parts (body coordinates, px) and its diameter feature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapeParts {
    /// Which vocabulary shape.
    pub shape_type: ShapeType,
    /// Its convex parts (body coordinates, px).
    pub parts: Vec<Part>,
    /// Its size feature (px).
    pub diameter: Fixed,
}

/// Ball: radius trunc(128·scale) + 0.5, centred at the origin; diameter 2r.
pub fn ball(scale: f64) -> Result<ShapeParts, ShapeError> {
    check_scale(scale)?;
    let r = (128.0 * scale).trunc() + 0.5;
    Ok(ShapeParts {
        shape_type: ShapeType::Ball,
        parts: vec![Part::Circle {
            center: Vec2::ZERO,
            radius: px(r, "radius")?,
        }],
        diameter: px(2.0 * r, "diameter")?,
    })
}

/// Bar: (256·scale) × 5.12 box centred at the origin; diameter √(w² + h²).
pub fn bar(scale: f64) -> Result<ShapeParts, ShapeError> {
    check_scale(scale)?;
    let w = SCENE_SIZE * scale;
    Ok(ShapeParts {
        shape_type: ShapeType::Bar,
        parts: vec![polygon(&box_points(w, BAR_THICKNESS))?],
        diameter: px((w * w + BAR_THICKNESS * BAR_THICKNESS).sqrt(), "diameter")?,
    })
}

/// The jar's dimensions at `scale` (px): height, top width, base width, wall thickness.
pub fn jar_dimensions(scale: f64) -> (f64, f64, f64, f64) {
    let h = SCENE_SIZE * scale;
    let w = h / 1.2;
    let b = 0.8 * w;
    let t = ln(h) / ln(76.8) * BAR_THICKNESS;
    (h, w, b, t)
}

/// Jar: a base plate B × t centred at the origin and two slanted walls (3 convex quads);
/// H = 256·s, W = H/1.2, B = 0.8·W, t = ln(H)/ln(76.8)·5.12; diameter 320·s.
pub fn jar(scale: f64) -> Result<ShapeParts, ShapeError> {
    check_scale(scale)?;
    let (h, w, b, t) = jar_dimensions(scale);
    if !(t.is_finite() && t > 0.0 && t < b) {
        return Err(ShapeError::BadNumber("scale (jar too small)"));
    }
    let half_gap = (w - b) / 2.0;
    let hyp = (h * h + half_gap * half_gap).sqrt();
    let (cos, sin) = (half_gap / hyp, h / hyp);
    let (dx, dx_top, dy) = (t * sin, t / sin, t * cos);
    let top = h - t / 2.0;
    let bottom = -t / 2.0;
    let left = [
        (-w / 2.0, top),
        (-b / 2.0, bottom),
        (-b / 2.0 + dx, dy + bottom),
        (-w / 2.0 + dx_top, top),
    ];
    let right = [
        (w / 2.0, top),
        (w / 2.0 - dx_top, top),
        (b / 2.0 - dx, dy + bottom),
        (b / 2.0, bottom),
    ];
    Ok(ShapeParts {
        shape_type: ShapeType::Jar,
        parts: vec![
            polygon(&box_points(b, t))?,
            polygon(&left)?,
            polygon(&right)?,
        ],
        diameter: px(320.0 * scale, "diameter")?,
    })
}

/// Standing sticks: two (2w/3) × (2·5.12/3) sticks crossing at the origin, rotated by −77.5°
/// and +77.5°, w = 256·s; diameter √(w² + 5.12²).
pub fn standing_sticks(scale: f64) -> Result<ShapeParts, ShapeError> {
    check_scale(scale)?;
    let w = SCENE_SIZE * scale;
    let (len, thick) = (2.0 * w / 3.0, 2.0 * BAR_THICKNESS / 3.0);
    let tilt = 77.5 / 180.0 * core::f64::consts::PI;
    let mut parts = Vec::with_capacity(2);
    for angle in [-tilt, tilt] {
        let (s, c) = sin_cos_f64(angle)?;
        let pts = box_points(len, thick).map(|(x, y)| (c * x - s * y, s * x + c * y));
        parts.push(polygon(&pts)?);
    }
    Ok(ShapeParts {
        shape_type: ShapeType::StandingSticks,
        parts,
        diameter: px((w * w + BAR_THICKNESS * BAR_THICKNESS).sqrt(), "diameter")?,
    })
}

/// A scene body made of `shape` at `position` (px, body origin) and `angle` (rad).
pub fn place(
    shape: ShapeParts,
    x: f64,
    y: f64,
    angle: f64,
    kind: BodyKind,
) -> Result<SceneBody, ShapeError> {
    Ok(SceneBody {
        kind,
        shape_type: shape.shape_type,
        position: Vec2::new(px(x, "position")?, px(y, "position")?),
        angle: px(angle, "angle")?,
        diameter: shape.diameter,
        parts: shape.parts,
    })
}

/// The four walls (SPEC §1): static 5 px thick boxes just outside the scene, in the original's
/// order (bottom, left, top, right), without object type.
pub fn walls() -> Vec<SceneBody> {
    let long = SCENE_SIZE;
    let thick = 5.0;
    let diameter = (long * long + thick * thick).sqrt();
    [
        (128.0, -2.5, long, thick),
        (-2.5, 128.0, thick, long),
        (128.0, 258.5, long, thick),
        (258.5, 128.0, thick, long),
    ]
    .into_iter()
    .map(|(x, y, w, h)| SceneBody {
        kind: BodyKind::Static,
        shape_type: ShapeType::Undefined,
        position: Vec2::new(exact(x), exact(y)),
        angle: Fixed::ZERO,
        diameter: exact(diameter),
        parts: vec![polygon(&box_points(w, h)).expect("wall corners are exact")],
    })
    .collect()
}

/// Conversion of a constant known to be in range.
fn exact(v: f64) -> Fixed {
    Fixed::from_f64(v).expect("constant in range")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ln_matches_the_platform_closely() {
        for &x in &[
            1e-300, 1e-5, 0.3, 0.5, 1.0, 1.5, 2.0, 76.8, 89.6, 256.0, 1e10, 1e300,
        ] {
            let (a, b) = (ln(x), x.ln());
            assert!(
                (a - b).abs() <= 4.0 * f64::EPSILON * b.abs().max(1.0),
                "{x}: {a} vs {b}"
            );
        }
        assert_eq!(ln(1.0), 0.0);
        assert!(ln(0.0).is_nan() && ln(-1.0).is_nan() && ln(f64::NAN).is_nan());
        assert!(ln(f64::INFINITY).is_nan());
        assert!((ln(5e-324) - 5e-324f64.ln()).abs() < 1e-12);
    }

    #[test]
    fn jar_dimensions_at_scale_0_35() {
        let (h, w, b, t) = jar_dimensions(0.35);
        assert!((h - 89.6).abs() < 1e-12);
        assert!((w - 74.6667).abs() < 1e-4);
        assert!((b - 59.7333).abs() < 1e-4);
        assert!((t - 5.3018).abs() < 1e-4);
    }

    #[test]
    fn shapes_are_valid_and_reject_bad_scales() {
        for s in [0.05, 0.2, 0.35, 0.6, 1.0] {
            for make in [ball, bar, jar, standing_sticks] {
                let a = place(make(s).unwrap(), 100.0, 100.0, 0.3, BodyKind::Dynamic).unwrap();
                let b = place(make(s).unwrap(), 50.0, 20.0, 0.0, BodyKind::Static).unwrap();
                let goal = crate::model::TaskGoal {
                    body1: 0,
                    relation: crate::model::Relation::Touching,
                    body2: 1,
                };
                let id = crate::TaskId::new(1, 0).unwrap();
                crate::model::Task::new(id, crate::Tier::Ball, String::new(), vec![a, b], goal)
                    .unwrap();
            }
        }
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, 5.0] {
            assert!(ball(bad).is_err() && bar(bad).is_err() && jar(bad).is_err());
            assert!(standing_sticks(bad).is_err());
        }
        assert_eq!(ball(0.06).unwrap().diameter, Fixed::from_int(15));
    }
}
