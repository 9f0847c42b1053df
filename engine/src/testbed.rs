//! Standard scenes for tests, benchmarks and determinism audits, built in scene pixels
//! (1 px = 1/6 m) with exact rational coordinates so no float is involved. Only with the
//! `testbed` feature: the engine itself never uses them.

use crate::body::{BodyDef, BodyKind};
use crate::fixed::Fixed;
use crate::math::Vec2;
use crate::shape::{Circle, Polygon, Shape};
use crate::world::World;

/// `num / den` pixels in metres (exact rational, truncated to Q32.32).
pub fn px(num: i64, den: i64) -> Fixed {
    Fixed::ratio(num, den * crate::settings::PX_PER_METRE)
}

/// A point at integer pixel coordinates, in metres.
pub fn px2(x: i64, y: i64) -> Vec2 {
    Vec2::new(px(x, 1), px(y, 1))
}

/// A box of `w` × `h` px (integers) centred at the body origin.
pub fn box_shape(w: i64, h: i64) -> Shape {
    Shape::Polygon(
        Polygon::new_box(px(w, 2), px(h, 2), Vec2::ZERO, Fixed::ZERO).expect("box is valid"),
    )
}

/// A circle of radius `r` px centred at the body origin.
pub fn ball_shape(r_num: i64, r_den: i64) -> Shape {
    Shape::Circle(Circle {
        center: Vec2::ZERO,
        radius: px(r_num, r_den),
    })
}

/// A static floor: a 256 × 6 px bar whose top is at y = 10 px.
pub fn add_floor(world: &mut World) {
    world
        .add_body(&BodyDef::new(
            BodyKind::Static,
            px2(128, 7),
            Fixed::ZERO,
            vec![box_shape(256, 6)],
        ))
        .expect("floor");
}

/// A pyramid of `rows` rows of 10 px boxes on the floor (rows·(rows+1)/2 boxes).
pub fn pyramid(rows: i64) -> World {
    let mut w = World::new();
    add_floor(&mut w);
    for row in 0..rows {
        let n = rows - row;
        for i in 0..n {
            // Doubled pixel coordinates; each row rests on the one below across the two polygon
            // skins (2 × 0.01 m), so the pyramid starts at its rest pose.
            let x2 = 2 * 128 - 10 * (n - 1) + 20 * i;
            let y2 = 2 * 10 + 10 + 20 * row;
            let skins = crate::settings::POLYGON_RADIUS.mul_int(2 * (row + 1));
            let pos = Vec2::new(px(x2, 2), px(y2, 2) + skins);
            w.add_body(&BodyDef::new(
                BodyKind::Dynamic,
                pos,
                Fixed::ZERO,
                vec![box_shape(10, 10)],
            ))
            .expect("box");
        }
    }
    w
}

/// A U-shaped jar of three quads (base 40 × 4 px, walls 4 × 30 px leaning outwards) with its
/// base plate resting on the floor.
pub fn jar_shapes() -> Vec<Shape> {
    let p = |x: i64, y: i64| Vec2::new(px(x, 2), px(y, 2)); // half-pixel units
    let base = Polygon::new(&[p(-40, -4), p(40, -4), p(40, 4), p(-40, 4)]).expect("base");
    let left = Polygon::new(&[p(-48, 60), p(-40, -4), p(-32, -4), p(-40, 60)]).expect("left");
    let right = Polygon::new(&[p(48, 60), p(40, 60), p(32, -4), p(40, -4)]).expect("right");
    vec![
        Shape::Polygon(base),
        Shape::Polygon(left),
        Shape::Polygon(right),
    ]
}

/// A dynamic jar on the floor with a ball of radius 8 px resting on its base plate.
/// Body ids: 0 floor, 1 jar, 2 ball.
pub fn ball_in_jar() -> World {
    let mut w = World::new();
    add_floor(&mut w);
    w.add_body(&BodyDef::new(
        BodyKind::Dynamic,
        px2(128, 12),
        Fixed::ZERO,
        jar_shapes(),
    ))
    .expect("jar");
    w.add_body(&BodyDef::new(
        BodyKind::Dynamic,
        px2(128, 22),
        Fixed::ZERO,
        vec![ball_shape(8, 1)],
    ))
    .expect("ball");
    w
}

/// Two static side walls (6 px thick, 250 px tall) at the scene's edges.
pub fn add_side_walls(world: &mut World) {
    for x in [3, 253] {
        world
            .add_body(&BodyDef::new(
                BodyKind::Static,
                px2(x, 135),
                Fixed::ZERO,
                vec![box_shape(6, 250)],
            ))
            .expect("wall");
    }
}

/// A seesaw between side walls: a static pivot, a dynamic plank resting on it, a ball dropped
/// on one end.
pub fn seesaw() -> World {
    let mut w = World::new();
    add_floor(&mut w);
    add_side_walls(&mut w);
    let pivot = Polygon::new(&[px2(-10, 0), px2(10, 0), px2(0, 20)]).expect("pivot");
    w.add_body(&BodyDef::new(
        BodyKind::Static,
        px2(128, 10),
        Fixed::ZERO,
        vec![Shape::Polygon(pivot)],
    ))
    .expect("pivot");
    w.add_body(&BodyDef::new(
        BodyKind::Dynamic,
        px2(128, 33),
        Fixed::ZERO,
        vec![box_shape(120, 6)],
    ))
    .expect("plank");
    w.add_body(&BodyDef::new(
        BodyKind::Dynamic,
        px2(80, 120),
        Fixed::ZERO,
        vec![ball_shape(6, 1)],
    ))
    .expect("ball");
    w
}

/// A ball of radius 5 px dropped from y = 200 px onto the floor.
pub fn bounce() -> World {
    let mut w = World::new();
    add_floor(&mut w);
    w.add_body(&BodyDef::new(
        BodyKind::Dynamic,
        px2(128, 200),
        Fixed::ZERO,
        vec![ball_shape(5, 1)],
    ))
    .expect("ball");
    w
}

/// 20 bodies (balls and boxes of several sizes, some rotated) dropped into a static bin.
pub fn pile() -> World {
    let mut w = World::new();
    add_floor(&mut w);
    for x in [60, 196] {
        w.add_body(&BodyDef::new(
            BodyKind::Static,
            px2(x, 70),
            Fixed::ZERO,
            vec![box_shape(6, 120)],
        ))
        .expect("wall");
    }
    for i in 0..20i64 {
        let x = 80 + (i * 37) % 96;
        let y = 40 + 14 * i;
        let angle = Fixed::ratio((i * 7) % 11 - 5, 10);
        let shape = if i % 3 == 0 {
            box_shape(8 + i % 5, 6 + i % 4)
        } else {
            ball_shape(4 + i % 4, 1)
        };
        w.add_body(&BodyDef::new(
            BodyKind::Dynamic,
            px2(x, y),
            angle,
            vec![shape],
        ))
        .expect("body");
    }
    w
}

/// A 10-body scene shaped like a PHYRE task: the 4 invisible walls, two static bars (one
/// tilted), a dynamic jar, a dynamic bar resting on a static ledge, and three balls (one of
/// them dropped from high, like an agent's action).
pub fn phyre_like() -> World {
    let mut w = World::new();
    // Walls: 5 px thick, just outside the 256 px square.
    for (x2, y2, wd, ht) in [
        (256, -5, 256, 5),
        (-5, 256, 5, 256),
        (256, 517, 256, 5),
        (517, 256, 5, 256),
    ] {
        let pos = Vec2::new(px(x2, 2), px(y2, 2));
        w.add_body(&BodyDef::new(
            BodyKind::Static,
            pos,
            Fixed::ZERO,
            vec![box_shape(2 * wd, 2 * ht)],
        ))
        .expect("wall");
    }
    w.add_body(&BodyDef::new(
        BodyKind::Static,
        px2(90, 60),
        Fixed::ratio(-15, 100),
        vec![box_shape(120, 5)],
    ))
    .expect("tilted bar");
    w.add_body(&BodyDef::new(
        BodyKind::Static,
        px2(200, 120),
        Fixed::ZERO,
        vec![box_shape(90, 5)],
    ))
    .expect("ledge");
    w.add_body(&BodyDef::new(
        BodyKind::Dynamic,
        px2(190, 12),
        Fixed::ZERO,
        jar_shapes(),
    ))
    .expect("jar");
    w.add_body(&BodyDef::new(
        BodyKind::Dynamic,
        px2(205, 125),
        Fixed::ZERO,
        vec![box_shape(60, 5)],
    ))
    .expect("dynamic bar");
    w.add_body(&BodyDef::new(
        BodyKind::Dynamic,
        px2(60, 90),
        Fixed::ZERO,
        vec![ball_shape(9, 1)],
    ))
    .expect("ball");
    w.add_body(&BodyDef::new(
        BodyKind::Dynamic,
        px2(230, 140),
        Fixed::ZERO,
        vec![ball_shape(6, 1)],
    ))
    .expect("ball");
    w.add_body(&BodyDef::new(
        BodyKind::Dynamic,
        px2(200, 230),
        Fixed::ZERO,
        vec![ball_shape(12, 1)],
    ))
    .expect("user ball");
    w
}

/// The named scenes used for golden hashes, audits and benchmarks.
pub fn named_scenes() -> Vec<(&'static str, World)> {
    vec![
        ("pyramid", pyramid(4)),
        ("ball_in_jar", ball_in_jar()),
        ("seesaw", seesaw()),
        ("bounce", bounce()),
        ("pile", pile()),
    ]
}
