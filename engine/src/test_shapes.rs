//! Shapes and transforms from float literals for the engine's unit tests (collision and time of
//! impact share them).
#![allow(clippy::float_arithmetic)]

use crate::fixed::Fixed;
use crate::math::{Transform, Vec2};
use crate::shape::{Circle, Polygon, Shape};

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
