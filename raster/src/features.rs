//! Object features (SPEC §5): 14 numbers per object.
//!
//! | index | feature |
//! |---|---|
//! | 0, 1 | x / 256, y / 256 (px; a jar's centre of mass, every other shape's body origin) |
//! | 2 | angle wrapped to [0, 2π), divided by 2π |
//! | 3 | diameter / 256 (px; ball 2r, bar and sticks √(w² + h²), jar 320·scale) |
//! | 4–7 | one-hot shape: ball, bar, jar, standing sticks |
//! | 8–13 | one-hot colour: red, green, blue, purple, gray, black |
//!
//! The output is `f32`, like PHYRE's float32 arrays; floats appear only at that boundary.
//! Position and diameter are computed exactly in integers from the engine's Q32.32 state and
//! rounded once (the scalings by 6 px/m and 1/256 are powers of two apart from the factor 3, so
//! `x / 256 = raw · 3 · 2^-39` exactly before the rounding); the angle is wrapped exactly in
//! integers and divided by 2π in f64 before the rounding to f32.

use engine::{BodyId, Fixed, World};

/// Numbers per object.
pub const FEATURES: usize = 14;

/// One object's features.
pub type Features = [f32; FEATURES];

/// Names of the 14 features, in order (for headers and debugging).
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "x", "y", "angle", "diameter", "ball", "bar", "jar", "sticks", "red", "green", "blue",
    "purple", "gray", "black",
];

/// What kind of object a body is, for the one-hot shape block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShapeKind {
    /// A single circle.
    Ball,
    /// A thin box.
    Bar,
    /// Three quads: base plate and two walls; its origin is the centre of the base plate.
    Jar,
    /// Two crossing thin boxes.
    StandingSticks,
}

impl ShapeKind {
    /// Position in the one-hot block (ball 0, bar 1, jar 2, sticks 3).
    pub const fn index(self) -> usize {
        match self {
            ShapeKind::Ball => 0,
            ShapeKind::Bar => 1,
            ShapeKind::Jar => 2,
            ShapeKind::StandingSticks => 3,
        }
    }
}

/// What the featurizer needs to know about one object beyond its body's state in the world.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ObjectDesc {
    /// The object's body.
    pub body: BodyId,
    /// Its shape kind.
    pub shape: ShapeKind,
    /// The size feature in px (ball 2r; bar and sticks √(w² + h²); jar 320·scale).
    pub diameter_px: Fixed,
    /// Its pixel colour, 1–6 (0 = not an object: walls; skipped).
    pub colour: u8,
}

/// 2^-k as f32 (exact for the k used here).
fn pow2_neg(k: i32) -> f32 {
    f32::from_bits(((127 - k) as u32) << 23)
}

/// An integer scaled by 2^-k, rounded once to f32.
#[allow(clippy::float_arithmetic)]
fn scaled(v: i128, k: i32) -> f32 {
    // `as f32` rounds to nearest; multiplying by a power of two is then exact.
    v as f32 * pow2_neg(k)
}

/// The features of one object in `world`, or `None` when its body does not exist or its colour
/// is 0 (walls have no features).
///
/// A colour above 6 leaves the colour block all zero.
#[allow(clippy::float_arithmetic)]
pub fn features_of(world: &World, o: &ObjectDesc) -> Option<Features> {
    if o.colour == 0 {
        return None;
    }
    let body = world.body(o.body)?;
    // A jar's origin is the middle of its base plate; its features use the centre of mass.
    // Balls, bars and sticks are symmetric about their origin, so the origin is used as is.
    let p = if o.shape == ShapeKind::Jar {
        body.world_center()
    } else {
        body.position()
    };
    let mut f = [0f32; FEATURES];
    // raw / 2^32 m · 6 px/m / 256 = raw · 3 / 2^39.
    f[0] = scaled(p.x.raw() as i128 * 3, 39);
    f[1] = scaled(p.y.raw() as i128 * 3, 39);
    let tau = Fixed::TAU.raw();
    let wrapped = body.angle().raw().rem_euclid(tau);
    // wrapped / tau < 1 exactly; rounding to f32 can still reach 1.0 for angles within 2^-25
    // of a full turn, which is the same direction as 0.
    let a = (wrapped as f64 / tau as f64) as f32;
    f[2] = if a >= 1.0 { 0.0 } else { a };
    // raw / 2^32 px / 256.
    f[3] = scaled(o.diameter_px.raw() as i128, 40);
    f[4 + o.shape.index()] = 1.0;
    if (1..=6).contains(&o.colour) {
        f[8 + (o.colour - 1) as usize] = 1.0;
    }
    Some(f)
}

/// Features of every object in the order given (scene objects, then user balls, as the caller
/// lists them), skipping colour-0 objects and bodies missing from `world`.
pub fn object_features(world: &World, objects: &[ObjectDesc]) -> Vec<Features> {
    objects
        .iter()
        .filter_map(|o| features_of(world, o))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn power_of_two_scaling_is_exact() {
        assert_eq!(pow2_neg(0), 1.0);
        assert_eq!(pow2_neg(39), 1.0 / 549_755_813_888.0);
        // 100 px = 100/6 m: raw · 3 / 2^39 with raw = 100 · 2^32 / 6 exactly (when divisible)
        // gives 100 / 256.
        assert_eq!(scaled(100i128 << 39, 39) / 256.0, 0.390625);
        assert_eq!(scaled(10i128 << 32, 40), 0.0390625);
    }
}
