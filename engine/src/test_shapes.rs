//! Shapes and transforms from float literals for the engine's unit tests (collision and time of
//! impact share them), and random shapes for time of impact's properties.
#![allow(clippy::float_arithmetic)]

use crate::fixed::Fixed;
use crate::math::{Transform, Vec2};
use crate::shape::{Circle, Polygon, Shape};
use proptest::prelude::*;

pub fn fx(v: f64) -> Fixed {
    Fixed::from_f64(v).unwrap()
}

pub fn v(x: f64, y: f64) -> Vec2 {
    Vec2::from_f64(x, y).unwrap()
}

pub fn xf(x: f64, y: f64, angle: f64) -> Transform {
    Transform::new(v(x, y), fx(angle))
}

pub fn bx(hx: f64, hy: f64) -> Shape {
    Shape::Polygon(Polygon::new_box(fx(hx), fx(hy), Vec2::ZERO, Fixed::ZERO).unwrap())
}

pub fn ball(r: f64) -> Shape {
    Shape::Circle(Circle {
        center: Vec2::ZERO,
        radius: fx(r),
    })
}

/// A box (half-extents 0.02 to 2 m, centre within 0.5 m of the origin, any angle) or a ball
/// (radius 0.05 to 1.5 m, centre likewise).
pub fn arb_box_or_ball() -> impl Strategy<Value = Shape> {
    prop_oneof![
        (
            0.02f64..2.0,
            0.02f64..2.0,
            -0.5f64..0.5,
            -0.5f64..0.5,
            -3.2f64..3.2
        )
            .prop_map(|(hx, hy, cx, cy, a)| {
                Shape::Polygon(Polygon::new_box(fx(hx), fx(hy), v(cx, cy), fx(a)).unwrap())
            }),
        (0.05f64..1.5, -0.5f64..0.5, -0.5f64..0.5).prop_map(|(r, cx, cy)| Shape::Circle(Circle {
            center: v(cx, cy),
            radius: fx(r)
        })),
    ]
}
