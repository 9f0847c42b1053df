//! The logic of every fuzz target, as plain functions: libFuzzer binaries in `fuzz_targets/`
//! call them, and `tests/corpus.rs` replays the committed corpora through them in CI.

use engine::testbed::{ball_shape, box_shape, px};
use engine::{BodyDef, BodyKind, Fixed, Polygon, Shape, Vec2, World};

/// A cursor over fuzz input that yields zeros once exhausted (so every input decodes).
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn u8(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }
    fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }
    fn i16(&mut self) -> i16 {
        self.u16() as i16
    }
}

/// Decode arbitrary bytes into a scene of up to 24 bodies of every kind (balls, boxes, convex
/// polygons, jars, crossed sticks; static or dynamic; with initial velocities), anywhere in
/// and around the 256 px box. Bodies the engine refuses are skipped.
pub fn scene_from_bytes(data: &[u8]) -> World {
    let mut b = Bytes(data);
    let mut w = World::new();
    let n = b.u8() % 25;
    for _ in 0..n {
        let kind = b.u8();
        // Position: −64 … 320 px in 1/64 px steps.
        let x = Fixed::ratio(b.u16() as i64 * 6 - 64 * 64 * 6, 64 * 36);
        let y = Fixed::ratio(b.u16() as i64 * 6 - 64 * 64 * 6, 64 * 36);
        let size = 1 + (b.u8() as i64) % 64;
        let angle = Fixed::ratio(b.i16() as i64, 1000);
        let parts = match kind % 5 {
            0 => vec![ball_shape(size, 2)],
            1 => vec![box_shape(size + 1, 1 + (b.u8() as i64 % 20))],
            2 => {
                let pts: Vec<Vec2> = (0..3 + b.u8() % 6)
                    .map(|_| Vec2::new(px(b.i16() as i64 % 400, 10), px(b.i16() as i64 % 400, 10)))
                    .collect();
                match Polygon::new(&pts) {
                    Ok(p) => vec![Shape::Polygon(p)],
                    Err(_) => continue,
                }
            }
            3 => engine::testbed::jar_shapes(),
            _ => {
                let stick = |a| {
                    Polygon::new_box(px(size, 2), px(1, 1), Vec2::ZERO, Fixed::ratio(a, 100))
                        .map(Shape::Polygon)
                };
                match (stick(135), stick(-135)) {
                    (Ok(s1), Ok(s2)) => vec![s1, s2],
                    _ => continue,
                }
            }
        };
        let dynamic = kind & 0x80 != 0;
        let mut def = BodyDef::new(
            if dynamic {
                BodyKind::Dynamic
            } else {
                BodyKind::Static
            },
            Vec2::new(x, y),
            angle,
            parts,
        );
        def.linear_velocity = Vec2::new(
            Fixed::ratio(b.i16() as i64, 100),
            Fixed::ratio(b.i16() as i64, 100),
        );
        def.angular_velocity = Fixed::ratio(b.i16() as i64, 100);
        let _ = w.add_body(&def);
    }
    w
}

/// Target (a): build a scene, step it 200 times; the run must not panic (overflow checks are
/// on), must give the same per-step hash chain twice, and a snapshot taken at step 100 must
/// continue bit for bit.
pub fn scene_step(data: &[u8]) {
    let world = scene_from_bytes(data);
    let run = |mut w: World, steps: u32| {
        let mut h = 0;
        for _ in 0..steps {
            w.step();
            h = engine::hash::chain(h, w.state_hash());
        }
        (h, w)
    };
    let (h1, _) = run(world.clone(), 200);
    let (h_mid, mid) = run(world.clone(), 100);
    let (h2, _) = run(world, 200);
    assert_eq!(h1, h2, "two runs of the same scene differ");
    let (h_rest, _) = run(mid.clone(), 100);
    let (h_rest2, _) = run(mid, 100);
    assert_eq!(h_rest, h_rest2, "a snapshot does not continue identically");
    let _ = h_mid;
}
