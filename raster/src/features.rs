//! Object features (SPEC §5): 14 numbers per object: x/256, y/256, angle in [0, 2π) / 2π,
//! diameter/256, one-hot shape (ball, bar, jar, standing sticks), one-hot colour (red, green,
//! blue, purple, gray, black). Floats appear only here, at the output boundary.

use engine::{BodyId, Fixed, World};

/// Shape classes of the features' one-hot block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShapeClass {
    Ball,
    Bar,
    Jar,
    StandingSticks,
}

/// What the featurizer needs to know about one object beyond its body's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ObjectDesc {
    pub body: BodyId,
    pub shape: ShapeClass,
    /// Size feature in pixels (ball 2r; bar and sticks √(w² + h²); jar 320·scale).
    pub diameter_px: Fixed,
    /// Pixel colour value 1–6.
    pub colour: u8,
    /// Report the centre of mass instead of the body origin (jars: origin = base plate).
    pub use_centre_of_mass: bool,
}

/// Features per object, in the order given.
pub const FEATURES: usize = 14;

#[allow(clippy::float_arithmetic)]
pub fn object_features(world: &World, objects: &[ObjectDesc]) -> Vec<[f32; FEATURES]> {
    let tau = std::f64::consts::TAU;
    objects
        .iter()
        .filter_map(|o| {
            let b = world.body(o.body)?;
            let p = if o.use_centre_of_mass {
                b.world_center()
            } else {
                b.position()
            };
            let x = p.x.to_f64() * 6.0 / 256.0;
            let y = p.y.to_f64() * 6.0 / 256.0;
            let a = b.angle().to_f64().rem_euclid(tau) / tau;
            let mut f = [0f32; FEATURES];
            f[0] = x as f32;
            f[1] = y as f32;
            f[2] = (if a >= 1.0 { 0.0 } else { a }) as f32;
            f[3] = (o.diameter_px.to_f64() / 256.0) as f32;
            let shape = match o.shape {
                ShapeClass::Ball => 0,
                ShapeClass::Bar => 1,
                ShapeClass::Jar => 2,
                ShapeClass::StandingSticks => 3,
            };
            f[4 + shape] = 1.0;
            if (1..=6).contains(&o.colour) {
                f[8 + (o.colour - 1) as usize] = 1.0;
            }
            Some(f)
        })
        .collect()
}
